"""Tiles as counts by colour and number: what the programme reads instead of tile lists."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.rummikub.tiles import COLOURS, Tile

__all__ = ["MAX_COPIES", "MAX_JOKERS", "TileCounts", "together"]

MAX_COPIES = 2
MAX_JOKERS = 2


@dataclass(frozen=True)
class TileCounts:
    """A multiset of tiles as counts: ``naturals[c][n]`` copies of colour ``COLOURS[c]``, number n.

    >>> from rules.rummikub.tiles import parse_tiles
    >>> counts = TileCounts.of(parse_tiles("R7 R7 B1 J"))
    >>> counts.naturals[0][7], counts.naturals[1][1], counts.jokers, len(counts)
    (2, 1, 1, 4)
    """

    naturals: tuple[tuple[int, ...], ...]
    jokers: int

    @classmethod
    def of(cls, tiles: Sequence[Tile]) -> TileCounts:
        counts = [[0] * 14 for _ in COLOURS]
        jokers = 0
        for t in tiles:
            if t.is_joker:
                jokers += 1
            else:
                counts[t.colour_index][t.number] += 1
        if jokers > MAX_JOKERS or any(k > MAX_COPIES for row in counts for k in row):
            raise ValueError("more copies of a tile than the 106-tile set holds")
        return cls(tuple(tuple(row) for row in counts), jokers)

    def __len__(self) -> int:
        return self.jokers + sum(sum(row) for row in self.naturals)


def together(table: TileCounts, rack: TileCounts) -> tuple[list[list[int]], int]:
    """The tiles of both, as counts by colour and number, and the jokers; ``ValueError`` if they
    hold more than the 106-tile set."""
    jokers = table.jokers + rack.jokers
    if jokers > MAX_JOKERS:
        raise ValueError("more than two jokers")
    available = [[table.naturals[c][n] + rack.naturals[c][n] for n in range(14)] for c in range(len(COLOURS))]
    if any(k > MAX_COPIES for row in available for k in row):
        raise ValueError("more copies of a tile than the 106-tile set holds")
    return available, jokers
