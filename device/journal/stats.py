"""The statistics of the history: per game (a variant apart) and player name, over finished games."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from device.journal.records import StoredGame

__all__ = ["PlayerStats", "game_key", "statistics"]


@dataclass(frozen=True)
class PlayerStats:
    game: str
    player: str
    played: int
    won: int
    best: int
    average: float


def game_key(game: StoredGame) -> str:
    """The game as players tell games apart: ``yahtzee:triple`` for a variant, else the game's name."""
    import rules

    try:
        variant = rules.get_game(game.game).variant_of(game.options)
    except KeyError:
        variant = None
    return f"{game.game}:{variant}" if isinstance(variant, str) and variant else game.game


def statistics(games: Iterable[StoredGame]) -> list[PlayerStats]:
    """Per game and player name, over the finished ``games``: games played, won, best and average score."""
    table: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for g in games:
        if g.finished is None or g.scores is None or g.places is None:
            continue
        for name, score, place in zip(g.players, g.scores, g.places, strict=False):
            table.setdefault((game_key(g), name), []).append((score, place))
    return [
        PlayerStats(
            game=game,
            player=player,
            played=len(results),
            won=sum(1 for _, place in results if place == 1),
            best=max(score for score, _ in results),
            average=sum(score for score, _ in results) / len(results),
        )
        for (game, player), results in sorted(table.items())
    ]
