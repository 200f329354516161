"""The 50-card deck, read from a manifest file and validated.

The true distribution of the cards is not published, so the deck is data: ``deck_default.json`` beside
this module is an *assumption* (its ``assumption`` text says so), and a table owner can count a physical
deck into a manifest of the same format and point the config at it::

    {"name": "my deck", "cards": {"1|1": 2, "0|6": 1, ...}}

``cards`` maps each card (either way round: ``4|3`` is ``3|4``) to how many the deck holds; the counts
must add up to exactly 50 and every half must be 0–6.

>>> len(load_deck()), str(load_deck()[0])
(50, '0|1')
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from rules.errors import NotationError
from rules.zatre.cards import Card

__all__ = ["DECK_SIZE", "DEFAULT_MANIFEST", "DeckError", "check_deck", "load_deck", "parse_manifest"]

DECK_SIZE = 50
DEFAULT_MANIFEST = "deck_default.json"


class DeckError(NotationError):
    """A deck manifest that cannot be used; the message names the file and the problem."""


def load_deck(path: str | Path | None = None) -> tuple[Card, ...]:
    """The deck of the manifest at ``path`` (``None``: the packaged default), sorted, each card in
    its ``key`` form."""
    if path is None:
        text = resources.files("rules.zatre").joinpath(DEFAULT_MANIFEST).read_text(encoding="utf-8")
        return parse_manifest(text, source=DEFAULT_MANIFEST)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DeckError(f"deck manifest {str(path)!r}: cannot read it ({exc.strerror})") from exc
    return parse_manifest(text, source=str(path))


def parse_manifest(text: str, source: str = "manifest") -> tuple[Card, ...]:
    """The deck described by the JSON text of a manifest; ``DeckError`` names ``source`` and the problem."""

    def no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        repeated = sorted({k for k in keys if keys.count(k) > 1})
        if repeated:
            raise DeckError(f"deck manifest {source!r}: {', '.join(repeated)} listed more than once")
        return dict(pairs)

    try:
        data = json.loads(text, object_pairs_hook=no_repeats)
    except json.JSONDecodeError as exc:
        raise DeckError(f"deck manifest {source!r}: not valid JSON ({exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("cards"), dict):
        raise DeckError(f"deck manifest {source!r}: expected an object with a 'cards' object of counts")
    cards: list[Card] = []
    seen: dict[Card, str] = {}
    for text_card, count in data["cards"].items():
        try:
            card = Card.parse(text_card).key
        except ValueError as exc:
            raise DeckError(f"deck manifest {source!r}: {exc}") from None
        if card in seen:
            raise DeckError(
                f"deck manifest {source!r}: {text_card!r} and {seen[card]!r} are the same card; "
                "list it once with its count"
            )
        seen[card] = text_card
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise DeckError(f"deck manifest {source!r}: count of {text_card!r} must be a whole number ≥ 1")
        cards.extend([card] * count)
    return check_deck(cards, source=f"deck manifest {source!r}")


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
