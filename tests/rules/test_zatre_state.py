"""Zatre: rounds and turns — dealing, the first two-card turn, drawing, the unplayable-hand exchange,
passing, the end of a round and of the game, the registry entry and ``referee play zatre``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import rules
from device.cli import main
from rules import IllegalAction, Termination
from rules.zatre import (
    Board,
    Card,
    Lay,
    Placement,
    RoundResult,
    ZatreOptions,
    ZatreState,
    new_game,
    parse_cards,
    random_lay,
)
from rules.zatre.state import Event, deal, round_cards


def play_until_round(state: ZatreState, number: int, rng: random.Random) -> ZatreState:
    while state.turn is not None and state.round < number:
        state = state.apply(random_lay(state, rng))
    return state


def in_round(state: ZatreState) -> Counter[Card]:
    """Every card of the current round: laid, in hand or in a pile."""
    held = [c for cards in (*state.hands, *state.piles) for c in cards]
    return Counter(c.key for c in (*state.board.cards, *held))


@pytest.mark.parametrize("players, pile", [(2, 9), (3, 5), (4, 3)])
def test_round_structure(players: int, pile: int) -> None:
    options = ZatreOptions(players=players, seed=7)
    deck = Counter(options.cards())
    rng = random.Random(3)
    state = new_game(options)
    first_set_aside = Counter(state.set_aside)
    for number in range(players):
        state = play_until_round(state, number, rng)
        assert (state.round, state.start, state.turn) == (number, number, number)
        assert state.first_turn
        assert [len(h) for h in state.hands] == [4 if seat == number else 3 for seat in range(players)]
        assert [len(p) for p in state.piles] == [pile] * players
        assert sum(in_round(state).values()) == 25
        if number == 1:
            assert in_round(state) == first_set_aside and state.set_aside == ()
        else:
            assert in_round(state) + Counter(state.set_aside) == deck and len(state.set_aside) == 25
    while state.turn is not None:
        state = state.apply(random_lay(state, rng))
    assert len(state.rounds_played) == players
    assert all(len(r.board.placements) + len(r.left_out) == 25 for r in state.rounds_played)
    outcome = state.outcome
    assert outcome is not None and outcome.termination is Termination.ROUNDS_PLAYED
    assert outcome.scores == tuple(sheet.total for sheet in state.sheets)


def test_rounds_three_and_four_reshuffle_all_fifty_with_the_seed() -> None:
    options = ZatreOptions(players=4, seed=11)
    first, aside = round_cards(options, 0, ())
    assert round_cards(options, 1, aside) == (aside, ())
    third, third_aside = round_cards(options, 2, ())
    fourth, _ = round_cards(options, 3, ())
    assert Counter(third + third_aside) == Counter(options.cards())
    assert len({first, third, fourth}) == 3
    assert round_cards(options, 2, ()) == (third, third_aside)
    assert round_cards(options.replace(seed=12), 2, ())[0] != third


def test_deal_gives_the_start_player_four_and_shares_the_rest_evenly() -> None:
    cards = parse_cards(" ".join(["1|1"] * 4 + ["2|2"] * 3 + ["3|3"] * 3 + ["4|4"] * 15))
    hands, piles = deal(cards, 3, 1)
    assert hands[1] == parse_cards("1|1 1|1 1|1 1|1")
    assert hands[2] == parse_cards("2|2 2|2 2|2") and hands[0] == parse_cards("3|3 3|3 3|3")
    assert [len(p) for p in piles] == [5, 5, 5]
    with pytest.raises(ValueError, match="share out evenly"):
        deal(cards[:24], 3, 0)


def test_first_turn_lays_two_touching_cards_then_one_card_a_turn() -> None:
    state = new_game(ZatreOptions(players=2, seed=1))
    a, b = state.hands[0][:2]
    with pytest.raises(IllegalAction) as info:
        state.apply(Lay((Placement(a, 0, 0, "H"),)))
    assert info.value.code == "wrong_card_count"
    state = state.apply(Lay((Placement(a, 0, 0, "H"), Placement(b, 0, 1, "H"))))
    assert state.turn == 1 and len(state.hands[0]) == 3 and len(state.piles[0]) == 8
    with pytest.raises(IllegalAction) as info:
        state.apply(Lay(tuple(state.legal_placements()[:2])))
    assert info.value.code == "wrong_card_count"
    lay = Lay((state.legal_placements()[0],))
    after = state.apply(lay)
    assert after.turn == 0 and len(after.hands[1]) == 3 and after.piles[1] == state.piles[1][1:]
    assert state.piles[1][0] in after.hands[1]


def test_a_card_may_be_laid_either_way_round_but_must_be_in_hand() -> None:
    state = new_game(ZatreOptions(players=2, seed=1))
    a, b = state.hands[0][:2]
    turned = Lay((Placement(a.turned(), 0, 0, "V"), Placement(b.turned(), 1, 0, "V")))
    assert state.apply(turned).board.placements == turned.placements
    missing = next(c for c in state.options.cards() if c not in state.hands[0])
    with pytest.raises(IllegalAction) as info:
        state.apply(Lay((Placement(a, 0, 0, "H"), Placement(missing, 0, 1, "H"))))
    assert info.value.code == "card_not_in_hand" and str(missing) in info.value.message


def blocked_state(hand1: str, pile1: str, *, hand0: str = "6|6", round_: int = 0) -> ZatreState:
    """Player 0 on turn beside a 6|6; laying his 6|6 below it closes the table to every card
    without a 0 half (all its rows and columns then total 12)."""
    options = ZatreOptions(players=2, seed=1)
    aside = round_cards(options, 0, ())[1]
    return ZatreState(
        options=options,
        round=round_,
        start=0,
        turn=0,
        board=Board((Placement.parse("6|6@0,0H"),)),
        hands=(parse_cards(hand0), parse_cards(hand1)),
        piles=((), parse_cards(pile1)),
        set_aside=aside if round_ == 0 else (),
        sheets=new_game(options).sheets,
        rounds_played=(RoundResult(Board(), ()),) * round_,
    )


CLOSE = Lay((Placement.parse("6|6@0,1H"),))


def test_an_unplayable_hand_goes_under_the_pile_for_three_new_cards() -> None:
    state = blocked_state("1|2 4|4 5|6", "3|3 0|2 2|2").apply(CLOSE)
    assert state.turn == 1
    assert state.events == (Event("exchange", 1, parse_cards("1|2 4|4 5|6")),)
    assert state.hands[1] == parse_cards("0|2 2|2 3|3")
    assert state.piles[1] == parse_cards("1|2 4|4 5|6")


def test_the_exchange_is_repeated_until_the_hand_can_be_laid() -> None:
    state = blocked_state("1|2 4|4 5|6", "3|3 1|1 2|2 0|2").apply(CLOSE)
    assert [e.kind for e in state.events] == ["exchange", "exchange"]
    assert state.events[1].cards == parse_cards("1|1 2|2 3|3")
    assert state.hands[1] == parse_cards("0|2 1|2 4|4")
    assert state.piles[1] == parse_cards("5|6 1|1 2|2 3|3")
    assert Counter(state.hands[1] + state.piles[1]) == Counter(parse_cards("1|2 4|4 5|6 3|3 1|1 2|2 0|2"))


def test_exchange_with_a_short_pile_takes_back_shown_cards() -> None:
    state = blocked_state("1|2 4|4", "0|5").apply(CLOSE)
    assert state.events == (Event("exchange", 1, parse_cards("1|2 4|4")),)
    assert state.hands[1] == parse_cards("0|5 1|2 4|4") and state.piles[1] == ()


def test_a_player_who_can_lay_nothing_passes() -> None:
    state = blocked_state("1|2 4|4", "5|5", hand0="6|6 0|3").apply(CLOSE)
    assert state.events == (Event("pass", 1),)
    assert state.turn == 0 and state.hands[1] == parse_cards("1|2 4|4")


def test_the_round_ends_when_nobody_can_lay_and_the_held_cards_are_left_out() -> None:
    state = blocked_state("1|2 4|4", "5|5").apply(CLOSE)
    assert [e.kind for e in state.events] == ["pass", "round_end"]
    assert state.rounds_played[0].left_out == parse_cards("1|2 4|4 5|5")
    assert len(state.rounds_played[0].board.placements) == 2
    # Round 2 begins at once with the 25 cards set aside, seat 1 to start.
    assert (state.round, state.start, state.turn) == (1, 1, 1) and state.first_turn
    assert sum(len(h) for h in state.hands) + sum(len(p) for p in state.piles) == 25


def test_the_game_ends_after_the_last_round() -> None:
    state = blocked_state("1|2", "", round_=1).apply(CLOSE)
    assert state.turn is None and state.outcome is not None
    assert state.outcome.scores == (15 + 6, 0)  # three 12 rows and the super bonus
    with pytest.raises(IllegalAction) as info:
        state.apply(CLOSE)
    assert info.value.code == "game_over"
    assert state.legal_placements() == []


def test_the_registry_plays_and_describes_a_whole_game() -> None:
    spec = rules.get_game("zatre")
    assert spec.titles["de"] == "Zatre – Das Kartenspiel"
    options = spec.options_type.preset(players=3, seed=5)
    state = spec.auto_play(options)
    assert state.outcome is not None
    text = spec.describe(state)
    assert "Round 3" in text and "P3 sheet" in text and "place 1" in text
    assert spec.auto_play(options) == state


def test_referee_play_zatre_auto(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "zatre", "--players", "2", "--seed", "1", "--auto"]) == 0
    out = capsys.readouterr().out
    assert "Round 2" in out and out.count(" sheet") == 2 and "place 1: P" in out


def test_describe_shows_a_game_in_play_and_the_cards_left_out() -> None:
    spec = rules.get_game("zatre")
    state = blocked_state("1|2 4|4", "5|5").apply(CLOSE)
    assert state.outcome is None
    text = spec.describe(state)
    assert "left out (nobody could lay them): 1|2 4|4 5|5" in text
    assert "Round 2 in play, P2 to lay" in text and "(empty table)" in text
    assert [str(e) for e in state.events] == [
        "player 1 cannot lay any card and passes",
        "the round ends; left out: 1|2 4|4 5|5",
    ]
    exchanged = blocked_state("1|2 4|4", "0|5").apply(CLOSE)
    assert str(exchanged.events[0]) == "player 1 cannot lay 1|2 4|4: puts them under the pile and takes 3"


def test_lay_has_a_text_form_and_other_actions_are_refused() -> None:
    lay = Lay.parse("5|6@0,0H 0|4@0,1v")
    assert str(lay) == "5|6@0,0H 0|4@0,1V" and Lay.parse(str(lay)) == lay

    class Pass(rules.Action):
        pass

    with pytest.raises(IllegalAction) as info:
        new_game(ZatreOptions()).apply(Pass())
    assert info.value.code == "unknown_action"


def test_a_board_refuses_overlapping_cards() -> None:
    with pytest.raises(ValueError, match="overlaps"):
        Board((Placement.parse("1|1@0,0H"), Placement.parse("2|2@1,0V")))
