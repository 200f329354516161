"""Speed of the dice-game engine: whole random games and replays of their actions.

Run: ``.venv/bin/python bench/dice_games.py``. Prints, per game, the time of one random game
(``auto_play``) and the replay rate in actions per second (the journal's resume budget is
10,000 actions in ≤ 1 s).
"""

from __future__ import annotations

import random
import time
from typing import Any, cast

import rules
from rules import poker_dice, yahtzee
from rules.actions import Action
from rules.dice import Choose, RollDice, random_roll
from rules.dice_game import MAX_ROLLS, DiceGame

GAMES = 20


def recorded_game(options: rules.Options) -> list[Action]:
    """The actions of one random game (random holds and rolls, the best box)."""
    state = cast(DiceGame[Any], rules.game_of(options).new_game(options))
    rng = random.Random(options.seed)
    actions: list[Action] = []
    while state.outcome is None:
        act: Action = RollDice(random_roll(rng, None))
        actions.append(act)
        state = state.apply(act)
        while state.rolls_used < MAX_ROLLS and rng.random() < 0.6:
            held = tuple(p for p in range(5) if rng.random() < 0.5)
            act = RollDice(random_roll(rng, state.dice, held), held)
            actions.append(act)
            state = state.apply(act)
        act = Choose(state.best_choice())
        actions.append(act)
        state = state.apply(act)
    return actions


def main() -> None:
    cases = {
        "yahtzee classic, 4 players": yahtzee.YahtzeeOptions(players=4),
        "yahtzee triple, 4 players": yahtzee.YahtzeeOptions(players=4, variant="triple"),
        "poker_dice, 4 players": poker_dice.PokerDiceOptions(players=4),
    }
    for name, options in cases.items():
        spec = rules.game_of(options)
        start = time.perf_counter()
        for seed in range(GAMES):
            spec.auto_play(options.replace(seed=seed))
        per_game = (time.perf_counter() - start) / GAMES
        games = [
            (options.replace(seed=seed), recorded_game(options.replace(seed=seed))) for seed in range(GAMES)
        ]
        count = sum(len(actions) for _, actions in games)
        start = time.perf_counter()
        for opts, actions in games:
            rules.replay(opts, actions)
        rate = count / (time.perf_counter() - start)
        print(f"{name:28s} auto_play {per_game * 1000:7.1f} ms/game   replay {rate:9.0f} actions/s")


if __name__ == "__main__":
    main()
