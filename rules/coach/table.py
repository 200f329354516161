"""The coach's value table: built once by dynamic programming, then read.

``build(model)`` fills ``values[state]`` = the expected points still to come from that turn-start
state under optimal play, level by level from the full sheet (0 points to come) back to the empty
sheet. A level's states are solved in batches: their box values (``model.box_values``) give each
roll's best box, and :func:`rules.coach.widget.turn_values` the roll/hold play before it.

A table is kept as its values and the model's signature (game and options): :meth:`Table.stored`
takes them back, refusing values built for other options. Files are the device's business
(``device/coach_tables.py`` writes and reads them); the rules do no file I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from rules.coach.model import DiceModel
from rules.coach.widget import Turn, solve_turns, turn_values
from rules.dice_game import Sheet

__all__ = ["BATCH", "Table", "TableError", "build"]

#: states solved per numpy batch (memory ~ BATCH × boxes × 252 × 8 bytes)
BATCH = 2048

Progress = Callable[[int, int], None]


class TableError(ValueError):
    """A table that is missing, damaged or built for other rules (its file or its kept values)."""


def build(model: DiceModel, progress: Progress | None = None, down_to: int = 0) -> Table:
    """The value table of ``model``; ``progress(done, total)`` is called after every batch.

    ``down_to`` > 0 solves only the states with at least that many boxes filled (the end game, for
    tests and for positions late in a game); the others stay 0.
    """
    values = np.zeros(model.shape)
    levels = [model.level_states(filled) for filled in range(len(model.boxes) - 1, down_to - 1, -1)]
    total = sum(len(states) for states in levels)
    done = 0
    for states in levels:
        for start in range(0, len(states), BATCH):
            batch = states[start : start + BATCH]
            final = model.box_values(batch, values).max(axis=0)
            values[tuple(batch.T)] = turn_values(final)
            done += len(batch)
            if progress is not None:
                progress(done, total)
    return Table(model, values)


@dataclass(frozen=True)
class Table:
    """A model and its values (expected points still to come from each turn-start state)."""

    model: DiceModel
    values: np.ndarray

    exact = True

    @property
    def box_names(self) -> tuple[str, ...]:
        return self.model.boxes

    @property
    def start_value(self) -> float:
        """The expected final score of optimal play from the empty sheet."""
        return float(self.values.reshape(-1)[0]) if self.values.ndim else float(self.values)

    def future(self, sheet: Sheet) -> float:
        """The expected points still to come from ``sheet`` at the start of a turn."""
        return float(self.values[self.model.state_of(sheet)])

    def expected_final(self, sheet: Sheet) -> float:
        """The expected final total from ``sheet`` at the start of a turn, playing optimally."""
        return sheet.total() + self.future(sheet)

    def turn(self, sheet: Sheet) -> Turn:
        """Every stage of the current turn solved for ``sheet`` (values are points still to come)."""
        return solve_turns(self.box_values(sheet).max(axis=0)[:, None])

    def box_values(self, sheet: Sheet) -> np.ndarray:
        """``(boxes, 252)``: points to come after entering each roll in each box (``-inf`` refused)."""
        state = np.array([self.model.state_of(sheet)], dtype=np.int64)
        return self.model.box_values(state, self.values)[:, :, 0]

    @property
    def signature(self) -> dict[str, object]:
        """The model's game and options, kept beside the values."""
        return dict(self.model.signature)

    @classmethod
    def stored(
        cls, model: DiceModel, values: np.ndarray, signature: Mapping[str, object], source: str
    ) -> Table:
        """``model``'s table from kept values and signature; :class:`TableError` (naming ``source``) if
        they were built for other rules or have the wrong shape."""
        if dict(signature) != dict(model.signature):
            raise TableError(f"{source} was built for {dict(signature)}, not for {dict(model.signature)}")
        if values.shape != model.shape:
            raise TableError(f"{source} holds a table of shape {values.shape}, expected {model.shape}")
        return cls(model, values)
