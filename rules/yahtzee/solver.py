"""Generał (classic sheet) for the coach: the exact solitaire optimum (RULES.md §1).

A turn-start state is ``(mask, upper, flag)``: the filled boxes (bit ``i`` = ``BOXES[i]``), the upper
boxes' total capped at 63 (all the upper bonus needs) and whether the ``yahtzee`` box holds 50 (all the
+100 bonus needs). The points of every move come from the engine's own :func:`score` and
:func:`joker_score`; the joker rules are the sheet's (:class:`~rules.yahtzee.sheet.ClassicSheet`).

Options: ``joker`` ``"forced"`` / ``"free"`` as the engine; ``"verhoeff"``, the convention of
Verhoeff's published optimum (any open box; the lower boxes score full value only once the
``yahtzee`` box and the matching upper box are filled); or ``"none"`` (a five-of-a-kind scores like any
roll: the rules of Glenn's 245.87 optimum). ``yahtzee_bonus=False`` drops the +100.

Optimal expected scores from the empty sheet (tests): Verhoeff's rules 254.5896 (his published
value), the seed's forced joker 254.5877 (the forced joker takes away the free choice of box),
no bonus and no joker 245.8708 (Glenn).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from rules.coach.dice_sets import COUNTS, ROLL_INDEX, ROLLS
from rules.dice_game import Sheet
from rules.yahtzee.scoring import (
    BOXES,
    LOWER,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE,
    YAHTZEE_BONUS,
    joker_score,
    score,
)
from rules.yahtzee.sheet import ClassicSheet

__all__ = ["CAP", "FIVES", "JOKERS", "SCORES", "GeneralModel", "JokerRule"]

JokerRule = Literal["forced", "free", "verhoeff", "none"]

CAP = UPPER_BONUS_THRESHOLD
_YAHTZEE = BOXES.index("yahtzee")
_YAHTZEE_BIT = 1 << _YAHTZEE
_UPPER_MASK = (1 << len(UPPER)) - 1
_LOWER_BITS = sum(1 << BOXES.index(box) for box in LOWER)
_LOWER_IDS = np.array([BOXES.index(box) for box in LOWER])

#: ``SCORES[b, r]``: the engine's points of roll ``ROLLS[r]`` in box ``BOXES[b]``
SCORES = np.array([[score(box, roll) for roll in ROLLS] for box in BOXES], dtype=np.int64)
#: the five-of-a-kind rolls, faces 1–6
FIVES = np.array([ROLL_INDEX[(face,) * 5] for face in range(1, 7)], dtype=np.int64)
#: ``JOKERS[b, f]``: the full (joker) value of five ``f+1``s in box ``BOXES[b]``
JOKERS = np.array([[joker_score(box, (face,) * 5) for face in range(1, 7)] for box in BOXES], dtype=np.int64)
#: the face of each roll if it is a five-of-a-kind, else -1 (0-based face)
_FIVE_FACE = np.full(len(ROLLS), -1, dtype=np.int64)
_FIVE_FACE[FIVES] = np.arange(6)


def _reachable_upper() -> np.ndarray:
    """``(64, 64)`` bool: which capped upper totals a set of filled upper boxes can hold."""
    reach = np.zeros((1 << len(UPPER), CAP + 1), dtype=bool)
    reach[0, 0] = True
    for mask in range(1, 1 << len(UPPER)):
        low = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << low)
        for total in np.flatnonzero(reach[rest]):
            for count in range(6):
                reach[mask, min(CAP, int(total) + (low + 1) * count)] = True
    return reach


@dataclass(frozen=True)
class GeneralModel:
    """Classic Generał as a :class:`~rules.coach.model.DiceModel`."""

    joker: JokerRule = "forced"
    yahtzee_bonus: bool = True
    _reach: np.ndarray = field(default_factory=_reachable_upper, repr=False, compare=False)

    @property
    def game(self) -> str:
        return "yahtzee"

    @property
    def boxes(self) -> tuple[str, ...]:
        return BOXES

    @property
    def shape(self) -> tuple[int, ...]:
        return (1 << len(BOXES), CAP + 1, 2)

    @property
    def signature(self) -> Mapping[str, object]:
        return {
            "game": "yahtzee",
            "variant": "classic",
            "joker": self.joker,
            "yahtzee_bonus": self.yahtzee_bonus,
        }

    def level_states(self, filled: int) -> np.ndarray:
        rows: list[tuple[int, int, int]] = []
        for mask in range(1 << len(BOXES)):
            if mask.bit_count() != filled:
                continue
            flags = (0, 1) if self.yahtzee_bonus and mask & _YAHTZEE_BIT else (0,)
            for upper in np.flatnonzero(self._reach[mask & _UPPER_MASK]):
                rows.extend((mask, int(upper), flag) for flag in flags)
        return np.array(rows, dtype=np.int64).reshape(-1, 3)

    def box_values(self, states: np.ndarray, values: np.ndarray) -> np.ndarray:
        mask, upper, flag = states.T
        n = len(states)
        out = np.empty((len(BOXES), len(ROLLS), n))
        for b in range(len(BOXES)):
            bit = mask | (1 << b)
            if b < len(UPPER):
                # the next state depends on the roll only through the count of this face (0–5)
                points = (b + 1) * np.arange(6)[:, None]  # (6, 1)
                raised = upper[None, :] + points
                bonus = np.where((upper[None, :] < CAP) & (raised >= CAP), UPPER_BONUS, 0)
                by_count = points + bonus + values[bit[None, :], np.minimum(raised, CAP), flag[None, :]]
                out[b] = by_count[COUNTS[:, b]]
            elif b == _YAHTZEE and self.yahtzee_bonus:
                scored = SCORES[b] == YAHTZEE
                out[b] = SCORES[b][:, None] + np.where(
                    scored[:, None], values[bit, upper, 1][None, :], values[bit, upper, flag][None, :]
                )
            else:
                out[b] = SCORES[b][:, None] + values[bit, upper, flag][None, :]
            out[b][:, (mask & (1 << b)) != 0] = -np.inf
        if self.joker != "none":
            self._joker_values(states, values, out)
        if self.yahtzee_bonus:
            out[:, FIVES[:, None], np.flatnonzero(flag == 1)[None, :]] += YAHTZEE_BONUS
        return out

    def _joker_values(self, states: np.ndarray, values: np.ndarray, out: np.ndarray) -> None:
        """Rewrite the five-of-a-kind columns of the states whose ``yahtzee`` box is filled."""
        rows = np.flatnonzero(states[:, 0] & _YAHTZEE_BIT)
        if not len(rows):
            return
        mask, upper, flag = states[rows].T
        is_open = ((mask[None, :] >> np.arange(len(BOXES))[:, None]) & 1) == 0  # (13, j)
        open_lower = (mask & _LOWER_BITS) != _LOWER_BITS
        lower_next = values[mask[None, :] | (1 << _LOWER_IDS[:, None]), upper[None, :], flag[None, :]]
        for face, r in enumerate(FIVES):
            column = out[:, r, rows]  # (13, j), a copy
            joker = np.where(is_open[_LOWER_IDS], JOKERS[_LOWER_IDS, face][:, None] + lower_next, -np.inf)
            if self.joker == "free":
                column[_LOWER_IDS] = joker
            elif self.joker == "verhoeff":
                column[_LOWER_IDS] = np.where(is_open[face][None, :], column[_LOWER_IDS], joker)
            else:
                matching = is_open[face]
                # (a) the matching upper box when open; (b) else the open lower boxes at full value;
                # (c) else 0 in an open upper box
                keep_matching = np.where(matching, column[face], -np.inf)
                column[:] = -np.inf
                column[face] = keep_matching
                column[_LOWER_IDS] = np.where((~matching & open_lower)[None, :], joker, -np.inf)
                zero_upper = ~matching & ~open_lower
                for u in range(len(UPPER)):
                    take = zero_upper & is_open[u]
                    column[u] = np.where(take, values[mask | (1 << u), upper, flag], column[u])
            out[:, r, rows] = column

    def step(self, states: np.ndarray, boxes: np.ndarray, rolls: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        mask, upper, flag = states.T
        face = _FIVE_FACE[rolls]
        is_open = (mask >> boxes) & 1 == 0
        points = SCORES[boxes, rolls].astype(float)
        joker = (face >= 0) & ((mask & _YAHTZEE_BIT) != 0) & (self.joker != "none")
        is_lower = boxes >= len(UPPER)
        if self.joker == "free":
            points = np.where(joker & is_lower, JOKERS[boxes, face], points)
        elif self.joker == "verhoeff":
            matching_filled = (mask >> np.maximum(face, 0)) & 1 == 1
            points = np.where(joker & is_lower & matching_filled, JOKERS[boxes, face], points)
        elif self.joker == "forced":
            matching_open = (mask >> np.maximum(face, 0)) & 1 == 0
            open_lower = (mask & _LOWER_BITS) != _LOWER_BITS
            allowed = np.where(matching_open, boxes == face, np.where(open_lower, is_lower, ~is_lower))
            points = np.where(joker & ~matching_open & is_lower, JOKERS[boxes, face], points)
            points = np.where(joker & ~matching_open & ~open_lower, 0.0, points)
            is_open &= ~joker | allowed
        upper_points = np.where(is_lower, 0, points).astype(np.int64)
        raised = upper + upper_points
        points = points + np.where(~is_lower & (upper < CAP) & (raised >= CAP), UPPER_BONUS, 0)
        if self.yahtzee_bonus:
            points = points + np.where((face >= 0) & (flag == 1), YAHTZEE_BONUS, 0)
            flag = flag | ((boxes == _YAHTZEE) & (SCORES[_YAHTZEE, rolls] == YAHTZEE))
        nxt = np.stack([mask | (1 << boxes), np.minimum(raised, CAP), flag], axis=1)
        return np.where(is_open, points, -np.inf), nxt

    def state_of(self, sheet: Sheet) -> tuple[int, ...]:
        if not isinstance(sheet, ClassicSheet):
            raise ValueError(f"the Generał coach needs a classic sheet, got {type(sheet).__name__}")
        if self.joker in ("forced", "free") and sheet.joker != self.joker:
            raise ValueError(f"the sheet plays the {sheet.joker} joker, the table the {self.joker} joker")
        mask = sum(1 << i for i, v in enumerate(sheet.entries) if v is not None)
        upper = min(CAP, sum(v for v in sheet.entries[: len(UPPER)] if v is not None))
        flag = int(self.yahtzee_bonus and sheet.get("yahtzee") == YAHTZEE)
        return (mask, upper, flag)
