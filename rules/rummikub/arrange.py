"""Split a multiset of tiles into valid melds, or prove that it cannot be done (exact).

The fallback when the camera sees the tiles on the table but not clearly which meld each belongs to.

>>> from rules.rummikub.tiles import parse_tiles
>>> [str(m) for m in arrange(parse_tiles("R3 B3 R4 R5 K3 O3 J"))]
['R3 B3 K3 O3', 'R4 R5 J']
>>> arrange(parse_tiles("R3 R4 B7")) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.rummikub.melds import Meld
from rules.rummikub.partition import TileCounts, solve
from rules.rummikub.tiles import Tile

__all__ = ["arrange"]


def arrange(tiles: Sequence[Tile]) -> list[Meld] | None:
    """Valid melds using every tile exactly once (runs ascending, ordered by where they end), or ``None``."""
    found = solve(TileCounts.of(tiles), TileCounts.of([]), count_weight=0, first_only=True)
    return None if found is None else [Meld(m) for m in found.melds]
