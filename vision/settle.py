"""Deciding when a scene has come to rest: frames stop changing, then the reading stops changing.

The tracker compares each frame with the previous one on a small blurred grey copy (cheap: no reading
while things move). After ``n_frames`` quiet frames it reads the scene on every further quiet frame
and reports *settled* once ``stable_readings`` readings in a row agree (``Observation.same_as``: for
dice the same values at the same places, for tiles the same melds). Any motion starts over. While
settled it keeps the observation and does not read again.

It is generic over the observation (``vision.observation.Observation``): the reader decides what is
read — ``read_dice`` by default, ``read_tiles`` for a tile table, a test's own for a toy game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar, cast, overload

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.dice import DiceObservation, read_dice
from vision.frame import check_frame
from vision.observation import Observation

__all__ = ["PROBE_WIDTH", "Reader", "SettleTracker", "State", "TrackerStatus"]

State = Literal["rolling", "settled", "empty"]
PROBE_WIDTH = 160
O = TypeVar("O", bound=Observation)  # noqa: E741
Reader = Callable[[np.ndarray, Calibration | None], O]


@dataclass(frozen=True)
class TrackerStatus(Generic[O]):
    """What the tracker makes of the latest frame; ``observation`` is set once the scene rests."""

    state: State
    observation: O | None = None


class SettleTracker(Generic[O]):
    """Feed it every camera frame; it says *rolling*, *settled* (with the reading) or *empty*.

    ``motion_threshold`` is the share of probe pixels whose grey level moved by more than
    ``pixel_threshold`` between two frames above which the frame counts as moving.
    """

    @overload
    def __init__(
        self: SettleTracker[DiceObservation],
        n_frames: int = 5,
        stable_readings: int = 2,
        motion_threshold: float = 0.002,
        pixel_threshold: int = 14,
        calibration: Calibration | None = None,
        reader: None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        n_frames: int = 5,
        stable_readings: int = 2,
        motion_threshold: float = 0.002,
        pixel_threshold: int = 14,
        calibration: Calibration | None = None,
        *,
        reader: Reader[O],
    ) -> None: ...

    def __init__(
        self,
        n_frames: int = 5,
        stable_readings: int = 2,
        motion_threshold: float = 0.002,
        pixel_threshold: int = 14,
        calibration: Calibration | None = None,
        reader: Reader[O] | Reader[DiceObservation] | None = None,
    ) -> None:
        if n_frames < 1 or stable_readings < 1:
            raise ValueError(f"n_frames and stable_readings must be >= 1; got {n_frames}, {stable_readings}")
        self.n_frames = n_frames
        self.stable_readings = stable_readings
        self.motion_threshold = motion_threshold
        self.pixel_threshold = pixel_threshold
        self.calibration = calibration
        # The overloads tie a missing reader to SettleTracker[DiceObservation].
        self._reader = cast(Reader[O], reader or read_dice)
        self.reset()

    def reset(self) -> None:
        self._previous: np.ndarray | None = None
        self._quiet = 0
        self._readings: list[O] = []
        self._settled: TrackerStatus[O] | None = None

    def read(self, frame: np.ndarray) -> O:
        """The reader's observation of ``frame`` now, settled or not (a reading asked for on demand)."""
        check_frame(frame)
        return self._reader(frame, self.calibration)

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

    def feed(self, frame: np.ndarray) -> TrackerStatus[O]:
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
        reading = self.read(frame)
        if self._readings and not self._readings[-1].same_as(reading):
            self._readings.clear()
        self._readings.append(reading)
        if len(self._readings) < self.stable_readings:
            return TrackerStatus("rolling")
        self._settled = TrackerStatus("empty" if reading.empty else "settled", reading)
        return self._settled
