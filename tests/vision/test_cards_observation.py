"""The card reading as a value: the observation protocol, melds by position, and the third copy of a card
(two decks hold two) as an error naming the card."""

from __future__ import annotations

import pytest

from rules.kalooki.cards import Card
from vision.cards import CardCopyError, CardObservation, SeenCard, group_cards
from vision.observation import Observation


def seen(text: str, x: float, y: float, confidence: float = 0.99, w: float = 40, h: float = 120) -> SeenCard:
    return SeenCard(Card.parse(text), (x, y), (x - w / 2, y - h / 2, x + w / 2, y + h / 2), 0.0, confidence)


def test_a_card_reading_is_an_observation() -> None:
    observation = CardObservation((seen("7H", 100, 100),), loose=(0,))
    assert isinstance(observation, Observation)
    assert [item.label for item in observation.items] == ["7H"]
    assert not observation.empty and CardObservation(()).empty
    assert observation.items[0].zone is None and observation.items[0].size == 120


def test_fanned_cards_form_melds_in_order_and_a_card_apart_is_loose() -> None:
    # A fan left to right, a fan top to bottom (boxes overlapping), and one card alone.
    cards = [
        seen("9S", 170, 100),
        seen("7S", 100, 100),
        seen("8S", 135, 100),
        seen("QD", 500, 400, w=120, h=40),
        seen("QH", 500, 365, w=120, h=40),
        seen("QC", 500, 330, w=120, h=40),
        seen("JOKER", 800, 100),
    ]
    melds, loose = group_cards(cards)
    words = sorted(" ".join(str(cards[i].card) for i in m) for m in melds)
    assert words == ["7S 8S 9S", "QC QH QD"]
    assert [str(cards[i].card) for i in loose] == ["JOKER"]


def test_same_as_ignores_the_order_along_a_meld_and_small_moves() -> None:
    a = [seen("7S", 100, 100), seen("8S", 135, 100), seen("9S", 170, 100)]
    b = [seen("9S", 172, 101), seen("8S", 137, 99), seen("7S", 101, 100)]
    first = CardObservation(tuple(a), *_grouped(a))
    second = CardObservation(tuple(b), *_grouped(b))
    assert first.same_as(second)
    c = [seen("7S", 100, 100), seen("8S", 135, 100), seen("9S", 400, 100)]
    assert not first.same_as(CardObservation(tuple(c), *_grouped(c)))


def _grouped(cards: list[SeenCard]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    melds, loose = group_cards(cards)
    return tuple(melds), tuple(loose)


def test_two_equal_cards_are_two_cards() -> None:
    cards = (seen("7H", 100, 100), seen("7H", 400, 100))
    observation = CardObservation(cards, loose=(0, 1))
    assert observation.copy_error == ""
    assert observation.cards_on_table() == [[Card.parse("7H")], [Card.parse("7H")]]


def test_a_third_copy_of_a_card_is_an_error_naming_the_card() -> None:
    cards = (seen("7H", 100, 100), seen("7H", 400, 100), seen("7H", 700, 100), seen("8H", 700, 400))
    observation = CardObservation(cards, loose=(0, 1, 2, 3))
    assert "3 × 7H" in observation.copy_error and "8H" not in observation.copy_error
    with pytest.raises(CardCopyError, match="7H"):
        observation.cards_on_table()
    # A third joker too.
    jokers = tuple(seen("JOKER", 100 + 300 * i, 100) for i in range(3))
    with pytest.raises(CardCopyError, match="JOKER"):
        CardObservation(jokers, loose=(0, 1, 2)).cards_on_table()


def test_an_unsure_third_copy_is_unsure_not_an_error() -> None:
    cards = (seen("7H", 100, 100), seen("7H", 400, 100), seen("7H", 700, 100, confidence=0.4))
    observation = CardObservation(cards, loose=(0, 1, 2), uncertain=(2,))
    assert observation.copy_error == ""
    assert not observation.certain
