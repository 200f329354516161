"""The journal's file and its place: our database made whole or not at all, and a file that is not ours
(not SQLite, another application's, a newer schema, damaged) inspected read-only, never written,
and set aside; the state directory checked; SQLite's and the OS's failures as :class:`JournalError`
messages for the screen and the log."""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import time
import urllib.parse
from pathlib import Path

from device.journal.records import JournalError, JournalLocked, SetAside

__all__ = [
    "APPLICATION_ID",
    "BUSY_SECONDS",
    "CORRECTIONS_SCHEMA",
    "HALF_MADE",
    "SCHEMA",
    "SCHEMA_VERSION",
    "check_place",
    "connect",
    "create",
    "journal_error",
    "move_aside",
    "new_path",
    "os_reason",
    "read_only_uri",
    "refusal_reason",
    "remove",
]

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

HALF_MADE = "an empty, half-made journal"  # refusal_reason: nothing in it; safe to start afresh


def new_path(path: Path) -> Path:
    return path.with_name(path.name + ".new")


def read_only_uri(path: Path) -> str:
    return "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"


def os_reason(exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "the disk is full"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    return exc.strerror or str(exc)


def journal_error(exc: sqlite3.Error, what: str) -> JournalError:
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


def check_place(path: Path) -> None:
    """The state directory exists (created if need be) and is writable; the path is not a directory."""
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JournalError(f"cannot create the state directory {parent}: {os_reason(exc)}") from exc
    if path.is_dir():
        raise JournalError(f"{path} is a directory, not a journal file; move it away or name another journal")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise JournalError(f"the state directory {parent} is read-only: the journal cannot be written there")


def remove(path: Path) -> None:
    for p in (path, *(path.with_name(path.name + s) for s in SIDE_FILES)):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def create(path: Path) -> None:
    """A new journal, whole or not at all: built in ``<name>.new`` in one transaction, then renamed."""
    new = new_path(path)
    remove(new)
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
        fsync_dir(path.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            remove(new)
        raise


def connect(path: Path, busy_seconds: float = BUSY_SECONDS) -> sqlite3.Connection:
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
        conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=busy_seconds)
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
        error = journal_error(exc, f"cannot read the journal {path}")
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


def move_aside(path: Path, reason: str, now: float) -> SetAside:
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
