"""Generał (Yahtzee) box scores for one roll, without any sheet context (RULES.md §1).

>>> score("fours", (4, 3, 4, 4, 1)), score("threes", (4, 3, 4, 4, 1))
(12, 3)
>>> score("full_house", (2, 2, 3, 3, 3)), score("full_house", (5, 5, 5, 5, 5))
(25, 0)
>>> joker_score("full_house", (5, 5, 5, 5, 5)), joker_score("four_of_a_kind", (5, 5, 5, 5, 5))
(25, 25)
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.dice import Roll, as_roll
from rules.errors import IllegalAction

__all__ = [
    "BOXES",
    "FULL_HOUSE",
    "LARGE_STRAIGHT",
    "LOWER",
    "SMALL_STRAIGHT",
    "UPPER",
    "UPPER_BONUS",
    "UPPER_BONUS_THRESHOLD",
    "YAHTZEE",
    "YAHTZEE_BONUS",
    "check_box",
    "joker_score",
    "score",
    "upper_bonus",
    "upper_box",
]

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
BOXES = UPPER + LOWER

FULL_HOUSE = 25
SMALL_STRAIGHT = 30
LARGE_STRAIGHT = 40
YAHTZEE = 50
UPPER_BONUS = 35
UPPER_BONUS_THRESHOLD = 63
YAHTZEE_BONUS = 100

_SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
_LARGE_RUNS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def check_box(box: str) -> None:
    """``IllegalAction("unknown_box")`` unless ``box`` is a Generał box id."""
    if box not in BOXES:
        raise IllegalAction("unknown_box", f"no box {box!r}; boxes: {', '.join(BOXES)}", box=box)


def upper_box(face: int) -> str:
    """The upper box that counts ``face``: ``upper_box(3) == "threes"``."""
    return UPPER[face - 1]


def score(box: str, dice: Roll | Sequence[int]) -> int:
    """The points ``dice`` score in ``box`` by the box's own rule (0 when the dice do not qualify)."""
    check_box(box)
    roll = as_roll(dice)
    counts = sorted((roll.count(face) for face in set(roll)), reverse=True)
    faces = set(roll)
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * roll.count(face)
    if box == "three_of_a_kind":
        return roll.total if counts[0] >= 3 else 0
    if box == "four_of_a_kind":
        return roll.total if counts[0] >= 4 else 0
    if box == "full_house":
        return FULL_HOUSE if counts == [3, 2] else 0
    if box == "small_straight":
        return SMALL_STRAIGHT if any(run <= faces for run in _SMALL_RUNS) else 0
    if box == "large_straight":
        return LARGE_STRAIGHT if faces in _LARGE_RUNS else 0
    if box == "yahtzee":
        return YAHTZEE if counts[0] == 5 else 0
    return roll.total  # chance


def joker_score(box: str, dice: Roll | Sequence[int]) -> int:
    """The full value of a lower box for a five-of-a-kind played as a joker.

    Full house 25, small straight 30, large straight 40; the other lower boxes score the dice as
    usual (the sum, or 50 in ``yahtzee``), which a five-of-a-kind already qualifies for.
    """
    check_box(box)
    full_value = {
        "full_house": FULL_HOUSE,
        "small_straight": SMALL_STRAIGHT,
        "large_straight": LARGE_STRAIGHT,
    }
    return full_value.get(box, score(box, dice))


def upper_bonus(entries: Sequence[int | None]) -> int:
    """35 when the upper boxes (the first six ``entries``, raw points) total 63 or more, else 0."""
    upper_total = sum(v for v in entries[: len(UPPER)] if v is not None)
    return UPPER_BONUS if upper_total >= UPPER_BONUS_THRESHOLD else 0
