"""The loose-card reader of the owner's Zatre deck count (``vision.zatre.read_loose_cards``) on synthetic
batches: how many cards it reads right, whether it ever guesses, and how long a batch takes.

    .venv/bin/python bench/zatre_loose.py [--batches 60] [--cards 12] [--seed 31]

Batches come from ``vision.zatre_eval.loose_batches``: cards of the assumed deck laid loose and face
up, each at its own turn, on real-photo tables with light, blur and tilt; a finger over one card in
about a third of them. Budgets: no sure card wrong (a guess), every uncovered card read in ≥ 98 % of
cases, a batch of 12 read in ≤ 250 ms median CPU (the deck count is not a race: a settled reading a
few times a second is plenty).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from vision.zatre import read_loose_cards
from vision.zatre_eval import LooseEvaluation, loose_batches

BUDGET_MS = 250.0
ACCURACY = 0.98


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=60)
    parser.add_argument("--cards", type=int, default=12)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    batches = list(loose_batches(args.batches, args.seed, args.cards))
    read_loose_cards(batches[0][1])  # warm up (the dice classifier loads once)
    evaluation = LooseEvaluation()
    cpu: list[float] = []
    for truth, frame in batches:
        start, start_cpu = time.perf_counter(), time.process_time()
        reading = read_loose_cards(frame)
        evaluation.add(truth, reading, (time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    s = evaluation.summary()
    c = np.array(cpu)
    print(
        f"read_loose_cards, 1920×1080, {args.cards} cards a batch, {s['batches']} batches, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"cards {s['cards']} ({s['covered']} under a finger): right {evaluation.right}, wrong {s['wrong']}, "
        f"unsure {s['unsure']}, missed {s['missed']}, invented {s['extra']}"
    )
    print(f"card accuracy (uncovered cards read surely and right): {s['card_accuracy']:.4f}")
    print(f"batches read exactly (covered cards unsure, every other right): {s['batch_exact_rate']:.3f}")
    print(f"wall ms: median {s['ms_median']:.1f}")
    print(f"cpu ms:  median {np.median(c):.1f}  p90 {np.percentile(c, 90):.1f}  worst {c.max():.1f}")
    guesses = "none" if s["wrong"] == 0 and s["extra"] == 0 else "SOME"
    accurate = "within" if float(s["card_accuracy"]) >= ACCURACY else "UNDER"
    fast = "within" if np.median(c) <= BUDGET_MS else "OVER"
    print(f"guesses: {guesses}; accuracy ≥ {ACCURACY}: {accurate}; ≤ {BUDGET_MS:.0f} ms median CPU: {fast}")


if __name__ == "__main__":
    main()
