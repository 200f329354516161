"""A player's score sheet: columns 10, 11 and 12, row bonuses, super bonuses in the Total column.

Each column is filled top-down without gaps: a turn's points for rows of one total (several rows of
that total in one turn are added together) go into the topmost free box of that column. A sheet row
whose three boxes are all filled earns that row's bonus. Super bonuses (6 each) are entered bottom-up
in the Total column. One sheet serves a player for the whole game; its total decides the winner.

The printed row bonuses are not published: ``DEFAULT_ROW_BONUS`` is an *assumption* ("small at
first, larger later", as the reviews describe it) and a table owner can replace it (option
``row_bonus``). The table is also the printed length of the sheet; rows below it (reachable only in
theory) earn the table's last bonus.

>>> from rules.zatre.board import Scoring
>>> sheet = Sheet().enter(Scoring((12, 12, 10), (5, 5, 1), 0)).enter(Scoring((11,), (3,), 0))
>>> sheet.columns, sheet.complete_rows, sheet.total
(((1,), (3,), (10,)), 1, 15)
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.zatre.board import POINTS, Scoring

__all__ = ["COLUMNS", "DEFAULT_ROW_BONUS", "Sheet"]

COLUMNS = tuple(sorted(POINTS))  # (10, 11, 12)

# ASSUMPTION: the printed bonus per sheet row is not published. Every player lays 25 cards in a game
# (one turn each at most), so 25 printed rows always suffice.
DEFAULT_ROW_BONUS: tuple[int, ...] = (
    1,
    1,
    2,
    2,
    3,
    3,
    4,
    4,
    5,
    5,
    6,
    6,
    7,
    7,
    8,
    8,
    9,
    9,
    10,
    10,
    11,
    11,
    12,
    12,
    13,
)


@dataclass(frozen=True)
class Sheet:
    """One player's sheet: ``columns`` holds the boxes of 10, 11 and 12 top-down, ``supers`` the super
    bonuses in the order entered (the first in the bottom row of the Total column)."""

    row_bonus: tuple[int, ...] = DEFAULT_ROW_BONUS
    columns: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
    supers: tuple[int, ...] = ()

    def enter(self, scoring: Scoring) -> Sheet:
        """The sheet after one turn's scoring: one box per row total, the super bonus in Total."""
        boxes = scoring.points_by_total()
        c10, c11, c12 = (
            column + ((boxes[total],) if total in boxes else ())
            for column, total in zip(self.columns, COLUMNS, strict=True)
        )
        supers = self.supers + ((scoring.super_bonus,) if scoring.super_bonus else ())
        return Sheet(self.row_bonus, (c10, c11, c12), supers)

    def column(self, total: int) -> tuple[int, ...]:
        """The boxes of the 10, 11 or 12 column, top-down."""
        return self.columns[COLUMNS.index(total)]

    @property
    def complete_rows(self) -> int:
        """How many sheet rows have all three boxes filled (always the top ones: no gaps)."""
        return min(len(column) for column in self.columns)

    def bonus_of_row(self, row: int) -> int:
        if not self.row_bonus:
            return 0
        return self.row_bonus[min(row, len(self.row_bonus) - 1)]

    @property
    def bonus(self) -> int:
        """The row bonuses earned so far."""
        return sum(self.bonus_of_row(row) for row in range(self.complete_rows))

    @property
    def total(self) -> int:
        return sum(sum(column) for column in self.columns) + self.bonus + sum(self.supers)

    @property
    def length(self) -> int:
        """Rows of the sheet: the printed ones, or more if the entries ever overflow them."""
        return max(len(self.row_bonus), *(len(c) for c in self.columns), len(self.supers))

    def render(self) -> str:
        """The sheet as a text table: 10 | 11 | 12 | row bonus | Total (super bonuses)."""
        rows = max(len(c) for c in self.columns)
        bottom = self.length - 1
        super_rows = {bottom - i: points for i, points in enumerate(self.supers)}
        shown = sorted(set(range(rows)) | set(super_rows))
        lines = ["row   10   11   12  bonus  total"]
        for row in shown:
            boxes = [f"{c[row]:>4}" if row < len(c) else "   ." for c in self.columns]
            bonus = f"{self.bonus_of_row(row):>6}" if row < self.complete_rows else "     ."
            total = f"{super_rows[row]:>6}" if row in super_rows else "     ."
            lines.append(f"{row + 1:>3} {' '.join(boxes)} {bonus} {total}")
        lines.append(f"total {self.total}")
        return "\n".join(lines)
