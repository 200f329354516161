"""Exactness of the Rummikub solvers on thousands of random positions: brute force on small ones
(melds judged by ``read_meld``), an integer programme solved by HiGHS on full-size ones.

Run: ``.venv/bin/python bench/rummikub_crosscheck.py [scale] [check ...]`` (needs the ``dev``
extra; about nine minutes at scale 1; checks: opening, arrange, move, ilp, changed, changed-ilp —
all by default). Prints the number of cases per check and every disagreement.

``changed`` and ``changed-ilp`` check all three of best_move's aims at once (rack tiles laid, then
value, then fewest old melds changed): against brute force over every set of old melds left as
they lie, and against an integer programme in which that set is a variable too.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.rummikub import Meld, arrange, best_move, best_opening, check_turn
from rules.rummikub.partition import COMPILED, TileCounts, solve
from rules.rummikub.tiles import Tile, full_set, tiles_text
from tests.rules.rummikub.oracles import (
    TILE_WEIGHT,
    brute_arrangeable,
    brute_best_move,
    brute_fewest_changed,
    brute_opening,
    ilp_best,
    ilp_fewest_changed,
)
from tests.rules.rummikub.positions import random_position


def report(name: str, cases: int, wrong: list[str], started: float) -> None:
    if not cases:
        return
    print(f"{name}: {cases - len(wrong)}/{cases} agree ({time.perf_counter() - started:.0f} s)", flush=True)
    for case in wrong[:20]:
        print("   DISAGREE", case)


def main(scale: float, checks: set[str]) -> int:
    print("solver:", "compiled (mypyc, the searches in C)" if COMPILED else "the Python sources")
    rng = random.Random(20261130)
    failures = 0

    started, wrong, cases = time.perf_counter(), [], int(2000 * scale) if "opening" in checks else 0
    for _ in range(cases):
        tiles = full_set()
        rng.shuffle(tiles)
        rack = tiles[: rng.randint(3, 9)]
        if best_opening(rack)[0] != brute_opening(rack):
            wrong.append(tiles_text(rack))
    report("best_opening vs brute force (racks of 3-9)", cases, wrong, started)
    failures += len(wrong)

    started, wrong, cases = time.perf_counter(), [], int(1000 * scale) if "arrange" in checks else 0
    for _ in range(cases):
        pool = [t for t in full_set() if t.is_joker or (t.colour in "RBK" and t.number <= 6)]
        rng.shuffle(pool)
        tiles = pool[: rng.randint(3, 10)]
        found = arrange(tiles)
        ok = (found is not None) == brute_arrangeable(tiles)
        if found is not None:
            ok = ok and all(m.is_valid for m in found)
            ok = ok and sorted(str(t) for m in found for t in m.tiles) == sorted(map(str, tiles))
        if not ok:
            wrong.append(tiles_text(tiles))
    report("arrange vs brute force (3-10 tiles)", cases, wrong, started)
    failures += len(wrong)

    started, wrong, cases = time.perf_counter(), [], int(1000 * scale) if "move" in checks else 0
    for _ in range(cases):
        melds, rack = random_position(rng, rng.choice([3, 6]), rng.randint(1, 4))
        failures += _compare_move(melds, rack, brute_best_move([t for m in melds for t in m], rack), wrong)
    report("best_move vs brute force (table 3-6, rack 1-4)", cases, wrong, started)

    started, wrong, cases = time.perf_counter(), [], int(1000 * scale) if "ilp" in checks else 0
    for i in range(cases):
        size = (0, 20, 40, 60, 80)[i % 5]
        melds, rack = random_position(rng, size, (14, 20, 30)[i // 5 % 3])
        table = [t for m in melds for t in m]
        weight = TILE_WEIGHT if table else 0
        found = solve(TileCounts.of(table), TileCounts.of(rack), weight)
        ours = None if found is None else found.score
        theirs = ilp_best(table, rack, weight)
        if ours != theirs:
            wrong.append(f"table {tiles_text(table)} rack {tiles_text(rack)}: {ours} vs {theirs}")
    report("solver optimum vs HiGHS integer programme (table 0-80, rack 14/20/30)", cases, wrong, started)
    failures += len(wrong)

    started, wrong, cases = time.perf_counter(), [], int(300 * scale) if "changed" in checks else 0
    for _ in range(cases):
        melds, rack = random_position(rng, rng.choice([6, 9]), rng.randint(1, 3))
        failures += _compare_move(melds, rack, brute_fewest_changed(melds, rack), wrong)
    report("best_move with fewest changed melds vs brute force (table 6-9, rack 1-3)", cases, wrong, started)

    started, wrong, cases = time.perf_counter(), [], int(300 * scale) if "changed-ilp" in checks else 0
    for i in range(cases):
        melds, rack = random_position(rng, (20, 40, 60, 80)[i % 4], (14, 20)[i // 4 % 2])
        failures += _compare_move(melds, rack, ilp_fewest_changed(melds, rack), wrong)
    report("best_move with fewest changed melds vs HiGHS (table 20-80, rack 14/20)", cases, wrong, started)
    return 1 if failures else 0


def _compare_move(
    melds: list[list[Tile]], rack: list[Tile], expected: tuple[int, ...] | None, wrong: list[str]
) -> int:
    """0 if best_move agrees with ``expected`` — (laid, value after) or (laid, value after,
    changed) — else 1 (noted)."""
    table = [Meld(tuple(m)) for m in melds]
    assert expected is not None
    move = best_move(table, rack)
    if move is None:  # no play: only the count can be compared
        got, expected = (0,), expected[:1]
    else:
        check_turn(table, move.table)
        remaining = iter(table)  # the melds left alone come first, in their order
        assert all(m in remaining for m in move.table[: len(table) - move.changed])
        got = (len(move.placed), sum(m.value for m in move.table), move.changed)[: len(expected)]
    if got == expected:
        return 0
    wrong.append(f"{[str(m) for m in table]} rack {tiles_text(rack)}: {got} vs {expected}")
    return 1


if __name__ == "__main__":
    args = sys.argv[1:]
    chosen = set(args[1:]) or {"opening", "arrange", "move", "ilp", "changed", "changed-ilp"}
    sys.exit(main(float(args[0]) if args else 1.0, chosen))
