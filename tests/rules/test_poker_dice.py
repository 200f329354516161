"""Kości: every box with the seed 004 examples, section bonus/penalty, zero entries, the joker bonus."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

import rules
from rules import OptionError, poker_dice
from rules.dice import Choose, Roll, RollDice
from rules.dice_game import box_words
from rules.errors import IllegalAction
from rules.poker_dice import PokerDiceSheet

SMALL = poker_dice.SMALL_FIGURES
LARGE = poker_dice.LARGE_FIGURES


def sheet_with(
    filled: Mapping[str, int] | None = None, /, *, per_zero: bool = False, strict: bool = False, **values: int
) -> PokerDiceSheet:
    """A Kości sheet with the given boxes already filled (``filled`` and ``values``)."""
    values = {**(filled or {}), **values}
    return PokerDiceSheet(
        tuple(values.get(box) for box in poker_dice.BOXES),
        allow_voluntary_zero=not strict,
        penalty_per_zero=per_zero,
    )


# --- seed 004: every worked example (prose and table) ------------------------------------------

SEED_EXAMPLES = [
    # prose: 4 3 4 4 1
    ("fours", "4 3 4 4 1", 12),
    ("threes", "4 3 4 4 1", 3),
    ("three_of_a_kind", "4 3 4 4 1", 12),  # "Trójki" read as Trójka
    ("twos", "4 3 4 4 1", 0),
    ("fives", "4 3 4 4 1", 0),
    ("sixes", "4 3 4 4 1", 0),
    # prose: the figures
    ("pair", "2 2 3 4 1", 4),
    ("pair", "2 2 2 4 1", 6),
    ("two_pairs", "2 2 3 3 1", 10),
    ("two_pairs", "2 2 1 1 1", 7),
    ("three_of_a_kind", "2 2 2 4 1", 6),
    ("three_of_a_kind", "2 2 2 2 1", 8),
    ("small_straight", "1 2 3 4 5", 15),
    ("large_straight", "2 3 4 5 6", 20),
    ("full_house", "2 2 2 4 4", 24),
    ("full_house", "2 2 2 2 2", 20),
    ("four_of_a_kind", "2 2 2 2 4", 32),
    ("four_of_a_kind", "2 2 2 2 2", 30),
    ("poker", "2 2 2 2 2", 60),
    ("chance", "2 2 2 2 4", 12),
    # the table
    ("ones", "1 2 1 2 1", 3),
    ("twos", "1 2 1 2 1", 4),
    ("threes", "1 2 1 1 3", 3),
    ("fours", "4 1 1 4 1", 8),
    ("fives", "1 1 1 1 5", 5),
    ("sixes", "1 2 6 6 1", 12),
    ("pair", "1 5 5 2 4", 10),
    ("two_pairs", "1 2 1 2 6", 6),
    ("three_of_a_kind", "1 2 1 5 1", 3),
    ("small_straight", "1 2 3 4 5", 15),
    ("large_straight", "2 3 4 5 6", 20),
    ("full_house", "5 5 5 3 3", 21 + 10),
    ("four_of_a_kind", "1 1 1 1 5", 9 + 20),
    ("poker", "5 5 5 5 5", 25 + 50),
    ("chance", "1 2 1 2 1", 7),
]

MORE_BRANCHES = [
    ("pair", "1 2 3 4 6", 0),
    ("pair", "2 2 6 6 1", 12),  # the higher-scoring pair
    ("pair", "1 1 1 6 6", 12),
    ("pair", "3 3 3 3 3", 15),
    ("two_pairs", "2 2 2 2 3", 8),
    ("two_pairs", "2 2 2 3 3", 12),
    ("two_pairs", "2 2 3 4 5", 0),
    ("two_pairs", "2 2 2 4 5", 0),
    ("two_pairs", "4 4 4 4 4", 20),
    ("three_of_a_kind", "6 6 1 1 2", 0),
    ("three_of_a_kind", "6 6 6 6 6", 30),
    ("small_straight", "1 2 3 4 6", 0),
    ("small_straight", "2 3 4 5 6", 0),
    ("small_straight", "5 4 3 2 1", 15),
    ("large_straight", "1 2 3 4 5", 0),
    ("large_straight", "6 2 4 3 5", 20),
    ("full_house", "2 2 3 3 4", 0),
    ("full_house", "2 2 2 2 3", 0),
    ("four_of_a_kind", "2 2 2 3 3", 0),
    ("poker", "2 2 2 2 3", 0),
]


@pytest.mark.parametrize(("box", "dice", "points"), SEED_EXAMPLES + MORE_BRANCHES)
def test_every_box(box: str, dice: str, points: int) -> None:
    assert poker_dice.score(box, Roll.parse(dice)) == points
    assert poker_dice.score(box, Roll.parse(dice).values) == points
    assert poker_dice.new_sheet().options(Roll.parse(dice))[box] == points


def test_every_box_has_a_seed_example() -> None:
    assert {box for box, _, _ in SEED_EXAMPLES} == set(poker_dice.BOXES)


def test_sheet_order_and_sections() -> None:
    assert (*SMALL, *LARGE, "chance") == poker_dice.BOXES
    assert len(SMALL) == 9 and SMALL[-1] == "three_of_a_kind"
    assert LARGE == ("small_straight", "large_straight", "full_house", "four_of_a_kind", "poker")


def test_unknown_and_filled_boxes() -> None:
    with pytest.raises(IllegalAction) as err:
        poker_dice.score("yahtzee", (1, 2, 3, 4, 5))
    assert err.value.code == "unknown_box"
    s = poker_dice.new_sheet().fill("chance", (1, 2, 3, 4, 5))
    with pytest.raises(IllegalAction) as err:
        s.fill("chance", (1, 2, 3, 4, 5))
    assert err.value.code == "box_filled"
    assert s.get("chance") == 15 and s.filled == 1 and "chance" not in s.options((1, 2, 3, 4, 5))


# --- sections: bonus and penalty ----------------------------------------------------------------

SMALL_NO_ZERO = dict.fromkeys(SMALL, 5)
LARGE_NO_ZERO = dict.fromkeys(LARGE, 30)


@pytest.mark.parametrize(
    ("values", "small", "large"),
    [
        ({}, 0, 0),
        (SMALL_NO_ZERO, 20, 0),
        ({**SMALL_NO_ZERO, "pair": 0}, -20, 0),
        ({**SMALL_NO_ZERO, "pair": 0, "ones": 0, "sixes": 0}, -20, 0),
        (LARGE_NO_ZERO, 0, 30),
        ({**LARGE_NO_ZERO, "poker": 0}, 0, -10),
        ({**LARGE_NO_ZERO, "poker": 0, "small_straight": 0}, 0, -10),
        ({**SMALL_NO_ZERO, **LARGE_NO_ZERO, "chance": 0}, 20, 30),  # chance is in no section
        ({**SMALL_NO_ZERO, **LARGE_NO_ZERO, "twos": 0, "full_house": 0}, -20, -10),
        # a section's line counts only once all its boxes are filled
        ({k: v for k, v in SMALL_NO_ZERO.items() if k != "ones"}, 0, 0),
        ({**{k: 0 for k in LARGE if k != "poker"}}, 0, 0),
    ],
)
def test_section_bonus_or_penalty_once_per_section(values: dict[str, int], small: int, large: int) -> None:
    s = sheet_with(values)
    assert s.bonuses() == {"small": small, "large": large, "joker": 0}
    assert s.total() == sum(values.values()) + small + large


@pytest.mark.parametrize(
    ("values", "small", "large"),
    [
        (SMALL_NO_ZERO, 20, 0),
        ({**SMALL_NO_ZERO, "pair": 0}, -20, 0),
        ({**SMALL_NO_ZERO, "pair": 0, "ones": 0, "sixes": 0}, -60, 0),
        (LARGE_NO_ZERO, 0, 30),
        ({**LARGE_NO_ZERO, "poker": 0, "small_straight": 0}, 0, -20),
        ({k: 0 for k in LARGE}, 0, -50),
    ],
)
def test_penalty_per_zero_option(values: dict[str, int], small: int, large: int) -> None:
    s = sheet_with(values, per_zero=True)
    assert (s.bonuses()["small"], s.bonuses()["large"]) == (small, large)


def test_penalty_settles_when_the_last_box_of_the_section_is_filled() -> None:
    s = sheet_with({k: v for k, v in LARGE_NO_ZERO.items() if k != "poker"})
    assert s.total() == 120
    assert s.fill("poker", (1, 2, 3, 4, 5)).total() == 120 - 10
    assert s.fill("poker", (1, 1, 1, 1, 1)).total() == 120 + 55 + 30


# --- zero entries ---------------------------------------------------------------------------------


def test_voluntary_zero_allowed_by_default() -> None:
    s = poker_dice.new_sheet().fill("poker", (1, 2, 3, 4, 5))
    assert s.get("poker") == 0


def test_strict_mode_refuses_a_zero_while_some_box_scores() -> None:
    s = poker_dice.new_sheet(allow_voluntary_zero=False)
    options = s.options((1, 2, 3, 4, 6))
    assert options == {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "sixes": 6, "chance": 16}
    with pytest.raises(IllegalAction) as err:
        s.fill("poker", (1, 2, 3, 4, 6))
    assert err.value.code == "voluntary_zero"
    assert "1 2 3 4 6" in err.value.message and err.value.details["box"] == "poker"


def test_strict_mode_allows_a_zero_when_nothing_scores() -> None:
    s = sheet_with(strict=True, ones=3, twos=4, threes=3, fours=8, sixes=12, pair=10, chance=7)
    assert s.options((1, 2, 3, 4, 6)) == {box: 0 for box in ("fives", *SMALL[7:], *LARGE)}
    assert s.fill("poker", (1, 2, 3, 4, 6)).get("poker") == 0


# --- joker bonus ----------------------------------------------------------------------------------


def test_joker_bonus_after_a_non_zero_poker_wherever_the_roll_goes() -> None:
    s = poker_dice.new_sheet().fill("poker", (3, 3, 3, 3, 3))
    s = s.fill("sixes", (6, 6, 6, 6, 6)).fill("full_house", (1, 1, 1, 1, 1))
    assert s.bonuses()["joker"] == 100
    assert s.total() == 65 + 30 + 15 + 100


def test_no_joker_bonus_for_the_five_of_a_kind_entered_in_poker() -> None:
    assert poker_dice.new_sheet().fill("poker", (3, 3, 3, 3, 3)).bonuses()["joker"] == 0


def test_no_joker_bonus_before_poker_is_filled() -> None:
    assert poker_dice.new_sheet().fill("chance", (3, 3, 3, 3, 3)).bonuses()["joker"] == 0


def test_no_joker_bonus_after_poker_was_zeroed() -> None:
    s = poker_dice.new_sheet().fill("poker", (1, 2, 3, 4, 5)).fill("chance", (3, 3, 3, 3, 3))
    assert s.bonuses()["joker"] == 0


def test_no_joker_bonus_for_four_of_a_kind() -> None:
    s = poker_dice.new_sheet().fill("poker", (3, 3, 3, 3, 3)).fill("chance", (3, 3, 3, 3, 2))
    assert s.bonuses()["joker"] == 0


def test_joker_bonus_in_a_game_counts_the_final_dice_only() -> None:
    opts = poker_dice.PokerDiceOptions(players=1)
    state = poker_dice.new_game(opts).apply(RollDice(Roll.parse("22222"))).apply(Choose("poker"))
    state = state.apply(RollDice(Roll.parse("44444"))).apply(RollDice(Roll.parse("44443"), (0, 1, 2, 3)))
    state = state.apply(Choose("chance"))
    assert state.sheets[0].bonuses()["joker"] == 0
    state = state.apply(RollDice(Roll.parse("44443"))).apply(RollDice(Roll.parse("44444"), (0, 1, 2, 3)))
    state = state.apply(Choose("fours"))
    assert state.sheets[0].bonuses()["joker"] == 50


# --- options, the draw, registry, text ------------------------------------------------------------


def test_options_and_presets() -> None:
    assert poker_dice.PokerDiceOptions.preset("official") == poker_dice.PokerDiceOptions()
    opts = poker_dice.PokerDiceOptions.preset("seed", penalty_per_zero=True, allow_voluntary_zero=False)
    state = poker_dice.new_game(opts)
    assert state.sheets[0] == poker_dice.new_sheet(allow_voluntary_zero=False, penalty_per_zero=True)
    with pytest.raises(OptionError, match="first_player"):
        poker_dice.PokerDiceOptions(players=2, first_player=2)
    with pytest.raises(OptionError, match="penalty_per_zero"):
        poker_dice.PokerDiceOptions(penalty_per_zero="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="PokerDiceOptions"):
        poker_dice.new_game(rules.Options())


def test_the_starting_seat_is_drawn_from_the_seed() -> None:
    drawn = {poker_dice.draw_first_player(poker_dice.PokerDiceOptions(players=4, seed=s)) for s in range(50)}
    assert drawn == {0, 1, 2, 3}
    opts = poker_dice.PokerDiceOptions(players=4, seed=9)
    state = poker_dice.new_game(opts)
    assert state.turn_seat == state.first_player == poker_dice.draw_first_player(opts)
    assert poker_dice.new_game(opts) == state
    assert poker_dice.draw_first_player(opts.replace(first_player=1)) == 1


def test_registered_with_titles() -> None:
    spec = rules.get_game("poker_dice")
    assert spec is poker_dice.SPEC and spec.options_type is poker_dice.PokerDiceOptions
    assert spec.title("pl") == "Kości" and spec.title("en") == "Kości (poker dice)"
    assert set(spec.titles) == set(rules.LANGUAGES)


def test_describe_prints_every_box_the_bonus_lines_and_the_ranking() -> None:
    state = poker_dice.auto_play(poker_dice.PokerDiceOptions(players=3, seed=2))
    text = poker_dice.describe(state)
    for word in (
        *(box_words(b) for b in poker_dice.BOXES),
        "small figures bonus",
        "large figures bonus",
        "joker bonus",
        "ranking:",
    ):
        assert word in text
    assert f"P{state.first_player + 1} started" in text
    assert f"P3 {state.sheets[2].total()}" in text
