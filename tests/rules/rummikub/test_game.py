"""Whole games: the registry entry, the CLI, JSON replay, and Hypothesis invariants."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from device.cli import main
from rules import IllegalAction, actions_from_json, actions_to_json, replay
from rules.rummikub import (
    Draw,
    Meld,
    Open,
    Play,
    Redeal,
    Reveal,
    RummikubOptions,
    RummikubState,
    Timeout,
    arrange,
)
from rules.rummikub.game import random_game
from rules.rummikub.tiles import full_set
from tests.rules.rummikub.positions import random_table


def conserved(state: RummikubState) -> bool:
    racks = state.final_racks or state.racks
    assert racks is not None and state.pool is not None
    seen = Counter([*(t for m in state.table for t in m.tiles), *(t for r in racks for t in r), *state.pool])
    return seen == Counter(full_set())


def test_rummikub_is_registered_with_four_titles() -> None:
    spec = rules.get_game("rummikub")
    assert spec.options_type is RummikubOptions
    assert set(spec.titles) == {"pl", "hu", "de", "en"}
    assert spec.options_type.preset("official").joker_penalty == 30


def test_cli_plays_a_whole_game(capsys: object) -> None:
    assert main(["play", "rummikub", "--players", "3", "--seed", "1", "--auto"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "Rummikub, 3 players" in out and "end: " in out


@settings(max_examples=6)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), preset=st.sampled_from(["seed", "official"]))
def test_random_games_conserve_tiles_sum_to_zero_and_replay_from_json(
    seed: int, players: int, preset: str
) -> None:
    options = RummikubOptions.preset(preset, players=players, seed=seed)
    final, actions = random_game(options)
    assert final.outcome is not None
    assert sum(final.outcome.scores) == 0
    assert conserved(final)
    assert all(m.is_valid for m in final.table)
    assert replay(options, actions_from_json(actions_to_json(actions))) == final
    assert rules.get_game("rummikub").describe(final).startswith("Rummikub")


@settings(max_examples=20)
@given(seed=st.integers(0, 10**6), size=st.integers(3, 106))
def test_arrange_succeeds_on_any_shuffled_table_of_valid_melds(seed: int, size: int) -> None:
    rng = random.Random(seed)
    pool = full_set()
    rng.shuffle(pool)
    tiles = [t for m in random_table(rng, pool, size) for t in m]
    rng.shuffle(tiles)
    melds = arrange(tiles)
    assert melds is not None
    assert sorted(str(t) for m in melds for t in m.tiles) == sorted(map(str, tiles))
    assert all(m.is_valid for m in melds)


def _some_actions(state: RummikubState, rng: random.Random) -> list[object]:
    rack = list(state.racks[state.turn or 0]) if state.racks else []
    rng.shuffle(rack)
    table = list(state.table)
    return [
        Open((Meld(tuple(rack[:3])),)),
        Play((*table, Meld(tuple(rack[:4])))),
        Play(tuple(table[1:])),
        Redeal(rng.randrange(state.players)),
        Reveal(()),
        Draw(),
        Timeout(manipulated=rng.random() < 0.5),
    ]


@settings(max_examples=4)
@given(seed=st.integers(0, 10**6))
def test_refused_actions_leave_the_state_unchanged(seed: int) -> None:
    options = RummikubOptions(players=3, seed=seed)
    _, actions = random_game(options)
    rng = random.Random(seed)
    state = rules.get_game("rummikub").new_game(options)
    assert isinstance(state, RummikubState)
    for act in actions[:40]:
        for attempt in _some_actions(state, rng):
            copy = dataclasses.replace(state)
            try:
                state.apply(attempt)  # type: ignore[arg-type]
            except IllegalAction:
                assert state == copy
        state = state.apply(act)
