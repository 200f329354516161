"""What can still be read from a refused journal of ours, and how far a game's actions replay.

A damaged file is read through a read-only connection, row by row where a scan fails, so one bad
page costs only its rows: each game with its actions up to the first that is missing, unreadable or
no longer applies (``rules.replay_prefix``), its result if they end it, and the corrected readings of
those actions. :meth:`device.journal.Journal.salvage` copies what this reads into the new journal.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from device.journal.records import (
    GAME_COLUMNS,
    JournalError,
    JsonObject,
    Result,
    Row,
    StoredGame,
    game_from_row,
    load_action,
)
from device.journal.safety import APPLICATION_ID, BUSY_SECONDS, read_only_uri

__all__ = ["SalvagedGame", "refused_journal", "replayed_result", "salvaged_games", "salvaged_settings"]


@dataclass(frozen=True)
class SalvagedGame:
    """A game read from a refused journal: the stored rows of its actions that read and replay
    (``seq, action, at, seat, seconds``), its result if they end it, and their corrected readings."""

    stored: StoredGame
    rows: list[Row]
    result: Result | None
    fixes: list[Row]


@contextlib.contextmanager
def refused_journal(source: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to ``source``, a journal of ours (:class:`JournalError` if it is not)."""
    try:
        src = sqlite3.connect(read_only_uri(source), uri=True, timeout=BUSY_SECONDS)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot read {source.name}: {exc}") from exc
    try:
        try:
            app_id = src.execute("PRAGMA application_id").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot read {source.name}: {exc}") from exc
        if app_id != APPLICATION_ID:
            raise JournalError(f"{source.name} is not a Tabletop Referee journal")
        yield src
    finally:
        src.close()


def salvaged_games(src: sqlite3.Connection) -> Iterator[SalvagedGame | None]:
    """Every game of the refused journal that reads, in order; ``None`` for one whose row does not."""
    for game_id in _readable_ids(src):
        stored = _try_game(_try_row(src, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)))
        if stored is None:
            yield None
            continue
        rows = _readable_actions(src, game_id)
        count, result = replayed_result(stored, [load_action(r[1]) for r in rows])
        fixes = _tolerant_rows(
            src,
            "SELECT seq, item, kind, read, entered, confidence, sure FROM corrections "
            f"WHERE game_id = {int(game_id)} AND seq <= {count} ORDER BY seq, item",
        )
        yield SalvagedGame(stored, rows[:count], result, fixes)


def salvaged_settings(src: sqlite3.Connection) -> list[Row]:
    """The settings kept in the refused journal that read, as ``(key, value)`` rows."""
    return _tolerant_rows(src, "SELECT key, value FROM settings ORDER BY key")


def replayed_result(stored: StoredGame, actions: list[JsonObject | str]) -> tuple[int, Result | None]:
    """How many of ``actions`` replay from the game's start, and the result if they end the game."""
    import rules

    try:
        options = rules.get_game(stored.game).options_type.from_dict(stored.options)
    except (KeyError, ValueError, TypeError):
        return 0, None
    done = rules.replay_prefix(options, actions)
    outcome = done.state.outcome
    return len(done.actions), None if outcome is None else (tuple(outcome.scores), tuple(outcome.places))


def _try_row(conn: sqlite3.Connection, sql: str, args: Row) -> Row | None:
    try:
        return conn.execute(sql, args).fetchone()
    except sqlite3.DatabaseError:
        return None


def _try_game(row: Row | None) -> StoredGame | None:
    if row is None:
        return None
    try:
        return game_from_row(row)
    except (ValueError, TypeError):
        return None


def _tolerant_rows(conn: sqlite3.Connection, sql: str) -> list[Row]:
    """The rows of ``sql`` up to the first page that cannot be read."""
    rows: list[Row] = []
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


def _readable_actions(conn: sqlite3.Connection, game_id: int) -> list[Row]:
    """A game's actions from the first, one by one, up to the first that is missing or unreadable."""
    rows: list[Row] = []
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
