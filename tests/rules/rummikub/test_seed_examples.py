"""The examples of the seed text (seeds/000_rummikub-pl.txt, translated in REFERENCE.md §0.1)."""

from __future__ import annotations

import dataclasses

import pytest

from rules import IllegalAction
from rules.rummikub import Draw, Meld, Open, RummikubOptions, Timeout, check_turn, new_game, score_game
from rules.rummikub.state import identical_pairs
from rules.rummikub.tiles import parse_tiles


def test_three_doublets_allow_a_redeal() -> None:
    # "two red twelves, two blue nines and two black threes"
    assert identical_pairs(parse_tiles("R12 R12 B9 B9 K3 K3 O1 O2 O3 O4 O5 O6 O7 O8")) == 3
    assert identical_pairs(parse_tiles("J J R1 R2")) == 0  # jokers are no doublet


def test_value_of_a_combination_is_the_sum_of_its_numbers() -> None:
    assert Meld.parse("R3 R4 R5").value == 12
    assert Meld.parse("B7 K7 O7 R7").value == 28


def test_an_opening_may_keep_melds_back_once_it_reaches_30() -> None:
    rack = parse_tiles("R10 R11 R12 B2 K2 O2 O5")
    state = new_game(RummikubOptions(players=2))
    state = dataclasses.replace(state, racks=(tuple(rack), state.racks[1]), rack_counts=(7, 14), turn=0)  # type: ignore[index]
    after = state.apply(Open((Meld.parse("R10 R11 R12"),)))  # 33, the group of twos stays on the rack
    assert after.rack_counts[0] == 4


def test_without_an_opening_the_player_draws() -> None:
    state = new_game(RummikubOptions(players=2, seed=3))
    assert state.apply(Draw()).rack_counts[state.turn or 0] == 15


def test_joker_taken_with_a_rack_tile_must_be_laid_again_the_same_turn() -> None:
    before = ["R3 J R5"]
    assert [str(t) for t in check_turn(before, ["R3 R4 R5", "J B9 B10"])] == ["R4", "B9", "B10"]
    with pytest.raises(IllegalAction, match="freed joker") as err:
        check_turn(before, ["R3 R4 R5", "B9 B10 B11"])
    assert err.value.code == "tile_removed"


def test_group_of_two_plus_joker_takes_either_missing_colour() -> None:
    for colour in ("B", "O"):
        after = [f"R8 K8 {colour}8", "J K11 K12"]
        assert sorted(str(t) for t in check_turn(["R8 K8 J"], after)) == sorted([f"{colour}8", "K11", "K12"])


def test_joker_replaced_by_a_table_tile_still_needs_a_rack_tile() -> None:
    before = ["R3 J R5", "R4 B4 K4 O4"]
    rearranged = ["R3 R4 R5", "B4 K4 O4", "J B5 B6"]
    assert [str(t) for t in check_turn(before, rearranged)] == ["B5", "B6"]
    with pytest.raises(IllegalAction) as err:
        check_turn(before, ["R3 R4 R5", "B4 K4 O4 J"])
    assert err.value.code == "no_tile_played"


def test_melds_holding_a_joker_may_be_split() -> None:
    before = ["R3 R4 J R6 R7 R8"]
    after = ["R3 R4 J", "R6 R7 R8", "B6 K6 R6"]
    assert sorted(str(t) for t in check_turn(before, after)) == ["B6", "K6", "R6"]


def test_unfinished_manipulation_restores_the_table_and_draws_three() -> None:
    state = new_game(RummikubOptions(players=2, seed=5))
    after = state.apply(Timeout(manipulated=True))
    assert after.table == state.table
    assert after.rack_counts[state.turn or 0] == 17 and after.pool_count == state.pool_count - 3


def test_end_scores_of_the_seed() -> None:
    racks = [parse_tiles(t) for t in ("", "R4 J", "B5 K6", "R10 R11 R12")]
    # joker −50; the fourth player could have opened (33) and never did: −200
    assert score_game(racks, [True, True, True, False]) == [265, -54, -11, -200]
    assert score_game(racks, [True, True, False, False], announced=[False, False, False, True]) == [
        254,
        -54,
        -100,
        -100,
    ]


def test_pool_runs_out_fewest_points_win() -> None:
    racks = [parse_tiles(t) for t in ("R2 R3", "B9", "K4 K8")]
    assert score_game(racks, [True, True, True]) == [11, -4, -7]
