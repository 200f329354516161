"""The journal: durable round trip, refusal of foreign and damaged files, statistics."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.journal import APPLICATION_ID, Journal

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
actions = st.lists(st.dictionaries(st.text(min_size=1, max_size=8), json_values, max_size=4), max_size=15)


@given(items=actions, names=st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=4))
def test_actions_round_trip_in_order(tmp_path_factory, items, names) -> None:
    path = tmp_path_factory.mktemp("j") / "journal.sqlite3"
    journal = Journal.open(path)
    gid = journal.start_game("yahtzee", {"players": len(names), "seed": 3}, names)
    for seq, item in enumerate(items, 1):
        journal.append(gid, seq, item, seat=seq % len(names), seconds=seq / 2)
    journal.close()
    again = Journal.open(path)
    assert again.set_aside is None
    stored = again.unfinished()
    assert stored is not None and stored.players == tuple(names)
    assert [a.action for a in again.actions(gid)] == items
    assert [a.seq for a in again.actions(gid)] == list(range(1, len(items) + 1))
    again.close()


def test_sequence_numbers_cannot_repeat(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    gid = journal.start_game("yahtzee", {}, ["A"])
    journal.append(gid, 1, {"kind": "x"})
    try:
        journal.append(gid, 1, {"kind": "y"})
    except sqlite3.IntegrityError:
        pass
    else:
        raise AssertionError("a repeated sequence number was accepted")
    assert [a.action for a in journal.actions(gid)] == [{"kind": "x"}]


def test_finished_and_abandoned_games_are_not_resumed(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    a = journal.start_game("yahtzee", {}, ["A", "B"])
    journal.finish(a, (10, 20), (2, 1))
    b = journal.start_game("poker_dice", {}, ["A"])
    journal.abandon(b)
    assert journal.unfinished() is None
    c = journal.start_game("poker_dice", {}, ["A"])
    stored = journal.unfinished()
    assert stored is not None and stored.id == c


def test_statistics_per_game_and_player(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    for scores in ((100, 200), (300, 250), (150, 150)):
        gid = journal.start_game("yahtzee", {}, ["Ala", "Ola"])
        places = (1 if scores[0] >= scores[1] else 2, 1 if scores[1] >= scores[0] else 2)
        journal.finish(gid, scores, places)
    gid = journal.start_game("poker_dice", {}, ["Ala"])
    journal.finish(gid, (77,), (1,))
    stats = {(s.game, s.player): s for s in journal.statistics()}
    ala = stats[("yahtzee", "Ala")]
    assert (ala.played, ala.won, ala.best) == (3, 2, 300)
    assert abs(ala.average - 550 / 3) < 1e-9
    assert stats[("yahtzee", "Ola")].won == 2
    assert stats[("poker_dice", "Ala")].played == 1


def test_settings_persist(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    journal.set_setting("timers", {"yahtzee": 60})
    journal.close()
    assert Journal.open(tmp_path / "j.sqlite3").setting("timers") == {"yahtzee": 60}


def _refused(path: Path) -> list[Path]:
    return sorted(p for p in path.parent.iterdir() if ".refused-" in p.name)


def test_a_file_that_is_not_sqlite_is_moved_aside_untouched(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"my holiday photos\x00" * 100)
    journal = Journal.open(path)
    assert journal.set_aside is not None
    assert "not an SQLite database" in journal.set_aside.reason
    (aside,) = _refused(path)
    assert aside.read_bytes() == b"my holiday photos\x00" * 100
    assert journal.set_aside.moved_to == aside
    gid = journal.start_game("yahtzee", {}, ["A"])
    assert journal.game(gid).players == ("A",)


def test_a_foreign_sqlite_database_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('pierogi')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    journal = Journal.open(path)
    assert journal.set_aside is not None and "another application" in journal.set_aside.reason
    (aside,) = _refused(path)
    assert aside.read_bytes() == before
    assert journal.unfinished() is None


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    journal = Journal.open(path)
    assert journal.set_aside is not None and "version 99" in journal.set_aside.reason


def test_a_damaged_database_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    gid = journal.start_game("yahtzee", {}, ["A"])
    for seq in range(1, 200):
        journal.append(gid, seq, {"kind": "x", "pad": "y" * 200})
    journal.close()
    data = bytearray(path.read_bytes())
    for offset in range(4096, len(data), 97):  # scribble over every page but the header
        data[offset] ^= 0xFF
    path.write_bytes(bytes(data))
    again = Journal.open(path)
    assert again.set_aside is not None
    assert again.set_aside.reason.startswith(("damaged", "an SQLite", "journal"))
    assert len(_refused(path)) == 1


def test_refusal_is_recorded_with_the_application_id(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    Journal.open(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


WRITER = """
import sys
from device.journal import Journal
j = Journal.open(sys.argv[1])
gid = j.start_game("yahtzee", {}, ["A"])
for seq in range(1, 41):
    j.append(gid, seq, {"kind": "x", "n": seq, "pad": "z" * 300})
