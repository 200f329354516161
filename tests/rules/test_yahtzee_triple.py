"""Triple Generał: three columns ×1/×2/×3, per-column upper bonus, the joker and bonus conditions."""

from __future__ import annotations

import pytest

from rules import yahtzee
from rules.dice import Choose, Roll, RollDice
from rules.errors import IllegalAction
from rules.yahtzee import TripleSheet

FIVE_FIVES = (5, 5, 5, 5, 5)
ALL_YAHTZEE = {"1:yahtzee": 50, "2:yahtzee": 50, "3:yahtzee": 50}
ALL_FIVES = {"1:fives": 20, "2:fives": 15, "3:fives": 25}


def filled(**boxes: int) -> TripleSheet:
    """A triple sheet with boxes (``"2:fives"``) already filled with raw (unmultiplied) points."""
    return TripleSheet(
        tuple(tuple(boxes.get(f"{column}:{box}") for box in yahtzee.BOXES) for column in yahtzee.FACTORS)
    )


def test_box_ids_and_an_empty_sheet() -> None:
    s = yahtzee.new_sheet(variant="triple")
    assert s == TripleSheet()
    assert s.boxes == yahtzee.TRIPLE_BOXES
    assert len(s.boxes) == 39 and s.boxes[0] == "1:ones" and s.boxes[-1] == "3:chance"
    assert s.total() == 0 and s.filled == 0


@pytest.mark.parametrize("box", ["ones", "4:ones", "0:chance", "2:kareta", "2:"])
def test_unknown_boxes(box: str) -> None:
    for call in (lambda: TripleSheet().get(box), lambda: TripleSheet().fill(box, FIVE_FIVES)):
        with pytest.raises(IllegalAction) as err:
            call()
        assert err.value.code == "unknown_box"


def test_points_are_multiplied_by_the_column_factor() -> None:
    options = TripleSheet().options((2, 2, 3, 3, 3))
    assert len(options) == 39
    assert (options["1:full_house"], options["2:full_house"], options["3:full_house"]) == (25, 50, 75)
    assert (options["1:threes"], options["2:threes"], options["3:threes"]) == (9, 18, 27)
    s = TripleSheet().fill("3:full_house", (2, 2, 3, 3, 3)).fill("2:chance", (1, 1, 1, 1, 2))
    assert s.get("3:full_house") == 75 and s.get("2:chance") == 12 and s.get("1:full_house") is None
    assert s.total() == 87


def test_a_filled_box_is_refused() -> None:
    s = TripleSheet().fill("2:ones", (1, 1, 1, 1, 1))
    with pytest.raises(IllegalAction) as err:
        s.fill("2:ones", (1, 1, 1, 1, 1))
    assert err.value.code == "box_filled"
    assert s.fill("1:ones", (1, 1, 1, 1, 1)).get("1:ones") == 5


@pytest.mark.parametrize(("column", "bonus"), [(1, 35), (2, 70), (3, 105)])
def test_upper_bonus_per_column_when_its_raw_upper_total_reaches_63(column: int, bonus: int) -> None:
    upper = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
    s = filled(**{f"{column}:{box}": v for box, v in upper.items()})
    assert s.bonuses()[f"{column}:upper"] == bonus
    assert sum(s.bonuses().values()) == bonus
    assert s.column_total(column - 1) == column * (63 + 35)
    short = filled(**{f"{column}:{box}": v for box, v in {**upper, "ones": 2}.items()})
    assert short.bonuses()[f"{column}:upper"] == 0


def test_no_forced_placement() -> None:
    s = filled(**ALL_YAHTZEE)
    options = s.options(FIVE_FIVES)
    assert len(options) == 36
    assert options["1:fives"] == 25 and options["3:chance"] == 75 and options["2:ones"] == 0


def test_joker_needs_every_yahtzee_box_and_the_matching_upper_box_in_every_column() -> None:
    s = filled(**ALL_YAHTZEE, **ALL_FIVES)
    options = s.options(FIVE_FIVES)
    assert (options["1:full_house"], options["2:small_straight"], options["3:large_straight"]) == (
        25,
        60,
        120,
    )
    assert options["2:four_of_a_kind"] == 50 and options["1:ones"] == 0


