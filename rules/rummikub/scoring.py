"""End-of-game scores: rack sums, the −100/−200 penalties for never opening, and the two endings
(a rack emptied; the pool exhausted). Every hand is zero-sum.

>>> from rules.rummikub.tiles import parse_tiles
>>> score_game([[], parse_tiles("R5 J"), parse_tiles("B2 B3")], [True, True, True])
[60, -55, -5]
>>> score_game([[], parse_tiles("R5 J")], [True, True], preset="official")
[35, -35]
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.rummikub.opening import can_open
from rules.rummikub.options import RummikubOptions
from rules.rummikub.tiles import Tile

__all__ = ["NEVER_OPENED", "NEVER_OPENED_COULD_HAVE", "rack_value", "score_game", "unopened_penalty"]

NEVER_OPENED = 100
NEVER_OPENED_COULD_HAVE = 200


def rack_value(rack: Sequence[Tile], joker_penalty: int) -> int:
    """The sum of a rack's numbers, a joker counting ``joker_penalty``."""
    return sum(joker_penalty if t.is_joker else t.number for t in rack)


def unopened_penalty(rack: Sequence[Tile], announced: bool) -> int:
    """100, or 200 when the final rack held a valid initial meld and no opening was announced."""
    if not announced and can_open(rack):
        return NEVER_OPENED_COULD_HAVE
    return NEVER_OPENED


def score_game(
    racks: Sequence[Sequence[Tile]],
    opened: Sequence[bool],
    announced: Sequence[bool] | None = None,
    preset: str = "seed",
    *,
    joker_penalty: int | None = None,
) -> list[int]:
    """One score per player from the final racks. An empty rack is the winner; with none empty the
    pool was exhausted: the lowest rack sum wins (tied lowest racks share the win, the total split
    equally, rounded down, any remainder to the first tied winner in seat order) and the others
    lose the difference to it. A player who never opened loses 100/200 instead of his rack."""
    if not len(racks) == len(opened) or (announced is not None and len(announced) != len(racks)):
        raise ValueError("racks, opened and announced need one entry per player")
    penalty = RummikubOptions.preset(preset).joker_penalty if joker_penalty is None else joker_penalty
    flags = list(announced) if announced is not None else [False] * len(racks)
    values = [rack_value(r, penalty) for r in racks]
    empty = [seat for seat, rack in enumerate(racks) if not rack]
    if len(empty) > 1:
        raise ValueError("only one player can empty his rack")
    winners = empty or [seat for seat, v in enumerate(values) if v == min(values)]
    base = values[winners[0]]
    scores = [0] * len(racks)
    for seat, rack in enumerate(racks):
        if seat in winners:
            continue
        if opened[seat]:
            scores[seat] = -(values[seat] - base)
        else:
            scores[seat] = -unopened_penalty(rack, flags[seat])
    total = -sum(scores)
    for seat in winners:
        scores[seat] = total // len(winners)
    scores[winners[0]] += total % len(winners)
    return scores
