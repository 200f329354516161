"""check_turn: the table before and after a turn, every code, in the documented order."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.rummikub import check_turn
from rules.rummikub.tiles import tiles_text


def played(before: list[str], after: list[str], opened: bool = True) -> str:
    return tiles_text(check_turn(before, after, opened=opened))


def code_of(before: list[str], after: list[str], opened: bool = True) -> str:
    with pytest.raises(IllegalAction) as err:
        check_turn(before, after, opened=opened)
    return err.value.code


def test_extending_and_new_melds() -> None:
    assert played(["R3 R4 R5"], ["R3 R4 R5 R6", "B9 K9 O9"]) == "R6 B9 K9 O9"


def test_manipulation_splitting_a_run() -> None:
    before = ["R3 R4 R5 R6 R7 R8"]
    after = ["R3 R4 R5", "R6 R7 R8", "B6 K6 R6"]
    assert played(before, after) == "R6 B6 K6"


def test_joker_in_the_middle_and_at_the_end_of_a_run() -> None:
    assert played([], ["R7 J R9", "B1 B2 B3 J"], opened=True) == "R7 R9 B1 B2 B3 J J"


def test_descending_runs_are_valid() -> None:
    assert played(["K1 K2 K3"], ["K4 K3 K2 K1"]) == "K4"


def test_13_1_is_refused() -> None:
    assert code_of(["K12 K13 O1"], ["K12 K13 K1", "O1 R1 B1"]) == "invalid_meld"


def test_joker_retrieved_with_a_rack_tile() -> None:
    before = ["R3 J R5", "B9 K9 O9"]
    after = ["R3 R4 R5", "B9 K9 O9 J"]
    assert played(before, after) == "R4"


def test_joker_retrieved_with_a_table_tile() -> None:
    before = ["R3 J R5", "B4 K4 O4 R4"]
    after = ["R3 R4 R5", "B4 K4 O4", "R10 R11 J"]
    assert played(before, after) == "R10 R11"


@pytest.mark.parametrize("colour", ["K", "O"])
def test_group_of_two_plus_joker_completed_with_either_missing_colour(colour: str) -> None:
    before = ["R5 B5 J"]
    after = [f"R5 B5 {colour}5", "O7 O8 J"]
    assert set(played(before, after).split()) == {f"{colour}5", "O7", "O8"}


def test_freed_joker_left_off_the_table_is_refused() -> None:
    with pytest.raises(IllegalAction) as err:
        check_turn(["R3 J R5"], ["R3 R4 R5"])
    assert err.value.code == "tile_removed"
    assert err.value.message == "J was taken off the table: a freed joker must be laid again"


def test_tile_taken_back_is_refused() -> None:
    with pytest.raises(IllegalAction) as err:
        check_turn(["R3 R4 R5 R6"], ["R3 R4 R5", "B9 K9 O9"])
    assert err.value.code == "tile_removed"
    assert "R6" in err.value.message


def test_rearranging_without_laying_is_refused() -> None:
    assert code_of(["R3 R4 R5 R6"], ["R6 R5 R4 R3"]) == "no_tile_played"


def test_opening_30_is_enough_and_29_is_not() -> None:
    assert played([], ["B6 K6 O6", "K3 K4 K5"], opened=False) == "B6 K3 K4 K5 K6 O6"
    with pytest.raises(IllegalAction) as err:
        check_turn([], ["B5 K5 O5 R5", "K2 K3 K4"], opened=False)
    assert err.value.code == "opening_too_low"
    assert "worth 29" in err.value.message


def test_jokers_count_as_the_tile_they_replace_in_an_opening() -> None:
    assert played([], ["R9 J R11"], opened=False) == "R9 R11 J"  # 9 + 10 + 11
    assert code_of([], ["R8 J R10"], opened=False) == "opening_too_low"  # 27


def test_opening_may_not_touch_the_table() -> None:
    before = ["R3 R4 R5"]
    assert code_of(before, ["R3 R4 R5 R6", "B10 K10 O10 R10"], opened=False) == (
        "table_touched_before_opening"
    )
    # the same melds seen from the other side of the table are untouched
    assert played(before, ["R5 R4 R3", "R10 R11 R12"], opened=False) == "R10 R11 R12"


@pytest.mark.parametrize(
    "before, after, opened, code",
    [
        # invalid meld beats a removed tile
        (["R3 R4 R5 R6"], ["R3 R4 R5", "B9 B9 O9"], True, "invalid_meld"),
        # a removed tile beats "nothing played"
        (["R3 R4 R5 R6"], ["R3 R4 R5"], True, "tile_removed"),
        # nothing played beats the opening rules
        (["R3 R4 R5 R6"], ["R3 R4 R5 R6"], False, "no_tile_played"),
        # touching the table beats a low opening
        (["R3 R4 R5"], ["R3 R4 R5 R6", "B1 K1 O1"], False, "table_touched_before_opening"),
        (["R3 R4 R5"], ["R3 R4 R5", "B1 K1 O1"], False, "opening_too_low"),
    ],
)
def test_codes_are_checked_in_order(before: list[str], after: list[str], opened: bool, code: str) -> None:
    assert code_of(before, after, opened) == code


def test_invalid_meld_message_names_the_tiles() -> None:
    with pytest.raises(IllegalAction, match="R12 B12 B12 is not a group: two blue tiles"):
        check_turn([], ["R12 B12 B12"])
