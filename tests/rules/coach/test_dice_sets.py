"""The multiset arrays and the vectorised turn against plain enumeration."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from rules.coach.dice_sets import FIRST_ROLL, KEEPS, REROLL, ROLL_INDEX, ROLLS, SUBKEEP_COUNT, SUBKEEPS
from rules.coach.widget import best_inside, reroll, solve_turns, turn_values


def test_chances_are_distributions() -> None:
    assert abs(FIRST_ROLL.sum() - 1) < 1e-12
    assert np.allclose(REROLL.sum(axis=1), 1)


def test_reroll_matches_enumerated_dice() -> None:
    for keep in [(), (6,), (2, 3), (1, 1, 5), (4, 4, 4, 4), (1, 2, 3, 4, 5)]:
        counts = np.zeros(len(ROLLS))
        for extra in itertools.product(range(1, 7), repeat=5 - len(keep)):
            counts[ROLL_INDEX[tuple(sorted(keep + extra))]] += 1
        assert np.allclose(REROLL[KEEPS.index(keep)], counts / counts.sum())


def test_subkeeps_are_every_held_subset() -> None:
    for r, roll in enumerate(ROLLS):
        expected = {tuple(roll[i] for i in h) for n in range(6) for h in itertools.combinations(range(5), n)}
        assert {KEEPS[k] for k in SUBKEEPS[r, : SUBKEEP_COUNT[r]]} == expected


@given(st.integers(0, 2**32 - 1))
def test_sparse_reroll_and_best_inside_match_dense(seed: int) -> None:
    values = np.random.default_rng(seed).normal(size=(len(ROLLS), 3))
    keeps = reroll(values)
    assert np.allclose(keeps, REROLL @ values)
    inside = best_inside(keeps)
    brute = np.array([[keeps[SUBKEEPS[r], s].max() for s in range(3)] for r in range(len(ROLLS))])
    assert np.array_equal(inside, brute)


def test_turn_value_of_chance_alone() -> None:
    """With chance as the only box the best sum of five dice in three rolls is 23.33…"""
    final = np.array([sum(roll) for roll in ROLLS], dtype=float)[:, None]
    value = float(turn_values(final)[0])
    assert abs(value - solve_turns(final).start[0]) < 1e-12
    # one die: keep 4–6 before the last roll (4.25), 5–6 before the second (4.6667); dice independent
    assert abs(value - 5 * (1 / 3 * 5.5 + 2 / 3 * (1 / 2 * 5 + 1 / 2 * 3.5))) < 1e-9
