"""Rummikub solvers: speed and exactness against the ``rummikub-solver`` package (an integer
programme through cvxpy + HiGHS), and the three budgets of DESIGN.md.

Run: ``nice .venv/bin/python bench/rummikub_solvers.py`` (needs the ``bench`` extra; about a
minute). ``--classes`` prints only the first table; ``--hunt N [SEED]`` only the worst of ours on N
random positions of any size (table 0-100 tiles, rack 1-30), the long tail. It measures the
solver as built (compiled by mypyc, the searches in C, where the build could, see
``rules/rummikub/partition/compiled.py``); with
``REFEREE_PURE_PYTHON=1`` it measures the Python sources, the reference.

First, per size class (rack × table tiles, 20 random positions each, jokers possible), the median
and worst time of ``rummikub-solver`` (HiGHS, TILE_COUNT: most tiles laid) and of ours in both
modes, timed interleaved on the same positions in one run so that the ratios are fair on a busy
machine: *plain* is ``best_move(fewest_changed=False)`` (most tiles, then most value: the peer's
question and more), *full* is ``best_move`` as the device calls it (then fewest changed melds,
which the peer does not have). The ratio is the peer's median over ours. Then the overall figures,
the tail (ours alone, both modes, on 400 positions of every size between the classes: table 20-80
tiles, rack 10-30), the opening values against the peer's TOTAL_VALUE, and the budgets.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rummikub_solver import RuleSet, SolverMode
from rummikub_solver import Tile as TheirTile

from rules.rummikub import Meld, arrange, best_move, best_opening, check_turn
from rules.rummikub.partition import COMPILED
from rules.rummikub.tiles import JOKER, Tile, full_set
from tests.rules.rummikub.oracles import TILE_WEIGHT, ilp_best
from tests.rules.rummikub.positions import random_position

CLASSES = ((14, 0), (14, 20), (20, 40), (20, 80), (30, 20), (30, 60))  # (rack, table) tiles
PER_CLASS = 20
_COLOUR_NAMES = {"R": "RED", "B": "BLUE", "K": "BLACK", "O": "ORANGE"}


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def ms(seconds: float, width: int = 8) -> str:
    return f"{seconds * 1000:{width}.1f}"


class Theirs:
    """``rummikub-solver`` with its default backend, tiles mapped from ours."""

    def __init__(self) -> None:
        self.rules = RuleSet()
        self.map: dict[Tile, TheirTile] = {}
        for tile in self.rules.tiles:
            colour = getattr(tile, "colour", None)
            if colour is None:
                self.map[JOKER] = tile
            else:
                ours = next(c for c, name in _COLOUR_NAMES.items() if name == colour.name)
                self.map[Tile(ours, tile.value)] = tile

    def most_tiles(self, table: list[Tile], rack: list[Tile]) -> int:
        state = self.rules.new_game()
        state.initial = False
        state.add_table(*(self.map[t] for t in table))
        state.add_rack(*(self.map[t] for t in rack))
        found = self.rules.solve(state, SolverMode.TILE_COUNT)
        return 0 if found is None else len(found.tiles)

    def most_value(self, rack: list[Tile]) -> int:
        state = self.rules.new_game()
        state.initial = False
        state.add_rack(*(self.map[t] for t in rack))
        found = self.rules.solve(state, SolverMode.TOTAL_VALUE)
        return 0 if found is None else sum(t.value for t in found.tiles)


def versus(theirs: Theirs, rng: random.Random) -> None:
    """The issue's table: per size class the median of each solver and mode, timed interleaved on
    the same positions in one run, and the ratios of medians to ``rummikub-solver``."""
    print(
        f"per size class, {PER_CLASS} positions each: rummikub-solver TILE_COUNT (most tiles) vs ours,"
        " best_move(fewest_changed=False) (plain: most tiles, then value) and best_move (full: then"
        " fewest changed melds); medians in ms, ratio = theirs / ours"
    )
    print(
        f"{'rack':>4} {'table':>5} | {'theirs':>7} {'worst':>7} | {'plain':>6} {'ratio':>6} {'worst':>7}"
        f" | {'full':>6} {'ratio':>6} {'worst':>7} | equal"
    )
    everything: dict[str, list[float]] = {"theirs": [], "plain": [], "full": []}
    settled: list[str] = []
    for rack_size, table_size in CLASSES:
        times: dict[str, list[float]] = {"theirs": [], "plain": [], "full": []}
        sizes, equal = [], 0
        for _ in range(PER_CLASS):
            melds, rack = random_position(rng, table_size, rack_size)
            table = [t for m in melds for t in m]
            sizes.append(len(table))
            old = [Meld(tuple(x)) for x in melds]
            dt, count = timed(lambda t=table, r=rack: theirs.most_tiles(t, r))
            times["theirs"].append(dt)
            dt, plain = timed(lambda o=old, r=rack: best_move(o, r, fewest_changed=False))
            times["plain"].append(dt)
            dt, full = timed(lambda o=old, r=rack: best_move(o, r))
            times["full"].append(dt)
            ours = 0 if plain is None else len(plain.placed)
            assert (0 if full is None else len(full.placed)) == ours
            equal += ours == count
            if ours != count:
                exact = (ilp_best(table, rack, TILE_WEIGHT) or 0) // TILE_WEIGHT
                settled.append(f"ours {ours}, theirs {count}, HiGHS {exact}")
        for name, values in times.items():
            everything[name] += values
        med = {name: statistics.median(values) for name, values in times.items()}
        print(
            f"{rack_size:>4} {f'~{statistics.median(sizes):g}':>5} |"
            f" {ms(med['theirs'], 7)} {ms(max(times['theirs']), 7)} |"
            f" {ms(med['plain'], 6)} {med['theirs'] / med['plain']:5.1f}x {ms(max(times['plain']), 7)} |"
            f" {ms(med['full'], 6)} {med['theirs'] / med['full']:5.1f}x {ms(max(times['full']), 7)} |"
            f" {equal}/{PER_CLASS}"
        )
    for line in settled:
        print("   differs:", line)
    med = {name: statistics.median(values) for name, values in everything.items()}
    worst = {name: max(values) for name, values in everything.items()}
    print(
        f"all {len(everything['theirs'])}: theirs median {ms(med['theirs'], 0)}"
        f" worst {ms(worst['theirs'], 0)};"
        f" plain median {ms(med['plain'], 0)} worst {ms(worst['plain'], 0)}"
        f" ({med['theirs'] / med['plain']:.1f}x at the median, goal 10x in every class);"
        f" full median {ms(med['full'], 0)} worst {ms(worst['full'], 0)}"
        f" ({med['theirs'] / med['full']:.1f}x at the median, goal 3x; worst goal 100 ms)"
    )


def tail(
    rng: random.Random,
    count: int = 400,
    tables: tuple[int, int] = (20, 80),
    racks: tuple[int, int] = (10, 30),
) -> None:
    """Ours alone on many positions of every size between the classes: the worst cases that the
    classes' 120 positions may miss."""
    print()
    plain_times, full_times, slowest = [], [], []
    for _ in range(count):
        table_size, rack_size = rng.randint(*tables), rng.randint(*racks)
        melds, rack = random_position(rng, table_size, rack_size)
        old = [Meld(tuple(x)) for x in melds]
        plain_times.append(timed(lambda o=old, r=rack: best_move(o, r, fewest_changed=False))[0])
        elapsed, move = timed(lambda o=old, r=rack: best_move(o, r))
        full_times.append(elapsed)
        tiles = sum(len(m) for m in melds)
        slowest.append((elapsed, rack_size, tiles, 0 if move is None else move.changed, len(old)))
    print(
        f"tail, {count} positions (table {tables[0]}-{tables[1]} tiles, rack {racks[0]}-{racks[1]}):"
        f" plain median"
        f" {ms(statistics.median(plain_times), 0)} worst {ms(max(plain_times), 0)} ms;"
        f" full median {ms(statistics.median(full_times), 0)} worst {ms(max(full_times), 0)} ms"
    )
    for elapsed, rack_size, tiles, changed, melds in sorted(slowest, reverse=True)[:3]:
        print(
            f"   full {ms(elapsed, 0)} ms: rack {rack_size}, table {tiles} tiles,"
            f" {changed} of {melds} melds changed"
        )


