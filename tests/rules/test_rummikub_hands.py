"""Rummikub over several hands, racks revealed one by one, time extensions (referee mode), and the
reason a meld is refused (for the device's translated sentence)."""

from __future__ import annotations

import pytest

from rules.actions import action_from_json, action_to_json
from rules.errors import IllegalAction
from rules.outcome import Termination
from rules.rummikub import (
    Draw,
    Extend,
    Meld,
    NextHand,
    Play,
    RevealRack,
    RummikubOptions,
    Start,
    Timeout,
    new_game,
    parse_tiles,
    read_meld,
)
from rules.rummikub.state import RummikubState

# Fourteen tiles in valid melds: seat 0 goes out in one move (referee mode counts, not tiles).
GO_OUT = (
    Meld.parse("R1 R2 R3 R4 R5"),
    Meld.parse("B9 B10 B11 B12 B13"),
    Meld.parse("K7 O7 R7 B7"),
)
RACK = tuple(parse_tiles("R13 K13 O13 J B1 B2 O5 O6 K2 K3 K4 R9 R10 O1"))  # 14 tiles, worth 120


def referee(**options: object) -> RummikubState:
    return new_game(RummikubOptions.preset("seed", **{"players": 2, "information": "referee", **options}))


def play_hand(state: RummikubState, rack: tuple = RACK) -> RummikubState:
    state = state.apply(Start(0)).apply(Play(GO_OUT))
    assert state.ended is Termination.RACK_EMPTY and state.outcome is None
    return state.apply(RevealRack(1, rack))


def test_an_opened_player_loses_his_rack_with_the_joker_at_its_preset_value() -> None:
    state = referee(players=3).apply(Start(1)).apply(Play((Meld.parse("O10 O11 O12"),)))
    state = state.apply(Draw()).apply(Play((*state.table, *GO_OUT)))  # seat 0 (not opened) goes out
    # Seat 2 drew a tile: 15 on his rack.
    state = state.apply(RevealRack(1, RACK[:11])).apply(RevealRack(2, (*RACK, *parse_tiles("B7"))))
    loss = sum(t.number for t in RACK[:11] if not t.is_joker) + 50
    assert state.outcome is not None and state.outcome.scores == (loss + 200, -loss, -200)


def test_a_player_who_never_opened_loses_200_when_he_could_have() -> None:
    state = play_hand(referee())
    assert state.outcome is not None and state.outcome.scores == (200, -200)


def test_several_hands_add_up_and_the_next_hand_is_dealt_fresh() -> None:
    state = play_hand(referee(hands=2))
    assert state.outcome is None and state.between_hands and state.totals == (200, -200)
    with pytest.raises(IllegalAction) as refused:
        state.apply(Draw())
    assert refused.value.code == "hand_over"
    state = state.apply(NextHand())
    assert state.hand == 2 and state.table == () and state.rack_counts == (14, 14) and state.turn is None
    state = play_hand(state)
    assert state.outcome is not None and state.outcome.scores == (400, -400)
    assert state.hand_scores == ((200, -200), (200, -200))


def test_a_target_score_ends_the_game_early() -> None:
    state = play_hand(referee(hands=5, target_score=150))
    assert state.outcome is not None and state.hand == 1 and state.outcome.scores == (200, -200)


def test_next_hand_is_refused_while_a_hand_is_played() -> None:
    with pytest.raises(IllegalAction) as refused:
        referee(hands=2).apply(Start(0)).apply(NextHand())
    assert refused.value.code == "hand_not_over"


def test_a_rack_is_revealed_with_its_count_and_once() -> None:
    state = referee(players=3).apply(Start(0)).apply(Play(GO_OUT))
    with pytest.raises(IllegalAction) as refused:
        state.apply(RevealRack(1, RACK[:5]))
    assert refused.value.code == "reveal_mismatch" and refused.value.details["count"] == 14
    state = state.apply(RevealRack(2, RACK))
    assert state.rack_known(2) and not state.rack_known(1) and state.rack_known(0)
    with pytest.raises(IllegalAction) as again:
        state.apply(RevealRack(2, RACK))
    assert again.value.code == "already_revealed"
    # The set holds two of each tile: a third R13 (table none, two racks) is refused.
    third = tuple(parse_tiles("R13 R13 K13 O13 J B1 B2 O5 O6 K2 K3 K4 R9 R10"))
    with pytest.raises(IllegalAction) as extra:
        state.apply(RevealRack(1, third))
    assert extra.value.code == "reveal_mismatch"


def test_time_extensions_are_counted_per_seat_and_run_out() -> None:
    state = referee(extensions=2).apply(Start(1))
    state = state.apply(Extend(1)).apply(Extend(1))
    assert state.extensions_left(1) == 0 and state.extensions_left(0) == 2
    with pytest.raises(IllegalAction) as refused:
        state.apply(Extend(1))
    assert refused.value.code == "no_extension_left"
    with pytest.raises(IllegalAction) as other:
        state.apply(Extend(0))
    assert other.value.code == "not_your_turn"


def test_the_tournament_preset_has_no_extensions() -> None:
    options = RummikubOptions.preset("tournament", players=2)
    assert options.extensions == 0 and options.joker_penalty == 30
    with pytest.raises(IllegalAction):
        new_game(options.replace(information="referee")).apply(Start(0)).apply(Extend(0))


def test_a_timeout_after_a_redeal_and_hands_keep_the_history() -> None:
    state = play_hand(referee(hands=3)).apply(NextHand()).apply(Start(1)).apply(Timeout(manipulated=True))
    assert state.rack_counts == (14, 17) and state.hand_scores == ((200, -200),)


def test_full_information_hands_deal_differently_and_replay() -> None:
    options = RummikubOptions.preset("seed", players=2, seed=5, hands=2)
    first = new_game(options)
    second = new_game(options, hand=2)
    assert first.racks != second.racks
    assert new_game(options, hand=2).racks == second.racks


@pytest.mark.parametrize(
    ("meld", "why"),
    [
        ("R12 B12 B12", "group_colour"),
        ("R1 R2", "too_few"),
        ("J J J", "no_natural"),
        ("R3 R5 R6", "run_gap"),
        ("R12 R13 R1", "run_wrap"),
        ("R3 B4 K5", "mixed"),
    ],
)
def test_a_refused_meld_names_why(meld: str, why: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        read_meld(meld)
    assert refused.value.details["why"] == why
    if why == "group_colour":
        assert refused.value.details["colour"] == "blue"


def test_new_actions_round_trip() -> None:
    for act in (RevealRack(0, RACK), Extend(1), NextHand()):
        assert action_from_json(action_to_json(act)) == act
