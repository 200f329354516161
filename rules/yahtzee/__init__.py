"""Generał (Yahtzee) and triple Generał — RULES.md §1 and the conformance API.

>>> from rules import yahtzee
>>> yahtzee.score("full_house", (2, 2, 3, 3, 3))
25
>>> s = yahtzee.new_sheet(variant="classic").fill("yahtzee", (5, 5, 5, 5, 5))
>>> s.total(), s.options((5, 5, 5, 5, 5))
(50, {'fives': 25})
"""

from rules.registry import register
from rules.yahtzee.game import SPEC, YahtzeeGame, YahtzeeOptions, auto_play, describe, new_game, new_sheet
from rules.yahtzee.scoring import BOXES, LOWER, UPPER, joker_score, score
from rules.yahtzee.sheet import ClassicSheet
from rules.yahtzee.triple import FACTORS, TRIPLE_BOXES, TripleSheet

__all__ = [
    "BOXES",
    "FACTORS",
    "LOWER",
    "SPEC",
    "TRIPLE_BOXES",
    "UPPER",
    "ClassicSheet",
    "TripleSheet",
    "YahtzeeGame",
    "YahtzeeOptions",
    "auto_play",
    "describe",
    "joker_score",
    "new_game",
    "new_sheet",
    "score",
]

register(SPEC)
