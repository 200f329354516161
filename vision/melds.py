"""Melds from tile positions: tiles lying edge to edge in a line form one meld, in order along the line;
and the meld's say on a doubtful tile.

Two tiles are *neighbours* when they lie at the same turn (within ``ANGLE_TOLERANCE``), side by side
along their short axis (centres ``NEIGHBOUR_SPAN`` short sides apart at most: a wider gap splits a row
into two melds) and level along their long axis (offset below ``LEVEL_TOLERANCE`` long sides: rows
close above each other stay apart); the sides are the median of all tiles in the frame. Chains of
neighbours are melds; a tile with no neighbour is loose.

A chain that reads as no valid meld is split into the fewest contiguous valid melds, if it can be (two
melds laid touching); otherwise it stays one (invalid) meld, for the engine to refuse by name.

>>> from types import SimpleNamespace as T
>>> row = [T(center=(100.0 + 50 * i, 80.0), long_side=70.0, short_side=50.0, angle=0.0) for i in range(3)]
>>> far = T(center=(400.0, 300.0), long_side=70.0, short_side=50.0, angle=30.0)
>>> group_melds([*row, far], split=False)
([(0, 1, 2)], [3])
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any, Protocol

import numpy as np

from rules.rummikub.melds import Meld
from rules.rummikub.tiles import Tile

ANGLE_TOLERANCE = 25.0  # degrees: a detection's turn is off by about ten, a crowded tile's up to twenty
NEIGHBOUR_SPAN = 1.4  # centre distance along the row, in short sides (touching tiles: about 1.0)
LEVEL_TOLERANCE = 0.45  # offset across the row, in long sides
RESOLVE_SHARE = 0.9  # a meld decides a doubtful tile when one valid reading has this share
MAX_READINGS = 256  # combinations of candidate readings tried per meld
CROOKED_CUT = 12.0  # degrees a tile's cut may lie off its line's turn and still vote for its way up


class Placed(Protocol):
    @property
    def center(self) -> tuple[float, float]: ...
    @property
    def long_side(self) -> float: ...
    @property
    def short_side(self) -> float: ...
    @property
    def angle(self) -> float: ...


def neighbour_matrix(tiles: Sequence[Placed]) -> np.ndarray:
    """``m[i, j]``: tiles *i* and *j* lie edge to edge side by side in one line (measured in the frame of
    their mean turn, so the relation is symmetric). Distances are in the median short and long side of all the
    tiles: they are one size, and the median is steadier than one detection's sides."""
    centres = np.array([t.center for t in tiles], np.float64).reshape(-1, 2)
    turns = np.array([t.angle for t in tiles], np.float64)
    shorts = np.array([t.short_side for t in tiles], np.float64)
    longs = np.array([t.long_side for t in tiles], np.float64)
    dx = centres[None, :, 0] - centres[:, None, 0]
    dy = centres[None, :, 1] - centres[:, None, 1]
    # Measured along the pair's mean turn (turns are known modulo a half turn: average the doubled angles).
    doubled = np.radians(2 * turns)
    rad = (
        np.arctan2(
            np.sin(doubled)[:, None] + np.sin(doubled)[None, :],
            np.cos(doubled)[:, None] + np.cos(doubled)[None, :],
        )
        / 2
    )
    along = np.abs(dx * np.cos(rad) + dy * np.sin(rad))
    across = np.abs(-dx * np.sin(rad) + dy * np.cos(rad))
    # All tiles are one size: the frame's median sides are steadier than one detection's.
    short, long = float(np.median(shorts)), float(np.median(longs))
    d = np.abs(turns[:, None] - turns[None, :]) % 180.0
    same_turn = np.minimum(d, 180.0 - d) <= ANGLE_TOLERANCE
    m = (
        same_turn
        & (along > 0.5 * short)
        & (along < NEIGHBOUR_SPAN * short)
        & (across < LEVEL_TOLERANCE * long)
    )
    return m


