"""Tiles and melds: notation, runs, groups, jokers, the reading of greatest value."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rules import IllegalAction, NotationError, rummikub
from rules.rummikub import best_opening, check_turn, meld_value
from rules.rummikub.melds import Meld, read_meld
from rules.rummikub.tiles import JOKER, Tile, full_set, parse_tiles


def test_tile_text_round_trips() -> None:
    for tile in set(full_set()):
        assert Tile.parse(str(tile)) == tile
    assert Tile.parse("o13") == Tile("O", 13)
    assert str(JOKER) == "J" and JOKER.is_joker


@pytest.mark.parametrize("text", ["R0", "R14", "X5", "", "RR", "J1"])
def test_bad_tile_text_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not a Rummikub tile"):
        Tile.parse(text)


def test_parse_tiles_names_the_bad_word() -> None:
    assert [str(t) for t in rummikub.parse_tiles("R7 R8 J")] == ["R7", "R8", "J"]
    # Text that is no tile is a notation error, not a refused move (python-chess: invalid, not illegal).
    with pytest.raises(NotationError, match="R99") as err:
        parse_tiles("R7 R99")
    assert not isinstance(err.value, IllegalAction)


def test_full_set_has_106_tiles() -> None:
    tiles_ = full_set()
    assert len(tiles_) == 106
    assert tiles_.count(JOKER) == 2
    assert all(tiles_.count(t) == 2 for t in tiles_ if not t.is_joker)


@pytest.mark.parametrize(
    "text, value",
    [
        ("R7 R8 R9", 24),
        ("R7 R8 J R10", 34),  # joker in the middle
        ("R7 R8 R9 J", 34),  # joker at the end stands for R10
        ("J R8 R9", 24),  # joker at the start stands for R7
        ("K3 K2 K1", 6),  # descending
        ("R10 J R8", 27),  # descending with a joker
        ("O11 O12 O13", 36),
        ("B5 R5 K5", 15),
        ("B5 R5 K5 O5", 20),
        ("B5 R5 J", 15),  # group of two plus a joker
        ("R5 J J", 18),  # run R5 R6 R7 (18) beats group 5 5 5 (15)
        ("J J R5", 15),  # ascending run R3 R4 R5 (12) loses to the group (15)
        ("R13 J J", 39),  # no run R13 R14 R15: a group of thirteens
        ("J R1 J", 3),  # no R0: only the group reading
    ],
)
def test_meld_values(text: str, value: int) -> None:
    assert rummikub.meld_value(parse_tiles(text)) == value
    assert rummikub.meld_value(text) == value


def test_single_natural_with_jokers_reads_ascending_or_as_group() -> None:
    assert str(read_meld(parse_tiles("J R1 J"))) == "group B1 R1 K1 = 3"
    assert str(read_meld(parse_tiles("R5 J J"))) == "run R5 R6 R7 = 18"


@pytest.mark.parametrize(
    "text, reason",
    [
        ("R12 B12 B12", "R12 B12 B12 is not a group: two blue tiles"),
        ("K12 K13 K1", "K12 K13 K1 is not a run: 1 cannot follow 13"),
        ("O13 O1 O2", "O13 O1 O2 is not a run: 1 cannot follow 13"),
        ("R1 R3 R4", "R1 R3 R4 is not a run: numbers not consecutive"),
        ("R12 R13 J", "R12 R13 J is not a run: runs past 1 or 13"),
        ("R1 B2 K3", "R1 B2 K3 is neither a run nor a group: mixed colours and numbers"),
        ("R7 R8", "R7 R8 is not a meld: fewer than 3 tiles"),
        ("R5 B5 K5 O5 J", "R5 B5 K5 O5 J is not a group: 5 tiles, a group has at most 4"),
        ("R5 R7 R6", "R5 R7 R6 is not a run: numbers not consecutive"),
    ],
)
def test_invalid_melds_name_tiles_and_reason(text: str, reason: str) -> None:
    with pytest.raises(IllegalAction) as err:
        rummikub.meld_value(text)
    assert err.value.code == "invalid_meld"
    assert err.value.message == reason


def test_meld_equality_ignores_direction_and_group_order() -> None:
    assert Meld.parse("R1 R2 R3") == Meld.parse("R3 R2 R1")
    assert Meld.parse("B5 R5 K5") == Meld.parse("R5 K5 B5")
    assert Meld.parse("R7 R8 J") != Meld.parse("J R7 R8")  # the joker stands for R9 vs R6
    assert hash(Meld.parse("R1 R2 R3")) == hash(Meld.parse("R3 R2 R1"))
    assert not Meld.parse("R1 R1 R1").is_valid


def test_every_meld_function_takes_a_meld_its_text_or_its_tiles() -> None:
    value, melds = best_opening(parse_tiles("R10 R11 R12 B1 K7 K8 K9"))
    assert value == 57
    for meld in melds:
        assert meld_value(meld) == meld_value(str(meld)) == meld_value(list(meld)) == meld.value
        assert read_meld(meld) == read_meld(meld.tiles)
    meld = Meld.parse("R7 J R9")
    assert isinstance(meld, Sequence) and list(meld) == list(meld.tiles) and meld[-1] == Tile.parse("R9")
    assert Tile.parse("J") in meld and Meld.of(meld) is meld and Meld.of(list(meld)) == meld
    assert check_turn([meld], [Meld.parse("R7 J R9 R10")]) == [Tile.parse("R10")]


def test_a_word_that_is_no_tile_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="'X5'"):
        parse_tiles("R1 X5")
    with pytest.raises(NotationError):
        meld_value("R1 R2 R")
