"""The Kości score sheet: 15 boxes, the section bonus or penalty, and the joker bonus (RULES.md §2).

- A roll may go in any open box; a box the roll does not qualify for scores 0, a *zero entry*. With
  ``allow_voluntary_zero=False`` a zero entry is refused (``voluntary_zero``) while some open box would
  score more than 0; it is allowed only when every open box scores 0.
- Sections: *small figures* (``ones`` … ``three_of_a_kind``): +20 without any zero entry, −20 with
  one or more; *large figures* (``small_straight`` … ``poker``): +30 / −10. ``chance`` is in neither.
  A section's line counts once every box of that section is filled. With ``penalty_per_zero=True``
  the penalty is charged for every zero entry of the section (−20 or −10 each) instead of once.
- Joker bonus: +50 for each five-of-a-kind entered (in whatever box) while ``poker`` already holds a
  non-zero score. Entering a five-of-a-kind in ``poker`` itself never earns it (``poker`` is then
  being filled, not already holding a score); nor does one rolled after ``poker`` was zeroed.

>>> s = PokerDiceSheet().fill("poker", (2, 2, 2, 2, 2))
>>> s = s.fill("chance", (6, 6, 6, 6, 6))
>>> s.total(), s.bonuses()
(140, {'small': 0, 'large': 0, 'joker': 50})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from rules.dice import Roll, as_roll
from rules.dice_game import OneColumnSheet
from rules.errors import IllegalAction
from rules.poker_dice.scoring import BOXES, LARGE_FIGURES, SMALL_FIGURES, score

__all__ = ["JOKER_BONUS", "SECTIONS", "PokerDiceSheet", "Section"]

JOKER_BONUS = 50


@dataclass(frozen=True)
class Section:
    """A group of boxes with one bonus (no zero entry) or penalty (some zero entry) line."""

    name: str
    boxes: tuple[str, ...]
    bonus: int
    penalty: int


SECTIONS = (Section("small", SMALL_FIGURES, 20, -20), Section("large", LARGE_FIGURES, 30, -10))


@dataclass(frozen=True)
class PokerDiceSheet(OneColumnSheet):
    """One player's Kości sheet: ``entries`` in :data:`BOXES` order (``None`` = open)."""

    BOXES: ClassVar[tuple[str, ...]] = BOXES

    entries: tuple[int | None, ...] = (None,) * len(BOXES)
    jokers: int = 0  # five-of-a-kinds rolled after a non-zero poker: +50 each
    allow_voluntary_zero: bool = True
    penalty_per_zero: bool = False

    def options(self, dice: Roll | Sequence[int]) -> dict[str, int]:
        """Every box ``dice`` may enter now with its points (the joker bonus not included)."""
        roll = as_roll(dice)
        points = {box: score(box, roll) for box, v in zip(BOXES, self.entries, strict=True) if v is None}
        if self.allow_voluntary_zero or not any(points.values()):
            return points
        return {box: p for box, p in points.items() if p > 0}

    def fill(self, box: str, dice: Roll | Sequence[int]) -> PokerDiceSheet:
        """The sheet with ``dice`` entered in ``box`` (and the joker bonus, when earned)."""
        roll = as_roll(dice)
        entries = self._entered(
            box,
            roll,
            lambda allowed: IllegalAction(
                "voluntary_zero",
                f"{roll} scores 0 in {box!r} but scores in {', '.join(allowed)}",
                box=box,
                allowed=tuple(allowed),
            ),
        )
        earned = roll.is_five_of_a_kind and bool(self.get("poker"))
        return replace(self, entries=entries, jokers=self.jokers + int(earned))

    def section_line(self, section: Section) -> int:
        """The section's bonus or penalty; 0 while any of its boxes is open."""
        values = [self.get(box) for box in section.boxes]
        if any(v is None for v in values):
            return 0
        zeros = values.count(0)
        if zeros == 0:
            return section.bonus
        return section.penalty * (zeros if self.penalty_per_zero else 1)

    def bonuses(self) -> dict[str, int]:
        return {s.name: self.section_line(s) for s in SECTIONS} | {"joker": JOKER_BONUS * self.jokers}

    def total(self) -> int:
        return sum(v for v in self.entries if v is not None) + sum(self.bonuses().values())
