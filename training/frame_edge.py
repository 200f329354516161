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

import cv2
import numpy as np

# The share of the tile's upright extent across the edge left in the picture: at least its middle 0.2 (where
# its number lies) stays. Cut down to 0.45 the crops showed faces with no number at all, labelled as the
# tile, and the classifier learned a blank face for a tile: on `calib` the black ends of four racks were read
# as tiles (unsure), exact images 1.000 -> 0.833 (session 8).
VISIBLE = (0.6, 0.95)
# With the digit rule (``training.tiles --edge-cut-digit``, session 9) the edge cuts deeper, and the tile
# keeps its label only while its digit (``digit_strokes``) stays whole in the picture; a tile cut into its
# digit is "not a tile": the net is never asked to name a face cut past its number.
DIGIT_VISIBLE = (0.3, 0.95)
# Taught so (session 9, run D), the net called "not a tile" the val tiles the edge cut next to their digit:
# with ``--leave-out-partly-cut`` a tile whose digit the edge cuts but leaves more than this share of is
# left out (neither named nor "not a tile"); one left less is "not a tile".
DIGIT_GONE = 0.5
FACE = (
    54,
    72,
)  # the upright face (width, height) ``digit_strokes`` looks at, as ``training.tiles.tile_bank``
INK = 0.4  # a stroke's ink (darkness or colour against the face's white); the maker's mark is paler
# Where the digit lies when the ink does not say (a face too blurred or too dark): its middle, either way up.
DIGIT_FALLBACK = (0.15, 0.2, 0.85, 0.8)


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
    visible_share: tuple[float, float] = VISIBLE,
) -> FrameEdge:
    """A straight, axis-aligned edge of an image ``size`` (width, height) px across the tile at ``centre``
    (its ``long_side``, ``short_side`` and ``turn`` in degrees, 0 = long side vertical), from one of its four
    sides, leaving ``visible_share`` of its upright extent across the edge; the centre moved towards its
    visible part by up to half what the edge took.

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
    visible = rng.uniform(*visible_share)
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
    visible_share: tuple[float, float] = VISIBLE,
) -> tuple[np.ndarray, FrameEdge]:
    """``image`` cut at a ``frame_edge`` across the tile (a view), and that edge (``edge.centre``: the
    tile's centre in the cut image)."""
    h, w = image.shape[:2]
    edge = frame_edge(centre, long_side, short_side, turn, (w, h), rng, visible_share)
    return cut_at(image, edge), edge


def cut_at(image: np.ndarray, edge: FrameEdge) -> np.ndarray:
    """The picture ``edge`` leaves of ``image`` (a view)."""
    keep = slice(edge.at, None) if edge.side % 2 == 0 else slice(0, edge.at)
    return image[:, keep] if edge.side < 2 else image[keep]


def in_picture(edge: FrameEdge, points: np.ndarray) -> np.ndarray:
    """Which of ``points`` (``(n, 2)``, x and y in the image before the cut) lie in the picture ``edge``
    leaves."""
    v = points[:, edge.side // 2]
    return v >= edge.at if edge.side % 2 == 0 else v < edge.at


def digit_strokes(face: np.ndarray) -> np.ndarray | None:
    """The pixels of the number (or joker) printed on an upright tile ``face`` (BGR, the face only, either
    way up), as shares ``(u, v)`` of the face (0, 0 its top left; each pixel's centre), grown by a pixel:
    the pixels much darker or more coloured than the face's white (``INK``), in strokes that do not touch the
    face's rim (the table, a rim's shadow), the larger ones (not specks). ``None`` when no ink is found.

    >>> face = np.full((72, 54, 3), 235, np.uint8)
    >>> face[20:40, 22:32] = (40, 40, 200)  # a red stroke
    >>> face[60:63, 15:40] = (200, 215, 230)  # the pale maker's mark
    >>> points = digit_strokes(face)
    >>> [round(float(v), 2) for v in (*points.min(axis=0), *points.max(axis=0))]
    [0.4, 0.27, 0.6, 0.56]
    """
    h, w = face.shape[:2]
    y0, y1, x0, x1 = round(0.04 * h), h - round(0.04 * h), round(0.1 * w), w - round(0.1 * w)
    inner = face[y0:y1, x0:x1].astype(np.float32)
    white = np.percentile(inner.reshape(-1, 3), 90, axis=0) + 1
    n = np.clip(inner / white, 0, 1)
    top = n.max(axis=2)
    dark = 1 - n.mean(axis=2)
    colour = (top - n.min(axis=2)) / np.maximum(top, 1e-3)
    mask = (np.maximum(dark, colour) >= INK).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    ih, iw = mask.shape
    strokes = [
        (int(stats[k, cv2.CC_STAT_AREA]), k)
        for k in range(1, count)
        if stats[k, 0] > 0
        and stats[k, 1] > 0
        and stats[k, 0] + stats[k, 2] < iw
        and stats[k, 1] + stats[k, 3] < ih
    ]
    if not strokes or max(area for area, _ in strokes) < 0.01 * h * w:
        return None
    big = max(area for area, _ in strokes)
    keep = np.isin(labels, [k for area, k in strokes if area >= 0.15 * big]).astype(np.uint8)
    keep = cv2.dilate(keep, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero(keep)
    return np.stack(((xs + x0 + 0.5) / w, (ys + y0 + 0.5) / h), axis=1)


def face_points(
    centre: tuple[float, float], long_side: float, short_side: float, turn: float, shares: np.ndarray
) -> np.ndarray:
    """The image points (``(n, 2)``) of the shares ``(u, v)`` (``(n, 2)``) of an upright face (0, 0 its top
    left) of the tile at ``centre``, as ``vision.nets.cut`` straightens it."""
    t = math.radians(turn)
    a, b = (shares[:, 0] - 0.5) * short_side, (shares[:, 1] - 0.5) * long_side
    return np.stack(
        (centre[0] + a * math.cos(t) - b * math.sin(t), centre[1] + a * math.sin(t) + b * math.cos(t)), axis=1
    )


def digit_left(
    edge: FrameEdge,
    centre: tuple[float, float],
    long_side: float,
    short_side: float,
    turn: float,
    strokes: np.ndarray | None,
) -> float:
    """The share of the tile's digit (``strokes``, from ``digit_strokes``; the corners of
    ``DIGIT_FALLBACK`` when ``None``) that lies in the picture ``edge`` leaves (1.0: the digit is whole)."""
    if strokes is None:
        x0, y0, x1, y1 = DIGIT_FALLBACK
        strokes = np.array(((x0, y0), (x1, y0), (x1, y1), (x0, y1)))
    return float(in_picture(edge, face_points(centre, long_side, short_side, turn, strokes)).mean())
