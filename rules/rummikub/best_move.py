"""The best play from a rack onto a table: most rack tiles laid, then most value, then fewest
changed melds, with the whole rearranged table (exact in tiles and value; see :func:`best_move`).

>>> from rules.rummikub.melds import Meld
>>> from rules.rummikub.tiles import parse_tiles
>>> move = best_move([Meld.parse("R3 R4 R5"), Meld.parse("B7 K7 O7")], parse_tiles("R6 R7 R8 B1"))
>>> [str(t) for t in move.placed], move.changed, [str(m) for m in move.table]
(['R6', 'R7', 'R8'], 0, ['R3 R4 R5', 'B7 K7 O7', 'R6 R7 R8'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.rummikub.melds import Meld
from rules.rummikub.partition import Arrangement, TileCounts, solve
from rules.rummikub.tiles import Tile

__all__ = ["Move", "best_move"]

# Larger than any table's value (106 tiles × 13), so one more tile always beats more value.
_TILE_WEIGHT = 2000


@dataclass(frozen=True)
class Move:
    """A play: the table after it (old melds kept first, in their order), the rack tiles laid, the
    value the table gained and how many of the old melds were changed."""

    table: tuple[Meld, ...]
    placed: tuple[Tile, ...]
    value: int
    changed: int


def best_move(table: Sequence[Meld], rack: Sequence[Tile]) -> Move | None:
    """The best play, or ``None`` when no rack tile can be laid (the player draws).

    ``table`` must be a valid table (``IllegalAction`` ``invalid_meld`` otherwise). The number of
    rack tiles and the value are exact. Of the plays that tie on both, one that leaves the old
    melds untouched (new melds from the rack only) is preferred; otherwise ``changed`` reports how
    many old melds the rearranged table no longer holds, without searching for the fewest.
    """
    old = [Meld.of(m) for m in table]
    before = sum(m.value for m in old)
    best = _solve(old, rack)
    assert best is not None  # the old melds themselves are an arrangement
    if not best.placed:
        return None
    if old:
        # Only whether new melds from the rack alone tie with the best play matters (they cannot
        # beat it): one demanding question, not a second optimisation.
        untouched = solve(TileCounts.of([]), TileCounts.of(rack), _TILE_WEIGHT, above=best.score - before - 1)
        if untouched is not None:
            new = [*old, *(Meld(m) for m in untouched.melds)]
            return Move(tuple(new), untouched.placed, untouched.score % _TILE_WEIGHT, 0)
    new = [Meld(m) for m in best.melds]
    after = sum(m.value for m in new)
    return Move(tuple(new), best.placed, after - before, len(old) - _count_kept(old, new))


def _solve(loose: list[Meld], rack: Sequence[Tile]) -> Arrangement | None:
    tiles = [t for m in loose for t in m.tiles]
    return solve(TileCounts.of(tiles), TileCounts.of(rack), _TILE_WEIGHT)


def _count_kept(old: list[Meld], new: list[Meld]) -> int:
    remaining = list(new)
    count = 0
    for meld in old:
        if meld in remaining:
            remaining.remove(meld)
            count += 1
    return count
