"""The best play from a rack onto a table: most rack tiles laid, then most value, then fewest
changed melds, with the whole rearranged table — exact in all three (see :func:`best_move`).

>>> from rules.rummikub.melds import Meld
>>> from rules.rummikub.tiles import parse_tiles
>>> move = best_move([Meld.parse("R3 R4 R5"), Meld.parse("B7 K7 O7")], parse_tiles("R6 R7 R8 B1"))
>>> [str(t) for t in move.placed], move.changed, [str(m) for m in move.table]
(['R6', 'R7', 'R8'], 0, ['R3 R4 R5', 'B7 K7 O7', 'R6 R7 R8'])
>>> move = best_move([Meld.parse("R3 R4 R5"), Meld.parse("B6 K6 O6")], parse_tiles("R6 R7"))
>>> move.changed, [str(m) for m in move.table]
(1, ['B6 K6 O6', 'R3 R4 R5 R6 R7'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rules.rummikub.melds import Meld, MeldLike
from rules.rummikub.partition import Arrangement, TileCounts, solve, solve_keeping
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


def best_move(table: Sequence[MeldLike], rack: Sequence[Tile], *, fewest_changed: bool = True) -> Move | None:
    """The best play, or ``None`` when no rack tile can be laid (the player draws).

    ``table`` must be a valid table (``IllegalAction`` ``invalid_meld`` otherwise). Exact in all
    three: the most rack tiles, then the most value, then the fewest old melds changed. The old
    melds left alone come first, in their order and as they lay; the new and changed ones follow.

    ``fewest_changed=False`` skips the last search (a tenth of the time, or less, on a full
    table): of the plays equal in tiles and value it still prefers one that leaves the table
    untouched, but otherwise ``changed`` is what the first arrangement found happens to change.
    """
    old = [Meld.of(m) for m in table]
    before = sum(m.value for m in old)
    best = _solve(old, rack)
    assert best is not None  # the old melds themselves are an arrangement
    if not best.placed:
        return None
    if not old:
        new = [Meld(m) for m in best.melds]
        return Move(tuple(new), best.placed, sum(m.value for m in new), 0)
    new, kept = _kept_first(old, [Meld(m) for m in best.melds])
    if kept < len(old):
        # Whether new melds from the rack alone tie with the best play: one demanding question,
        # and the common answer for a hint (not asked when the best play leaves the table as is).
        untouched = solve(TileCounts.of([]), TileCounts.of(rack), _TILE_WEIGHT, above=best.score - before - 1)
        if untouched is not None:
            new = [*old, *(Meld(m) for m in untouched.melds)]
            return Move(tuple(new), untouched.placed, untouched.score % _TILE_WEIGHT, 0)
    if fewest_changed and kept < len(old) - 1:
        # Fewer melds may change: the programme again, deciding for each old meld whether it
        # stays as it lies (one change is the least when the table is not untouched).
        olds = [(m.tiles, m.reading.stands_for) for m in old]
        best = solve_keeping(olds, TileCounts.of(rack), _TILE_WEIGHT, score=best.score, kept=kept)
        new = [*(old[i] for i in best.kept), *(Meld(m) for m in best.melds)]
        kept = len(best.kept)
    after = sum(m.value for m in new)
    return Move(tuple(new), best.placed, after - before, len(old) - kept)


def _solve(loose: list[Meld], rack: Sequence[Tile]) -> Arrangement | None:
    tiles = [t for m in loose for t in m.tiles]
    return solve(TileCounts.of(tiles), TileCounts.of(rack), _TILE_WEIGHT)


def _kept_first(old: list[Meld], new: list[Meld]) -> tuple[list[Meld], int]:
    """``new`` reordered, the old melds it holds first (in their order and as they lay, each
    matched at most once), and how many those are."""
    available = Counter(new)
    kept = []
    for meld in old:
        if available[meld]:
            available[meld] -= 1
            kept.append(meld)
    skip = Counter(kept)
    rest = []
    for meld in new:
        if skip[meld]:
            skip[meld] -= 1
        else:
            rest.append(meld)
    return [*kept, *rest], len(kept)
