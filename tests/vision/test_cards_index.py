"""The corner-index reader: the renderer's index truth, and how the indices of one card are combined
into its reading (agreeing corners make a sure card, disagreeing ones an unsure one)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rules.kalooki.cards import Card, parse_cards
from vision.cards import (
    INDEX_NONE,
    RANKS,
    SUITS,
    CardDetection,
    IndexReading,
    a_pip_alone,
    boxes_read_twice,
    combine_indices,
    edge_turns,
    explain_away,
    merge_twins,
    misplaced,
    outvoted_many,
    split_cards,
    stray_indices,
    strip_detection,
)
from vision.cards_synth import DeckLook, render_card_table


def _reading(
    card: str, p: float, suit_p: float = 0.97, x: float = 0.0, y: float = 0.0, angle: float = 0.0
) -> IndexReading:
    c = Card.parse(card)
    ranks = np.full(INDEX_NONE + 1, (1 - p) / INDEX_NONE)
    rank = RANKS.index("JOKER") if c.is_joker else RANKS.index(card[:-1])
    ranks[rank] = p
    suits = np.full(len(SUITS), (1 - suit_p) / (len(SUITS) - 1))
    if not c.is_joker:
        suits[SUITS.index(card[-1])] = suit_p
    return IndexReading(x, y, angle, 100.0, 0.9, ranks, suits)


def test_corners_that_agree_make_a_sure_card() -> None:
    card, confidence, candidates = combine_indices([_reading("7H", 0.95), _reading("7H", 0.9)])
    assert card == Card.parse("7H")
    # Two agreeing corners are surer than either alone, but no surer than the surest is an index.
    alone = combine_indices([_reading("7H", 0.9)])[1]
    assert 0.9 * 0.97 * 0.99 < alone < confidence <= 1 - (1 - 0.95) / INDEX_NONE
    # A weak corner that agrees (perhaps not an index at all) takes nothing from the sure one's card.
    ranks = np.full(INDEX_NONE + 1, 0.3 / (INDEX_NONE - 1))
    ranks[RANKS.index("7")], ranks[INDEX_NONE] = 0.4, 0.3  # a 7 at best, perhaps no index at all
    weak = replace(_reading("7H", 0.5), rank_p=ranks)
    assert (
        combine_indices([_reading("7H", 0.95), weak])[1] >= combine_indices([_reading("7H", 0.95)])[1] - 1e-9
    )
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


def test_a_box_over_fanned_strips_is_split_into_their_cards() -> None:
    # A tight upright fan: the top-left indices of 7H, 8H, 9H a fifth of a card's height apart, level.
    strips = [_reading(c, 0.95, x=100 + 20 * k, y=50) for k, c in enumerate(("7H", "8H", "9H"))]
    parts = split_cards(strips)
    assert sorted(str(combine_indices(p)[0]) for p in parts) == ["7H", "8H", "9H"]


def test_a_pip_beside_a_card_s_corner_splits_nothing() -> None:
    # A 8S's two top indices and, a strip's width beside one of them, a pip read weakly as a QS (calib
    # IMG_20220316_140807): the QS would be no card (``a_pip_alone``), so the box is not split and the
    # 8S keeps the detector's place (split, it was placed from its corners on the next card's strip).
    eight = [_reading("8S", 0.95, x=100, y=50), _reading("8S", 0.9, x=150, y=50)]
    pip = _reading("QS", 0.32, x=80, y=50)
    assert a_pip_alone([pip], combine_indices([pip])[1])
    assert split_cards([*eight, pip]) == [[*eight, pip]]
    # The same index read surely is a strip of its own, as before.
    strip = _reading("QS", 0.95, x=80, y=50)
    assert sorted(len(p) for p in split_cards([*eight, strip])) == [1, 2]


def test_far_corners_reading_differently_stay_one_unsure_card() -> None:
    # One card's top-left and bottom-right indices (half a turn apart) read as two cards: one card.
    corners = [_reading("7H", 0.95, x=100, y=50), _reading("AH", 0.9, x=160, y=125, angle=180)]
    parts = split_cards(corners)
    assert len(parts) == 1 and combine_indices(parts[0])[1] < 0.1


def test_indices_read_alike_farther_apart_than_one_card_are_two_cards() -> None:
    # Two 9D more than two card heights apart (two decks, or an index of the 9D read on the card beyond,
    # as on calib IMG_20220316_165125): never one card placed from the surest of them.
    h = _reading("9D", 0.95).card_height
    near = [_reading("9D", 0.95, x=100, y=50), _reading("9D", 0.9, x=160, y=125, angle=180)]
    far = replace(_reading("9D", 0.3, x=100 + 2.2 * h, y=80), score=0.99)
    parts = split_cards([*near, far])
    assert sorted(len(p) for p in parts) == [1, 2]
    # Within one card's reach they are one card's corners, as before.
    assert len(split_cards(near)) == 1
    # A far corner reading otherwise beyond one card's reach is not that card's disagreement.
    strips = [_reading(c, 0.95, x=100 + 20 * k, y=50) for k, c in enumerate(("7H", "8H"))]
    beyond = _reading("AH", 0.9, x=100, y=50 + 2 * h)
    assert sorted(len(p) for p in split_cards([*strips, beyond])) == [1, 1, 1]
    # Within reach, one index reading otherwise is the strip's disagreement; two reading alike (both
    # corners of a card whose box was missed) are a card of their own.
    corner = _reading("AH", 0.9, x=100, y=50 + 1.2 * h)
    assert sorted(len(p) for p in split_cards([*strips, corner])) == [1, 2]
    pair = [corner, _reading("AH", 0.9, x=160, y=50 + 1.9 * h, angle=180)]
    assert sorted(len(p) for p in split_cards([*strips, *pair])) == [1, 1, 2]


def test_a_card_found_by_its_indices_lies_between_its_far_corners() -> None:
    # Its top-left index (upright, surest) and its bottom-right one (half a turn, a little crooked as
    # the detector turns them): the card lies between them, not beside the surest as a strip would.
    width, h = 71.6, 100.0
    centre = (130.0, 88.0)
    top_left = replace(_reading("7H", 0.95, x=centre[0] - 0.415 * width, y=centre[1] - 0.38 * h), score=0.95)
    bottom_right = _reading("7H", 0.95, x=centre[0] + 0.415 * width, y=centre[1] + 0.38 * h, angle=175)
    card = strip_detection([top_left, bottom_right])
    assert math.hypot(card.x - centre[0], card.y - centre[1]) < 4.0, (card.x, card.y)
    # Taken as a right corner's index, the surest would put it on the other side: the far corner decides.
    top_right = replace(top_left, x=centre[0] + 0.415 * width)
    bottom_left = replace(bottom_right, x=centre[0] - 0.415 * width, angle=185)
    card = strip_detection([top_right, bottom_left])
    assert math.hypot(card.x - centre[0], card.y - centre[1]) < 4.0, (card.x, card.y)


def test_one_card_seen_twice_is_merged_by_what_all_its_indices_read() -> None:
    # Two boxes on one 10D: the first box's indices read 10D twice and, surest of all, 10H once; the second
    # box's index reads 10D. Together they read 10D: one card (its surest index alone would say 10H).
    first = [
        replace(_reading("10H", 0.9, suit_p=0.6, x=100, y=100), score=0.99),
        _reading("10D", 0.95, x=160, y=100),
        _reading("10D", 0.95, x=130, y=180, angle=180),
    ]
    second = [_reading("10D", 0.95, x=120, y=150)]
    boxes = [CardDetection(130, 140, 80, 110, 0.9), CardDetection(125, 150, 60, 80, 0.8)]
    kept, seen, doubtful = merge_twins(boxes, [first, second])
    assert len(kept) == 1 and len(seen[0]) == 4
    assert str(combine_indices(seen[0])[0]) == "10D"
    assert doubtful == set()  # the box kept held more of the card's indices


def test_a_card_merged_into_a_box_holding_no_more_of_its_indices_elsewhere_is_placed_in_doubt() -> None:
    # calib IMG_20220316_165554: the KD's own box holds its index; a larger box over the QD beside it holds
    # one index misread as KD. Merged into the larger box, the KD is read at the QD's place: in doubt.
    own = [_reading("KD", 0.95, x=100, y=100)]
    on_neighbour = [_reading("KD", 0.95, x=160, y=140, angle=60)]
    small, large = CardDetection(110, 130, 60, 90, 0.9), CardDetection(190, 170, 120, 110, 0.8)
    kept, seen, doubtful = merge_twins([small, large], [own, on_neighbour])
    assert kept == [large] and len(seen[0]) == 2 and doubtful == {0}
    # The larger box held two of the card's indices, the other one: the place stands.
    two = [*on_neighbour, _reading("KD", 0.95, x=200, y=200, angle=180)]
    kept, _, doubtful = merge_twins([small, large], [own, two])
    assert kept == [large] and doubtful == set()
    # One index each, but the smaller box lies on the larger (a part of the card boxed apart): one place.
    part = CardDetection(170, 150, 60, 60, 0.9)
    kept, _, doubtful = merge_twins([part, large], [own, on_neighbour])
    assert kept == [large] and doubtful == set()


def test_a_lone_index_told_a_right_corner_s_puts_its_card_on_its_left() -> None:
    # A four-index deck's top-right index alone: where the side net tells a right corner, the card lies to
    # its left; untold, it is taken as a left corner's.
    r = _reading("7H", 0.95, x=200, y=100)
    told = strip_detection([replace(r, side=-1.0)])
    untold = strip_detection([r])
    assert told.x < 200 - 20 and untold.x > 200 + 20
    assert abs(told.y - untold.y) < 1e-6


def test_an_index_unsure_of_itself_does_not_make_its_card_unsure() -> None:
    # Three corners read 7H; a glimpse under another card reads 4S, itself unsure (0.3): the card is sure.
    corners = [_reading("7H", 0.95), _reading("7H", 0.9), _reading("7H", 0.9)]
    card, confidence, _ = combine_indices([*corners, _reading("4S", 0.3)])
    assert card == Card.parse("7H") and confidence > 0.9
    # Sure of itself (0.9), the same corner is a disagreement: unsure.
    assert combine_indices([*corners, _reading("4S", 0.9)])[1] < 0.01


def test_a_card_cut_into_two_boxes_is_merged_however_far_apart_its_indices() -> None:
    # A tall 10D cut into a top box and a bottom box: its indices are its two ends, 2 card heights apart
    # (more than the merge's reach by distance), but the boxes overlap: one card.
    top = [_reading("10D", 0.95, x=100, y=100)]
    bottom = [_reading("10D", 0.95, x=120, y=300, angle=180)]
    boxes = [CardDetection(130, 160, 120, 140, 0.9), CardDetection(130, 250, 120, 140, 0.8)]
    kept, seen, _ = merge_twins(boxes, [top, bottom])
    assert len(kept) == 1 and len(seen[0]) == 2
    # Apart (the boxes do not touch), two 10D are two cards (two decks).
    apart = [CardDetection(130, 160, 120, 140, 0.9), CardDetection(130, 400, 120, 140, 0.8)]
    assert len(merge_twins(apart, [top, [replace(bottom[0], y=500)]])[0]) == 2


def test_a_neighbour_s_index_on_a_card_s_box_is_left_to_the_neighbour() -> None:
    # 6S's box holds its own two indices and the 7S's (a fan's overlap); the 7S is read on its own box.
    six = [_reading("6S", 0.95, x=100, y=100), _reading("6S", 0.95, x=100, y=200, angle=180)]
    seven_on_six = _reading("7S", 0.95, x=150, y=100)
    boxes = [CardDetection(120, 150, 80, 120, 0.9), CardDetection(190, 150, 80, 120, 0.9)]
    seven = [_reading("7S", 0.95, x=160, y=110)]
    out = explain_away(boxes, [[*six, seven_on_six], seven])
    assert out == [six, seven]
    assert combine_indices(out[0])[1] > 0.9
    # No 7S read near it: the stray index stays, and the 6S is unsure.
    lonely = explain_away(boxes[:1], [[*six, seven_on_six]])
    assert len(lonely[0]) == 3 and combine_indices(lonely[0])[1] < 0.01


def test_a_card_whose_box_lies_off_its_index_s_card_is_in_doubt() -> None:
    r = _reading("5S", 0.95, x=100, y=100)  # card height 100: a whole card centre ~ (130, 138)
    assert not misplaced(CardDetection(130, 138, 72, 100, 0.9), [r])
    assert not misplaced(CardDetection(100, 140, 20, 100, 0.9), [r])  # a fan's strip below it
    assert misplaced(CardDetection(200, 200, 170, 190, 0.9), [r])  # a box far larger, the index at its edge


def test_a_sure_index_of_another_rank_on_a_card_s_box_is_a_stray() -> None:
    # A 9D's box holds its three indices and, sure of itself, a KD's (a card the detector missed): the KD
    # index is a stray (made a card of its own, never sure), and the 9D is sure.
    nine = [_reading("9D", 0.95, x=100, y=100), _reading("9D", 0.95, x=170, y=100), _reading("9D", 0.9)]
    king = _reading("KD", 0.95, x=220, y=110)
    kept, stray = stray_indices([[*nine, king]])
    assert kept == [nine] and stray == [king]
    assert combine_indices(kept[0])[1] > 0.9
    # A 6 against a 9 is the same index turned about, and an unsure index no stray: both stay.
    six = _reading("6D", 0.95, x=100, y=200, angle=180)
    unsure = _reading("KD", 0.6, x=220, y=110)
    assert stray_indices([[*nine, six, unsure]]) == ([[*nine, six, unsure]], [])


def test_strays_outnumbering_a_card_s_own_indices_stay_its_disagreement() -> None:
    # A box over a QD (two indices), a JD's index and a 10D's (calib IMG_20220316_165231): the four
    # together read 10D, the lone 10D index surest. Shedding the QD and JD indices as strays made a
    # sure 10D of the QD's box and lost the QD; more strays read one card (QD, two) than read the card
    # (one): none is shed, and the card stays unsure.
    ten = _reading("10D", 0.99, x=100, y=100)
    queens = [_reading("QD", 0.91, x=180, y=60), _reading("QD", 0.88, x=120, y=40)]
    jack = _reading("JD", 0.96, x=230, y=80)
    seen = [ten, *queens, jack]
    ten_d = (RANKS.index("10"), SUITS.index("D"))
    assert stray_indices([seen], [ten_d]) == ([seen], [])
    assert combine_indices(seen)[1] < 0.5
    # One stray of each other card against the card's own index: shed, as before.
    kept, stray = stray_indices([[ten, queens[0], jack]], [ten_d])
    assert kept == [[ten]] and stray == [queens[0], jack]


def test_a_card_found_by_one_unsure_index_alone_is_no_card() -> None:
    # A pip read as an index: one index, unsure of its rank.
    assert a_pip_alone([_reading("3C", 0.4)], combine_indices([_reading("3C", 0.4)])[1])
    # Below 0.6 (session 12; 0.45 before): on fit and calib 9 such cards were none against 2 right.
    assert a_pip_alone([_reading("3C", 0.55)], combine_indices([_reading("3C", 0.55)])[1])
    # One index read surely (a strip of a tight fan shows one index) is a card.
    assert not a_pip_alone([_reading("3C", 0.95)], combine_indices([_reading("3C", 0.95)])[1])
    # Two indices are never a pip alone, however unsure.
    two = [_reading("3C", 0.4), _reading("3C", 0.4, x=50.0, y=120.0, angle=180.0)]
    assert not a_pip_alone(two, combine_indices(two)[1])


def test_weak_corners_that_agree_are_no_surer_than_one_of_them_being_right() -> None:
    # Two glimpses of a hidden QC, each read as a KC about evenly (fit IMG_20220316_172704): their
    # product's posterior made a sure KC (0.91); a card is no surer than that at least one of its
    # agreeing corners reads it right.
    weak = [_reading("KC", 0.47), _reading("KC", 0.61, x=60.0, y=100.0, angle=180.0)]
    one_right = 1 - (1 - weak[0].card_p(*weak[0].classes)) * (1 - weak[1].card_p(*weak[1].classes))
    assert combine_indices(weak)[1] <= one_right + 1e-9 < 0.85
    # Sure corners that agree stay sure.
    sure = [_reading("KC", 0.97), _reading("KC", 0.95, x=60.0, y=100.0, angle=180.0)]
    assert combine_indices(sure)[1] > 0.99


def test_sure_corners_outvote_fewer_unsure_ones_cut_askew() -> None:
    # Two sure corners of a 7H (one of each end) and a corner read at a slant as a 4H: the 7H is sure.
    sure = [_reading("7H", 0.95, angle=0.0), _reading("7H", 0.93, x=60.0, y=120.0, angle=180.0)]
    askew = _reading("4H", 0.55, x=0.0, y=120.0, angle=125.0)
    card, confidence, _ = combine_indices([*sure, askew])
    assert card == Card.parse("7H") and confidence > 0.9
    # The same dissent turned as the card is (a neighbour's index, a box over two cards) still counts.
    alike = replace(askew, angle=178.0)
    assert combine_indices([*sure, alike])[1] < 0.6
    # One sure corner against one askew: no majority, the card stays unsure.
    assert combine_indices([sure[0], askew])[1] < 0.6
    # A dissent sure of itself is never outvoted, however turned.
    assert combine_indices([*sure, _reading("4H", 0.9, x=0.0, y=120.0, angle=125.0)])[1] < 0.6


def test_one_box_read_as_two_cards_leaves_both_unsure() -> None:
    box, other = (0.0, 0.0, 50.0, 80.0), (60.0, 0.0, 110.0, 80.0)
    cards = parse_cards("6S 5S 7S 7S")
    assert boxes_read_twice([box, box, other, other], cards) == {0, 1}


def test_many_sure_corners_outvote_one_dissent_however_turned() -> None:
    # Three sure corners of a 9D and one of the next card of the run (a JD, turned as the card is) seen
    # on its box: the 9D is sure.
    sure = [
        _reading("9D", 0.95, angle=0.0),
        _reading("9D", 0.93, x=60.0, y=120.0, angle=180.0),
        _reading("9D", 0.94, x=60.0, y=0.0, angle=0.0),
    ]
    neighbour = _reading("JD", 0.6, x=30.0, y=5.0, angle=2.0)
    card, confidence, _ = combine_indices([*sure, neighbour])
    assert card == Card.parse("9D") and confidence > 0.9
    assert outvoted_many(sure, [neighbour])
    # Two sure corners are not many: the dissent turned alike still counts.
    assert not outvoted_many(sure[:2], [neighbour])
    assert combine_indices([*sure[:2], neighbour])[1] < 0.6
    # Nor three against two, nor against a dissent sure of itself.
    assert not outvoted_many(sure, [neighbour, neighbour])
    assert combine_indices([*sure, _reading("JD", 0.9, x=30.0, y=5.0, angle=2.0)])[1] < 0.6


def test_a_card_is_placed_by_the_indices_that_read_it() -> None:
    # A box over a JD holding the 9D's own indices far to its left and one JD index (outvoted) at its
    # edge: read as the 9D, its place is in doubt; read as the JD, it is not.
    nine = [_reading("9D", 0.95, x=-300.0, y=100.0), _reading("9D", 0.95, x=-240.0, y=100.0)]
    jack = _reading("JD", 0.7, x=100.0, y=100.0)
    box = CardDetection(130, 138, 72, 100, 0.9)
    assert misplaced(box, [*nine, jack], Card.parse("9D"))
    assert not misplaced(box, [*nine, jack])  # without the card, any index places it
    assert not misplaced(box, [*nine, jack], Card.parse("JD"))


def test_an_index_turned_off_its_card_is_turned_back_square_to_its_edges() -> None:
    """``edge_turns``: an index the detector found turned 10–40° off its card (real photos) is turned as
    its card's edges around it say, the nearest of the four turns they allow to the detector's."""
    melds = [parse_cards("8C"), parse_cards("5H")]
    for angle in (0.0, 17.0, -33.0):
        image, truth = render_card_table(
            melds, seed=5, slant=0.0, spread=(0.3, 0.3), card_height=220.0, angle=angle
        )
        for card in truth.cards:
            printed = card.indices[0]
            for off in (-35.0, -12.0, 20.0, 38.0):
                found = [(*printed.center, printed.angle + off, card.height, 1.0)]
                [turn] = edge_turns(image, found, 0.6)
                assert abs((turn - printed.angle + 180.0) % 360.0 - 180.0) < 6.0, (angle, off, turn)


def test_the_index_reader_reads_an_unsure_index_again_with_its_edge_view() -> None:
    """With ``edge_view`` the shipped index reader reads an index it is unsure of (``EDGE_UNSURE``) found
    turned off the edges around it (``EDGE_OFF``) again, turned square to them, the logits averaged:
    indices found 20° off their cards, read as found less than 0.6 sure of their rank (0.2, 0.42 and 0.52
    on this x86 machine), are read as printed, more than 0.9 sure. (Session 13's index classifier, taught
    the real photos' peaks that read no card of theirs as "not an index", calls an index found 25° or more
    off "not an index", surely, and it is not read again; the classifier before read it unsure up to 30°.)"""
    from vision.cards import CardModels

    reader = CardModels.load().index  # its own copy: the shared default models are not touched
    assert reader is not None and reader.edge_view > 0
    image, truth = render_card_table(
        [parse_cards("6D 7D 8D")], seed=11, slant=0.0, spread=(0.3, 0.3), card_height=200.0, angle=8.0
    )
    off = [(*c.indices[0].center, c.indices[0].angle + 20.0, c.height, 1.0) for c in truth.cards]
    reader.find = lambda image, card_height: off  # type: ignore[method-assign]
    both = reader.read(image, 200.0)
    reader.edge_view = 0.0
    found_only = reader.read(image, 200.0)
    for card, seen, plain in zip(truth.cards, both, found_only, strict=True):
        assert card.card is not None
        rank = RANKS.index(str(card.card)[:-1])
        assert int(seen.rank_p.argmax()) == rank, (card.card, seen.rank_p.round(2))
        assert seen.rank_p[rank] > 0.9 and plain.rank_p[rank] < 0.6, (seen.rank_p[rank], plain.rank_p[rank])
