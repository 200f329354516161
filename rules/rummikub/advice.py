"""The coach's advice for one Rummikub move: what the rack allowed on that table, exact.

:func:`advise` answers for a table, a rack and whether the player has opened: the best move (the
most rack tiles laid, then the most value, then the fewest old melds changed: :func:`best_move`), or
before the opening, "can you open?" and the best opening. :func:`parse_table` reads a table written
as melds separated by ``|`` (``"R1 R2 R3|K7 B7 O7"``), tiles as everywhere else.

>>> advice = advise(parse_table("R1 R2 R3|K7 B7 O7"), parse_tiles("R4 R5 J"), opened=True)
>>> advice.tiles_possible, [str(m) for m in advice.table_after]
(3, ['R1 R2 R3 R4 R5', 'B7 K7 O7 J'])
>>> advice = advise(parse_table("R1 R2 R3|K7 B7 O7"), parse_tiles("R4 R5 K1"), opened=True)
>>> [str(m) for m in advice.table_after], [str(m) for m in advice.changed_melds]
(['K7 B7 O7', 'R1 R2 R3 R4 R5'], ['R1 R2 R3'])

Before the opening only new melds count, and they must be worth 30:

>>> advice = advise(parse_table("R1 R2 R3"), parse_tiles("R4 R5 R6 B10 K10 O10"), opened=False)
>>> advice.can_open, advice.opening_value, advice.tiles_possible, [str(m) for m in advice.new_melds]
(True, 45, 6, ['R4 R5 R6', 'B10 K10 O10'])
>>> advise([], parse_tiles("R4 R5 R6 B1 K1 O1"), opened=False).can_open
False

*The opening's exactness.* Before the opening the best move is the arrangement of the rack alone
with the most tiles, then the most value, when it is worth 30 or more (then it is exact: nothing
lays more). When that arrangement is worth less than 30 but another reaches 30 (fewer tiles of
greater value), the advice is the most valuable opening (:func:`best_opening`): it can open, but a
valid opening with more tiles than it may exist (``Advice.exact`` is ``False``; the bench counts
how often).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import IllegalAction, NotationError
from rules.rummikub.best_move import Move, best_move
from rules.rummikub.check import played_tiles
from rules.rummikub.melds import Meld, MeldLike
from rules.rummikub.opening import OPENING_MINIMUM, best_opening
from rules.rummikub.partition import TileCounts, solve
from rules.rummikub.tiles import Tile, full_set, parse_tiles, tiles_text

__all__ = ["Advice", "advise", "check_position", "parse_table", "table_text", "tiles_laid"]

_TILE_WEIGHT = 2000  # as in best_move: one more tile always beats more value


@dataclass(frozen=True)
class Advice:
    """What a rack allowed on a table: the best move (``None``: nothing can be laid, draw) and,
    before the opening, the most valuable opening."""

    table: tuple[Meld, ...]
    rack: tuple[Tile, ...]
    opened: bool
    move: Move | None
    opening_value: int = 0  # not opened: the value of the most valuable opening (0 when opened)
    opening: tuple[Meld, ...] = ()  # not opened: that opening's melds
    exact: bool = True  # False only for the rare opening described in the module docstring

    @property
    def tiles_possible(self) -> int:
        return 0 if self.move is None else len(self.move.placed)

    @property
    def can_open(self) -> bool:
        """Before the opening: whether the rack holds an opening worth 30 (after it: True)."""
        return self.opened or self.opening_value >= OPENING_MINIMUM

    @property
    def placed(self) -> tuple[Tile, ...]:
        return () if self.move is None else self.move.placed

    @property
    def table_after(self) -> tuple[Meld, ...]:
        """The table after the best move (the table as it is when nothing can be laid)."""
        return self.table if self.move is None else self.move.table

    @property
    def kept(self) -> int:
        """How many old melds the best move leaves as they lie (they open :attr:`table_after`)."""
        return len(self.table) - (0 if self.move is None else self.move.changed)

    @property
    def new_melds(self) -> tuple[Meld, ...]:
        """The melds of the table after that are not old melds left alone: new or rearranged."""
        return self.table_after[self.kept :]

    @property
    def changed_melds(self) -> tuple[Meld, ...]:
        """The old melds the best move takes apart (what the player rearranges by hand)."""
        left = Counter(self.table_after[: self.kept])
        out = []
        for meld in self.table:
            if left[meld]:
                left[meld] -= 1
            else:
                out.append(meld)
        return tuple(out)

    def to_json(self, ms: float | None = None) -> dict[str, object]:
        out: dict[str, object] = {
            "tiles_laid": self.tiles_possible,
            "table": [[str(t) for t in m] for m in self.table_after],
            "placed": [str(t) for t in self.placed],
            "value": 0 if self.move is None else self.move.value,
            "changed": len(self.changed_melds),
            "opened": self.opened,
        }
        if not self.opened:
            out["can_open"] = self.can_open
            out["opening_value"] = self.opening_value
            out["opening"] = [[str(t) for t in m] for m in self.opening]
            out["exact"] = self.exact
        if ms is not None:
            out["ms"] = round(ms, 3)
        return out


def advise(table: Sequence[MeldLike], rack: Sequence[Tile], *, opened: bool) -> Advice:
    """The advice for a player holding ``rack`` at ``table`` (``opened``: he has made his initial
    meld). Exact (see the module docstring for the one opening case that is not)."""
    old = tuple(Meld.of(m) for m in table)
    hand = tuple(rack)
    if opened:
        return Advice(old, hand, True, best_move(old, hand) if hand else None)
    value, melds = best_opening(hand)
    opening = tuple(melds)
    if value < OPENING_MINIMUM:
        return Advice(old, hand, False, None, value, opening)
    found = solve(TileCounts.of([]), TileCounts.of(hand), _TILE_WEIGHT)
    assert found is not None  # laying nothing is always possible
    most = tuple(Meld(m) for m in found.melds)
    exact = sum(m.value for m in most) >= OPENING_MINIMUM
    new = most if exact else opening
    move = Move((*old, *new), tuple(t for m in new for t in m), sum(m.value for m in new), 0)
    return Advice(old, hand, False, move, value, opening, exact)


def tiles_laid(before: Sequence[MeldLike], after: Sequence[MeldLike]) -> int:
    """How many tiles a move laid: the tiles on the table after and not before."""
    return len(played_tiles(before, after)[0])


def parse_table(text: str) -> list[Meld]:
    """A table written as melds separated by ``|`` (``"R1 R2 R3|K7 B7 O7"``; ``""``: empty). Each
    meld must be valid: ``IllegalAction`` (``invalid_meld``) names the one that is not;
    ``NotationError`` names a word that is not a tile or an empty meld between two ``|``.

    >>> [str(m) for m in parse_table(" R1 R2 R3 | K7 B7 O7 ")]
    ['R1 R2 R3', 'K7 B7 O7']
    >>> parse_table("R1 R2 R3||B4 K4 O4")
    Traceback (most recent call last):
    ...
    rules.errors.NotationError: meld 2 of the table is empty (two '|' in a row)
    """
    if not text.strip():
        return []
    melds = []
    for i, part in enumerate(text.split("|"), start=1):
        tiles = parse_tiles(part)
        if not tiles:
            raise NotationError(f"meld {i} of the table is empty (two '|' in a row)")
        meld = Meld(tuple(tiles))
        meld.reading  # noqa: B018 - raises invalid_meld naming the meld
        melds.append(meld)
    return melds


def table_text(melds: Sequence[MeldLike]) -> str:
    """The notation :func:`parse_table` reads."""
    return "|".join(tiles_text(Meld.of(m)) for m in melds)


def check_position(table: Sequence[MeldLike], rack: Sequence[Tile]) -> None:
    """``IllegalAction`` (``too_many_copies``) when the table and the rack hold more copies of a
    tile than the 106-tile set (two of each, two jokers).

    >>> check_position(parse_table("R1 R2 R3"), parse_tiles("R1 R1"))
    Traceback (most recent call last):
    ...
    rules.errors.IllegalAction: R1: more copies on the table and the rack than the set holds [too_many_copies]
    """
    seen = Counter([*(t for m in table for t in Meld.of(m)), *rack])
    extra = seen - Counter(full_set())
    if extra:
        text = tiles_text(sorted(extra.elements(), key=Tile.sort_key))
        raise IllegalAction(
            "too_many_copies", f"{text}: more copies on the table and the rack than the set holds", tiles=text
        )
