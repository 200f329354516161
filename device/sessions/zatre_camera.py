"""What the camera's reading of a Zatre board says about a turn: the board the engine holds (the last
accepted board) against the cards the camera sees.

The reader counts cells from the top-left half it sees, so the reading is first laid over the
accepted board: of every shift (and quarter turn) that puts a seen half on a laid half of the same
value, the one that matches the most laid halves is taken; between equals, the one that puts the laid
halves where the camera saw them last (``known``: the frame pixel of each laid cell in the last
accepted reading — the camera does not move). Then:

- a laid half seen elsewhere, or not at all while the camera saw that cell surely, is a card **moved
  or taken away** (the turn is refused, naming the cards);
- the sure cards seen on cells nothing was laid on are **the turn**;
- an unsure half on a new cell, or over a laid cell, leaves the reading unsure (the players tap).

>>> from rules.zatre import Board, Placement
>>> from vision.zatre import SeenHalf, ZatreObservation
>>> def seen(*texts):
...     halves = []
...     for n, text in enumerate(texts):
...         p = Placement.parse(text)
...         for k, (cell, value) in enumerate(p.cells):
...             halves.append(SeenHalf(value, cell, (0.0, 0.0), 40.0, 2 * n + 1 - k, 1.0))
...     return ZatreObservation(tuple(halves))
>>> board = Board((Placement.parse("5|6@3,3H"),))
>>> diff = board_diff(board, seen("5|6@0,0H", "1|2@0,1H"))
>>> [str(p) for p in diff.new], diff.moved
(['1|2@3,4H'], ())
>>> [str(p) for p in board_diff(board, seen("1|2@0,1H")).moved]
['5|6@3,3H']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.zatre import Board, Card, Placement
from rules.zatre.board import Orientation
from vision.zatre import ZatreObservation

__all__ = ["BoardDiff", "board_diff", "seen_at"]

Cell = tuple[int, int]
TURNS = 4


@dataclass(frozen=True)
class BoardDiff:
    """The reading laid over the accepted board: the new cards (in the engine's cells), the laid
    cards moved or taken away, the unsure new halves (engine cells), how the reading was laid over
    (shift and quarter turns) and how many laid halves it matched."""

    new: tuple[Placement, ...]
    moved: tuple[Placement, ...]
    unsure: tuple[Cell, ...]
    shift: tuple[int, int]
    turns: int
    matched: int

    @property
    def clean(self) -> bool:
        return not self.moved and not self.unsure


def _turn(cell: Cell, turns: int) -> Cell:
    x, y = cell
    for _ in range(turns % TURNS):
        x, y = -y, x
    return x, y


def _cells(observation: ZatreObservation, turns: int) -> dict[Cell, int | None]:
    """Seen cells (turned) and their values; ``None`` for an unsure half (its value, or its cell: a
    half off its cell is put on the nearest)."""
    out: dict[Cell, int | None] = {}
    for half in observation.halves:
        if half.cell is None:
            continue
        cell = _turn(half.cell, turns)
        if cell in out and out[cell] is not None and not half.placed:
            continue
        out[cell] = half.value if half.value_sure else None
    return out


def _best_fit(
    laid: dict[Cell, int], observation: ZatreObservation, known: dict[Cell, tuple[float, float]]
) -> tuple[tuple[int, int], int, int]:
    """The shift and quarter turns laying the reading over the laid cells best (most equal values,
    then nearest to where the camera saw them last)."""
    best = ((0, 0), 0, -1)
    best_error = 0.0
    if not laid:
        return best
    centres = [(_turn(h.cell, 0), h.center) for h in observation.halves if h.cell is not None and h.placed]
    for turns in range(TURNS):
        seen = _cells(observation, turns)
        shifts: set[tuple[int, int]] = set()
        for (sx, sy), value in seen.items():
            for (lx, ly), laid_value in laid.items():
                if value == laid_value:
                    shifts.add((lx - sx, ly - sy))
        for dx, dy in sorted(shifts):
            matched = sum(
                1 for (sx, sy), v in seen.items() if v is not None and laid.get((sx + dx, sy + dy)) == v
            )
            error = 0.0
            for cell, centre in centres:
                x, y = _turn(cell, turns)
                was = known.get((x + dx, y + dy))
                error += 0.0 if was is None else (was[0] - centre[0]) ** 2 + (was[1] - centre[1]) ** 2
            if matched > best[2] or (matched == best[2] and error < best_error):
                best, best_error = ((dx, dy), turns, matched), error
    return best


def seen_at(diff: BoardDiff, observation: ZatreObservation) -> dict[Cell, tuple[float, float]]:
    """Where (frame pixels) the reading saw each engine cell, laid over the board as ``diff`` says."""
    dx, dy = diff.shift
    out = {}
    for half in observation.halves:
        if half.cell is not None and half.placed:
            x, y = _turn(half.cell, diff.turns)
            out[(x + dx, y + dy)] = half.center
    return out


def board_diff(
    board: Board, observation: ZatreObservation, known: dict[Cell, tuple[float, float]] | None = None
) -> BoardDiff:
    """The reading against the accepted ``board`` (see the module docstring)."""
    laid = board.cells
    shift, turns, matched = _best_fit(laid, observation, known or {})
    dx, dy = shift
    seen = {(x + dx, y + dy): v for (x, y), v in _cells(observation, turns).items()}
    # A laid half not seen at all is moved only when the camera saw the board clearly (no unsure half,
    # so no hand over it); else it is unsure, like a laid half seen unsure.
    hidden = None if observation.uncertain else -1
    moved = tuple(
        p
        for p in board.placements
        if any(seen.get(cell, hidden) not in (value, None) for cell, value in p.cells)
    )
    unsure_laid = [cell for cell in laid if seen.get(cell, hidden) is None]
    new: list[Placement] = []
    unsure: list[Cell] = [c for c, v in seen.items() if v is None and c not in laid]
    for placement in observation.placements():
        cells = [(_turn(cell, turns), value) for cell, value in placement.cells]
        moved_cells = [((x + dx, y + dy), v) for (x, y), v in cells]
        if any(cell in laid for cell, _ in moved_cells):
            continue
        new.append(_placement(moved_cells))
    # Halves seen on new cells that belong to no sure card (their card unclear) are unsure too.
    in_new = {cell for p in new for cell, _ in p.cells}
    for half in observation.halves:
        if half.cell is None or not half.placed or not half.value_sure:
            continue
        x, y = _turn(half.cell, turns)
        cell = (x + dx, y + dy)
        if cell not in laid and cell not in in_new and cell not in unsure:
            unsure.append(cell)
    return BoardDiff(
        tuple(sorted(new)), moved, tuple(sorted({*unsure, *unsure_laid})), shift, turns, max(0, matched)
    )


def _placement(cells: Iterable[tuple[Cell, int]]) -> Placement:
    (a, va), (b, vb) = sorted(cells)
    orientation: Orientation = "H" if a[1] == b[1] else "V"
    return Placement(Card(va, vb), a[0], a[1], orientation)
