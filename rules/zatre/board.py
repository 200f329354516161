"""The grid of half-cells, placements of cards on it, rows, and the scoring of a placement.

There is no printed board: cards lie crossword-like on the table. Each card covers two edge-adjacent
half-cells; a **row** is a maximal horizontal or vertical line of occupied half-cells, ended only by an
empty cell (a 0 half does not end it). No row may total 13 or more. A placement scores every row that
holds a half of the new card and totals 10, 11 or 12 (1, 3, 5 points); one card scoring three rows
{10, 11, 12} or {12, 12, 12} earns the super bonus of 6.

>>> board, scoring = place(Board(), "5|6@0,0H")
>>> scoring.rows, scoring.points, scoring.super_bonus
((11,), (3,), 0)
>>> board, scoring = place(board, "4|0@0,1H")
>>> scoring.rows, scoring.points
((), ())
>>> print(board.render())
56
40
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from rules.errors import IllegalAction, NotationError
from rules.zatre.cards import Card

__all__ = [
    "MAX_ROW",
    "POINTS",
    "SUPER_BONUS",
    "SUPER_TRIPLES",
    "Board",
    "Cell",
    "Line",
    "Orientation",
    "Placement",
    "Scoring",
    "card_lines",
    "place",
    "place_cards",
]

Cell = tuple[int, int]
Orientation = Literal["H", "V"]

MAX_ROW = 12  # a row totalling 13 or more is illegal
POINTS = {10: 1, 11: 3, 12: 5}
SUPER_BONUS = 6
SUPER_TRIPLES = frozenset({(10, 11, 12), (12, 12, 12)})

_STEP: dict[Orientation, tuple[int, int]] = {"H": (1, 0), "V": (0, 1)}
_ACROSS: dict[Orientation, Orientation] = {"H": "V", "V": "H"}
_PLACEMENT = re.compile(r"^\s*(\d+\s*\|\s*\d+)\s*@\s*(-?\d+)\s*,\s*(-?\d+)\s*([HVhv])\s*$")


@dataclass(frozen=True, order=True)
class Placement:
    """A card laid on the grid: its first half at (x, y), the second at (x+1, y) for ``H`` or at
    (x, y+1) for ``V``. Coordinates may be negative.

    >>> p = Placement.parse("3|4@0,-1V")
    >>> str(p), p.cells
    ('3|4@0,-1V', (((0, -1), 3), ((0, 0), 4)))
    """

    card: Card
    x: int
    y: int
    orientation: Orientation

    def __post_init__(self) -> None:
        if self.orientation not in _STEP:
            raise NotationError(f"orientation {self.orientation!r} is neither 'H' nor 'V'")

    @classmethod
    def parse(cls, text: str) -> Placement:
        match = _PLACEMENT.match(text)
        if match is None:
            raise NotationError(
                f"not a Zatre placement: {text!r} (expected card@x,y and H or V, like '3|4@0,0H')"
            )
        card, x, y, orientation = match.groups()
        return cls(Card.parse(card), int(x), int(y), "H" if orientation.upper() == "H" else "V")

    def __str__(self) -> str:
        return f"{self.card}@{self.x},{self.y}{self.orientation}"

    @property
    def cells(self) -> tuple[tuple[Cell, int], tuple[Cell, int]]:
        """The two half-cells with their values, first half first."""
        dx, dy = _STEP[self.orientation]
        return ((self.x, self.y), self.card.first), ((self.x + dx, self.y + dy), self.card.second)


class Line(NamedTuple):
    """A maximal row of occupied half-cells: its direction, first (leftmost/topmost) cell, length and
    total. ``(axis, start)`` identifies it on a board."""

    axis: Orientation
    start: Cell
    length: int
    total: int

    def describe(self) -> str:
        dx, dy = _STEP[self.axis]
        end = (self.start[0] + dx * (self.length - 1), self.start[1] + dy * (self.length - 1))
        kind = "horizontal" if self.axis == "H" else "vertical"
        return f"{kind} row {self.start}–{end} totalling {self.total}"


@dataclass(frozen=True)
class Board:
    """The laid cards of one round, in the order they were laid.

    ``Board()`` is the empty table. The board itself only refuses overlapping cards; the rules of
    touching and row totals are checked by :func:`place`.
    """

    placements: tuple[Placement, ...] = ()
    cells: dict[Cell, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cells: dict[Cell, int] = {}
        for placement in self.placements:
            for cell, value in placement.cells:
                if cell in cells:
                    raise ValueError(f"{placement} overlaps a laid card at {cell}")
                cells[cell] = value
        object.__setattr__(self, "cells", cells)

    def __bool__(self) -> bool:
        return bool(self.placements)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(p.card for p in self.placements)

    def frontier(self) -> set[Cell]:
        """Empty half-cells that share an edge with a laid card: every legal card covers one."""
        cells = self.cells
        return {
            (x + dx, y + dy)
            for x, y in cells
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if (x + dx, y + dy) not in cells
        }

    def lines(self) -> Iterator[Line]:
        """Every row of the board (length ≥ 2), horizontal ones first."""
        cells = self.cells
        for axis in _ACROSS:
            dx, dy = _STEP[axis]
            for (x, y), value in cells.items():
                if (x - dx, y - dy) in cells or (x + dx, y + dy) not in cells:
                    continue
                length, total = _run(cells, x, y, dx, dy)
                yield Line(axis, (x, y), length + 1, value + total)

    def render(self) -> str:
        """The grid as text, one character per half-cell (``.`` empty), top row first."""
        if not self.cells:
            return "(empty table)"
        xs = [x for x, _ in self.cells]
        ys = [y for _, y in self.cells]
        return "\n".join(
            "".join(str(self.cells.get((x, y), ".")) for x in range(min(xs), max(xs) + 1))
            for y in range(min(ys), max(ys) + 1)
        )


@dataclass(frozen=True)
class Scoring:
    """What one turn scored: the totals of the scored rows, their points (1/3/5 each, same order) and
    the super bonus (6 per card that scored a triple {10, 11, 12} or {12, 12, 12})."""

    rows: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    super_bonus: int = 0

    @property
    def total(self) -> int:
        return sum(self.points) + self.super_bonus

    def points_by_total(self) -> dict[int, int]:
        """Points per row total (10/11/12): what goes into each column's box on the score sheet."""
        boxes: dict[int, int] = {}
        for total, points in zip(self.rows, self.points, strict=True):
            boxes[total] = boxes.get(total, 0) + points
        return boxes


