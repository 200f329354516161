"""Whole games for the journal tests: a seeded Kości game played to the end, as options and actions."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import rules
from device.journal import Journal
from rules.dice import DICE, Choose, RollDice, random_roll
from rules.dice_game import MAX_ROLLS
from rules.poker_dice.game import PokerDiceOptions


def finished_game(seed: int = 1, players: int = 1) -> tuple[PokerDiceOptions, list[rules.Action]]:
    """The options and every action of a random Kości game that ends (its last action ends it)."""
    rng = random.Random(seed)
    options = PokerDiceOptions(players=players, seed=seed)
    state: Any = rules.get_game("poker_dice").new_game(options)
    actions: list[rules.Action] = []

    def play(act: rules.Action) -> None:
        nonlocal state
        state = state.apply(act)
        actions.append(act)

    while state.outcome is None:
        play(RollDice(random_roll(rng, None)))
        while state.rolls_used < MAX_ROLLS and rng.random() < 0.6:
            held = tuple(p for p in range(DICE) if rng.random() < 0.5)
            play(RollDice(random_roll(rng, state.dice, held), held))
        play(Choose(state.best_choice()))
    return options, actions


def store_game(journal: Journal, options: PokerDiceOptions, actions: list[rules.Action]) -> int:
    """Journal a game the way the appliance does: each action appended; the last one finishes it."""
    names = [f"P{i + 1}" for i in range(options.players)]
    gid = journal.start_game("poker_dice", options.to_dict(), names)
    state: Any = rules.get_game("poker_dice").new_game(options)
    for seq, act in enumerate(actions, 1):
        state = state.apply(act)
        outcome = state.outcome
        finish = None if outcome is None else (outcome.scores, outcome.places)
        journal.append(gid, seq, rules.action_to_json(act), seat=0, seconds=1.0, finish=finish)
    return gid


def journal_file(path: Path) -> list[str]:
    """The files of a journal (main file and its side files) that exist, by name."""
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name))
