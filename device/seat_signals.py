"""What the seat buttons' LEDs, the buzzer and the pods' clocks say: whose move it is, and that time is
running out.

The seat to move (``state.to_move``) has its LED on (pulsing while the timer is paused), blinking fast in
the last 10 seconds of a move; the other seats are dark. The panels are ``drivers.seats.Seats`` (GPIO,
keyboard or pods, and the pods beside GPIO seats); a seat without a clock display ignores
``show_clock``. A failing panel is logged and never stops the game.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from functools import partial
from typing import Protocol

from drivers.seats import LedPattern

__all__ = ["Panel", "SeatSignals"]

log = logging.getLogger(__name__)


class Panel(Protocol):
    """What the signals ask of a panel of seats (``drivers.seats.Seats``: GPIO, keyboard, pods)."""

    def set_led(self, seat: int, pattern: LedPattern) -> None: ...

    def beep(self, count: int = 1, on_time: float = 0.1, off_time: float = 0.1) -> None: ...

    def show_clock(self, seat: int, seconds_left: float | None) -> None: ...


class SeatSignals:
    def __init__(self, panels: Sequence[Panel] = (), seats: int = 4) -> None:
        self.panels = list(panels)
        self.seats = seats
        self.patterns: dict[int, str] = {}  # seat -> LedPattern name, as last shown
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
                pattern = LedPattern.OFF
            elif paused:
                pattern = LedPattern.PULSE
            elif warning:
                pattern = LedPattern.BLINK
            else:
                pattern = LedPattern.ON
            if self.patterns.get(seat) != pattern.name:
                self.patterns[seat] = pattern.name
                self._each(partial(_set_led, seat, pattern))
        clock = (current, None if seconds_left is None else math.ceil(seconds_left))
        if clock != self._clock:
            previous_seat = self._clock[0]
            if previous_seat is not None and previous_seat != current:
                self._each(partial(_show_clock, previous_seat, None))
            if current is not None:
                self._each(partial(_show_clock, current, clock[1]))
            self._clock = clock

    def beep(self, count: int = 1) -> None:
        self._each(partial(_beep, count))

    def _each(self, call: partial[None]) -> None:
        for panel in self.panels:
            try:
                call(panel)
            except Exception:
                log.exception("%s: %s%s failed", type(panel).__name__, call.func.__name__, call.args)


def _set_led(seat: int, pattern: LedPattern, panel: Panel) -> None:
    panel.set_led(seat, pattern)


def _show_clock(seat: int, seconds: int | None, panel: Panel) -> None:
    panel.show_clock(seat, seconds)


def _beep(count: int, panel: Panel) -> None:
    panel.beep(count, 0.1, 0.1)
