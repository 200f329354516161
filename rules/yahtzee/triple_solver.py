"""Triple Generał for the coach: a heuristic, not an optimum (RULES.md §1, triple variant).

The triple sheet has 2^39 box sets, far too many to solve. The coach plays each turn exactly — the
roll/hold widget over all 252 rolls — towards a *heuristic* value of the sheet after the move: the
points the move earns now (the engine's rules: column factor, upper bonus, triple joker and Yahtzee
bonus) plus, for every column, its factor times the exact one-column optimum of that column's
state (:class:`~rules.yahtzee.solver.GeneralModel` without joker and bonus: in the triple game both
are rare, paid only once all three ``yahtzee`` boxes are filled). It ignores that the three columns
share the 39 turns, which is why it is a heuristic; the coach says so.

A greedy player (the same turn play, the value of the sheet after the move taken as 0: the most
points this turn) is the baseline; ``bench/coach.py`` measures both over 10,000 games.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.coach.dice_sets import COUNTS, ROLLS, SUBKEEPS
from rules.coach.simulate import random_rolls
from rules.coach.table import Table
from rules.coach.widget import Turn, solve_turns
from rules.dice_game import Sheet
from rules.yahtzee.scoring import BOXES, UPPER, UPPER_BONUS, YAHTZEE_BONUS
from rules.yahtzee.solver import CAP, FIVES, JOKERS, SCORES, GeneralModel
from rules.yahtzee.triple import FACTORS, TRIPLE_BOXES, TripleSheet

__all__ = ["COLUMN_MODEL", "TripleCoach", "TripleStates", "play", "play_turns"]

#: the one-column model whose table the heuristic reads
COLUMN_MODEL = GeneralModel(joker="none", yahtzee_bonus=False)

_YAHTZEE = BOXES.index("yahtzee")
_LOWER = np.arange(len(UPPER), len(BOXES))
_FACTORS = np.array(FACTORS)


@dataclass
class TripleStates:
    """Many triple sheets as arrays, ``(n, 3)`` each: filled boxes, raw upper total (capped at 63),
    whether the column's ``yahtzee`` box holds a non-zero score."""

    mask: np.ndarray
    upper: np.ndarray
    yahtzee: np.ndarray

    @classmethod
    def of(cls, sheets: list[TripleSheet]) -> TripleStates:
        mask = [
            [sum(1 << i for i, v in enumerate(col) if v is not None) for col in s.columns] for s in sheets
        ]
        upper = [
            [min(CAP, sum(v for v in col[: len(UPPER)] if v is not None)) for col in s.columns]
            for s in sheets
        ]
        yahtzee = [[bool(col[_YAHTZEE]) for col in s.columns] for s in sheets]
        return cls(np.array(mask, dtype=np.int64), np.array(upper, dtype=np.int64), np.array(yahtzee))

    def copy(self) -> TripleStates:
        return TripleStates(self.mask.copy(), self.upper.copy(), self.yahtzee.copy())


def move_points(states: TripleStates) -> np.ndarray:
    """``(39, 252, n)``: the points each move earns now (``-inf`` for a filled box)."""
    n = len(states.mask)
    filled_everywhere = np.bitwise_and.reduce(states.mask, axis=1)  # (n,)
    all_yahtzee_filled = (filled_everywhere >> _YAHTZEE) & 1 == 1
    bonus_paid = states.yahtzee.all(axis=1)
    out = np.empty((len(TRIPLE_BOXES), len(ROLLS), n))
    for c, factor in enumerate(FACTORS):
        mask, upper = states.mask[:, c], states.upper[:, c]
        for b in range(len(BOXES)):
            raw = np.broadcast_to(SCORES[b][:, None], (len(ROLLS), n)).astype(float)
            if b >= len(UPPER):
                # a five-of-a-kind is a joker (full value in a lower box) once every yahtzee box and the
                # matching upper box of every column are filled
                for face, r in enumerate(FIVES):
                    joker = all_yahtzee_filled & ((filled_everywhere >> face) & 1 == 1)
                    raw[r] = np.where(joker, JOKERS[b, face], raw[r])
                points = raw
            else:
                raised = upper[None, :] + raw
                points = raw + np.where((upper[None, :] < CAP) & (raised >= CAP), UPPER_BONUS, 0)
            points = factor * points
            points[FIVES] += np.where(bonus_paid, YAHTZEE_BONUS * factor, 0)[None, :]
            points[:, (mask >> b) & 1 == 1] = -np.inf
            out[c * len(BOXES) + b] = points
    return out


