"""What the seat buttons' LEDs and the buzzer say: whose turn it is, and that time is running out.

The current seat's LED is on (pulsing while the timer is paused), it blinks fast in the last 10 seconds
of a move, the other seats are dark. The panel is anything with ``set_led(seat, pattern)`` and
``beep(count, on_time, off_time)``: ``drivers.seats.SeatPanel`` on a Pi, ``KeyboardSeats`` in the
simulator. Patterns are named ``OFF``, ``ON``, ``PULSE``, ``BLINK``; ``pattern_type`` (the drivers'
``LedPattern`` enum) turns a name into what the panel takes.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

__all__ = ["SeatPanelLike", "SeatSignals"]

log = logging.getLogger(__name__)


class SeatPanelLike(Protocol):
    def set_led(self, seat: int, pattern: Any) -> None: ...

    def beep(self, count: int = 1, on_time: float = 0.1, off_time: float = 0.1) -> None: ...


class SeatSignals:
    def __init__(self, panel: SeatPanelLike | None, seats: int, pattern_type: Any = None) -> None:
        self.panel = panel
        self.pattern_type = pattern_type
        self.seats = seats
        self.patterns: dict[int, str] = {}

    def show(self, current: int | None, *, warning: bool = False, paused: bool = False) -> None:
        """Light the seats for this frame; the panel is only told about changes."""
        for seat in range(self.seats):
            if seat != current:
                pattern = "OFF"
            elif paused:
                pattern = "PULSE"
            elif warning:
                pattern = "BLINK"
            else:
                pattern = "ON"
            if self.patterns.get(seat) != pattern:
                self.patterns[seat] = pattern
                self._send(seat, pattern)

    def beep(self, count: int = 1) -> None:
        if self.panel is not None:
            try:
                self.panel.beep(count, 0.1, 0.1)
            except Exception:  # a buzzer fault must not stop the game
                log.exception("buzzer failed")

    def _send(self, seat: int, pattern: str) -> None:
        if self.panel is None:
            return
        try:
            self.panel.set_led(seat, pattern if self.pattern_type is None else self.pattern_type[pattern])
        except Exception:  # a broken LED must not stop the game
            log.exception("seat %d LED failed", seat)
