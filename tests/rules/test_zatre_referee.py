"""Zatre in referee mode: the players hold the physical deck, the engine keeps counts, learns each
card when it is laid, checks a shown hand against the table, exchanges and passes by the counts and
ends the round by them; a referee-mode game replays, and its pad equals the full-information scoring
of the same placements (Hypothesis)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import IllegalAction, actions_from_json, actions_to_json
from rules.zatre import Board, Lay, Placement, RoundResult, ZatreOptions, ZatreState, new_game, parse_cards
from rules.zatre.state import Event, Pass, Show
from rules.zatre.table import PhysicalTable, full_information_pads, referee_auto_play, referee_turn

REFEREE = ZatreOptions(players=2, seed=1, information="referee")


def test_a_referee_game_starts_with_counts_only() -> None:
    for players, pile in ((2, 9), (3, 5), (4, 3)):
        state = new_game(replace(REFEREE, players=players))
        assert not state.full_information
        assert state.hands == ((),) * players and state.piles == ((),) * players and state.set_aside == ()
        assert state.hand_counts == (4,) + (3,) * (players - 1)
        assert state.pile_counts == (pile,) * players
        assert sum(state.hand_counts) + sum(state.pile_counts) == 25
        assert [state.hand_size(s) for s in range(players)] == list(state.hand_counts)


def test_a_laid_card_is_learned_and_the_counts_follow() -> None:
    state = new_game(REFEREE)
    with pytest.raises(IllegalAction) as info:
        state.apply(Lay.parse("5|6@0,0H"))
    assert info.value.code == "wrong_card_count"
    state = state.apply(Lay.parse("5|6@0,0H 0|4@0,1H"))
    assert state.board.cards == parse_cards("5|6 0|4")
    assert state.hand_counts == (3, 3) and state.pile_counts == (8, 9) and state.turn == 1
    assert state.sheets[0].total == 4  # the 11 of 5|6 and the 10 of 6 over 4
    with pytest.raises(IllegalAction) as info:
        state.apply(Lay.parse("1|1@5,5H"))
    assert info.value.code == "not_touching"


def test_a_card_the_deck_no_longer_holds_is_refused() -> None:
    # The default deck holds 0|1 once: a second one cannot be in play this round.
    state = new_game(REFEREE).apply(Lay.parse("0|1@0,0H 2|2@0,1H"))
    with pytest.raises(IllegalAction) as info:
        state.apply(Lay.parse("1|0@2,0H"))
    assert info.value.code == "card_not_in_deck" and "0|1" in info.value.message
    options = ZatreOptions(players=2, seed=1, information="referee", deck=("1|1",) * 50)
    with pytest.raises(IllegalAction) as info:
        new_game(options).apply(Lay.parse("5|6@0,0H 1|1@0,1H"))
    assert info.value.code == "card_not_in_deck" and "no such card" in info.value.message


def test_round_two_plays_the_cards_set_aside_so_round_one_cards_are_out() -> None:
    deck = ("1|1",) * 25 + ("2|2",) * 25
    options = ZatreOptions(players=2, seed=1, information="referee", deck=deck)
    round_one = RoundResult(Board(tuple(Placement.parse(f"1|1@{2 * i},0H") for i in range(6))), (), 0)
    state = replace(new_game(options), round=1, start=1, turn=1, rounds_played=(round_one,))
    assert state.unseen()[parse_cards("1|1")[0]] == 19
    state = replace(state, round=2)  # rounds 3 and 4 reshuffle all 50
    assert state.unseen()[parse_cards("1|1")[0]] == 25


def blocked(hand_counts: tuple[int, int], pile_counts: tuple[int, int]) -> ZatreState:
    """Seat 1 to lay beside 6|6 above 6|6: every row and column there totals 12, so only a card
    with a 0 half fits (its 0 touching the table, its other half beyond)."""
    state = new_game(REFEREE)
    return replace(
        state,
        turn=1,
        board=Board((Placement.parse("6|6@0,0H"), Placement.parse("6|6@0,1H"))),
        hand_counts=hand_counts,
        pile_counts=pile_counts,
    )


def test_a_shown_hand_is_checked_against_the_table() -> None:
    state = blocked((3, 3), (5, 4))
    with pytest.raises(IllegalAction) as info:
        state.apply(Show(parse_cards("1|2 4|4")))
    assert info.value.code == "wrong_card_count" and info.value.details["wanted"] == 3
    with pytest.raises(IllegalAction) as info:
        state.apply(Show(parse_cards("1|2 0|4 5|5")))
    assert info.value.code == "card_fits"
    named = info.value.details["placement"]
    assert isinstance(named, str)
    placement = Placement.parse(named)
    assert placement.card.same_card(parse_cards("0|4")[0])
    rules.zatre.place(state.board, placement)  # the named place really takes it
    assert "0|4" in info.value.message or "4|0" in info.value.message


def test_an_unplayable_hand_is_exchanged_by_the_counts() -> None:
    state = blocked((3, 3), (5, 4)).apply(Show(parse_cards("1|2 4|4 5|6")))
    assert state.events == (Event("exchange", 1, parse_cards("1|2 4|4 5|6")),)
    assert state.turn == 1 and state.hand_counts == (3, 3) and state.pile_counts == (5, 4)
    assert state.shown == (0, 3)
    state = state.apply(Show(parse_cards("1|1 2|3 5|5")))
    assert state.turn == 1 and state.shown == (0, 6)
    # The seventh card is the last one he has not shown: it fits, he lays it.
    after = state.apply(Lay.parse("2|0@2,-1V"))
    assert after.shown == (0, 0) and after.hand_counts == (3, 3) and after.pile_counts == (5, 3)


def test_a_player_who_has_shown_every_card_passes_and_the_round_ends_when_all_have() -> None:
    state = blocked((3, 2), (5, 0))
    state = state.apply(Show(parse_cards("1|2 4|4")))
    assert state.events == (Event("exchange", 1, parse_cards("1|2 4|4")), Event("pass", 1))
    assert state.turn == 0 and state.passed == (False, True) and state.hand_counts == (3, 2)
    state = state.apply(Show(parse_cards("1|1 3|3 5|5")))
    state = state.apply(Show(parse_cards("2|2 3|4 3|5")))
    assert state.turn == 0 and state.shown == (6, 2)
    state = state.apply(Show(parse_cards("1|3 1|4 1|5")))
    assert [e.kind for e in state.events] == ["exchange", "pass", "round_end"]
    assert state.rounds_played[0].left == 10 and state.rounds_played[0].left_out == ()
    assert (state.round, state.turn, state.hand_counts, state.pile_counts) == (1, 1, (3, 4), (9, 9))


def test_when_every_card_is_laid_the_round_ends_by_the_counts() -> None:
    state = replace(blocked((1, 1), (0, 0)), board=Board((Placement.parse("1|1@0,0H"),)), turn=0)
    state = state.apply(Lay.parse("2|2@0,1H"))
    assert state.turn == 1
    state = state.apply(Lay.parse("3|3@0,2H"))
    assert [e.kind for e in state.events] == ["round_end"] and state.round == 1
    assert state.rounds_played[-1].left == 0


def test_a_pass_lays_nothing_and_keeps_the_counts() -> None:
    for options in (REFEREE, replace(REFEREE, information="full")):
        state = new_game(options)
        after = state.apply(Pass())
        assert after.turn == 1 and after.board == state.board and after.events == (Event("timeout", 0),)
        assert [after.hand_size(s) for s in (0, 1)] == [state.hand_size(s) for s in (0, 1)]
        assert after.sheets == state.sheets


def test_full_information_refuses_a_show() -> None:
    state = new_game(replace(REFEREE, information="full"))
    with pytest.raises(IllegalAction) as info:
        state.apply(Show(state.hands[0]))
    assert info.value.code == "full_information"


def test_show_and_pass_have_text_forms_and_round_trip() -> None:
    show = Show.parse("1|2 4|4 5|6")
    assert str(show) == "1|2 4|4 5|6"
    assert actions_from_json(actions_to_json([show, Pass()])) == [show, Pass()]


def test_the_information_option_is_checked() -> None:
    with pytest.raises(rules.OptionError):
        ZatreOptions.from_dict({"information": "partial"})
    assert ZatreOptions.from_dict({"information": "referee"}).information == "referee"


def test_a_physical_table_deals_lays_and_exchanges_like_the_full_engine() -> None:
    options = replace(REFEREE, information="full")
    full = new_game(options)
    table = PhysicalTable(options)
    table.follow(full)
    assert [sorted(h) for h in table.hands] == [list(h) for h in full.hands]
    assert [tuple(p) for p in table.piles] == list(full.piles)
    hand = list(table.hands[1])
    shown = table.show(1)
    assert list(shown) == hand and table.hands[1] == list(full.piles[1][:3])


@settings(max_examples=25, deadline=None)
@given(
    st.integers(2, 4),
    st.integers(0, 2**32),
    st.integers(0, 2**32),
    st.lists(st.booleans(), max_size=80),
)
def test_a_referee_game_replays_and_its_pad_is_the_full_information_scoring(
    players: int, seed: int, play_seed: int, timeouts: list[bool]
) -> None:
    options = ZatreOptions(players=players, seed=seed, information="referee")
    rng = random.Random(play_seed)
    state, table = new_game(options), PhysicalTable(options)
    actions: list[rules.Action] = []
    lays = []
    while state.turn is not None:
        table.follow(state)
        seat = state.turn
        act = (
            Pass()
            if timeouts and timeouts.pop() and not state.first_turn
            else referee_turn(state, table, rng)
        )
        if isinstance(act, Lay):
            lays.append((state.round, seat, tuple(sorted(table.hands[seat])), act))
            table.lay(seat, [p.card for p in act.placements])
        elif isinstance(act, Show):
            table.show(seat)
        state = state.apply(act)
        actions.append(act)
        # The counts are the real cards' counts.
        if state.turn is not None and state.round == table.round:
            assert list(state.hand_counts) == [len(h) for h in table.hands]
            assert list(state.pile_counts) == [len(p) for p in table.piles]
    assert state.outcome is not None
    assert rules.replay(options, actions_from_json(actions_to_json(actions))) == state
    game = rules.zatre.table.RefereeGame(state, actions, lays)
    sheets, boards = full_information_pads(options, game)
    assert sheets == state.sheets
    assert boards == [r.board for r in state.rounds_played]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_referee_mode_passes_exactly_when_the_full_engine_would(data: st.DataObject) -> None:
    """A blocked table (only cards with a 0 half fit): a player with random real cards shows his
    hand as often as the counts ask; he ends up laying iff one of his cards fits, as in full mode."""
    deck = [c for c in ZatreOptions(players=2).cards()]
    cards = data.draw(st.lists(st.sampled_from(deck), min_size=1, max_size=9))
    size = data.draw(st.integers(1, min(3, len(cards))))
    hand, pile = cards[:size], cards[size:]
    board = Board((Placement.parse("6|6@0,0H"), Placement.parse("6|6@0,1H")))
    full = replace(
        new_game(ZatreOptions(players=2, seed=1)),
        board=board,
        hands=((), tuple(sorted(hand))),
        piles=((), tuple(pile)),
    )
    full_after = full._next_turn(0)
    state = replace(blocked((0, len(hand)), (0, len(pile))), turn=1)
    table = PhysicalTable(state.options, round=0, hands=[[], list(hand)], piles=[[], list(pile)])
    try:
        while state.turn == 1 and state.round == 0 and not rules.zatre.can_lay(board, table.hands[1]):
            state = state.apply(Show(table.show(1)))
    except IllegalAction as exc:  # a deck drawn with repeats beyond the deck's counts
        assert exc.code == "card_not_in_deck"
        return
    passed_full = any(e.kind == "pass" for e in full_after.events)
    assert (state.turn != 1 or state.round == 1) == passed_full
    if not passed_full:
        assert sorted(table.hands[1]) == list(full_after.hands[1]) or rules.zatre.can_lay(
            board, table.hands[1]
        )


def test_referee_auto_play_finishes_and_replays() -> None:
    game = referee_auto_play(ZatreOptions(players=3, seed=9, information="referee"))
    assert game.state.outcome is not None
    assert rules.replay(game.state.options, game.actions) == game.state


def test_a_physical_table_is_rebuilt_from_the_actions_of_a_resumed_game() -> None:
    options = ZatreOptions(players=3, seed=12, information="referee")
    rng = random.Random(3)
    state, table = new_game(options), PhysicalTable(options)
    actions: list[rules.Action] = []
    while state.turn is not None:
        table.follow(state)
        rebuilt = PhysicalTable.replayed(options, actions)
        assert [sorted(h) for h in rebuilt.hands] == [sorted(h) for h in table.hands]
        assert rebuilt.piles == table.piles and rebuilt.round == table.round
        act = referee_turn(state, table, rng)
        if isinstance(act, Lay):
            table.lay(state.turn, [p.card for p in act.placements])
        else:
            table.show(state.turn)
        state = state.apply(act)
        actions.append(act)