def move_futures(states: TripleStates, column_values: np.ndarray | None) -> np.ndarray:
    """``(39, 252, n)``: the heuristic value of the sheet after each move (0 for the greedy player)."""
    n = len(states.mask)
    out = np.zeros((len(TRIPLE_BOXES), len(ROLLS), n))
    if column_values is None:
        return out
    now = np.stack([column_values[states.mask[:, c], states.upper[:, c], 0] for c in range(3)], axis=1)
    weighted = now @ _FACTORS  # (n,)
    for c, factor in enumerate(FACTORS):
        mask, upper = states.mask[:, c], states.upper[:, c]
        others = weighted - factor * now[:, c]
        for b in range(len(BOXES)):
            bit = mask | (1 << b)
            if b < len(UPPER):
                by_count = column_values[
                    bit[None, :], np.minimum(CAP, upper[None, :] + (b + 1) * np.arange(6)[:, None]), 0
                ]
                after = by_count[COUNTS[:, b]]
            else:
                after = np.broadcast_to(column_values[bit, upper, 0][None, :], (len(ROLLS), n))
            out[c * len(BOXES) + b] = others[None, :] + factor * after
    return out


def _apply(states: TripleStates, boxes: np.ndarray, rolls: np.ndarray) -> None:
    """Enter each game's roll in its box (in place)."""
    rows = np.arange(len(boxes))
    c, b = boxes // len(BOXES), boxes % len(BOXES)
    raw = SCORES[b, rolls]
    states.mask[rows, c] |= 1 << b
    states.upper[rows, c] = np.where(
        b < len(UPPER), np.minimum(CAP, states.upper[rows, c] + raw), states.upper[rows, c]
    )
    states.yahtzee[rows, c] |= (b == _YAHTZEE) & (raw > 0)


def play(column_values: np.ndarray | None, games: int, seed: int = 0, batch: int = 1000) -> np.ndarray:
    """Final totals of ``games`` triple games from the empty sheet: the heuristic with the
    one-column ``column_values``, or the greedy player with ``None``."""
    return play_turns(column_values, games, seed, batch).sum(axis=1)


def play_turns(column_values: np.ndarray | None, games: int, seed: int = 0, batch: int = 1000) -> np.ndarray:
    """``(games, 39)``: the points of each turn of the games of :func:`play`."""
    rng = np.random.default_rng(seed)
    totals = []
    for start in range(0, games, batch):
        n = min(batch, games - start)
        states = TripleStates.of([TripleSheet()] * n)
        earned = np.zeros((n, len(TRIPLE_BOXES)))
        columns = np.arange(n)
        for t in range(len(TRIPLE_BOXES)):
            points = move_points(states)
            values = points + move_futures(states, column_values)
            turn = solve_turns(values.max(axis=0))
            roll = random_rolls(rng, np.zeros(n, dtype=np.int64))
            for rolls_left in (2, 1):
                inside = SUBKEEPS[roll]
                keep_values = turn.keeps(rolls_left)[inside, columns[:, None]]
                roll = random_rolls(rng, inside[columns, keep_values.argmax(axis=1)])
            box = values[:, roll, columns].argmax(axis=0)
            earned[:, t] = points[box, roll, columns]
            _apply(states, box, roll)
        totals.append(earned)
    return np.concatenate(totals)


@dataclass(frozen=True)
class TripleCoach:
    """Advice for the triple sheet from the one-column table (a heuristic: ``exact`` is False)."""

    column_table: Table

    exact = False

    def __post_init__(self) -> None:
        if dict(self.column_table.model.signature) != dict(COLUMN_MODEL.signature):
            raise ValueError(f"the triple coach reads the table {dict(COLUMN_MODEL.signature)}")

    @property
    def box_names(self) -> tuple[str, ...]:
        return TRIPLE_BOXES

    def _states(self, sheet: Sheet) -> TripleStates:
        if not isinstance(sheet, TripleSheet):
            raise ValueError(f"the triple coach needs a triple sheet, got {type(sheet).__name__}")
        return TripleStates.of([sheet])

    def box_values(self, sheet: Sheet) -> np.ndarray:
        states = self._states(sheet)
        values = self.column_table.values
        return (move_points(states) + move_futures(states, values))[:, :, 0]

    def turn(self, sheet: Sheet) -> Turn:
        return solve_turns(self.box_values(sheet).max(axis=0)[:, None])

    def expected_final(self, sheet: Sheet) -> float:
        """The heuristic's estimate: the total so far plus each column's one-column optimum × factor."""
        states = self._states(sheet)
        values = self.column_table.values
        future = sum(f * values[states.mask[0, c], states.upper[0, c], 0] for c, f in enumerate(FACTORS))
        return sheet.total() + float(future)
