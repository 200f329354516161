"""The exact solvers: examples, and bounded cross-checks against brute force and HiGHS (the
thousands of cases are in bench/rummikub_crosscheck.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalAction
from rules.rummikub import Meld, Move, arrange, best_move, best_opening, check_turn
from rules.rummikub.partition import TileCounts, groups_fit, solve, solve_keeping
from rules.rummikub.tiles import full_set, parse_tiles, tiles_text
from tests.rules.rummikub.oracles import (
    TILE_WEIGHT,
    brute_arrangeable,
    brute_best_move,
    brute_fewest_changed,
    brute_opening,
    ilp_best,
    ilp_fewest_changed,
)
from tests.rules.rummikub.positions import random_position


def test_best_opening_examples() -> None:
    assert best_opening(parse_tiles("R1 B5 K9")) == (0, [])
    assert best_opening(parse_tiles("")) == (0, [])
    value, melds = best_opening(parse_tiles("R10 R11 R12 R13 B13 K13 O13 B1"))
    assert value == 85 and len(melds) == 2 and sum(m.value for m in melds) == 85


def test_best_opening_counts_jokers_as_the_tile_they_replace() -> None:
    value, melds = best_opening(parse_tiles("R9 R11 J B2"))
    assert value == 30 and [str(m) for m in melds] == ["R9 J R11"]
    value, melds = best_opening(parse_tiles("R12 R13 J"))
    assert value == 36  # J R12 R13 reads R11 R12 R13


def test_best_opening_takes_the_reading_of_greatest_value() -> None:
    value, melds = best_opening(parse_tiles("R5 J J"))
    assert value == 18 and melds[0].value == 18


def test_arrange_finds_melds_or_proves_impossible() -> None:
    table = parse_tiles("R1 R2 R3 R4 B4 K4 O4 R5 R6 J")
    melds = arrange(table)
    assert melds is not None
    assert all(m.is_valid for m in melds)
    assert sorted(str(t) for m in melds for t in m.tiles) == sorted(map(str, table))
    assert arrange(parse_tiles("R1 R2 B4")) is None
    assert arrange(parse_tiles("J J R1")) is not None  # a group of ones
    assert arrange([]) == []


def test_best_move_returns_none_when_nothing_can_be_laid() -> None:
    assert best_move([Meld.parse("R3 R4 R5")], parse_tiles("B9 K1")) is None


def test_best_move_retrieves_a_joker() -> None:
    table = [Meld.parse("R3 J R5"), Meld.parse("B9 K9 O9")]
    move = best_move(table, parse_tiles("R4 O11 O12"))
    assert move is not None
    assert sorted(map(str, move.placed)) == ["O11", "O12", "R4"]
    check_turn(table, move.table)


def test_best_move_prefers_more_tiles_then_value_then_an_untouched_table() -> None:
    table = [Meld.parse("R3 R4 R5"), Meld.parse("B7 K7 O7")]
    move = best_move(table, parse_tiles("R6 R7 B1"))
    assert move is not None
    assert sorted(map(str, move.placed)) == ["R6", "R7"] and move.value == 13 and move.changed == 1
    assert [str(m) for m in move.table] == ["B7 K7 O7", "R3 R4 R5 R6 R7"]
    move = best_move(table, parse_tiles("R6 R7 R8 B1"))
    assert move is not None
    assert move.changed == 0 and move.value == 21
    assert [str(m) for m in move.table] == ["R3 R4 R5", "B7 K7 O7", "R6 R7 R8"]
    move = best_move(table, parse_tiles("R2 B2 K2 O2 J"))
    assert move is not None  # five tiles: R2 joins the run and B2 K2 O2 J is a group
    assert len(move.placed) == 5 and move.changed == 1


def _kept_first(table: list[Meld], move: Move) -> bool:
    """The melds left alone open the new table, in their old order."""
    remaining = iter(table)
    return all(meld in remaining for meld in move.table[: len(table) - move.changed])


def test_best_move_changes_the_fewest_melds() -> None:
    table = [Meld.parse("R3 R4 R5"), Meld.parse("B3 B4 B5"), Meld.parse("K9 K10 K11")]
    move = best_move(table, parse_tiles("R6"))
    assert move is not None and move.changed == 1
    assert [str(m) for m in move.table] == ["B3 B4 B5", "K9 K10 K11", "R3 R4 R5 R6"]
    # R6 R7 fit the run below them or the one above them (one change each), or join both runs
    # into one, or R6 the group (two changes): one change is the fewest.
    table = [Meld.parse("R3 R4 R5"), Meld.parse("B6 K6 O6"), Meld.parse("R8 R9 R10")]
    move = best_move(table, parse_tiles("R6 R7"))
    assert move is not None and (len(move.placed), move.value, move.changed) == (2, 13, 1)
    assert _kept_first(table, move)
    check_turn(table, move.table)


def test_best_move_leaves_a_meld_with_a_joker_as_it_lies() -> None:
    table = [Meld.parse("R4 R5 J"), Meld.parse("K1 K2 K3"), Meld.parse("B8 K8 O8")]
    move = best_move(table, parse_tiles("K4"))
    assert move is not None and (move.value, move.changed) == (4, 1)
    assert move.table[:2] == (Meld.parse("R4 R5 J"), Meld.parse("B8 K8 O8"))
    assert str(move.table[0]) == "R4 R5 J"  # as it lay, not rewritten
    # Without the last search the play is as good in tiles and value, its table still valid.
    quick = best_move(table, parse_tiles("K4"), fewest_changed=False)
    assert quick is not None and (len(quick.placed), quick.value) == (1, 4)
    check_turn(table, quick.table)


def test_best_move_moves_a_joker_up_when_that_is_worth_more() -> None:
    # Value comes before fewest changes: J R4 R5 (3 + 4 + 5) becomes R4 R5 J (4 + 5 + 6).
    table = [Meld.parse("J R4 R5"), Meld.parse("K1 K2 K3"), Meld.parse("B8 K8 O8")]
    move = best_move(table, parse_tiles("K4"))
    assert move is not None and (move.value, move.changed) == (7, 2)
    assert move.table[0] == Meld.parse("B8 K8 O8")


def test_fewest_changed_with_kept_jokers_standing_below_their_first_tile() -> None:
    # Found by the random games: J O12 O13 kept counts its joker (O11) with O12, after number 11.
    # The bounds from the other end count it at 11, and must allow for it there.
    melds = [parse_tiles(text) for text in ("R1 K1 O1", "B9 B10 B11", "R10 R11 J R13", "J O12 O13")]
    rack = parse_tiles("K1 K6 R9 O4 O9 R8 O9 R12 B1 K11 O13")
    table = [Meld(tuple(m)) for m in melds]
    assert _outcome(table, best_move(table, rack)) == ilp_fewest_changed(melds, rack) == (5, 159, 2)


def test_solve_keeping_refuses_a_claim_it_cannot_meet() -> None:
    olds = [(parse_tiles("R3 R4 R5"), parse_tiles("R3 R4 R5"))]
    with pytest.raises(ValueError, match="keeps 2 old melds"):
        solve_keeping(olds, TileCounts.of(parse_tiles("R6")), TILE_WEIGHT, score=TILE_WEIGHT + 18, kept=2)


def test_best_move_refuses_an_invalid_table() -> None:
    with pytest.raises(IllegalAction, match="R3 R4 is not a meld"):
        best_move([Meld.parse("R3 R4")], parse_tiles("R6"))


def test_groups_fit() -> None:
    assert groups_fit(0, False, 0) == 0
    assert groups_fit(4, False, 1) is None  # five tiles: one group too many, two too few
    assert groups_fit(8, True, 0) == 2
    assert groups_fit(1, False, 2) == 1
    assert groups_fit(0, False, 1) is None


def test_solver_refuses_impossible_tile_counts() -> None:
    with pytest.raises(ValueError, match="106-tile set"):
        TileCounts.of(parse_tiles("R1 R1 R1"))
    with pytest.raises(ValueError, match="106-tile set"):
        solve(TileCounts.of(parse_tiles("R1 R1")), TileCounts.of(parse_tiles("R1")), 0)
    with pytest.raises(ValueError, match="two jokers"):
        solve(TileCounts.of(parse_tiles("J J")), TileCounts.of(parse_tiles("J")), 0)


def test_best_opening_equals_brute_force_on_small_racks() -> None:
    rng = random.Random(1)
    for _ in range(150):
        tiles = full_set()
        rng.shuffle(tiles)
        rack = tiles[: rng.randint(3, 8)]
        value, melds = best_opening(rack)
        assert value == brute_opening(rack), tiles_text(rack)
        used = sorted(str(t) for m in melds for t in m.tiles)
        assert all(used.count(str(t)) <= rack.count(t) for t in rack)


def test_arrange_equals_brute_force_on_small_tables() -> None:
    rng = random.Random(2)
    for _ in range(150):
        pool = full_set()
        rng.shuffle(pool)
        # tiles drawn from a few colours and numbers, so that both answers occur
        pool = [t for t in pool if t.is_joker or (t.colour in "RB" and t.number <= 6)]
        tiles = pool[: rng.randint(3, 9)]
        found = arrange(tiles)
        assert (found is not None) == brute_arrangeable(tiles), tiles_text(tiles)
        if found is not None:
            assert sorted(str(t) for m in found for t in m.tiles) == sorted(map(str, tiles))
            assert all(m.is_valid for m in found)


def test_best_move_equals_brute_force_on_small_positions() -> None:
    rng = random.Random(3)
    for _ in range(60):
        table, rack = random_position(rng, rng.choice([3, 6]), rng.randint(1, 4))
        flat = [t for m in table for t in m]
        expected = brute_best_move(flat, rack)
        move = best_move([Meld(tuple(m)) for m in table], rack)
        assert expected is not None
        laid = 0 if move is None else len(move.placed)
        assert laid == expected[0], (table, tiles_text(rack))
        if move is not None:
            assert sum(m.value for m in move.table) == expected[1]
            assert sorted(map(str, check_turn([Meld(tuple(m)) for m in table], move.table))) == sorted(
                map(str, move.placed)
            )


def test_solver_equals_the_integer_programme_on_full_size_positions() -> None:
    rng = random.Random(4)
    for size, rack_size in [(0, 30), (0, 20), (20, 14), (40, 20), (60, 20), (80, 20), (80, 14), (40, 30)]:
        table, rack = random_position(rng, size, rack_size)
        flat = [t for m in table for t in m]
        weight = TILE_WEIGHT if flat else 0
        found = solve(TileCounts.of(flat), TileCounts.of(rack), weight)
        assert found is not None
        assert found.score == ilp_best(flat, rack, weight), (size, rack_size)


def test_solver_answers_whether_the_optimum_beats_a_score() -> None:
    rng = random.Random(5)
    for size, rack_size in [(0, 14), (20, 14), (40, 20)]:
        table, rack = random_position(rng, size, rack_size)
        flat = TileCounts.of([t for m in table for t in m])
        best = solve(flat, TileCounts.of(rack), TILE_WEIGHT)
        assert best is not None
        assert solve(flat, TileCounts.of(rack), TILE_WEIGHT, above=best.score) is None
        found = solve(flat, TileCounts.of(rack), TILE_WEIGHT, above=best.score - 1)
        assert found is not None and found.score == best.score
        assert len(found.placed) == len(best.placed) and all(Meld(m).is_valid for m in found.melds)
    assert solve(TileCounts.of(parse_tiles("R1 R2 B4")), TileCounts.of([]), 0, above=-1) is None


def _outcome(table: list[Meld], move: Move | None) -> tuple[int, ...]:
    if move is None:
        return (0,)
    check_turn(table, move.table)
    assert _kept_first(table, move)
    return (len(move.placed), sum(m.value for m in move.table), move.changed)


def test_fewest_changed_equals_brute_force_on_small_positions() -> None:
    rng = random.Random(5)
    for _ in range(16):
        melds, rack = random_position(rng, rng.choice([6, 9]), rng.randint(1, 3))
        table = [Meld(tuple(m)) for m in melds]
        expected = brute_fewest_changed(melds, rack)
        assert expected is not None
        got = _outcome(table, best_move(table, rack))
        assert got == (expected if expected[0] else (0,)), ([str(m) for m in table], tiles_text(rack))


def test_fewest_changed_equals_the_integer_programme_on_full_size_positions() -> None:
    rng = random.Random(6)
    for i in range(6):
        melds, rack = random_position(rng, (40, 60, 80)[i % 3], (14, 20)[i % 2])
        table = [Meld(tuple(m)) for m in melds]
        expected = ilp_fewest_changed(melds, rack)
        assert expected is not None
        got = _outcome(table, best_move(table, rack))
        assert got == (expected if expected[0] else (0,)), ([str(m) for m in table], tiles_text(rack))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), table_size=st.integers(0, 60), rack_size=st.integers(1, 20))
def test_the_fewest_changed_search_keeps_tiles_and_value_and_never_changes_more(
    seed: int, table_size: int, rack_size: int
) -> None:
    melds, rack = random_position(random.Random(seed), table_size, rack_size)
    table = [Meld(tuple(m)) for m in melds]
    move = best_move(table, rack)
    quick = best_move(table, rack, fewest_changed=False)
    assert (move is None) == (quick is None)
    if move is not None and quick is not None:
        assert (_outcome(table, move)[:2], move.value) == (_outcome(table, quick)[:2], quick.value)
        assert move.changed <= quick.changed
