"""Random engine sheets for the coach's tests: random boxes filled with random rolls."""

from __future__ import annotations

import random
from typing import Any

from rules.coach.dice_sets import ROLLS

FIVES = [(f,) * 5 for f in range(1, 7)]


def random_sheet(sheet: Any, rng: random.Random, turns: int) -> Any:
    """``sheet`` after ``turns`` random moves; five-of-a-kinds are frequent so that jokers and bonuses
    occur, and half the moves take the best-scoring box."""
    for _ in range(turns):
        roll = rng.choice(FIVES) if rng.random() < 0.25 else rng.choice(ROLLS)
        options = sheet.options(roll)
        box = max(options, key=options.__getitem__) if rng.random() < 0.5 else rng.choice(sorted(options))
        sheet = sheet.fill(box, roll)
    return sheet
