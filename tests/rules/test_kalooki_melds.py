"""Kalooki melds: sets, runs with the ace low or high, the greatest reading, building, joker release."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.kalooki import JOKER, RunMeld, SetMeld, meld_value, parse_cards, read_meld
from rules.kalooki.melds import End


def meld(text: str) -> SetMeld | RunMeld:
    return read_meld(parse_cards(text))


@pytest.mark.parametrize(
    "text, value",
    [
        ("7S 7H 7D", 21),
        ("7S 7H 7D 7C", 28),
        ("AS AH AD", 33),
        ("KS KH KD KC", 40),
        ("7S 7H JOKER", 21),
        ("JOKER 7S JOKER", 21),
        ("4H 5H 6H", 15),
        ("6H 5H 4H", 15),
        ("9C 10C JC QC KC", 49),
        ("5H JOKER 7H", 18),
        ("AS 2S 3S", 6),
        ("3S 2S AS", 6),
        ("QS KS AS", 31),
        ("AS KS QS", 31),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", 96),
    ],
)
def test_meld_values(text: str, value: int) -> None:
    assert meld_value(parse_cards(text)) == value


@pytest.mark.parametrize(
    "text",
    [
        "7S 7H",
        "7S 7S 7H",
        "7S 7H 7D 7C 7S",
        "7S 7H 7D 7C JOKER",
        "7S 7S JOKER",
        "7S 7H 8D",
        "4H 5H 6S",
        "4H 6H 5H",
        "4H 5H 7H",
        "KS AS 2S",
        "QS KS AS 2S",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S",
        "JOKER JOKER JOKER",
        "",
    ],
)
def test_not_a_meld(text: str) -> None:
    with pytest.raises(IllegalAction) as info:
        meld_value(parse_cards(text))
    assert info.value.code == "invalid_meld"


def test_ace_low_high_and_at_both_ends() -> None:
    low, high = meld("AS 2S 3S"), meld("QS KS AS")
    assert isinstance(low, RunMeld) and (low.low, low.high) == (1, 3)
    assert isinstance(high, RunMeld) and (high.low, high.high) == (12, 14)
    both = meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")
    assert isinstance(both, RunMeld) and (both.low, both.high) == (1, 14)


def test_jokers_take_the_reading_of_greatest_value() -> None:
    # J-10-9 (29) beats 7-8-9 (24) and a set of nines (27)
    nines = meld("JOKER JOKER 9H")
    assert isinstance(nines, RunMeld) and nines.value == 29
    assert [str(c) for c in nines.stands_for] == ["9H", "10H", "JH"]
    # a set of aces (33) beats A-K-Q (31)
    assert isinstance(meld("AH JOKER JOKER"), SetMeld)
    # 2-3-4 (9) beats a set of twos (6)
    assert isinstance(meld("2H JOKER JOKER"), RunMeld)
    # equal value (K-Q-J 30 and three kings 30): the set
    kings = meld("KH JOKER JOKER")
    assert isinstance(kings, SetMeld) and kings.value == 30
    # Q-K-A (31) beats 10-J-Q (30)
    assert meld("QH JOKER JOKER").value == 31


def test_descending_run_is_stored_low_to_high() -> None:
    run = meld("8C JOKER 6C")
    assert isinstance(run, RunMeld) and str(run) == "6C JOKER 8C"
    assert [str(c) for c in run.stands_for] == ["6C", "7C", "8C"]


class TestBuildingRuns:
    def test_either_end(self) -> None:
        run = meld("5H 6H 7H")
        assert str(run.build(parse_cards("8H 9H"), "high")) == "5H 6H 7H 8H 9H"
        assert str(run.build(parse_cards("3H 4H"), "low")) == "3H 4H 5H 6H 7H"

    def test_jokers_may_be_used(self) -> None:
        run = meld("5H 6H 7H")
        built = run.build(parse_cards("JOKER 9H"), "high")
        assert isinstance(built, RunMeld)
        assert str(built) == "5H 6H 7H JOKER 9H"
        assert str(built.stands_for[3]) == "8H"
        assert str(run.build([JOKER], "low")) == "JOKER 5H 6H 7H"

    def test_ace_at_both_ends(self) -> None:
        run = meld("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
        assert str(run.build(parse_cards("AS"), "low")).startswith("AS 2S")
        assert str(run.build(parse_cards("AS"), "high")).endswith("KS AS")
        full = run.build(parse_cards("AS"), "low").build(parse_cards("AS"), "high")
        assert len(full.cards) == 14 and full.value == 96

    @pytest.mark.parametrize(
        "run, cards, end",
        [
            ("QS KS AS", "2S", "high"),  # no wrap K-A-2
            ("AS 2S 3S", "KS", "low"),  # no wrap K-A-2
            ("QS KS AS", "JOKER", "high"),  # nothing above the high ace
            ("AS 2S 3S", "JOKER", "low"),  # nothing below the low ace
            ("5H 6H 7H", "9H", "high"),  # a gap
            ("5H 6H 7H", "8S", "high"),  # another suit
            ("5H 6H 7H", "8H", "low"),  # wrong end
            ("5H 6H 7H", "4H 3H", "low"),  # cards are given low to high
        ],
    )
    def test_refused(self, run: str, cards: str, end: End) -> None:
        with pytest.raises(IllegalAction) as info:
            meld(run).build(parse_cards(cards), end)
        assert info.value.code == "invalid_build"


class TestBuildingSets:
    def test_fourth_suit_or_joker(self) -> None:
        assert str(meld("7S 7H 7D").build(parse_cards("7C"))) == "7S 7H 7D 7C"
        assert str(meld("7S 7H 7D").build([JOKER])) == "7S 7H 7D JOKER"

    @pytest.mark.parametrize(
        "base, card",
        [("7S 7H 7D", "7S"), ("7S 7H JOKER", "7H"), ("7S 7H 7D", "8C"), ("7S 7H 7D 7C", "JOKER")],
    )
    def test_refused(self, base: str, card: str) -> None:
        with pytest.raises(IllegalAction) as info:
            meld(base).build(parse_cards(card))
        assert info.value.code == "invalid_build"

    def test_one_card_at_a_time(self) -> None:
        with pytest.raises(IllegalAction, match="one card at a time"):
            meld("7S 7H JOKER").build(parse_cards("7D 7C"))


class TestJokerRelease:
    def test_set_with_one_joker_needs_both_missing_suits(self) -> None:
        base = meld("10H 10S JOKER")
        freed = base.release(parse_cards("10D 10C"))
        assert str(freed) == "10H 10S 10D 10C"
        assert isinstance(freed, SetMeld) and freed.jokers == 0
        with pytest.raises(IllegalAction) as info:
            base.release(parse_cards("10D"))
        assert info.value.code == "no_release"
        with pytest.raises(IllegalAction):
            base.release(parse_cards("10D 10D"))
        with pytest.raises(IllegalAction):
            base.release(parse_cards("10D 10H"))

    def test_one_missing_suit_makes_a_closed_four_card_set(self) -> None:
        closed = meld("10H 10S JOKER").build(parse_cards("10D"))
        assert str(closed) == "10H 10S 10D JOKER"
        for cards in ("10C", "10C 10D"):
            with pytest.raises(IllegalAction) as info:
                closed.release(parse_cards(cards))
            assert info.value.code == "no_release"
        with pytest.raises(IllegalAction):
            closed.build(parse_cards("10C"))

    def test_set_with_two_jokers_frees_one_and_closes(self) -> None:
        base = meld("10H JOKER JOKER")
        assert isinstance(base, SetMeld) and base.jokers == 2
        freed = base.release(parse_cards("10S"))
        assert isinstance(freed, SetMeld)
        assert (str(freed), freed.jokers, freed.closed) == ("10H 10S JOKER", 1, True)
        with pytest.raises(IllegalAction) as info:
            freed.build(parse_cards("10D"))
        assert info.value.code == "meld_closed"
        with pytest.raises(IllegalAction) as info:
            freed.release(parse_cards("10D 10C"))
        assert info.value.code == "no_release"

    def test_set_with_two_jokers_refuses_a_plain_build_and_wrong_cards(self) -> None:
        base = meld("10H JOKER JOKER")
        with pytest.raises(IllegalAction) as info:
            base.build(parse_cards("10S"))
        assert info.value.code == "joker_release"
        for cards in ("10H", "9S", "10S 10D", "JOKER"):
            with pytest.raises(IllegalAction) as info:
                base.release(parse_cards(cards))
            assert info.value.code == "no_release"

    def test_run_joker_is_released_by_the_exact_card(self) -> None:
        run = meld("5H JOKER 7H")
        assert str(run.release(parse_cards("6H"))) == "5H 6H 7H"
        for cards in ("6S", "8H", "6H 6H", "JOKER"):
            with pytest.raises(IllegalAction) as info:
                run.release(parse_cards(cards))
            assert info.value.code == "no_release"

    def test_set_without_joker_releases_nothing(self) -> None:
        with pytest.raises(IllegalAction, match="holds no joker"):
            meld("7S 7H 7D").release(parse_cards("7C"))
