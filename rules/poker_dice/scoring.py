"""Kości (Polish poker dice) box scores for one roll, without any sheet context (RULES.md §2).

``n(v)`` = how many dice show ``v``. Pair, two pairs and three of a kind count *all* dice of the
qualifying face(s) (the seed's "ale również" examples), e.g.

>>> [score(box, (2, 2, 2, 2, 1)) for box in ("pair", "two_pairs", "three_of_a_kind")]
[8, 8, 8]
>>> [score(box, (2, 2, 2, 2, 2)) for box in ("full_house", "four_of_a_kind", "poker")]
[20, 30, 60]
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.dice import FACES, Roll, as_roll
from rules.errors import IllegalAction

__all__ = [
    "BOXES",
    "FOUR_OF_A_KIND_EXTRA",
    "FULL_HOUSE_EXTRA",
    "LARGE_FIGURES",
    "POKER_EXTRA",
    "SMALL_FIGURES",
    "UPPER",
    "check_box",
    "score",
]

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
SMALL_FIGURES = (*UPPER, "pair", "two_pairs", "three_of_a_kind")
LARGE_FIGURES = ("small_straight", "large_straight", "full_house", "four_of_a_kind", "poker")
BOXES = (*SMALL_FIGURES, *LARGE_FIGURES, "chance")

FULL_HOUSE_EXTRA = 10
FOUR_OF_A_KIND_EXTRA = 20
POKER_EXTRA = 50
_SMALL_STRAIGHT = (1, 2, 3, 4, 5)
_LARGE_STRAIGHT = (2, 3, 4, 5, 6)


def check_box(box: str) -> None:
    """``IllegalAction("unknown_box")`` unless ``box`` is a Kości box id."""
    if box not in BOXES:
        raise IllegalAction("unknown_box", f"no box {box!r}; boxes: {', '.join(BOXES)}", box=box)


def score(box: str, dice: Roll | Sequence[int]) -> int:
    """The points ``dice`` score in ``box`` (0 when they do not qualify: a zero entry)."""
    check_box(box)
    roll = as_roll(dice)
    # all dice of each face that appears at least twice, e.g. {2: 4, 1: 3} for 2 2 1 1 1
    groups = {v: v * roll.count(v) for v in FACES if roll.count(v) >= 2}
    most = max(roll.count(v) for v in FACES)
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * roll.count(face)
    if box == "pair":
        return max(groups.values(), default=0)
    if box == "two_pairs":
        # two faces with two or more dice each, or one face with four or more ("not necessarily different")
        return sum(groups.values()) if len(groups) == 2 or most >= 4 else 0
    if box == "three_of_a_kind":
        return max((v * roll.count(v) for v in FACES if roll.count(v) >= 3), default=0)
    if box == "small_straight":
        return roll.total if tuple(sorted(roll)) == _SMALL_STRAIGHT else 0
    if box == "large_straight":
        return roll.total if tuple(sorted(roll)) == _LARGE_STRAIGHT else 0
    if box == "full_house":
        return roll.total + FULL_HOUSE_EXTRA if (len(groups) == 2 and most == 3) or most == 5 else 0
    if box == "four_of_a_kind":
        return roll.total + FOUR_OF_A_KIND_EXTRA if most >= 4 else 0
    if box == "poker":
        return roll.total + POKER_EXTRA if most == 5 else 0
    return roll.total  # chance (ratunek)
