"""Zatre – the card game in the registry: random legal play (``referee play zatre --auto``) and a
plain-text description of a game."""

from __future__ import annotations

import random

from rules.outcome import seat_label
from rules.registry import GameSpec, GameState, register
from rules.zatre.board import Board
from rules.zatre.moves import legal_placements
from rules.zatre.options import ZatreOptions
from rules.zatre.state import Lay, ZatreState, new_game

__all__ = ["SPEC", "auto_play", "describe", "random_lay"]


def random_lay(state: ZatreState, rng: random.Random) -> Lay:
    """A random legal action for the player on turn. The first turn of a round lays one random card
    at the origin and a second one touching it."""
    assert state.turn is not None, "the game is over"
    if not state.first_turn:
        return Lay((rng.choice(state.legal_placements()),))
    hand = state.hands[state.turn]
    first, second = rng.sample(range(len(hand)), 2)
    opening = rng.choice(legal_placements(Board(), [hand[first]]))
    follow = rng.choice(legal_placements(Board((opening,)), [hand[second]]))
    return Lay((opening, follow))


def auto_play(options: ZatreOptions) -> ZatreState:
    """A whole game of random legal lays, seeded by ``options.seed`` (in referee mode by players who
    hold the real deck: ``rules.zatre.table.referee_auto_play``)."""
    if options.information == "referee":
        from rules.zatre.table import referee_auto_play

        return referee_auto_play(options).state
    rng = random.Random(f"zatre-auto:{options.seed}")
    state = new_game(options)
    while state.turn is not None:
        state = state.apply(random_lay(state, rng))
    return state


def describe(state: GameState) -> str:
    """Every round's table, every sheet and the result."""
    assert isinstance(state, ZatreState)
    lines = [f"Zatre – the card game, {state.options.players} players, seed {state.options.seed}"]
    for number, result in enumerate(state.rounds_played, start=1):
        lines.append(f"\nRound {number}: {len(result.board.placements)} cards laid")
        if result.left_out:
            lines.append("left out (nobody could lay them): " + " ".join(str(c) for c in result.left_out))
        lines.append(result.board.render())
    if state.turn is not None:
        lines.append(f"\nRound {state.round + 1} in play, {seat_label(state.turn)} to lay")
        lines.append(state.board.render())
    for seat, sheet in enumerate(state.sheets):
        lines.append(f"\n{seat_label(seat)} sheet")
        lines.append(sheet.render())
    outcome = state.outcome
    if outcome is not None:
        lines.append("")
        for seat in sorted(range(len(outcome.scores)), key=lambda s: (outcome.places[s], s)):
            lines.append(
                f"place {outcome.places[seat]}: {seat_label(seat)} with {outcome.scores[seat]} points"
            )
    return "\n".join(lines)


SPEC = register(
    GameSpec(
        name="zatre",
        titles={
            "pl": "Zatre – gra karciana",
            "hu": "Zatre – a kártyajáték",
            "de": "Zatre – Das Kartenspiel",
            "en": "Zatre – the card game",
        },
        options_type=ZatreOptions,
        variants={
            "referee": {
                "pl": "Zatre – gra karciana",
                "hu": "Zatre – a kártyajáték",
                "de": "Zatre – Das Kartenspiel",
                "en": "Zatre – the card game",
            },
            "full": {
                "pl": "Zatre – trening solo",
                "hu": "Zatre – gyakorlás",
                "de": "Zatre – Solo-Training",
                "en": "Zatre – solo practice",
            },
        },
        variant_field="information",
        new_game=new_game,  # type: ignore[arg-type]
        auto_play=auto_play,  # type: ignore[arg-type]
        describe=describe,
    )
)
