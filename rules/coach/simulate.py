"""Games played by the coach's optimal policy, many at once: the mean, spread and chances.

Every game of a batch plays the same number of turns (the open boxes of the starting sheet). A turn
is solved for the whole batch (:func:`rules.coach.widget.solve_turns`), the dice are rolled with a
seeded NumPy generator, each game keeps the best keep inside its roll, and the final roll goes in the
best box (``model.step`` scores it). The final totals are the start's total plus the points earned.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rules.coach.dice_sets import COUNTS, KEEP_COUNTS, ROLLS, SUBKEEPS
from rules.coach.table import Table
from rules.coach.widget import solve_turns
from rules.dice_game import Sheet

__all__ = ["Distribution", "distribution", "play_optimally", "random_rolls"]

BATCH = 2000

#: roll index of a count vector ``c`` (faces 1–6) at ``sum(c[f] * 6**f)``
_BY_COUNTS = np.full(6**6, -1, dtype=np.int64)
_BY_COUNTS[COUNTS @ (6 ** np.arange(6))] = np.arange(len(ROLLS))
_POWERS = 6 ** np.arange(6)


def random_rolls(rng: np.random.Generator, keeps: np.ndarray) -> np.ndarray:
    """For each keep index, the roll after rolling the dice not kept (a roll index)."""
    fresh = rng.integers(0, 6, size=(len(keeps), 5))
    rolled = np.arange(5)[None, :] < (5 - KEEP_COUNTS[keeps].sum(axis=1))[:, None]
    counts = KEEP_COUNTS[keeps] + np.stack([((fresh == f) & rolled).sum(axis=1) for f in range(6)], axis=1)
    return _BY_COUNTS[counts @ _POWERS]


def play_optimally(table: Table, states: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``(n, turns)``: the points each game earns in each turn from turn-start ``states`` (n, d) to
    the full sheet."""
    model, values = table.model, table.values
    states = states.copy()
    columns = np.arange(len(states))
    turns = len(model.boxes) - int(states[0, 0]).bit_count()
    earned = np.zeros((len(states), turns))
    for t in range(turns):
        moves = model.box_values(states, values)
        final = moves.max(axis=0)
        turn = solve_turns(final)
        roll = random_rolls(rng, np.zeros(len(states), dtype=np.int64))
        for rolls_left in (2, 1):
            inside = SUBKEEPS[roll]  # (n, 32)
            keep_values = turn.keeps(rolls_left)[inside, columns[:, None]]
            roll = random_rolls(rng, inside[columns, keep_values.argmax(axis=1)])
        box = moves[:, roll, columns].argmax(axis=0)
        points, states = model.step(states, box, roll)
        earned[:, t] = points
    return earned


@dataclass(frozen=True)
class Distribution:
    """Final totals of simulated optimal games from one position."""

    totals: np.ndarray

    @property
    def games(self) -> int:
        return len(self.totals)

    @property
    def mean(self) -> float:
        return float(self.totals.mean())

    @property
    def spread(self) -> float:
        """The standard deviation of the final total."""
        return float(self.totals.std(ddof=1)) if self.games > 1 else 0.0

    @property
    def standard_error(self) -> float:
        return self.spread / math.sqrt(self.games) if self.games > 1 else 0.0

    def chance_above(self, target: float) -> float:
        """The share of games whose final total beats ``target`` (strictly more)."""
        return float((self.totals > target).mean())

    def percentile(self, q: float) -> float:
        return float(np.percentile(self.totals, q))


def distribution(
    table: Table,
    sheet: Sheet,
    games: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Distribution:
    """``games`` optimal games from ``sheet`` (at the start of a turn), in batches."""
    if games < 1:
        raise ValueError(f"simulate at least one game, not {games}")
    rng = np.random.default_rng(seed)
    state = np.array([table.model.state_of(sheet)], dtype=np.int64)
    totals = []
    done = 0
    while done < games:
        n = min(BATCH, games - done)
        totals.append(sheet.total() + play_optimally(table, np.repeat(state, n, axis=0), rng).sum(axis=1))
        done += n
        if progress is not None:
            progress(done, games)
    return Distribution(np.concatenate(totals))
