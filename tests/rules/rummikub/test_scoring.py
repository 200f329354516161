"""End-of-game scoring of both presets and both endings (RULES.md §3, seed 000)."""

from __future__ import annotations

import pytest

from rules.rummikub import rack_value, score_game
from rules.rummikub.tiles import parse_tiles


def racks(*texts: str) -> list[list]:
    return [parse_tiles(t) for t in texts]


def test_joker_counts_50_in_seed_and_30_in_official() -> None:
    assert rack_value(parse_tiles("R5 J"), 50) == 55
    assert score_game(racks("", "R5 J", "B2 B3"), [True] * 3) == [60, -55, -5]
    assert score_game(racks("", "R5 J", "B2 B3"), [True] * 3, preset="official") == [40, -35, -5]


def test_never_opened_scores_100_instead_of_the_rack() -> None:
    assert score_game(racks("", "R1 B9 K13", "B2"), [True, False, True]) == [102, -100, -2]


def test_never_opened_with_a_valid_opening_on_the_rack_scores_200() -> None:
    rack = "R10 R11 R12 B1"  # 33 in one run
    assert score_game(racks("", rack), [True, False]) == [200, -200]
    assert score_game(racks("", rack), [True, False], preset="official") == [200, -200]


def test_announcement_exempts_from_200() -> None:
    rack = "R10 R11 R12 B1"
    assert score_game(racks("", rack), [True, False], announced=[False, True]) == [100, -100]


def test_jokers_count_as_the_tile_they_replace_when_judging_a_possible_opening() -> None:
    assert score_game(racks("", "R9 J R11"), [True, False]) == [200, -200]  # 9 + 10 + 11 = 30
    assert score_game(racks("", "R8 J R10"), [True, False]) == [100, -100]  # 27


def test_pool_exhausted_lowest_rack_wins_the_differences() -> None:
    assert score_game(racks("R1 R2", "B5", "K9"), [True] * 3) == [8, -2, -6]


def test_pool_exhausted_shared_lowest_racks_split_the_total() -> None:
    scores = score_game(racks("R1 R2", "B3", "K9", "O10 O12"), [True] * 4)
    assert scores == [13, 12, -6, -19]  # 25 split: 12 each, the odd point to the first seat


def test_pool_exhausted_unopened_player_loses_100_or_200() -> None:
    scores = score_game(racks("R1", "B2", "R10 R11 R12 K1 K5"), [True, True, False])
    assert scores == [201, -1, -200]


def test_pool_exhausted_jokers_count_the_preset_penalty() -> None:
    assert score_game(racks("R1", "J"), [True, True]) == [49, -49]
    assert score_game(racks("R1", "J"), [True, True], preset="official") == [29, -29]


@pytest.mark.parametrize(
    "texts, opened",
    [(("", "R5 J", "B2 B3", "K13"), [True, False, True, False]), (("R1", "R1", "B2", "J"), [True] * 4)],
)
def test_every_hand_is_zero_sum(texts: tuple[str, ...], opened: list[bool]) -> None:
    assert sum(score_game(racks(*texts), opened)) == 0


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="one entry per player"):
        score_game(racks("", "R1"), [True])
    with pytest.raises(ValueError, match="only one player"):
        score_game(racks("", ""), [True, True])
