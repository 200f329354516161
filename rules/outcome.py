"""The end of a game: a typed outcome with scores and places (equal scores share a place)."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Outcome", "Termination", "places"]


class Termination(enum.Enum):
    """Why a game ended."""

    SHEETS_FULL = "sheets_full"  # dice games: every box of every sheet is filled
    RACK_EMPTY = "rack_empty"  # Rummikub: a player laid his last tile
    POOL_EXHAUSTED = "pool_exhausted"  # Rummikub: no tile to draw and a full round without a play
    WENT_OUT = "went_out"  # Kalooki: a player went out
    ROUNDS_PLAYED = "rounds_played"  # Zatre: every round played
    PUZZLE_ANSWERED = "puzzle_answered"  # a Rummikub puzzle: the answer given and scored


def seat_label(seat: int) -> str:
    """How the text output names a seat, as the screen does: ``P1`` for seat 0."""
    return f"P{seat + 1}"


def places(scores: Sequence[int], *, higher_is_better: bool = True) -> tuple[int, ...]:
    """Competition ranking, 1-based: equal scores share a place and the next place is skipped.

    >>> places([50, 70, 50, 10])
    (2, 1, 2, 4)
    >>> places([3, 0, 12], higher_is_better=False)
    (2, 1, 3)
    """
    sign = 1 if higher_is_better else -1
    return tuple(1 + sum(1 for other in scores if sign * other > sign * s) for s in scores)


@dataclass(frozen=True)
class Outcome:
    """Final scores (one per seat), places (1 = winner, shared on ties) and the termination."""

    termination: Termination
    scores: tuple[int, ...]
    places: tuple[int, ...]

    @classmethod
    def from_scores(
        cls, termination: Termination, scores: Sequence[int], *, higher_is_better: bool = True
    ) -> Outcome:
        return cls(termination, tuple(scores), places(scores, higher_is_better=higher_is_better))

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats in first place (several when tied)."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)
