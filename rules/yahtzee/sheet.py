"""The classic Generał score sheet: 13 boxes, the upper bonus, the forced joker and the Yahtzee bonus.

RULES.md §1. A five-of-a-kind rolled while the ``yahtzee`` box is already filled (50 or 0) is a
*joker*. Under ``joker="forced"`` (the seed's rule and the official one) it

(a) must go in the matching upper box if that box is open;
(b) else in any open lower box, at full value (full house 25, small straight 30, large straight 40,
    the other lower boxes the dice sum);
(c) else (every lower box filled) for 0 in any open upper box.

Any other box is refused with ``joker_forced``. Under ``joker="free"`` the joker may go in any open
box, lower boxes at full value. Independently of where it goes, the joker earns the Yahtzee bonus
(+100) when the ``yahtzee`` box holds 50 — the sheet records it when the joker is entered.

>>> s = ClassicSheet().fill("yahtzee", (5, 5, 5, 5, 5))
>>> s.options((5, 5, 5, 5, 5))
{'fives': 25}
>>> s = s.fill("fives", (5, 5, 5, 5, 5))
>>> s.total(), s.bonuses()
(175, {'upper': 0, 'yahtzee_bonus': 100})
>>> s.options((5, 5, 5, 5, 5))["small_straight"]
30
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Literal

from rules.dice import Roll, as_roll
from rules.dice_game import OneColumnSheet
from rules.errors import IllegalAction
from rules.yahtzee.scoring import (
    BOXES,
    LOWER,
    YAHTZEE,
    YAHTZEE_BONUS,
    joker_score,
    score,
    upper_bonus,
    upper_box,
)

__all__ = ["ClassicSheet", "Joker"]

Joker = Literal["forced", "free"]


@dataclass(frozen=True)
class ClassicSheet(OneColumnSheet):
    """One player's classic sheet: ``entries`` in :data:`BOXES` order (``None`` = open)."""

    BOXES: ClassVar[tuple[str, ...]] = BOXES

    entries: tuple[int | None, ...] = (None,) * len(BOXES)
    yahtzee_bonuses: int = 0  # how many +100 Yahtzee bonuses have been earned
    joker: Joker = "forced"

    def options(self, dice: Roll | Sequence[int]) -> dict[str, int]:
        """Every box ``dice`` may enter now with its points (the +100 bonus not included)."""
        roll = as_roll(dice)
        open_boxes = [box for box, v in zip(BOXES, self.entries, strict=True) if v is None]
        if not (roll.is_five_of_a_kind and self.get("yahtzee") is not None):
            return {box: score(box, roll) for box in open_boxes}
        if self.joker == "free":
            return {box: joker_score(box, roll) if box in LOWER else score(box, roll) for box in open_boxes}
        matching = upper_box(roll[0])
        if matching in open_boxes:
            return {matching: score(matching, roll)}
        open_lower = [box for box in open_boxes if box in LOWER]
        if open_lower:
            return {box: joker_score(box, roll) for box in open_lower}
        return {box: 0 for box in open_boxes}

    def fill(self, box: str, dice: Roll | Sequence[int]) -> ClassicSheet:
        """The sheet with ``dice`` entered in ``box`` (and the Yahtzee bonus, when earned)."""
        roll = as_roll(dice)
        entries = self._entered(
            box,
            roll,
            lambda allowed: IllegalAction(
                "joker_forced",
                f"the joker {roll} must go in {', '.join(allowed)}, not in {box!r}",
                box=box,
                allowed=tuple(allowed),
            ),
        )
        earned = roll.is_five_of_a_kind and self.get("yahtzee") == YAHTZEE
        return replace(self, entries=entries, yahtzee_bonuses=self.yahtzee_bonuses + int(earned))

    def bonuses(self) -> dict[str, int]:
        return {"upper": upper_bonus(self.entries), "yahtzee_bonus": YAHTZEE_BONUS * self.yahtzee_bonuses}

    def total(self) -> int:
        return sum(v for v in self.entries if v is not None) + sum(self.bonuses().values())