def openings(theirs: Theirs, rng: random.Random) -> None:
    print()
    print("opening value (best_opening vs rummikub-solver TOTAL_VALUE, racks without jokers), ms")
    settled: list[str] = []
    for rack_size in (14, 20, 30):
        ours_t, theirs_t, equal = [], [], 0
        for _ in range(2 * PER_CLASS):
            tiles = [t for t in full_set() if not t.is_joker]
            rng.shuffle(tiles)
            rack = tiles[:rack_size]
            dt, (value, _) = timed(lambda r=rack: best_opening(r))
            ours_t.append(dt)
            dt, their_value = timed(lambda r=rack: theirs.most_value(r))
            theirs_t.append(dt)
            equal += value == their_value
            if value != their_value:
                # Settle it with an exact integer programme (HiGHS, no gap tolerance).
                exact = ilp_best([], rack, 0)
                settled.append(f"ours {value}, theirs {their_value}, HiGHS {exact}")
        print(
            f"rack {rack_size:>2}: ours median {ms(statistics.median(ours_t))} worst {ms(max(ours_t))};"
            f" theirs median {ms(statistics.median(theirs_t))} worst {ms(max(theirs_t))};"
            f" equal {equal}/{len(ours_t)}"
        )
    for line in settled:
        print("   differs:", line)


