"""Deciding when a scene has come to rest: frames stop changing, then the reading stops changing.

The tracker compares each frame with the previous one on a small blurred grey copy (cheap: no reading
while things move). After ``n_frames`` quiet frames it reads the scene on every further quiet frame
and reports *settled* once ``stable_readings`` readings in a row agree (``Observation.same_as``: for
dice the same values at the same places, for tiles the same melds). Any motion starts over. While
settled it keeps the observation and does not read again.

It is generic over the observation (``vision.observation.Observation``): the reader decides what is
read — ``read_dice`` by default, ``read_tiles`` for a tile table, a test's own for a toy game.

The table decides what one photo cannot: :func:`tally` puts the readings of several frames of a still
scene to the vote, item by item (matched by place), so that one bad frame — a glint, a misread stroke —
is outvoted, and an item the frames do not agree on stays unsure (``vision.tile_vote`` builds the voted
tile reading from it; the vision worker reads the frames when a session asks for a vote).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar, cast, overload

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.dice import DiceObservation, read_dice
from vision.frame import check_frame
from vision.observation import Item, Observation

__all__ = ["MAJORITY", "PROBE_WIDTH", "Reader", "SettleTracker", "State", "Tally", "TrackerStatus", "tally"]

State = Literal["rolling", "settled", "empty"]
PROBE_WIDTH = 160
O = TypeVar("O", bound=Observation)  # noqa: E741
Reader = Callable[[np.ndarray, Calibration | None], O]
MAJORITY = 2 / 3  # of the frames that saw an item: how many must agree for the vote to be sure


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


@dataclass(frozen=True)
class Tally:
    """The vote on one item of the first reading: the label most frames read (ties: the one read with
    confidence more often, then the first reading's), in how many frames, out of how many that saw
    the item, and whether that decides it (``sure``). ``voters`` are the (reading, item) indices that
    read the winning label."""

    label: str
    votes: int
    frames: int
    sure: bool
    voters: tuple[tuple[int, int], ...]


def tally(readings: Sequence[Observation], majority: float = MAJORITY) -> list[Tally]:
    """Each item of ``readings[0]`` put to the vote of every reading: the item of each reading lying
    nearest its place (within half its size) votes for its label, sure or not. The vote is ``sure``
    when at least ``majority`` of the frames that saw the item read the winning label and one of them
    read it with confidence; else the item stays unsure (the players decide).

    >>> from vision.dice import DiceObservation, Die
    >>> def dice(*values): return DiceObservation(tuple(Die(v, (100.0 * i, 50.0), 40.0, 0.0, 0.99)
    ...     for i, v in enumerate(values)))
    >>> [(t.label, t.votes, t.sure) for t in tally([dice(5, 2), dice(6, 2), dice(6, 2), dice(6, 3)])]
    [('6', 3, True), ('2', 3, True)]
    """
    if not readings:
        return []
    first = readings[0]
    out = []
    for item in first.items:
        ballots: dict[str, list[tuple[int, int, bool]]] = {}
        frames = 0
        for r, reading in enumerate(readings):
            match = _nearest(item, reading)
            if match is None:
                continue
            frames += 1
            label = reading.items[match].label
            ballots.setdefault(label, []).append((r, match, match not in reading.uncertain))
        order = list(ballots)  # first seen first: the first reading's label leads a tie
        label = max(order, key=lambda k: (len(ballots[k]), sum(s for *_, s in ballots[k]), -order.index(k)))
        votes = ballots[label]
        sure = len(votes) >= majority * frames and any(s for *_, s in votes)
        out.append(Tally(label, len(votes), frames, sure, tuple((r, i) for r, i, _ in votes)))
    return out


def _nearest(item: Item, reading: Observation) -> int | None:
    best, best_d = None, max(float(item.size), 1.0) / 2
    for i, other in enumerate(reading.items):
        d = float(np.hypot(other.center[0] - item.center[0], other.center[1] - item.center[1]))
        if d <= best_d:
            best, best_d = i, d
    return best
