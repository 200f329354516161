"""Zatre – the card game (Amigo, 2007): RULES.md §5.

One module per concern: ``cards`` (the card ``3|4``), ``deck`` (the 50 cards, validated), ``board`` (grid,
placements ``3|4@0,0H``, rows, the scoring of a placement), ``sheet`` (the score sheet), ``moves`` (the
legal-placement generator), ``options``, ``state`` (rounds and turns, full-information and referee
mode), ``table`` (the physical deck at a refereed table) and ``game`` (the registry entry).

The conformance API:

>>> from rules import zatre
>>> board, scoring = zatre.place(zatre.Board(), "5|6@0,0H")
>>> scoring.rows, scoring.points, scoring.super_bonus
((11,), (3,), 0)
>>> zatre.place(board, "1|1@5,5H")
Traceback (most recent call last):
...
rules.errors.IllegalAction: 1|1@5,5H does not touch a laid card edge to edge [not_touching]
"""

from rules.zatre.board import Board, Line, Placement, Scoring, place, place_cards
from rules.zatre.cards import Card, parse_cards
from rules.zatre.deck import DECK_SIZE, DeckError, deck_counts, deck_from_counts, default_deck
from rules.zatre.game import SPEC, auto_play, describe, random_lay
from rules.zatre.moves import can_lay, legal_placements
from rules.zatre.options import ZatreOptions
from rules.zatre.sheet import DEFAULT_ROW_BONUS, Sheet
from rules.zatre.state import Event, Lay, Pass, RoundResult, Show, ZatreState, new_game

__all__ = [
    "DECK_SIZE",
    "DEFAULT_ROW_BONUS",
    "SPEC",
    "Board",
    "Card",
    "DeckError",
    "Event",
    "Lay",
    "Line",
    "Pass",
    "Placement",
    "RoundResult",
    "Scoring",
    "Sheet",
    "Show",
    "ZatreOptions",
    "ZatreState",
    "auto_play",
    "can_lay",
    "deck_counts",
    "deck_from_counts",
    "default_deck",
    "describe",
    "legal_placements",
    "new_game",
    "parse_cards",
    "place",
    "place_cards",
    "random_lay",
]
