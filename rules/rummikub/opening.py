"""The best initial meld: disjoint melds of greatest total value from one rack (exact).

>>> from rules.rummikub.tiles import parse_tiles
>>> value, melds = best_opening(parse_tiles("R10 R11 R12 B1 K1 O1 B7"))
>>> value, [str(m) for m in melds]
(36, ['B1 K1 O1', 'R10 R11 R12'])
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.rummikub.melds import Meld
from rules.rummikub.partition import TileCounts, solve
from rules.rummikub.tiles import Tile

__all__ = ["OPENING_MINIMUM", "best_opening", "can_open"]

OPENING_MINIMUM = 30


def best_opening(rack: Sequence[Tile]) -> tuple[int, list[Meld]]:
    """``(value, melds)`` of greatest total value, whether or not it reaches 30; ``(0, [])`` when the
    rack holds no meld. Jokers count as the tile they stand for."""
    found = solve(TileCounts.of([]), TileCounts.of(rack), count_weight=0)
    assert found is not None  # laying nothing is always possible
    melds = [Meld(m) for m in found.melds]
    return sum(m.value for m in melds), melds


def can_open(rack: Sequence[Tile], minimum: int = OPENING_MINIMUM) -> bool:
    """Whether the rack holds an initial meld worth at least ``minimum``."""
    return best_opening(rack)[0] >= minimum
