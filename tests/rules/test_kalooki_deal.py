"""A Kalooki deal: the turn, the initial meld, building, joker release in play, going out, Kalooki,
the stock reshuffle and referee mode."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

import rules
from rules import Action, IllegalAction
from rules.kalooki import (
    DECK,
    JOKER,
    Build,
    Deal,
    Discard,
    DrawDiscard,
    DrawStock,
    HandPoints,
    KalookiOptions,
    LayDown,
    ReleaseJoker,
    RevealHand,
    TurnUp,
    new_deal,
)
from rules.outcome import Termination
from tests.rules.kalooki_setup import cards, position


def refused(deal: Deal, action: Action, code: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        deal.apply(action)
    assert info.value.code == code, info.value
    return info.value


def melds(*texts: str) -> LayDown:
    return LayDown(tuple(cards(t) for t in texts))


class TestDealing:
    def test_thirteen_each_one_turned_up_rest_stock(self) -> None:
        deal = new_deal(KalookiOptions(players=4, seed=7))
        assert deal.hands is not None
        assert [len(h) for h in deal.hands] == [13] * 4
        assert len(deal.discards) == 1 and deal.stock_count == len(deal.stock) == 106 - 52 - 1
        everything = Counter(deal.stock) + Counter(deal.discards)
        for hand in deal.hands:
            everything.update(hand)
        assert everything == Counter(DECK)

    def test_seeded(self) -> None:
        one = new_deal(KalookiOptions(players=3, seed=5))
        assert one == new_deal(KalookiOptions(players=3, seed=5))
        assert one != new_deal(KalookiOptions(players=3, seed=6))
        assert new_deal(KalookiOptions(players=3, seed=5), 1).turn == 1

    def test_player_counts(self) -> None:
        from rules.errors import OptionError

        with pytest.raises(OptionError):
            KalookiOptions(players=5)
        assert KalookiOptions(players=5, max_players=5).players == 5
        with pytest.raises(OptionError):
            KalookiOptions(players=1)


class TestTurn:
    def test_draw_from_stock_or_discard(self) -> None:
        deal = position(["7S 7H", "2C"], stock="3D 9C", discards="KD QH")
        after = deal.apply(DrawStock())
        assert after.hand(0) == cards("7S 7H 9C")
        assert after.stock == cards("3D") and after.phase == "play"
        after = deal.apply(DrawDiscard())
        assert after.hand(0) == cards("7S 7H QH")
        assert after.discards == cards("KD")

    def test_must_draw_first_and_only_once(self) -> None:
        deal = position(["7S 7H 7D 8C", "2C"], opened=[True, False])
        refused(deal, Discard(cards("8C")[0]), "draw_first")
        refused(deal, melds("7S 7H 7D"), "draw_first")
        drawn = deal.apply(DrawStock())
        refused(drawn, DrawStock(), "already_drawn")
        refused(drawn, DrawDiscard(), "already_drawn")

    def test_discard_ends_the_turn(self) -> None:
        deal = position(["7S 7H", "2C", "3C"]).apply(DrawStock()).apply(Discard(cards("7H")[0]))
        assert deal.turn == 1 and deal.phase == "draw"
        assert deal.discard_top == cards("7H")[0]

    def test_cards_must_come_from_the_hand(self) -> None:
        deal = position(["7S 7H 8C", "2C"], opened=[True, False], phase="play")
        refused(deal, Discard(cards("9C")[0]), "not_in_hand")
        refused(deal, melds("7S 7H 7D"), "not_in_hand")
        refused(deal, melds("7S 7H JOKER"), "not_in_hand")


class TestInitialMeld:
    def test_fifty_is_refused_fifty_one_accepted(self) -> None:
        fifty = position(["QS QH QD 2C 3C 4C 5C 6C KD", "2D"], phase="play")
        err = refused(fifty, melds("QS QH QD", "2C 3C 4C 5C 6C"), "opening_too_low")
        assert err.details == {"value": 50, "needed": 51}
        fifty_one = position(["QS QH QD 6C 7C 8C KD", "2D"], phase="play")
        after = fifty_one.apply(melds("QS QH QD", "6C 7C 8C"))
        assert after.opened == (True, False)
        assert [str(m) for m in after.table] == ["QS QH QD", "6C 7C 8C"]

    def test_option_forty(self) -> None:
        hand = ["KS KH KD 2C 3C 4C 5C KC", "2D"]
        refused(
            position(hand, phase="play", initial_meld=40), melds("KS KH KD", "2C 3C 4C"), "opening_too_low"
        )
        assert position(hand, phase="play", initial_meld=40).apply(melds("KS KH KD", "3C 4C 5C")).opened[0]
        refused(position(hand, phase="play"), melds("KS KH KD", "3C 4C 5C"), "opening_too_low")

    def test_low_ace_counts_one_high_ace_eleven_joker_its_card(self) -> None:
        deal = position(["AS 2S 3S KH KS KC QD KD JOKER 9C", "2D"], phase="play")
        refused(deal, melds("AS 2S 3S", "KH KS KC"), "opening_too_low")  # 6 + 30
        assert deal.apply(melds("KH KS KC", "QD KD JOKER")).opened[0]  # 30 + Q-K-A 31

    def test_building_before_the_initial_meld_is_refused(self) -> None:
        deal = position(["8H 9C", "2D"], table=["5H 6H 7H"], phase="play")
        refused(deal, Build(0, cards("8H"), "high"), "not_opened")
        refused(deal, ReleaseJoker(0, cards("8H")), "not_opened")
        opened = position(["8H 9C", "2D"], table=["5H 6H 7H"], phase="play", opened=[True, True])
        assert str(opened.apply(Build(0, cards("8H"), "high")).table[0]) == "5H 6H 7H 8H"

    def test_building_in_the_turn_of_the_initial_meld(self) -> None:
        deal = position(["KS KH KD QC JC 10C 8H 2D", "2C"], table=["5H 6H 7H"], phase="play")
        deal = deal.apply(melds("KS KH KD", "QC JC 10C"))
        deal = deal.apply(Build(0, cards("8H"), "high"))
        assert str(deal.table[0]) == "5H 6H 7H 8H"

    def test_unknown_meld(self) -> None:
        deal = position(["8H 9C", "2D"], table=["5H 6H 7H"], phase="play", opened=[True, True])
        refused(deal, Build(3, cards("8H"), "high"), "unknown_meld")


class TestGoingOut:
    def test_going_out_needs_a_discard(self) -> None:
        deal = position(["7S 7H 7D", "2C"], opened=[True, False], stock="8S")
        deal = deal.apply(DrawStock())
        refused(deal, melds("7S 7H 7D 8S"), "invalid_meld")
        refused(
            position(["7S 7H 7D", "2C"], opened=[True, False], phase="play"), melds("7S 7H 7D"), "no_discard"
        )
        building = position(["8H", "2C"], table=["5H 6H 7H"], opened=[True, False], phase="play")
        refused(building, Build(0, cards("8H"), "high"), "no_discard")

    def test_going_out_ends_the_deal_with_penalties(self) -> None:
        deal = position(
            ["7S 7H 7D 9C", "AS KD JOKER 2C", "5H 5D"],
            opened=[True, False, True],
            phase="play",
            pool_cents=10000,
        )
        deal = deal.apply(melds("7S 7H 7D")).apply(Discard(cards("9C")[0]))
        assert deal.phase == "over"
        result = deal.result
        assert result is not None
        assert (result.winner, result.kalooki, result.termination) == (0, False, Termination.WENT_OUT)
        assert result.penalties == (0, 11 + 10 + 25 + 2, 10)
        assert sum(result.payouts) == 10000
        refused(deal, DrawStock(), "deal_over")

    def test_kalooki_adds_25_to_every_loser(self) -> None:
        hand = "QS QH QD QC 2H 3H 4H 9C 10C JC 5D 6D 7D"
        deal = position([hand, "AS 2C", "KD"], stock="KS")
        deal = deal.apply(DrawStock()).apply(melds("QS QH QD QC", "2H 3H 4H", "9C 10C JC", "5D 6D 7D"))
        deal = deal.apply(Discard(cards("KS")[0]))
        result = deal.result
        assert result is not None and result.kalooki
        assert result.penalties == (0, 11 + 2 + 25, 10 + 25)

    def test_kalooki_may_build_on_its_own_new_melds(self) -> None:
        hand = "QS QH QD 2H 3H 4H 9C 10C JC 5D 6D 7D 8D"
        deal = position([hand, "AS", "KD"], stock="QC", table=["4S 5S 6S"], owners=[1])
        deal = deal.apply(DrawStock()).apply(melds("QS QH QD", "2H 3H 4H", "9C 10C JC", "5D 6D 7D"))
        deal = deal.apply(Build(1, cards("QC")))
        assert deal.kalooki_chance
        result = deal.apply(Discard(cards("8D")[0])).result
        assert result is not None and result.kalooki

    def test_building_on_another_players_meld_is_no_kalooki(self) -> None:
        hand = "QS QH QD 2H 3H 4H 9C 10C JC 5D 6D 7D 8D"
        deal = position([hand, "AS", "KD"], stock="7S", table=["4S 5S 6S"], owners=[1])
        deal = deal.apply(DrawStock()).apply(melds("QS QH QD", "2H 3H 4H", "9C 10C JC", "5D 6D 7D"))
        deal = deal.apply(Build(0, cards("7S"), "high"))
        assert not deal.kalooki_chance
        result = deal.apply(Discard(cards("8D")[0])).result
        assert result is not None and not result.kalooki
        assert result.penalties == (0, 11, 10)

    def test_no_kalooki_for_a_player_who_had_opened(self) -> None:
        deal = position(["7S 7H 7D 9C", "AS", "KD"], opened=[True, False, False], phase="play")
        result = deal.apply(melds("7S 7H 7D")).apply(Discard(cards("9C")[0])).result
        assert result is not None and not result.kalooki


class TestReleaseInPlay:
    def test_released_joker_goes_to_the_hand_and_must_be_laid(self) -> None:
        deal = position(
            ["10D 10C 4S 9H", "2C"], table=["10H 10S JOKER", "5S 6S 7S"], opened=[True, True], phase="play"
        )
        deal = deal.apply(ReleaseJoker(0, cards("10D 10C")))
        assert str(deal.table[0]) == "10H 10S 10D 10C"
        assert JOKER in deal.hand(0) and deal.jokers_owed == 1
        refused(deal, Discard(cards("9H")[0]), "joker_not_laid")
        refused(deal, Discard(JOKER), "joker_not_laid")
        deal = deal.apply(Build(1, (JOKER,), "high"))
        assert deal.jokers_owed == 0 and str(deal.table[1]) == "5S 6S 7S JOKER"
        assert deal.apply(Discard(cards("9H")[0])).turn == 1

    def test_released_joker_may_go_into_a_new_meld(self) -> None:
        deal = position(["6H 8S 9S 2D", "2C"], table=["5H JOKER 7H"], opened=[True, True], phase="play")
        deal = deal.apply(ReleaseJoker(0, cards("6H"))).apply(melds("8S 9S JOKER"))
        assert deal.jokers_owed == 0 and str(deal.table[1]) == "8S 9S JOKER"

    def test_two_joker_set_in_play(self) -> None:
        deal = position(
            ["10S 3C 4C", "2C"], table=["10H JOKER JOKER", "5C 6C 7C"], opened=[True, True], phase="play"
        )
        refused(deal, Build(0, cards("10S")), "joker_release")
        deal = deal.apply(ReleaseJoker(0, cards("10S"))).apply(Build(1, (JOKER,), "low"))
        assert str(deal.table[0]) == "10H 10S JOKER" and str(deal.table[1]) == "JOKER 5C 6C 7C"

    def test_a_joker_that_could_not_be_laid_again_is_not_released(self) -> None:
        table = ["10H 10S JOKER", "7D 7H 7C 7S"]
        stranded = position(["10D 10C 4S", "2C"], table=table, opened=[True, True], phase="play")
        refused(stranded, ReleaseJoker(0, cards("10D 10C")), "joker_not_laid")
        with_pair = position(["10D 10C 4S 5S 9H", "2C"], table=table, opened=[True, True], phase="play")
        deal = with_pair.apply(ReleaseJoker(0, cards("10D 10C"))).apply(melds("4S 5S JOKER"))
        assert deal.jokers_owed == 0
        no_discard = position(["6H", "2C"], table=["5H JOKER 7H"], opened=[True, True], phase="play")
        refused(no_discard, ReleaseJoker(0, cards("6H")), "joker_not_laid")
        deal = position(["6H 2D", "2C"], table=["5H JOKER 7H"], opened=[True, True], phase="play")
        deal = deal.apply(ReleaseJoker(0, cards("6H"))).apply(Build(0, (JOKER,), "low"))
        assert str(deal.table[0]) == "JOKER 5H 6H 7H" and deal.hand(0) == cards("2D")


class TestStock:
    def test_reshuffle_when_the_stock_runs_out(self) -> None:
        deal = position(["7S 7H", "2C 3C"], stock="9D", discards="KD QH JC 4S")
        deal = deal.apply(DrawStock()).apply(Discard(cards("7S")[0]))
        assert deal.reshuffles == 1 and deal.discards == cards("7S")
        assert sorted(deal.stock) == sorted(cards("KD QH JC 4S"))
        assert deal.stock_count == 4 and deal.turn == 1
        again = position(["7S 7H", "2C 3C"], stock="9D", discards="KD QH JC 4S")
        assert again.apply(DrawStock()).apply(Discard(cards("7S")[0])) == deal

    def test_empty_stock_leaves_the_discard_top(self) -> None:
        deal = position(["7S 7H", "2C 3C"], stock="", discards="KD")
        refused(deal, DrawStock(), "stock_empty")
        assert deal.apply(DrawDiscard()).hand(0) == cards("7S 7H KD")

    def test_cap_on_reshuffles_ends_the_deal_lowest_hand_wins(self) -> None:
        deal = position(["7S 7H", "2C 3C", "KS KH"], stock="9D", discards="KD QH", max_reshuffles=0)
        deal = deal.apply(DrawStock()).apply(Discard(cards("7S")[0]))
        result = deal.result
        assert result is not None and result.termination == Termination.POOL_EXHAUSTED
        assert result.winner == 1 and result.penalties == (16, 0, 20) and not result.kalooki


class TestRefereeMode:
    def options(self) -> KalookiOptions:
        return KalookiOptions(players=2, mode="referee")

    def test_hands_are_counts_and_the_deal_waits_for_the_turned_up_card(self) -> None:
        deal = new_deal(self.options())
        assert deal.hands is None and deal.counts == (13, 13) and deal.phase == "turn_up"
        refused(deal, DrawStock(), "wrong_phase")
        deal = deal.apply(TurnUp(cards("KD")[0])).apply(DrawStock())
        assert deal.counts == (14, 13) and deal.stock_count == 106 - 26 - 2
        refused(deal, TurnUp(cards("KD")[0]), "wrong_phase")
        deal = deal.apply(melds("KS KH KC", "QD QH QC")).apply(Discard(cards("9D")[0]))
        assert deal.counts == (7, 13) and deal.discard_top == cards("9D")[0]

    def test_what_the_camera_sees_is_checked(self) -> None:
        deal = new_deal(self.options()).apply(TurnUp(cards("KD")[0])).apply(DrawDiscard())
        refused(deal, melds("KS KH KD", "KS KH KD", "KD KC JOKER"), "too_many_copies")
        deal = deal.apply(melds("KS KH KD", "KS KH KD"))
        short = replace(deal, counts=(3, 13))
        refused(short, melds("7S 7H 7D"), "no_discard")
        refused(short, melds("7S 7H 7D 7C"), "hand_count")

    def test_hands_revealed_at_the_end_give_the_penalties(self) -> None:
        deal = new_deal(self.options()).apply(TurnUp(cards("KD")[0]))
        deal = replace(deal, counts=(3, 2), opened=(True, False), kalooki_chance=False)
        deal = deal.apply(DrawStock()).apply(melds("7S 7H 7D")).apply(Discard(cards("9C")[0]))
        assert deal.phase == "reveal" and deal.result is None
        refused(deal, RevealHand(0, ()), "wrong_seat")
        refused(deal, RevealHand(1, cards("AS")), "hand_count")
        refused(deal, DrawStock(), "wrong_phase")
        deal = deal.apply(RevealHand(1, cards("AS JOKER")))
        assert deal.result is not None and deal.result.penalties == (0, 36)

    def reveal_phase(self, counts: tuple[int, ...] = (3, 2, 4)) -> Deal:
        """A referee deal of len(counts) players just ended: seat 0 went out, the others hold counts."""
        options = KalookiOptions(players=len(counts), mode="referee")
        deal = new_deal(options).apply(TurnUp(cards("KD")[0]))
        deal = replace(
            deal, counts=counts, opened=(True,) + (False,) * (len(counts) - 1), kalooki_chance=False
        )
        deal = deal.apply(DrawStock()).apply(melds("7S 7H 7D")).apply(Discard(cards("9C")[0]))
        assert deal.phase == "reveal" and deal.to_reveal() == tuple(range(1, len(counts)))
        return deal

    def test_a_loser_may_enter_just_his_points(self) -> None:
        deal = self.reveal_phase()
        deal = deal.apply(HandPoints(2, 53))  # e.g. AS KD 7C JOKER
        assert deal.to_reveal() == (1,) and deal.result is None and deal.hand_points(2) == 53
        refused(deal, HandPoints(2, 40), "wrong_seat")  # once per seat
        refused(deal, RevealHand(2, cards("AS KD 7C JOKER")), "wrong_seat")
        deal = deal.apply(RevealHand(1, cards("AS JOKER")))
        assert deal.result is not None and deal.result.penalties == (0, 36, 53)
        assert "53 points entered" in rules.kalooki.describe(rules.kalooki.Session(deal.options, deal))

    def test_points_are_checked_against_what_the_hand_can_hold(self) -> None:
        deal = self.reveal_phase()
        refused(deal, HandPoints(0, 0), "wrong_seat")  # the winner holds nothing
        refused(deal, HandPoints(3, 10), "wrong_seat")
        refused(deal, HandPoints(1, -1), "impossible_points")
        # Two cards: at least 2 + 2, at most two jokers; 51 (two jokers and one point) is no pair.
        error = refused(deal, HandPoints(1, 51), "impossible_points")
        assert (error.details["low"], error.details["high"], error.details["cards"]) == (4, 50, 2)
        refused(deal, HandPoints(1, 3), "impossible_points")
        refused(deal, HandPoints(1, 49), "impossible_points")
        assert deal.apply(HandPoints(1, 50)).hand_points(1) == 50
        assert deal.apply(HandPoints(1, 4)).hand_points(1) == 4
        refused(deal, HandPoints(2, 4 * 25), "impossible_points")  # four cards, only two jokers
        assert deal.apply(HandPoints(2, 25 + 25 + 11 + 11)).hand_points(2) == 72

    def test_the_maximum_leaves_out_the_cards_seen(self) -> None:
        deal = self.reveal_phase()
        deal = deal.apply(RevealHand(2, cards("JOKER JOKER AS AH")))  # both jokers are seen
        refused(deal, HandPoints(1, 50), "impossible_points")
        error = refused(deal, HandPoints(1, 36), "impossible_points")
        assert error.details["high"] == 22  # two of the six aces left
        deal = deal.apply(HandPoints(1, 22))
        assert deal.result is not None and deal.result.penalties == (0, 22, 72)

    def test_points_end_a_deal_lost_by_all_and_choose_the_lowest(self) -> None:
        options = KalookiOptions(players=2, mode="referee", max_reshuffles=0)
        deal = new_deal(options).apply(TurnUp(cards("KD")[0]))
        deal = replace(deal, stock_count=1).apply(DrawStock()).apply(Discard(cards("9C")[0]))
        assert deal.phase == "reveal" and deal.to_reveal() == (0, 1)
        deal = deal.apply(HandPoints(0, 90)).apply(HandPoints(1, 60))
        assert deal.result is not None and deal.result.winner == 1
        assert deal.result.termination == Termination.POOL_EXHAUSTED

    def test_points_only_at_the_end_of_a_deal(self) -> None:
        deal = new_deal(self.options())
        refused(deal, HandPoints(1, 20), "wrong_phase")
        refused(deal.apply(TurnUp(cards("KD")[0])), HandPoints(1, 20), "wrong_phase")
        full = new_deal(KalookiOptions(players=2))
        refused(full, HandPoints(1, 20), "wrong_phase")
