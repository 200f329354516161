from __future__ import annotations

from typing import Any

import pytest

from drivers.events import PodLost, guarded


def test_guarded_post_logs_a_failed_delivery(caplog: pytest.LogCaptureFixture) -> None:
    delivered: list[Any] = []

    def flaky(event: Any) -> None:
        if event.reason == "full":
            raise RuntimeError("queue full")
        delivered.append(event)

    post = guarded(flaky)
    post(PodLost("loop://", "full"))
    post(PodLost("loop://", "fine"))
    assert delivered == [PodLost("loop://", "fine")]
    assert "could not post PodLost(port='loop://', reason='full')" in caplog.text
