"""The triple heuristic: its points are the engine's, and it beats the greedy player."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.coach.advice import advise
from rules.coach.dice_sets import ROLLS
from rules.coach.table import Table
from rules.yahtzee.triple import TRIPLE_BOXES, TripleSheet
from rules.yahtzee.triple_solver import COLUMN_MODEL, TripleCoach, TripleStates, move_points, play
from tests.rules.coach.positions import FIVES, random_sheet


@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 38))
@settings(max_examples=40)
def test_move_points_are_the_engine(seed: int, turns: int) -> None:
    rng = random.Random(seed)
    sheet = random_sheet(TripleSheet(), rng, turns)
    points = move_points(TripleStates.of([sheet]))[:, :, 0]
    for roll in [*FIVES, *rng.sample(ROLLS, 4)]:
        r = ROLLS.index(tuple(sorted(roll)))
        for b, box in enumerate(TRIPLE_BOXES):
            if sheet.get(box) is not None:
                assert points[b, r] == -np.inf
            else:
                assert points[b, r] == sheet.fill(box, roll).total() - sheet.total(), (box, roll)


def test_heuristic_beats_greedy_and_says_it_is_a_heuristic(full_table: Callable[..., Table]) -> None:
    table = full_table(COLUMN_MODEL)
    heuristic = play(table.values, 60, seed=4, batch=60)
    greedy = play(None, 60, seed=4, batch=60)
    assert heuristic.mean() > greedy.mean() + 100  # about 1688 against 1448 over 10,000 games
    coach = TripleCoach(table)
    assert coach.exact is False
    assert abs(coach.expected_final(TripleSheet()) - 6 * table.start_value) < 1e-9
    choices = advise(coach, TripleSheet(), (6, 6, 6, 6, 6), 0)
    assert choices[0].box == "3:yahtzee"
