"""Kości for the coach: the exact solitaire optimum under RULES.md §2.

A turn-start state is ``(mask, small_zeros, large_zeros, poker)``: the filled boxes (bit ``i`` =
``BOXES[i]``), how many zero entries each section holds (capped at 1 — the line is +bonus or −penalty
once — or counted in full under ``penalty_per_zero``), and whether ``poker`` holds a non-zero score
(all the +50 joker bonus needs). The points of every move come from the engine's own :func:`score`;
a section's bonus or penalty is earned by the move that fills its last box, as the engine's
``total()`` counts it.

No optimum of this game had been published; the value is validated by a brute-force expectimax over
the engine's own sheet on positions with few open boxes and by simulating the optimal policy
(``tests/rules/coach/test_optimum.py``, ``bench/coach.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from rules.coach.dice_sets import ROLL_INDEX, ROLLS
from rules.dice_game import Sheet
from rules.poker_dice.scoring import BOXES, score
from rules.poker_dice.sheet import JOKER_BONUS, SECTIONS, PokerDiceSheet, Section

__all__ = ["SCORES", "KosciModel"]

#: ``SCORES[b, r]``: the engine's points of roll ``ROLLS[r]`` in box ``BOXES[b]``
SCORES = np.array([[score(box, roll) for roll in ROLLS] for box in BOXES], dtype=np.int64)
FIVES = np.array([ROLL_INDEX[(face,) * 5] for face in range(1, 7)], dtype=np.int64)
_IS_FIVE = np.zeros(len(ROLLS), dtype=bool)
_IS_FIVE[FIVES] = True
_POKER = BOXES.index("poker")
_SMALL, _LARGE = SECTIONS


def _bits(section: Section) -> int:
    return sum(1 << BOXES.index(box) for box in section.boxes)


_SECTION_BITS = (_bits(_SMALL), _bits(_LARGE))
#: which section (0 small, 1 large, -1 none) each box belongs to
_SECTION_OF = np.array(
    [0 if box in _SMALL.boxes else 1 if box in _LARGE.boxes else -1 for box in BOXES], dtype=np.int64
)


@dataclass(frozen=True)
class KosciModel:
    """Kości as a :class:`~rules.coach.model.DiceModel`; the options are the sheet's."""

    allow_voluntary_zero: bool = True
    penalty_per_zero: bool = False

    @property
    def game(self) -> str:
        return "poker_dice"

    @property
    def boxes(self) -> tuple[str, ...]:
        return BOXES

    @property
    def caps(self) -> tuple[int, int]:
        """The largest zero count each section's state keeps."""
        if self.penalty_per_zero:
            return len(_SMALL.boxes), len(_LARGE.boxes)
        return 1, 1

    @property
    def shape(self) -> tuple[int, ...]:
        small, large = self.caps
        return (1 << len(BOXES), small + 1, large + 1, 2)

    @property
    def signature(self) -> Mapping[str, object]:
        return {
            "game": "poker_dice",
            "allow_voluntary_zero": self.allow_voluntary_zero,
            "penalty_per_zero": self.penalty_per_zero,
        }

    def line(self, section: int, zeros: np.ndarray) -> np.ndarray:
        """The bonus or penalty of a full section with ``zeros`` zero entries."""
        s = SECTIONS[section]
        penalty = s.penalty * zeros if self.penalty_per_zero else np.full_like(zeros, s.penalty)
        return np.where(zeros == 0, s.bonus, penalty)

    def level_states(self, filled: int) -> np.ndarray:
        small_cap, large_cap = self.caps
        rows: list[tuple[int, int, int, int]] = []
        for mask in range(1 << len(BOXES)):
            if mask.bit_count() != filled:
                continue
            in_small = (mask & _SECTION_BITS[0]).bit_count()
            in_large = (mask & _SECTION_BITS[1]).bit_count()
            poker_filled = bool(mask & (1 << _POKER))
            for zs in range(min(small_cap, in_small) + 1):
                for zl in range(min(large_cap, in_large) + 1):
                    for pk in (0, 1) if poker_filled else (0,):
                        if poker_filled and not pk and zl == 0:
                            continue  # a zeroed poker is a zero entry of the large figures
                        rows.append((mask, zs, zl, pk))
        return np.array(rows, dtype=np.int64).reshape(-1, 4)

    def _after(self, states: np.ndarray, box: int, zero: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The section line earned and the next state of entering a (``zero``?) roll in ``box``."""
        mask, zs, zl, pk = (states[..., i] for i in range(4))
        bit = mask | (1 << box)
        counts = [zs, zl]
        section = int(_SECTION_OF[box])
        earned = np.zeros(np.broadcast(mask, zero).shape, dtype=np.int64)
        if section >= 0:
            counts[section] = np.minimum(self.caps[section], counts[section] + zero)
            complete = (bit & _SECTION_BITS[section]) == _SECTION_BITS[section]
            earned = np.where(complete, self.line(section, counts[section]), 0)
        poker = pk | ((box == _POKER) & ~zero) if box == _POKER else pk
        nxt = np.stack(np.broadcast_arrays(bit, counts[0], counts[1], poker), axis=-1)
        return earned, nxt

    def box_values(self, states: np.ndarray, values: np.ndarray) -> np.ndarray:
        n = len(states)
        mask, pk = states[:, 0], states[:, 3]
        out = np.empty((len(BOXES), len(ROLLS), n))
        is_open = ((mask[None, :] >> np.arange(len(BOXES))[:, None]) & 1) == 0  # (15, n)
        both = np.array([[False], [True]])  # a scoring roll, a zero entry
        for b in range(len(BOXES)):
            earned, nxt = self._after(states[None, :, :], b, both)  # (2, n), (2, n, 4)
            by_zero = earned + values[tuple(np.moveaxis(nxt, -1, 0))]
            zero_roll = (SCORES[b] == 0)[:, None]
            out[b] = SCORES[b][:, None] + np.where(zero_roll, by_zero[1][None, :], by_zero[0][None, :])
            out[b][:, ~is_open[b]] = -np.inf
        if not self.allow_voluntary_zero:
            scoring = ((SCORES[:, :, None] > 0) & is_open[:, None, :]).any(axis=0)  # (252, n)
            out[(SCORES[:, :, None] == 0) & scoring[None, :, :]] = -np.inf
        out[:, FIVES[:, None], np.flatnonzero(pk == 1)[None, :]] += JOKER_BONUS
        return out

    def step(self, states: np.ndarray, boxes: np.ndarray, rolls: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        mask, pk = states[:, 0], states[:, 3]
        points = SCORES[boxes, rolls].astype(float)
        zero = points == 0
        refused = (mask >> boxes) & 1 == 1
        if not self.allow_voluntary_zero:
            is_open = ((mask[:, None] >> np.arange(len(BOXES))[None, :]) & 1) == 0
            scoring = ((SCORES[:, rolls].T > 0) & is_open).any(axis=1)
            refused |= zero & scoring
        nxt = np.empty_like(states)
        for b in np.unique(boxes):
            rows = np.flatnonzero(boxes == b)
            earned, after = self._after(states[rows], int(b), zero[rows])
            points[rows] += earned
            nxt[rows] = after
        points += np.where(_IS_FIVE[rolls] & (pk == 1), JOKER_BONUS, 0)
        return np.where(refused, -np.inf, points), nxt

    def state_of(self, sheet: Sheet) -> tuple[int, ...]:
        if not isinstance(sheet, PokerDiceSheet):
            raise ValueError(f"the Kości coach needs a Kości sheet, got {type(sheet).__name__}")
        if (sheet.allow_voluntary_zero, sheet.penalty_per_zero) != (
            self.allow_voluntary_zero,
            self.penalty_per_zero,
        ):
            raise ValueError(
                "the sheet's zero rules (allow_voluntary_zero, penalty_per_zero) = "
                f"{(sheet.allow_voluntary_zero, sheet.penalty_per_zero)} differ from the table's"
            )
        mask = sum(1 << i for i, v in enumerate(sheet.entries) if v is not None)
        zeros = [sum(sheet.get(box) == 0 for box in s.boxes) for s in SECTIONS]
        small_cap, large_cap = self.caps
        poker = sheet.get("poker")
        return (mask, min(small_cap, zeros[0]), min(large_cap, zeros[1]), int(bool(poker)))
