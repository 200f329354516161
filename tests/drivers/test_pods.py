from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.errors import PodError, PodProtocolError
from drivers.events import ButtonEvent, PodConnected, PodLost
from drivers.pod_sim import SimulatedPod
from drivers.pods import LineReader, PodLink, checksum, frame_line, parse_line
from drivers.seats import LedPattern

FAST = {"retry_seconds": (0.02, 0.1), "handshake_seconds": 1.0, "ping_seconds": 0.05, "silence_seconds": 2.0}

bodies = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126, blacklist_characters="*"),
    min_size=1,
    max_size=75,
).filter(lambda s: s.strip() == s and s != "")


@given(bodies)
def test_frame_and_parse_round_trip(body: str) -> None:
    assert parse_line(frame_line(body)) == body


@given(bodies, st.data())
def test_any_single_changed_byte_is_caught(body: str, data: st.DataObject) -> None:
    raw = bytearray(frame_line(body))
    i = data.draw(st.integers(0, len(body) - 1))
    new = data.draw(st.integers(33, 126).filter(lambda b: b not in (raw[i], ord("*"))))
    raw[i] = new
    with pytest.raises(PodProtocolError):
        parse_line(bytes(raw))


def test_parse_refuses_broken_lines() -> None:
    for raw, why in [
        (b"P1 PRESS", "no checksum"),
        (b"P1 PRESS*0", "no checksum"),
        (b"P1 PRESS*GG", "digits"),
        (b"P1 PRESS*00", "wrong checksum"),
        (b"\xff\xfe*00", "not ASCII"),
        (b"*00", "no checksum"),
        (b" *20", "empty message"),
    ]:
        with pytest.raises(PodProtocolError, match=why):
            parse_line(raw)
    assert checksum("") == 0
    with pytest.raises(ValueError):
        frame_line("A*B")


def test_line_reader_joins_partial_lines_and_drops_runaway_garbage() -> None:
    reader = LineReader()
    assert reader.feed(b"P1 PR") == []
    assert reader.feed(b"ESS*06\r\n\nPO") == [b"P1 PRESS*06\r"]
    assert reader.feed(b"NG*16\n") == [b"PONG*16"]
    assert reader.feed(b"x" * 200) == []
    assert reader.feed(b"PING*10\n") == [b"PING*10"]
    assert reader.feed(b"y" * 80 + b"\nPONG*16\n") == [b"PONG*16"]


@pytest.fixture
def events() -> queue.Queue[Any]:
    return queue.Queue()


@pytest.fixture
def pod(tmp_path: Path) -> Iterator[SimulatedPod]:
    with SimulatedPod(link=tmp_path / "referee-pods") as pod:
        yield pod


@pytest.fixture
def link_factory(events: queue.Queue[Any]) -> Iterator[Callable[..., PodLink]]:
    links: list[PodLink] = []

    def make(url: str, **kw: Any) -> PodLink:
        link = PodLink(url, post=events.put, **{**FAST, **kw})
        links.append(link)
        link.start()
        return link

    yield make
    for link in links:
        link.close()


def test_handshake_then_buttons_leds_and_clock(
    pod: SimulatedPod, link_factory: Callable[..., PodLink], events: queue.Queue[Any]
) -> None:
    link = link_factory(pod.port)
    assert events.get(timeout=10) == PodConnected(pod.port, "1 simpod-1.0")
    assert link.connected and link.version == "1 simpod-1.0"
    pod.press(0)
    pod.press(2, "HOLD")
    pod.press(2, "RELEASE")
    assert [events.get(timeout=10) for _ in range(3)] == [
        ButtonEvent(0, "press", "pod"),
        ButtonEvent(2, "hold", "pod"),
        ButtonEvent(2, "release", "pod"),
    ]
    link.set_led(1, LedPattern.BLINK)
    link.show_clock(1, 41.2)
    link.show_clock(3, None)
    assert pod.wait_for(lambda: pod.leds == {1: "BLINK"} and pod.clocks == {1: "42", 3: "OFF"})
    assert pod.wait_for(lambda: "PING" in pod.received)  # keep-alive
    with pytest.raises(ValueError):
        link.set_led(8, LedPattern.ON)


