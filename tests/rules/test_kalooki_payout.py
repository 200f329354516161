"""The Kalooki prize pool: integer cents, both formulas, the remainder to the winner."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import kalooki


def test_rules_example_slice() -> None:
    assert kalooki.payouts(10000, [0, 20, 60, 120], 0) == [9001, 666, 333, 0]
    assert kalooki.payouts(10000, [20, 60, 0, 120], 2) == [666, 333, 9001, 0]


def test_rules_example_proportional() -> None:
    # weights 80, 40, 0 of the whole 25 %: 1666.67, 833.33, 0; the winner 75.00 + the rounding
    assert kalooki.payouts(10000, [0, 20, 60, 120], 0, formula="proportional") == [7501, 1666, 833, 0]


def test_a_loser_on_100_or_more_gets_nothing() -> None:
    assert kalooki.payouts(10000, [0, 100, 150], 0) == [10000, 0, 0]
    assert kalooki.payouts(10000, [0, 100, 150], 0, formula="proportional") == [10000, 0, 0]


def test_two_players_and_a_clean_hand() -> None:
    assert kalooki.payouts(10000, [0, 0], 0) == [7500, 2500]
    assert kalooki.payouts(10000, [50, 0], 1) == [1250, 8750]


def test_penalties_count_relative_to_the_winner() -> None:
    assert kalooki.payouts(10000, [10, 30], 0) == kalooki.payouts(10000, [0, 20], 0)
    assert kalooki.payouts(10000, [10, 5], 0) == kalooki.payouts(10000, [0, 0], 0)


@pytest.mark.parametrize(
    "args, fragment",
    [
        ((10000, [0, 20], 0, "winner_takes_all"), "unknown payout formula"),
        ((-1, [0, 20], 0, "slice"), "non-negative"),
        ((10.5, [0, 20], 0, "slice"), "whole"),
        ((10000, [0, 20], 2, "slice"), "not a seat"),
        ((10000, [0, -5], 0, "slice"), "cannot be negative"),
    ],
)
def test_bad_arguments(args: tuple[object, ...], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        kalooki.payouts(*args)  # type: ignore[arg-type]


@given(
    pool=st.integers(0, 10**9),
    penalties=st.lists(st.integers(0, 400), min_size=2, max_size=5),
    data=st.data(),
    formula=st.sampled_from(["slice", "proportional"]),
)
def test_payouts_sum_to_the_pool_and_are_never_negative(
    pool: int, penalties: list[int], data: st.DataObject, formula: str
) -> None:
    winner = data.draw(st.integers(0, len(penalties) - 1))
    penalties[winner] = 0
    amounts = kalooki.payouts(pool, penalties, winner, formula)
    assert sum(amounts) == pool
    assert all(a >= 0 for a in amounts)
    assert 4 * amounts[winner] >= 3 * pool
    for seat, penalty in enumerate(penalties):
        if seat != winner and penalty >= 100:
            assert amounts[seat] == 0
    losers = [seat for seat in range(len(penalties)) if seat != winner]
    for a in losers:
        for b in losers:
            if penalties[a] <= penalties[b]:
                assert amounts[a] >= amounts[b]
