"""The journal: every game and every confirmed action, durable in SQLite (WAL, ``synchronous=FULL``).

A game is its options plus its actions, so resuming after a power cut is ``rules.replay`` of the stored
actions. Each :meth:`Journal.append` is its own committed transaction: when it returns, the action
survives ``kill -9`` and power loss; a transaction cut short is rolled back by SQLite on the next open,
so the journal always ends at the last complete move. The action that ends a game and the game's result
are one transaction (``append(..., finish=...)``); a journal in which a game's actions say it is over
but the game is not marked finished (written by older versions) is repaired on open.

A new journal is built in ``journal.sqlite3.new`` in one transaction and renamed into place, so a kill
or a full disk never leaves a half-made journal at the path.

A file that is not our database (not SQLite, another application's SQLite, a newer schema, or a damaged
file) is inspected read-only and never written to: it is renamed aside with a timestamp
(``journal.sqlite3.refused-20260101T120000``, with its ``-wal``/``-journal`` files) and a fresh journal
is started; :attr:`Journal.set_aside` says what happened so the screen can show it, and
:meth:`Journal.salvage` copies every game that can still be read from a damaged journal into the new one.

A journal that another process holds locked is not damaged: :class:`JournalLocked`, nothing is moved.
A state directory that is read-only or cannot be created, a directory at the journal path, a full
disk: :class:`JournalError` with a message for the screen and the log.

>>> import tempfile, pathlib
>>> j = Journal.open(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite3")
>>> gid = j.start_game("yahtzee", {"players": 1}, ["Ala"])
>>> j.append(gid, 1, {"kind": "demo"}, seat=0, seconds=2.5)
>>> [a.action for a in j.actions(gid)]
[{'kind': 'demo'}]
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "Journal",
    "JournalError",
    "JournalLocked",
    "PlayerStats",
    "ReadingFix",
    "Salvage",
    "SetAside",
    "StoredAction",
    "StoredCorrection",
    "StoredGame",
]

log = logging.getLogger(__name__)

APPLICATION_ID = 0x54524546  # "TREF": marks the file as a Tabletop Referee journal
SCHEMA_VERSION = 1
SQLITE_HEADER = b"SQLite format 3\x00"
SIDE_FILES = ("-wal", "-shm", "-journal")
BUSY_SECONDS = 5.0  # how long a statement waits for another process's lock before JournalLocked

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
# The readings the players corrected, beside the action each entered (added to journals made before it
# on open: an older appliance reads a journal with it as before).
CORRECTIONS_SCHEMA = """
CREATE TABLE IF NOT EXISTS corrections (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    item INTEGER NOT NULL,
    kind TEXT NOT NULL,
    read TEXT NOT NULL,
    entered TEXT NOT NULL,
    confidence REAL,
    sure INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq, item)
);
"""
TABLES = {"games", "actions", "settings"}  # every journal has these
OPTIONAL_TABLES = {"corrections"}  # created on open where missing


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
    action: dict[str, Any] | str  # the action's JSON object; its raw text if that is not valid JSON
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
    """The journal could not be opened or written (disk full, read-only, not a file): the message says
    what and where, for the screen and the log."""


class JournalLocked(JournalError):
    """Another process holds the journal locked: nothing is wrong with it; try again later."""


Result = tuple[tuple[int, ...], tuple[int, ...]]  # a finished game's scores and places


class Journal:
    def __init__(
        self, conn: sqlite3.Connection, path: Path, set_aside: SetAside | None, wall: Callable[[], float]
    ) -> None:
        self._conn = conn
        self.path = path
        self.set_aside = set_aside
        self.salvaged: Salvage | None = None
        self.repaired: tuple[int, ...] = ()  # games finished on open (their actions said they were over)
        self._wall = wall

    @classmethod
    def open(
        cls, path: str | Path, *, wall: Callable[[], float] = time.time, busy_seconds: float = BUSY_SECONDS
    ) -> Journal:
        path = Path(path)
        _check_place(path)
        try:
            _remove(_new_path(path))  # a creation cut short by a kill: never the journal
            set_aside = None
            reason = refusal_reason(path, busy_seconds=busy_seconds)
            if reason == HALF_MADE:
                log.warning("journal %s: an empty, half-made journal; starting it afresh", path)
                _remove(path)
            elif reason is not None:
                set_aside = _move_aside(path, reason, wall())
                log.warning("journal %s refused (%s); kept as %s", path, reason, set_aside.moved_to)
            if not path.exists() or path.stat().st_size == 0:
                _create(path)
            conn = _connect(path, busy_seconds)
            with conn:
                conn.execute(CORRECTIONS_SCHEMA)
        except sqlite3.Error as exc:
            raise _error(exc, f"cannot open the journal {path}") from exc
        except OSError as exc:
            raise JournalError(f"cannot open the journal {path}: {_os_reason(exc)}") from exc
        journal = cls(conn, path, set_aside, wall)
        journal.repaired = journal._repair_finished()
        return journal

    def close(self) -> None:
        self._conn.close()

    # --- writing -------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _writing(self, what: str) -> Iterator[sqlite3.Connection]:
        """One transaction; SQLite's failures become :class:`JournalError` (a repeated key stays the
        ``IntegrityError`` it is: a bug, not a place problem)."""
        try:
            with self._conn:
                yield self._conn
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise _error(exc, f"cannot {what} in the journal {self.path}") from exc

    def start_game(self, game: str, options: dict[str, Any], players: list[str] | tuple[str, ...]) -> int:
        with self._writing("start a game") as conn:
            cur = conn.execute(
                "INSERT INTO games (game, options, players, started) VALUES (?, ?, ?, ?)",
                (game, json.dumps(options, sort_keys=True), json.dumps(list(players)), self._wall()),
            )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def append(
        self,
        game_id: int,
        seq: int,
        action: dict[str, Any],
        *,
        seat: int | None = None,
        seconds: float = 0.0,
        finish: Result | None = None,
        corrections: Sequence[ReadingFix] = (),
    ) -> None:
        """Store action number ``seq`` (1-based) of a game; durable when this returns. ``finish`` (the
        scores and places) when this action ends the game, ``corrections`` the items of the reading
        it came from that the players corrected: all one transaction."""
        with self._writing("store an action") as conn:
            conn.execute(
                "INSERT INTO actions (game_id, seq, action, at, seat, seconds) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, json.dumps(action, separators=(",", ":")), self._wall(), seat, seconds),
            )
            if corrections:
                conn.executemany(
                    "INSERT INTO corrections (game_id, seq, item, kind, read, entered, confidence, sure) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (game_id, seq, f.item, f.kind, f.read, f.entered, f.confidence, int(f.sure))
                        for f in corrections
                    ],
                )
            if finish is not None:
                self._finish(conn, game_id, *finish)

    def finish(self, game_id: int, scores: tuple[int, ...], places: tuple[int, ...]) -> None:
        with self._writing("finish a game") as conn:
            self._finish(conn, game_id, scores, places)

    def _finish(
        self, conn: sqlite3.Connection, game_id: int, scores: tuple[int, ...], places: tuple[int, ...]
    ) -> None:
        conn.execute(
            "UPDATE games SET finished = ?, scores = ?, places = ? WHERE id = ?",
            (self._wall(), json.dumps(list(scores)), json.dumps(list(places)), game_id),
        )

    def abandon(self, game_id: int, scores: tuple[int, ...] | None = None) -> None:
        """An unfinished game the players gave up (left): kept with its ``scores`` so far (when known)
        for the history, but never resumed, exported or counted in the statistics."""
        with self._writing("put a game aside") as conn:
            if scores is None:
                conn.execute("UPDATE games SET abandoned = 1 WHERE id = ?", (game_id,))
            else:
                conn.execute(
                    "UPDATE games SET abandoned = 1, scores = ? WHERE id = ?",
                    (json.dumps(list(scores)), game_id),
                )

    def set_setting(self, key: str, value: Any) -> None:
        with self._writing("store a setting") as conn:
            conn.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, json.dumps(value)),
            )

    # --- repair and salvage --------------------------------------------------------------------------

    def _repair_finished(self) -> tuple[int, ...]:
        """Finish every open game whose actions replay to the end (older versions wrote the last action
        and the result in two transactions; a kill between them left a finished game open)."""
        repaired = []
        rows = self._conn.execute("SELECT id FROM games WHERE finished IS NULL AND abandoned = 0").fetchall()
        for (game_id,) in rows:
            stored = self.game(game_id)
            result = _replayed_result(stored, [a.action for a in self.actions(game_id)])[1]
            if result is not None:
                self.finish(game_id, *result)
                repaired.append(game_id)
                log.warning("journal: game %s had ended but was not marked finished; finished it", game_id)
        return tuple(repaired)

    def salvage(self, source: str | Path) -> Salvage:
        """Copy every game that can still be read from ``source`` (a refused journal of ours, opened
        read-only) into this journal: each game with the actions that read and replay, in order, up to
        the first one that does not; its result if those actions end it. Also the settings kept there.
        Returns the counts; ``source`` is left as it is."""
        source = Path(source)
        try:
            src = sqlite3.connect(_read_only_uri(source), uri=True, timeout=BUSY_SECONDS)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read {source.name}: {exc}") from exc
        try:
            try:
                app_id = src.execute("PRAGMA application_id").fetchone()[0]
            except sqlite3.DatabaseError as exc:
                raise JournalError(f"cannot read {source.name}: {exc}") from exc
            if app_id != APPLICATION_ID:
                raise JournalError(f"{source.name} is not a Tabletop Referee journal")
            games = actions = unreadable = 0
            for game_id in _readable_ids(src):
                row = _try_row(src, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
                stored = _try_game(row)
                if stored is None:
                    unreadable += 1
                    continue
                rows = _readable_actions(src, game_id)
                count, result = _replayed_result(stored, [_load(r[1]) for r in rows])
                fixes = _tolerant_rows(
                    src,
                    "SELECT seq, item, kind, read, entered, confidence, sure FROM corrections "
                    f"WHERE game_id = {int(game_id)} AND seq <= {count} ORDER BY seq, item",
                )
                self._copy_game(stored, rows[:count], result, fixes)
                games += 1
                actions += count
            for key, value in _tolerant_rows(src, "SELECT key, value FROM settings ORDER BY key"):
                with self._writing("store a setting") as conn:
                    conn.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, value))
        finally:
            src.close()
        self.salvaged = Salvage(source, games, actions, unreadable)
        log.warning("journal: salvaged %d games with %d actions from %s", games, actions, source)
        return self.salvaged

    def _copy_game(
        self,
        stored: StoredGame,
        rows: list[tuple[Any, ...]],
        result: Result | None,
        fixes: Sequence[tuple[Any, ...]] = (),
    ) -> None:
        with self._writing("store a salvaged game") as conn:
            cur = conn.execute(
                "INSERT INTO games (game, options, players, started, abandoned) VALUES (?, ?, ?, ?, ?)",
                (
                    stored.game,
                    json.dumps(stored.options, sort_keys=True),
                    json.dumps(list(stored.players)),
                    stored.started,
                    int(stored.abandoned),
                ),
            )
            new_id = cur.lastrowid
            conn.executemany(
                "INSERT INTO actions (game_id, seq, action, at, seat, seconds) VALUES (?, ?, ?, ?, ?, ?)",
                [(new_id, *r) for r in rows],
            )
            conn.executemany(
                "INSERT INTO corrections (game_id, seq, item, kind, read, entered, confidence, sure) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(new_id, *f) for f in fixes],
            )
            if result is None and stored.abandoned and stored.scores is not None:
                conn.execute(
                    "UPDATE games SET scores = ? WHERE id = ?", (json.dumps(list(stored.scores)), new_id)
                )
            if result is not None:
                conn.execute(
                    "UPDATE games SET finished = ?, scores = ?, places = ? WHERE id = ?",
                    (
                        stored.finished or self._wall(),
                        json.dumps(list(result[0])),
                        json.dumps(list(result[1])),
                        new_id,
                    ),
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

    def history(self) -> list[StoredGame]:
        """What the history lists, oldest first: the finished games and the games left (abandoned) after
        at least one move, with their scores so far (a game left before its first move was not played)."""
        rows = self._conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE finished IS NOT NULL OR (abandoned = 1 AND "
            "EXISTS (SELECT 1 FROM actions WHERE actions.game_id = games.id)) ORDER BY id"
        ).fetchall()
        return [_game(r) for r in rows]

    def actions(self, game_id: int) -> list[StoredAction]:
        rows = self._conn.execute(
            "SELECT seq, action, at, seat, seconds FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [StoredAction(seq, _load(text), at, seat, seconds) for seq, text, at, seat, seconds in rows]

    def corrections(self, game_id: int | None = None) -> list[StoredCorrection]:
        """The corrected readings of one game (or of every game), in the order of their actions."""
        where, args = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        rows = self._conn.execute(
            "SELECT game_id, seq, item, kind, read, entered, confidence, sure FROM corrections "
            f"{where} ORDER BY game_id, seq, item",
            args,
        ).fetchall()
        return [
            StoredCorrection(gid, seq, ReadingFix(item, kind, read, entered, confidence, bool(sure)))
            for gid, seq, item, kind, read, entered, confidence, sure in rows
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
    import rules

    try:
        variant = rules.get_game(game.game).variant_of(game.options)
    except KeyError:
        variant = None
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


def _load(text: str) -> dict[str, Any] | str:
    """An action's JSON object, or its text when that does not parse (bad JSON, nested too deeply):
    the decoder then refuses it with its own clear error and the game resumes before it."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return text
    return value if isinstance(value, dict) else text


