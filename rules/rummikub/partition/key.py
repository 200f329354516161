"""The programme's search node, packed into one int (hashing it is what the searches do most).

A node sits inside number n before step c of that number (c = 0..3 the colours, c = 4 its groups)
and holds, as digits of mixed radix:

======================  =====  ==========================================================
field                   radix  meaning
======================  =====  ==========================================================
:data:`PAIR`            2      some colour gave two tiles to the groups of this number
:data:`GROUPED`         9      natural tiles given to the groups of this number so far
:data:`JOKERS`          3      jokers used so far
:data:`COLOUR_STATE` c  |S|    the run state of colour c (an index into :data:`STATES`)
:data:`KEPT`            —      when keeping old melds: those still lying over the current
                               number, as a bit mask above every other field
======================  =====  ==========================================================

Each field's place is a multiple of every lower field's radix product, so adding to one never
moves another (a move is a key difference, the same for every node that shares what it reads).
``core.c`` packs its keys the same way (its ``*_PLACE`` constants; the run states' count and order
come from :data:`STATES`): a change here is a change there.

>>> key = JOKERS.add(COLOUR_STATE[2].add(START, STATE_ID[(1, MATURE)]), 2)
>>> JOKERS.of(key), STATES[COLOUR_STATE[2].of(key)], GROUPED.of(key), PAIR.of(key)
(2, (1, 3), 0, 0)
>>> settled(key), settled(JOKERS.add(START, 1))
(False, True)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from rules.rummikub.tiles import COLOURS, NUMBERS, Tile

__all__ = [
    "COLOUR_STATE",
    "GROUPED",
    "JOKERS",
    "KEPT",
    "KEY_BITS",
    "MATURE",
    "NC",
    "NUMBER_PART",
    "PAIR",
    "START",
    "STATES",
    "STATE_ID",
    "STEPS",
    "Field",
    "Key",
    "RunState",
    "reads",
    "settled",
    "step_of",
]

MATURE = 3  # a run of three or more tiles may end at any number
NC = len(COLOURS)

Key = int
RunState = tuple[int, ...]  # sorted lengths of the open runs of one colour, each 1, 2 or MATURE

# Every run state of one colour: at most four runs open (two copies and two jokers).
STATES: list[RunState] = sorted(
    {
        tuple(sorted(lengths))
        for size in range(5)
        for lengths in itertools.product((1, 2, MATURE), repeat=size)
    }
)
STATE_ID = {state: i for i, state in enumerate(STATES)}
_SETTLED = frozenset(i for i, state in enumerate(STATES) if all(length == MATURE for length in state))


@dataclass(frozen=True)
class Field:
    """One digit of the key: its place and radix (``None``: the top field, unbounded)."""

    place: int
    radix: int | None

    def of(self, key: Key) -> int:
        digit = key // self.place
        return digit if self.radix is None else digit % self.radix

    def add(self, key: Key, amount: int) -> Key:
        """``key`` with ``amount`` added to this field (the caller keeps it within the radix)."""
        return key + amount * self.place


PAIR = Field(1, 2)
GROUPED = Field(2, 9)
JOKERS = Field(18, 3)
# Colour 3 just above the jokers, colour 0 highest: a colour's step reads its own field and those
# below the colours, which are then one contiguous low part of the key (see reads).
COLOUR_STATE = tuple(Field(54 * len(STATES) ** (NC - 1 - c), len(STATES)) for c in range(NC))
NUMBER_PART = COLOUR_STATE[-1].place  # key % NUMBER_PART: the pair, grouped and jokers fields
KEPT = Field(54 * len(STATES) ** NC, None)
KEY_BITS = 32  # every key without KEPT is below KEPT.place < 2 ** 32
START: Key = 0  # every colour in state () (id 0), no joker used, nothing grouped

STEPS = [(n, c) for n in NUMBERS for c in range(NC + 1)]  # c == NC: the groups of number n


def step_of(tile: Tile) -> int:
    """The index in :data:`STEPS` of a natural tile's colour step."""
    return (tile.number - 1) * (NC + 1) + tile.colour_index


def reads(index: int, key: Key) -> int:
    """The part of ``key`` that step ``index`` reads: jokers used, tiles grouped and the pair flag,
    and for a colour's step that colour's run state. Nodes that agree on it have the same moves."""
    place = _READ_PLACE[index]
    if not place:
        return key % NUMBER_PART
    return key // place % _RADIX * NUMBER_PART + key % NUMBER_PART  # COLOUR_STATE[c].of, inlined


_READ_PLACE = [COLOUR_STATE[c].place if c < NC else 0 for _, c in STEPS]
_RADIX = len(STATES)


def settled(key: Key) -> bool:
    """No colour has a run open shorter than three."""
    return all(field.of(key) in _SETTLED for field in COLOUR_STATE)
