"""The journal's store: games, actions, corrected readings and settings in SQLite, each write its own
committed transaction (see the package's docstring)."""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from device.journal.records import (
    GAME_COLUMNS,
    JournalError,
    JsonObject,
    ReadingFix,
    Result,
    Row,
    Salvage,
    SetAside,
    StoredAction,
    StoredCorrection,
    StoredGame,
    game_from_row,
    load_action,
)
from device.journal.safety import (
    BUSY_SECONDS,
    CORRECTIONS_SCHEMA,
    HALF_MADE,
    check_place,
    connect,
    create,
    journal_error,
    move_aside,
    new_path,
    os_reason,
    refusal_reason,
    remove,
)
from device.journal.salvage import refused_journal, replayed_result, salvaged_games, salvaged_settings
from device.journal.stats import PlayerStats, statistics

__all__ = ["Journal"]

log = logging.getLogger("device.journal")


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
        self._together = False  # inside :meth:`together`: the writes wait for its one commit

    @classmethod
    def open(
        cls, path: str | Path, *, wall: Callable[[], float] = time.time, busy_seconds: float = BUSY_SECONDS
    ) -> Journal:
        path = Path(path)
        check_place(path)
        try:
            remove(new_path(path))  # a creation cut short by a kill: never the journal
            set_aside = None
            reason = refusal_reason(path, busy_seconds=busy_seconds)
            if reason == HALF_MADE:
                log.warning("journal %s: an empty, half-made journal; starting it afresh", path)
                remove(path)
            elif reason is not None:
                set_aside = move_aside(path, reason, wall())
                log.warning("journal %s refused (%s); kept as %s", path, reason, set_aside.moved_to)
            if not path.exists() or path.stat().st_size == 0:
                create(path)
            conn = connect(path, busy_seconds)
            with conn:
                conn.execute(CORRECTIONS_SCHEMA)
        except sqlite3.Error as exc:
            raise journal_error(exc, f"cannot open the journal {path}") from exc
        except OSError as exc:
            raise JournalError(f"cannot open the journal {path}: {os_reason(exc)}") from exc
        journal = cls(conn, path, set_aside, wall)
        journal.repaired = journal._repair_finished()
        return journal

    def close(self) -> None:
        self._conn.close()

    # --- writing -------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def together(self, what: str = "store a move") -> Iterator[None]:
        """The writes made inside are one transaction: all durable when the block ends, or none (a kill,
        a power cut or an error inside leaves the journal as it was before it). For a press whose
        reading is entered as several actions (Kalooki's lay-down, builds and discard): the table as
        last accepted, or the whole turn, never a part of it. Nested blocks join the outermost.

        >>> import tempfile, pathlib
        >>> j = Journal.open(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite3")
        >>> gid = j.start_game("kalooki", {}, ["Ala", "Ola"])
        >>> try:
        ...     with j.together():
        ...         j.append(gid, 1, {"kind": "lay"})
        ...         raise RuntimeError("the power goes")
        ... except RuntimeError:
        ...     pass
        >>> with j.together():
        ...     j.append(gid, 1, {"kind": "lay"}); j.append(gid, 2, {"kind": "discard"})
        >>> [a.action["kind"] for a in j.actions(gid)]
        ['lay', 'discard']
        """
        if self._together:
            yield
            return
        with self._writing(what) as conn:
            conn.execute("BEGIN")
            self._together = True
            try:
                yield
            finally:
                self._together = False

    @contextlib.contextmanager
    def _writing(self, what: str) -> Iterator[sqlite3.Connection]:
        """One transaction (inside :meth:`together`, a part of its one); SQLite's failures become
        :class:`JournalError` (a repeated key stays the ``IntegrityError`` it is: a bug, not a place
        problem)."""
        if self._together:
            try:
                yield self._conn
            except sqlite3.IntegrityError:
                raise
            except sqlite3.Error as exc:
                raise journal_error(exc, f"cannot {what} in the journal {self.path}") from exc
            return
        try:
            with self._conn:
                yield self._conn
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise journal_error(exc, f"cannot {what} in the journal {self.path}") from exc

    def start_game(self, game: str, options: JsonObject, players: list[str] | tuple[str, ...]) -> int:
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
        action: JsonObject,
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

    def set_setting(self, key: str, value: object) -> None:
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
            result = replayed_result(stored, [a.action for a in self.actions(game_id)])[1]
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
        games = actions = unreadable = 0
        with refused_journal(source) as src:
            for found in salvaged_games(src):
                if found is None:
                    unreadable += 1
                    continue
                self._copy_game(found.stored, found.rows, found.result, found.fixes)
                games += 1
                actions += len(found.rows)
            for key, value in salvaged_settings(src):
                with self._writing("store a setting") as conn:
                    conn.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, value))
        self.salvaged = Salvage(source, games, actions, unreadable)
        log.warning("journal: salvaged %d games with %d actions from %s", games, actions, source)
        return self.salvaged

    def _copy_game(
        self,
        stored: StoredGame,
        rows: list[Row],
        result: Result | None,
        fixes: Sequence[Row] = (),
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

    def setting(self, key: str, default: object = None) -> object:
        row = self._conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def unfinished(self) -> StoredGame | None:
        """The latest game that is neither finished nor abandoned: the one to resume."""
        row = self._conn.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE finished IS NULL AND abandoned = 0 "
            "ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else game_from_row(row)

    def game(self, game_id: int) -> StoredGame:
        row = self._conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} in the journal")
        return game_from_row(row)

    def games(self, *, finished_only: bool = False) -> list[StoredGame]:
        where = "WHERE finished IS NOT NULL" if finished_only else ""
        rows = self._conn.execute(f"SELECT {GAME_COLUMNS} FROM games {where} ORDER BY id").fetchall()
        return [game_from_row(r) for r in rows]

    def history(self) -> list[StoredGame]:
        """What the history lists, oldest first: the finished games and the games left (abandoned) after
        at least one move, with their scores so far (a game left before its first move was not played)."""
        rows = self._conn.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE finished IS NOT NULL OR (abandoned = 1 AND "
            "EXISTS (SELECT 1 FROM actions WHERE actions.game_id = games.id)) ORDER BY id"
        ).fetchall()
        return [game_from_row(r) for r in rows]

    def actions(self, game_id: int) -> list[StoredAction]:
        rows = self._conn.execute(
            "SELECT seq, action, at, seat, seconds FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [
            StoredAction(seq, load_action(text), at, seat, seconds) for seq, text, at, seat, seconds in rows
        ]

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
        return statistics(self.games(finished_only=True))