def _replayed_result(stored: StoredGame, actions: list[dict[str, Any] | str]) -> tuple[int, Result | None]:
    """How many of ``actions`` replay from the game's start, and the result if they end the game."""
    import rules

    try:
        options = rules.get_game(stored.game).options_type.from_dict(stored.options)
    except (KeyError, ValueError, TypeError):
        return 0, None
    done = rules.replay_prefix(options, actions)
    outcome = done.state.outcome
    return len(done.actions), None if outcome is None else (tuple(outcome.scores), tuple(outcome.places))


def _try_row(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
    try:
        return conn.execute(sql, args).fetchone()
    except sqlite3.DatabaseError:
        return None


def _try_game(row: tuple[Any, ...] | None) -> StoredGame | None:
    if row is None:
        return None
    try:
        return _game(row)
    except (ValueError, TypeError):
        return None


def _tolerant_rows(conn: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` up to the first page that cannot be read."""
    rows: list[tuple[Any, ...]] = []
    try:
        for row in conn.execute(sql):
            rows.append(row)
    except sqlite3.DatabaseError:
        pass
    return rows


def _readable_ids(conn: sqlite3.Connection) -> list[int]:
    """The game ids of a damaged journal: a scan while it reads, then each id up to the highest one
    (ids are dense: SQLite gives max + 1), looked up alone so that one bad page costs only its rows."""
    ids = {row[0] for row in _tolerant_rows(conn, "SELECT id FROM games ORDER BY id")}
    top = _try_row(conn, "SELECT max(id) FROM games", ())
    highest = top[0] if top is not None and isinstance(top[0], int) else max(ids, default=0)
    return sorted(ids | set(range(1, highest + 1)))


def _readable_actions(conn: sqlite3.Connection, game_id: int) -> list[tuple[Any, ...]]:
    """A game's actions from the first, one by one, up to the first that is missing or unreadable."""
    rows: list[tuple[Any, ...]] = []
    seq = 1
    while True:
        row = _try_row(
            conn,
            "SELECT seq, action, at, seat, seconds FROM actions WHERE game_id = ? AND seq = ?",
            (game_id, seq),
        )
        if row is None:
            return rows
        rows.append(row)
        seq += 1


# --- the file and its place ----------------------------------------------------------------------------

HALF_MADE = "an empty, half-made journal"  # refusal_reason: nothing in it; safe to start afresh


def _new_path(path: Path) -> Path:
    return path.with_name(path.name + ".new")


def _read_only_uri(path: Path) -> str:
    return "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"


def _os_reason(exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "the disk is full"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    return exc.strerror or str(exc)


def _error(exc: sqlite3.Error, what: str) -> JournalError:
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    text = str(exc)
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in text:
        return JournalLocked(f"{what}: the journal is in use by another program ({text})")
    if primary == sqlite3.SQLITE_FULL or "full" in text:
        return JournalError(f"{what}: the disk is full")
    if primary == sqlite3.SQLITE_READONLY or "readonly" in text:
        return JournalError(f"{what}: the journal or its directory is read-only")
    return JournalError(f"{what}: {text}")


def _check_place(path: Path) -> None:
    """The state directory exists (created if need be) and is writable; the path is not a directory."""
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JournalError(f"cannot create the state directory {parent}: {_os_reason(exc)}") from exc
    if path.is_dir():
        raise JournalError(f"{path} is a directory, not a journal file; move it away or name another journal")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise JournalError(f"the state directory {parent} is read-only: the journal cannot be written there")


def _remove(path: Path) -> None:
    for p in (path, *(path.with_name(path.name + s) for s in SIDE_FILES)):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _create(path: Path) -> None:
    """A new journal, whole or not at all: built in ``<name>.new`` in one transaction, then renamed."""
    new = _new_path(path)
    _remove(new)
    try:
        conn = sqlite3.connect(new, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.executescript(
                f"BEGIN; {SCHEMA} {CORRECTIONS_SCHEMA} PRAGMA application_id = {APPLICATION_ID}; "
                f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
            )
        finally:
            conn.close()
        fd = os.open(new, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(new, path)
        _fsync_dir(path.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            _remove(new)
        raise


def _connect(path: Path, busy_seconds: float = BUSY_SECONDS) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level="DEFERRED", check_same_thread=False, timeout=busy_seconds)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        conn.close()
        raise
    return conn


def _user_tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name for (name,) in rows if not name.startswith("sqlite_")}


def _is_empty(conn: sqlite3.Connection, tables: set[str]) -> bool:
    return all(conn.execute(f'SELECT 1 FROM "{t}" LIMIT 1').fetchone() is None for t in tables)


def refusal_reason(path: Path, *, busy_seconds: float = BUSY_SECONDS) -> str | None:
    """Why an existing file at ``path`` cannot be our journal, or ``None`` if it can (or is absent).

    The file is only read: through a read-only connection, which neither merges a WAL nor rolls back
    a hot rollback journal (a file with one is refused unopened: our journal never has one). Another
    process's lock is :class:`JournalLocked`, not damage. :data:`HALF_MADE` for an SQLite file without
    rows, of no other application, whose tables are (some of) ours: a creation cut short."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    with path.open("rb") as f:
        header = f.read(100)
    if not header.startswith(SQLITE_HEADER) or len(header) < 100:
        return "not an SQLite database"
    hot = path.with_name(path.name + "-journal")
    if hot.exists() and hot.stat().st_size > 0:
        return "an SQLite database with another program's unfinished transaction (a rollback journal)"
    header_id = int.from_bytes(header[68:72], "big")
    if header_id not in (0, APPLICATION_ID):
        return f"an SQLite database of another application (application_id {header_id:#x})"
    existed = {s for s in SIDE_FILES if path.with_name(path.name + s).exists()}
    try:
        conn = sqlite3.connect(_read_only_uri(path), uri=True, timeout=busy_seconds)
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = _user_tables(conn)
            ours_or_none = app_id in (0, APPLICATION_ID) and tables <= TABLES | OPTIONAL_TABLES
            if ours_or_none and (app_id == 0 or not tables >= TABLES) and _is_empty(conn, tables):
                return HALF_MADE
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        error = _error(exc, f"cannot read the journal {path}")
        if isinstance(error, JournalLocked):
            raise error from exc
        return f"damaged SQLite database ({exc})"
    except sqlite3.DatabaseError as exc:
        return f"damaged SQLite database ({exc})"
    finally:
        _remove_made_side_files(path, existed)
    if app_id != APPLICATION_ID:
        return f"an SQLite database of another application (application_id {app_id:#x})"
    if version != SCHEMA_VERSION:
        return f"journal schema version {version}; this software reads version {SCHEMA_VERSION}"
    if check != "ok":
        return f"damaged SQLite database ({check})"
    if not tables >= TABLES:
        return f"journal tables missing: {', '.join(sorted(TABLES - tables))}"
    return None


def _remove_made_side_files(path: Path, existed: set[str]) -> None:
    """The read-only look may leave an empty log and the shared-memory index next to the file: they
    were not there before and hold nothing, so they go (the file is then as it was)."""
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if suffix in existed or not side.exists():
            continue
        if suffix == "-shm" or side.stat().st_size == 0:
            with contextlib.suppress(OSError):
                side.unlink()


def _move_aside(path: Path, reason: str, now: float) -> SetAside:
    stamp = time.strftime("%Y%m%dT%H%M%S", time.localtime(now))
    target = path.with_name(f"{path.name}.refused-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.refused-{stamp}-{n}")
        n += 1
    path.rename(target)
    for suffix in SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(target.with_name(target.name + suffix))
    return SetAside(path, target, reason, salvageable=reason.startswith("damaged"))