def _line_direction(tiles: Sequence[Placed], members: Sequence[int]) -> tuple[float, float]:
    """The row's direction, pointing right across the frame (down for an upright line)."""
    c = s = 0.0
    for i in members:
        t = math.radians(2 * tiles[i].angle)
        c, s = c + math.cos(t), s + math.sin(t)
    t = math.atan2(s, c) / 2
    ux, uy = math.cos(t), math.sin(t)
    if ux < -1e-9 or (abs(ux) <= 1e-9 and uy < 0):
        ux, uy = -ux, -uy
    return ux, uy


def connected(n: int, links: Iterable[tuple[int, int]]) -> list[int]:
    """The group of each of ``n`` items that ``links`` (pairs of indices) join, directly or through
    others: one item's index names each group (a union-find). The tiles' chains, the cards' melds
    (``vision.cards.group_cards``) and the voted melds (``vision.card_vote``) are grouped so.

    >>> connected(5, [(0, 2), (3, 4), (2, 0)])
    [2, 1, 2, 4, 4]
    """
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in links:
        parent[root(i)] = root(j)
    return [root(i) for i in range(n)]


def chains(tiles: Sequence[Placed]) -> list[list[int]]:
    """Connected groups of neighbouring tiles, each in order along its line."""
    n = len(tiles)
    pairs = zip(*np.nonzero(np.triu(neighbour_matrix(tiles), 1)), strict=True) if n else iter(())
    groups: dict[int, list[int]] = {}
    for i, group in enumerate(connected(n, ((int(a), int(b)) for a, b in pairs))):
        groups.setdefault(group, []).append(i)
    out = []
    for members in groups.values():
        ux, uy = _line_direction(tiles, members)
        out.append(sorted(members, key=lambda i: tiles[i].center[0] * ux + tiles[i].center[1] * uy))
    return sorted(out, key=lambda m: (tiles[m[0]].center[1], tiles[m[0]].center[0]))


def line_way_up(tiles: Sequence[Placed], votes: Sequence[float]) -> list[float]:
    """Each tile's way up from its whole line: the tiles of a line (``chains``) lie the same way up, so
    each gets the sum of its line's way-up ``votes`` (> 0: upright as its crop is cut, at its own turn),
    each vote turned into the first tile's frame where a tile's turn is half a turn from it (turns are
    known modulo a half turn, so two tiles of one line near ±90° are cut half a turn apart).

    >>> from types import SimpleNamespace as T
    >>> column = [T(center=(80.0, 100.0 + 50 * i), long_side=70.0, short_side=50.0, angle=a)
    ...           for i, a in enumerate((89.0, -89.0, 88.0))]  # a line of tiles lying on their sides
    >>> line_way_up(column, [2.0, -1.0, 0.5])
    [3.5, -3.5, 3.5]
    """
    out = [float(v) for v in votes]
    alone = []
    for chain in chains(tiles):
        if len(chain) < 2:
            alone.extend(chain)
            continue
        signs = [_half_turn(tiles[i].angle, tiles[chain[0]].angle) for i in chain]
        # The line through the tiles' centres gives their turn: a tile cut more than CROOKED_CUT from it
        # (its turn misjudged) has its cues cut crooked, and does not vote.
        centres = np.array([tiles[i].center for i in chain], np.float64)
        _, _, axes = np.linalg.svd(centres - centres.mean(axis=0))
        line = math.degrees(math.atan2(axes[0][1], axes[0][0]))
        total = sum(
            s * float(votes[i])
            for s, i in zip(signs, chain, strict=True)
            if _turn_apart(tiles[i].angle, line) <= CROOKED_CUT
        )
        for s, i in zip(signs, chain, strict=True):
            out[i] = s * total
    if alone and len(tiles) > 1:
        # A tile that touches others but no line: at their turn it lies their way up too; at another turn
        # (a turn misjudged by a few tens of degrees cuts it crooked, and its cues with it) its way up is
        # not told.
        reach = float(np.median([t.long_side for t in tiles]))
        lines = list(out)
        for i in alone:
            near = [
                j for j in range(len(tiles)) if j != i and math.dist(tiles[i].center, tiles[j].center) < reach
            ]
            if any(_turn_apart(tiles[i].angle, tiles[j].angle) > ANGLE_TOLERANCE for j in near):
                out[i] = 0.0
            elif near:
                out[i] += sum(_half_turn(tiles[j].angle, tiles[i].angle) * lines[j] for j in near)
    return out


