"""The actions of a Kalooki turn: draw, lay down, build, release a joker, discard; and, in referee
mode, the turned-up card of a deal and the hands revealed at its end (or just their penalty points).

Cards are given by their text form in JSON (``"10H"``, ``"JOKER"``); melds as lists of cards in
table order; a run is built on with the added cards low to high.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.actions import Action, action
from rules.kalooki.cards import Card

__all__ = [
    "Build",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "HandPoints",
    "KalookiAction",
    "LayDown",
    "ReleaseJoker",
    "RevealHand",
    "TurnUp",
]


@action("kalooki.draw_stock")
@dataclass(frozen=True)
class DrawStock(Action):
    """Draw the top card of the stock (unseen in referee mode)."""


@action("kalooki.draw_discard")
@dataclass(frozen=True)
class DrawDiscard(Action):
    """Take the top card of the discard pile."""


@action("kalooki.lay_down")
@dataclass(frozen=True)
class LayDown(Action):
    """Lay new melds from the hand; a player's first lay-down is his initial meld."""

    melds: tuple[tuple[Card, ...], ...]


@action("kalooki.build")
@dataclass(frozen=True)
class Build(Action):
    """Add hand cards to table meld number ``meld``: into a set, or at the ``end`` of a run (low to high)."""

    meld: int
    cards: tuple[Card, ...]
    end: Literal["low", "high"] = "high"


@action("kalooki.release_joker")
@dataclass(frozen=True)
class ReleaseJoker(Action):
    """Free a joker of table meld ``meld`` with ``cards`` from the hand; the joker goes to the hand and
    must be laid again this turn."""

    meld: int
    cards: tuple[Card, ...]


@action("kalooki.discard")
@dataclass(frozen=True)
class Discard(Action):
    """End the turn by discarding ``card``; discarding the last card goes out."""

    card: Card


@action("kalooki.turn_up")
@dataclass(frozen=True)
class TurnUp(Action):
    """Referee mode: the card turned up to start the discard pile of a deal."""

    card: Card


@action("kalooki.reveal_hand")
@dataclass(frozen=True)
class RevealHand(Action):
    """Referee mode: the cards left in ``seat``'s hand at the end of a deal."""

    seat: int
    cards: tuple[Card, ...]


@action("kalooki.hand_points")
@dataclass(frozen=True)
class HandPoints(Action):
    """Referee mode: instead of his cards, the penalty ``points`` of the hand ``seat`` is left with at
    the end of a deal, as he counted them (the cards' values: the +25 after a Kalooki is added by the
    rules)."""

    seat: int
    points: int


KalookiAction = (
    DrawStock | DrawDiscard | LayDown | Build | ReleaseJoker | Discard | TurnUp | RevealHand | HandPoints
)
