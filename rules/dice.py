"""Five dice: the observed roll, the two actions of a dice turn, and a seeded roll for simulated play.

Both dice games (Generał and Kości) share these. A roll arrives as *observed values* (from the camera
or typed in), position by position; ``held`` names the positions the player kept from the previous
roll, whose values must not change.

>>> roll = Roll.parse("4 3 4 4 1")
>>> roll.values, str(roll), Roll.parse("43441") == Roll.parse("4,3,4,4,1") == roll
((4, 3, 4, 4, 1), '4 3 4 4 1', True)
>>> roll.count(4), roll.total, roll.is_five_of_a_kind
(3, 16, False)
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rules.actions import Action, action
from rules.errors import NotationError

__all__ = ["DICE", "FACES", "AmendRoll", "Choose", "Roll", "RollDice", "as_roll", "random_roll"]

DICE = 5
FACES = range(1, 7)


@dataclass(frozen=True)
class Roll:
    """The values of the five dice, in positions 0–4."""

    values: tuple[int, ...]

    def __post_init__(self) -> None:
        if (
            not isinstance(self.values, tuple)
            or len(self.values) != DICE
            or any(isinstance(v, bool) or not isinstance(v, int) or v not in FACES for v in self.values)
        ):
            raise NotationError(f"a roll is 5 dice with values 1–6, got {self.values!r}")

    @classmethod
    def parse(cls, text: str) -> Roll:
        """Read ``"4 3 4 4 1"``, ``"43441"``, ``"4,3,4,4,1"`` or ``"(4, 3, 4, 4, 1)"``.

        >>> Roll.parse("(6, 6, 1, 2, 3)")
        Roll(values=(6, 6, 1, 2, 3))
        >>> Roll.parse("4 3 4 4")
        Traceback (most recent call last):
        ...
        rules.errors.NotationError: not a roll of 5 dice 1–6: '4 3 4 4'
        """
        body = text.strip().strip("()[]").strip()
        parts = re.split(r"[\s,]+", body) if re.search(r"[\s,]", body) else list(body)
        if len(parts) != DICE or not all(p in {"1", "2", "3", "4", "5", "6"} for p in parts):
            raise NotationError(f"not a roll of 5 dice 1–6: {text!r}")
        return cls(tuple(int(p) for p in parts))

    def __str__(self) -> str:
        return " ".join(str(v) for v in self.values)

    def __iter__(self) -> Iterator[int]:
        return iter(self.values)

    def __len__(self) -> int:
        return DICE

    def __getitem__(self, position: int) -> int:
        return self.values[position]

    def count(self, face: int) -> int:
        """How many dice show ``face``."""
        return self.values.count(face)

    @property
    def total(self) -> int:
        return sum(self.values)

    @property
    def is_five_of_a_kind(self) -> bool:
        return len(set(self.values)) == 1


def as_roll(dice: Roll | Sequence[int]) -> Roll:
    """A :class:`Roll` from a roll or a sequence of five ints (the conformance API takes both)."""
    return dice if isinstance(dice, Roll) else Roll(tuple(dice))


@action("dice.roll")
@dataclass(frozen=True)
class RollDice(Action):
    """A roll as observed: all five dice; ``held`` = positions kept (unchanged) from the previous roll."""

    dice: Roll
    held: tuple[int, ...] = ()


@action("dice.amend")
@dataclass(frozen=True)
class AmendRoll(Action):
    """The turn's latest roll as the players read it, when it was entered as something else (the
    camera misread a die): the same roll, no roll used; the dice held in it keep their values."""

    dice: Roll


@action("dice.choose")
@dataclass(frozen=True)
class Choose(Action):
    """Enter the current dice in a box (``"full_house"``; triple Generał: ``"2:full_house"``)."""

    box: str


def random_roll(rng: random.Random, previous: Roll | None, held: tuple[int, ...] = ()) -> Roll:
    """A roll for solo or simulated play: held positions keep their values, the others are rolled.

    >>> first = random_roll(random.Random(1), None)
    >>> second = random_roll(random.Random(2), first, held=(0, 1))
    >>> second.values[:2] == first.values[:2]
    True
    """
    if previous is None and held:
        raise ValueError("nothing to hold before the first roll")
    return Roll(
        tuple(
            previous.values[i] if previous is not None and i in held else rng.randint(1, 6)
            for i in range(DICE)
        )
    )
