"""The journal's crash windows and bad places (issue #17): each test here failed before its fix.

- the last action and ``finish`` are one transaction, and a journal left "complete but unfinished" by
  the old two-transaction code is repaired on open;
- a new journal appears at its path complete or not at all (a kill at any statement of its creation);
- a journal merely locked by another process is not "damaged": :class:`JournalLocked`, nothing moved;
- a foreign file is inspected read-only: its WAL is not merged, its hot rollback journal not rolled back;
- a damaged journal can be salvaged: every game whose actions can still be read and replayed;
- a read-only, missing-and-uncreatable or full state directory, or a directory at the journal path,
  is a :class:`JournalError` that names the problem.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import rules
from device.journal import Journal, JournalError, JournalLocked
from tests.device.journal_games import finished_game, journal_file, store_game

ROOT = Path(__file__).resolve().parents[2]


def run_python(code: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
    )


# --- the last action and the finish --------------------------------------------------------------------


def test_the_last_action_and_the_finish_are_one_transaction(tmp_path: Path) -> None:
    """The game's last action ends it in the same commit: no moment where it is in but unfinished."""
    from device.session import SESSIONS
    from device.timer import MoveTimer

    options, actions = finished_game(seed=3)
    journal = Journal.open(tmp_path / "j.sqlite3")
    session = SESSIONS["poker_dice"].start(journal, options, ["A"], MoveTimer(0))
    for act in actions[:-1]:
        assert session.submit(act)
    statements: list[str] = []
    journal._conn.set_trace_callback(statements.append)
    assert session.submit(actions[-1])
    journal._conn.set_trace_callback(None)
    writes = [s.split()[0].upper() for s in statements if s.split()[0].upper() in ("INSERT", "UPDATE")]
    commits = [i for i, s in enumerate(statements) if s.strip().upper() == "COMMIT"]
    assert writes == ["INSERT", "UPDATE"]
    assert len(commits) == 1 and commits[0] == len(statements) - 1
    stored = journal.game(session.game_id)
    outcome = session.state.outcome
    assert outcome is not None and stored.finished is not None and stored.scores == outcome.scores


def test_a_complete_but_unfinished_game_is_finished_on_open(tmp_path: Path) -> None:
    """What the old code left after a kill between the last append and finish: repaired on open."""
    path = tmp_path / "j.sqlite3"
    options, actions = finished_game(seed=5, players=2)
    journal = Journal.open(path)
    gid = journal.start_game("poker_dice", options.to_dict(), ["A", "B"])
    for seq, act in enumerate(actions, 1):
        journal.append(gid, seq, rules.action_to_json(act))
    journal.close()
    again = Journal.open(path)
    assert again.unfinished() is None
    stored = again.game(gid)
    outcome = rules.replay(options, actions).outcome
    assert stored.finished is not None and outcome is not None
    assert (stored.scores, stored.places) == (outcome.scores, outcome.places)
    assert [g.id for g in again.games(finished_only=True)] == [gid]
    assert again.repaired == (gid,)


