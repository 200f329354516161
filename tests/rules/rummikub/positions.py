"""Random Rummikub positions for the solver benchmark and cross-checks: a table of valid melds
dealt from a shuffled set, and a rack from the rest."""

from __future__ import annotations

import random

from rules.rummikub.tiles import COLOURS, JOKER, Tile, full_set


def random_table(rng: random.Random, pool: list[Tile], target: int) -> list[list[Tile]]:
    """Valid melds of about ``target`` tiles taken out of ``pool`` (which loses them)."""
    melds: list[list[Tile]] = []
    size = 0
    failures = 0
    while size < target and failures < 200:
        meld = _random_meld(rng, pool)
        if meld is None or size + len(meld) > target + 2:
            failures += 1
            continue
        for t in meld:
            pool.remove(t)
        melds.append(meld)
        size += len(meld)
    return melds


def _random_meld(rng: random.Random, pool: list[Tile]) -> list[Tile] | None:
    jokers = pool.count(JOKER)
    use_joker = jokers > 0 and rng.random() < 0.15
    if rng.random() < 0.5:
        colour = rng.choice(COLOURS)
        length = rng.randint(3, 6)
        start = rng.randint(1, 14 - length)
        tiles = [Tile(colour, n) for n in range(start, start + length)]
    else:
        number = rng.randint(1, 13)
        tiles = [Tile(c, number) for c in rng.sample(COLOURS, rng.randint(3, 4))]
    if use_joker:
        tiles[rng.randrange(len(tiles))] = JOKER
    counts: dict[Tile, int] = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    if any(pool.count(t) < k for t, k in counts.items()):
        return None
    return tiles


def random_position(
    rng: random.Random, table_size: int, rack_size: int
) -> tuple[list[list[Tile]], list[Tile]]:
    pool = full_set()
    rng.shuffle(pool)
    table = random_table(rng, pool, table_size)
    rng.shuffle(pool)
    return table, pool[:rack_size]
