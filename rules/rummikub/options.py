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
    play, tests), ``referee`` when it sees only the table, the buttons and rack counts.
    ``hands`` / ``target_score``: a game is ``hands`` hands, or ends sooner once a player's running
    total reaches ``target_score`` (when set). ``extensions``: how many times per game each player
    may add ``extension_seconds`` to his move clock (none in the ``tournament`` preset).
    ``learning``: the learning table (the coach, ``docs/rummikub-coach.md``): a player may show his
    rack before his move (``ShowRack``), and the device says after each move what it allowed; the
    device never turns it on under the ``tournament`` preset."""

    joker_penalty: Annotated[int, Range(0, 200)] = 50
    redeal_on_pairs: bool = True
    move_seconds: Annotated[int, Range(0, 3600)] = 60  # 0: no move timer
    timeout_draw: Annotated[int, Range(0, 10)] = 3
    information: Literal["full", "referee"] = "full"
    hands: Annotated[int, Range(1, 20)] = 1
    target_score: Annotated[int, Range(0, 5000)] = 0  # 0: no target, play ``hands`` hands
    extensions: Annotated[int, Range(0, 10)] = 3
    extension_seconds: Annotated[int, Range(10, 120)] = 30
    learning: bool = False

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "official": {"joker_penalty": 30, "redeal_on_pairs": False},
        "tournament": {"joker_penalty": 30, "redeal_on_pairs": False, "extensions": 0, "learning": False},
    }
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4

    @property
    def move_limit_seconds(self) -> int:
        return self.move_seconds
