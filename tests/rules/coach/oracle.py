"""An independent oracle for the coach: plain expectimax over the engine's own sheets.

It shares nothing with ``rules.coach`` but the rules engine: the dice are ordered tuples, the holds
are sets of positions, every outcome of the re-rolled dice is enumerated, and the value of a position
is the engine's ``total()`` at the end, maximised over ``sheet.options`` and ``sheet.fill``. It is slow
(tens of milliseconds per sheet), so it is used on positions with few open boxes.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache
from typing import Any

SORTED_ROLLS = sorted({tuple(sorted(d)) for d in itertools.product(range(1, 7), repeat=5)})
HOLDS = [h for n in range(6) for h in itertools.combinations(range(5), n)]


def _outcomes(kept: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(sorted(kept + extra)) for extra in itertools.product(range(1, 7), repeat=5 - len(kept))]


_OUTCOMES = {
    tuple(sorted(k)): _outcomes(tuple(sorted(k)))
    for r in SORTED_ROLLS
    for h in HOLDS
    for k in [tuple(r[i] for i in h)]
}


def rerolled(values: dict[tuple[int, ...], float]) -> dict[tuple[int, ...], float]:
    """The value of each roll with one more roll allowed, given the values after that roll."""
    keep_value: dict[tuple[int, ...], float] = {}
    result = {}
    for roll in SORTED_ROLLS:
        best = float("-inf")
        for held in HOLDS:
            kept = tuple(roll[i] for i in held)
            if kept not in keep_value:
                outcomes = _OUTCOMES[kept]
                keep_value[kept] = sum(values[o] for o in outcomes) / len(outcomes)
            best = max(best, keep_value[kept])
        result[roll] = best
    return result


def make_oracle() -> Callable[[Any], float]:
    """``expected_final(sheet)``: the expected final total of optimal play from a turn start."""

    @cache
    def expected_final(sheet: Any) -> float:
        if sheet.is_full:
            return float(sheet.total())
        final = {
            roll: max(expected_final(sheet.fill(box, roll)) for box in sheet.options(roll))
            for roll in SORTED_ROLLS
        }
        first = rerolled(rerolled(final))
        return sum(first[tuple(sorted(d))] for d in itertools.product(range(1, 7), repeat=5)) / 6**5

    return expected_final
