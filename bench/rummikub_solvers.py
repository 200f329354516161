"""Rummikub solvers: speed and exactness against the ``rummikub-solver`` package (an integer
programme through cvxpy + HiGHS), and the three budgets of DESIGN.md.

Run: ``.venv/bin/python bench/rummikub_solvers.py`` (needs the ``bench`` extra). Takes about forty
seconds. Prints, per cell of the grid (rack 14/20/30 tiles × table 0–80 tiles), the median and
worst time of both solvers and whether their objective values agree; then the budgets.

The grid asks both solvers the same question (most tiles laid; ours then most value): so ours runs
without the fewest-changed-melds search, which ``rummikub-solver`` does not have. The budget line
times ``best_move`` with it, as the device calls it, and without.
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
from rules.rummikub.tiles import JOKER, Tile, full_set
from tests.rules.rummikub.oracles import TILE_WEIGHT, ilp_best
from tests.rules.rummikub.positions import random_position

RACKS = (14, 20, 30)
TABLES = (0, 20, 40, 60, 80)
PER_CELL = 8
_COLOUR_NAMES = {"R": "RED", "B": "BLUE", "K": "BLACK", "O": "ORANGE"}


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f}"


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
    print("most rack tiles laid (best_move(fewest_changed=False) vs rummikub-solver TILE_COUNT), times in ms")
    print(
        f"{'rack':>4} {'table':>5} | {'ours med':>8} {'worst':>8} | {'theirs med':>10} {'worst':>8} | equal"
    )
    all_ours: list[float] = []
    settled: list[str] = []
    all_theirs: list[float] = []
    for rack_size in RACKS:
        for table_size in TABLES:
            ours_t, theirs_t, equal = [], [], 0
            for _ in range(PER_CELL):
                melds, rack = random_position(rng, table_size, rack_size)
                table = [t for m in melds for t in m]
                dt, move = timed(
                    lambda m=melds, r=rack: best_move([Meld(tuple(x)) for x in m], r, fewest_changed=False)
                )
                ours_t.append(dt)
                dt, count = timed(lambda t=table, r=rack: theirs.most_tiles(t, r))
                theirs_t.append(dt)
                ours = 0 if move is None else len(move.placed)
                equal += ours == count
                if ours != count:
                    exact = (ilp_best(table, rack, TILE_WEIGHT) or 0) // TILE_WEIGHT
                    settled.append(f"ours {ours}, theirs {count}, HiGHS {exact}")
            all_ours += ours_t
            all_theirs += theirs_t
            print(
                f"{rack_size:>4} {len(table):>5} | {ms(statistics.median(ours_t))} {ms(max(ours_t))} |"
                f" {ms(statistics.median(theirs_t)):>10} {ms(max(theirs_t))} | {equal}/{PER_CELL}"
            )
    for line in settled:
        print("   differs:", line)
    ratio = statistics.median(all_theirs) / statistics.median(all_ours)
    print(
        f"all: ours median {ms(statistics.median(all_ours))} worst {ms(max(all_ours))};"
        f" theirs median {ms(statistics.median(all_theirs))} worst {ms(max(all_theirs))};"
        f" median ratio {ratio:.1f}x"
    )
    print()
    print("opening value (best_opening vs rummikub-solver TOTAL_VALUE, racks without jokers), ms")
    settled: list[str] = []
    for rack_size in RACKS:
        ours_t, theirs_t, equal = [], [], 0
        for _ in range(PER_CELL * 2):
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
    rng = random.Random(2026)
    theirs = Theirs()
    theirs.most_tiles([], [Tile("R", 1), Tile("R", 2), Tile("R", 3)])  # builds its cvxpy problems once
    versus(theirs, rng)
    budgets(rng)


if __name__ == "__main__":
    main()
