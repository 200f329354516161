"""The prize-pool payout of a deal, in whole cents (RULES.md §4, Prize pool; REFERENCE.md §1.4).

``slice`` (default): each loser may win at most a slice of 25 % of the pool ÷ the number of losers,
scaled by ``max(0, 100 − penalty) / 100``; the winner keeps the rest (always ≥ 75 %).
``proportional``: the whole 25 % is shared among the losers in proportion to ``max(0, 100 − penalty)``.
Each loser's amount is rounded down to the cent; the remainder goes to the winner, so the amounts
always add up to the pool exactly.

>>> payouts(10000, [0, 20, 60, 120], winner=0)
[9001, 666, 333, 0]
>>> payouts(10000, [0, 20, 60, 120], winner=0, formula="proportional")
[7501, 1666, 833, 0]
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["FORMULAS", "payouts"]

FORMULAS = ("slice", "proportional")
_CUT_OFF = 100  # penalty points at which a loser's share reaches nothing


def payouts(pool_cents: int, penalties: Sequence[int], winner: int, formula: str = "slice") -> list[int]:
    """Each seat's amount in cents; they sum to ``pool_cents``.

    ``penalties`` holds one entry per seat, the winner's included (normally 0). A loser's points are
    counted relative to the winner's ("relative to the winner's score"), never below 0.
    """
    if formula not in FORMULAS:
        raise ValueError(f"unknown payout formula {formula!r}; allowed: {', '.join(FORMULAS)}")
    if isinstance(pool_cents, bool) or not isinstance(pool_cents, int) or pool_cents < 0:
        raise ValueError(f"the pool must be a whole, non-negative number of cents, not {pool_cents!r}")
    if not 0 <= winner < len(penalties):
        raise ValueError(f"winner {winner} is not a seat of {len(penalties)} players")
    if any(p < 0 for p in penalties):
        raise ValueError(f"penalties cannot be negative: {list(penalties)}")
    losers = [seat for seat in range(len(penalties)) if seat != winner]
    weights = {seat: max(0, _CUT_OFF - max(0, penalties[seat] - penalties[winner])) for seat in losers}
    amounts = [0] * len(penalties)
    if formula == "slice":
        # pool × 25 % ÷ losers × weight ÷ 100, in integers: pool × weight ÷ (400 × losers)
        for seat in losers:
            amounts[seat] = pool_cents * weights[seat] // (4 * _CUT_OFF * len(losers))
    else:
        total = sum(weights.values())
        for seat in losers:
            amounts[seat] = pool_cents * weights[seat] // (4 * total) if total else 0
    amounts[winner] = pool_cents - sum(amounts)
    return amounts
