"""`training.tiles --edge-cut`: classifier crops cut by a photo's edge (`training.frame_edge`, no torch)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from training.frame_edge import VISIBLE, cut_by_frame_edge, frame_edge
from vision.nets import cut


def _bounds(centre: tuple[float, float], long_side: float, short_side: float, turn: float) -> np.ndarray:
    """The tile's upright bounding box ``((x0, y0), (x1, y1))``; turn 0: long side vertical."""
    t = math.radians(turn)
    right = np.array((math.cos(t), math.sin(t)))
    down = np.array((-math.sin(t), math.cos(t)))
    corners = np.array(
        [
            np.array(centre) + sx * short_side / 2 * right + sy * long_side / 2 * down
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
    )
    return np.array((corners.min(axis=0), corners.max(axis=0)))


@pytest.mark.parametrize("turn", [0.0, 30.0, -75.0, 90.0])
def test_the_edge_crosses_the_tile_leaving_the_visible_share(turn: float) -> None:
    centre, long_side, short_side = (400.0, 300.0), 120.0, 90.0
    (lo, hi) = _bounds(centre, long_side, short_side, turn)
    rng = np.random.default_rng(1)
    sides = set()
    for _ in range(200):
        edge = frame_edge(centre, long_side, short_side, turn, (800, 600), rng)
        sides.add(edge.side)
        axis, start = edge.side // 2, edge.side % 2 == 0
        extent = hi[axis] - lo[axis]
        # The tile's part left in the picture, as a share of its extent across the edge.
        kept = hi[axis] - edge.at if start else edge.at - lo[axis]
        assert VISIBLE[0] - 0.02 <= kept / extent <= VISIBLE[1] + 0.02
        # The centre is the tile's (in the cut image), moved towards its visible part by at most half the cut.
        true = centre[axis] - (edge.at if start else 0)
        shift = edge.centre[axis] - true
        assert (shift >= 0) if start else (shift <= 0)
        assert abs(shift) <= 0.5 * (1 - VISIBLE[0]) * extent + 1e-6
        assert edge.centre[1 - axis] == centre[1 - axis]
    assert sides == {0, 1, 2, 3}


def test_the_image_is_cut_where_the_edge_lies() -> None:
    image = np.zeros((600, 800, 3), np.uint8)
    for seed in range(20):
        edge = frame_edge((400.0, 300.0), 120.0, 90.0, 20.0, (800, 600), np.random.default_rng(seed))
        out, centre = cut_by_frame_edge(image, (400.0, 300.0), 120.0, 90.0, 20.0, np.random.default_rng(seed))
        assert np.shares_memory(out, image) and centre == edge.centre
        size = (800, 600)[edge.side // 2]
        kept = size - edge.at if edge.side % 2 == 0 else edge.at
        assert out.shape[:2] == ((600, kept) if edge.side < 2 else (kept, 800))


def test_the_crop_runs_past_the_edge_as_the_readers_does() -> None:
    """Cut at the left edge, the reader's crop (``vision.nets.cut``, edge pixels repeated) shows the
    picture up to a straight line and the edge column's streaks beyond it, where the full image has
    stripes."""
    image = np.full((300, 300, 3), 200, np.uint8)
    image[:, ::7] = 40
    for seed in range(50):
        edge = frame_edge((150.0, 150.0), 100.0, 75.0, 0.0, (300, 300), np.random.default_rng(seed))
        if edge.side != 0:
            continue
        out, (x, y) = cut_by_frame_edge(image, (150.0, 150.0), 100.0, 75.0, 0.0, np.random.default_rng(seed))
        crop = cut(np.ascontiguousarray(out), (x, y), (75.0, 100.0), 0.0, (75, 100)).astype(int)
        start = math.floor(75 / 2 - x)  # the crop's column where the picture starts
        assert start > 2
        beyond = crop[:, : start - 1]
        assert (beyond == beyond[:, :1]).all()  # streaks: each row one colour
        full = cut(image, (150.0, 150.0 - 0.0), (75.0, 100.0), 0.0, (75, 100)).astype(int)
        assert len(np.unique(full[:, : start - 1])) > 1  # the uncut image shows its stripes there
        return
    pytest.fail("no cut at the left edge in 50 draws")
