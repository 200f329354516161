"""Kalooki invariants over random legal games: cards are conserved, a game replays exactly from its
JSON actions, refused actions change nothing."""

from __future__ import annotations

import copy
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalAction, actions_from_json, actions_to_json, replay
from rules.actions import Action
from rules.kalooki import (
    DECK,
    Build,
    Card,
    Deal,
    Discard,
    DrawDiscard,
    DrawStock,
    KalookiOptions,
    LayDown,
    ReleaseJoker,
    RevealHand,
    Session,
    TurnUp,
    new_session,
)
from rules.kalooki.auto import random_turn

GAMES = settings(max_examples=25)

options_strategy = st.builds(
    KalookiOptions,
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    initial_meld=st.sampled_from([40, 51]),
    deals=st.integers(1, 2),
    max_reshuffles=st.integers(0, 3),
)


def every_card(deal: Deal) -> Counter[Card]:
    assert deal.hands is not None
    seen = Counter(deal.stock) + Counter(deal.discards) + Counter(deal.table_cards())
    for hand in deal.hands:
        seen.update(hand)
    return seen


def play(options: KalookiOptions, rng: random.Random) -> tuple[list[Session], list[Action]]:
    """A random legal session: every state passed through and every action taken. Some sessions
    are played by reluctant players, so that the stock runs out and is reshuffled."""
    eagerness = rng.choice([1.0, 1.0, 0.2, 0.0])
    state = new_session(options)
    states, taken = [state], []
    while state.outcome is None:
        for act in random_turn(state.deal, rng, eagerness):
            state = state.apply(act)
            states.append(state)
            taken.append(act)
    return states, taken


@GAMES
@given(options_strategy, st.randoms(use_true_random=False))
def test_cards_are_conserved(options: KalookiOptions, rng: random.Random) -> None:
    states, _ = play(options, rng)
    for state in states:
        deal = state.deal
        assert every_card(deal) == Counter(DECK)
        assert deal.hands is not None
        assert deal.counts == tuple(len(h) for h in deal.hands)
        assert deal.stock_count == len(deal.stock)
    final = states[-1]
    assert len(final.results) == options.deals
    assert final.totals == tuple(sum(r.penalties[s] for r in final.results) for s in range(options.players))


@GAMES
@given(options_strategy, st.randoms(use_true_random=False))
def test_replay_from_json_gives_an_equal_state(options: KalookiOptions, rng: random.Random) -> None:
    states, taken = play(options, rng)
    assert replay(options, actions_from_json(actions_to_json(taken))) == states[-1]


card_text = st.sampled_from(sorted({str(c) for c in DECK}))
cards = st.lists(card_text, min_size=0, max_size=5).map(lambda t: tuple(Card.parse(c) for c in t))
any_action = st.one_of(
    st.just(DrawStock()),
    st.just(DrawDiscard()),
    st.builds(Discard, card_text.map(Card.parse)),
    st.builds(LayDown, st.lists(cards, min_size=0, max_size=3).map(tuple)),
    st.builds(Build, st.integers(-1, 12), cards, st.sampled_from(["low", "high"])),
    st.builds(ReleaseJoker, st.integers(-1, 12), cards),
    st.builds(TurnUp, card_text.map(Card.parse)),
    st.builds(RevealHand, st.integers(-1, 4), cards),
)


@GAMES
@given(options_strategy, st.randoms(use_true_random=False), st.lists(any_action, min_size=1, max_size=30))
def test_refused_actions_leave_the_state_unchanged(
    options: KalookiOptions, rng: random.Random, attempts: list[Action]
) -> None:
    states, _ = play(options, rng)
    for attempt in attempts:
        state = rng.choice(states)
        before = copy.deepcopy(state)
        try:
            after = state.apply(attempt)
        except IllegalAction as err:
            assert err.code and err.message
            assert state == before
        else:
            assert after is not state and state == before


@GAMES
@given(st.integers(0, 2**32), st.integers(2, 4))
def test_referee_mode_sees_the_same_results_as_full_information(seed: int, players: int) -> None:
    from rules.kalooki import auto_play

    full = auto_play(KalookiOptions(players=players, seed=seed, deals=2, pool_cents=5000))
    options = KalookiOptions(players=players, seed=seed, deals=2, pool_cents=5000, mode="referee")
    journal: list[Action] = []
    refereed = auto_play(options, journal)
    assert refereed.results == full.results
    assert refereed.deal.hands is None
    assert replay(options, actions_from_json(actions_to_json(journal))) == refereed


def test_reluctant_players_exhaust_the_stock_through_every_reshuffle() -> None:
    options = KalookiOptions(players=3, seed=11, max_reshuffles=2)
    state, rng, reshuffles_seen = new_session(options), random.Random(3), set()
    while state.outcome is None:
        for act in random_turn(state.deal, rng, eagerness=0.0):
            state = state.apply(act)
            assert every_card(state.deal) == Counter(DECK)
            reshuffles_seen.add(state.deal.reshuffles)
    assert reshuffles_seen == {0, 1, 2}
    result = state.results[0]
    assert result.termination.value == "pool_exhausted"
    assert result.penalties[result.winner] == 0 and min(result.penalties) == 0
