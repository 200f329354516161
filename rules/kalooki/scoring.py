"""End-of-deal penalties: what the losers' hands cost them (RULES.md §4, Penalties)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.kalooki.cards import Card

__all__ = [
    "KALOOKI_PENALTY",
    "PENALTY_VALUES",
    "deal_penalties",
    "hand_penalty",
    "penalties_of_points",
    "possible_points",
]

KALOOKI_PENALTY = 25
"""Added once to every loser's penalty when the winner made Kalooki."""


def hand_penalty(cards: Iterable[Card]) -> int:
    """Penalty points of a hand: 2–10 face value, J/Q/K 10, ace 11, joker 25.

    >>> from rules.kalooki.cards import parse_cards
    >>> hand_penalty(parse_cards("AS KD 7C JOKER"))
    53
    """
    return sum(card.penalty for card in cards)


def deal_penalties(hands: Sequence[Iterable[Card]], winner: int, kalooki: bool) -> tuple[int, ...]:
    """Every seat's penalty for a deal: 0 for the winner, the hand (+25 after a Kalooki) for the others."""
    return penalties_of_points([hand_penalty(hand) for hand in hands], winner, kalooki)


def penalties_of_points(points: Sequence[int], winner: int, kalooki: bool) -> tuple[int, ...]:
    """Every seat's penalty from the points of the hands left: 0 for the winner, the points (+25 after
    a Kalooki) for the others.

    >>> penalties_of_points([5, 0, 30], winner=1, kalooki=True)
    (30, 0, 55)
    """
    extra = KALOOKI_PENALTY if kalooki else 0
    return tuple(0 if seat == winner else p + extra for seat, p in enumerate(points))


PENALTY_VALUES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 25)
"""Every penalty a single card can cost (10 for the tens and the faces, 11 the ace, 25 the joker)."""


def possible_points(cards: Iterable[Card], count: int) -> int:
    """The penalty sums ``count`` of ``cards`` can make, as a bit mask: bit ``n`` is set when some
    ``count`` of them are worth ``n`` points together (0 when there are fewer than ``count`` cards).

    >>> from rules.kalooki.cards import parse_cards
    >>> mask = possible_points(parse_cards("2S 2H 10D AS JOKER"), 2)
    >>> [n for n in range(60) if mask >> n & 1]
    [4, 12, 13, 21, 27, 35, 36]
    """
    by_value: dict[int, int] = {}
    for card in cards:
        by_value[card.penalty] = by_value.get(card.penalty, 0) + 1
    reach = [1] + [0] * count  # reach[k]: the sums of k cards taken from the values so far
    for value, copies in by_value.items():
        before = reach
        reach = [0] * (count + 1)
        for k in range(count + 1):
            for j in range(min(copies, k) + 1):
                reach[k] |= before[k - j] << (j * value)
    return reach[count]
