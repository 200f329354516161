"""Lay the tiles out as melds, following the choices a search made at every step."""

from __future__ import annotations

from dataclasses import dataclass

from rules.rummikub.partition.counts import TileCounts
from rules.rummikub.partition.key import MATURE, NC
from rules.rummikub.partition.programme import Choice, groups_fit
from rules.rummikub.tiles import COLOURS, JOKER, NUMBERS, Tile

__all__ = ["Arrangement", "rebuild"]


@dataclass(frozen=True)
class Arrangement:
    """An optimal split: the melds (runs ascending, then groups), the rack tiles placed, the score.

    From :func:`~rules.rummikub.partition.keeping.solve_keeping`: ``kept`` are the indices of the
    old melds left as they were (not among ``melds``), and ``score`` leaves out the count of them."""

    melds: tuple[tuple[Tile, ...], ...]
    placed: tuple[Tile, ...]
    score: int
    kept: tuple[int, ...] = ()


def rebuild(steps: list[Choice], score: int, table: TileCounts) -> Arrangement:
    """Lay the tiles out as melds following the choices of every step."""
    open_runs: list[list[list[Tile]]] = [[] for _ in COLOURS]
    melds: list[tuple[Tile, ...]] = []
    placed_counts = [[0] * 14 for _ in COLOURS]
    grouped: list[tuple[Tile, int]] = []
    jokers_laid = 0
    index = 0
    for n in NUMBERS:
        for c in range(NC):
            choice = steps[index]
            index += 1
            assert not isinstance(choice, int)
            run_jokers, to_groups, in_runs = choice[1:4]
            tile = _TILES[c][n]
            jokers_laid += run_jokers
            placed_counts[c][n] = in_runs + to_groups
            if to_groups:
                grouped.append((tile, to_groups))
            slots = in_runs + run_jokers
            if not slots and not open_runs[c]:
                continue  # no run of this colour here, none open
            runs = sorted(open_runs[c], key=len)
            young = [r for r in runs if len(r) < MATURE]
            mature = [r for r in runs if len(r) >= MATURE]
            kept = min(len(mature), slots - len(young))
            going_on = young + mature[len(mature) - kept :]
            for run in mature[: len(mature) - kept]:
                melds.append(tuple(run))
            going_on += [[] for _ in range(slots - len(going_on))]
            # Jokers go to the longest runs so that a new run starts with a natural tile.
            going_on.sort(key=len, reverse=True)
            for i, run in enumerate(going_on):
                run.append(JOKER if i < run_jokers else tile)
            open_runs[c] = going_on
        group_jokers = steps[index]
        index += 1
        assert isinstance(group_jokers, int)
        jokers_laid += group_jokers
        if grouped or group_jokers:
            melds.extend(_deal_groups(grouped, group_jokers))
            grouped = []
    for runs in open_runs:
        melds.extend(tuple(run) for run in runs)
    placed = [
        _TILES[c][n]
        for c in range(NC)
        for n in NUMBERS
        for _ in range(placed_counts[c][n] - table.naturals[c][n])
    ]
    placed += [JOKER] * (jokers_laid - table.jokers)
    return Arrangement(tuple(melds), tuple(placed), score)


_TILES = [[Tile(colour, max(n, 1)) for n in range(14)] for colour in COLOURS]  # [c][n], n ≥ 1


def _deal_groups(grouped: list[tuple[Tile, int]], jokers: int) -> list[tuple[Tile, ...]]:
    naturals = sum(k for _, k in grouped)
    count = groups_fit(naturals, any(k == 2 for _, k in grouped), jokers)
    assert count is not None
    groups: list[list[Tile]] = [[] for _ in range(count)]
    order = [t for t, k in sorted(grouped, key=lambda item: -item[1]) for _ in range(k)]
    for i, tile in enumerate(order):
        groups[i % count].append(tile)
    for _ in range(jokers):
        min(groups, key=len).append(JOKER)
    return [tuple(g) for g in groups]
