"""Ranked advice for one moment of a turn, from any coach (an exact table or the triple heuristic).

``advise(coach, sheet, dice, rolls_left)`` lists every choice the player has now, best first, each
with the expected final total it leads to and its loss against the best:

- with rolls left (1 or 2): every distinct hold of 0–4 dice (rolling again) and every legal box
  (stopping now); holding all five dice is not listed — it is the same as choosing a box now or later;
- after the last roll (``rolls_left=0``): every legal box.

A hold is named by the positions of the held dice in ``dice`` (the first matching positions).

>>> from rules.coach.advice import Choice
>>> str(Choice("hold", (0, 1), None, (6, 6), 251.25, 0.0))
'hold 6 6  251.25'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np

from rules.coach.dice_sets import KEEPS, SUBKEEP_COUNT, SUBKEEPS, roll_index
from rules.coach.widget import Turn, solve_turns
from rules.dice_game import MAX_ROLLS, Sheet

__all__ = ["Choice", "Coach", "advise", "choice_loss", "hold_positions"]


class Coach(Protocol):
    """What advice needs: the value of each box move and the turn's roll/hold values."""

    @property
    def exact(self) -> bool:
        """True for a proven optimum, False for a heuristic."""
        ...

    @property
    def box_names(self) -> tuple[str, ...]: ...

    def box_values(self, sheet: Sheet) -> np.ndarray:
        """``(boxes, 252)``: points still to come after each move (``-inf`` refused)."""
        ...

    def turn(self, sheet: Sheet) -> Turn:
        """The current turn solved (values = points still to come)."""
        ...

    def expected_final(self, sheet: Sheet) -> float:
        """The expected final total from ``sheet`` at the start of a turn."""
        ...


@dataclass(frozen=True)
class Choice:
    """One thing the player may do now: hold dice (and roll) or enter the dice in a box."""

    kind: Literal["hold", "box"]
    hold: tuple[int, ...]  # positions held (``hold``); empty for a box
    box: str | None
    kept: tuple[int, ...]  # the values held (``hold``); the whole roll for a box
    expected: float  # the expected final total after this choice, then optimal play
    loss: float  # expected points lost against the best choice

    def __str__(self) -> str:
        what = f"hold {' '.join(map(str, self.kept)) or 'nothing'}" if self.kind == "hold" else str(self.box)
        loss = f"  -{self.loss:.2f}" if self.loss > 0.005 else ""
        return f"{what}  {self.expected:.2f}{loss}"


def hold_positions(dice: Sequence[int], kept: Sequence[int]) -> tuple[int, ...]:
    """The first positions of ``dice`` showing the values ``kept``."""
    left = list(kept)
    held = []
    for position, value in enumerate(dice):
        if value in left:
            left.remove(value)
            held.append(position)
    return tuple(held)


def _check(dice: Sequence[int], rolls_left: int) -> int:
    if rolls_left not in range(MAX_ROLLS):
        raise ValueError(f"rolls left must be 0, 1 or 2 (after the first roll of a turn), got {rolls_left}")
    return roll_index(dice)


def advise(coach: Coach, sheet: Sheet, dice: Sequence[int], rolls_left: int) -> list[Choice]:
    """Every choice now, best first (see the module docstring)."""
    r = _check(dice, rolls_left)
    if sheet.is_full:
        raise ValueError("the sheet is full: there is nothing left to choose")
    total = sheet.total()
    values = coach.box_values(sheet)
    found: list[tuple[float, Choice]] = []
    for b in np.flatnonzero(np.isfinite(values[:, r])):
        box = coach.box_names[b]
        found.append((float(values[b, r]), Choice("box", (), box, tuple(sorted(dice)), 0.0, 0.0)))
    if rolls_left:
        keeps = solve_turns(values.max(axis=0)[:, None]).keeps(rolls_left)[:, 0]
        for k in SUBKEEPS[r, : SUBKEEP_COUNT[r]]:
            kept = KEEPS[k]
            if len(kept) == len(dice):
                continue
            found.append((float(keeps[k]), Choice("hold", hold_positions(dice, kept), None, kept, 0.0, 0.0)))
    best = max(v for v, _ in found)
    ranked = sorted(found, key=lambda item: -item[0])
    return [Choice(c.kind, c.hold, c.box, c.kept, total + v, max(0.0, best - v)) for v, c in ranked]


def choice_loss(
    coach: Coach,
    sheet: Sheet,
    dice: Sequence[int],
    rolls_left: int,
    *,
    held: Sequence[int] | None = None,
    box: str | None = None,
) -> tuple[float, Choice, Choice]:
    """The points a decision loses: (loss, the best choice, the choice made) for holding the dice at
    positions ``held`` (a roll follows) or entering the dice in ``box``. Holding all five dice counts
    as the best stop."""
    choices = advise(coach, sheet, dice, rolls_left)
    best = choices[0]
    if box is not None:
        made = next((c for c in choices if c.kind == "box" and c.box == box), None)
        if made is None:
            raise ValueError(f"{box!r} is not a legal box for {tuple(dice)}")
        return made.loss, best, made
    if held is None:
        raise ValueError("name the held positions or the box")
    kept = tuple(sorted(dice[p] for p in held))
    if len(kept) == len(dice):
        stop = next(c for c in choices if c.kind == "box")
        return stop.loss, best, stop
    made = next(c for c in choices if c.kind == "hold" and c.kept == kept)
    return made.loss, best, made