def test_an_unfinished_game_stays_unfinished_on_open(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    options, actions = finished_game(seed=5)
    journal = Journal.open(path)
    gid = store_game(journal, options, actions[:-1])
    journal.close()
    again = Journal.open(path)
    unfinished = again.unfinished()
    assert unfinished is not None and unfinished.id == gid
    assert again.repaired == ()


# --- creating a journal --------------------------------------------------------------------------------

CREATE_AND_DIE = """
import os, sqlite3, sys
limit = int(sys.argv[2])
count = 0
real_connect = sqlite3.connect

def die_at(statement):
    global count
    count += 1
    if count == limit:
        os._exit(9)

def connect(*args, **kwargs):
    conn = real_connect(*args, **kwargs)
    conn.set_trace_callback(die_at)
    return conn

sqlite3.connect = connect
from device.journal import Journal
Journal.open(sys.argv[1]).close()
print("statements", count)
"""


def test_a_kill_at_any_statement_of_the_creation_leaves_no_half_journal(tmp_path: Path) -> None:
    done = run_python(CREATE_AND_DIE, str(tmp_path / "probe.sqlite3"), "0")
    assert done.returncode == 0, done.stderr
    total = int(done.stdout.split()[-1])
    assert total >= 3
    for limit in range(1, total + 1):
        state = tmp_path / f"kill-{limit}"
        state.mkdir()
        path = state / "journal.sqlite3"
        killed = run_python(CREATE_AND_DIE, str(path), str(limit))
        assert killed.returncode == 9, killed.stderr
        journal = Journal.open(path)
        assert journal.set_aside is None, f"killed at statement {limit}: {journal.set_aside}"
        journal.start_game("yahtzee", {}, ["A"])
        journal.close()
        assert journal_file(path) == ["journal.sqlite3"]


def test_an_empty_half_made_journal_of_the_old_code_is_started_afresh(tmp_path: Path) -> None:
    """The old five-commit creation could stop after the tables and before the application id."""
    path = tmp_path / "journal.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.executescript("CREATE TABLE games (id INTEGER PRIMARY KEY); CREATE TABLE actions (game_id INTEGER);")
    conn.close()
    journal = Journal.open(path)
    assert journal.set_aside is None
    journal.start_game("yahtzee", {}, ["A"])


# --- locked is not damaged -----------------------------------------------------------------------------

HOLD_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("PRAGMA locking_mode = EXCLUSIVE")
conn.execute("BEGIN EXCLUSIVE")
conn.execute("INSERT INTO settings (key, value) VALUES ('x', '1')")
print("locked", flush=True)
sys.stdin.read()
"""


def test_a_locked_journal_is_not_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    gid = journal.start_game("yahtzee", {}, ["A"])
    journal.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(JournalLocked, match="in use"):
            Journal.open(path, busy_seconds=0.2)
        assert journal_file(path)[0] == "journal.sqlite3"
        assert not [p for p in tmp_path.iterdir() if "refused" in p.name]
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    again = Journal.open(path)
    assert again.set_aside is None and again.game(gid).game == "yahtzee"


# --- foreign files are inspected read-only -------------------------------------------------------------

FOREIGN_WAL = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("PRAGMA wal_autocheckpoint = 0")
conn.execute("CREATE TABLE notes (body TEXT)")
conn.commit()
for i in range(50):
    conn.execute("INSERT INTO notes VALUES (?)", ("note %d" % i * 20,))
conn.commit()
os._exit(0)  # no close: the log is not merged
"""

HOT_ROLLBACK = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode = DELETE")
conn.execute("PRAGMA cache_size = 2")
conn.execute("CREATE TABLE notes (body TEXT)")
for i in range(100):
    conn.execute("INSERT INTO notes VALUES (?)", ("x" * 500,))
conn.execute("BEGIN")
for i in range(400):
    conn.execute("UPDATE notes SET body = ? WHERE rowid = ?", ("y" * 500, i % 100 + 1))
os._exit(0)  # mid-transaction: the main file is half changed, the rollback journal is hot
"""


def _snapshot(path: Path, suffixes: tuple[str, ...]) -> dict[str, bytes]:
    return {s: path.with_name(path.name + s).read_bytes() for s in suffixes}


@pytest.mark.parametrize(("script", "side"), [(FOREIGN_WAL, "-wal"), (HOT_ROLLBACK, "-journal")])
def test_a_foreign_database_is_inspected_read_only(tmp_path: Path, script: str, side: str) -> None:
    path = tmp_path / "journal.sqlite3"
    made = run_python(script, str(path))
    assert made.returncode == 0, made.stderr
    assert path.with_name(path.name + side).stat().st_size > 0
    before = _snapshot(path, ("", side))
    journal = Journal.open(path)
    assert journal.set_aside is not None
    moved = journal.set_aside.moved_to
    assert _snapshot(moved, ("", side)) == before, "the foreign files were written to"


# --- salvage -------------------------------------------------------------------------------------------


def _damage_one_page(path: Path, page: int) -> None:
    with path.open("r+b") as f:
        f.seek(page * 4096)
        f.write(bytes(range(256)) * 16)


def test_a_damaged_journal_is_salvaged_into_the_new_one(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    games = {}
    for seed in range(1, 7):
        options, actions = finished_game(seed=seed, players=2)
        games[store_game(journal, options, actions)] = (options, actions)
    journal.set_setting("language", "pl")
    journal.close()
    pages = path.stat().st_size // 4096
    _damage_one_page(path, pages // 2)
    fresh = Journal.open(path)
    aside = fresh.set_aside
    assert aside is not None and aside.reason.startswith("damaged") and aside.salvageable
    report = fresh.salvage(aside.moved_to)
    assert 0 < report.games <= len(games)
    assert report.actions == sum(len(fresh.actions(g.id)) for g in fresh.games())
    for stored in fresh.games():
        original = next(a for o, a in games.values() if o.to_dict() == stored.options)
        saved = [rules.action_from_json(a.action) for a in fresh.actions(stored.id)]
        assert saved == original[: len(saved)], "salvage added or changed an action"
        if stored.finished is not None:
            assert len(saved) == len(original)
    again = Journal.open(path)
    assert again.set_aside is None and len(again.games()) == report.games


def test_salvage_refuses_a_file_that_is_not_a_journal(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    journal = Journal.open(tmp_path / "journal.sqlite3")
    with pytest.raises(JournalError, match="not a Tabletop Referee journal"):
        journal.salvage(other)


# --- bad places ----------------------------------------------------------------------------------------


def test_a_state_dir_that_cannot_be_created_is_a_journal_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(JournalError, match="cannot create the state directory"):
        Journal.open(blocker / "state" / "journal.sqlite3")


def test_a_directory_at_the_journal_path_is_a_journal_error(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.mkdir()
    with pytest.raises(JournalError, match="is a directory"):
        Journal.open(path)
    assert path.is_dir()


IN_A_SMALL_MOUNT = """
import os, subprocess, sys
from pathlib import Path
from device.journal import Journal, JournalError, JournalLocked
state = Path(sys.argv[1])
mode = sys.argv[2]
if mode == "read-only":
    Journal.open(state / "journal.sqlite3").close()
    subprocess.run(["mount", "-o", "remount,ro", str(state)], check=True)
elif mode == "full":
    fd = os.open(state / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"x" * 4096)
    except OSError:
        os.close(fd)
try:
    Journal.open(state / "journal.sqlite3")
except JournalError as exc:
    print("JournalError:", exc)
else:
    print("opened")
"""


# qemu-user (``make test-arm64``) runs every program with a helper thread of its own, and the kernel refuses
# a new user namespace to a threaded process (``unshare -r``: EINVAL), so no private mount can be made there.
NO_USER_NAMESPACE_UNDER_QEMU = pytest.mark.not_emulated(
    reason="qemu-user's programs are threaded: the kernel refuses them a user namespace (unshare -r: EINVAL)"
)


def _in_a_small_mount(tmp_path: Path, mode: str) -> str:
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare for a private mount")
    state = tmp_path / "state"
    state.mkdir()
    script = tmp_path / "script.py"
    script.write_text(IN_A_SMALL_MOUNT)
    mount = f'mount -t tmpfs -o size=256k none "{state}"'
    shell = f'{mount} && exec "{sys.executable}" "{script}" "{state}" {mode}'
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", shell], capture_output=True, text=True, env=env, timeout=60
    )
    if "mount" in done.stderr and done.returncode != 0 and "Traceback" not in done.stderr:
        pytest.skip(f"no private mount here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    return done.stdout


@NO_USER_NAMESPACE_UNDER_QEMU
def test_a_read_only_state_dir_is_a_journal_error(tmp_path: Path) -> None:
    out = _in_a_small_mount(tmp_path, "read-only")
    assert out.startswith("JournalError:") and "read-only" in out


@NO_USER_NAMESPACE_UNDER_QEMU
def test_a_full_disk_at_start_is_a_journal_error(tmp_path: Path) -> None:
    out = _in_a_small_mount(tmp_path, "full")
    assert out.startswith("JournalError:") and "full" in out
