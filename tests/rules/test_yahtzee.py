"""Generał (classic): every box, the seed 002 examples, the forced and free joker, both bonuses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import pytest

import rules
from rules import OptionError, yahtzee
from rules.dice import Roll
from rules.dice_game import box_words
from rules.errors import IllegalAction
from rules.yahtzee import ClassicSheet

FIVE_FIVES = (5, 5, 5, 5, 5)


def sheet_with(
    filled: Mapping[str, int] | None = None, /, joker: Literal["forced", "free"] = "forced", **values: int
) -> ClassicSheet:
    """A classic sheet with the given boxes already filled (``filled`` and ``values``)."""
    values = {**(filled or {}), **values}
    return ClassicSheet(tuple(values.get(box) for box in yahtzee.BOXES), joker=joker)


def all_filled_but(*open_boxes: str, value: int = 1, **values: int) -> dict[str, int]:
    return {box: values.get(box, value) for box in yahtzee.BOXES if box not in open_boxes}


# --- seed 002, the worked examples -------------------------------------------------------------


def test_seed_example_fours_and_threes() -> None:
    assert yahtzee.score("fours", (4, 3, 4, 4, 1)) == 12
    assert yahtzee.score("threes", (4, 3, 4, 4, 1)) == 3


def test_seed_example_upper_bonus_from_63() -> None:
    at_63 = sheet_with(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert at_63.bonuses()["upper"] == 35
    assert at_63.total() == 63 + 35
    at_62 = sheet_with(ones=2, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert at_62.bonuses()["upper"] == 0 and at_62.total() == 62


def test_seed_example_any_open_box_takes_any_roll_for_0() -> None:
    options = yahtzee.new_sheet().options((1, 1, 2, 2, 6))
    assert options == {**dict.fromkeys(yahtzee.BOXES, 0), "ones": 2, "twos": 4, "sixes": 6, "chance": 12}


def test_seed_example_joker_in_lower_boxes_at_full_value() -> None:
    s = sheet_with(yahtzee=50, fives=25)
    assert s.options(FIVE_FIVES) == {
        "three_of_a_kind": 25,
        "four_of_a_kind": 25,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 25,
    }


def test_seed_example_joker_goes_up_for_0_when_the_lower_boxes_are_used() -> None:
    s = sheet_with(all_filled_but("ones", "sixes", fives=25, yahtzee=50))
    assert s.options(FIVE_FIVES) == {"ones": 0, "sixes": 0}


def test_seed_example_each_further_yahtzee_earns_100() -> None:
    s = (
        yahtzee.new_sheet()
        .fill("yahtzee", FIVE_FIVES)
        .fill("fives", FIVE_FIVES)
        .fill("full_house", FIVE_FIVES)
    )
    assert s.bonuses()["yahtzee_bonus"] == 200
    assert s.total() == 50 + 25 + 25 + 200


# --- every box ----------------------------------------------------------------------------------

BOX_TABLE = [
    ("ones", "1 1 1 2 3", 3),
    ("ones", "2 3 4 5 6", 0),
    ("twos", "2 2 1 5 6", 4),
    ("threes", "3 3 3 3 3", 15),
    ("fours", "4 3 4 4 1", 12),
    ("fives", "5 1 1 1 1", 5),
    ("sixes", "6 6 6 6 1", 24),
    ("three_of_a_kind", "3 3 3 1 2", 12),
    ("three_of_a_kind", "3 3 3 3 2", 14),
    ("three_of_a_kind", "6 6 6 6 6", 30),
    ("three_of_a_kind", "3 3 1 1 2", 0),
    ("four_of_a_kind", "2 2 2 2 6", 14),
    ("four_of_a_kind", "2 2 2 2 2", 10),
    ("four_of_a_kind", "2 2 2 6 6", 0),
    ("full_house", "2 2 3 3 3", 25),
    ("full_house", "6 1 6 1 6", 25),
    ("full_house", "2 2 2 2 3", 0),
    ("full_house", "4 4 4 4 4", 0),
    ("full_house", "1 2 3 4 5", 0),
    ("small_straight", "1 2 3 4 6", 30),
    ("small_straight", "2 3 4 5 5", 30),
    ("small_straight", "6 5 4 3 1", 30),
    ("small_straight", "1 2 3 4 5", 30),
    ("small_straight", "1 2 3 5 6", 0),
    ("large_straight", "1 2 3 4 5", 40),
    ("large_straight", "6 5 4 3 2", 40),
    ("large_straight", "1 2 3 4 6", 0),
    ("yahtzee", "4 4 4 4 4", 50),
    ("yahtzee", "4 4 4 4 3", 0),
    ("chance", "1 2 3 4 6", 16),
    ("chance", "6 6 6 6 6", 30),
]


@pytest.mark.parametrize(("box", "dice", "points"), BOX_TABLE)
def test_every_box(box: str, dice: str, points: int) -> None:
    assert yahtzee.score(box, Roll.parse(dice)) == points
    assert yahtzee.score(box, Roll.parse(dice).values) == points
    assert yahtzee.new_sheet().options(Roll.parse(dice))[box] == points


def test_every_box_is_tested() -> None:
    assert {box for box, _, _ in BOX_TABLE} == set(yahtzee.BOXES)


def test_unknown_box_and_bad_dice() -> None:
    with pytest.raises(IllegalAction) as err:
        yahtzee.score("kareta", (1, 2, 3, 4, 5))
    assert err.value.code == "unknown_box"
    with pytest.raises(IllegalAction) as err:
        yahtzee.new_sheet().fill("kareta", (1, 2, 3, 4, 5))
    assert err.value.code == "unknown_box"
    with pytest.raises(ValueError, match="5 dice"):
        yahtzee.score("chance", (1, 2, 3, 4, 9))


# --- the sheet ----------------------------------------------------------------------------------


def test_fill_returns_a_new_sheet_and_refuses_a_filled_box() -> None:
    empty = yahtzee.new_sheet(variant="classic")
    s = empty.fill("full_house", (2, 2, 3, 3, 3))
    assert empty.get("full_house") is None and s.get("full_house") == 25
    assert s.filled == 1 and not s.is_full
    assert "full_house" not in s.options((2, 2, 3, 3, 3))
    with pytest.raises(IllegalAction) as err:
        s.fill("full_house", (2, 2, 3, 3, 3))
    assert err.value.code == "box_filled"
    assert s.fill("chance", Roll.parse("12345")) == s.fill("chance", (1, 2, 3, 4, 5))


def test_new_sheet_refuses_an_unknown_variant() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        yahtzee.new_sheet(variant="double")


# --- forced joker ---------------------------------------------------------------------------------


def test_five_of_a_kind_with_the_yahtzee_box_open_is_an_ordinary_roll() -> None:
    options = yahtzee.new_sheet().options(FIVE_FIVES)
    assert options["yahtzee"] == 50
    assert options["full_house"] == 0 and options["small_straight"] == 0 and options["ones"] == 0
    assert len(options) == 13


@pytest.mark.parametrize("yahtzee_box", [50, 0])
def test_forced_joker_a_matching_upper_box_first(yahtzee_box: int) -> None:
    s = sheet_with(yahtzee=yahtzee_box)
    assert s.options(FIVE_FIVES) == {"fives": 25}
    with pytest.raises(IllegalAction) as err:
        s.fill("large_straight", FIVE_FIVES)
    assert err.value.code == "joker_forced"
    assert err.value.details["allowed"] == ("fives",)
    assert "5 5 5 5 5" in err.value.message
    assert s.fill("fives", FIVE_FIVES).get("fives") == 25


@pytest.mark.parametrize("yahtzee_box", [50, 0])
def test_forced_joker_b_any_open_lower_box_at_full_value(yahtzee_box: int) -> None:
    s = sheet_with(yahtzee=yahtzee_box, fives=10, full_house=25, chance=20)
    assert s.options(FIVE_FIVES) == {
        "three_of_a_kind": 25,
        "four_of_a_kind": 25,
        "small_straight": 30,
        "large_straight": 40,
    }
    with pytest.raises(IllegalAction) as err:
        s.fill("ones", FIVE_FIVES)
    assert err.value.code == "joker_forced"
    assert s.fill("large_straight", FIVE_FIVES).get("large_straight") == 40


@pytest.mark.parametrize("yahtzee_box", [50, 0])
def test_forced_joker_c_zero_in_an_open_upper_box(yahtzee_box: int) -> None:
    s = sheet_with(all_filled_but("twos", "sixes", yahtzee=yahtzee_box, fives=15))
    assert s.options(FIVE_FIVES) == {"twos": 0, "sixes": 0}
    assert s.fill("sixes", FIVE_FIVES).get("sixes") == 0


def test_forced_joker_only_for_five_of_a_kind() -> None:
    s = sheet_with(yahtzee=50)
    assert len(s.options((5, 5, 5, 5, 4))) == 12


def test_free_joker_any_open_box_lower_at_full_value() -> None:
    s = sheet_with(joker="free", yahtzee=50, chance=12)
    options = s.options(FIVE_FIVES)
    assert len(options) == 11
    assert options["fives"] == 25 and options["ones"] == 0
    assert options["full_house"] == 25 and options["small_straight"] == 30 and options["large_straight"] == 40
    assert s.fill("ones", FIVE_FIVES).get("ones") == 0
    assert s.fill("large_straight", FIVE_FIVES).bonuses()["yahtzee_bonus"] == 100


def test_free_joker_with_the_yahtzee_box_open_is_an_ordinary_roll() -> None:
    assert sheet_with(joker="free").options(FIVE_FIVES)["full_house"] == 0


# --- Yahtzee bonus --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("filled", "box"),
    [
        ({}, "fives"),  # (a)
        ({"fives": 25}, "full_house"),  # (b)
        (all_filled_but("sixes", value=0, fives=25), "sixes"),  # (c)
    ],
)
@pytest.mark.parametrize(("yahtzee_box", "bonus"), [(50, 100), (0, 0)])
def test_bonus_wherever_the_joker_goes_only_with_50_in_the_yahtzee_box(
    filled: dict[str, int], box: str, yahtzee_box: int, bonus: int
) -> None:
    s = sheet_with({**filled, "yahtzee": yahtzee_box}).fill(box, FIVE_FIVES)
    assert s.bonuses()["yahtzee_bonus"] == bonus
    assert s.total() == sum(s.get(b) or 0 for b in yahtzee.BOXES) + s.bonuses()["upper"] + bonus


def test_no_bonus_for_the_five_of_a_kind_that_fills_the_yahtzee_box() -> None:
    assert yahtzee.new_sheet().fill("yahtzee", FIVE_FIVES).bonuses()["yahtzee_bonus"] == 0


def test_a_zeroed_yahtzee_box_never_pays_a_bonus() -> None:
    s = yahtzee.new_sheet().fill("yahtzee", (1, 2, 3, 4, 5))
    assert s.get("yahtzee") == 0
    s = s.fill("fives", FIVE_FIVES).fill("chance", FIVE_FIVES)
    assert s.bonuses()["yahtzee_bonus"] == 0 and s.get("chance") == 25


def test_the_joker_counts_towards_the_upper_bonus() -> None:
    s = sheet_with(ones=3, twos=6, threes=9, fours=12, sixes=18, yahtzee=50).fill("fives", FIVE_FIVES)
    assert s.bonuses() == {"upper": 35, "yahtzee_bonus": 100}
    assert s.total() == 73 + 50 + 35 + 100


# --- options, presets, registry, text -------------------------------------------------------------


def test_presets() -> None:
    assert yahtzee.YahtzeeOptions.preset("official") == yahtzee.YahtzeeOptions()
    assert yahtzee.YahtzeeOptions.preset("seed", variant="triple", players=1).variant == "triple"
    with pytest.raises(OptionError, match="joker"):
        yahtzee.YahtzeeOptions(joker="sometimes")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="players"):
        yahtzee.YahtzeeOptions(players=5)


def test_new_game_follows_the_options() -> None:
    free = yahtzee.new_game(yahtzee.YahtzeeOptions(players=1, joker="free"))
    assert free.sheets == (ClassicSheet(joker="free"),)
    with pytest.raises(TypeError, match="YahtzeeOptions"):
        yahtzee.new_game(rules.Options())


def test_registered_with_titles_and_variants() -> None:
    spec = rules.get_game("yahtzee")
    assert spec is yahtzee.SPEC and spec.options_type is yahtzee.YahtzeeOptions
    # One name per game and variant (issue 36, item 9): a game with variants is named by its variant,
    # the first (classic) when none is given.
    assert spec.title("pl") == "Generał (klasyczny)" and spec.title("en") == "Generał (classic)"
    assert spec.title("en", "triple") == "Triple Generał" and spec.title("de", "triple") == "Dreifach-Generał"
    assert set(spec.variants) == {"classic", "triple"}
    assert all(set(names) == set(rules.LANGUAGES) for names in spec.variants.values())


def test_describe_prints_every_box_the_bonuses_and_the_ranking() -> None:
    state = yahtzee.auto_play(yahtzee.YahtzeeOptions(players=2, seed=3))
    text = yahtzee.describe(state)
    assert state.outcome is not None
    for word in (
        *(box_words(b) for b in yahtzee.BOXES),
        "upper bonus",
        "yahtzee bonus",
        "ranking:",
        "P1",
        "P2",
    ):
        assert word in text
    assert f"P1 {state.sheets[0].total()}" in text
    winner = state.outcome.winners[0]
    assert f"1. P{winner + 1}  {state.outcome.scores[winner]}" in text
