"""Kalooki cards: the text form, the parser and its errors, the deck, hand penalties."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.kalooki import DECK, JOKER, Card, hand_penalty, parse_cards


@pytest.mark.parametrize(
    "text, rank, suit, canonical",
    [
        ("AS", 1, "S", "AS"),
        ("10H", 10, "H", "10H"),
        ("th", 10, "H", "10H"),
        ("T♣", 10, "C", "10C"),
        ("q♦", 12, "D", "QD"),
        ("K♥", 13, "H", "KH"),
        ("2♠", 2, "S", "2S"),
        ("jc", 11, "C", "JC"),
        (" 7d ", 7, "D", "7D"),
        ("JOKER", 0, "", "JOKER"),
        ("joker", 0, "", "JOKER"),
    ],
)
def test_card_parse_and_canonical_text(text: str, rank: int, suit: str, canonical: str) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert str(card) == canonical
    assert Card.parse(str(card)) == card


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "0S", "AX", "ZS", "10", "JOK", "JOKERS", "AS2", "♠A"])
def test_bad_card_text_is_refused_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)


def test_card_constructor_refuses_impossible_cards() -> None:
    with pytest.raises(ValueError, match="no such card"):
        Card(14, "S")
    with pytest.raises(ValueError, match="no such card"):
        Card(0, "S")


def test_parse_cards_reads_a_list() -> None:
    assert parse_cards("AS 10H JOKER") == [Card(1, "S"), Card(10, "H"), JOKER]
    assert parse_cards("as, th,  joker") == [Card(1, "S"), Card(10, "H"), JOKER]
    assert parse_cards("") == []
    with pytest.raises(ValueError, match="'XX'"):
        parse_cards("AS XX")


def test_deck_is_two_packs_and_two_jokers() -> None:
    counts = Counter(DECK)
    assert len(DECK) == 106
    assert counts[JOKER] == 2
    assert len(counts) == 53
    assert all(n == 2 for n in counts.values())


def test_hand_penalty_values() -> None:
    assert hand_penalty(parse_cards("AS")) == 11
    assert hand_penalty(parse_cards("JH QD KC")) == 30
    assert hand_penalty(parse_cards("2S 9H 10D")) == 21
    assert hand_penalty(parse_cards("JOKER")) == 25
    assert hand_penalty([]) == 0


@given(st.lists(st.sampled_from(DECK), max_size=20))
def test_text_form_round_trips(cards: list[Card]) -> None:
    assert parse_cards(" ".join(str(c) for c in cards)) == cards
