"""The card vote (``vision.card_vote``): the readings of several frames of a still card table."""

from __future__ import annotations

import pytest

from rules.kalooki.cards import Card
from vision.card_vote import vote_cards
from vision.card_zones import DISCARD, CardTableReading, ZonedCard
from vision.cards import SeenCard

Spec = tuple[str, float, float]  # card, x, y


def frame(
    table: list[Spec],
    pile: list[Spec] = (),  # type: ignore[assignment]
    unsure: set[str] = frozenset(),  # type: ignore[assignment]
    confidence: float = 0.95,
    shift: float = 0.0,
    stock: int = 4,
) -> CardTableReading:
    """One frame's reading: the table's cards (indices of ``unsure`` cards' labels unsure), the pile's
    (top first), each card a 40×60 box at its place (moved by ``shift`` px: the camera's shake)."""
    cards: list[ZonedCard] = []
    for (text, x, y), zone in [*((s, None) for s in table), *((s, DISCARD) for s in pile)]:
        x += shift
        seen = SeenCard(
            Card.parse(text),
            (x, y),
            (x - 20, y - 30, x + 20, y + 30),
            0.0,
            0.5 if text in unsure else confidence,
            ((Card.parse(text), 0.5 if text in unsure else confidence),),
        )
        cards.append(ZonedCard(seen, zone))
    n_table = len(table)
    # One meld per row of cards 30 px apart (boxes overlapping), as the card reader groups them.
    rows: dict[float, list[int]] = {}
    for i in range(n_table):
        rows.setdefault(cards[i].center[1], []).append(i)
    melds = tuple(tuple(sorted(r, key=lambda i: cards[i].center[0])) for r in rows.values() if len(r) > 1)
    loose = tuple(r[0] for r in rows.values() if len(r) == 1)
    uncertain = tuple(
        i for i, c in enumerate(cards) if c.confidence < 0.9 and (c.zone is None or i == n_table)
    )
    return CardTableReading(tuple(cards), melds, loose, tuple(range(n_table, len(cards))), uncertain, stock)


def run(texts: str, y: float = 100.0, x0: float = 100.0) -> list[Spec]:
    return [(t, x0 + 30 * i, y) for i, t in enumerate(texts.split())]


def test_a_single_bad_frame_is_outvoted() -> None:
    good = run("7H 8H 9H") + run("QS QD QC", y=300)
    bad = run("7H 8H 9D") + run("QS QD QC", y=300)  # one frame reads the 9H as 9D, with confidence
    voted = vote_cards([frame(good), frame(bad, shift=0.5), frame(good, shift=-0.4)])
    assert str(voted) == "melds [7H 8H 9H | QS QD QC] loose [] discard -"
    assert not voted.uncertain


def test_frames_that_disagree_leave_the_card_unsure_never_a_guess() -> None:
    a = frame(run("7H 8H 9H"))
    b = frame(run("7H 8H 9D"))
    c = frame(run("7H 8H 6H"))
    voted = vote_cards([a, b, c])
    assert len(voted.uncertain) == 1
    unsure = voted.cards[voted.uncertain[0]]
    assert unsure.center[0] == pytest.approx(160.0)
    assert unsure.card in {Card.parse("9H"), Card.parse("9D"), Card.parse("6H")}  # a frame's reading
    # Two frames, each sure of its own card: no majority for either.
    assert len(vote_cards([a, b]).uncertain) == 1


def test_a_card_counts_where_most_frames_see_it() -> None:
    whole = run("5S 6S 7S 8S")
    missed = run("5S 6S 7S")  # one frame misses the meld's last card
    phantom = [*whole, ("JC", 600.0, 400.0)]  # one frame sees a card that is not there
    voted = vote_cards([frame(missed), frame(whole), frame(phantom), frame(whole), frame(missed)])
    assert str(voted) == "melds [5S 6S 7S 8S] loose [] discard -"
    # Seen by two frames of five: not the table's.
    assert (
        len(vote_cards([frame(whole), frame(missed), frame(missed), frame(whole), frame(missed)]).cards) == 3
    )


def test_agreeing_frames_are_sure_only_where_most_were_confident() -> None:
    cards = run("KH QH JH")
    voted = vote_cards([frame(cards, unsure={"QH"}), frame(cards, unsure={"QH"}), frame(cards)])
    assert [voted.cards[i].label for i in voted.uncertain] == ["QH"]
    voted = vote_cards([frame(cards, unsure={"QH"}), frame(cards), frame(cards)])
    assert not voted.uncertain
    assert voted.cards[1].confidence == pytest.approx((0.5 + 0.95 + 0.95) / 3)


def test_zones_the_pile_s_top_and_the_stock_stay_consistent() -> None:
    table = run("2C 3C 4C")
    pile = [("9D", 250.0, 650.0)]
    frames = [frame(table, pile, stock=4), frame(table, [("9H", 250.0, 650.0)], stock=3), frame(table, pile)]
    voted = vote_cards(frames)
    assert str(voted.discard_top) == "9D" and voted.stock == 4
    assert [voted.cards[i].zone for i in voted.discard] == [DISCARD]
    assert voted.cards_on_table() == [[Card.parse("2C"), Card.parse("3C"), Card.parse("4C")]]
    # The pile's top the frames disagree on: unsure, no top seen.
    split = vote_cards([frame(table, pile), frame(table, [("9H", 250.0, 650.0)])])
    assert split.discard_top is None and split.discard[0] in split.uncertain


def test_one_reading_is_itself_and_none_is_an_error() -> None:
    one = frame(run("7H 8H 9H"), unsure={"8H"})
    assert vote_cards([one]) is one
    with pytest.raises(ValueError, match="no readings"):
        vote_cards([])


def test_a_card_placed_at_its_other_corner_is_the_same_card_and_the_melds_are_the_frames() -> None:
    """The reader places a card at its visible part, which moves between frames (one corner read, then
    the other): the same card within most of a card's height is one card; the melds are as most frames
    grouped them, not as boxes taken from different frames touch."""
    fan = run("5H 6H 7H 8H")
    moved = [(t, x + (22.0 if t == "6H" else 0.0), y) for t, x, y in fan]  # 6H read at its other corner
    apart = frame(run("5H 6H 7H 8H"))
    # A frame that groups the 8H apart (loose) is outvoted by the others.
    split = CardTableReading(apart.cards, ((0, 1, 2),), (3,), (), (), 4)
    voted = vote_cards([frame(fan), frame(moved), split, frame(fan), frame(moved)])
    assert str(voted) == "melds [5H 6H 7H 8H] loose [] discard -"
    assert not voted.uncertain


def test_a_copy_no_frame_saw_is_never_made_sure() -> None:
    # Frames that each read one 7H, at places far enough apart to be two cards: never two sure 7H.
    a = frame([("7H", 100.0, 100.0), ("KS", 400.0, 100.0)])
    b = frame([("7H", 400.0, 100.0), ("KS", 100.0, 100.0)])
    voted = vote_cards([a, b, a, b, a])
    sure = [voted.cards[i].label for i in range(len(voted.cards)) if i not in voted.uncertain]
    assert sure.count("7H") <= 1 and sure.count("KS") <= 1
