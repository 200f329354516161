"""Deciding when a roll has come to rest: frames stop changing, then the reading stops changing.

The tracker compares each frame with the previous one on a small blurred grey copy (cheap: no reading
while the dice move). After ``n_frames`` quiet frames it reads the dice on every further quiet frame and
reports *settled* once ``stable_readings`` readings in a row agree (same values, same places). Any motion
starts over. While settled it keeps the observation and does not read again.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.dice import DiceObservation, read_dice
from vision.frame import check_frame

State = Literal["rolling", "settled", "empty"]
PROBE_WIDTH = 160


@dataclass(frozen=True)
class TrackerStatus:
    """What the tracker makes of the latest frame; ``observation`` is set once the dice rest."""

    state: State
    observation: DiceObservation | None = None


def _same_reading(a: DiceObservation, b: DiceObservation) -> bool:
    if len(a.dice) != len(b.dice):
        return False
    unused = list(b.dice)
    for die in a.dice:
        match = next(
            (
                d
                for d in unused
                if d.value == die.value
                and math.hypot(d.center[0] - die.center[0], d.center[1] - die.center[1]) < 0.25 * die.size
            ),
            None,
        )
        if match is None:
            return False
        unused.remove(match)
    return True


class SettleTracker:
    """Feed it every camera frame; it says *rolling*, *settled* (with the reading) or *empty*.

    ``motion_threshold`` is the share of probe pixels whose grey level moved by more than
    ``pixel_threshold`` between two frames above which the frame counts as moving.
    """

    def __init__(
        self,
        n_frames: int = 5,
        stable_readings: int = 2,
        motion_threshold: float = 0.002,
        pixel_threshold: int = 14,
        calibration: Calibration | None = None,
        reader: Callable[[np.ndarray, Calibration | None], DiceObservation] = read_dice,
    ) -> None:
        if n_frames < 1 or stable_readings < 1:
            raise ValueError(f"n_frames and stable_readings must be >= 1; got {n_frames}, {stable_readings}")
        self.n_frames = n_frames
        self.stable_readings = stable_readings
        self.motion_threshold = motion_threshold
        self.pixel_threshold = pixel_threshold
        self.calibration = calibration
        self.reader = reader
        self.reset()

    def reset(self) -> None:
        self._previous: np.ndarray | None = None
        self._quiet = 0
        self._readings: list[DiceObservation] = []
        self._settled: TrackerStatus | None = None

    def _probe(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        small = cv2.resize(
            frame, (PROBE_WIDTH, max(1, round(h * PROBE_WIDTH / w))), interpolation=cv2.INTER_AREA
        )
        return cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)

    def motion(self, frame: np.ndarray) -> float:
        """Share of changed probe pixels since the previous frame (1.0 for the first frame)."""
        probe = self._probe(frame)
        previous, self._previous = self._previous, probe
        if previous is None or previous.shape != probe.shape:
            return 1.0
        return float(np.count_nonzero(cv2.absdiff(probe, previous) > self.pixel_threshold)) / probe.size

    def feed(self, frame: np.ndarray) -> TrackerStatus:
        check_frame(frame)
        if self.motion(frame) > self.motion_threshold:
            self._quiet = 0
            self._readings.clear()
            self._settled = None
            return TrackerStatus("rolling")
        self._quiet += 1
        if self._settled is not None:
            return self._settled
        if self._quiet < self.n_frames:
            return TrackerStatus("rolling")
        reading = self.reader(frame, self.calibration)
        if self._readings and not _same_reading(self._readings[-1], reading):
            self._readings.clear()
        self._readings.append(reading)
        if len(self._readings) < self.stable_readings:
            return TrackerStatus("rolling")
        self._settled = TrackerStatus("settled" if reading.dice else "empty", reading)
        return self._settled
