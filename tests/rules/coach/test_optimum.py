"""The optimum itself: published values, the brute-force oracle, and simulated play.

- Generał: Verhoeff's published 254.5896 (his joker convention), Glenn's 245.8708 (no bonus, no
  joker) and the seed's forced joker 254.5877 are reproduced from the empty sheet;
- Kości (no published value): late positions against the oracle, which shares nothing with the
  solver but the engine's sheet; the full optimum against simulated optimal games.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from rules.coach.simulate import distribution
from rules.coach.table import Table, build
from rules.poker_dice.game import new_sheet as kosci_sheet
from rules.poker_dice.solver import KosciModel
from rules.yahtzee.sheet import ClassicSheet
from rules.yahtzee.solver import GeneralModel
from tests.rules.coach.oracle import make_oracle
from tests.rules.coach.positions import random_sheet

KOSCI_OPTIMUM = 274.5368


@pytest.mark.parametrize(
    ("model", "published"),
    [
        (GeneralModel("verhoeff"), 254.5896),
        (GeneralModel("none", yahtzee_bonus=False), 245.8708),
        (GeneralModel("forced"), 254.5877),
    ],
    ids=["verhoeff", "glenn", "seed-forced-joker"],
)
def test_general_optimum(full_table: Callable[..., Table], model: GeneralModel, published: float) -> None:
    assert round(full_table(model).start_value, 4) == published


def test_kosci_optimum_built_by_the_cli(full_table: Callable[..., Table]) -> None:
    assert round(full_table(KosciModel(), via_cli=True).start_value, 4) == KOSCI_OPTIMUM


ORACLE_CASES = [
    (KosciModel(), kosci_sheet, 13),
    (KosciModel(allow_voluntary_zero=False), lambda: kosci_sheet(allow_voluntary_zero=False), 13),
    (KosciModel(penalty_per_zero=True), lambda: kosci_sheet(penalty_per_zero=True), 13),
    (GeneralModel("forced"), lambda: ClassicSheet(joker="forced"), 11),
    (GeneralModel("free"), lambda: ClassicSheet(joker="free"), 11),
]


@pytest.mark.parametrize(
    ("model", "empty", "filled"),
    ORACLE_CASES,
    ids=["kosci", "kosci-no-zero", "kosci-per-zero", "forced", "free"],
)
def test_end_game_against_brute_force(model, empty, filled: int) -> None:
    """Positions with two open boxes: the table's expected final total equals plain expectimax."""
    table = build(model, down_to=filled)
    oracle = make_oracle()
    rng = random.Random(filled)
    for _ in range(2):
        sheet = random_sheet(empty(), rng, filled)
        assert abs(table.expected_final(sheet) - oracle(sheet)) < 1e-9


def test_kosci_simulated_play_matches_the_value(full_table: Callable[..., Table]) -> None:
    """3,000 optimal games (the 100,000-game run is ``referee coach simulate kosci``)."""
    table = full_table(KosciModel(), via_cli=True)
    d = distribution(table, kosci_sheet(), 3000, seed=11)
    assert abs(d.mean - table.start_value) < 3 * d.standard_error
    assert 40 < d.spread < 80


def test_late_position_simulated_exactly_enough() -> None:
    """From a position with five open boxes the simulated mean lies within 3 standard errors."""
    model = KosciModel()
    table = build(model, down_to=10)
    sheet = random_sheet(kosci_sheet(), random.Random(5), 10)
    d = distribution(table, sheet, 4000, seed=3)
    assert abs(d.mean - table.expected_final(sheet)) < 3 * d.standard_error
    assert d.chance_above(-1) == 1.0 and d.chance_above(10_000) == 0.0
    assert np.isclose(d.percentile(50), np.median(d.totals))
