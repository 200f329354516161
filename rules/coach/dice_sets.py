"""The five dice as multisets: the 252 rolls, the 462 keeps, and the arrays that move between them.

The coach never looks at dice positions: a roll is the sorted tuple of its values, a *keep* is the
sorted tuple of the dice a player holds (0–5 of them). Everything the solvers need is an index into
:data:`ROLLS` or :data:`KEEPS` and a few constant arrays built here once:

- :data:`FIRST_ROLL` — the chance of each roll from five fresh dice;
- :data:`REROLL` — ``REROLL[k, r]``: the chance that keeping ``KEEPS[k]`` and rolling the other dice
  gives ``ROLLS[r]`` (a row sums to 1); a keep→roll step for many states is one matrix product;
- :data:`DROP_ONE` — for each keep, the keeps with one die fewer, so that the best keep inside a roll
  is found level by level (a keep's best sub-keep is itself or the best sub-keep of a smaller keep);
- :data:`SUBKEEPS` — every distinct keep inside each roll, for advice and simulation.

>>> len(ROLLS), len(KEEPS), ROLLS[0], KEEPS[0]
(252, 462, (1, 1, 1, 1, 1), ())
>>> round(float(FIRST_ROLL[ROLL_INDEX[(1, 2, 3, 4, 5)]]) * 7776)
120
>>> float(REROLL[KEEP_INDEX[(6, 6, 6, 6)], ROLL_INDEX[(6, 6, 6, 6, 6)]]) == 1 / 6
True
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

__all__ = [
    "COUNTS",
    "DROP_ONE",
    "FIRST_ROLL",
    "KEEPS",
    "KEEP_COUNTS",
    "KEEP_INDEX",
    "KEEP_SIZE",
    "REROLL",
    "ROLLS",
    "ROLL_AS_KEEP",
    "ROLL_INDEX",
    "SUBKEEPS",
    "SUBKEEP_COUNT",
    "keep_of",
    "roll_index",
]

DICE = 5
FACES = (1, 2, 3, 4, 5, 6)


def _multisets(size: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations_with_replacement(FACES, size))


def _chance(dice: Sequence[int]) -> float:
    """The chance that len(dice) fresh dice show exactly this multiset."""
    counts = Counter(dice)
    ways = math.factorial(len(dice))
    for n in counts.values():
        ways //= math.factorial(n)
    return ways / 6 ** len(dice)


ROLLS: tuple[tuple[int, ...], ...] = tuple(_multisets(DICE))
ROLL_INDEX: dict[tuple[int, ...], int] = {roll: i for i, roll in enumerate(ROLLS)}
KEEPS: tuple[tuple[int, ...], ...] = tuple(k for size in range(DICE + 1) for k in _multisets(size))
KEEP_INDEX: dict[tuple[int, ...], int] = {keep: i for i, keep in enumerate(KEEPS)}
KEEP_SIZE = np.array([len(k) for k in KEEPS], dtype=np.int64)

#: how many dice of each face (columns 1–6) each roll shows
COUNTS = np.array([[roll.count(f) for f in FACES] for roll in ROLLS], dtype=np.int64)
KEEP_COUNTS = np.array([[keep.count(f) for f in FACES] for keep in KEEPS], dtype=np.int64)

FIRST_ROLL = np.array([_chance(roll) for roll in ROLLS])

REROLL = np.zeros((len(KEEPS), len(ROLLS)))
for _k, _keep in enumerate(KEEPS):
    for _new in _multisets(DICE - len(_keep)):
        REROLL[_k, ROLL_INDEX[tuple(sorted(_keep + _new))]] += _chance(_new)

ROLL_AS_KEEP = np.array([KEEP_INDEX[roll] for roll in ROLLS], dtype=np.int64)


def _drop_one(keep: tuple[int, ...]) -> list[int]:
    smaller = {keep[:i] + keep[i + 1 :] for i in range(len(keep))}
    return sorted(KEEP_INDEX[k] for k in smaller)


#: ``DROP_ONE[size]`` = (indices of the keeps of that size, (n, 5) their one-die-fewer keeps, padded
#: by repeating the first)
DROP_ONE: list[tuple[np.ndarray, np.ndarray]] = []
for _size in range(1, DICE + 1):
    _ids = [i for i, k in enumerate(KEEPS) if len(k) == _size]
    _rows = [_drop_one(KEEPS[i]) for i in _ids]
    _width = max(len(r) for r in _rows)
    DROP_ONE.append(
        (
            np.array(_ids, dtype=np.int64),
            np.array([r + [r[0]] * (_width - len(r)) for r in _rows], dtype=np.int64),
        )
    )


def _subkeeps(roll: tuple[int, ...]) -> list[int]:
    found = {
        tuple(roll[i] for i in held)
        for n in range(DICE + 1)
        for held in itertools.combinations(range(DICE), n)
    }
    return sorted(KEEP_INDEX[k] for k in found)


_SUB = [_subkeeps(roll) for roll in ROLLS]
SUBKEEP_COUNT = np.array([len(s) for s in _SUB], dtype=np.int64)
#: ``SUBKEEPS[r]``: every distinct keep inside roll r, padded with the roll itself (the last keep)
SUBKEEPS = np.array([s + [s[-1]] * (32 - len(s)) for s in _SUB], dtype=np.int64)


def roll_index(dice: Sequence[int]) -> int:
    """The index in :data:`ROLLS` of five dice in any order; ``ValueError`` naming them otherwise."""
    key = tuple(sorted(dice))
    if key not in ROLL_INDEX:
        raise ValueError(f"not five dice 1–6: {tuple(dice)!r}")
    return ROLL_INDEX[key]


def keep_of(dice: Sequence[int], held: Sequence[int]) -> int:
    """The keep index of the dice at positions ``held``."""
    return KEEP_INDEX[tuple(sorted(dice[p] for p in held))]
