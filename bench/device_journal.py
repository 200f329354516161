"""Journal budgets: a durable append (≤ 5 ms) and replaying 10,000 actions (≤ 1 s).

    .venv/bin/python bench/device_journal.py

Appends are real commits (WAL, synchronous=FULL) to a file in the current directory's filesystem
(tmp by default; pass a directory to measure another disk). The replay reads triple-Generał games of
four players (624 actions each, the longest dice games) from the journal, decodes and applies them.
"""

from __future__ import annotations

import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import rules
from device.journal import Journal
from rules.dice import Choose, RollDice, random_roll

APPENDS = 500
REPLAY_ACTIONS = 10_000


def play_actions(rng: random.Random) -> tuple[rules.Options, list[rules.Action]]:
    spec = rules.get_game("yahtzee")
    options = spec.options_type.preset("seed", players=4, seed=rng.randrange(2**31), variant="triple")
    state = spec.new_game(options)
    actions: list[rules.Action] = []
    while state.outcome is None:
        previous = None
        for _ in range(rng.randint(1, 3)):
            held = tuple(p for p in range(5) if previous is not None and rng.random() < 0.5)
            act = RollDice(random_roll(rng, previous, held), held)
            state = state.apply(act)
            actions.append(act)
            previous = act.dice
        act = Choose(state.best_choice())
        state = state.apply(act)
        actions.append(act)
    return options, actions


def main() -> None:
    where = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    journal = Journal.open(where / "bench-journal.sqlite3")
    rng = random.Random(1)
    options, actions = play_actions(rng)
    gid = journal.start_game("yahtzee", options.to_dict(), ["A", "B", "C", "D"])
    times = []
    for seq, act in enumerate(actions[:APPENDS], 1):
        data = rules.action_to_json(act)
        start = time.perf_counter()
        journal.append(gid, seq, data, seat=seq % 4, seconds=1.0)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(
        f"journal append (durable, {len(times)} commits): median {statistics.median(times):.2f} ms, "
        f"p95 {times[int(len(times) * 0.95)]:.2f} ms, max {times[-1]:.2f} ms   budget ≤ 5 ms"
    )

    bulk = sqlite3.connect(journal.path)
    games = []
    total = 0
    while total < REPLAY_ACTIONS:
        options, actions = play_actions(rng)
        gid = journal.start_game("yahtzee", options.to_dict(), ["A", "B", "C", "D"])
        # Set-up only: a whole game in one transaction (10,000 durable commits would take a minute).
        with bulk:
            bulk.executemany(
                "INSERT INTO actions (game_id, seq, action, at, seat, seconds) VALUES (?, ?, ?, 0, 0, 0)",
                [(gid, seq, json.dumps(rules.action_to_json(act))) for seq, act in enumerate(actions, 1)],
            )
        games.append(gid)
        total += len(actions)
    start = time.perf_counter()
    replayed = 0
    for gid in games:
        stored = journal.game(gid)
        spec = rules.get_game(stored.game)
        opts = spec.options_type.from_dict(stored.options)
        acts = [rules.action_from_json(a.action) for a in journal.actions(gid)]
        rules.replay(opts, acts)
        replayed += len(acts)
    elapsed = time.perf_counter() - start
    print(
        f"replay of {replayed} actions from the journal ({len(games)} games): {elapsed * 1000:.0f} ms   "
        f"budget ≤ 1000 ms for 10,000"
    )
    journal.close()


if __name__ == "__main__":
    main()
