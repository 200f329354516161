"""Advice, losses, table files and typed sheets."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from rules.coach.advice import advise, choice_loss, hold_positions
from rules.coach.sheet_text import parse_sheet
from rules.coach.table import Table, TableError, build
from rules.poker_dice.game import PokerDiceOptions
from rules.poker_dice.game import new_sheet as kosci_sheet
from rules.poker_dice.solver import KosciModel
from rules.yahtzee.game import YahtzeeOptions
from rules.yahtzee.solver import GeneralModel
from tests.rules.coach.positions import random_sheet


@pytest.fixture(scope="module")
def late_kosci() -> Table:
    return build(KosciModel(), down_to=11)


def test_box_advice_is_the_engine_total_plus_the_future(late_kosci: Table) -> None:
    sheet = random_sheet(kosci_sheet(), random.Random(1), 11)
    dice = (3, 3, 3, 5, 5)
    choices = advise(late_kosci, sheet, dice, 0)
    assert {c.box for c in choices} == set(sheet.options(dice))
    for c in choices:
        assert c.box is not None
        after = sheet.fill(c.box, dice)
        expected = after.total() + (late_kosci.future(after) if not after.is_full else 0.0)
        assert abs(c.expected - expected) < 1e-9
    assert choices[0].loss == 0 and all(a.expected >= b.expected for a, b in itertools.pairwise(choices))
    assert all(abs(c.loss - (choices[0].expected - c.expected)) < 1e-9 for c in choices)


def test_hold_advice_ranks_every_hold_and_stopping(late_kosci: Table) -> None:
    sheet = random_sheet(kosci_sheet(), random.Random(2), 11)
    dice = (6, 2, 6, 1, 6)
    choices = advise(late_kosci, sheet, dice, 2)
    holds = [c for c in choices if c.kind == "hold"]
    assert len(holds) == 2 * 2 * 4 - 1  # {6}×0–3, {2}×0–1, {1}×0–1, minus keeping all five
    assert all(sorted(dice[p] for p in c.hold) == list(c.kept) for c in holds)
    assert {c.box for c in choices if c.kind == "box"} == set(sheet.options(dice))
    # the best choice's value is the turn's value of this roll with two rolls left
    turn = late_kosci.turn(sheet)
    from rules.coach.dice_sets import roll_index

    assert abs(choices[0].expected - sheet.total() - turn.roll2[roll_index(dice), 0]) < 1e-9


def test_choice_loss(late_kosci: Table) -> None:
    sheet = random_sheet(kosci_sheet(), random.Random(3), 11)
    dice = (1, 2, 3, 4, 5)
    choices = advise(late_kosci, sheet, dice, 1)
    loss, best, made = choice_loss(late_kosci, sheet, dice, 1, held=())
    assert best == choices[0] and made.kept == () and loss == made.loss
    loss_all, _, stop = choice_loss(late_kosci, sheet, dice, 1, held=(0, 1, 2, 3, 4))
    assert stop.kind == "box" and loss_all == min(c.loss for c in choices if c.kind == "box")
    with pytest.raises(ValueError, match="not a legal box"):
        choice_loss(late_kosci, sheet, dice, 0, box=next(b for b in sheet.boxes if sheet.get(b) is not None))


def test_advice_refuses_bad_input(late_kosci: Table) -> None:
    sheet = random_sheet(kosci_sheet(), random.Random(4), 11)
    with pytest.raises(ValueError, match="rolls left"):
        advise(late_kosci, sheet, (1, 2, 3, 4, 5), 3)
    with pytest.raises(ValueError, match="five dice"):
        advise(late_kosci, sheet, (1, 2, 3, 4, 7), 0)


def test_hold_positions() -> None:
    assert hold_positions((6, 2, 6, 1, 6), (6, 6)) == (0, 2)
    assert hold_positions((6, 2, 6, 1, 6), ()) == ()


def test_a_kept_table_for_other_rules_is_refused(late_kosci: Table) -> None:
    """The values and signature a table is kept as (``device/coach_tables.py`` puts them in a file)."""
    again = Table.stored(KosciModel(), late_kosci.values, late_kosci.signature, "kept")
    assert np.array_equal(again.values, late_kosci.values)
    with pytest.raises(TableError, match="kept was built for"):
        Table.stored(KosciModel(penalty_per_zero=True), late_kosci.values, late_kosci.signature, "kept")
    with pytest.raises(TableError, match="built for"):
        Table.stored(GeneralModel(), late_kosci.values, late_kosci.signature, "kept")
    with pytest.raises(TableError, match="shape"):
        Table.stored(KosciModel(), late_kosci.values[:1], late_kosci.signature, "kept")


def test_parse_sheet() -> None:
    s = parse_sheet(PokerDiceOptions(), "pair=12, poker=60 jokers=1")
    assert s.get("pair") == 12 and s.get("poker") == 60 and s.total() == 122
    t = parse_sheet(YahtzeeOptions(variant="triple"), "2:ones=4 3:chance=90 3:yahtzee=150")
    assert t.get("2:ones") == 4 and t.get("3:chance") == 90 and t.total() == 244
    for text, message in [
        ("pair=13", "cannot hold 13"),
        ("nothing=3", "no box 'nothing'"),
        ("pair", "not box=points"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_sheet(PokerDiceOptions(), text)
    with pytest.raises(ValueError, match="multiples of 3"):
        parse_sheet(YahtzeeOptions(variant="triple"), "3:ones=4")
    with pytest.raises(ValueError, match="needs 50"):
        parse_sheet(YahtzeeOptions(), "yahtzee_bonus=1")
