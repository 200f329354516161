"""Melds: runs and groups, joker values, and the reading of greatest value.

A *run* is ≥ 3 consecutive numbers of one colour, read left to right, ascending or descending
(13 is never followed by 1). A *group* is 3 or 4 tiles of one number in distinct colours. A joker
stands for one missing tile and is worth its number. Where the jokers alone decide a run's direction
(one natural tile) it is ascending; a meld that reads both as a run and as a group takes the reading
of greatest value. A meld and its reverse are the same meld.

>>> Meld.parse("R7 R8 J R10").value
34
>>> Meld.parse("K3 K2 K1").value
6
>>> str(Meld.parse("R5 J J").reading)
'run R5 R6 R7 = 18'
>>> Meld.parse("R12 B12 B12").value
Traceback (most recent call last):
...
rules.errors.IllegalAction: R12 B12 B12 is not a group: two blue tiles [invalid_meld]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, overload

from rules.errors import IllegalAction
from rules.rummikub.tiles import COLOUR_NAMES, Tile, parse_tiles, tiles_text

__all__ = ["Meld", "MeldLike", "Reading", "meld_value", "read_meld"]

MIN_MELD = 3
MAX_GROUP = 4


@dataclass(frozen=True)
class Reading:
    """How a valid meld reads: its kind, the tile each position stands for, and its value."""

    kind: Literal["run", "group"]
    stands_for: tuple[Tile, ...]

    @property
    def value(self) -> int:
        return sum(t.number for t in self.stands_for)

    def __str__(self) -> str:
        return f"{self.kind} {tiles_text(self.stands_for)} = {self.value}"


def _run_reading(tiles: Sequence[Tile], step: int) -> tuple[Reading | None, str]:
    """The run reading in direction ``step`` (+1 ascending, −1 descending), or why there is none."""
    naturals = [(i, t) for i, t in enumerate(tiles) if not t.is_joker]
    colours = {t.colour for _, t in naturals}
    if len(colours) > 1:
        return None, "mixed colours"
    first_index, first = naturals[0]
    start = first.number - step * first_index
    for i, t in naturals:
        if t.number != start + step * i:
            return None, "numbers not consecutive"
    numbers = [start + step * i for i in range(len(tiles))]
    if min(numbers) < 1 or max(numbers) > 13:
        return None, "runs past 1 or 13"
    colour = first.colour
    return Reading("run", tuple(Tile(colour, n) for n in numbers)), ""


def _group_reading(tiles: Sequence[Tile]) -> tuple[Reading | None, str]:
    naturals = [t for t in tiles if not t.is_joker]
    numbers = {t.number for t in naturals}
    if len(numbers) > 1:
        return None, "different numbers"
    if len(tiles) > MAX_GROUP:
        return None, f"{len(tiles)} tiles, a group has at most 4"
    repeated = [c for c, k in Counter(t.colour for t in naturals).items() if k > 1]
    if repeated:
        return None, f"two {COLOUR_NAMES[repeated[0]]} tiles"
    number = naturals[0].number
    used = {t.colour for t in naturals}
    free = iter(c for c in COLOUR_NAMES if c not in used)
    # A joker in a group stands for a missing colour; which one does not change the value.
    stands_for = tuple(t if not t.is_joker else Tile(next(free), number) for t in tiles)
    return Reading("group", stands_for), ""


def read_meld(meld: MeldLike) -> Reading:
    """The reading of greatest value of a meld's tiles in table order; ``IllegalAction``
    (``invalid_meld``) naming the tiles and the reason when they are no meld.

    >>> str(read_meld("B9 B10 J")), str(read_meld(Meld.parse("O4 J O6")))
    ('run B9 B10 B11 = 30', 'run O4 O5 O6 = 15')
    """
    tiles = _tiles(meld)
    text = tiles_text(tiles)
    if len(tiles) < MIN_MELD:
        raise IllegalAction(
            "invalid_meld", f"{text} is not a meld: fewer than 3 tiles", meld=text, why="too_few"
        )
    naturals = [t for t in tiles if not t.is_joker]
    if not naturals:
        raise IllegalAction(
            "invalid_meld", f"{text} is not a meld: no natural tile", meld=text, why="no_natural"
        )
    readings: list[Reading] = []
    directions = (1,) if len(naturals) == 1 else (1, -1)
    run_reasons = []
    for step in directions:
        reading, reason = _run_reading(tiles, step)
        if reading is not None:
            readings.append(reading)
        else:
            run_reasons.append(reason)
    group, group_reason = _group_reading(tiles)
    if group is not None:
        readings.append(group)
    if readings:
        return max(readings, key=lambda r: r.value)
    # ``why`` names the reason for a translated sentence (``colour``: the repeated colour's name).
    details: dict[str, str] = {"meld": text}
    if len({t.number for t in naturals}) == 1:
        reason = f"is not a group: {group_reason}"
        repeated = [c for c, k in Counter(t.colour for t in naturals).items() if k > 1]
        if repeated:
            details.update(why="group_colour", colour=COLOUR_NAMES[repeated[0]])
        else:
            details["why"] = "group_too_long"
    elif len({t.colour for t in naturals}) == 1:
        numbers = {t.number for t in naturals}
        wraps = 1 in numbers and 13 in numbers
        reason = f"is not a run: {'1 cannot follow 13' if wraps else run_reasons[0]}"
        edge = run_reasons[0] == "runs past 1 or 13"
        details["why"] = "run_wrap" if wraps else "run_edge" if edge else "run_gap"
    else:
        reason = "is neither a run nor a group: mixed colours and numbers"
        details["why"] = "mixed"
    raise IllegalAction("invalid_meld", f"{text} {reason}", **details)


def meld_value(meld: MeldLike) -> int:
    """The value of a meld (jokers worth the tile they stand for); ``IllegalAction`` if no meld.

    It takes a :class:`Meld`, its text or its tiles:

    >>> meld_value("R7 R8 J"), meld_value(Meld.parse("K5 B5 O5")), meld_value(parse_tiles("B1 B2 B3"))
    (24, 15, 6)
    """
    return read_meld(meld).value


def _tiles(meld: MeldLike) -> Sequence[Tile]:
    if isinstance(meld, Meld):
        return meld.tiles
    return parse_tiles(meld) if isinstance(meld, str) else tuple(meld)


@dataclass(frozen=True, eq=False)
class Meld(Sequence[Tile]):
    """Tiles lying together on the table, in table order; it may be invalid (``reading`` raises).

    A meld is a sequence of its tiles (``len``, indexing, iteration), so it goes wherever tiles do.
    Equality ignores direction (a meld and its reverse are the same) and, for a group, the order of
    its tiles.

    >>> Meld.parse("R1 R2 R3") == Meld.parse("R3 R2 R1"), str(Meld.parse("r1  r2 r3"))
    (True, 'R1 R2 R3')
    >>> meld = Meld.parse("K7 J K9")
    >>> str(meld[0]), [str(t) for t in meld[1:]], len(meld)
    ('K7', ['J', 'K9'], 3)
    """

    tiles: tuple[Tile, ...]

    @classmethod
    def parse(cls, text: str) -> Meld:
        return cls(tuple(parse_tiles(text)))

    @classmethod
    def of(cls, tiles: MeldLike | Iterable[Tile]) -> Meld:
        """A meld from a meld, its text or its tiles."""
        if isinstance(tiles, Meld):
            return tiles
        return cls.parse(tiles) if isinstance(tiles, str) else cls(tuple(tiles))

    @cached_property
    def reading(self) -> Reading:
        return read_meld(self.tiles)

    @property
    def value(self) -> int:
        return self.reading.value

    @property
    def is_valid(self) -> bool:
        try:
            _ = self.reading
        except IllegalAction:
            return False
        return True

    @cached_property
    def key(self) -> tuple[tuple[int, int], ...]:
        """The same for a meld, its reverse and (for a group) any order of its tiles."""
        keys = tuple(t.sort_key() for t in self.tiles)
        if self.is_valid and self.reading.kind == "group":
            return tuple(sorted(keys))
        return min(keys, keys[::-1])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Meld) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __len__(self) -> int:
        return len(self.tiles)

    @overload
    def __getitem__(self, index: int) -> Tile: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Tile, ...]: ...

    def __getitem__(self, index: int | slice) -> Tile | tuple[Tile, ...]:
        return self.tiles[index]

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def __str__(self) -> str:
        return tiles_text(self.tiles)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"


MeldLike = Meld | str | Sequence[Tile]
"""What every function that takes a meld accepts: a :class:`Meld`, its text (``"R7 R8 J"``) or its tiles."""
