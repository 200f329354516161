"""Meld grouping from tile positions, splitting touching melds, and the meld's say on doubtful tiles."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.rummikub.melds import Meld
from rules.rummikub.tiles import JOKER, Tile, parse_tiles
from vision.melds import chains, correct_melds, doubt_misfits, group_melds, split_chain
from vision.tiles import SeenTile

LONG, SHORT = 70.0, 50.0


@dataclass(frozen=True)
class Spot:
    center: tuple[float, float]
    long_side: float
    short_side: float
    angle: float
    tile: Tile = JOKER


def layout(
    rows: list[list[int]], gap: float, row_gap: float, turn: float
) -> tuple[list[Spot], list[list[int]]]:
    """Tiles for rows of melds (their lengths), ``gap`` tile widths between melds, turned by ``turn``."""
    t = math.radians(turn)
    spots: list[Spot] = []
    melds: list[list[int]] = []
    for r, row in enumerate(rows):
        x = 0.0
        y = r * LONG * (1 + row_gap)
        for length in row:
            meld = []
            for _ in range(length):
                px = 500 + x * math.cos(t) - y * math.sin(t)
                py = 400 + x * math.sin(t) + y * math.cos(t)
                meld.append(len(spots))
                spots.append(Spot((px, py), LONG, SHORT, turn))
                x += SHORT
            melds.append(meld)
            x += gap * SHORT
    return spots, melds


def _as_sets(groups: list[list[int]] | list[tuple[int, ...]]) -> set[frozenset[int]]:
    return {frozenset(g) for g in groups}


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(st.lists(st.integers(2, 6), min_size=1, max_size=4), min_size=1, max_size=4),
    gap=st.floats(0.6, 3.0),
    row_gap=st.floats(0.1, 1.0),
    turn=st.floats(-180, 180),
)
def test_rows_of_melds_are_found_exactly(
    rows: list[list[int]], gap: float, row_gap: float, turn: float
) -> None:
    spots, melds = layout(rows, gap, row_gap, turn)
    found = chains(spots)
    assert _as_sets(found) == _as_sets(melds)
    for chain in found:
        # In order along the line: consecutive tiles are one short side apart.
        for a, b in itertools.pairwise(chain):
            assert math.dist(spots[a].center, spots[b].center) < 1.1 * SHORT


def test_a_lone_tile_is_loose_and_a_turned_neighbour_is_not_in_the_meld() -> None:
    spots, _ = layout([[3]], 1.0, 0.5, 0.0)
    spots.append(Spot((1000.0, 100.0), LONG, SHORT, 0.0))
    spots.append(Spot((spots[2].center[0] + SHORT, 400.0), LONG, SHORT, 40.0))
    melds, loose = group_melds(spots, split=False)
    assert melds == [(0, 1, 2)]
    assert sorted(loose) == [3, 4]


def test_rows_close_above_each_other_stay_apart() -> None:
    spots, melds = layout([[4], [4]], 1.0, 0.05, 0.0)
    assert _as_sets(chains(spots)) == _as_sets(melds)


def test_touching_melds_are_split_into_the_fewest_valid_melds() -> None:
    assert split_chain(parse_tiles("R3 R4 R5 K9 B9 O9")) == [(0, 3), (3, 6)]
    assert split_chain(parse_tiles("R3 R4 R5 R6 R7 R8")) == [(0, 6)]
    assert split_chain(parse_tiles("R3 R4 B9")) is None
    spots, _ = layout([[6]], 1.0, 0.5, 0.0)
    tiles = parse_tiles("B5 B4 B3 K9 R9 O9")
    spots = [Spot(s.center, s.long_side, s.short_side, s.angle, t) for s, t in zip(spots, tiles, strict=True)]
    melds, loose = group_melds(spots)
    assert [[str(spots[i].tile) for i in m] for m in melds] == [["B5", "B4", "B3"], ["K9", "R9", "O9"]]
    assert loose == []


def _seen(tile: str, confidence: float, *candidates: tuple[str, float]) -> SeenTile:
    read = Tile.parse(tile)
    options = tuple((Tile.parse(t), p) for t, p in candidates) or ((read, confidence),)
    return SeenTile(read, (0.0, 0.0), (), LONG, SHORT, 0.0, confidence, options)


def test_a_doubtful_colour_inside_a_run_is_resolved_and_says_so() -> None:
    tiles = [_seen("R4", 0.99), _seen("O5", 0.5, ("O5", 0.5), ("R5", 0.45)), _seen("R6", 0.98)]
    fixed = correct_melds(tiles, [(0, 1, 2)], threshold=0.8)
    assert [str(t.tile) for t in fixed] == ["R4", "R5", "R6"]
    assert fixed[1].corrected and fixed[1].read_as == Tile.parse("O5")
    assert fixed[1].confidence >= 0.9
    assert not fixed[0].corrected and not fixed[2].corrected


def test_a_doubtful_number_inside_a_group_is_resolved() -> None:
    tiles = [_seen("K8", 0.99), _seen("B6", 0.4, ("B6", 0.4), ("B8", 0.35), ("B9", 0.2)), _seen("R8", 0.97)]
    fixed = correct_melds(tiles, [(0, 1, 2)], threshold=0.8)
    assert str(fixed[1].tile) == "B8" and fixed[1].corrected


def test_the_meld_does_not_guess_between_two_valid_readings() -> None:
    # R5 R6 _ : both R4 (before) and R7 would do in a run... but only one position: R7 or R4 can't both
    # stand there. Candidates R7 and O7: only R7 makes a run, so it is decided.
    tiles = [_seen("R5", 0.99), _seen("R6", 0.99), _seen("O7", 0.5, ("O7", 0.5), ("R7", 0.5))]
    assert str(correct_melds(tiles, [(0, 1, 2)], 0.8)[2].tile) == "R7"
    # K3 B3 _ : R3 and O3 both complete the group; nothing is decided.
    tiles = [_seen("K3", 0.99), _seen("B3", 0.99), _seen("R3", 0.5, ("R3", 0.5), ("O3", 0.48))]
    fixed = correct_melds(tiles, [(0, 1, 2)], 0.8)
    assert not fixed[2].corrected and fixed[2].confidence == 0.5


def test_confident_tiles_are_never_changed() -> None:
    tiles = [_seen("R4", 0.95), _seen("B9", 0.95), _seen("R6", 0.95)]
    assert correct_melds(tiles, [(0, 1, 2)], 0.8) == tiles
    assert not Meld(tuple(t.tile for t in tiles)).is_valid


def _row(text: str, confidence: float = 0.95) -> list[SeenTile]:
    return [
        SeenTile(t, (100.0 + SHORT * i, 80.0), (), LONG, SHORT, 0.0, confidence, ((t, confidence),))
        for i, t in enumerate(parse_tiles(text))
    ]


def test_a_nine_read_as_a_six_inside_a_run_is_doubted_then_decided_by_the_run() -> None:
    tiles = doubt_misfits(_row("R8 R6 R10 R11"), threshold=0.8)
    assert tiles[1].confidence < 0.8 and [str(c) for c, _ in tiles[1].candidates] == ["R6", "R9"]
    assert [t.confidence for i, t in enumerate(tiles) if i != 1] == [0.95] * 3
    fixed = correct_melds(tiles, [(0, 1, 2, 3)], threshold=0.8)
    assert str(fixed[1].tile) == "R9" and fixed[1].corrected and fixed[1].read_as == Tile.parse("R6")


def test_two_sixes_and_nines_swapped_in_one_run_are_both_doubted() -> None:
    tiles = doubt_misfits(_row("O5 O9 O7 O8 O6"), threshold=0.8)
    assert [i for i, t in enumerate(tiles) if t.confidence < 0.8] == [1, 4]


def test_a_line_that_fits_as_read_is_left_alone() -> None:
    for text in ("R5 R6 R7", "K9 B9 O9", "R8 R9 R10"):
        assert doubt_misfits(_row(text), threshold=0.8) == _row(text)


def test_a_six_that_fits_neither_way_is_left_to_the_engine() -> None:
    # R2 R6 R4: turned over it is R2 R9 R4, no meld either; the engine names the invalid meld.
    assert doubt_misfits(_row("R2 R6 R4"), threshold=0.8) == _row("R2 R6 R4")


def test_the_meld_does_not_choose_between_a_group_and_the_group_turned_over() -> None:
    # K6 B6 and a doubtful O6/O9: O6 makes a group of 6s, but the whole group may be 9s upside down.
    tiles = [*_row("K6 B6"), _seen("O6", 0.5, ("O6", 0.5), ("O9", 0.3))]
    fixed = correct_melds(tiles, [(0, 1, 2)], threshold=0.8)
    assert not fixed[2].corrected and fixed[2].confidence == 0.5
    # In a run the turned reading is no meld: the run decides (here it confirms the 6).
    tiles = [*_row("R5 R7"), _seen("R6", 0.5, ("R6", 0.5), ("R9", 0.3))]
    tiles[1], tiles[2] = tiles[2], tiles[1]
    decided = correct_melds(tiles, [(0, 1, 2)], threshold=0.8)[1]
    assert str(decided.tile) == "R6" and decided.corrected and decided.confidence == 1.0


def test_a_confident_misfit_is_unsure_and_not_changed_by_the_meld() -> None:
    tiles = [*_row("O7"), _seen("B1", 0.9, ("B1", 0.81), ("B7", 0.15)), *_row("R7 K7")]
    for k, t in enumerate(tiles):
        place = (100.0 + SHORT * k, 80.0)
        tiles[k] = SeenTile(t.tile, place, (), LONG, SHORT, 0.0, t.confidence, t.candidates)
    doubted = doubt_misfits(tiles, threshold=0.8)
    assert [t.confidence < 0.8 for t in doubted] == [False, True, False, False]
    assert [str(c) for c, _ in doubted[1].candidates] == ["B1"]
    assert str(correct_melds(doubted, [(0, 1, 2, 3)], threshold=0.8)[1].tile) == "B1"


def test_a_group_of_nines_read_partly_as_sixes_is_doubted_whole() -> None:
    tiles = doubt_misfits(_row("B9 K6 R6 O6"), threshold=0.8)
    assert all(t.confidence < 0.8 for t in tiles)
    fixed = correct_melds(tiles, [(0, 1, 2, 3)], threshold=0.8)
    assert not any(t.corrected for t in fixed)  # 6s or 9s: the group cannot tell


def test_two_confident_misfits_that_only_together_make_the_run_fit_are_both_doubted() -> None:
    # An orange run O9 … O13 read O6 O10 O11 O2 O13 (warm light): neither tile alone makes it a run.
    tiles = [_seen("O6", 0.9, ("O6", 0.9)), *_row("O10 O11"), _seen("O2", 0.9, ("O2", 0.85), ("O12", 0.05))]
    tiles.append(_row("O13")[0])
    for k, t in enumerate(tiles):
        tiles[k] = SeenTile(
            t.tile, (100.0 + SHORT * k, 80.0), (), LONG, SHORT, 0.0, t.confidence, t.candidates
        )
    doubted = doubt_misfits(tiles, threshold=0.8)
    assert [t.confidence < 0.8 for t in doubted] == [True, False, False, True, False]
    assert [str(c) for c, _ in doubted[3].candidates] == ["O2"]  # the players confirm it, the run does not
    # Without a likely O12 the pair does not fit: the run is left to the engine.
    tiles[3] = replace(tiles[3], candidates=((Tile.parse("O2"), 0.9),))
    assert doubt_misfits(tiles, threshold=0.8) == tiles