def _turn_apart(a: float, b: float) -> float:
    """How far apart two turns known modulo a half turn are, in degrees (0–90)."""
    d = abs(a - b) % 180.0
    return min(d, 180.0 - d)


def _half_turn(angle: float, reference: float) -> float:
    """-1 where a tile cut at ``angle`` is cut half a turn from one cut at ``reference``, else 1."""
    return -1.0 if abs((angle - reference + 180.0) % 360.0 - 180.0) > 90.0 else 1.0


@lru_cache(maxsize=65536)
def valid(tiles: tuple[Tile, ...]) -> bool:
    """Whether the tiles, in this order, read as a valid meld."""
    return len(tiles) >= 3 and Meld(tiles).is_valid


def split_chain(tiles: Sequence[Tile]) -> list[tuple[int, int]] | None:
    """The fewest contiguous (start, end) pieces of a chain that are all valid melds, or ``None``.

    >>> from rules.rummikub.tiles import parse_tiles
    >>> split_chain(parse_tiles("R3 R4 R5 K9 B9 O9"))
    [(0, 3), (3, 6)]
    """
    n = len(tiles)
    best: list[list[tuple[int, int]] | None] = [None] * (n + 1)
    best[0] = []
    for end in range(3, n + 1):
        for start in range(0, end - 2):
            before = best[start]
            if before is not None and valid(tuple(tiles[start:end])):
                candidate = [*before, (start, end)]
                current = best[end]
                if current is None or len(candidate) < len(current):
                    best[end] = candidate
    return best[n]


def group_melds(tiles: Sequence[Any], split: bool = True) -> tuple[list[tuple[int, ...]], list[int]]:
    """``(melds, loose)``: index tuples in order along each line, and the tiles that touch no neighbour.

    With ``split`` (tiles carrying ``.tile``), a chain that is no valid meld is cut into the fewest
    contiguous valid melds where possible.
    """
    melds: list[tuple[int, ...]] = []
    loose: list[int] = []
    for chain in chains(tiles):
        if len(chain) == 1:
            loose.append(chain[0])
            continue
        readings = tuple(tiles[i].tile for i in chain) if split else ()
        pieces = split_chain(readings) if split and not valid(readings) else None
        if pieces and len(pieces) > 1:
            melds.extend(tuple(chain[a:b]) for a, b in pieces)
        else:
            melds.append(tuple(chain))
    return melds, loose


def _meld_readings(
    tiles: Sequence[Any], meld: Sequence[int], threshold: float
) -> list[tuple[float, list[Tile]]]:
    """Every valid reading of a meld from its tiles' candidates, the confident tiles held at their first
    choice, with its probability; ``[]`` when nothing is doubtful or too many combinations."""
    options: list[list[tuple[Tile, float]]] = []
    doubtful = False
    for i in meld:
        t = tiles[i]
        if t.confidence >= threshold or not t.candidates:
            options.append([(t.tile, 1.0)])
        else:
            options.append(list(t.candidates))
            doubtful = True
    if not doubtful or math.prod(len(o) for o in options) > MAX_READINGS:
        return []
    found = []
    for combo in itertools.product(*options):
        reading = tuple(tile for tile, _ in combo)
        if valid(reading):
            found.append((math.prod(p for _, p in combo), list(reading)))
    return found


