"""What the seat buttons' LEDs, the buzzer and the pods' clocks say: whose turn it is, and that time is
running out.

The current seat's LED is on (pulsing while the timer is paused), it blinks fast in the last 10 seconds
of a move, the other seats are dark. A panel is anything with ``set_led(seat, pattern)`` and optionally
``beep(count, on_time, off_time)`` and ``show_clock(seat, seconds_left)``: ``drivers.seats.SeatPanel``
on a Pi, ``KeyboardSeats`` in the simulator, ``drivers.pods.PodLink`` for seat pods. Patterns are named
``OFF``, ``ON``, ``PULSE``, ``BLINK``; ``pattern_type`` (the drivers' ``LedPattern`` enum) turns a name
into what the panels take. A failing panel is logged and never stops the game.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import Any

__all__ = ["SeatSignals"]

log = logging.getLogger(__name__)


class SeatSignals:
    def __init__(self, panels: Sequence[Any] = (), seats: int = 4, pattern_type: Any = None) -> None:
        self.panels = list(panels)
        self.seats = seats
        self.pattern_type = pattern_type
        self.patterns: dict[int, str] = {}
        self._clock: tuple[int | None, int | None] = (None, None)

    def show(
        self,
        current: int | None,
        *,
        warning: bool = False,
        paused: bool = False,
        seconds_left: float | None = None,
    ) -> None:
        """Light the seats for this frame; the panels are only told about changes."""
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
                value = pattern if self.pattern_type is None else self.pattern_type[pattern]
                self._each("set_led", seat, value)
        clock = (current, None if seconds_left is None else math.ceil(seconds_left))
        if clock != self._clock:
            previous_seat = self._clock[0]
            if previous_seat is not None and previous_seat != current:
                self._each("show_clock", previous_seat, None)
            if current is not None:
                self._each("show_clock", current, clock[1])
            self._clock = clock

    def beep(self, count: int = 1) -> None:
        self._each("beep", count, 0.1, 0.1)

    def _each(self, method: str, *args: Any) -> None:
        for panel in self.panels:
            call = getattr(panel, method, None)
            if call is None:
                continue
            try:
                call(*args)
            except Exception:
                log.exception("%s.%s%s failed", type(panel).__name__, method, args)
