"""What the journal stores and returns: games, actions, corrected readings, what happened to a refused
file, and the journal's errors; a stored row read back as its value."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "GAME_COLUMNS",
    "JournalError",
    "JournalLocked",
    "JsonObject",
    "ReadingFix",
    "Result",
    "Row",
    "Salvage",
    "SetAside",
    "StoredAction",
    "StoredCorrection",
    "StoredGame",
    "game_from_row",
    "load_action",
]

# The two places the journal takes values untyped from the standard library, each read where it is used:
# a row as sqlite3 gives it (each column int, float, str, bytes or None: the schema says which), and a
# JSON object as json.loads gives it (an action, a game's options: the rules read them).
Row = tuple[Any, ...]
JsonObject = dict[str, Any]


@dataclass(frozen=True)
class SetAside:
    """A database file that was refused: where it went, why, and whether :meth:`Journal.salvage` can
    read games from it (a damaged journal of ours; not another application's file)."""

    original: Path
    moved_to: Path
    reason: str
    salvageable: bool = False


@dataclass(frozen=True)
class Salvage:
    """What :meth:`Journal.salvage` copied from a refused file: games and actions saved, and the games
    found whose rows could not be read at all."""

    source: Path
    games: int
    actions: int
    unreadable: int


@dataclass(frozen=True)
class StoredAction:
    seq: int
    action: JsonObject | str  # the action's JSON object; its raw text if that is not valid JSON
    at: float
    seat: int | None
    seconds: float  # how long the seat took for this action (the move timer's measure)


@dataclass(frozen=True)
class ReadingFix:
    """One item of a camera reading the players corrected before the action it entered: which item
    (its index in the reading), of what (``tile``, ``die``, later ``card``), what the reader said and
    what the players entered (the same text when they confirmed an unsure reading), the reader's
    confidence where it gives one, and whether the reader was sure of it (a confident misread when
    ``read != entered``)."""

    item: int
    kind: str
    read: str
    entered: str
    confidence: float | None = None
    sure: bool = True

    @property
    def misread(self) -> bool:
        return self.read != self.entered


@dataclass(frozen=True)
class StoredCorrection:
    """A :class:`ReadingFix` as the journal keeps it: the game and the action (``seq``) it went with."""

    game_id: int
    seq: int
    fix: ReadingFix


@dataclass(frozen=True)
class StoredGame:
    id: int
    game: str
    options: JsonObject
    players: tuple[str, ...]
    started: float
    finished: float | None
    scores: tuple[int, ...] | None
    places: tuple[int, ...] | None
    abandoned: bool


class JournalError(RuntimeError):
    """The journal could not be opened or written (disk full, read-only, not a file): the message says
    what and where, for the screen and the log."""


class JournalLocked(JournalError):
    """Another process holds the journal locked: nothing is wrong with it; try again later."""


Result = tuple[tuple[int, ...], tuple[int, ...]]  # a finished game's scores and places


GAME_COLUMNS = "id, game, options, players, started, finished, scores, places, abandoned"


def game_from_row(row: Row) -> StoredGame:
    gid, game, options, players, started, finished, scores, places, abandoned = row
    return StoredGame(
        id=gid,
        game=game,
        options=json.loads(options),
        players=tuple(json.loads(players)),
        started=started,
        finished=finished,
        scores=None if scores is None else tuple(json.loads(scores)),
        places=None if places is None else tuple(json.loads(places)),
        abandoned=bool(abandoned),
    )


def load_action(text: str) -> JsonObject | str:
    """An action's JSON object, or its text when that does not parse (bad JSON, nested too deeply):
    the decoder then refuses it with its own clear error and the game resumes before it."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return text
    return value if isinstance(value, dict) else text
