"""The journal: every game and every confirmed action, durable in SQLite (WAL, ``synchronous=FULL``).

A game is its options plus its actions, so resuming after a power cut is ``rules.replay`` of the stored
actions. Each :meth:`Journal.append` is its own committed transaction: when it returns, the action
survives ``kill -9`` and power loss; a transaction cut short is rolled back by SQLite on the next open,
so the journal always ends at the last complete move.

A file that is not our database (not SQLite, another application's SQLite, a newer schema, or a damaged
file) is never written to: it is renamed aside with a timestamp (``journal.sqlite3.refused-20260101T120000``)
and a fresh journal is started; :attr:`Journal.set_aside` says what happened so the screen can show it.

>>> import tempfile, pathlib
>>> j = Journal.open(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite3")
>>> gid = j.start_game("yahtzee", {"players": 1}, ["Ala"])
>>> j.append(gid, 1, {"kind": "demo"}, seat=0, seconds=2.5)
>>> [a.action for a in j.actions(gid)]
[{'kind': 'demo'}]
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "Journal",
    "PlayerStats",
    "SetAside",
    "StoredAction",
    "StoredGame",
]

APPLICATION_ID = 0x54524546  # "TREF": marks the file as a Tabletop Referee journal
SCHEMA_VERSION = 1
SQLITE_HEADER = b"SQLite format 3\x00"

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    scores TEXT,
    places TEXT,
    abandoned INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    seat INTEGER,
    seconds REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
TABLES = {"games", "actions", "settings"}


@dataclass(frozen=True)
class SetAside:
    """A database file that was refused: where it went and why."""

    original: Path
    moved_to: Path
    reason: str


@dataclass(frozen=True)
class StoredAction:
    seq: int
    action: dict[str, Any]
    at: float
    seat: int | None
    seconds: float  # how long the seat took for this action (the move timer's measure)


@dataclass(frozen=True)
class StoredGame:
    id: int
    game: str
    options: dict[str, Any]
    players: tuple[str, ...]
    started: float
    finished: float | None
    scores: tuple[int, ...] | None
    places: tuple[int, ...] | None
    abandoned: bool


@dataclass(frozen=True)
class PlayerStats:
    game: str
    player: str
    played: int
    won: int
    best: int
    average: float


class JournalError(RuntimeError):
    """The journal could not be opened or written (disk full, permissions)."""


class Journal:
    def __init__(
        self, conn: sqlite3.Connection, path: Path, set_aside: SetAside | None, wall: Callable[[], float]
    ) -> None:
        self._conn = conn
        self.path = path
        self.set_aside = set_aside
        self._wall = wall

    @classmethod
    def open(cls, path: str | Path, *, wall: Callable[[], float] = time.time) -> Journal:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        set_aside = None
        reason = refusal_reason(path)
        if reason is not None:
            set_aside = _move_aside(path, reason, wall())
        conn = _connect(path)
        if _user_tables(conn) == set():
            with conn:
                conn.executescript(SCHEMA)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return cls(conn, path, set_aside, wall)

    def close(self) -> None:
        self._conn.close()

    # --- writing -------------------------------------------------------------------------------------

    def start_game(self, game: str, options: dict[str, Any], players: list[str] | tuple[str, ...]) -> int:
        with self._conn:
            cur = self._conn.execute(
                "INSERT INTO games (game, options, players, started) VALUES (?, ?, ?, ?)",
                (game, json.dumps(options, sort_keys=True), json.dumps(list(players)), self._wall()),
            )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def append(
        self, game_id: int, seq: int, action: dict[str, Any], *, seat: int | None = None, seconds: float = 0.0
    ) -> None:
        """Store action number ``seq`` (1-based) of a game; durable when this returns."""
        with self._conn:
            self._conn.execute(
                "INSERT INTO actions (game_id, seq, action, at, seat, seconds) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, json.dumps(action, separators=(",", ":")), self._wall(), seat, seconds),
            )

    def finish(self, game_id: int, scores: tuple[int, ...], places: tuple[int, ...]) -> None:
        with self._conn:
            self._conn.execute(
                "UPDATE games SET finished = ?, scores = ?, places = ? WHERE id = ?",
                (self._wall(), json.dumps(list(scores)), json.dumps(list(places)), game_id),
            )

    def abandon(self, game_id: int) -> None:
        """An unfinished game the players gave up: kept, but never resumed or counted."""
        with self._conn:
            self._conn.execute("UPDATE games SET abandoned = 1 WHERE id = ?", (game_id,))

    def set_setting(self, key: str, value: Any) -> None:
        with self._conn:
            self._conn.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, json.dumps(value)),
            )

    # --- reading -------------------------------------------------------------------------------------

    def setting(self, key: str, default: Any = None) -> Any:
        row = self._conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def unfinished(self) -> StoredGame | None:
        """The latest game that is neither finished nor abandoned: the one to resume."""
        row = self._conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE finished IS NULL AND abandoned = 0 "
            "ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else _game(row)

    def game(self, game_id: int) -> StoredGame:
        row = self._conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} in the journal")
        return _game(row)

    def games(self, *, finished_only: bool = False) -> list[StoredGame]:
        where = "WHERE finished IS NOT NULL" if finished_only else ""
        rows = self._conn.execute(f"SELECT {_GAME_COLUMNS} FROM games {where} ORDER BY id").fetchall()
        return [_game(r) for r in rows]

    def actions(self, game_id: int) -> list[StoredAction]:
        rows = self._conn.execute(
            "SELECT seq, action, at, seat, seconds FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [
            StoredAction(seq, json.loads(text), at, seat, seconds) for seq, text, at, seat, seconds in rows
        ]

    def statistics(self) -> list[PlayerStats]:
        """Per game and player name, over finished games: games played, won, best and average score."""
        table: dict[tuple[str, str], list[tuple[int, int]]] = {}
        for g in self.games(finished_only=True):
            if g.scores is None or g.places is None:
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


def game_key(game: StoredGame) -> str:
    """The game as players tell games apart: ``yahtzee:triple`` for a variant, else the game's name."""
    variant = game.options.get("variant")
    return f"{game.game}:{variant}" if isinstance(variant, str) and variant else game.game


_GAME_COLUMNS = "id, game, options, players, started, finished, scores, places, abandoned"


def _game(row: tuple[Any, ...]) -> StoredGame:
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


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level="DEFERRED", check_same_thread=False)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _user_tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name for (name,) in rows if not name.startswith("sqlite_")}


def refusal_reason(path: Path) -> str | None:
    """Why an existing file at ``path`` cannot be our journal, or ``None`` if it can (or is absent)."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    with path.open("rb") as f:
        if f.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            return "not an SQLite database"
    try:
        conn = sqlite3.connect(path)
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            tables = _user_tables(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return f"damaged SQLite database ({exc})"
    if app_id != APPLICATION_ID:
        return f"an SQLite database of another application (application_id {app_id:#x})"
    if version != SCHEMA_VERSION:
        return f"journal schema version {version}; this software reads version {SCHEMA_VERSION}"
    if check != "ok":
        return f"damaged SQLite database ({check})"
    if not tables >= TABLES:
        return f"journal tables missing: {', '.join(sorted(TABLES - tables))}"
    return None


def _move_aside(path: Path, reason: str, now: float) -> SetAside:
    stamp = time.strftime("%Y%m%dT%H%M%S", time.localtime(now))
    target = path.with_name(f"{path.name}.refused-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.refused-{stamp}-{n}")
        n += 1
    path.rename(target)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(target.with_name(target.name + suffix))
    return SetAside(path, target, reason)
