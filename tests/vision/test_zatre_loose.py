"""The loose-card reader of the owner's deck count (``read_loose_cards``) on synthetic batches: each
card's values whatever its turn, a card under a finger never guessed but outlined, nothing invented."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from rules.zatre import Card, default_deck
from vision.observation import Observation
from vision.zatre import LooseCards, read_loose_cards
from vision.zatre_eval import LooseEvaluation, evaluate_loose_synthetic
from vision.zatre_synth import render_loose_cards

DECK = list(default_deck())


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_batch_is_read_card_by_card(seed: int) -> None:
    cards = [DECK[(seed * 7 + 3 * i) % 50] for i in range(12)]
    cards = [c.turned() if i % 2 else c for i, c in enumerate(cards)]  # lying either way round
    frame, truth = render_loose_cards(cards, seed=seed)
    reading = read_loose_cards(frame)
    assert isinstance(reading, Observation)
    assert reading.certain, [c.reason for c in reading.cards if not c.sure]
    assert reading.counts() == Counter(c.key for c in cards)
    evaluation = LooseEvaluation()
    evaluation.add(truth, reading)
    assert evaluation.right == 12 and evaluation.batches_exact == 1
    assert all(c.label == f"{c.values[0]}|{c.values[1]}" for c in reading.cards if c.values)


def test_a_card_under_a_finger_is_outlined_and_never_guessed() -> None:
    cards = DECK[20:30]
    frame, truth = render_loose_cards(cards, seed=4, covered=[3])
    reading = read_loose_cards(frame)
    assert not reading.certain
    unsure = [reading.cards[i] for i in reading.uncertain]
    assert all(c.values is None and c.label == "?" and c.reason for c in unsure)
    # The outline of an unsure card holds the covered card's centre: the screen shows the owner which.
    assert any(
        cv2.pointPolygonTest(np.array(c.corners, np.float32), truth.centers[3], False) >= 0 for c in unsure
    )
    # The others are read: the sure ones are exactly the uncovered cards (or fewer, never others).
    sure = reading.counts()
    assert sure <= Counter(c.key for i, c in enumerate(cards) if i != 3)
    assert sum(sure.values()) >= 8


def test_the_reader_is_measured_and_never_guesses() -> None:
    """The figures of bench/zatre_loose.py on a few batches: no sure card is ever wrong."""
    summary = evaluate_loose_synthetic(6, seed=2024, cards=12).summary()
    assert summary["wrong"] == 0 and summary["extra"] == 0 and summary["missed"] == 0
    assert summary["card_accuracy"] >= 0.97


def test_an_empty_table_and_a_same_reading() -> None:
    frame, _ = render_loose_cards([], seed=1)
    reading = read_loose_cards(frame)
    assert reading.empty and reading.counts() == Counter()
    first = read_loose_cards(render_loose_cards(DECK[:4], seed=2)[0])
    again = read_loose_cards(render_loose_cards(DECK[:4], seed=3)[0])  # the same cards, laid otherwise
    assert first.same_as(again) and not first.same_as(reading)
    assert str(first) == "[" + " ".join(sorted(str(c) for c in DECK[:4])) + "]"


def test_cards_nearer_the_camera_are_read_too() -> None:
    """The closing grows with the halves: cards twice the board's size are read as well."""
    cards = [Card(1, 5), Card(6, 6), Card(0, 3), Card(2, 4)]
    frame, _ = render_loose_cards(cards, seed=8, pitch=150.0, tilt=0.0)
    reading = read_loose_cards(frame)
    assert reading.counts() == Counter(c.key for c in cards)


def test_not_a_frame_is_refused() -> None:
    with pytest.raises(ValueError):
        read_loose_cards(np.zeros((10, 10), np.uint8))
    assert isinstance(read_loose_cards(np.full((480, 640, 3), 90, np.uint8)), LooseCards)


@pytest.mark.parametrize("seed", [1, 4])
def test_cards_touching_each_other_are_told_apart(seed: int) -> None:
    """A played round's 25 cards, laid edge to edge as on a board: two halves of one card share one
    line, two cards' halves do not (the same rule as the board reader's), whatever the layout."""
    from rules.zatre import ZatreOptions, auto_play
    from vision.zatre_synth import render_zatre_board

    board = auto_play(ZatreOptions(players=2, seed=seed)).rounds_played[0].board
    frame, _ = render_zatre_board(board.placements, np.random.default_rng(seed), hands=0)
    reading = read_loose_cards(frame)
    assert reading.certain and reading.counts() == Counter(p.card.key for p in board.placements)
