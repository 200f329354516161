"""Rummikub as the registry and the CLI see it: titles, a seeded random legal game, a text view."""

from __future__ import annotations

import random

from rules.actions import Action
from rules.outcome import seat_label
from rules.registry import GameSpec, GameState, register
from rules.rummikub.actions import Announce, Draw, Open, Play, Redeal, Timeout
from rules.rummikub.best_move import best_move
from rules.rummikub.opening import OPENING_MINIMUM, best_opening
from rules.rummikub.options import RummikubOptions
from rules.rummikub.state import REDEAL_PAIRS, RummikubState, identical_pairs, new_game
from rules.rummikub.tiles import tiles_text

__all__ = ["SPEC", "auto_play", "describe", "random_action", "random_game"]

# How often the random player lets the timer run out, so that auto-played games use every action.
_TIMEOUT_CHANCE = 0.05


def random_action(state: RummikubState, rng: random.Random) -> Open | Play | Draw | Timeout:
    """A legal move for the player to move (full information): the best opening or the best play
    found by the solvers, or a draw; now and then a timeout instead."""
    assert state.racks is not None and state.turn is not None
    seat = state.turn
    rack = state.racks[seat]
    if rng.random() < _TIMEOUT_CHANCE:
        return Timeout(manipulated=rng.random() < 0.5)
    if not state.opened[seat]:
        value, melds = best_opening(rack)
        return Open(tuple(melds)) if value >= OPENING_MINIMUM else Draw()
    move = best_move(state.table, rack)
    return Draw() if move is None else Play(move.table)


def random_game(options: RummikubOptions) -> tuple[RummikubState, list[Action]]:
    """A whole game of random legal moves (full information), seeded by ``options.seed``: the final
    state and the actions that led to it."""
    if options.information != "full":
        options = options.replace(information="full")
    rng = random.Random(f"rummikub-auto:{options.seed}")
    state = new_game(options)
    actions: list[Action] = []

    def play(act: Action) -> None:
        nonlocal state
        state = state.apply(act)
        actions.append(act)

    assert state.racks is not None
    for seat, rack in enumerate(state.racks):
        if options.redeal_on_pairs and identical_pairs(rack) >= REDEAL_PAIRS:
            play(Redeal(seat))
            break
    while state.outcome is None:
        assert state.racks is not None and state.turn is not None
        seat = state.turn
        play(random_action(state, rng))
        # A player who just drew the tile he needed announces, now and then, that he will open.
        if state.outcome is None and not state.opened[seat] and rng.random() < 0.5:
            assert state.racks is not None
            if best_opening(state.racks[seat])[0] >= OPENING_MINIMUM:
                play(Announce(seat))
    return state, actions


def auto_play(options: RummikubOptions) -> RummikubState:
    """A whole game of random legal moves, seeded by ``options.seed``; the final state."""
    return random_game(options)[0]


def describe(game: GameState) -> str:
    """The table, the racks (or their counts), the pool and, at the end, the scores."""
    assert isinstance(game, RummikubState)
    lines = [f"Rummikub, {game.players} players, deal {game.deals}, {game.turns_taken} turns"]
    lines.append(f"table ({sum(len(m) for m in game.table)} tiles, {len(game.table)} melds):")
    lines.extend(f"  {meld}   [{meld.value}]" for meld in game.table)
    racks = game.final_racks or game.racks
    for seat in range(game.players):
        opened = "has laid the initial meld" if game.opened[seat] else "has not laid the initial meld"
        held = tiles_text(racks[seat]) if racks is not None else f"{game.rack_counts[seat]} tiles"
        lines.append(f"{seat_label(seat)} ({opened}): rack {held or '-'}")
    lines.append(f"pool: {game.pool_count} tiles")
    if game.outcome is not None:
        lines.append(f"end: {game.outcome.termination.value}")
        for seat, (score, place) in enumerate(zip(game.outcome.scores, game.outcome.places, strict=True)):
            lines.append(f"  {seat_label(seat)}: {score:+d} (place {place})")
    return "\n".join(lines)


def _new_game(options: object) -> RummikubState:
    assert isinstance(options, RummikubOptions)
    return new_game(options)


def _auto_play(options: object) -> RummikubState:
    assert isinstance(options, RummikubOptions)
    return auto_play(options)


SPEC = register(
    GameSpec(
        name="rummikub",
        titles={"pl": "Rummikub", "hu": "Rummikub", "de": "Rummikub", "en": "Rummikub"},
        options_type=RummikubOptions,
        new_game=_new_game,
        auto_play=_auto_play,
        describe=describe,
    )
)
