"""The triple Generał sheet (*kości potrójne*): three columns scored ×1, ×2, ×3.

RULES.md §1, triple variant. Box ids are ``"<column>:<box>"``, ``"1:ones"`` … ``"3:chance"``; every
point value the sheet shows (``get``, ``options``, ``bonuses``) is already multiplied by the column
factor. Rules that differ from the classic sheet:

- no forced placement: any roll may go in any open box of any column;
- a five-of-a-kind scores full value in a lower box (joker: full house 25, straights 30/40) only once
  all three ``yahtzee`` boxes are filled and the matching upper box is filled in all three columns;
- the Yahtzee bonus is paid only once all three ``yahtzee`` boxes hold non-zero scores: 100 × the
  factor of the column the five-of-a-kind is entered in;
- upper bonus per column: 35 when the column's raw upper total is ≥ 63, then × the factor.

The classic ``joker`` option (forced/free) does not apply here.

>>> s = TripleSheet().fill("2:yahtzee", (3, 3, 3, 3, 3))
>>> s.get("2:yahtzee"), s.options((4, 4, 4, 4, 4))["3:full_house"]
(100, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.dice import Roll, as_roll
from rules.errors import IllegalAction
from rules.yahtzee.scoring import BOXES, LOWER, YAHTZEE_BONUS, joker_score, score, upper_bonus, upper_box

__all__ = ["FACTORS", "TRIPLE_BOXES", "TripleSheet", "split_box"]

FACTORS = (1, 2, 3)
TRIPLE_BOXES = tuple(f"{column}:{box}" for column in FACTORS for box in BOXES)

_EMPTY_COLUMN: tuple[int | None, ...] = (None,) * len(BOXES)


def split_box(box: str) -> tuple[int, str]:
    """``"2:full_house"`` -> ``(1, "full_house")``: the column index 0–2 and the classic box id."""
    if box not in TRIPLE_BOXES:
        raise IllegalAction("unknown_box", f"no box {box!r}; boxes are '1:ones' … '3:chance'", box=box)
    column, name = box.split(":")
    return int(column) - 1, name


@dataclass(frozen=True)
class TripleSheet:
    """One player's triple sheet: raw (unmultiplied) points per column, in :data:`BOXES` order."""

    columns: tuple[tuple[int | None, ...], ...] = (_EMPTY_COLUMN,) * len(FACTORS)
    yahtzee_bonuses: tuple[int, ...] = (0,) * len(FACTORS)  # Yahtzee bonuses earned, per column

    @property
    def boxes(self) -> tuple[str, ...]:
        return TRIPLE_BOXES

    @property
    def filled(self) -> int:
        return sum(v is not None for column in self.columns for v in column)

    @property
    def is_full(self) -> bool:
        return self.filled == len(TRIPLE_BOXES)

    def _raw(self, column: int, box: str) -> int | None:
        return self.columns[column][BOXES.index(box)]

    def _filled_everywhere(self, box: str) -> bool:
        return all(self._raw(c, box) is not None for c in range(len(FACTORS)))

    def get(self, box: str) -> int | None:
        column, name = split_box(box)
        raw = self._raw(column, name)
        return None if raw is None else raw * FACTORS[column]

    def _is_joker(self, roll: Roll) -> bool:
        """A five-of-a-kind once every ``yahtzee`` box and its upper box in every column are filled."""
        return (
            roll.is_five_of_a_kind
            and self._filled_everywhere("yahtzee")
            and self._filled_everywhere(upper_box(roll[0]))
        )

    def _raw_points(self, box: str, roll: Roll) -> int:
        """The unmultiplied points of classic box ``box``, lower boxes at full value for a joker."""
        return joker_score(box, roll) if box in LOWER and self._is_joker(roll) else score(box, roll)

    def options(self, dice: Roll | Sequence[int]) -> dict[str, int]:
        """Every open box of every column with its multiplied points (the Yahtzee bonus not included)."""
        roll = as_roll(dice)
        return {
            f"{FACTORS[c]}:{box}": FACTORS[c] * self._raw_points(box, roll)
            for c, column in enumerate(self.columns)
            for box, v in zip(BOXES, column, strict=True)
            if v is None
        }

    def fill(self, box: str, dice: Roll | Sequence[int]) -> TripleSheet:
        """The sheet with ``dice`` entered in ``box`` (and the Yahtzee bonus, when earned)."""
        roll = as_roll(dice)
        column, name = split_box(box)
        if self._raw(column, name) is not None:
            raise IllegalAction("box_filled", f"box {box!r} is already filled", box=box)
        raw = self._raw_points(name, roll)
        entries = tuple(raw if b == name else v for b, v in zip(BOXES, self.columns[column], strict=True))
        columns = tuple(entries if c == column else col for c, col in enumerate(self.columns))
        earned = roll.is_five_of_a_kind and all(self._raw(c, "yahtzee") for c in range(len(FACTORS)))
        bonuses = tuple(n + int(earned and c == column) for c, n in enumerate(self.yahtzee_bonuses))
        return replace(self, columns=columns, yahtzee_bonuses=bonuses)

    def column_total(self, column: int) -> int:
        """Column ``column`` (0–2): its multiplied boxes and bonuses."""
        raw = sum(v for v in self.columns[column] if v is not None)
        bonus = upper_bonus(self.columns[column]) + YAHTZEE_BONUS * self.yahtzee_bonuses[column]
        return FACTORS[column] * (raw + bonus)

    def bonuses(self) -> dict[str, int]:
        """``"1:upper"``, ``"1:yahtzee_bonus"``, … ``"3:yahtzee_bonus"``, multiplied by the factor."""
        lines = {}
        for c, factor in enumerate(FACTORS):
            lines[f"{factor}:upper"] = factor * upper_bonus(self.columns[c])
            lines[f"{factor}:yahtzee_bonus"] = factor * YAHTZEE_BONUS * self.yahtzee_bonuses[c]
        return lines

    def total(self) -> int:
        return sum(self.column_total(c) for c in range(len(FACTORS)))
