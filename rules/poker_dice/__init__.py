"""Kości — Polish poker dice — RULES.md §2 and the conformance API.

>>> from rules import poker_dice
>>> poker_dice.score("two_pairs", (2, 2, 1, 1, 1))
7
>>> s = poker_dice.new_sheet().fill("full_house", (5, 5, 5, 3, 3))
>>> s.get("full_house"), s.total()
(31, 31)
"""

from rules.poker_dice.game import (
    SPEC,
    PokerDiceGame,
    PokerDiceOptions,
    auto_play,
    describe,
    draw_first_player,
    new_game,
    new_sheet,
)
from rules.poker_dice.scoring import BOXES, LARGE_FIGURES, SMALL_FIGURES, score
from rules.poker_dice.sheet import SECTIONS, PokerDiceSheet, Section
from rules.registry import register

__all__ = [
    "BOXES",
    "LARGE_FIGURES",
    "SECTIONS",
    "SMALL_FIGURES",
    "SPEC",
    "PokerDiceGame",
    "PokerDiceOptions",
    "PokerDiceSheet",
    "Section",
    "auto_play",
    "describe",
    "draw_first_player",
    "new_game",
    "new_sheet",
    "score",
]

register(SPEC)
