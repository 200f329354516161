"""Invariants of whole random dice games (Generał, triple Generał, Kości), checked with Hypothesis."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import poker_dice, yahtzee
from rules.actions import Action, actions_from_json, actions_to_json
from rules.dice import Choose, Roll, RollDice, random_roll
from rules.dice_game import MAX_ROLLS, DiceGame
from rules.errors import IllegalAction

Game = DiceGame[Any]


def new_game(spec: rules.GameSpec, options: rules.Options) -> Game:
    state = spec.new_game(options)
    assert isinstance(state, DiceGame)
    return state


game_options = st.one_of(
    st.builds(
        yahtzee.YahtzeeOptions,
        players=st.integers(1, 4),
        seed=st.integers(0, 2**32),
        variant=st.sampled_from(["classic", "triple"]),
        joker=st.sampled_from(["forced", "free"]),
    ),
    st.builds(
        poker_dice.PokerDiceOptions,
        players=st.integers(1, 4),
        seed=st.integers(0, 2**32),
        allow_voluntary_zero=st.booleans(),
        penalty_per_zero=st.booleans(),
    ),
)


def random_action(state: Game, rng: random.Random) -> Action:
    """Any action, legal or not: a roll with random holds and values, or any box (also unknown)."""
    if rng.random() < 0.5:
        held = tuple(rng.sample(range(6), rng.randint(0, 2)))
        return RollDice(random_roll(rng, None), held)
    return Choose(rng.choice([*state.sheets[0].boxes, "kareta", "4:ones"]))


def play(state: Game, rng: random.Random) -> tuple[Game, list[Action]]:
    """Play to the end; a legal turn leans on five-of-a-kinds so that jokers and bonuses happen.

    Between legal moves it tries random (mostly illegal) actions and checks that a refusal leaves
    the state exactly as it was.
    """
    accepted: list[Action] = []

    def apply(act: Action) -> None:
        nonlocal state
        state = state.apply(act)
        accepted.append(act)

    while state.outcome is None:
        for _ in range(2):
            before = state
            try:
                apply(random_action(state, rng))
            except IllegalAction:
                assert state == before
        if state.outcome is not None:  # a random Choose may have been legal and the last one
            break
        if state.dice is None:
            face = rng.randint(1, 6)
            apply(RollDice(Roll((face,) * 5) if rng.random() < 0.3 else random_roll(rng, None)))
        while state.rolls_used < MAX_ROLLS and rng.random() < 0.4:
            assert state.dice is not None
            held = tuple(p for p in range(5) if rng.random() < 0.5)
            apply(RollDice(random_roll(rng, state.dice, held), held))
        choices = state.choices()
        assert choices, "some box is always open while the game is on"
        box = rng.choice(sorted(choices))
        sheet_before = state.sheets[state.turn_seat]
        seat = state.turn_seat
        apply(Choose(box))
        assert state.sheets[seat].get(box) == choices[box]
        assert state.sheets[seat].filled == sheet_before.filled + 1
    return state, accepted


def box_sum(sheet: Any) -> int:
    return sum(sheet.get(box) for box in sheet.boxes)


@settings(max_examples=30)
@given(game_options)
def test_random_games_end_with_full_sheets_and_consistent_totals(options: rules.Options) -> None:
    state, _ = play(
        new_game(rules.get_game(rules.game_of(options).name), options), random.Random(options.seed)
    )
    assert state.outcome is not None
    assert all(sheet.is_full for sheet in state.sheets)
    for sheet, score in zip(state.sheets, state.outcome.scores, strict=True):
        assert sheet.total() == box_sum(sheet) + sum(sheet.bonuses().values()) == score
    assert min(state.outcome.places) == 1
    assert state.outcome.places == rules.places(state.outcome.scores)


@settings(max_examples=30)
@given(game_options)
def test_replay_from_json_actions_rebuilds_the_state(options: rules.Options) -> None:
    state, accepted = play(new_game(rules.game_of(options), options), random.Random(options.seed))
    assert rules.replay(options, actions_from_json(actions_to_json(accepted))) == state


@settings(max_examples=30)
@given(game_options)
def test_auto_play_is_deterministic_and_complete(options: rules.Options) -> None:
    spec = rules.game_of(options)
    state = spec.auto_play(options)
    assert state == spec.auto_play(options)
    assert state.outcome is not None


@given(st.tuples(*[st.integers(1, 6)] * 5))
def test_options_list_exactly_the_boxes_fill_accepts(dice: tuple[int, ...]) -> None:
    sheets = [
        yahtzee.new_sheet().fill("yahtzee", (dice[0],) * 5).fill(yahtzee.UPPER[dice[0] - 1], (dice[0],) * 5),
        yahtzee.new_sheet("triple").fill("3:yahtzee", (2,) * 5),
        poker_dice.new_sheet(allow_voluntary_zero=False).fill("chance", (1, 1, 1, 1, 1)),
    ]
    for sheet in sheets:
        options = sheet.options(dice)
        for box in sheet.boxes:
            if box in options:
                assert sheet.fill(box, dice).get(box) == options[box]
            else:
                try:
                    sheet.fill(box, dice)
                except IllegalAction as err:
                    assert err.code in {"box_filled", "joker_forced", "voluntary_zero"}
                else:
                    raise AssertionError(f"{box} accepted {dice} but is not among the options")
