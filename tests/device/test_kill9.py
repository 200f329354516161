"""kill -9 at every commit boundary (issue #17): a child process creates the journal, plays a whole
game through the session (the appliance's one path of an action) and starts the next one, and is
killed before statement N of the journal's SQL, for every N. After each kill the journal must be
intact (``integrity_check``), hold every action the child had confirmed and at most the one being
written (nothing lost, nothing added), hold exactly the game's actions in order, and a game whose
actions are all in must be finished — without any repair on open.

Random kills of the running appliance are in ``test_resume.py`` and ``bench/kill9.py``."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import rules
from device.journal import Journal
from tests.device.journal_games import finished_game

OPTIONS, ACTIONS = finished_game(seed=11, players=1)


def play(path: Path, kill_at: int, report: int) -> int:
    """The child's work; ``os._exit(9)``-like SIGKILL before statement ``kill_at`` (0: never).
    Writes one byte to ``report`` per confirmed action. Returns the number of statements."""
    from device.session import SESSIONS
    from device.timer import MoveTimer

    count = 0
    real_connect = sqlite3.connect

    def trace(statement: str) -> None:
        nonlocal count
        count += 1
        if count == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    def connect(*args, **kwargs):  # every connection the journal opens is traced
        conn = real_connect(*args, **kwargs)
        conn.set_trace_callback(trace)
        return conn

    sqlite3.connect = connect
    try:
        journal = Journal.open(path)
        session = SESSIONS["poker_dice"].start(journal, OPTIONS, ["A"], MoveTimer(0))
        for act in ACTIONS:
            assert session.submit(act)
            os.write(report, b"+")
        SESSIONS["poker_dice"].start(journal, OPTIONS.replace(seed=12), ["C"], MoveTimer(0))
        journal.close()
    finally:
        sqlite3.connect = real_connect
    return count


def run_child(path: Path, kill_at: int) -> tuple[int, int, int]:
    """(exit status, confirmed actions) of one child killed before statement ``kill_at``."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        code = 0
        try:
            total = play(path, kill_at, write)
            os.write(write, b"=%d" % total)
        except BaseException:
            code = 1
        os._exit(code)
    os.close(write)
    out = b""
    while chunk := os.read(read, 4096):
        out += chunk
    os.close(read)
    _, status = os.waitpid(pid, 0)
    return status, out.count(b"+"), int(out.split(b"=")[1]) if b"=" in out else -1


def check(path: Path, confirmed: int, label: str) -> None:
    if path.exists():
        conn = sqlite3.connect(path)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", label
        conn.close()
    journal = Journal.open(path)
    try:
        assert journal.set_aside is None, f"{label}: {journal.set_aside}"
        assert journal.repaired == (), f"{label}: a finished game needed repair"
        games = journal.games()
        if not games:
            assert confirmed == 0, f"{label}: {confirmed} confirmed actions lost with their game"
            return
        first = games[0]
        stored = [rules.action_from_json(a.action) for a in journal.actions(first.id)]
        kept = len(stored)
        assert confirmed <= kept <= confirmed + 1, f"{label}: {confirmed} confirmed, {kept} kept"
        assert stored == ACTIONS[: len(stored)], f"{label}: the journal's actions differ from the game's"
        if len(stored) == len(ACTIONS):
            outcome = rules.replay(OPTIONS, ACTIONS).outcome
            assert outcome is not None
            assert first.finished is not None, f"{label}: a complete game is not finished"
            assert (first.scores, first.places) == (outcome.scores, outcome.places), label
        else:
            assert first.finished is None, label
        assert len(games) <= 2 and all(not journal.actions(g.id) for g in games[1:]), label
    finally:
        journal.close()


@pytest.fixture
def fast_dir(tmp_path: Path) -> Iterator[Path]:
    """A directory in memory when there is one (/dev/shm): a kill -9 leaves the page cache as it is, so
    the test is the same, without thousands of fsyncs of synchronous=FULL on a real disk."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    place = Path(tempfile.mkdtemp(prefix="kill9-", dir=shm))
    try:
        yield place
    finally:
        shutil.rmtree(place, ignore_errors=True)


def test_kill_9_at_every_statement_of_the_journal(fast_dir: Path) -> None:
    tmp_path = fast_dir
    status, confirmed, total = run_child(tmp_path / "full.sqlite3", 0)
    assert status == 0 and confirmed == len(ACTIONS) and total > 3 * len(ACTIONS)
    kills = 0
    for n in range(1, total + 1):
        path = tmp_path / f"kill-{n}" / "journal.sqlite3"
        status, confirmed, _ = run_child(path, n)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, f"statement {n}: {status}"
        check(path, confirmed, f"killed before statement {n} of {total}")
        kills += 1
    assert kills == total
    print(f"kill -9 at every statement: {kills} kills, {len(ACTIONS)} actions per game, 0 failures")
