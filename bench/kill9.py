"""The kill -9 campaign: the appliance (simulator, autoplay, no camera) is killed at random moments,
again and again on one journal, and after every kill the journal is checked:

- integrity: ``PRAGMA integrity_check`` is ``ok`` and the file opens as our journal (nothing set aside);
- nothing lost: every action the appliance printed as confirmed (after the durable append) is stored;
- nothing added: at most the one action being written when the kill came is stored beyond those, and
  every stored action replays;
- finished games finished: a game whose actions end it is marked finished with its result, without
  the repair on open.

    .venv/bin/python bench/kill9.py [--kills 110] [--game poker_dice] [--seed 17]

Prints the figures (kills, actions confirmed, games finished, failures) and exits 1 on any failure.
The same checks at every statement boundary of the journal run in make test (tests/device/test_kill9.py).
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import rules
from device.journal import Journal

ROOT = Path(__file__).resolve().parents[1]


def start(state: Path, config: Path, game: str, seed: int) -> subprocess.Popen[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable, "-m", "device.cli", "--simulate", "--headless", "--config", str(config),
        "--state-dir", str(state), "--autoplay", game, "--seed", str(seed), "--trace", "--no-camera",
    ]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)


def pump(proc: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.put(line)
    lines.put("")


def check(path: Path, confirmed: dict[int, int]) -> list[str]:
    """The failures found in the journal at ``path`` after a kill; ``confirmed``: game -> actions."""
    problems = []
    conn = sqlite3.connect(path)
    integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    conn.close()
    if integrity != "ok":
        problems.append(f"integrity_check: {integrity}")
    journal = Journal.open(path)
    try:
        if journal.set_aside is not None:
            return [*problems, f"set aside: {journal.set_aside.reason}"]
        if journal.repaired:
            problems.append(f"games {journal.repaired} had ended but were not finished")
        for game in journal.games():
            spec = rules.get_game(game.game)
            stored = [rules.action_from_json(a.action) for a in journal.actions(game.id)]
            state = spec.new_game(spec.options_type.from_dict(game.options))
            for act in stored:
                state = state.apply(act)
            want = confirmed.get(game.id, 0)
            if len(stored) < want:
                problems.append(f"game {game.id}: {want} confirmed, {len(stored)} stored (lost)")
            if len(stored) > want + 1:
                problems.append(f"game {game.id}: {want} confirmed, {len(stored)} stored (added)")
            if state.outcome is not None and game.finished is None:
                problems.append(f"game {game.id}: over but not finished")
            if state.outcome is None and game.finished is not None:
                problems.append(f"game {game.id}: finished but not over")
    finally:
        journal.close()
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=110)
    parser.add_argument("--game", default="poker_dice")
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="kill9-"))
    config = work / "config.toml"
    config.write_text("[display]\nfps = 120\n", encoding="utf-8")
    state = work / "state"
    path = state / "journal.sqlite3"
    confirmed: dict[int, int] = {}
    failures = 0
    started = time.monotonic()
    for kill in range(1, args.kills + 1):
        proc = start(state, config, args.game, seed=kill)
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=pump, args=(proc, lines), daemon=True).start()
        if rng.random() < 0.1:  # now and then during start-up (opening, repairing, resuming)
            deadline = time.monotonic() + rng.uniform(0.0, 1.5)
        else:  # else at a random moment of play, counted from the resume
            try:
                line = lines.get(timeout=120)
            except queue.Empty:
                line = ""
            deadline = time.monotonic() + rng.uniform(0.0, 5.0)
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if not line:
                break
            words = line.split()
            if len(words) >= 4 and words[2] == "confirmed":
                confirmed[int(words[1])] = int(words[-1])
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        while True:  # what it printed before it died: confirmed too
            line = lines.get(timeout=10)
            if not line:
                break
            words = line.split()
            if len(words) >= 4 and words[2] == "confirmed":
                confirmed[int(words[1])] = int(words[-1])
        if not path.exists():
            continue
        problems = check(path, confirmed)
        failures += bool(problems)
        for problem in problems:
            print(f"kill {kill}: {problem}", flush=True)
    journal = Journal.open(path)
    games = journal.games()
    finished = sum(g.finished is not None for g in games)
    actions = sum(len(journal.actions(g.id)) for g in games)
    journal.close()
    print(
        f"kill -9 campaign ({args.game}): {args.kills} kills in {time.monotonic() - started:.0f} s, "
        f"{actions} actions in {len(games)} games ({finished} finished), {failures} failures"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
