"""The game state machine: deal, starting draw, redeal, turns, timeouts, the two endings, referee mode."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from rules import IllegalAction, Termination
from rules.rummikub import (
    Announce,
    Draw,
    Meld,
    Open,
    Play,
    Redeal,
    Reveal,
    RummikubOptions,
    RummikubState,
    Start,
    Timeout,
    new_game,
)
from rules.rummikub.state import identical_pairs, starting_draw
from rules.rummikub.tiles import Tile, full_set, parse_tiles


def melds(*texts: str) -> tuple[Meld, ...]:
    return tuple(Meld.parse(t) for t in texts)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text))


def game(
    racks: list[str], pool: str = "", table: tuple[str, ...] = (), turn: int = 0, **opts: object
) -> RummikubState:
    """A full-information position with the given racks, pool (drawn from the left) and table."""
    options = RummikubOptions(players=len(racks), **opts)  # type: ignore[arg-type]
    state = new_game(options)
    return dataclasses.replace(
        state,
        racks=tuple(tiles(r) for r in racks),
        rack_counts=tuple(len(tiles(r)) for r in racks),
        pool=tiles(pool),
        pool_count=len(tiles(pool)),
        table=melds(*table),
        turn=turn,
    )


def refused(state: RummikubState, action: object) -> str:
    before = dataclasses.replace(state)
    with pytest.raises(IllegalAction) as err:
        state.apply(action)  # type: ignore[arg-type]
    assert state == before
    return err.value.code


def all_tiles(state: RummikubState) -> Counter[Tile]:
    assert state.racks is not None and state.pool is not None
    return Counter(
        [*(t for m in state.table for t in m.tiles), *(t for r in state.racks for t in r), *state.pool]
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_deal_gives_14_each_and_keeps_all_106_tiles(players: int) -> None:
    state = new_game(RummikubOptions(players=players, seed=7))
    assert state.rack_counts == (14,) * players
    assert state.pool_count == 106 - 14 * players
    assert all_tiles(state) == Counter(full_set())
    assert new_game(RummikubOptions(players=players, seed=7)) == state
    assert new_game(RummikubOptions(players=players, seed=8)).racks != state.racks


def test_starting_player_drew_the_highest_number_ties_draw_again() -> None:
    import random

    for seed in range(200):
        starter, rounds = starting_draw(random.Random(seed), 4)
        contenders = list(range(4))
        for drawn in rounds:
            top = max(t.number for t in drawn)
            contenders = [seat for seat, t in zip(contenders, drawn, strict=True) if t.number == top]
        assert contenders == [starter]
    state = new_game(RummikubOptions(players=3, seed=1))
    assert state.turn == starting_draw(random.Random("rummikub:1:1"), 3)[0]


def test_redeal_needs_three_identical_pairs_before_the_first_turn() -> None:
    three = "R12 R12 B9 B9 K3 K3 O1 O2 O3 O4 O5 O6 O7 O8"  # the seed's example
    two = "R12 R12 B9 B9 K3 K4 O1 O2 O3 O4 O5 O6 O7 O8"
    assert identical_pairs(tiles(three)) == 3
    state = game([three, two], pool="R1")
    redealt = state.apply(Redeal(0))
    assert redealt.deals == 2 and redealt.racks != state.racks
    assert all_tiles(redealt) == Counter(full_set())
    assert refused(state, Redeal(1)) == "redeal_not_allowed"
    after_turn = state.apply(Draw())
    assert refused(after_turn, Redeal(0)) == "redeal_not_allowed"
    official = game([three, two], pool="R1", redeal_on_pairs=False)
    assert refused(official, Redeal(0)) == "redeal_not_allowed"
    assert refused(state, Redeal(5)) == "unknown_seat"


def test_opening_and_playing_move_tiles_from_the_rack() -> None:
    state = game(["R10 R11 R12 B1", "K5 K6 K7 O1"], pool="B2 B3 B4")
    state = state.apply(Open(melds("R10 R11 R12")))
    assert state.racks is not None and state.racks[0] == tiles("B1")
    assert state.opened == (True, False) and state.turn == 1
    assert refused(state, Open(melds("K5 K6 K7"))) == "opening_too_low"
    state = state.apply(Draw())
    assert state.racks is not None and state.racks[1] == tiles("K5 K6 K7 O1 B2")
    assert refused(state, Play(melds("R10 R11 R12", "B1 B2 B3"))) == "not_on_rack"
    assert refused(state, Play(melds("R10 R11 R12"))) == "no_tile_played"


def test_unopened_player_may_not_touch_the_table() -> None:
    state = game(["R9 K13 B13 O13", "R13"], table=("R10 R11 R12",))
    state = dataclasses.replace(state, opened=(False, True))
    assert refused(state, Play(melds("R9 R10 R11 R12", "K13 B13 O13"))) == "table_touched_before_opening"
    assert state.apply(Open(melds("K13 B13 O13"))).table == melds("R10 R11 R12", "K13 B13 O13")


def test_timeout_after_manipulating_restores_the_table_and_draws_three() -> None:
    state = game(["R1 B5", "K9"], pool="O1 O2 O3 O4", table=("R3 R4 R5 R6",))
    after = state.apply(Timeout(manipulated=True))
    assert after.table == state.table
    assert after.racks is not None and after.racks[0] == tiles("R1 B5 O1 O2 O3")
    assert after.pool_count == 1 and after.turn == 1


def test_timeout_draws_what_is_left() -> None:
    state = game(["R1", "K9"], pool="O1 O2")
    after = state.apply(Timeout(manipulated=True))
    assert after.racks is not None and after.racks[0] == tiles("R1 O1 O2") and after.pool_count == 0


def test_timeout_without_manipulation_is_a_normal_draw() -> None:
    state = game(["R1", "K9"], pool="O1 O2")
    after = state.apply(Timeout(manipulated=False))
    assert after.racks is not None and after.racks[0] == tiles("R1 O1") and after.pool_count == 1


def test_emptying_the_rack_ends_the_game() -> None:
    state = game(["R4", "B5 J"], table=("R1 R2 R3",))
    state = dataclasses.replace(state, opened=(True, True))
    end = state.apply(Play(melds("R1 R2 R3 R4")))
    assert end.outcome is not None
    assert end.outcome.termination is Termination.RACK_EMPTY
    assert end.outcome.scores == (55, -55)
    assert refused(end, Draw()) == "game_over"


def test_pool_exhaustion_ends_after_a_full_round_without_play() -> None:
    state = game(["R1 R2", "B3", "K10"], table=("O5 O6 O7",))
    state = dataclasses.replace(state, opened=(True, True, True))
    state = state.apply(Draw()).apply(Draw())
    assert state.outcome is None and state.passes == 2
    end = state.apply(Draw())
    assert end.outcome is not None and end.outcome.termination is Termination.POOL_EXHAUSTED
    assert end.outcome.scores == (4, 3, -7)  # shared lowest racks (3): 7 split, the odd point to seat 0
    assert end.outcome.winners == (0,)


def test_a_play_resets_the_pass_count() -> None:
    state = game(["R1 R2", "O8 B1", "K9"], table=("O5 O6 O7",))
    state = dataclasses.replace(state, opened=(True, True, True))
    state = state.apply(Draw()).apply(Play(melds("O5 O6 O7 O8")))
    assert state.passes == 0 and state.outcome is None
    assert state.apply(Draw()).passes == 1


def test_announcement_is_recorded_and_lapses_on_the_next_turn() -> None:
    state = game(["R1", "R10 R11 R12"], pool="B1 B2 B3")
    state = state.apply(Announce(1))
    assert state.announced == (False, True)
    assert refused(dataclasses.replace(state, opened=(True, True)), Announce(1)) == "already_opened"
    state = state.apply(Draw()).apply(Draw())
    assert state.announced == (False, False)


def test_announced_player_escapes_200_when_the_game_ends() -> None:
    state = game(["R4", "R10 R11 R12 B1"], table=("R1 R2 R3",))
    state = dataclasses.replace(state, opened=(True, False))
    assert state.apply(Play(melds("R1 R2 R3 R4"))).outcome.scores == (200, -200)  # type: ignore[union-attr]
    announced = state.apply(Announce(1)).apply(Play(melds("R1 R2 R3 R4")))
    assert announced.outcome is not None and announced.outcome.scores == (100, -100)


def test_referee_mode_tracks_counts_and_scores_revealed_racks() -> None:
    options = RummikubOptions(players=2, information="referee")
    state = new_game(options)
    assert state.racks is None and state.rack_counts == (14, 14) and state.pool_count == 78
    assert refused(state, Draw()) == "not_started"
    state = state.apply(Start(1))
    assert refused(state, Start(0)) == "already_started"
    state = state.apply(Open(melds("R10 R11 R12")))
    assert state.rack_counts == (14, 11) and state.turn == 0
    state = state.apply(Timeout(manipulated=True))
    assert state.rack_counts == (17, 11) and state.pool_count == 75
    assert refused(state, Reveal(((), ()))) == "game_not_over"
    state = dataclasses.replace(state, rack_counts=(17, 1), turn=1)
    end = state.apply(Play(melds("R10 R11 R12 R13")))
    assert end.outcome is None and end.ended is Termination.RACK_EMPTY
    assert refused(end, Draw()) == "awaiting_reveal"
    assert refused(end, Reveal((tiles("R1"), ()))) == "reveal_mismatch"
    assert refused(end, Reveal((tiles("R1"),))) == "reveal_mismatch"
    assert refused(end, Reveal((tiles("R10 R10 R10 R1 R2 R3 R4 R5 R6 R7 R8 R9 B1 B2 B3 B4 B5"), ()))) == (
        "reveal_mismatch"
    )
    rack = tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 B1 B2 B3 B4 B5 B6 B7 J")
    scored = end.apply(Reveal((rack, ())))
    assert scored.outcome is not None and scored.outcome.scores == (-200, 200)
    assert refused(scored, Reveal((rack, ()))) == "game_over"


def test_referee_mode_refuses_more_tiles_than_the_rack_holds() -> None:
    state = dataclasses.replace(new_game(RummikubOptions(players=2, information="referee")), turn=0)
    state = dataclasses.replace(state, rack_counts=(2, 14), opened=(True, False))
    assert refused(state, Open(melds("R10 R11 R12"))) == "not_on_rack"


def test_unknown_actions_are_refused() -> None:
    state = game(["R1", "B1"])
    assert refused(state, object()) == "unknown_action"


def test_referee_mode_redeal_is_trusted_and_keeps_the_starter() -> None:
    state = new_game(RummikubOptions(players=3, information="referee")).apply(Start(2))
    redealt = state.apply(Redeal(1))
    assert redealt.deals == 2 and redealt.turn == 2 and redealt.rack_counts == (14, 14, 14)
    assert refused(redealt.apply(Draw()), Redeal(1)) == "redeal_not_allowed"


def test_describe_shows_counts_in_referee_mode_and_racks_in_full_information() -> None:
    from rules.rummikub import describe

    referee = new_game(RummikubOptions(players=2, information="referee"))
    assert "P1 (has not laid the initial meld): rack 14 tiles" in describe(referee)
    full = game(["R1 R2", "K9"], table=("O5 O6 O7",))
    text = describe(full)
    assert "O5 O6 O7   [18]" in text and "P1 (has not laid the initial meld): rack R1 R2" in text
