"""Which coach serves which game and options, and the name of its table.

=====================  ===========================================  ============================
game (CLI name)        table (model)                                advice
=====================  ===========================================  ============================
``yahtzee``            :class:`~rules.yahtzee.solver.GeneralModel`  exact
``yahtzee-triple``     the one-column table without joker and bonus heuristic (``TripleCoach``)
``poker_dice``         :class:`~rules.poker_dice.solver.KosciModel` exact
=====================  ===========================================  ============================

A table's name says its game and options (``coach-yahtzee-forced.npz``); the device keeps the files
in its state directory, next to the journal (``device/coach_tables.py``).
"""

from __future__ import annotations

from rules.coach.advice import Coach
from rules.coach.model import DiceModel
from rules.coach.table import Table
from rules.options import Options
from rules.poker_dice.game import PokerDiceOptions
from rules.poker_dice.solver import KosciModel
from rules.yahtzee.game import YahtzeeOptions
from rules.yahtzee.solver import GeneralModel
from rules.yahtzee.triple_solver import COLUMN_MODEL, TripleCoach

__all__ = ["GAMES", "coach_game", "coach_of", "model_for", "table_name"]

GAMES = ("yahtzee", "yahtzee-triple", "poker_dice")


def coach_game(options: Options) -> str:
    """The coach's name for a game's options: ``yahtzee``, ``yahtzee-triple`` or ``poker_dice``."""
    if isinstance(options, YahtzeeOptions):
        return "yahtzee-triple" if options.variant == "triple" else "yahtzee"
    if isinstance(options, PokerDiceOptions):
        return "poker_dice"
    raise ValueError(f"the coach knows the dice games only, not {type(options).__name__}")


def model_for(options: Options) -> DiceModel:
    """The model whose table the coach of a game with these options reads."""
    game = coach_game(options)
    if isinstance(options, YahtzeeOptions):
        return COLUMN_MODEL if game == "yahtzee-triple" else GeneralModel(joker=options.joker)
    assert isinstance(options, PokerDiceOptions)
    return KosciModel(options.allow_voluntary_zero, options.penalty_per_zero)


def table_name(model: DiceModel) -> str:
    """``coach-<game>-<options>.npz``."""
    signature = dict(model.signature)
    parts = [str(signature.pop("game"))]
    for key, value in signature.items():
        if isinstance(value, bool):
            parts.append(key.replace("_", "-") if value else "no-" + key.replace("_", "-"))
        elif key != "variant":
            parts.append(str(value))
    return "coach-" + "-".join(parts) + ".npz"


def coach_of(options: Options, table: Table) -> Coach:
    """The coach of a game with these options, reading ``table`` (the model of :func:`model_for`)."""
    return TripleCoach(table) if coach_game(options) == "yahtzee-triple" else table
