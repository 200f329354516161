"""Mock pins that tell a waiting test when their state changes, so tests wait on events, not sleeps."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin


class WatchedPin(MockPWMPin):
    """A PWM-capable mock pin whose state changes wake ``wait_states``."""

    def __init__(self, factory: Any, info: Any) -> None:
        self.changed = threading.Condition()
        super().__init__(factory, info)

    def _change_state(self, value: Any) -> bool:
        changed: bool = super()._change_state(value)
        with self.changed:
            self.changed.notify_all()
        return changed

    def wait_states(self, count: int, timeout: float = 10.0) -> None:
        """Block until the pin has recorded ``count`` states (the initial one included)."""
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.states) >= count, timeout), self.states


@pytest.fixture
def pwm_factory() -> MockFactory:
    """A private mock pin factory with PWM pins (pass it as ``pin_factory``; no global state)."""
    return MockFactory(pin_class=WatchedPin)
