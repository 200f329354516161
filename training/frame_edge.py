"""Crops cut by a photo's edge, for the tile classifier (issue 32, session 8); torch-free, for the tests.

A tile the photo's edge cuts is read from a crop that runs past the image: ``vision.nets.cut`` repeats the
edge's pixels there (``BORDER_REPLICATE``), so the crop shows the tile up to a straight line, then streaks.
The real ``val`` photos hold 22 such tiles (8 of 19 photos), ``fit`` 3, ``calib`` none: the classifier
hardly saw one. ``cut_by_frame_edge`` makes the same thing from any labelled tile: the image is cut at an
axis-aligned line across the tile (as a photo's edge lies, whatever the tile's turn) and the crop is then
cut from the rest exactly as the reader cuts it. The detector places a cut tile's centre a little towards
its visible part (``bench/tiles_tables.py --cut 0.6``, seed 1000: found where at least 0.4 of it is in the
picture, its centre off by a median 0.10–0.15 of its length, its length whole), so the centre moves so too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# The share of the tile's upright extent across the edge left in the picture: at least its middle 0.2 (where
# its number lies) stays. Cut down to 0.45 the crops showed faces with no number at all, labelled as the
# tile, and the classifier learned a blank face for a tile: on `calib` the black ends of four racks were read
# as tiles (unsure), exact images 1.000 -> 0.833 (session 8).
VISIBLE = (0.6, 0.95)


@dataclass(frozen=True)
class FrameEdge:
    """Where a photo's edge cuts: ``side`` 0 left, 1 right, 2 top, 3 bottom; ``at`` the image column (left,
    right) or row (top, bottom) where the picture starts (left, top) or ends (right, bottom); ``centre`` the
    tile's centre in the cut image, as the detector places it."""

    side: int
    at: int
    centre: tuple[float, float]


def frame_edge(
    centre: tuple[float, float],
    long_side: float,
    short_side: float,
    turn: float,
    size: tuple[int, int],
    rng: np.random.Generator,
) -> FrameEdge:
    """A straight, axis-aligned edge of an image ``size`` (width, height) px across the tile at ``centre``
    (its ``long_side``, ``short_side`` and ``turn`` in degrees, 0 = long side vertical), from one of its four
    sides, leaving ``VISIBLE`` of its upright extent across the edge; the centre moved towards its visible
    part by up to half what the edge took.

    >>> rng = np.random.default_rng(0)
    >>> sorted({frame_edge((100.0, 50.0), 40.0, 30.0, 0.0, (200, 100), rng).side for _ in range(50)})
    [0, 1, 2, 3]
    """
    t = math.radians(turn)
    # Half the tile's upright bounding box.
    half = (
        abs(math.cos(t)) * short_side / 2 + abs(math.sin(t)) * long_side / 2,
        abs(math.sin(t)) * short_side / 2 + abs(math.cos(t)) * long_side / 2,
    )
    side = int(rng.integers(4))
    axis = side // 2  # 0: x, 1: y
    extent, c = 2 * half[axis], centre[axis]
    visible = rng.uniform(*VISIBLE)
    shift = rng.uniform(0, 0.5) * (1 - visible) * extent
    if side % 2 == 0:  # the picture starts at ``at``: the tile's far part stays
        at = math.floor(min(max(c + extent / 2 - visible * extent, 1), size[axis] - 2) + 0.5)
        moved = c - at + shift
    else:  # the picture ends at ``at``
        at = math.floor(min(max(c - extent / 2 + visible * extent, 2), size[axis] - 1) + 0.5)
        moved = c - shift
    return FrameEdge(side, at, (moved, centre[1]) if axis == 0 else (centre[0], moved))


def cut_by_frame_edge(
    image: np.ndarray,
    centre: tuple[float, float],
    long_side: float,
    short_side: float,
    turn: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, tuple[float, float]]:
    """``image`` cut at a ``frame_edge`` across the tile (a view), and the tile's centre in it."""
    h, w = image.shape[:2]
    edge = frame_edge(centre, long_side, short_side, turn, (w, h), rng)
    keep = slice(edge.at, None) if edge.side % 2 == 0 else slice(0, edge.at)
    return (image[:, keep] if edge.side < 2 else image[keep]), edge.centre