def _run(cells: dict[Cell, int], x: int, y: int, dx: int, dy: int) -> tuple[int, int]:
    """Length and total of the occupied cells next to (x, y) going in direction (dx, dy)."""
    length = total = 0
    x += dx
    y += dy
    while (x, y) in cells:
        total += cells[(x, y)]
        length += 1
        x += dx
        y += dy
    return length, total


def card_lines(cells: dict[Cell, int], placement: Placement) -> tuple[Line, Line, Line]:
    """The three rows through a card once it lies at ``placement``: along its length, then across
    each half. ``cells`` may or may not already hold the card (only the cells beyond it are read)."""
    (c1, a), (c2, b) = placement.cells
    axis = placement.orientation
    dx, dy = _STEP[axis]
    back_len, back_sum = _run(cells, c1[0], c1[1], -dx, -dy)
    fwd_len, fwd_sum = _run(cells, c2[0], c2[1], dx, dy)
    along = Line(
        axis,
        (c1[0] - back_len * dx, c1[1] - back_len * dy),
        back_len + 2 + fwd_len,
        a + b + back_sum + fwd_sum,
    )
    across = _ACROSS[axis]
    px, py = _STEP[across]
    crossing = []
    for (cx, cy), value in ((c1, a), (c2, b)):
        before_len, before_sum = _run(cells, cx, cy, -px, -py)
        after_len, after_sum = _run(cells, cx, cy, px, py)
        start = (cx - before_len * px, cy - before_len * py)
        crossing.append(Line(across, start, before_len + 1 + after_len, value + before_sum + after_sum))
    return along, crossing[0], crossing[1]


def _as_placement(item: Placement | str) -> Placement:
    return item if isinstance(item, Placement) else Placement.parse(item)


def place(board: Board, placement: Placement | str) -> tuple[Board, Scoring]:
    """Lay one card; returns the new board and what it scored.

    An empty board takes any card; later cards must touch a laid card edge to edge. Raises
    ``IllegalAction`` with code ``overlap``, ``not_touching`` or ``row_too_high``.
    """
    return place_cards(board, (placement,))


def place_cards(board: Board, placements: Sequence[Placement | str]) -> tuple[Board, Scoring]:
    """Lay several cards as one turn (the two-card first turn of a round).

    The cards are laid in order, each touching what lies before it (the first card of an empty board
    excepted). Rows are then judged on the final board: every row through a new half must total at
    most 12 and each distinct scoring row counts once. A triple counts when the three rows of one
    card score {10, 11, 12} or {12, 12, 12} as that card is laid.

    >>> _, scoring = place_cards(Board(), ["6|6@0,0H", "0|4@0,1H"])
    >>> scoring.rows, scoring.points
    ((12, 10), (5, 1))
    """
    laid = [_as_placement(p) for p in placements]
    cells = dict(board.cells)
    super_bonus = 0
    for placement in laid:
        for cell, _ in placement.cells:
            if cell in cells:
                raise IllegalAction(
                    "overlap",
                    f"{placement} covers {cell}, where a {cells[cell]} already lies",
                    placement=str(placement),
                    cell=cell,
                )
        if cells and not _touches(cells, placement):
            raise IllegalAction(
                "not_touching",
                f"{placement} does not touch a laid card edge to edge",
                placement=str(placement),
            )
        for cell, value in placement.cells:
            cells[cell] = value
        # A triple is three rows scored at once by laying one card, so it is judged as the card
        # is laid: the first card of an empty table (a lone card) never makes one.
        totals = tuple(sorted(line.total for line in card_lines(cells, placement)))
        if totals in SUPER_TRIPLES:
            super_bonus += SUPER_BONUS
    seen: set[tuple[str, Cell]] = set()
    rows: list[int] = []
    for placement in laid:
        for line in card_lines(cells, placement):
            if line.total > MAX_ROW:
                raise IllegalAction(
                    "row_too_high",
                    f"{placement} makes a {line.describe()}; no row may total 13 or more",
                    placement=str(placement),
                    total=line.total,
                )
            if line.total in POINTS and (line.axis, line.start) not in seen:
                seen.add((line.axis, line.start))
                rows.append(line.total)
    scoring = Scoring(tuple(rows), tuple(POINTS[t] for t in rows), super_bonus)
    return Board(board.placements + tuple(laid)), scoring


def _touches(cells: dict[Cell, int], placement: Placement) -> bool:
    return any(
        (x + dx, y + dy) in cells
        for (x, y), _ in placement.cells
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
    )
