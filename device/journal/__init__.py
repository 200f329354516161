"""The journal: every game and every confirmed action, durable in SQLite (WAL, ``synchronous=FULL``).

A game is its options plus its actions, so resuming after a power cut is ``rules.replay`` of the stored
actions. Each :meth:`Journal.append` is its own committed transaction: when it returns, the action
survives ``kill -9`` and power loss; a transaction cut short is rolled back by SQLite on the next open,
so the journal always ends at the last complete move. The action that ends a game and the game's result
are one transaction (``append(..., finish=...)``), and so are the actions of one press entered together
(:meth:`Journal.together`: a Kalooki turn as the camera read it, whole or not at all); a journal in which
a game's actions say it is over but the game is not marked finished (written by older versions) is
repaired on open.

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

The parts: :mod:`.store` (:class:`Journal`: the writes and the reads), :mod:`.safety` (the file and its
place: made whole, refused, set aside), :mod:`.salvage` (what a refused journal still holds, and how far
a game's actions replay), :mod:`.stats` (the history's statistics), :mod:`.records` (the values and
errors they share).

>>> import tempfile, pathlib
>>> j = Journal.open(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite3")
>>> gid = j.start_game("yahtzee", {"players": 1}, ["Ala"])
>>> j.append(gid, 1, {"kind": "demo"}, seat=0, seconds=2.5)
>>> [a.action for a in j.actions(gid)]
[{'kind': 'demo'}]
"""

from device.journal.records import (
    JournalError,
    JournalLocked,
    ReadingFix,
    Salvage,
    SetAside,
    StoredAction,
    StoredCorrection,
    StoredGame,
)
from device.journal.safety import APPLICATION_ID, CORRECTIONS_SCHEMA, SCHEMA, SCHEMA_VERSION, refusal_reason
from device.journal.stats import PlayerStats, game_key
from device.journal.store import Journal

__all__ = [
    "APPLICATION_ID",
    "CORRECTIONS_SCHEMA",
    "SCHEMA",
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
    "game_key",
    "refusal_reason",
]
