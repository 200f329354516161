"""One turn of a dice game, solved for many turn-start states at once (the roll/hold "widget").

A turn is: roll five dice, keep some, roll the rest, keep some, roll the rest, enter the dice in a
box. Given ``final[r, s]`` — for each roll ``r`` and state ``s`` the value of entering the roll in its
best box (the box's points plus the value of the state it leads to) — the best play works backwards:

- ``keep1[k, s]`` = expected ``final`` after keeping ``k`` and rolling once more (:func:`reroll`);
- ``roll1[r, s]`` = the best keep inside ``r`` with one roll left (holding all five = standing pat);
- ``keep2``, ``roll2`` the same one roll earlier, and the state's value = ``FIRST_ROLL @ roll2``.

States run along the last axis, so that every step is a matrix product or a gather of whole
contiguous rows: a level of a game's states costs a few numpy calls per batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.coach.dice_sets import DROP_ONE, FIRST_ROLL, KEEP_SIZE, REROLL, ROLL_AS_KEEP

__all__ = ["Turn", "best_inside", "reroll", "solve_turns", "turn_values"]


def _reroll_terms() -> list[tuple[int, int, list[tuple[float, np.ndarray]]]]:
    """For the keeps of each size (a contiguous run of KEEPS): the chance of each outcome of the
    fresh dice and, per keep, the roll it completes. Sparse: 4,368 terms instead of 462 × 252."""
    terms = []
    for size in range(6):
        ids = np.flatnonzero(np.equal(KEEP_SIZE, size))
        block = REROLL[ids]
        order = [np.flatnonzero(row) for row in block]  # the rolls each keep can become, in order
        chances = block[0, order[0]]
        columns = [(float(chances[o]), np.array([row[o] for row in order])) for o in range(len(chances))]
        terms.append((int(ids[0]), int(ids[-1]) + 1, columns))
    return terms


_REROLL_TERMS = _reroll_terms()
_DENSE_UP_TO = 16


def reroll(roll_values: np.ndarray) -> np.ndarray:
    """``(252, n)`` roll values -> ``(462, n)``: the expected value after each keep and a roll of
    the other dice (``REROLL @ roll_values``). A few states take the dense product (one call)."""
    if roll_values.shape[1] <= _DENSE_UP_TO:
        return np.asarray(REROLL @ roll_values)
    out = np.empty((len(KEEP_SIZE), roll_values.shape[1]))
    for lo, hi, columns in _REROLL_TERMS:
        segment = out[lo:hi]
        segment[:] = 0.0
        for chance, rolls in columns:
            segment += chance * roll_values[rolls]
    return out


#: ``DROP_ONE`` as slices of the keeps of one size and the columns of their smaller keeps
_LEVELS = [
    (int(ids[0]), int(ids[-1]) + 1, [smaller[:, c] for c in range(smaller.shape[1])])
    for ids, smaller in DROP_ONE
]


def best_inside(keep_values: np.ndarray) -> np.ndarray:
    """``(462, n)`` keep values -> ``(252, n)``: for each roll, the value of its best keep."""
    best = keep_values.copy()
    for lo, hi, columns in _LEVELS:
        segment = best[lo:hi]
        for smaller in columns:
            np.maximum(segment, best[smaller], out=segment)
    return best[ROLL_AS_KEEP]


@dataclass(frozen=True)
class Turn:
    """A turn solved for a batch of states: each array has one column per state."""

    final: np.ndarray  # (252, n): after the last roll, the best box
    keep1: np.ndarray  # (462, n): a keep when one roll is left
    roll1: np.ndarray  # (252, n): a roll when one more roll is allowed
    keep2: np.ndarray  # (462, n): a keep when two rolls are left
    roll2: np.ndarray  # (252, n): the first roll of the turn (two more allowed)

    @property
    def start(self) -> np.ndarray:
        """(n,): the expected value of each state before its first roll."""
        return np.asarray(FIRST_ROLL @ self.roll2)

    def rolls(self, rolls_left: int) -> np.ndarray:
        """The value of each roll when ``rolls_left`` (0–2) more rolls are allowed."""
        return (self.final, self.roll1, self.roll2)[rolls_left]

    def keeps(self, rolls_left: int) -> np.ndarray:
        """The value of each keep chosen when ``rolls_left`` (1–2) more rolls are allowed."""
        return (self.keep1, self.keep2)[rolls_left - 1]


def solve_turns(final: np.ndarray) -> Turn:
    """Every stage of the turn for the states whose box values are ``final`` (252, n)."""
    keep1 = reroll(final)
    roll1 = best_inside(keep1)
    keep2 = reroll(roll1)
    roll2 = best_inside(keep2)
    return Turn(final, keep1, roll1, keep2, roll2)


def turn_values(final: np.ndarray) -> np.ndarray:
    """(n,): the turn-start value of each state (all the build needs)."""
    roll1 = best_inside(reroll(final))
    return np.asarray(FIRST_ROLL @ best_inside(reroll(roll1)))
