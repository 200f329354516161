"""The coach's table files: where they live, how they are written and read.

The rules build a table and read it in memory (:mod:`rules.coach.table`); this module is the one
that puts a table on disk and takes it back. The file is a NumPy ``.npz`` archive with the values
and the model's signature (game and options), named after them (:func:`rules.coach.games.table_name`)
in the state directory, next to the journal; a file built for other options is refused.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from rules.coach.advice import Coach
from rules.coach.games import coach_of, model_for, table_name
from rules.coach.model import DiceModel
from rules.coach.table import Table, TableError
from rules.options import Options

__all__ = ["load_coach", "load_table", "save_table", "table_path"]


def table_path(directory: str | os.PathLike[str], model: DiceModel) -> Path:
    """``<directory>/coach-<game>-<options>.npz``."""
    return Path(directory) / table_name(model)


def save_table(table: Table, path: str | os.PathLike[str]) -> Path:
    """Write the table (atomically: a temporary file renamed over ``path``)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    with partial.open("wb") as out:
        np.savez(out, values=table.values, signature=np.array(json.dumps(table.signature)))
    os.replace(partial, target)
    return target


def load_table(model: DiceModel, path: str | os.PathLike[str]) -> Table:
    """The table in ``path``; :class:`TableError` if it is missing, damaged or for other rules."""
    source = Path(path)
    if not source.exists():
        raise TableError(f"no coach table at {source}: build it with `referee coach build`")
    try:
        with np.load(source, allow_pickle=False) as archive:
            values = np.array(archive["values"])
            signature = json.loads(str(archive["signature"]))
    except (OSError, ValueError, KeyError) as error:
        raise TableError(f"{source} is not a coach table: {error}") from error
    if not isinstance(signature, dict):
        raise TableError(f"{source} is not a coach table: its signature is {signature!r}")
    return Table.stored(model, values, signature, str(source))


def load_coach(options: Options, directory: str | os.PathLike[str]) -> Coach:
    """The coach of a game with these options from its table in ``directory``
    (:class:`~rules.coach.table.TableError` if the table has not been built)."""
    model = model_for(options)
    return coach_of(options, load_table(model, table_path(directory, model)))