print("done", flush=True)
import os
os.kill(os.getpid(), 9)
"""


def test_a_half_written_wal_resumes_from_the_last_complete_action(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    subprocess.run([sys.executable, "-c", WRITER, str(path)], check=False, capture_output=True)
    wal = path.with_name(path.name + "-wal")
    assert wal.exists() and wal.stat().st_size > 0
    intact = tmp_path / "copy"
    intact.mkdir()
    shutil.copy(path, intact / path.name)
    # Cut the log in the middle of its last frame: the last commit is incomplete.
    with wal.open("r+b") as f:
        f.truncate(wal.stat().st_size - 700)
    journal = Journal.open(path)
    assert journal.set_aside is None
    stored = journal.unfinished()
    assert stored is not None
    stored_actions = [a.action for a in journal.actions(stored.id)]
    numbers = [a["n"] for a in stored_actions if isinstance(a, dict)]
    assert len(numbers) == len(stored_actions)  # every action a JSON object
    assert numbers == list(range(1, len(numbers) + 1))
    assert 30 <= len(numbers) < 40


TOGETHER = """
import os, sys
from device.journal import Journal
j = Journal.open(sys.argv[1])
gid = j.start_game("kalooki", {}, ["A", "B"])
j.append(gid, 1, {"kind": "draw"})
with j.together():
    j.append(gid, 2, {"kind": "lay"})
    j.append(gid, 3, {"kind": "build"})
    if sys.argv[2] == "kill":
        os.kill(os.getpid(), 9)
    j.append(gid, 4, {"kind": "discard"})
os.kill(os.getpid(), 9)
"""


def test_a_kill_inside_together_keeps_none_of_its_actions(tmp_path: Path) -> None:
    """A press entered as several actions is durable whole or not at all (Kalooki's turn as read)."""
    kinds = {}
    for how in ("kill", "finish"):
        path = tmp_path / how / "journal.sqlite3"
        path.parent.mkdir()
        done = subprocess.run(
            [sys.executable, "-c", TOGETHER, str(path), how], check=False, capture_output=True
        )
        assert done.returncode == -9, done.stderr
        journal = Journal.open(path)
        stored = journal.unfinished()
        assert stored is not None
        kinds[how] = [a.action["kind"] for a in journal.actions(stored.id) if isinstance(a.action, dict)]
    assert kinds == {"kill": ["draw"], "finish": ["draw", "lay", "build", "discard"]}


def test_together_rolls_back_on_an_error_and_nests(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite3")
    gid = journal.start_game("kalooki", {}, ["A", "B"])
    with pytest.raises(RuntimeError), journal.together():
        journal.append(gid, 1, {"kind": "lay"})
        with journal.together():
            journal.append(gid, 2, {"kind": "build"})
        raise RuntimeError("cut")
    assert journal.actions(gid) == []
    with journal.together(), journal.together():
        journal.append(gid, 1, {"kind": "lay"})
    journal.append(gid, 2, {"kind": "discard"})  # outside: its own transaction again
    assert [a.seq for a in journal.actions(gid)] == [1, 2]
