"""The Rummikub coach's advice (``rules.rummikub.advice.advise``): its time per move and its
exactness against the crosscheck's oracles, on positions of every size.

Run: ``nice .venv/bin/python bench/rummikub_coach.py [N] [--exact M]`` (needs the ``dev`` extra
for HiGHS). N positions (default 1,000): a table of 0–100 tiles, a rack of 1–30, in one of five a
player has opened (the rest: before the opening, which asks "can you open?" and the best
opening). Every position is timed once, in wall time and in the thread's CPU time (on this shared
2-core machine, under a load of 4-8, the wall time of a single call waits for the CPU now and
then); the budgets (issue 34) are a median of ≤ 50 ms and a worst of ≤ 200 ms for the compiled
build. Then the first M
positions (default all) are checked against the oracles: after the opening the advice's (tiles
laid, value of the table after, melds changed) against HiGHS with the kept melds as variables
(``ilp_fewest_changed``); before it the opening's value against HiGHS's best value, and its tiles
and value against HiGHS's most tiles then value (rack alone) wherever that arrangement is worth 30;
the openings where it is not (``Advice.exact`` False) are counted. ``REFEREE_PURE_PYTHON=1``
measures the plain-Python build.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.rummikub import Meld, check_turn
from rules.rummikub.advice import Advice, advise
from rules.rummikub.partition import COMPILED
from rules.rummikub.tiles import Tile, tiles_text
from tests.rules.rummikub.oracles import TILE_WEIGHT, ilp_best, ilp_fewest_changed
from tests.rules.rummikub.positions import random_position

MEDIAN_BUDGET_MS = 50.0
WORST_BUDGET_MS = 200.0


def positions(count: int, seed: int = 34) -> list[tuple[list[Meld], list[Tile], bool]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        size = rng.randint(0, 100)
        melds, rack = random_position(rng, size, rng.randint(1, 30))
        out.append(([Meld(tuple(m)) for m in melds], rack, i % 5 != 0))
    return out


def exact(table: list[Meld], rack: list[Tile], opened: bool, advice: Advice) -> str | None:
    """``None`` when the advice agrees with the oracles, else what differs."""
    if opened:
        expected = ilp_fewest_changed([list(m) for m in table], rack)
        assert expected is not None
        if advice.move is None:
            got: tuple[int, ...] = (0,)
            expected = expected[:1]
        else:
            check_turn(table, advice.move.table)
            got = (advice.tiles_possible, sum(m.value for m in advice.table_after), len(advice.changed_melds))
        return None if got == expected else f"{got} vs {expected}"
    best_value = ilp_best([], rack, 0)
    if best_value != advice.opening_value:
        return f"opening value {advice.opening_value} vs {best_value}"
    if advice.move is None:
        return None if best_value is None or best_value < 30 else "no opening advised"
    check_turn(table, advice.move.table, opened=False)
    if not advice.exact:
        return None  # the most valuable opening: its value is checked above
    most = ilp_best([], rack, TILE_WEIGHT)
    got_score = advice.tiles_possible * TILE_WEIGHT + advice.move.value
    return None if got_score == most else f"opening {got_score} vs {most}"


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv and not argv[0].startswith("--") else 1000
    checks = int(argv[argv.index("--exact") + 1]) if "--exact" in argv else count
    print("solver:", "compiled (mypyc, the searches in C)" if COMPILED else "the plain-Python sources")
    cases = positions(count)
    advise([Meld.parse("R1 R2 R3")], [Tile.parse("R4")], opened=True)  # imports, caches
    walls, cpus, advices = [], [], []
    for table, rack, opened in cases:
        wall, cpu = time.perf_counter(), time.thread_time()
        advice = advise(table, rack, opened=opened)
        cpus.append((time.thread_time() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
        advices.append(advice)
    print(f"advice over {count} positions (table 0-100 tiles, rack 1-30, 1 in 5 before the opening):")
    for label, times in (("wall", walls), ("CPU", cpus)):
        ordered = sorted(times)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        print(
            f"  {label:4s} median {statistics.median(times):6.2f} ms (budget {MEDIAN_BUDGET_MS:.0f}),"
            f" p99 {p99:6.1f} ms, worst {ordered[-1]:6.1f} ms (budget {WORST_BUDGET_MS:.0f})"
        )
    slowest = max(range(count), key=cpus.__getitem__)
    table, rack, opened = cases[slowest]
    print(
        f"  the slowest (CPU): table {sum(len(m) for m in table)} tiles in {len(table)} melds,"
        f" rack {len(rack)}, {'opened' if opened else 'not opened'}, {advices[slowest].tiles_possible} laid"
    )
    for label, pick in (("opened", True), ("before the opening", False)):
        part = [t for t, (_, _, o) in zip(cpus, cases, strict=True) if o == pick]
        if part:
            middle = statistics.median(part)
            print(f"  {label}: {len(part)} positions, CPU median {middle:.2f} ms, worst {max(part):.1f} ms")
    print(
        f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (the wall time waits for the CPU)"
    )
    for label, times in (("wall", walls), ("CPU", cpus)):
        within = statistics.median(times) <= MEDIAN_BUDGET_MS and max(times) <= WORST_BUDGET_MS
        print(f"  budgets ({label} time):", "met" if within else "NOT met")

    started = time.perf_counter()
    wrong = []
    inexact = 0
    for (table, rack, opened), advice in list(zip(cases, advices, strict=True))[:checks]:
        inexact += not advice.exact
        why = exact(table, rack, opened, advice)
        if why is not None:
            wrong.append(f"{[str(m) for m in table]} rack {tiles_text(rack)} opened={opened}: {why}")
    print(
        f"exactness against HiGHS on {checks} positions: {checks - len(wrong)} agree"
        f" ({time.perf_counter() - started:.0f} s); openings advised by value, not proven the most"
        f" tiles: {inexact}"
    )
    for case in wrong[:20]:
        print("   DISAGREE", case)
    return 0 if not wrong else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
