"""A tile reading settled over frames: the readings of several frames of a still table put to the vote.

One photo can misread a tile with confidence (a glint on a 9's foot, a stroke lost in the grain); the
next frames of the same still table rarely repeat it. :func:`vote_tiles` keeps the first reading's tiles,
melds and loose tiles (where the tiles lie) and lets every frame vote on what each tile is
(``vision.settle.tally``): the label most frames read wins, sure only when a large majority read it and
read it with confidence at least once; a tile the frames disagree on is unsure, for the players to
straighten or pick. The reading that lays the table out is the first that sees as many tiles as most frames
do (a frame that missed a tile does not). The device asks for such a vote when a reading has an unsure
tile or would be refused (``device.sessions.rummikub``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from rules.rummikub.tiles import Tile
from vision.melds import group_melds
from vision.settle import MAJORITY, tally
from vision.tiles import TableObservation

__all__ = ["vote_tiles"]


def vote_tiles(readings: Sequence[TableObservation], majority: float = MAJORITY) -> TableObservation:
    """The first reading with each tile as the frames voted (its confidence the mean of the frames
    that read it so) and the tiles the vote left undecided unsure.

    >>> from rules.rummikub import parse_tiles
    >>> from vision.tiles import SeenTile
    >>> def run(text, unsure=()):
    ...     tiles = tuple(SeenTile(t, (60.0 * i, 50.0), (), 80.0, 60.0, 0.0, 0.9)
    ...         for i, t in enumerate(parse_tiles(text)))
    ...     return TableObservation(tiles, ((0, 1, 2),), (), unsure)
    >>> str(vote_tiles([run("B6 B7 K7"), run("B6 B7 B8"), run("B6 B7 B8", unsure=(2,))]))
    'melds [B6 B7 B8] loose []'
    >>> str(vote_tiles([run("B6 B7 K7"), run("B6 B7 B8")]))
    'melds [B6 B7 K7] loose [] uncertain 1'
    """
    if not readings:
        raise ValueError("no readings to vote on")
    if len(readings) == 1:
        return readings[0]
    if any(r.shown is not None for r in readings):
        # The tiles of the zones (a rack shown) are voted on apart from the table's, a reading of their own.
        table = vote_tiles([replace(r, shown=None) for r in readings], majority)
        shown = vote_tiles([r.shown or TableObservation(()) for r in readings], majority)
        apart = replace(shown, melds=(), loose=tuple(range(len(shown.tiles))))  # a rack is no meld
        return replace(table, shown=apart)
    # The first reading that sees as many tiles as most frames do lays the table out: a frame that
    # missed a tile (or saw one twice) does not.
    counts = Counter(len(r.tiles) for r in readings)
    most = max(counts.values())
    lead = next(k for k, r in enumerate(readings) if counts[len(r.tiles)] == most)
    first = readings[lead]
    readings = [first, *readings[:lead], *readings[lead + 1 :]]
    tiles = []
    unsure = []
    for index, (seen, vote) in enumerate(zip(first.tiles, tally(readings, majority), strict=True)):
        confidence = sum(readings[r].tiles[k].confidence for r, k in vote.voters) / len(vote.voters)
        tile = Tile.parse(vote.label)
        tiles.append(seen if tile == seen.tile else replace(seen, tile=tile, read_as=seen.tile))
        tiles[-1] = replace(tiles[-1], confidence=confidence)
        if not vote.sure:
            unsure.append(index)
    if all(t.tile == seen.tile for t, seen in zip(tiles, first.tiles, strict=True)):
        return replace(first, tiles=tuple(tiles), uncertain=tuple(unsure))
    # A tile voted otherwise: the melds grouped again (the first reading may have cut its row there).
    melds, loose = group_melds(tiles)
    return replace(first, tiles=tuple(tiles), melds=tuple(melds), loose=tuple(loose), uncertain=tuple(unsure))
