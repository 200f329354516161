"""Rummikub rule options and presets (RULES.md §3): ``seed`` follows the Polish seed text,
``official`` the maker's home rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from rules.options import Options, Range

__all__ = ["RummikubOptions"]


@dataclass(frozen=True)
class RummikubOptions(Options):
    """``joker_penalty``: a joker left on a rack at the end (seed 50, official 30).
    ``redeal_on_pairs``: a player dealt ≥ 3 identical pairs may ask for a redeal (seed only).
    ``move_seconds`` / ``timeout_draw``: the move timer and the tiles drawn when it runs out during
    a manipulation. ``information``: ``full`` when the engine knows every rack (simulator, solo
    play, tests), ``referee`` when it sees only the table, the buttons and rack counts."""

    joker_penalty: Annotated[int, Range(0, 200)] = 50
    redeal_on_pairs: bool = True
    move_seconds: Annotated[int, Range(0, 3600)] = 60  # 0: no move timer
    timeout_draw: Annotated[int, Range(0, 10)] = 3
    information: Literal["full", "referee"] = "full"

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "official": {"joker_penalty": 30, "redeal_on_pairs": False}
    }
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4

    @property
    def move_limit_seconds(self) -> int:
        return self.move_seconds
