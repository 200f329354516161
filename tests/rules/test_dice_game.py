"""The shared dice turn machine: rolls, holds, choosing a box, seats in turn, game end and ranking."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

import rules
from rules import poker_dice, yahtzee
from rules.actions import Action, action
from rules.dice import AmendRoll, Choose, Roll, RollDice
from rules.dice_game import DiceGame, auto_play, format_table, ranking_lines
from rules.errors import IllegalAction
from rules.outcome import Termination


def roll(text: str, held: tuple[int, ...] = ()) -> RollDice:
    return RollDice(Roll.parse(text), held)


def refused(state: DiceGame, act: Action, code: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        state.apply(act)
    assert err.value.code == code
    return err.value


def test_a_new_game_waits_for_the_first_roll() -> None:
    state = yahtzee.new_game(yahtzee.YahtzeeOptions(players=3))
    assert (state.turn_seat, state.round_number, state.rolls_used, state.dice) == (0, 1, 0, None)
    assert len(state.sheets) == 3 and state.outcome is None
    assert state.choices() == {}
    assert rules.get_game("yahtzee").new_game(yahtzee.YahtzeeOptions(players=3)) == state


def test_roll_hold_and_reroll_up_to_three_times() -> None:
    state = yahtzee.new_game().apply(roll("4 3 4 4 1"))
    assert (state.rolls_used, str(state.dice)) == (1, "4 3 4 4 1")
    state = state.apply(roll("4 6 4 4 2", held=(0, 2, 3)))
    state = state.apply(roll("4 4 4 4 2", held=(0, 2, 3)))
    assert (state.rolls_used, str(state.dice)) == (3, "4 4 4 4 2")
    assert state.choices()["four_of_a_kind"] == 18


def test_a_fourth_roll_is_refused() -> None:
    state = yahtzee.new_game().apply(roll("11111")).apply(roll("22222")).apply(roll("33333"))
    refused(state, roll("44444"), "too_many_rolls")


def test_a_held_die_must_keep_its_value() -> None:
    state = yahtzee.new_game().apply(roll("4 3 4 4 1"))
    err = refused(state, roll("4 3 5 4 1", held=(0, 2, 3)), "held_die_changed")
    assert err.details["positions"] == (2,)
    assert "4 3 4 4 1" in err.message and "4 3 5 4 1" in err.message
    # dice that are not held may show anything, also their old value
    assert state.apply(roll("4 3 4 4 1", held=(0,))).rolls_used == 2


def test_the_first_roll_holds_nothing() -> None:
    refused(yahtzee.new_game(), roll("4 3 4 4 1", held=(0,)), "nothing_to_hold")


@pytest.mark.parametrize("held", [(5,), (-1,), (1, 1)])
def test_held_positions_must_be_distinct_dice(held: tuple[int, ...]) -> None:
    refused(yahtzee.new_game().apply(roll("12345")), roll("12345", held), "invalid_hold")


def test_choosing_before_rolling_is_refused() -> None:
    err = refused(yahtzee.new_game(), Choose("chance"), "no_roll")
    assert err.details["box"] == "chance"
    with pytest.raises(IllegalAction) as best:
        yahtzee.new_game().best_choice()
    assert best.value.code == "no_roll"


def test_stopping_after_the_first_roll_passes_the_dice() -> None:
    state = (
        yahtzee.new_game(yahtzee.YahtzeeOptions(players=2))
        .apply(roll("6 6 6 2 2"))
        .apply(Choose("full_house"))
    )
    assert state.sheets[0].get("full_house") == 25
    assert (state.turn_seat, state.round_number, state.rolls_used, state.dice) == (1, 1, 0, None)
    state = state.apply(roll("12345")).apply(Choose("chance"))
    assert (state.turn_seat, state.round_number) == (0, 2)


def test_best_choice_takes_the_highest_points_and_the_first_on_ties() -> None:
    state = yahtzee.new_game().apply(roll("6 6 6 2 2"))
    assert state.best_choice() == "full_house"  # 25 beats 22 in three_of_a_kind and chance
    state = yahtzee.new_game().apply(roll("5 5 5 6 6"))
    assert state.choices()["three_of_a_kind"] == state.choices()["chance"] == 27
    assert state.best_choice() == "three_of_a_kind"


def test_refused_box_codes_come_from_the_sheet() -> None:
    state = yahtzee.new_game(yahtzee.YahtzeeOptions(players=1))
    state = state.apply(roll("12345")).apply(Choose("chance")).apply(roll("12345"))
    refused(state, Choose("chance"), "box_filled")
    refused(state, Choose("kareta"), "unknown_box")


@action("test.dice_other")
@dataclass(frozen=True)
class _Other(Action):
    pass


def test_actions_of_other_games_are_refused() -> None:
    refused(yahtzee.new_game(), _Other(), "unknown_action")


def _play_fixed(state: DiceGame, box_order: tuple[str, ...], dice: str) -> DiceGame:
    """Every seat enters ``dice`` in its boxes in ``box_order``, turn after turn."""
    for box in box_order:
        for _ in state.sheets:
            state = state.apply(roll(dice)).apply(Choose(box))
    return state


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_game_ends_when_every_sheet_is_full(players: int) -> None:
    state = yahtzee.new_game(yahtzee.YahtzeeOptions(players=players))
    state = _play_fixed(state, yahtzee.BOXES[:-1], "1 2 3 4 6")
    assert state.outcome is None and state.round_number == 13
    state = _play_fixed(state, ("chance",), "1 2 3 4 6")
    assert state.outcome is not None
    assert state.outcome.termination is Termination.SHEETS_FULL
    assert state.outcome.places == (1,) * players  # equal sheets share the first place
    assert state.outcome.scores == (state.sheets[0].total(),) * players
    assert state.round_number == 13 and state.choices() == {}
    refused(state, roll("12345"), "game_over")
    with pytest.raises(IllegalAction) as err:
        state.best_choice()
    assert err.value.code == "game_over"


def test_ranking_shares_places_on_equal_totals() -> None:
    state = yahtzee.new_game(yahtzee.YahtzeeOptions(players=3))
    for box in yahtzee.BOXES:
        for dice in ("1 1 1 1 2", "6 6 6 6 5", "1 1 1 1 2"):
            state = state.apply(roll(dice)).apply(Choose(box))
    assert state.outcome is not None
    assert state.outcome.places == (2, 1, 2)
    assert state.outcome.winners == (1,)
    text = "\n".join(ranking_lines(state))
    assert text.index("1. P2") < text.index("2. P1") < text.index("2. P3")


def test_triple_has_39_turns() -> None:
    state = yahtzee.new_game(yahtzee.YahtzeeOptions(players=1, variant="triple"))
    for box in yahtzee.TRIPLE_BOXES:
        assert state.outcome is None
        state = state.apply(roll("12345")).apply(Choose(box))
        assert state.round_number == min(yahtzee.TRIPLE_BOXES.index(box) + 2, 39)
    assert state.outcome is not None


def test_poker_dice_starts_with_the_seat_drawn_by_lot_and_goes_clockwise() -> None:
    opts = poker_dice.PokerDiceOptions(players=4, first_player=2)
    state = poker_dice.new_game(opts)
    seats = []
    for _ in range(5):
        seats.append(state.turn_seat)
        state = state.apply(roll("12345")).apply(
            Choose("chance" if state.round_number == 1 else "small_straight")
        )
    assert seats == [2, 3, 0, 1, 2]
    assert [s.filled for s in state.sheets] == [1, 1, 2, 1]


def test_poker_dice_ends_after_15_turns_each_whoever_started() -> None:
    state = poker_dice.new_game(poker_dice.PokerDiceOptions(players=3, first_player=1))
    state = _play_fixed(state, poker_dice.BOXES, "1 2 3 4 5")
    assert state.outcome is not None and all(s.is_full for s in state.sheets)


def test_auto_play_is_seeded_and_ends_the_game() -> None:
    state = yahtzee.new_game(yahtzee.YahtzeeOptions(players=2))
    end = auto_play(state, random.Random(5))
    assert end == auto_play(state, random.Random(5))
    assert end.outcome is not None


def test_format_table_aligns_columns() -> None:
    assert format_table(["box", "P1"], [["ones", "3"], ["chance", "25"]]).splitlines() == [
        "box     P1",
        "----------",
        "ones     3",
        "chance  25",
    ]


@pytest.mark.parametrize("spec", [yahtzee.SPEC, poker_dice.SPEC])
def test_describe_a_game_in_progress(spec: rules.GameSpec) -> None:
    state = spec.new_game(spec.options_type(players=2, seed=1)).apply(roll("12345")).apply(Choose("chance"))
    text = spec.describe(state)
    assert "Chance" in text and "15" in text
    assert "game on: P" in text and "to play, turn" in text and "ranking" not in text


def test_new_games_without_options_use_the_defaults() -> None:
    assert yahtzee.new_game().options == yahtzee.YahtzeeOptions()
    assert poker_dice.new_game().options == poker_dice.PokerDiceOptions()


def test_the_latest_roll_amended_uses_no_roll_and_keeps_the_held_dice() -> None:
    """A die the camera misread: the players amend the turn's latest roll, no roll is used, a die
    held in it keeps its value; nothing to amend before the turn's first roll."""
    state = yahtzee.new_game()
    refused(state, AmendRoll(Roll.parse("1 2 3 4 5")), "no_roll")
    state = state.apply(roll("4 3 4 4 1")).apply(roll("4 6 4 4 5", held=(0, 2, 3)))
    amended = state.apply(AmendRoll(Roll.parse("4 6 4 4 2")))
    assert (amended.rolls_used, str(amended.dice)) == (2, "4 6 4 4 2")
    err = refused(state, AmendRoll(Roll.parse("4 6 3 4 5")), "held_die_changed")
    assert err.details["positions"] == (2,)
    third = amended.apply(roll("4 6 4 4 6", held=(0, 1, 2, 3)))
    assert third.rolls_used == 3 and third.apply(AmendRoll(Roll.parse("4 6 4 4 3"))).rolls_used == 3
    after = third.apply(Choose("chance"))
    assert after.held == () and after.dice is None
