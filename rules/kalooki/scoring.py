"""End-of-deal penalties: what the losers' hands cost them (RULES.md §4, Penalties)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.kalooki.cards import Card

__all__ = ["KALOOKI_PENALTY", "deal_penalties", "hand_penalty"]

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
    extra = KALOOKI_PENALTY if kalooki else 0
    return tuple(0 if seat == winner else hand_penalty(hand) + extra for seat, hand in enumerate(hands))