def correct_melds(tiles: Sequence[Any], melds: Sequence[Sequence[int]], threshold: float) -> list[Any]:
    """The tiles with each doubtful tile of a meld decided by the meld where one valid reading holds
    ``RESOLVE_SHARE`` of the probability of all valid readings, unless that reading turned over (its 6s
    and 9s turned: a group of 6s is a group of 9s upside down) is valid too. A decided tile is
    ``corrected`` (its ``read_as`` keeps the classifier's choice) and its confidence is that share."""
    out = list(tiles)
    for meld in melds:
        readings = _meld_readings(tiles, meld, threshold)
        total = sum(p for p, _ in readings)
        if not readings or total <= 0:
            continue
        p, best = max(readings, key=lambda r: r[0])
        share = p / total
        turned = [_twin(t) if not t.is_joker and t.number in HALF_TURN_TWIN else t for t in best]
        if share < RESOLVE_SHARE or (turned != best and valid(tuple(turned))):
            # Nor does a meld choose between readings that are each other turned over (a group of 6s
            # or of 9s): that takes the tiles' way up, which the meld does not know.
            continue
        if any(other != best and all(map(_confusable, other, best)) for _, other in readings):
            # Nor between readings that differ only by confusable twins (a group of 7s or of 1s): the
            # tiles' own strokes decide that, and they were in doubt.
            continue
        for i, tile in zip(meld, best, strict=True):
            if tiles[i].confidence < threshold:
                out[i] = replace(tiles[i], tile=tile, confidence=share, corrected=True, read_as=tiles[i].tile)
    return out


# A tile and the tile it reads as upside down, where that is another tile: a 6 and a 9.
HALF_TURN_TWIN = {6: 9, 9: 6}

# The readings each number is confused with (issue 32): 6 and 9 are each other upside down, a 7 or a 10 or
# 11 that loses a stroke reads as 1, 12 and 13, 8 and 3 differ by a stroke; black and blue of one number
# swap under warm or dim light.
TWIN_NUMBERS: dict[int, tuple[int, ...]] = {
    1: (7, 10, 11),
    7: (1,),
    10: (1,),
    11: (1,),
    6: (9,),
    9: (6,),
    12: (13,),
    13: (12,),
    8: (3,),
    3: (8,),
}
TWIN_COLOURS = {"B": "K", "K": "B"}


def _confusable(a: Tile, b: Tile) -> bool:
    """The same tile, or confusable twins (``TWIN_NUMBERS`` of one colour, ``TWIN_COLOURS`` of one number)."""
    if a == b:
        return True
    if a.is_joker or b.is_joker:
        return False
    if a.colour == b.colour:
        return b.number in TWIN_NUMBERS.get(a.number, ())
    return a.number == b.number and TWIN_COLOURS.get(a.colour) == b.colour


def _fits(readings: Sequence[Tile]) -> bool:
    """A chain of readings that is one valid meld or splits into valid melds."""
    return valid(tuple(readings)) or (len(readings) >= 3 and split_chain(readings) is not None)


