"""The learning table's ``ShowRack``: the mover's rack, checked, the game unchanged."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction
from rules.rummikub import RummikubOptions, ShowRack, Start, TakeHint, new_game, parse_tiles


def referee(learning: bool = True) -> object:
    options = RummikubOptions(players=2, information="referee", learning=learning)
    return new_game(options).apply(Start(0))


def rack(n: int = 14) -> tuple:
    return tuple(parse_tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J")[:n])


def test_the_mover_shows_his_rack_and_nothing_changes() -> None:
    state = referee()
    assert state.apply(ShowRack(0, rack())) is state  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("act", "code"),
    [
        (ShowRack(1, rack()), "not_your_turn"),
        (ShowRack(0, rack(13)), "rack_mismatch"),
        (ShowRack(0, tuple(parse_tiles("J J J R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11"))), "rack_mismatch"),
        (ShowRack(5, rack()), "unknown_seat"),
    ],
)
def test_a_wrong_showing_is_refused(act: ShowRack, code: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        referee().apply(act)  # type: ignore[attr-defined]
    assert refused.value.code == code


def test_only_at_a_learning_table() -> None:
    with pytest.raises(IllegalAction, match="learning table"):
        referee(learning=False).apply(ShowRack(0, rack()))  # type: ignore[attr-defined]


def test_never_in_the_tournament_preset() -> None:
    assert RummikubOptions.preset("tournament").learning is False
    assert RummikubOptions().learning is False


def test_with_full_information_the_rack_must_be_the_dealt_one() -> None:
    state = new_game(RummikubOptions(players=2, learning=True, seed=4))
    seat = state.turn
    assert seat is not None and state.racks is not None
    assert state.apply(ShowRack(seat, state.racks[seat])) is state
    with pytest.raises(IllegalAction, match="does not hold"):
        state.apply(ShowRack(seat, rack()))


def test_hints_are_the_movers_at_a_learning_table() -> None:
    state = referee()
    assert state.apply(TakeHint(0, 1)) is state  # type: ignore[attr-defined]
    for act, code in ((TakeHint(1, 1), "not_your_turn"), (TakeHint(0, 3), "unknown_action")):
        with pytest.raises(IllegalAction) as refused:
            state.apply(act)
        assert refused.value.code == code
    with pytest.raises(IllegalAction, match="learning table"):
        referee(learning=False).apply(TakeHint(0, 1))  # type: ignore[attr-defined]