def test_garbage_partial_lines_and_bad_checksums_are_survived(
    pod: SimulatedPod,
    link_factory: Callable[..., PodLink],
    events: queue.Queue[Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    link_factory(pod.port)
    assert isinstance(events.get(timeout=10), PodConnected)
    pod.send_raw(b"\x00\xff\xfe noise\n")
    pod.send_raw(b"P2 PRESS*00\n")  # wrong checksum
    pod.send_raw(b"#" * 300 + b"\n")  # a runaway line
    pod.send_raw(b"  *00\n")  # a blank message with a right checksum
    pod.send("WHAT IS THIS")
    pod.send("ERR bad checksum")
    pod.send_raw(b"\nP4 PR")  # half a line ...
    pod.send_raw(b"ESS*" + f"{checksum('P4 PRESS'):02X}".encode() + b"\n")  # ... and its rest
    assert events.get(timeout=10) == ButtonEvent(3, "press", "pod")
    assert events.empty()
    assert "not ASCII" in caplog.text
    assert "wrong checksum" in caplog.text
    assert "bytes of garbage without a line end" in caplog.text
    assert "unknown message 'WHAT IS THIS'" in caplog.text
    assert "refused a line: bad checksum" in caplog.text


def test_unplug_is_lost_then_reconnects_and_resends_the_seats(
    pod: SimulatedPod, link_factory: Callable[..., PodLink], events: queue.Queue[Any]
) -> None:
    link = link_factory(pod.port)
    assert isinstance(events.get(timeout=10), PodConnected)
    link.set_led(0, LedPattern.PULSE)
    assert pod.wait_for(lambda: pod.leds.get(0) == "PULSE")
    pod.unplug()
    lost = events.get(timeout=10)
    assert isinstance(lost, PodLost) and lost.port == pod.port
    link.set_led(0, LedPattern.BLINK)  # changed while unplugged
    link.show_clock(0, 9)
    pod.leds.clear()
    pod.plug()
    assert events.get(timeout=10) == PodConnected(pod.port, "1 simpod-1.0")
    assert pod.wait_for(lambda: pod.leds == {0: "BLINK"} and pod.clocks == {0: "9"})
    pod.press(1)
    assert events.get(timeout=10) == ButtonEvent(1, "press", "pod")


def test_a_port_that_is_not_there_yet(
    tmp_path: Path, link_factory: Callable[..., PodLink], events: queue.Queue[Any]
) -> None:
    path = tmp_path / "pods"
    link_factory(str(path))
    lost = events.get(timeout=10)
    assert isinstance(lost, PodLost) and "cannot open" in lost.reason
    with SimulatedPod(link=path):
        assert events.get(timeout=10) == PodConnected(str(path), "1 simpod-1.0")
    assert events.get(timeout=10).port == str(path)  # lost once more when it goes


def test_wrong_protocol_version_is_refused(
    tmp_path: Path, link_factory: Callable[..., PodLink], events: queue.Queue[Any]
) -> None:
    with SimulatedPod(version="2") as pod:
        link = link_factory(pod.port)
        lost = events.get(timeout=10)
        assert isinstance(lost, PodLost) and "protocol 2" in lost.reason
        assert not link.connected


def test_a_silent_pod_is_lost(link_factory: Callable[..., PodLink], events: queue.Queue[Any]) -> None:
    with SimulatedPod(answer_pings=False) as pod:
        link_factory(pod.port, silence_seconds=0.3)
        assert isinstance(events.get(timeout=10), PodConnected)
        lost = events.get(timeout=10)
        assert isinstance(lost, PodLost) and "silent" in lost.reason


def test_a_pod_that_never_answers_fails_the_handshake(
    link_factory: Callable[..., PodLink], events: queue.Queue[Any], tmp_path: Path
) -> None:
    import os
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        link_factory(os.ttyname(slave), handshake_seconds=0.2)
        lost = events.get(timeout=10)
        assert isinstance(lost, PodLost) and "no HELLO" in lost.reason
        assert issubclass(PodError, OSError)
    finally:
        os.close(master)
        os.close(slave)


def test_loop_url_answers_its_own_handshake(
    link_factory: Callable[..., PodLink], events: queue.Queue[Any]
) -> None:
    link = link_factory("loop://")
    assert events.get(timeout=10) == PodConnected("loop://", "1")
    link.set_led(0, LedPattern.ON)  # comes back on the loop and is ignored
    link.show_clock(0, 5)
    assert link.connected


class BrokenPort:
    """A port whose driver misbehaves in a way no one planned for."""

    in_waiting = 0

    def write(self, data: bytes) -> int:
        return len(data)

    def read(self, size: int) -> bytes:
        raise RuntimeError("driver bug")

    def close(self) -> None:
        pass


def test_an_unexpected_failure_is_a_lost_pod_and_the_link_retries(
    monkeypatch: pytest.MonkeyPatch, link_factory: Callable[..., PodLink], events: queue.Queue[Any]
) -> None:
    opened: list[str] = []

    def open_port(url: str, **kw: Any) -> BrokenPort:
        opened.append(url)
        return BrokenPort()

    monkeypatch.setattr("serial.serial_for_url", open_port)
    link_factory("/dev/referee-pods")
    lost = events.get(timeout=10)
    assert lost == PodLost("/dev/referee-pods", "driver bug")
    deadline = time.monotonic() + 10
    while len(opened) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(opened) >= 3  # it keeps retrying
    assert events.empty()  # one loss per outage


def test_a_flood_of_garbage_is_logged_rate_limited_with_a_counter(caplog: pytest.LogCaptureFixture) -> None:
    """10,000 bad lines in a minute: a few warnings and one summary line with the count, not 10,000."""
    from drivers.pods import WarningLimit

    now = [0.0]
    limit = WarningLimit(logging.getLogger("drivers.pods"), "pods on test", clock=lambda: now[0])
    reader = LineReader(limit)
    caplog.set_level(logging.WARNING, logger="drivers.pods")
    for i in range(10_000):
        for raw in reader.feed(b"garbage %d\n" % i + b"#" * 300):
            try:
                parse_line(raw)
            except PodProtocolError as exc:
                limit.warn("bad line", "dropped a line: %s", exc)
        now[0] += 0.005  # 10,000 lines in 50 s
    assert limit.total == {"bad line": 10_000, "garbage run": 10_000}
    logged = len(caplog.records)
    assert logged == 10  # five of each kind
    now[0] = 61.0
    limit.flush()
    summaries = [r.getMessage() for r in caplog.records[logged:]]
    assert sorted(summaries) == [
        "pods on test: … 9995 more bad lines in the last minute",
        "pods on test: … 9995 more garbage runs in the last minute",
    ]
    assert limit.warn("bad line", "dropped a line: %s", "again")  # a new minute: logged again
