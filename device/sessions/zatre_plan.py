"""How a player lays a chosen Zatre turn on the screen: which target to tap next.

The simulated players (``device.sessions.zatre_sim``), the tests and the tap-count benchmark choose a
turn (a legal ``Lay``) and then play it the way a person does, one tap at a time, looking at the
screen between taps: tap the half of the card that goes on the cell, tap the cell, tap the laid card
again while it lies the wrong way round, move the view when the cell is off the screen, and finally
tap *Lay* (or press the seat button).
"""

from __future__ import annotations

import random
from collections.abc import Collection

from device.sessions.zatre import ROTATIONS, ZatreSession
from rules.zatre import Lay, Placement, ZatreState, random_lay

__all__ = ["LAY", "TAKE_BACK", "anchor_of", "choose_turn", "next_tap"]

LAY = "lay"  # the last step: enter the turn (the Lay touch or the seat button)
TAKE_BACK = "take back"  # the Take back touch


def anchor_of(hand_card: tuple[int, int], placement: Placement) -> tuple[int, tuple[int, int], str]:
    """The half of the hand's card to tap (0 or 1), the cell to tap and the rotation the card must
    end up in for ``placement``: the half that lies first (left, top) is tapped and goes on the first
    cell, so the card lies right or below, the first sides the screen tries.

    >>> anchor_of((3, 4), Placement.parse("4|3@0,0H")), anchor_of((3, 4), Placement.parse("3|4@2,5V"))
    ((1, (0, 0), 'right'), (0, (2, 5), 'below'))
    """
    (first_cell, value), _ = placement.cells
    anchor = 0 if hand_card[0] == value else 1
    return anchor, first_cell, "right" if placement.orientation == "H" else "below"


def choose_turn(state: ZatreState, rng: random.Random) -> Lay:
    """The turn a simulated player makes: a random legal one, or the best-scoring row-maker half the
    time (a player who looks for the 11s and 12s)."""
    from device.sessions.zatre import best_turn

    if rng.random() < 0.5:
        best = best_turn(state)
        if best is not None:
            return best
    return random_lay(state, rng)


def next_tap(session: ZatreSession, plan: Lay, shown: Collection[str]) -> str:
    """The label of the next target to tap for ``plan``: a hand's half, a cell, a pan arrow, or
    ``TAKE_BACK`` / ``LAY`` for those two buttons (their labels are in the players' language).
    ``shown`` are the labels of the targets drawn now (a cell off the view is reached with the arrows)."""
    pending = session.pending
    hand = session.hand
    for n, placed in enumerate(pending):
        want = plan.placements[n] if n < len(plan.placements) else None
        if placed.placement == want:
            continue
        if n < len(pending) - 1:
            return _cell(placed.cell, shown)  # an earlier card lies wrong: tapping it takes it back
        card = hand[placed.hand_index]
        if want is not None and card.key == want.card.key:
            anchor, cell, _ = anchor_of((card.first, card.second), want)
            if (anchor, cell) == (placed.anchor, placed.cell):
                return _cell(cell, shown)  # the right card on the right cell, the wrong way round
        return TAKE_BACK
    if len(pending) == len(plan.placements):
        return LAY
    target = plan.placements[len(pending)]
    used = {p.hand_index for p in pending}
    index = next(i for i, c in enumerate(hand) if i not in used and c.key == target.card.key)
    card = hand[index]
    anchor, cell, _ = anchor_of((card.first, card.second), target)
    if session.picked != (index, anchor):
        return f"hand {index + 1}.{anchor + 1}"
    return _cell(cell, shown)


def _cell(cell: tuple[int, int], shown: Collection[str]) -> str:
    label = f"cell {cell[0]},{cell[1]}"
    if label in shown:
        return label
    xs = [int(s.split()[1].split(",")[0]) for s in shown if s.startswith("cell ")]
    ys = [int(s.split()[1].split(",")[1]) for s in shown if s.startswith("cell ")]
    if not xs:
        return "pan left"
    if cell[0] < min(xs):
        return "pan left"
    if cell[0] > max(xs):
        return "pan right"
    return "pan up" if cell[1] < min(ys) else "pan down"


assert ROTATIONS == ("right", "below", "left", "above")  # anchor_of's names are the session's
