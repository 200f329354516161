"""The corner-index reader: the renderer's index truth, and how the indices of one card are combined
into its reading (agreeing corners make a sure card, disagreeing ones an unsure one)."""

from __future__ import annotations

import math

import numpy as np

from rules.kalooki.cards import Card, parse_cards
from vision.cards import INDEX_NONE, RANKS, SUITS, IndexReading, combine_indices
from vision.cards_synth import DeckLook, render_card_table


def _reading(card: str, p: float, suit_p: float = 0.97) -> IndexReading:
    c = Card.parse(card)
    ranks = np.full(INDEX_NONE + 1, (1 - p) / INDEX_NONE)
    rank = RANKS.index("JOKER") if c.is_joker else RANKS.index(card[:-1])
    ranks[rank] = p
    suits = np.full(len(SUITS), (1 - suit_p) / (len(SUITS) - 1))
    if not c.is_joker:
        suits[SUITS.index(card[-1])] = suit_p
    return IndexReading(0.0, 0.0, 0.0, 100.0, 0.9, ranks, suits)


def test_corners_that_agree_make_a_sure_card() -> None:
    card, confidence, candidates = combine_indices([_reading("7H", 0.95), _reading("7H", 0.9)])
    assert card == Card.parse("7H")
    # Two agreeing corners are surer than either alone, but no surer than the least sure is an index.
    alone = combine_indices([_reading("7H", 0.9)])[1]
    assert 0.9 * 0.97 * 0.99 < alone < confidence <= 1 - (1 - 0.9) / INDEX_NONE
    assert candidates[0][0] == card


def test_corners_that_disagree_leave_the_card_unsure() -> None:
    card, confidence, candidates = combine_indices([_reading("7H", 0.95), _reading("8H", 0.95)])
    assert card in (Card.parse("7H"), Card.parse("8H"))
    # As sure as the corner least sure of the card chosen: the one reading the other card.
    assert confidence < 0.01
    assert {c for c, _ in candidates[:2]} == {Card.parse("7H"), Card.parse("8H")}


def test_a_joker_index_reads_as_the_joker() -> None:
    card, confidence, _ = combine_indices([_reading("JOKER", 0.9)])
    assert card.is_joker and confidence > 0.8


def test_the_renderer_knows_where_every_printed_index_lies() -> None:
    melds = [parse_cards("4C 5C 6C 7C")]
    for four in (False, True):
        look = DeckLook.random(np.random.default_rng(2))
        look = DeckLook(**{**look.__dict__, "four_index": four})
        _, truth = render_card_table(
            melds, seed=3, slant=0.0, spread=(0.3, 0.3), card_height=220.0, angle=0.0, look=look
        )
        for k, card in enumerate(truth.cards):
            assert len(card.indices) == (4 if four else 2)
            top_left = card.indices[0]
            # Upright fan: the top-left index lies near the card's top-left corner, upright, in sight.
            assert math.dist(top_left.center, card.corners[0]) < 0.2 * card.height
            assert abs(top_left.angle - card.angle) < 1e-6 and top_left.visible
            bottom_right = card.indices[1]
            assert math.dist(bottom_right.center, card.corners[2]) < 0.2 * card.height
            assert abs((bottom_right.angle - card.angle) % 360 - 180) < 1e-6
            # Under the next card of the fan, the bottom-right index is covered; the top card shows all.
            assert bottom_right.visible == (k == len(truth.cards) - 1)
