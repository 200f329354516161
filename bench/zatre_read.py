"""Time ``read_zatre`` on a Zatre board of 25 cards (budget: ≤ 100 ms median for 1920×1080).

    .venv/bin/python bench/zatre_read.py [--frames 20] [--seed 5]

Frames are synthetic boards (``vision.zatre_synth.render_zatre_board``): a round's 25 cards from a
random game, real-photo tables, light, blur and tilt, no hands. The reader is warmed up before timing.
Prints the median, 90th percentile and worst wall time, the process CPU time (the machine is shared:
the CPU figure is what the reader costs) and the cards read surely per frame.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from rules.zatre import ZatreOptions, auto_play
from vision.zatre import read_zatre
from vision.zatre_synth import render_zatre_board

BUDGET_MS = 100.0


def boards(count: int, seed: int) -> list[np.ndarray]:
    """``count`` 1920×1080 frames of 25-card boards."""
    rng = np.random.default_rng(seed)
    frames: list[np.ndarray] = []
    game = 0
    while len(frames) < count:
        state = auto_play(ZatreOptions(players=2, seed=seed * 1000 + game))
        game += 1
        for result in state.rounds_played:
            if len(result.board.placements) != 25:
                continue
            try:
                frame, _ = render_zatre_board(result.board.placements, rng, hands=0)
            except ValueError:
                continue
            frames.append(frame)
    return frames[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    frames = boards(args.frames, args.seed)
    read_zatre(frames[0])
    wall, cpu, cards = [], [], []
    for frame in frames:
        start, start_cpu = time.perf_counter(), time.process_time()
        observation = read_zatre(frame)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        cards.append(len(observation.placements()))
    w, c = np.array(wall), np.array(cpu)
    print(f"read_zatre, 1920×1080, 25 cards, {len(frames)} frames, load average {os.getloadavg()[0]:.1f}")
    print(f"wall ms: median {np.median(w):.1f}  p90 {np.percentile(w, 90):.1f}  worst {w.max():.1f}")
    print(f"cpu ms:  median {np.median(c):.1f}  p90 {np.percentile(c, 90):.1f}  worst {c.max():.1f}")
    print(f"cards read surely per frame: median {np.median(cards):.0f}, min {min(cards)}")
    verdict = "within" if np.median(w) <= BUDGET_MS else "OVER"
    print(f"budget ≤ {BUDGET_MS:.0f} ms median: {verdict}")


if __name__ == "__main__":
    main()
