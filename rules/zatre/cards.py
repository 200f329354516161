"""The Zatre card: two dice halves side by side like a domino, each 0–6 (0 = blank half).

>>> card = Card.parse("3|4")
>>> str(card), card.total
('3|4', 7)
>>> card.turned() == Card(4, 3), card.same_card(Card(4, 3))
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.errors import NotationError

__all__ = ["MAX_HALF", "Card", "parse_cards"]

MAX_HALF = 6


@dataclass(frozen=True, order=True)
class Card:
    """A card as it lies: ``first`` and ``second`` half in reading order.

    A physical card can be turned round, so ``3|4`` and ``4|3`` are the same card (``same_card``);
    ``key`` is the form used to find a card in a hand.
    """

    first: int
    second: int

    def __post_init__(self) -> None:
        for half in (self.first, self.second):
            if isinstance(half, bool) or not isinstance(half, int) or not 0 <= half <= MAX_HALF:
                raise NotationError(f"card half {half!r} is not a number 0–{MAX_HALF}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"3|4"`` -> ``Card(3, 4)``; ``ValueError`` names the text when it is not a card."""
        parts = text.strip().split("|")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise NotationError(f"not a Zatre card: {text!r} (expected two halves 0–{MAX_HALF} like '3|4')")
        first, second = (int(p) for p in parts)
        if not (0 <= first <= MAX_HALF and 0 <= second <= MAX_HALF):
            raise NotationError(f"not a Zatre card: {text!r} (halves must be 0–{MAX_HALF})")
        return cls(first, second)

    def __str__(self) -> str:
        return f"{self.first}|{self.second}"

    @property
    def total(self) -> int:
        return self.first + self.second

    @property
    def key(self) -> Card:
        """The card with its lower half first: equal for the two ways a card can lie."""
        return self if self.first <= self.second else self.turned()

    def turned(self) -> Card:
        return Card(self.second, self.first)

    def same_card(self, other: Card) -> bool:
        return self.key == other.key


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """``"3|4 0|6"`` (or a list of card texts) -> the cards, in order."""
    items = text.split() if isinstance(text, str) else text
    return tuple(Card.parse(item) for item in items)
