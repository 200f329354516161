"""Zatre: speed of the legal-placement generator and of whole random games.

    .venv/bin/python bench/zatre_moves.py

Boards come from seeded random games (every position before a lay, all rounds); the generator is
timed for the hand of the player on turn, with the number of placements it found.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from rules.zatre import ZatreOptions, ZatreState, auto_play, can_lay, legal_placements, new_game, random_lay


def positions(games: int) -> list[ZatreState]:
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(ZatreOptions(players=2 + seed % 3, seed=seed))
        while state.turn is not None:
            if not state.first_turn:
                found.append(state)
            state = state.apply(random_lay(state, rng))
    return found


def timed(call: Callable[[], object], repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    states = positions(30)
    gen_ms, lay_ms, counts, cells = [], [], [], []
    for state in states:
        assert state.turn is not None
        hand = state.hands[state.turn]
        gen_ms.append(1000 * timed(lambda s=state, h=hand: legal_placements(s.board, h)))
        lay_ms.append(1000 * timed(lambda s=state, h=hand: can_lay(s.board, h)))
        counts.append(len(legal_placements(state.board, hand)))
        cells.append(len(state.board.cells))
    print(f"positions: {len(states)} (boards of {min(cells)}–{max(cells)} half-cells)")
    print(f"placements found per hand: median {statistics.median(counts)}, max {max(counts)}")
    print(f"legal_placements: median {statistics.median(gen_ms):.3f} ms, max {max(gen_ms):.3f} ms")
    print(f"can_lay:          median {statistics.median(lay_ms):.3f} ms, max {max(lay_ms):.3f} ms")
    for players in (2, 3, 4):
        start = time.perf_counter()
        for seed in range(10):
            auto_play(ZatreOptions(players=players, seed=seed))
        print(f"whole random game, {players} players: {(time.perf_counter() - start) * 100:.1f} ms")


if __name__ == "__main__":
    main()
