"""The tile reader on rendered tables: melds read back exactly, 6 and 9 at any turn, empty and
face-down tables, bad input."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from rules.rummikub import check_turn
from rules.rummikub.melds import Meld
from rules.rummikub.tiles import Tile, parse_tiles
from vision import FrameError, read_tiles, tiles
from vision.synth import TableTruth, bench_table, render_table
from vision.tiles import TableObservation


def _melds(observation: TableObservation) -> list[Meld]:
    # Sorted by the meld's own key (the same for a meld, its reverse and a group in any order), not by
    # its text: a run read from the other side must sort where the expected one does.
    return sorted((Meld(tuple(m)) for m in observation.meld_tiles()), key=lambda m: m.key)


def _expected(*melds: str) -> list[Meld]:
    return sorted((Meld.parse(m) for m in melds), key=lambda m: m.key)


CASES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "runs up and down": (["R3 R4 R5 R6", "B13 B12 B11"], {}),
    "groups": (["K7 B7 O7", "R1 B1 K1 O1"], {}),
    "jokers in the middle and at an end": (["O4 J O6", "K10 K11 J", "J B2 B3"], {}),
    "touching melds": (["R3 R4 R5", "K9 B9 O9", "B10 B11 B12"], {"gap": 0.0, "rows": [[0, 1, 2]]}),
    "two rows close together": (["R7 R8 R9 R10", "K2 B2 O2"], {"rows": [[0], [1]], "row_gap": 0.08}),
    "two melds with a gap": (["O9 O10 O11", "B5 K5 R5"], {"rows": [[0, 1]], "gap": 0.8}),
}


ANGLES = [0.0, 23.0, 180.0, -100.0]
# The renderer paints numbers from a glyph atlas and warps in numpy (vision/synth.py), so these frames
# are the same on OpenCV 4.11 (the Pi) and 5.x, and so are these lists; a case that starts passing fails
# as XPASS here. With the shipped models every rendered table is read exactly (24 of 24; before the
# detector learned tight runs, touching melds at 0° and 23° and two rows close together at -100° were not).
NOT_READ_EXACTLY: set[tuple[str, float]] = set()
# And grouped exactly by position in every case.
NOT_GROUPED: set[tuple[str, float]] = set()


def _seed(name: str, angle: float) -> int:
    return 1000 * len(name) + int(angle) % 360


def _render(name: str, angle: float) -> tuple[np.ndarray, TableTruth]:
    melds, options = CASES[name]
    tiles = [parse_tiles(m) for m in melds]
    return render_table(tiles, seed=_seed(name, angle), angle=angle, size=(1280, 720), **options)


def _grouping(name: str, angle: float) -> object:
    marks = (
        [pytest.mark.xfail(reason="rendered tile missed", strict=True)]
        if (name, angle) in NOT_GROUPED
        else []
    )
    return pytest.param(name, angle, marks=marks, id=f"{name}-{angle}")


@pytest.mark.parametrize(
    ("name", "angle"), [_grouping(n, a) for n in CASES if n != "touching melds" for a in ANGLES]
)
def test_synthetic_melds_are_grouped_exactly(name: str, angle: float) -> None:
    """The grouping by position: each rendered tile found, the melds and loose tiles exactly the truth's
    (touching melds are split by their readings: that case is in the reading test)."""
    frame, truth = _render(name, angle)
    observation = read_tiles(frame)
    index = {}
    for k, tile in enumerate(truth.tiles):
        i = min(
            range(len(observation.tiles)), key=lambda i: math.dist(observation.tiles[i].center, tile.center)
        )
        assert math.dist(observation.tiles[i].center, tile.center) < 0.25 * tile.size, (
            f"{tile.tile} not found"
        )
        index[k] = i
    assert len(set(index.values())) == len(truth.tiles) == len(observation.tiles), str(observation)
    expected = {frozenset(index[k] for k in meld) for meld in truth.melds}
    assert {frozenset(m) for m in observation.melds} == expected, str(observation)


def test_the_rendered_suite_is_read_well_as_a_whole() -> None:
    """Over every rendered case and turn (180 tiles): the share of tiles found and the precision of the
    readings the reader is sure of, measured at 178/180 and 166/168 with the shipped models; this test
    fails if the reader or the renderer gets worse, whichever single case it is."""
    found = right = sure = sure_right = total = 0
    for name in CASES:
        for angle in ANGLES:
            frame, truth = _render(name, angle)
            observation = read_tiles(frame)
            for tile in truth.tiles:
                total += 1
                near = [
                    i
                    for i, seen in enumerate(observation.tiles)
                    if math.dist(seen.center, tile.center) < 0.25 * tile.size
                ]
                if not near:
                    continue
                found += 1
                read_right = observation.tiles[near[0]].tile == tile.tile
                right += read_right
                if near[0] not in observation.uncertain:
                    sure += 1
                    sure_right += read_right
    assert total == 180
    assert found >= 177, f"found {found}/{total}"
    assert right >= 0.92 * found, f"read right {right}/{found}"
    assert sure_right >= 0.94 * sure, f"sure and right {sure_right}/{sure}"


def _reading(name: str, angle: float) -> object:
    missed = (name, angle) in NOT_READ_EXACTLY
    marks = [pytest.mark.xfail(reason="rendered faces misread", strict=True)] if missed else []
    return pytest.param(name, angle, marks=marks, id=f"{name}-{angle}")


@pytest.mark.parametrize(("name", "angle"), [_reading(n, a) for n in CASES for a in ANGLES])
def test_synthetic_melds_read_back_exactly(name: str, angle: float) -> None:
    melds, _ = CASES[name]
    frame, _ = _render(name, angle)
    observation = read_tiles(frame)
    assert _melds(observation) == _expected(*melds), str(observation)
    assert observation.loose == ()
    assert observation.certain, str(observation)


@pytest.mark.parametrize(
    ("kind", "n"), [("square", 10), ("square", 42), ("warm", 49), ("tilt", 1), ("tilt", 2)]
)
def test_rendered_tables_whose_tiles_were_cut_off_or_crooked_are_read_exactly(kind: str, n: int) -> None:
    # Tables of bench/tiles_tables.py that were not read exactly: black and blue numbers on a white or
    # marble table turned the tile's crop by their strokes (vision.tiles.outline_angles leaves the middle
    # out), and a wide number (10-13) whose detector peak lay a fifth of a tile off was "not a tile"
    # (the second look, TileModels._second_look).
    frame, truth = bench_table(kind, n, 1000)
    observation = read_tiles(frame)
    seen = sorted(str(Meld(tuple(m))) for m in observation.table())
    assert seen == sorted(str(Meld(tuple(m))) for m in truth.meld_tiles())
    assert observation.certain


@pytest.mark.parametrize(
    ("kind", "n", "seed", "at"), [("backgrounds", 8, 1000, (346, 428)), ("warm", 10, 5000, (168, 415))]
)
def test_tiles_the_frame_edge_cuts_are_unsure_not_misread(
    kind: str, n: int, seed: int, at: tuple[int, int]
) -> None:
    # Tables of bench/tiles_tables.py --cut 0.6 seen through a window of 1152×648 whose edge cuts tiles
    # (the real photos' tiles cut by the photo's edge, issue 32): a run O7 O8 O9 cut to its marks was
    # read O5 O6 O7 with confidence (and its meld confirmed it), a row of 9s cut a fifth at the top read
    # as 6s. Every cut tile read is right or unsure (vision.tiles.cut_by_edge), tiles wholly in sight read.
    frame, truth = bench_table(kind, n, seed)
    x0, y0 = at
    w, h = 1152, 648
    observation = read_tiles(np.ascontiguousarray(frame[y0 : y0 + h, x0 : x0 + w]))
    unsure_cut = 0
    for t in truth.tiles:
        inside = [0 <= x - x0 < w and 0 <= y - y0 < h for x, y in t.corners]
        centre = (t.center[0] - x0, t.center[1] - y0)
        near = [i for i, s in enumerate(observation.tiles) if math.dist(s.center, centre) < 0.36 * t.size]
        assert near or not all(inside), f"{t.tile} wholly in sight not read"
        if not near:
            continue
        i = near[0]
        if i in observation.uncertain:
            unsure_cut += not all(inside)
        else:
            assert observation.tiles[i].tile == t.tile, f"{t.tile} read as {observation.tiles[i].tile}"
    assert unsure_cut > 0


@pytest.mark.parametrize("edge_look", [True, False])
def test_a_tile_the_frame_edge_cuts_is_looked_at_again_and_read_unsure(
    edge_look: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # bench/tiles_tables.py --cut 0.6 (seed 1000), square table 11: an O11 the window's top edge cuts was
    # read as "not a tile" (every tile kind below SECOND_LOOK) and so missed; looked at again at the
    # frame's tile size, a quarter turn over and further along (vision.tiles.EDGE_LOOK), it is read, unsure.
    monkeypatch.setattr(tiles, "EDGE_LOOK", edge_look)
    frame, truth = bench_table("square", 11, 1000)
    x0, y0, w, h = 12, 416, 1152, 648
    observation = read_tiles(np.ascontiguousarray(frame[y0 : y0 + h, x0 : x0 + w]))
    (o11,) = [
        t
        for t in truth.tiles
        if str(t.tile) == "O11" and 1100 < t.center[0] - x0 < 1180 and t.center[1] - y0 < 120
    ]
    centre = (o11.center[0] - x0, o11.center[1] - y0)
    near = [i for i, s in enumerate(observation.tiles) if math.dist(s.center, centre) < 0.36 * o11.size]
    if not edge_look:
        assert not near  # the missed tile this look is for
        return
    assert len(near) == 1 and str(observation.tiles[near[0]].tile) == "O11"
    assert near[0] in observation.uncertain


def test_loose_tiles_and_the_table_for_the_engine() -> None:
    frame, _ = render_table(
        [parse_tiles("R3 R4 R5"), parse_tiles("K8 B8 O8")],
        parse_tiles("O12"),
        seed=4,
        angle=5.0,
        size=(1280, 720),
    )
    observation = read_tiles(frame)
    assert [str(observation.tiles[i].tile) for i in observation.loose] == ["O12"]
    after = [m for m in observation.table() if len(m) >= 3]
    assert check_turn(["R3 R4 R5"], after) == parse_tiles("B8 K8 O8")


# Upright and upside down some loose rendered 6s and 9s are still not read as they are: alone, a tile's
# own way up decides it, and that is weaker on a rendered tile (its number sits near the middle) than on
# a real one, so they are unsure, never confidently wrong (tests/vision/test_tiles_way_up.py); on real
# photos turned a quarter and a half turn 6 and 9 are told apart: tests/vision/test_tiles_real.py. (The
# quarter turn is read right since the classifier taught smeared crops, session 17.)
SIX_NINE_MIXED = {180.0}


@pytest.mark.parametrize(
    "angle",
    [
        pytest.param(
            a,
            marks=[pytest.mark.xfail(reason="rendered 9 read as 6", strict=True)]
            if a in SIX_NINE_MIXED
            else [],
        )
        for a in (0.0, 90.0, 180.0)
    ],
)
def test_six_and_nine_are_told_apart_at_any_turn(angle: float) -> None:
    loose = parse_tiles("K6 K9 B6 B9 R6 O9")
    frame, _ = render_table([], loose, seed=int(angle) + 200, size=(1280, 720), tile_size=80.0)
    # The loose tiles lie at random turns; turn the whole frame too (by quarter turns, exactly, so
    # the frame is the same on every OpenCV version).
    frame = np.ascontiguousarray(np.rot90(frame, int(angle) // 90))
    observation = read_tiles(frame)
    assert sorted(map(str, observation.values)) == sorted(map(str, loose)), str(observation)


def test_an_empty_table_and_face_down_tiles_give_no_tiles() -> None:
    frame, _ = render_table([], seed=1, size=(1280, 720), background="wood")
    assert read_tiles(frame).empty
    frame, _ = render_table([], seed=2, size=(1280, 720), face_down=5, tile_size=70.0)
    observation = read_tiles(frame)
    assert observation.tiles == (), str(observation)


def test_a_doubtful_tile_decided_by_its_meld_says_so() -> None:
    frame, _ = render_table([parse_tiles("R5 R6 R7 R8")], seed=9, angle=0.0, size=(1280, 720))
    observation = read_tiles(frame)
    for i in observation.corrected:
        assert observation.tiles[i].read_as is not None
    assert _melds(observation) == _expected("R5 R6 R7 R8")


@pytest.mark.parametrize(
    "frame",
    [
        None,
        np.zeros((100, 100), np.uint8),
        np.zeros((100, 100, 3), np.float32),
        np.zeros((4, 4, 3), np.uint8),
        "x",
    ],
)
def test_bad_input_raises_frame_error(frame: object) -> None:
    with pytest.raises(FrameError):
        read_tiles(frame)  # type: ignore[arg-type]


def test_a_tile_is_a_rules_tile() -> None:
    frame, _ = render_table([parse_tiles("B1 B2 B3")], seed=3, angle=0.0, size=(1280, 720))
    assert all(isinstance(t.tile, Tile) for t in read_tiles(frame).tiles)
