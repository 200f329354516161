"""Playing cards: the :class:`Card` value object, its text form and parser, and the 106-card deck.

Text form (RULES.md, notation): rank ``A 2..10 J Q K`` + suit ``S H D C``; the joker is ``JOKER``.
Input is case-insensitive, ``T`` means 10 and the suit symbols ``♠ ♥ ♦ ♣`` are accepted.

>>> Card.parse("th"), Card.parse("A♠"), Card.parse("joker")
(Card.parse('10H'), Card.parse('AS'), Card.parse('JOKER'))
>>> [str(c) for c in parse_cards("AS 10H JOKER")]
['AS', '10H', 'JOKER']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from rules.errors import NotationError

__all__ = ["DECK", "DECK_COUNTS", "JOKER", "RANK_NAMES", "SUITS", "Card", "cards_text", "parse_cards"]

SUITS = "SHDC"
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"} | {n: str(n) for n in range(2, 11)}
_RANKS_BY_NAME = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10}


@dataclass(frozen=True, order=True)
class Card:
    """One card: ``rank`` 1 (ace) … 13 (king) and ``suit`` one of ``SHDC``; the joker is rank 0, suit ``""``.

    Both decks' copies of a card are equal: the rules never tell them apart.
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if (self.rank, self.suit) != (0, "") and (self.rank not in RANK_NAMES or self.suit not in SUITS):
            raise NotationError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card; ``ValueError`` names the text when it is not a card."""
        token = text.strip().upper()
        if token == "JOKER":
            return JOKER
        if len(token) < 2:
            raise NotationError(f"not a card: {text!r} (expected e.g. AS, 10H, TH, Q♦ or JOKER)")
        rank_name, suit = token[:-1], _SUIT_SYMBOLS.get(token[-1], token[-1])
        if rank_name not in _RANKS_BY_NAME or suit not in SUITS:
            raise NotationError(f"not a card: {text!r} (expected e.g. AS, 10H, TH, Q♦ or JOKER)")
        return cls(_RANKS_BY_NAME[rank_name], suit)

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def penalty(self) -> int:
        """Points when left in a loser's hand: ace 11, J/Q/K 10, joker 25, others face value."""
        if self.is_joker:
            return 25
        if self.rank == 1:
            return 11
        return min(self.rank, 10)

    def sort_key(self) -> tuple[int, int]:
        """Order for showing a hand: by suit, then rank, jokers last."""
        if self.is_joker:
            return (len(SUITS), 0)
        return (SUITS.index(self.suit), self.rank)

    def __str__(self) -> str:
        return "JOKER" if self.is_joker else RANK_NAMES[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


JOKER = Card(0, "")

DECK: tuple[Card, ...] = (
    *(Card(rank, suit) for _copy in range(2) for suit in SUITS for rank in range(1, 14)),
    JOKER,
    JOKER,
)
"""Two 52-card decks and two jokers: 106 cards."""

DECK_COUNTS: Counter[Card] = Counter(DECK)


def parse_cards(text: str) -> list[Card]:
    """Cards separated by spaces (or commas): ``parse_cards("AS 10H JOKER")``."""
    return [Card.parse(token) for token in text.replace(",", " ").split()]


def cards_text(cards: Iterable[Card]) -> str:
    """The text form of several cards, space separated."""
    return " ".join(str(card) for card in cards)
