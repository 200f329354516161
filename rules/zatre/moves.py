"""The legal-placement generator: every legal (card, x, y, orientation) for a hand.

Used for hints, for the unplayable-hand check and by the random player. Only positions that cover an
empty half-cell next to a laid card can touch, so only those are tried; the three row sums beyond a
position do not depend on the card, so they are summed once per position and each card is then checked
with three additions.

>>> from rules.zatre.board import Board, place
>>> board, _ = place(Board(), "6|6@0,0H")
>>> [str(p) for p in legal_placements(board, [Card.parse("6|6")])]
['6|6@-1,-1H', '6|6@-1,1H', '6|6@0,-1H', '6|6@0,1H', '6|6@1,-1H', '6|6@1,1H']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rules.zatre.board import MAX_ROW, Board, Cell, Orientation, Placement, card_lines
from rules.zatre.cards import Card

__all__ = ["can_lay", "card_forms", "legal_placements"]

_STEP: dict[Orientation, tuple[int, int]] = {"H": (1, 0), "V": (0, 1)}
_ORIENTATIONS: tuple[Orientation, ...] = ("H", "V")


def card_forms(cards: Iterable[Card]) -> list[Card]:
    """Each distinct card of ``cards`` both ways round (a double once), in a fixed order."""
    forms: list[Card] = []
    for key in sorted({card.key for card in cards}):
        forms.append(key)
        if key.first != key.second:
            forms.append(key.turned())
    return forms


def _positions(board: Board) -> Iterator[tuple[int, int, Orientation, int, int, int]]:
    """Every empty position next to the laid cards, as (x, y, orientation) of the first half plus the
    sums of laid cells beyond it: along the card, across the first half, across the second half."""
    cells = board.cells
    starts: set[tuple[Cell, Orientation]] = set()
    for fx, fy in board.frontier():
        for orientation, (dx, dy) in _STEP.items():
            for first in ((fx, fy), (fx - dx, fy - dy)):
                second = (first[0] + dx, first[1] + dy)
                if first not in cells and second not in cells:
                    starts.add((first, orientation))
    probe = Card(0, 0)
    for (x, y), orientation in sorted(starts):
        along, across_first, across_second = card_lines(cells, Placement(probe, x, y, orientation))
        yield x, y, orientation, along.total, across_first.total, across_second.total


def legal_placements(board: Board, cards: Iterable[Card]) -> list[Placement]:
    """Every legal placement of any of ``cards`` on ``board``, each card both ways round.

    On an empty board any card lies anywhere; positions there are all alike, so the card is offered
    at the origin in both orientations.
    """
    forms = card_forms(cards)
    if not board:
        return [Placement(form, 0, 0, o) for form in forms for o in _ORIENTATIONS]
    legal = []
    for x, y, orientation, along, across_first, across_second in _positions(board):
        for form in forms:
            a, b = form.first, form.second
            if along + a + b <= MAX_ROW and across_first + a <= MAX_ROW and across_second + b <= MAX_ROW:
                legal.append(Placement(form, x, y, orientation))
    return legal


def can_lay(board: Board, cards: Iterable[Card]) -> bool:
    """Whether any of ``cards`` has a legal placement on ``board``."""
    forms = card_forms(cards)
    if not forms or not board:
        return bool(forms)
    for _, _, _, along, across_first, across_second in _positions(board):
        for form in forms:
            a, b = form.first, form.second
            if along + a + b <= MAX_ROW and across_first + a <= MAX_ROW and across_second + b <= MAX_ROW:
                return True
    return False