@pytest.mark.parametrize("missing", ["1:yahtzee", "2:yahtzee", "3:yahtzee", "1:fives", "2:fives", "3:fives"])
def test_no_joker_while_a_required_box_is_open(missing: str) -> None:
    boxes = {k: v for k, v in {**ALL_YAHTZEE, **ALL_FIVES}.items() if k != missing}
    options = filled(**boxes).options(FIVE_FIVES)
    assert options["1:full_house"] == options["2:small_straight"] == options["3:large_straight"] == 0
    assert options["3:chance"] == 75


def test_joker_also_with_a_zeroed_yahtzee_box() -> None:
    s = filled(**{**ALL_YAHTZEE, "2:yahtzee": 0}, **ALL_FIVES)
    assert s.options(FIVE_FIVES)["2:full_house"] == 50


def test_joker_needs_the_matching_upper_box_not_another() -> None:
    s = filled(**ALL_YAHTZEE, **ALL_FIVES)
    assert s.options((4, 4, 4, 4, 4))["1:full_house"] == 0


@pytest.mark.parametrize(("column", "bonus"), [(1, 100), (2, 200), (3, 300)])
def test_yahtzee_bonus_times_the_factor_of_the_column_entered(column: int, bonus: int) -> None:
    s = filled(**ALL_YAHTZEE).fill(f"{column}:chance", FIVE_FIVES)
    assert s.bonuses()[f"{column}:yahtzee_bonus"] == bonus
    assert sum(s.bonuses().values()) == bonus
    assert s.total() == 50 * 6 + 25 * column + bonus


def test_yahtzee_bonus_only_after_all_three_yahtzee_boxes_hold_non_zero() -> None:
    two = filled(**{"1:yahtzee": 50, "3:yahtzee": 50})
    after = two.fill("3:chance", FIVE_FIVES)
    assert sum(after.bonuses().values()) == 0
    after = after.fill("2:yahtzee", FIVE_FIVES)  # the third yahtzee box itself: no bonus
    assert sum(after.bonuses().values()) == 0
    assert after.fill("1:chance", FIVE_FIVES).bonuses()["1:yahtzee_bonus"] == 100
    zeroed = filled(**{**ALL_YAHTZEE, "1:yahtzee": 0})
    assert sum(zeroed.fill("3:chance", FIVE_FIVES).bonuses().values()) == 0


def test_yahtzee_bonuses_accumulate_per_column() -> None:
    s = filled(**ALL_YAHTZEE)
    for box in ("2:chance", "2:fives", "3:sixes"):
        s = s.fill(box, FIVE_FIVES)
    assert s.bonuses()["2:yahtzee_bonus"] == 400
    assert s.bonuses()["3:yahtzee_bonus"] == 300
    assert s.bonuses()["1:yahtzee_bonus"] == 0


def test_published_example_fourth_yahtzee_in_column_3_large_straight_scores_420() -> None:
    """yahtzee-rules.com: Yahtzee boxes 50/100/150, a further Yahtzee in column 3's large straight."""
    before = filled(**ALL_YAHTZEE, **ALL_FIVES)
    after = before.fill("3:large_straight", FIVE_FIVES)
    assert after.total() - before.total() == (40 + 100) * 3


def test_triple_game_enters_boxes_by_column() -> None:
    state = yahtzee.new_game(yahtzee.YahtzeeOptions(players=1, variant="triple"))
    state = state.apply(RollDice(Roll.parse("6 6 6 2 2"))).apply(Choose("3:full_house"))
    assert state.sheets[0].get("3:full_house") == 75
    assert state.round_number == 2


def test_describe_triple_shows_each_column() -> None:
    state = yahtzee.auto_play(yahtzee.YahtzeeOptions(players=2, seed=4, variant="triple"))
    text = yahtzee.describe(state)
    for word in ("Triple Generał", "P1 ×1", "P2 ×3", "column total", "upper bonus", "ranking:"):
        assert word in text
    assert f"P2 {state.sheets[1].total()}" in text
