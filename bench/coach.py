"""The coach's figures: table build time and size, load time, advice time (median and worst).

Run: ``.venv/bin/python bench/coach.py --state-dir DIR [--build]``. With ``--build`` every table is
built into DIR first and its build time (wall and CPU) printed; otherwise the tables already in DIR
(``referee coach build --state-dir DIR``) are measured. Budgets (DESIGN.md): build of the Generał table
≤ 60 s, load ≤ 1 s, advice ≤ 10 ms.

The long runs are ``referee coach simulate`` (Kości 100,000 optimal games; triple 10,000 games of the
heuristic and of ``--greedy``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from typing import Any

from device.coach_tables import load_coach, save_table, table_path
from rules.coach.advice import advise
from rules.coach.dice_sets import ROLLS
from rules.coach.games import model_for
from rules.coach.table import build
from rules.options import Options
from rules.poker_dice.game import PokerDiceOptions
from rules.poker_dice.game import new_sheet as kosci_sheet
from rules.yahtzee.game import YahtzeeOptions
from rules.yahtzee.sheet import ClassicSheet
from rules.yahtzee.triple import TripleSheet

GAMES: list[tuple[str, Options, object]] = [
    ("yahtzee", YahtzeeOptions(), ClassicSheet()),
    ("yahtzee-triple", YahtzeeOptions(variant="triple"), TripleSheet()),
    ("poker_dice", PokerDiceOptions(), kosci_sheet()),
]
POSITIONS = 300


def random_sheet(sheet: Any, rng: random.Random, turns: int) -> Any:
    """``sheet`` after ``turns`` random moves (random rolls, random legal boxes)."""
    for _ in range(turns):
        roll = rng.choice(ROLLS)
        sheet = sheet.fill(rng.choice(sorted(sheet.options(roll))), roll)
    return sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--state-dir", required=True)
    parser.add_argument("--build", action="store_true")
    args = parser.parse_args()
    directory = Path(args.state_dir)
    built: set[str] = set()
    for name, options, empty in GAMES:
        model = model_for(options)
        path = table_path(directory, model)
        if args.build and path.name not in built:
            wall, cpu = time.perf_counter(), time.process_time()
            save_table(build(model), path)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(f"{name}: build {wall:.1f} s wall, {cpu:.1f} s CPU")
            built.add(path.name)
        if not path.exists():
            print(f"{name}: no table {path} (build it with referee coach build or --build)")
            continue
        print(f"{name}: table {path.name} {path.stat().st_size / 1e6:.1f} MB")
        start = time.perf_counter()
        coach = load_coach(options, directory)
        print(f"{name}: load {1000 * (time.perf_counter() - start):.0f} ms")
        rng = random.Random(1)
        times = []
        for _ in range(POSITIONS):
            sheet = random_sheet(empty, rng, rng.randrange(len(empty.boxes)))  # type: ignore[attr-defined]
            dice = tuple(rng.randint(1, 6) for _ in range(5))
            rolls_left = rng.randrange(3)
            start = time.perf_counter()
            advise(coach, sheet, dice, rolls_left)  # type: ignore[arg-type]
            times.append(time.perf_counter() - start)
        median, worst = statistics.median(times), max(times)
        print(
            f"{name}: advice median {1000 * median:.2f} ms, worst {1000 * worst:.2f} ms ({POSITIONS} cases)"
        )


if __name__ == "__main__":
    main()
