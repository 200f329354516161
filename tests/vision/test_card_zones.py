"""A card table's stock and discard pile as calibrated zones (issue 30): the calibration keeps them, a
reading sorts its cards by zone and gives the discard pile's top card, as the Kalooki session wants."""

from __future__ import annotations

import pytest

from device.sessions.kalooki_camera import CardTable
from rules.kalooki.cards import Card, parse_cards
from vision.calibration import Calibration, CalibrationError, HoldZone
from vision.card_zones import (
    DISCARD,
    STOCK,
    CardTableReading,
    read_card_table,
    sort_by_zone,
    with_card_zones,
)
from vision.cards import CardCopyError, CardObservation, SeenCard
from vision.cards_synth import CardTableTruth, render_kalooki_table
from vision.observation import Observation

SIZE = (1280, 720)


def perfect(truth: CardTableTruth) -> CardObservation:
    """What a reader that never errs gives: every face-up card whose index shows, sure, and the backs."""
    cards = tuple(
        SeenCard(c.card, c.center, c.box, 0.0, 1.0)
        for c in truth.cards
        if c.card is not None and c.index_visible
    )
    backs = tuple(c.center for c in truth.cards if c.card is None)
    return CardObservation(cards, backs=backs)


def test_the_calibration_keeps_the_card_zones() -> None:
    plain = Calibration.identity(SIZE)
    zoned = with_card_zones(plain)
    assert set(zoned.zones) == {STOCK, DISCARD} and not plain.zones
    assert Calibration.from_json(zoned.to_json()) == zoned
    assert zoned.zone_at((0.2 * SIZE[0], 0.86 * SIZE[1])) == DISCARD
    assert zoned.zone_at((0.07 * SIZE[0], 0.86 * SIZE[1])) == STOCK
    assert zoned.zone_at((0.5 * SIZE[0], 0.3 * SIZE[1])) is None
    own = Calibration.identity(SIZE, hold_zone=None)
    own = Calibration(own.homography, SIZE, None, ((DISCARD, HoldZone(600, 600, 700, 700)),))
    kept = with_card_zones(own)
    assert kept.zones[DISCARD] == HoldZone(600, 600, 700, 700) and STOCK in kept.zones  # its own kept
    with pytest.raises(CalibrationError, match="hold zone"):
        Calibration.from_json(zoned.to_json().replace('"discard": "', '"discard": "x'))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_rendered_kalooki_table_sorts_into_melds_the_discard_top_and_the_stock(seed: int) -> None:
    melds = [parse_cards("7H 8H 9H 10H"), parse_cards("QS QD QC"), parse_cards("2C 3C JOKER 5C")]
    pile = parse_cards("KD 4S 9D")
    _frame, truth = render_kalooki_table(melds, pile, stock=5, seed=seed, size=SIZE, card_height=100.0)
    reading = sort_by_zone(perfect(truth), with_card_zones(Calibration.identity(SIZE)))
    assert isinstance(reading, CardTable) and isinstance(reading, Observation)
    assert reading.cards_on_table() == [list(m) for m in melds]
    assert reading.discard_top == Card.parse("9D") and reading.stock == 5 and not reading.uncertain
    for card, seen in zip(
        (c for c in truth.cards if c.card is not None and c.index_visible), reading.cards, strict=True
    ):
        assert seen.zone == card.zone  # None on the table


def test_an_unsure_top_of_the_pile_is_no_discard_and_a_third_copy_is_named() -> None:
    def at(card: str, x: float, y: float, confidence: float = 1.0) -> SeenCard:
        return SeenCard(Card.parse(card), (x, y), (x - 30, y - 45, x + 30, y + 45), 0.0, confidence)

    calibration = with_card_zones(Calibration.identity(SIZE))
    top = (0.2 * SIZE[0], 0.86 * SIZE[1])
    under = at("5S", top[0] + 3, top[1] + 40)  # a sliver of the card under the top
    under = SeenCard(under.card, under.center, (top[0] - 25, top[1] + 40, top[0] + 25, top[1] + 48), 0.0, 0.1)
    seen = CardObservation(
        (at("7H", 100, 100), at("8H", 150, 100), at("2C", *top, confidence=0.2), under), uncertain=(2, 3)
    )
    reading = sort_by_zone(seen, calibration)
    assert reading.discard == (2, 3) and reading.uncertain == (2,) and reading.discard_top is None
    sure = sort_by_zone(CardObservation(seen.cards, uncertain=(3,)), calibration)
    assert sure.discard_top == Card.parse("2C") and sure.uncertain == ()  # the card under it does not count
    copies = CardObservation((at("7H", 100, 100), at("7H", 150, 100), at("7H", *top)))
    with pytest.raises(CardCopyError, match="3 × 7H"):
        sort_by_zone(copies, calibration).cards_on_table()


def test_the_card_reader_reads_a_rendered_table_sorted_by_zone() -> None:
    """The shipped reader on a frame the simulated table films: whatever it sees in the discard pile's
    zone is the pile's, never a meld's (whether it is sure of the cards or not)."""
    melds = [parse_cards("7H 8H 9H"), parse_cards("QS QD QC")]
    frame, _truth = render_kalooki_table(
        melds, parse_cards("KD"), stock=4, seed=5, size=SIZE, card_height=100.0
    )
    calibration = with_card_zones(Calibration.identity(SIZE))
    reading = read_card_table(frame, calibration)
    assert isinstance(reading, CardTableReading)
    for card in reading.cards:
        x, y = card.center
        assert (card.zone == DISCARD) == (calibration.zone_at((x, y)) == DISCARD)
    assert not any(card.zone == DISCARD for i in reading.loose for card in [reading.cards[i]])
    if reading.discard_top is not None:
        assert reading.discard_top == Card.parse("KD")
