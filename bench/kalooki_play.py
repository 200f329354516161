"""Kalooki engine speed: random legal games, the cost of one action, replay of a long journal.

Run: ``.venv/bin/python bench/kalooki_play.py``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import random
import statistics
import time

from rules import replay
from rules.actions import Action
from rules.kalooki import KalookiOptions, new_session
from rules.kalooki.auto import random_turn

GAMES = 200


def play(options: KalookiOptions) -> tuple[list[Action], list[float]]:
    rng = random.Random(options.seed)
    state, taken, costs = new_session(options), [], []
    while state.outcome is None:
        for act in random_turn(state.deal, rng):
            start = time.perf_counter()
            state = state.apply(act)
            costs.append(time.perf_counter() - start)
            taken.append(act)
    return taken, costs


def main() -> None:
    game_times, turns, costs, journal = [], [], [], []
    for seed in range(GAMES):
        options = KalookiOptions(players=2 + seed % 3, seed=seed)
        start = time.perf_counter()
        taken, apply_costs = play(options)
        game_times.append(time.perf_counter() - start)
        turns.append(sum(1 for a in taken if type(a).__name__ == "Discard"))
        costs += apply_costs
        journal.append((options, taken))
    print(
        f"{GAMES} random games (2-4 players): median {statistics.median(game_times) * 1000:.1f} ms per game "
        f"(random player included), median {statistics.median(turns)} turns"
    )
    costs.sort()
    print(
        f"apply: median {statistics.median(costs) * 1e6:.0f} µs, 99th percentile "
        f"{costs[int(len(costs) * 0.99)] * 1e6:.0f} µs over {len(costs)} actions"
    )
    actions = 0
    start = time.perf_counter()
    for options, taken in journal:
        replay(options, taken)
        actions += len(taken)
    elapsed = time.perf_counter() - start
    print(
        f"replay: {actions} actions in {elapsed * 1000:.0f} ms "
        f"({elapsed / actions * 1e4 * 1000:.0f} ms per 10,000 actions)"
    )


if __name__ == "__main__":
    main()
