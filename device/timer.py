"""The move timer: a monotonic clock (injected, so tests use a fake one), warnings, pause, time used.

The timer always measures how long each seat has used (shown at the end of a game); the limit only
decides whether warnings and a timeout happen. ``poll`` reports each of them once per move.

>>> now = [0.0]
>>> t = MoveTimer(limit_seconds=30, clock=lambda: now[0])
>>> t.start(seat=0)
>>> now[0] = 21.0
>>> t.poll()
'warning'
>>> now[0] = 30.0
>>> t.poll()
'timeout'
>>> t.used(0)
30.0
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

__all__ = ["WARNING_SECONDS", "Clock", "MoveTimer", "TimerSignal"]

Clock = Callable[[], float]
TimerSignal = Literal["warning", "timeout"]

# DESIGN.md: LED blink, buzzer and a red clock in the last 10 seconds of a move.
WARNING_SECONDS = 10.0


class MoveTimer:
    def __init__(self, limit_seconds: float = 0, clock: Clock = time.monotonic) -> None:
        self.limit_seconds = float(limit_seconds)
        self._clock = clock
        self._seat: int | None = None
        self._started = 0.0  # clock value when the running stretch of the current move began
        self._banked = 0.0  # time of the current move before the last pause
        self._lap_mark = 0.0
        self._paused = False
        self._warned = False
        self._timed_out = False
        self._used: dict[int, float] = {}
        self._extra = 0.0  # seconds added to the current move (Rummikub's time extensions)

    def now(self) -> float:
        return self._clock()

    @property
    def enabled(self) -> bool:
        return self.limit_seconds > 0

    @property
    def paused(self) -> bool:
        return self._paused

    def start(self, seat: int) -> None:
        """A new move for ``seat``: the time of the previous move is booked to its seat."""
        self.stop()
        self._seat = seat
        self._started = self._clock()
        self._banked = 0.0
        self._lap_mark = 0.0
        self._warned = False
        self._timed_out = False
        self._extra = 0.0

    def extend(self, seconds: float) -> None:
        """Add ``seconds`` to the current move's limit; the warning and the timeout come again."""
        if self._seat is None or not self.enabled:
            return
        self._extra += seconds
        left = self.remaining()
        if left is not None and left > WARNING_SECONDS:
            self._warned = False
        if left is not None and left > 0:
            self._timed_out = False

    def lap(self) -> float:
        """Seconds of the current move since the previous lap (or its start): one action's share."""
        now = self.elapsed()
        share, self._lap_mark = now - self._lap_mark, now
        return share

    def stop(self) -> float:
        """End the current move; returns its length and adds it to the seat's time used."""
        if self._seat is None:
            return 0.0
        elapsed = self.elapsed()
        self._used[self._seat] = self._used.get(self._seat, 0.0) + elapsed
        self._seat = None
        self._paused = False
        return elapsed

    def elapsed(self) -> float:
        """Seconds the current move has run, pauses excluded."""
        if self._seat is None:
            return 0.0
        if self._paused:
            return self._banked
        return self._banked + max(0.0, self._clock() - self._started)

    def remaining(self) -> float | None:
        """Seconds left, or ``None`` when the timer has no limit."""
        if not self.enabled:
            return None
        return max(0.0, self.limit_seconds + self._extra - self.elapsed())

    def warning(self) -> bool:
        left = self.remaining()
        return left is not None and self._seat is not None and left <= WARNING_SECONDS

    def pause(self) -> None:
        if self._seat is not None and not self._paused:
            self._banked = self.elapsed()
            self._paused = True

    def resume(self) -> None:
        if self._seat is not None and self._paused:
            self._started = self._clock()
            self._paused = False

    def poll(self) -> TimerSignal | None:
        """``"warning"`` once when 10 s are left, ``"timeout"`` once when none are."""
        left = self.remaining()
        if left is None or self._seat is None or self._paused:
            return None
        if left <= 0 and not self._timed_out:
            self._timed_out = True
            self._warned = True
            return "timeout"
        if left <= WARNING_SECONDS and not self._warned:
            self._warned = True
            return "warning"
        return None

    def used(self, seat: int) -> float:
        """Total seconds ``seat`` has used, the running move included."""
        running = self.elapsed() if self._seat == seat else 0.0
        return self._used.get(seat, 0.0) + running

    def restore(self, used: dict[int, float]) -> None:
        """Time used per seat from the journal, after a resume."""
        self._used = dict(used)
