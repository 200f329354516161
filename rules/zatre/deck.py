"""The 50-card deck as a value: validated, never read from a file here.

The true distribution of the cards is not published, so the deck is data. :data:`DEFAULT_COUNTS` is an
*assumption* (:data:`DEFAULT_ASSUMPTION` says so); a table owner counts a physical deck into a
manifest (the device's ``device.zatre_deck``: a file, written by the owner's deck count on the
settings screen, named by the config's ``[games.zatre] deck_manifest``), and the device hands the
counts to the rules (:func:`deck_from_counts`) and the cards to the options (``ZatreOptions.deck``).

A deck is exactly :data:`DECK_SIZE` cards, each two halves 0–6 (RULES.md §5); a card is the same
either way round (``4|3`` is ``3|4``).

>>> deck = default_deck()
>>> len(deck), str(deck[0]), deck_counts(deck)[Card(5, 6)]
(50, '0|1', 2)
>>> deck_from_counts({"3|4": 49})
Traceback (most recent call last):
...
rules.zatre.deck.DeckError: deck: 49 cards; a Zatre deck has exactly 50
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache

from rules.errors import NotationError
from rules.zatre.cards import Card

__all__ = [
    "DECK_SIZE",
    "DEFAULT_ASSUMPTION",
    "DEFAULT_COUNTS",
    "DeckError",
    "check_deck",
    "deck_counts",
    "deck_from_counts",
    "default_deck",
]

DECK_SIZE = 50
DEFAULT_ASSUMPTION = (
    "ASSUMPTION: the true distribution of the 50 cards of Zatre - Das Kartenspiel (Amigo 2007) is not "
    "published. This default has every pair of 1-6 twice (42 cards, doubles included) and 8 cards with "
    "one blank half: 0|1 to 0|4 once, 0|5 and 0|6 twice. Count a physical deck on the device (Settings, "
    "Zatre, Count the deck) or write a manifest and point [games.zatre] deck_manifest at it."
)
DEFAULT_COUNTS: Mapping[str, int] = {
    **{f"{a}|{b}": 2 for a in range(1, 7) for b in range(a, 7)},
    "0|1": 1,
    "0|2": 1,
    "0|3": 1,
    "0|4": 1,
    "0|5": 2,
    "0|6": 2,
}


class DeckError(NotationError):
    """A deck that cannot be used; the message names where it came from and the problem."""


@cache
def default_deck() -> tuple[Card, ...]:
    """The assumed deck (:data:`DEFAULT_COUNTS`), sorted, each card in its ``key`` form."""
    return deck_from_counts(DEFAULT_COUNTS, source="the assumed deck")


def deck_from_counts(
    counts: Mapping[str, int] | Mapping[Card, int] | Mapping[str | Card, int], source: str = "deck"
) -> tuple[Card, ...]:
    """The deck of a count per card (``{"3|4": 2, ...}`` or ``{Card(3, 4): 2, ...}``): every count a
    whole number ≥ 1, no card twice (either way round), exactly 50 cards in all. ``DeckError`` names
    ``source``, the card and the problem."""
    cards: list[Card] = []
    seen: dict[Card, str] = {}
    for item, count in counts.items():
        try:
            card = (item if isinstance(item, Card) else Card.parse(item)).key
        except ValueError as exc:
            raise DeckError(f"{source}: {exc}") from None
        if card in seen:
            raise DeckError(
                f"{source}: {str(item)!r} and {seen[card]!r} are the same card; list it once with its count"
            )
        seen[card] = str(item)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise DeckError(f"{source}: count of {str(item)!r} must be a whole number ≥ 1, not {count!r}")
        cards.extend([card] * count)
    return check_deck(cards, source=source)


def check_deck(cards: Iterable[Card | str], source: str = "deck") -> tuple[Card, ...]:
    """The cards as a sorted deck in ``key`` form, if they are exactly 50 valid cards.

    >>> check_deck(["3|4"] * 49)
    Traceback (most recent call last):
    ...
    rules.zatre.deck.DeckError: deck: 49 cards; a Zatre deck has exactly 50
    """
    deck: list[Card] = []
    for item in cards:
        try:
            deck.append((item if isinstance(item, Card) else Card.parse(item)).key)
        except ValueError as exc:
            raise DeckError(f"{source}: {exc}") from None
    if len(deck) != DECK_SIZE:
        raise DeckError(f"{source}: {len(deck)} cards; a Zatre deck has exactly {DECK_SIZE}")
    return tuple(sorted(deck))


def deck_counts(cards: Iterable[Card]) -> Counter[Card]:
    """How many of each card (in ``key`` form) ``cards`` holds."""
    return Counter(card.key for card in cards)