def budgets(rng: random.Random) -> None:
    print()
    print("budgets (this machine)")
    opening = []
    for _ in range(300):
        tiles = full_set()
        rng.shuffle(tiles)
        opening.append(timed(lambda r=tiles[:30]: best_opening(r))[0])
    print(
        f"best_opening, 30-tile rack, 300 racks: median {ms(statistics.median(opening))} ms,"
        f" worst {ms(max(opening))} ms (budget 20 ms worst)"
    )
    moves, quick, changes = [], [], []
    for _ in range(50):
        melds, rack = random_position(rng, 80, 20)
        table = [Meld(tuple(m)) for m in melds]
        quick.append(timed(lambda t=table, r=rack: best_move(t, r, fewest_changed=False))[0])
        elapsed, move = timed(lambda t=table, r=rack: best_move(t, r))
        moves.append(elapsed)
        changes.append(0 if move is None else move.changed)
    print(
        f"best_move, 80 table + 20 rack tiles, 50 positions: median {ms(statistics.median(moves))} ms,"
        f" worst {ms(max(moves))} ms (budget 200 ms worst); fewest changed melds"
        f" {min(changes)}-{max(changes)} (median {statistics.median(changes):g})"
    )
    print(
        f"   the same without the fewest-changed search (fewest_changed=False):"
        f" median {ms(statistics.median(quick))} ms, worst {ms(max(quick))} ms"
    )
    tiles = full_set()
    after_melds = arrange(tiles)
    assert after_melds is not None
    laid = after_melds[0]
    rest = [m.tiles for m in after_melds[1:]]
    checks = []
    for _ in range(1000):
        before = [Meld(m) for m in rest]
        after = [Meld(m) for m in reversed(rest)] + [Meld(laid.tiles)]
        checks.append(timed(lambda b=before, a=after: check_turn(b, a))[0])
    print(
        f"check_turn, 106-tile table after the move, 1000 runs: median {ms(statistics.median(checks))} ms,"
        f" worst {ms(max(checks))} ms (budget 1 ms)"
    )


def main() -> None:
    print("solver:", "compiled (mypyc, the searches in C)" if COMPILED else "the Python sources")
    if sys.argv[1:2] == ["--hunt"]:
        count = int(sys.argv[2])
        tail(random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1), count, (0, 100), (1, 30))
        return
    rng = random.Random(2026)
    theirs = Theirs()
    theirs.most_tiles([], [Tile("R", 1), Tile("R", 2), Tile("R", 3)])  # builds its cvxpy problems once
    versus(theirs, rng)
    if "--classes" not in sys.argv[1:]:
        tail(rng)
        openings(theirs, rng)
        budgets(rng)


if __name__ == "__main__":
    main()
