"""Kalooki by camera: the planner turns the table seen into the turn's actions (issue 30).

The property: for every turn of random legal games, the table as the camera would see it after the
turn (melds in any order, runs laid either way) planned from the table before it gives actions that the
engine accepts and that lead to the same table, discard pile and hands."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.sessions.kalooki_camera import TableMismatch, draw_seen, plan_turn
from rules.errors import IllegalAction
from rules.kalooki import (
    Build,
    Card,
    Deal,
    Discard,
    DrawDiscard,
    DrawStock,
    KalookiOptions,
    LayDown,
    ReleaseJoker,
    TurnUp,
)
from rules.kalooki.auto import random_turn
from rules.kalooki.cards import parse_cards
from rules.kalooki.session import new_session


def table_of(deal: Deal) -> Counter[tuple[str, ...]]:
    return Counter(tuple(sorted(str(c) for c in meld.cards)) for meld in deal.table)


def seen_as_laid(deal: Deal, rng: random.Random) -> list[list[Card]]:
    """The table as a camera reads it: the melds in any order, a run left to right either way."""
    melds = [list(meld.cards) for meld in deal.table]
    for cards in melds:
        if rng.random() < 0.5:
            cards.reverse()
    rng.shuffle(melds)
    return melds


def play_through_the_camera(seed: int, players: int) -> tuple[int, int]:
    """Every turn of a random full-information game, re-entered through the planner; the number of
    turns planned and of discards the camera could not tell from the top card (the twin of the top)."""
    rng = random.Random(seed)
    session = new_session(KalookiOptions(players=players, mode="full", seed=seed))
    turns = twins = 0
    while session.outcome is None and turns < 400:
        deal = session.deal
        if deal.phase != "draw":
            break
        actions = random_turn(deal, rng)
        after = deal
        for act in actions:
            after = after.apply(act)
        drawn = deal.apply(actions[0])
        # The draw, as the discard pile's zone shows it while it happens, then at the end of the turn.
        if isinstance(actions[0], DrawDiscard):
            twin_under = drawn.discard_top == deal.discard_top  # the top taken off its twin: unseen
            assert draw_seen(deal, drawn.discard_top) == (None if twin_under else DrawDiscard())
        else:
            assert draw_seen(deal, drawn.discard_top) is None  # nothing to see yet
            last = after.discards[-1]
            if last not in (deal.discard_top, deal.discards[-2] if len(deal.discards) > 1 else None):
                assert draw_seen(deal, last) == DrawStock()
        plan = plan_turn(drawn, seen_as_laid(after, rng), after.discards[-1])
        state = drawn
        for planned in plan.actions:
            state = state.apply(planned.action)
        discarded = actions[-1]
        assert isinstance(discarded, Discard)
        if not plan.discards:
            assert discarded.card == drawn.discard_top  # a discard the top card cannot show
            twins += 1
            state = state.apply(discarded)
        assert table_of(state) == table_of(after)
        assert state.discards == after.discards and state.counts == after.counts
        assert state.phase == after.phase and state.turn == after.turn
        for act in actions:
            session = session.apply(act)
        turns += 1
    return turns, twins


@pytest.mark.parametrize("seed", range(6))
def test_every_turn_of_random_games_is_read_back_from_the_table(seed: int) -> None:
    turns, _ = play_through_the_camera(seed, players=2 + seed % 3)
    assert turns > 5


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=100, max_value=10**6))
def test_the_planner_agrees_with_the_engine_on_any_game(seed: int) -> None:
    play_through_the_camera(seed, players=2 + seed % 3)


def referee_deal(players: int = 2) -> Deal:
    deal = new_session(KalookiOptions(players=players, mode="referee")).deal
    return deal.apply(TurnUp(Card.parse("2C"))).apply(DrawStock())


def test_an_initial_meld_of_two_melds_is_one_lay_down_and_the_discard_ends_the_turn() -> None:
    deal = referee_deal()
    plan = plan_turn(deal, [parse_cards("KH QH JH 10H"), parse_cards("9S 9D 9C")], Card.parse("4D"))
    assert [p.action for p in plan.actions] == [
        LayDown((tuple(parse_cards("KH QH JH 10H")), tuple(parse_cards("9S 9D 9C")))),
        Discard(Card.parse("4D")),
    ]
    state = deal
    for p in plan.actions:
        state = state.apply(p.action)
    assert [str(m) for m in state.table] == ["10H JH QH KH", "9S 9D 9C"]


def opened_table() -> Deal:
    """Player 0 opened with 10H-KH and 9S 9D 9C; player 1 to play, having drawn."""
    deal = referee_deal()
    deal = deal.apply(LayDown((tuple(parse_cards("10H JH QH KH")), tuple(parse_cards("9S 9D 9C")))))
    deal = deal.apply(Discard(Card.parse("4D"))).apply(DrawStock())
    return deal.apply(LayDown((tuple(parse_cards("5S 5H JOKER")), tuple(parse_cards("7C 8C 9C 10C JC")))))


def test_cards_added_at_both_ends_of_a_run_are_two_builds() -> None:
    deal = opened_table()
    seen = [parse_cards("9H 10H JH QH KH AH"), parse_cards("9S 9D 9C"), parse_cards("5S 5H JOKER"),
            parse_cards("7C 8C 9C 10C JC")]  # fmt: skip
    plan = plan_turn(deal, seen, deal.discard_top)
    assert [p.action for p in plan.actions] == [
        Build(0, (Card.parse("9H"),), "low"),
        Build(0, (Card.parse("AH"),), "high"),
    ]
    assert not plan.discards  # the top card has not changed: no discard seen


def test_a_joker_added_before_a_descending_run_goes_at_its_high_end() -> None:
    deal = opened_table()
    seen = [parse_cards("10H JH QH KH"), parse_cards("9S 9D 9C"), parse_cards("5S 5H JOKER"),
            parse_cards("JOKER JC 10C 9C 8C 7C")]  # fmt: skip
    plan = plan_turn(deal, seen, None)
    assert [p.action for p in plan.actions] == [Build(3, (Card.parse("JOKER"),), "high")]


def test_a_joker_replaced_by_the_missing_suits_is_released_then_laid() -> None:
    deal = opened_table()
    seen = [parse_cards("10H JH QH KH JOKER"), parse_cards("9S 9D 9C"), parse_cards("5S 5H 5D 5C"),
            parse_cards("7C 8C 9C 10C JC")]  # fmt: skip
    plan = plan_turn(deal, seen, Card.parse("3S"))
    actions = [p.action for p in plan.actions]
    assert actions == [
        ReleaseJoker(2, tuple(parse_cards("5D 5C"))),
        Build(0, (Card.parse("JOKER"),), "high"),
        Discard(Card.parse("3S")),
    ]
    state = deal
    for act in actions:
        state = state.apply(act)
    assert str(state.table[0]) == "10H JH QH KH JOKER" and state.turn == 0


def test_a_card_gone_from_a_meld_is_named_with_the_meld() -> None:
    deal = opened_table()
    seen = [parse_cards("10H JH QH"), parse_cards("9S 9D 9C"), parse_cards("5S 5H JOKER"),
            parse_cards("7C 8C 9C 10C JC")]  # fmt: skip
    with pytest.raises(TableMismatch, match="KH gone from the meld 10H JH QH KH") as caught:
        plan_turn(deal, seen, None)
    assert caught.value.meld == 0 and caught.value.put_back == (Card.parse("KH"),)


def test_a_meld_broken_up_is_a_mismatch_not_a_new_meld() -> None:
    deal = opened_table()
    seen = [parse_cards("10H JH"), parse_cards("QH KH"), parse_cards("9S 9D 9C"), parse_cards("5S 5H JOKER"),
            parse_cards("7C 8C 9C 10C JC")]  # fmt: skip
    with pytest.raises(TableMismatch, match="the meld 10H JH QH KH is broken up: lay it back together"):
        plan_turn(deal, seen, None)


def test_a_third_copy_is_refused_by_the_engine_naming_the_card() -> None:
    deal = referee_deal()
    deal = deal.apply(LayDown((tuple(parse_cards("10H JH QH KH")), tuple(parse_cards("9S 9D 9C")))))
    deal = deal.apply(Discard(Card.parse("4D"))).apply(DrawStock())
    seen = [parse_cards("10H JH QH KH"), parse_cards("9S 9D 9C"), parse_cards("9S 9H 9D"),
            parse_cards("9S 10S JS")]  # fmt: skip
    plan = plan_turn(deal, seen, None)
    with pytest.raises(IllegalAction) as refused:
        deal.apply(plan.actions[0].action)
    assert refused.value.code == "too_many_copies" and "9S" in str(refused.value)
    assert plan.actions[0].seen == (2, 3)  # the melds to outline
