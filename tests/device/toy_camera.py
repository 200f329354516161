"""What the camera reads at the toy games' tables (tests/device/test_toy_game.py, test_toy_states.py):
white counters on the green felt, counted by a reader of a few lines of OpenCV. Defined here, beside
the toy games, and plugged in as any game's reader is (``GameSession.reader``): the appliance's vision
worker reads the frames, tells when the table is still and posts the readings the session asks for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from device.camera_view import GameReader
from device.simulator import EMPTY_TABLE
from vision.calibration import Calibration

__all__ = ["COUNTER_READER", "Counters", "LiveFeed", "counters", "lay_counters"]

SIDE = 60  # px of a counter in the frame
FRAME = (240, 400)  # height, width of the toy camera's frames


@dataclass(frozen=True)
class Counter:
    """One counter as read: where it lies, how big it is."""

    center: tuple[float, float]
    size: float
    label: str = "counter"
    zone: str | None = None


@dataclass(frozen=True)
class Counters:
    """The toy observation: the counters on the table."""

    items: tuple[Counter, ...]
    uncertain: tuple[int, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.items

    def same_as(self, other: Counters) -> bool:
        return len(self.items) == len(other.items)


def read_counters(frame: np.ndarray, calibration: Calibration | None) -> Counters:
    """The white blobs of the frame, each a counter."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    count, _, stats, centroids = cv2.connectedComponentsWithStats((grey > 200).astype(np.uint8))
    return Counters(
        tuple(
            Counter((float(centroids[k][0]), float(centroids[k][1])), float(stats[k][2]))
            for k in range(1, count)
            if stats[k][4] >= SIDE * SIDE // 2
        )
    )


COUNTER_READER: GameReader[Counters] = GameReader(read_counters)


def counters(n: int) -> Counters:
    """The reading of ``n`` counters as :func:`lay_counters` lays them (a test posting it by hand)."""
    return read_counters(lay_counters(n), None)


def lay_counters(n: int) -> np.ndarray:
    """The felt with ``n`` counters in a row (two rows past five)."""
    frame = EMPTY_TABLE[: FRAME[0], : FRAME[1]].copy()
    for k in range(n):
        x, y = 20 + (k % 5) * (SIDE + 15), 30 + (k // 5) * (SIDE + 30)
        cv2.rectangle(frame, (x, y), (x + SIDE, y + SIDE), (255, 255, 255), thickness=-1)
    return frame


class LiveFeed:
    """A camera that films ``render()`` (the simulated table's picture): a new frame at each look, as
    a running camera has (``device.vision_worker.FrameFeed``)."""

    def __init__(self, render: Callable[[], np.ndarray]) -> None:
        self.render = render
        self.seq = 0

    def latest(self) -> tuple[np.ndarray, int]:
        self.seq += 1
        return self.render(), self.seq
