"""The synthetic card-table renderer: its truth matches what it draws."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from rules.kalooki.cards import JOKER, parse_cards
from vision.cards_synth import (
    BACKGROUNDS,
    FACES,
    CardTableTruth,
    bench_card_table,
    face_image,
    random_kalooki_melds,
    render_card_table,
    render_kalooki_table,
)


def test_every_face_is_in_the_atlas_and_differs_from_the_others() -> None:
    faces = [face_image(name) for name in FACES]
    assert all(f.shape == faces[0].shape for f in faces)
    stack = np.stack(faces).astype(np.int16)
    for k, name in enumerate(FACES):
        others = np.delete(stack, k, axis=0)
        closest = np.abs(others - stack[k]).mean(axis=(1, 2, 3)).min()
        assert closest > 1.0, f"{name} looks like another face"


def test_a_fan_shows_every_card_index_and_the_boxes_are_the_visible_parts() -> None:
    melds = [parse_cards("7H 8H 9H 10H"), parse_cards("QS QD JOKER")]
    frame, truth = render_card_table(melds, seed=5, slant=0.0, spread=(0.3, 0.3), card_height=200.0)
    assert frame.shape == (720, 960, 3)
    assert [[str(truth.cards[i].card) for i in m] for m in truth.melds] == [
        ["7H", "8H", "9H", "10H"],
        ["QS", "QD", "JOKER"],
    ]
    for meld in truth.melds:
        under, top = meld[:-1], meld[-1]
        assert truth.cards[top].visible > 0.97
        for i in under:
            card = truth.cards[i]
            assert card.index_visible
            x0, y0, x1, y1 = card.box
            # A card under the next shows a strip: its visible box is smaller than the whole card's.
            assert 0.15 < card.visible < 0.6
            assert 0 <= x0 < x1 <= 960 and 0 <= y0 < y1 <= 720
    assert sorted(c.label for c in truth.readable()) == sorted(str(c) for m in melds for c in m)


def test_a_card_covered_past_its_index_is_not_readable() -> None:
    _, truth = render_card_table([parse_cards("2C 3C 4C")], seed=1, spread=(0.06, 0.06), slant=0.0)
    assert [c.index_visible for c in truth.cards] == [False, False, True]
    assert [c.label for c in truth.readable()] == ["4C"]


def test_backs_are_face_down_and_not_readable() -> None:
    _, truth = render_card_table([parse_cards("5D 6D 7D")], backs=3, seed=2)
    backs = [c for c in truth.cards if c.card is None]
    assert len(backs) == 3 and all(c.label == "back" and c.meld is None for c in backs)
    assert all(c.card is not None for c in truth.readable())


@pytest.mark.parametrize("background", BACKGROUNDS)
def test_each_table_renders_the_same_for_the_same_seed(background: str) -> None:
    a, ta = render_card_table([parse_cards("AS 2S 3S")], seed=9, background=background, warm=0.8)
    b, tb = render_card_table([parse_cards("AS 2S 3S")], seed=9, background=background, warm=0.8)
    assert np.array_equal(a, b) and ta == tb


def test_a_slanted_camera_moves_the_truth_with_the_picture() -> None:
    _, truth = render_card_table([parse_cards("9C 10C JC")], seed=4, slant=1.0, card_height=180.0)
    for card in truth.cards:
        x0, y0, x1, y1 = card.box
        cx, cy = card.center
        # The card's centre (seen through the camera) lies inside its visible box or near it.
        assert x0 - 60 <= cx <= x1 + 60 and y0 - 60 <= cy <= y1 + 60
        assert card.height == pytest.approx(math.dist(card.corners[0], card.corners[3]))


def test_a_table_too_small_for_its_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        render_card_table([parse_cards("AS 2S 3S 4S 5S 6S")] * 8, size=(320, 240), card_height=150.0)


def test_random_melds_hold_no_card_more_than_twice_and_at_most_two_jokers() -> None:
    for seed in range(20):
        melds = random_kalooki_melds(random.Random(seed), 40)
        cards = [c for m in melds for c in m]
        assert sum(1 for c in cards if c == JOKER) <= 2
        assert all(cards.count(c) <= 2 for c in cards if c != JOKER)


def test_the_bench_table_is_a_full_1080p_table() -> None:
    frame, truth = bench_card_table(0)
    assert frame.shape == (1080, 1920, 3)
    assert len(truth.readable()) >= 30


def test_a_kalooki_table_keeps_its_melds_in_place_and_names_the_zones() -> None:
    melds = [parse_cards("7H 8H 9H"), parse_cards("QS QD QC")]
    _, before = render_kalooki_table(melds, parse_cards("4D"), stock=4, seed=3)
    # The same table a turn later: a card built on the first meld, another card on the discard pile.
    _, after = render_kalooki_table(
        [[*melds[0], *parse_cards("10H")], melds[1]], parse_cards("4D KS"), 4, seed=3
    )
    first = [before.cards[i] for i in before.melds[0]]
    again = [after.cards[i] for i in after.melds[0]][:3]
    assert all(math.dist(a.center, b.center) < 8 for a, b in zip(first, again, strict=True))
    assert sorted(c.label for c in after.readable() if c.zone is None) == sorted(
        ["7H", "8H", "9H", "10H", "QS", "QD", "QC"]
    )
    discard = [c for c in after.cards if c.zone == "discard"]
    assert [c.label for c in discard] == ["4D", "KS"] and discard[-1].index_visible
    assert [c.label for c in after.cards if c.zone == "stock"] == ["back"] * 4


def test_a_meld_laid_straighter_spreads_its_cards_and_leaves_the_others_in_place() -> None:
    # The simulated player who straightens his fans after the camera's refusal (KalookiTable.straighten).
    melds = [parse_cards("7H 8H 9H"), parse_cards("QS QD QC")]
    _, fanned = render_kalooki_table(melds, parse_cards("4D"), stock=4, seed=3, spread=0.34)
    _, straight = render_kalooki_table(melds, parse_cards("4D"), stock=4, seed=3, spread=[0.45, 0.34])

    def step(truth: CardTableTruth, meld: int) -> float:
        cards = [truth.cards[i] for i in truth.melds[meld]]
        return (cards[-1].center[0] - cards[0].center[0]) / (len(cards) - 1) / cards[0].height

    assert step(straight, 0) > step(fanned, 0) + 0.05 and abs(step(straight, 1) - step(fanned, 1)) < 0.01
    with pytest.raises(ValueError, match="2 spreads for 3 melds"):
        render_kalooki_table([*melds, parse_cards("2C 3C 4C")], spread=[0.4, 0.4])
