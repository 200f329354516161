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
from collections.abc import Sequence
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


def chains(tiles: Sequence[Placed]) -> list[list[int]]:
    """Connected groups of neighbouring tiles, each in order along its line."""
    n = len(tiles)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if n:
        for i, j in zip(*np.nonzero(np.triu(neighbour_matrix(tiles), 1)), strict=True):
            parent[root(int(i))] = root(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    out = []
    for members in groups.values():
        ux, uy = _line_direction(tiles, members)
        out.append(sorted(members, key=lambda i: tiles[i].center[0] * ux + tiles[i].center[1] * uy))
    return sorted(out, key=lambda m: (tiles[m[0]].center[1], tiles[m[0]].center[0]))


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
    ``RESOLVE_SHARE`` of the probability of all valid readings. A decided tile is ``corrected`` (its
    ``read_as`` keeps the classifier's choice) and its confidence is that share."""
    out = list(tiles)
    for meld in melds:
        readings = _meld_readings(tiles, meld, threshold)
        total = sum(p for p, _ in readings)
        if not readings or total <= 0:
            continue
        p, best = max(readings, key=lambda r: r[0])
        share = p / total
        if share < RESOLVE_SHARE:
            continue
        for i, tile in zip(meld, best, strict=True):
            if tiles[i].confidence < threshold:
                out[i] = replace(tiles[i], tile=tile, confidence=share, corrected=True, read_as=tiles[i].tile)
    return out
