"""The coach's advice for a Rummikub move (``rules.rummikub.advice``): the solver's answer, the
opening, the melds changed, and the notation of a table."""

from __future__ import annotations

import random

import pytest

from rules.errors import IllegalAction, NotationError
from rules.rummikub import Meld, best_move, best_opening, check_turn, parse_tiles
from rules.rummikub.advice import advise, check_position, parse_table, table_text, tiles_laid
from tests.rules.rummikub.oracles import brute_fewest_changed, brute_opening
from tests.rules.rummikub.positions import random_position


def test_after_the_opening_the_advice_is_best_move() -> None:
    rng = random.Random(7)
    for _ in range(40):
        melds, rack = random_position(rng, rng.choice([0, 20, 50]), rng.randint(1, 16))
        table = [Meld(tuple(m)) for m in melds]
        advice = advise(table, rack, opened=True)
        assert advice.move == best_move(table, rack)
        if advice.move is not None:
            assert tiles_laid(table, advice.table_after) == advice.tiles_possible
            kept = advice.table_after[: advice.kept]
            assert len(kept) + len(advice.changed_melds) == len(table)
            assert sorted(map(str, [*kept, *advice.changed_melds])) == sorted(map(str, table))


def test_small_positions_agree_with_brute_force() -> None:
    rng = random.Random(34)
    for _ in range(25):
        melds, rack = random_position(rng, rng.choice([6, 9]), rng.randint(1, 3))
        table = [Meld(tuple(m)) for m in melds]
        advice = advise(table, rack, opened=True)
        expected = brute_fewest_changed(melds, rack)
        assert expected is not None
        if advice.move is None:
            assert expected[0] == 0
        else:
            got = (advice.tiles_possible, sum(m.value for m in advice.table_after), len(advice.changed_melds))
            assert got == expected


def test_before_the_opening_only_new_melds_worth_30() -> None:
    rng = random.Random(3)
    for _ in range(60):
        melds, rack = random_position(rng, 20, rng.randint(3, 9))
        table = [Meld(tuple(m)) for m in melds]
        advice = advise(table, rack, opened=False)
        assert advice.opening_value == brute_opening(rack) == best_opening(rack)[0]
        assert advice.can_open == (advice.opening_value >= 30)
        if advice.can_open:
            assert advice.move is not None and advice.move.changed == 0
            check_turn(table, advice.table_after, opened=False)
            assert advice.table_after[: len(table)] == tuple(table)
        else:
            assert advice.move is None and advice.tiles_possible == 0


def test_the_opening_lays_the_most_tiles_then_the_most_value() -> None:
    # Low melds ride along with the 13s: all nine tiles open (48).
    rack = parse_tiles("R1 R2 R3 B1 K1 O1 R13 B13 K13")
    advice = advise([], rack, opened=False)
    assert advice.can_open and advice.tiles_possible == 9
    rack = parse_tiles("R11 R12 R13 B13 K13")  # one R13: the run or the group
    advice = advise([], rack, opened=False)
    assert advice.tiles_possible == 3 and advice.move is not None and advice.move.value == 39


def test_the_table_notation_round_trips() -> None:
    table = parse_table("R1 R2 R3|K7 B7 O7 J")
    assert table_text(table) == "R1 R2 R3|K7 B7 O7 J"
    assert parse_table("") == [] and parse_table("  ") == []
    with pytest.raises(IllegalAction, match="invalid_meld"):
        parse_table("R1 B2 K3")
    with pytest.raises(NotationError, match="meld 1 of the table is empty"):
        parse_table("|R1 R2 R3")


def test_copies_beyond_the_set_are_refused() -> None:
    check_position(parse_table("J R2 R3"), parse_tiles("J R1"))
    with pytest.raises(IllegalAction, match="J: more copies"):
        check_position(parse_table("J R2 R3"), parse_tiles("J J"))


def test_json_holds_the_table_after() -> None:
    advice = advise(parse_table("R1 R2 R3"), parse_tiles("R4 B9"), opened=True)
    found = advice.to_json(1.5)
    assert found["tiles_laid"] == 1 and found["table"] == [["R1", "R2", "R3", "R4"]] and found["ms"] == 1.5
    assert found["placed"] == ["R4"] and found["changed"] == 1 and "can_open" not in found
