"""`training.tiles --edge-cut`: classifier crops cut by a photo's edge (`training.frame_edge`, no torch);
with `--edge-cut-digit` a cut tile keeps its label only while its digit is whole in the picture."""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np
import pytest

from training.frame_edge import (
    DIGIT_FALLBACK,
    DIGIT_GONE,
    DIGIT_VISIBLE,
    FACE,
    VISIBLE,
    FrameEdge,
    cut_by_frame_edge,
    digit_left,
    digit_strokes,
    face_points,
    frame_edge,
)
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
        out, at = cut_by_frame_edge(image, (400.0, 300.0), 120.0, 90.0, 20.0, np.random.default_rng(seed))
        assert np.shares_memory(out, image) and at == edge
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
        out, at = cut_by_frame_edge(image, (150.0, 150.0), 100.0, 75.0, 0.0, np.random.default_rng(seed))
        x, y = at.centre
        crop = cut(np.ascontiguousarray(out), (x, y), (75.0, 100.0), 0.0, (75, 100)).astype(int)
        start = math.floor(75 / 2 - x)  # the crop's column where the picture starts
        assert start > 2
        beyond = crop[:, : start - 1]
        assert (beyond == beyond[:, :1]).all()  # streaks: each row one colour
        full = cut(image, (150.0, 150.0 - 0.0), (75.0, 100.0), 0.0, (75, 100)).astype(int)
        assert len(np.unique(full[:, : start - 1])) > 1  # the uncut image shows its stripes there
        return
    pytest.fail("no cut at the left edge in 50 draws")


# ---------------------------------------------------------------- the digit rule (session 9)


def _face(tile: str, upside_down: bool = False) -> np.ndarray:
    """A rendered tile's upright face (BGR on a white ground), at ``FACE`` size."""
    from rules.rummikub.tiles import Tile
    from vision.synth import render_tile

    patch = render_tile(Tile.parse(tile), FACE[1], np.random.default_rng(0))
    alpha = patch[..., 3:].astype(np.float32) / 255
    face = cv2.resize(
        (patch[..., :3] * alpha + 235 * (1 - alpha)).astype(np.uint8), FACE, interpolation=cv2.INTER_AREA
    )
    return face[::-1, ::-1] if upside_down else face


@pytest.mark.parametrize("tile", ["R7", "K13", "B1", "O10", "J"])
def test_the_digit_is_found_either_way_up_and_not_the_makers_mark(tile: str) -> None:
    for upside_down in (False, True):
        strokes = digit_strokes(_face(tile, upside_down))
        assert strokes is not None
        v0, v1 = strokes[:, 1].min(), strokes[:, 1].max()
        # The renderer's number sits in the upper two thirds, the pale mark at 0.8 of the height.
        top, bottom = (1 - v1, 1 - v0) if upside_down else (v0, v1)
        assert top > 0.08 and bottom < 0.72, (tile, upside_down, top, bottom)
        assert 0.4 < strokes[:, 0].mean() < 0.6  # across the face's middle


def test_a_blank_face_has_no_digit_and_the_middle_is_then_kept() -> None:
    blank = np.full((FACE[1], FACE[0], 3), 60, np.uint8)  # a rack's dark blank end
    blank[:, :3] = 200  # the table beside it: touches the rim, no stroke
    assert digit_strokes(blank) is None
    centre, long_side, short_side = (100.0, 100.0), 80.0, 60.0
    # Upright tile; the picture starts (left edge) at column ``at``: the fallback's middle decides.
    x0, _, x1, _ = DIGIT_FALLBACK
    inside = FrameEdge(0, math.floor(centre[0] + (x0 - 0.5) * short_side) - 1, centre)
    into = FrameEdge(0, math.ceil(centre[0] + (x0 - 0.5) * short_side) + 1, centre)
    assert digit_left(inside, centre, long_side, short_side, 0.0, None) == 1.0
    assert digit_left(into, centre, long_side, short_side, 0.0, None) < 1.0
    assert x1 > x0


@pytest.mark.parametrize("turn", [0.0, 25.0, 90.0, -140.0])
def test_the_label_stays_only_while_the_whole_digit_is_in_the_picture(turn: float) -> None:
    """An edge across the tile keeps the digit exactly when every one of its stroke pixels, placed on the
    turned tile, lies on the picture's side: checked against the strokes' own extreme points."""
    strokes = digit_strokes(_face("K13"))
    assert strokes is not None
    centre, long_side, short_side = (300.0, 200.0), 120.0, 90.0
    t = math.radians(turn)
    a, b = (strokes[:, 0] - 0.5) * short_side, (strokes[:, 1] - 0.5) * long_side
    xs = centre[0] + a * math.cos(t) - b * math.sin(t)
    ys = centre[1] + a * math.sin(t) + b * math.cos(t)
    rng = np.random.default_rng(4)
    kept = lost = 0
    for _ in range(300):
        edge = frame_edge(centre, long_side, short_side, turn, (600, 400), rng, DIGIT_VISIBLE)
        v = xs if edge.side < 2 else ys
        whole = bool((v >= edge.at).all() if edge.side % 2 == 0 else (v < edge.at).all())
        assert (digit_left(edge, centre, long_side, short_side, turn, strokes) == 1.0) == whole
        kept += whole
        lost += not whole
    # Cut down to 0.3 of the tile, both happen: the net sees cut tiles it may name and ones it may not.
    assert kept > 20 and lost > 100


def test_face_points_are_where_cut_straightens_the_face_from() -> None:
    image = np.zeros((200, 200, 3), np.uint8)
    centre, long_side, short_side, turn = (100.0, 90.0), 80.0, 60.0, 35.0
    x, y = face_points(centre, long_side, short_side, turn, np.array([[0.75, 0.25]]))[0]
    cv2.circle(image, (round(x), round(y)), 3, (255, 255, 255), -1)
    face = cut(image, centre, (short_side, long_side), turn, FACE)
    ys, xs = np.nonzero(face[..., 0] > 100)
    assert abs(xs.mean() / FACE[0] - 0.75) < 0.05 and abs(ys.mean() / FACE[1] - 0.25) < 0.05


def test_the_share_of_the_digit_left_falls_as_the_edge_cuts_into_it() -> None:
    strokes = digit_strokes(_face("B10"))
    assert strokes is not None
    centre, long_side, short_side = (100.0, 100.0), 80.0, 60.0
    # Upright; the picture ends (right edge, side 1) further and further left across the number.
    u0, u1 = strokes[:, 0].min(), strokes[:, 0].max()
    ats = [centre[0] + (u - 0.5) * short_side for u in np.linspace(u1 + 0.05, u0 - 0.05, 9)]
    left = [
        digit_left(FrameEdge(1, math.floor(at), centre), centre, long_side, short_side, 0.0, strokes)
        for at in ats
    ]
    assert left[0] == 1.0 and left[-1] == 0.0
    assert all(a >= b for a, b in itertools.pairwise(left))
    assert any(DIGIT_GONE < v < 1.0 for v in left) and any(0.0 < v <= DIGIT_GONE for v in left)
