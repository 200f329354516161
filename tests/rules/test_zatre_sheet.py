"""Zatre: the score sheet (columns top-down without gaps, one box per total per turn, row bonuses,
super bonuses bottom-up in the Total column)."""

from __future__ import annotations

from rules.zatre import Board, Scoring, Sheet, place
from rules.zatre.sheet import DEFAULT_ROW_BONUS


def scoring(*rows: int, super_bonus: int = 0) -> Scoring:
    return Scoring(rows, tuple({10: 1, 11: 3, 12: 5}[r] for r in rows), super_bonus)


def test_columns_fill_top_down_without_gaps() -> None:
    sheet = Sheet().enter(scoring(12)).enter(scoring(10)).enter(scoring(12)).enter(scoring())
    assert sheet.columns == ((1,), (), (5, 5))
    # The 11 column's first box is still the top one although the 12 column is two boxes deep.
    sheet = sheet.enter(scoring(11))
    assert sheet.column(11) == (3,)
    assert sheet.complete_rows == 1


def test_same_total_rows_of_one_turn_go_into_one_box() -> None:
    sheet = Sheet().enter(scoring(12, 12, 10))
    assert sheet.column(12) == (10,) and sheet.column(10) == (1,) and sheet.column(11) == ()
    sheet = sheet.enter(scoring(10, 10, 10))
    assert sheet.column(10) == (1, 3)


def test_a_complete_sheet_row_earns_its_row_bonus() -> None:
    table = (2, 7, 9)
    sheet = Sheet(table).enter(scoring(10, 11, 12))
    assert sheet.complete_rows == 1 and sheet.bonus == 2 and sheet.total == 9 + 2
    sheet = sheet.enter(scoring(10)).enter(scoring(11))
    assert sheet.bonus == 2  # the second row still lacks its 12
    sheet = sheet.enter(scoring(12))
    assert sheet.complete_rows == 2 and sheet.bonus == 2 + 7
    assert sheet.total == 2 * 9 + 9


def test_rows_beyond_the_printed_table_earn_its_last_bonus() -> None:
    sheet = Sheet((1, 4))
    for _ in range(3):
        sheet = sheet.enter(scoring(10, 11, 12))
    assert sheet.bonus == 1 + 4 + 4 and sheet.length == 3
    assert Sheet(()).enter(scoring(10, 11, 12)).bonus == 0


def test_default_row_bonus_grows_down_the_sheet() -> None:
    assert len(DEFAULT_ROW_BONUS) == 25
    assert (
        list(DEFAULT_ROW_BONUS) == sorted(DEFAULT_ROW_BONUS) and DEFAULT_ROW_BONUS[0] < DEFAULT_ROW_BONUS[-1]
    )


def test_super_bonuses_go_bottom_up_in_the_total_column() -> None:
    board, _ = place(Board(), "6|6@0,0H")
    _, triple = place(board, "6|6@0,1H")
    assert triple.super_bonus == 6
    sheet = Sheet((1, 1, 1, 1)).enter(triple).enter(scoring(11, super_bonus=6))
    assert sheet.supers == (6, 6)
    assert sheet.total == 15 + 3 + 12
    rows = sheet.render().splitlines()
    # The header, the sheet rows with entries and the two bottom rows (3 and 4) holding the supers.
    assert rows[-2].split() == ["4", ".", ".", ".", ".", "6"]
    assert rows[-3].split() == ["3", ".", ".", ".", ".", "6"]
    assert rows[1].split() == ["1", ".", "3", "15", ".", "."]
    assert rows[-1] == "total 30"
