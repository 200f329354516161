"""Which coach serves which game and options, and where its table file lives.

=====================  ===========================================  ============================
game (CLI name)        table (model)                                advice
=====================  ===========================================  ============================
``yahtzee``            :class:`~rules.yahtzee.solver.GeneralModel`  exact
``yahtzee-triple``     the one-column table without joker and bonus heuristic (``TripleCoach``)
``poker_dice``         :class:`~rules.poker_dice.solver.KosciModel` exact
=====================  ===========================================  ============================

A table's file name says its game and options (``coach-yahtzee-forced.npz``); the device keeps them
in its state directory, next to the journal.
"""

from __future__ import annotations

from pathlib import Path

from rules.coach.advice import Coach
from rules.coach.model import DiceModel
from rules.coach.table import Progress, Table, build
from rules.options import Options
from rules.poker_dice.game import PokerDiceOptions
from rules.poker_dice.solver import KosciModel
from rules.yahtzee.game import YahtzeeOptions
from rules.yahtzee.solver import GeneralModel
from rules.yahtzee.triple_solver import COLUMN_MODEL, TripleCoach

__all__ = ["GAMES", "build_table", "coach_game", "load_coach", "model_for", "table_path"]

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


def table_path(directory: str | Path, model: DiceModel) -> Path:
    """``<directory>/coach-<game>-<options>.npz``."""
    signature = dict(model.signature)
    parts = [str(signature.pop("game"))]
    for key, value in signature.items():
        if isinstance(value, bool):
            parts.append(key.replace("_", "-") if value else "no-" + key.replace("_", "-"))
        elif key != "variant":
            parts.append(str(value))
    return Path(directory) / ("coach-" + "-".join(parts) + ".npz")


def build_table(model: DiceModel, path: str | Path, progress: Progress | None = None) -> Table:
    """Build ``model``'s table and save it at ``path``."""
    table = build(model, progress)
    table.save(path)
    return table


def load_coach(options: Options, directory: str | Path) -> Coach:
    """The coach of a game with these options from its table in ``directory``
    (:class:`~rules.coach.table.TableError` if the table has not been built)."""
    model = model_for(options)
    table = Table.load(model, table_path(directory, model))
    return TripleCoach(table) if coach_game(options) == "yahtzee-triple" else table