def doubt_misfits(tiles: Sequence[Any], threshold: float) -> list[Any]:
    """The tiles with every reading that its own line contradicts made doubtful (below ``threshold``).

    Where a chain of neighbours is no valid meld as read (nor splits into valid melds):

    * every 6 or 9 whose turning over (``HALF_TURN_TWIN``; alone or with up to three others of the chain)
      makes it fit gets its twin as a second candidate: its way up is in doubt however sure the
      classifier was, and the meld may decide it (``correct_melds``) where the line's other tiles do;
    * otherwise every confident tile one of whose other likely readings (``candidates``) alone makes the
      chain fit is listed as uncertain with its reading kept as its only candidate, so the players confirm it
      (a black 7 in a blue run): the meld does not change a reading the classifier was sure of;
    * where no single tile does, two confident tiles that together, read otherwise (a likely reading or
      turned over), make the chain fit are both listed so (``_misfit_pairs``).

    A chain that fits neither way is left as read, for the engine to refuse by name.

    >>> from rules.rummikub.tiles import parse_tiles
    >>> from vision.tiles import SeenTile
    >>> row = [SeenTile(t, (100.0 + 50 * i, 80.0), (), 70.0, 50.0, 0.0, 0.99, ((t, 0.99),))
    ...        for i, t in enumerate(parse_tiles("R8 R6 R10"))]
    >>> [(str(t.tile), t.confidence < 0.5, [str(c) for c, _ in t.candidates])
    ...  for t in doubt_misfits(row, 0.5)]
    [('R8', False, ['R8']), ('R6', True, ['R6', 'R9']), ('R10', False, ['R10'])]
    """
    out = list(tiles)
    for chain in chains(tiles):
        if len(chain) < 3:
            continue
        readings = [tiles[i].tile for i in chain]
        if _fits(readings):
            continue
        turnable = [k for k, t in enumerate(readings) if not t.is_joker and t.number in HALF_TURN_TWIN]
        turned_over: set[int] = set()
        for size in range(1, min(4, len(turnable)) + 1):
            for turned in itertools.combinations(turnable, size):
                if _fits([_twin(t) if k in turned else t for k, t in enumerate(readings)]):
                    turned_over.update(turned)
        for k in turned_over:
            seen = tiles[chain[k]]
            p = dict(seen.candidates)
            share = p.get(seen.tile, seen.confidence)
            twin = _twin(seen.tile)
            candidates = ((seen.tile, share), (twin, max(p.get(twin, 0.0), 0.1 * share)))
            doubtful = min(seen.confidence, 0.5 * threshold)
            out[chain[k]] = replace(seen, confidence=doubtful, candidates=candidates)
        if turned_over:
            continue
        doubted = set()
        for k, i in enumerate(chain):
            seen = tiles[i]
            if seen.confidence < threshold:
                continue  # already doubtful: its candidates stay, for the meld to decide
            others = [c for c, p in seen.candidates if c != seen.tile and p >= MISFIT_CANDIDATE]
            if any(_fits([*readings[:k], c, *readings[k + 1 :]]) for c in others):
                doubted.add(k)
        if not doubted:
            doubted = _misfit_pairs(tiles, chain, threshold)
        for k in doubted:
            seen = tiles[chain[k]]
            doubtful = min(seen.confidence, 0.5 * threshold)
            out[chain[k]] = replace(seen, confidence=doubtful, candidates=((seen.tile, seen.confidence),))
    return out


def _misfit_pairs(tiles: Sequence[Any], chain: Sequence[int], threshold: float) -> set[int]:
    """The confident tiles of a chain that fits neither as read nor with one tile read otherwise, but fits
    with two of them read otherwise (each as one of its other likely readings or, for a 6 or 9, turned
    over): an orange 9 and 12 read as 6 and 2 in one run under warm light. Longer chains than
    ``MISFIT_PAIR_CHAIN`` are left as read (the pairs grow as the square of the chain)."""
    if len(chain) > MISFIT_PAIR_CHAIN:
        return set()
    readings = [tiles[i].tile for i in chain]
    options: list[list[Tile]] = []
    for i in chain:
        seen = tiles[i]
        own = [c for c, p in seen.candidates if c != seen.tile and p >= MISFIT_CANDIDATE]
        if not seen.tile.is_joker and seen.tile.number in HALF_TURN_TWIN and _twin(seen.tile) not in own:
            own.append(_twin(seen.tile))
        options.append(own if seen.confidence >= threshold else [])
    found: set[int] = set()
    for a, b in itertools.combinations(range(len(chain)), 2):
        for x in options[a]:
            for y in options[b]:
                changed = list(readings)
                changed[a], changed[b] = x, y
                if _fits(changed):
                    found.update((a, b))
    return found


MISFIT_CANDIDATE = 0.01  # a reading this likely that makes the tile's line fit puts the tile in doubt
MISFIT_PAIR_CHAIN = 13  # the longest chain in which two tiles read otherwise are looked for together


def _twin(tile: Tile) -> Tile:
    return Tile(tile.colour, HALF_TURN_TWIN[tile.number])
