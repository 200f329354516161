"""A score sheet as a grid, for every game that keeps one (the dice games' boxes, Zatre's rows): row
names down the left, one block of columns per player (the triple Generał: ×1 ×2 ×3) headed in the
seat's colour, the totals at the bottom.

It is paged, never shrunk: rows ``rows_per_page`` at a time and players ``players_per_page`` at a
time at ``TEXT`` px (at 800×480) — a sheet is read from across the table — and every page shows the
totals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from device.ui.canvas import Canvas
from device.ui.theme import ACCENT, TEXT_DIM, Colour

__all__ = ["CELL", "LABEL", "ROW", "TEXT", "GridLayout", "ScoreGrid"]

TEXT = 24  # px at 800×480: the sheet is read from across the table
ROW = 32
LABEL = 176
CELL = 48  # the narrowest cell that holds a three-digit score at TEXT


@dataclass(frozen=True)
class GridLayout:
    """The grid cut into pages: ``rows`` ``rows_per_page`` at a time, the players ``players_per_page``
    at a time."""

    rows: int
    columns: int
    rows_per_page: int
    players_per_page: int
    players: int

    @property
    def row_pages(self) -> int:
        return -(-self.rows // self.rows_per_page)

    @property
    def player_pages(self) -> int:
        return -(-self.players // self.players_per_page)

    @property
    def pages(self) -> int:
        return self.row_pages * self.player_pages


@dataclass(frozen=True)
class ScoreGrid:
    """What a game's sheet shows: ``cell(row, player, column)`` is a cell's text (``None``: empty, and
    ``open(...)`` marks the empty cells the player to move may still fill with a dot)."""

    rows: Sequence[str]  # row names, in the players' language
    players: Sequence[tuple[str, Colour]]  # name and seat colour
    cell: Callable[[int, int, int], str | None]
    totals: Sequence[str]
    column_labels: Sequence[str] = ()  # the columns of each player's block (one column without labels)
    open: Callable[[int, int, int], bool] = lambda row, player, column: False
    total_label: str = "Total"
    label_width: int = LABEL  # px at 800×480 of the row names (Zatre's row numbers need less)

    @property
    def columns(self) -> int:
        return max(1, len(self.column_labels))

    def label_w(self, canvas: Canvas) -> int:
        """The row names' width: ``label_width``, or what the total's label needs at ``TEXT`` px (a
        word a language makes longer is not cut)."""
        total = canvas.fonts.font(canvas.px(TEXT), True).size(self.total_label)[0] + canvas.px(8)
        return max(canvas.px(self.label_width), total)

    def layout(self, canvas: Canvas, area: pygame.Rect) -> GridLayout:
        row_h = canvas.px(ROW)
        fixed = 2 + (1 if self.column_labels else 0)  # names (and column labels) above, the totals below
        per_page = max(1, area.height // row_h - fixed)
        per_players = max(1, (area.width - self.label_w(canvas)) // (self.columns * canvas.px(CELL)))
        return GridLayout(
            len(self.rows), self.columns, per_page, min(per_players, len(self.players)), len(self.players)
        )

    def draw(self, canvas: Canvas, area: pygame.Rect, page: int) -> None:
        layout = self.layout(canvas, area)
        columns = layout.columns
        row_page, player_page = divmod(page % layout.pages, layout.player_pages)
        first_row = row_page * layout.rows_per_page
        rows = range(first_row, min(len(self.rows), first_row + layout.rows_per_page))
        first = player_page * layout.players_per_page
        shown = range(first, min(len(self.players), first + layout.players_per_page))
        row_h = canvas.px(ROW)
        label_w = self.label_w(canvas)
        cell_w = (area.width - label_w) // (len(shown) * columns)

        def cell(n: int, c: int, y: int) -> tuple[int, int, int, int]:
            return (area.left + label_w + (n * columns + c) * cell_w, y, cell_w - canvas.px(6), row_h)

        y = area.top
        for n, p in enumerate(shown):
            name, colour = self.players[p]
            x = area.left + label_w + n * columns * cell_w
            canvas.shape((x + 1, y, columns * cell_w - 2, row_h), colour)
            canvas.text(
                name,
                (x + 4, y, columns * cell_w - 8, row_h),
                size=TEXT,
                align="center",
                bold=True,
                role="name",
            )
        y += row_h
        if self.column_labels:
            for n in range(len(shown)):
                for c, text in enumerate(self.column_labels):
                    canvas.text(text, cell(n, c, y), size=TEXT, colour=ACCENT, align="right", bold=True)
            y += row_h
        for r in rows:
            canvas.text(self.rows[r], (area.left, y, label_w - 4, row_h), size=TEXT, colour=TEXT_DIM)
            for n, p in enumerate(shown):
                for c in range(columns):
                    value = self.cell(r, p, c)
                    if value is not None:
                        canvas.text(value, cell(n, c, y), size=TEXT, align="right", role="score")
                    elif self.open(r, p, c):
                        canvas.text("·", cell(n, c, y), size=TEXT, colour=TEXT_DIM, align="right")
            y += row_h
        y = max(y, area.bottom - row_h)
        canvas.text(self.total_label, (area.left, y, label_w - 4, row_h), size=TEXT, bold=True)
        for n, p in enumerate(shown):
            canvas.text(
                self.totals[p],
                cell(n, columns - 1, y),
                size=TEXT,
                align="right",
                bold=True,
                colour=ACCENT,
                role="score",
            )
