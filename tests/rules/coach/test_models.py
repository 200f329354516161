"""The solvers' rules are the engine's: every move's points and next state against ``sheet.fill``,
and the vectorised box values against the one-move ``step``."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.coach.dice_sets import ROLLS
from rules.coach.model import DiceModel
from rules.dice_game import Sheet
from rules.poker_dice.game import new_sheet as kosci_sheet
from rules.poker_dice.solver import KosciModel
from rules.yahtzee.sheet import ClassicSheet
from rules.yahtzee.solver import GeneralModel
from tests.rules.coach.positions import FIVES, random_sheet

ENGINE_MODELS: list[tuple[DiceModel, Callable[[], Sheet]]] = [
    (GeneralModel("forced"), lambda: ClassicSheet(joker="forced")),
    (GeneralModel("free"), lambda: ClassicSheet(joker="free")),
    (KosciModel(), lambda: kosci_sheet()),
    (KosciModel(allow_voluntary_zero=False), lambda: kosci_sheet(allow_voluntary_zero=False)),
    (KosciModel(penalty_per_zero=True), lambda: kosci_sheet(penalty_per_zero=True)),
]


@pytest.mark.parametrize(
    ("model", "empty"), ENGINE_MODELS, ids=["forced", "free", "kosci", "kosci-no-zero", "kosci-per-zero"]
)
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 14))
@settings(max_examples=40)
def test_step_is_the_engine(model, empty, seed: int, turns: int) -> None:
    rng = random.Random(seed)
    sheet = random_sheet(empty(), rng, min(turns, len(model.boxes) - 1))
    state = np.array([model.state_of(sheet)])
    for roll in [*FIVES, *rng.sample(ROLLS, 6)]:
        options = sheet.options(roll)
        r = ROLLS.index(tuple(sorted(roll)))
        for b, box in enumerate(model.boxes):
            points, nxt = model.step(state, np.array([b]), np.array([r]))
            if box not in options:
                assert points[0] == -np.inf, (box, roll)
                continue
            after = sheet.fill(box, roll)
            assert points[0] == after.total() - sheet.total(), (box, roll)
            assert tuple(nxt[0]) == model.state_of(after), (box, roll)


ALL_MODELS = [m for m, _ in ENGINE_MODELS] + [
    GeneralModel("verhoeff"),
    GeneralModel("none", yahtzee_bonus=False),
]


@pytest.mark.parametrize("model", ALL_MODELS, ids=lambda m: str(dict(m.signature)))
def test_box_values_agree_with_step(model) -> None:
    rng = np.random.default_rng(7)
    values = rng.normal(size=model.shape)
    states = np.concatenate([model.level_states(f)[::97] for f in range(len(model.boxes))])
    table = model.box_values(states, values)
    for b in range(len(model.boxes)):
        for r in range(0, len(ROLLS), 5):
            points, nxt = model.step(states, np.full(len(states), b), np.full(len(states), r))
            expected = points + values[tuple(nxt.T)]
            assert np.allclose(table[b, r], expected, equal_nan=False), (b, r)
    five = [ROLLS.index(f) for f in FIVES]
    for b in range(len(model.boxes)):
        for r in five:
            points, nxt = model.step(states, np.full(len(states), b), np.full(len(states), r))
            assert np.allclose(table[b, r], points + values[tuple(nxt.T)]), (b, r)


def test_level_states_hold_every_reachable_state() -> None:
    for model, empty in ENGINE_MODELS:
        rng = random.Random(3)
        levels = {f: {tuple(s) for s in model.level_states(f)} for f in range(len(model.boxes))}
        for _ in range(60):
            turns = rng.randrange(len(model.boxes))
            sheet = random_sheet(empty(), rng, turns)
            assert model.state_of(sheet) in levels[turns]


def test_state_of_refuses_another_games_sheet() -> None:
    with pytest.raises(ValueError, match="classic sheet"):
        GeneralModel().state_of(kosci_sheet())
    with pytest.raises(ValueError, match="free joker"):
        GeneralModel("forced").state_of(ClassicSheet(joker="free"))
    with pytest.raises(ValueError, match="zero rules"):
        KosciModel().state_of(kosci_sheet(allow_voluntary_zero=False))
