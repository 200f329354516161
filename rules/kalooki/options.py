"""Kalooki's rule options (RULES.md §4) and its one preset, ``seed``; the move time it allows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from rules.errors import OptionError
from rules.options import Options, Range

__all__ = ["MOVE_SECONDS", "KalookiOptions"]

MOVE_SECONDS = (30, 120)
"""The least and the most seconds of a move when the move timer is on."""


@dataclass(frozen=True)
class KalookiOptions(Options):
    """Options of a Kalooki session.

    ``initial_meld``: the least value of a player's first meld (51; the Kalooki-40 family uses 40).
    ``max_players``: 4, or 5 for club play. ``payout``: how the prize pool is shared (``payout.py``).
    ``pool_cents``: the prize pool of each deal in cents (0: play for points only). ``deals``: deals in
    the session. ``mode``: ``full`` (the engine holds every card: simulator, solo play) or ``referee``
    (only the table, the discards and the hand counts are seen; hands are revealed at the end).
    ``max_reshuffles``: after this many reshuffles, the next time the stock runs out ends the deal and
    the lowest hand wins (a safety cap: REFERENCE.md §1.5.12). ``move_seconds``: the move timer, off
    (0) by default — a Kalooki turn of drawing, laying and building takes as long as it takes —, else
    :data:`MOVE_SECONDS` (30–120 s).
    """

    players: int = 3
    initial_meld: Literal[40, 51] = 51
    max_players: Literal[4, 5] = 4
    payout: Literal["slice", "proportional"] = "slice"
    pool_cents: Annotated[int, Range(0, 100_000_000)] = 0
    deals: Annotated[int, Range(1, 100)] = 1
    mode: Literal["full", "referee"] = "full"
    max_reshuffles: Annotated[int, Range(0, 100)] = 3
    move_seconds: Annotated[int, Range(0, MOVE_SECONDS[1])] = 0  # 0: no move timer

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 5

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.players > self.max_players:
            raise OptionError("players", f"{self.players} players; allowed: 2–{self.max_players}")
        low, high = MOVE_SECONDS
        if 0 < self.move_seconds < low:
            raise OptionError("move_seconds", f"{self.move_seconds} s; allowed: 0 (off) or {low}–{high}")

    @property
    def move_limit_seconds(self) -> int:
        return self.move_seconds

    @classmethod
    def move_seconds_allowed(cls) -> tuple[int, int] | None:
        return MOVE_SECONDS
