"""Checking a turn from the table before and after it — all the device can see at a real table.

The played tiles are the difference; the checks run in this order and the first that fails is
reported: ``invalid_meld`` (every meld on the table valid), ``tile_removed`` (nothing that was on
the table left it, a freed joker included), ``no_tile_played`` (at least one rack tile added),
``table_touched_before_opening`` (an opening lays new melds only and leaves the old ones as they
were), ``opening_too_low`` (the new melds of an opening total ≥ 30).

>>> [str(t) for t in check_turn(["R3 R4 R5"], ["R3 R4 R5 R6"])]
['R6']
>>> check_turn(["R3 J R5", "B7 K7 O7"], ["R3 R4 R5", "B7 K7 O7"])
Traceback (most recent call last):
...
rules.errors.IllegalAction: J was taken off the table: a freed joker must be laid again [tile_removed]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rules.errors import IllegalAction
from rules.rummikub.melds import Meld, MeldLike
from rules.rummikub.opening import OPENING_MINIMUM
from rules.rummikub.tiles import Tile, tiles_text

__all__ = ["MeldLike", "check_turn", "played_tiles"]


def _sorted(tiles: Iterable[Tile]) -> list[Tile]:
    return sorted(tiles, key=Tile.sort_key)


def played_tiles(before: Sequence[MeldLike], after: Sequence[MeldLike]) -> tuple[list[Tile], list[Tile]]:
    """``(added, removed)``: the tiles on the table after but not before, and the other way round."""
    old = Counter(t for m in before for t in Meld.of(m))
    new = Counter(t for m in after for t in Meld.of(m))
    return _sorted((new - old).elements()), _sorted((old - new).elements())


def check_turn(
    before: Sequence[MeldLike],
    after: Sequence[MeldLike],
    opened: bool = True,
    minimum: int = OPENING_MINIMUM,
) -> list[Tile]:
    """The tiles played from the rack in a turn that turned table ``before`` into ``after``.

    ``opened``: whether the player had made his initial meld before this turn (if not, this turn
    is his opening). Raises ``IllegalAction`` with the first failing code, in the order above.
    """
    old = [Meld.of(m) for m in before]
    new = [Meld.of(m) for m in after]
    for meld in new:
        meld.reading  # noqa: B018 - raises invalid_meld naming the meld
    added, removed = played_tiles(old, new)
    if removed:
        text = tiles_text(removed)
        verb = "was" if len(removed) == 1 else "were"
        why = ": a freed joker must be laid again" if any(t.is_joker for t in removed) else ""
        raise IllegalAction(
            "tile_removed", f"{text} {verb} taken off the table{why}", tiles=[str(t) for t in removed]
        )
    if not added:
        raise IllegalAction("no_tile_played", "no tile from the rack was laid", tiles=[])
    if not opened:
        new_melds = list(new)
        for meld in old:
            if meld in new_melds:
                new_melds.remove(meld)
            else:
                raise IllegalAction(
                    "table_touched_before_opening",
                    f"{meld} was changed, but the table may not be touched in an opening",
                    meld=str(meld),
                )
        value = sum(m.value for m in new_melds)
        if value < minimum:
            laid = ", ".join(str(m) for m in new_melds)
            raise IllegalAction(
                "opening_too_low",
                f"the opening {laid} is worth {value}, it needs at least {minimum}",
                value=value,
                minimum=minimum,
            )
    return added
