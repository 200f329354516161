"""Zatre: cards, placements, rows and the scoring of a placement (RULES.md §5)."""

from __future__ import annotations

import pytest

from rules import IllegalAction, zatre
from rules.zatre import Board, Card, Placement, place, place_cards


def board_of(*placements: str) -> Board:
    """A board with these cards, laid without checking the rules (to set up a position)."""
    return Board(tuple(Placement.parse(p) for p in placements))


def test_card_text_form_and_parser() -> None:
    card = Card.parse(" 3 | 4 ")
    assert card == Card(3, 4) and str(card) == "3|4"
    assert card.same_card(Card.parse("4|3")) and card.key == Card(3, 4) == Card(4, 3).key
    assert zatre.parse_cards("0|6 5|5") == (Card(0, 6), Card(5, 5))


@pytest.mark.parametrize("text", ["3|7", "34", "3|", "a|b", "-1|2", "3|4|5", ""])
def test_bad_card_text_is_refused_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match="not a Zatre card"):
        Card.parse(text)


def test_card_halves_are_checked() -> None:
    with pytest.raises(ValueError, match="0–6"):
        Card(7, 1)


def test_placement_text_form_and_cells() -> None:
    p = Placement.parse("3|4@-2,5v")
    assert str(p) == "3|4@-2,5V"
    assert p.cells == (((-2, 5), 3), ((-2, 6), 4))
    assert Placement.parse("3|4@0,0H").cells == (((0, 0), 3), ((1, 0), 4))


@pytest.mark.parametrize("text", ["3|4@0,0", "3|4@0H", "3|4 0,0H", "3|9@0,0H", "3|4@0,0X"])
def test_bad_placement_text_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Placement.parse(text)


def test_placement_orientation_is_h_or_v() -> None:
    with pytest.raises(ValueError, match="neither 'H' nor 'V'"):
        Placement(Card(1, 1), 0, 0, "X")  # type: ignore[arg-type]


def test_a_lone_card_scores_its_own_row() -> None:
    board, scoring = place(Board(), "5|6@0,0H")
    assert (scoring.rows, scoring.points, scoring.super_bonus) == ((11,), (3,), 0)
    assert board.cells == {(0, 0): 5, (1, 0): 6}
    assert place(Board(), "6|4@3,-7V")[1].rows == (10,)
    assert place(Board(), "6|6@0,0V")[1].points == (5,)
    assert place(Board(), "4|5@0,0H")[1].rows == ()


def test_an_empty_board_takes_any_card_later_cards_must_touch() -> None:
    board, _ = place(Board(), "1|1@100,-50H")
    with pytest.raises(IllegalAction) as info:
        place(board, "1|1@100,-48H")
    assert info.value.code == "not_touching"
    with pytest.raises(IllegalAction) as info:
        place(board, "1|1@102,-49H")  # corner to corner only
    assert info.value.code == "not_touching"
    assert place(board, "1|1@102,-50H")[0].cells[(103, -50)] == 1


def test_overlap_is_refused_naming_the_cell() -> None:
    board = board_of("5|6@0,0H")
    with pytest.raises(IllegalAction) as info:
        place(board, "1|1@1,-1V")
    assert info.value.code == "overlap"
    assert "(1, 0)" in info.value.message and "1|1@1,-1V" in info.value.message


def test_zero_does_not_end_a_row() -> None:
    board = board_of("6|0@0,0H")
    _, scoring = place(board, "5|1@2,0H")
    assert scoring.rows == (12,)
    with pytest.raises(IllegalAction) as info:
        place(board, "6|1@2,0H")
    assert info.value.code == "row_too_high"


def test_a_zero_bridges_two_rows() -> None:
    board = board_of("3|4@0,0H", "5|0@3,0H")
    _, scoring = place(board, "0|2@2,0V")
    assert scoring.rows == (12,) and scoring.points == (5,)
    # The same bridge over a 1 instead of a 0 makes 13.
    with pytest.raises(IllegalAction) as info:
        place(board_of("3|4@0,0H", "5|1@3,0H"), "0|2@2,0V")
    assert info.value.code == "row_too_high"
    assert info.value.details["total"] == 13


def test_several_zeros_in_a_row_are_allowed() -> None:
    _, scoring = place(board_of("0|0@0,0H", "5|0@2,0H"), "0|6@4,0H")
    assert scoring.rows == (11,)


def test_twelve_is_allowed_thirteen_is_not() -> None:
    board = board_of("6|6@0,0H")
    assert place(board, "6|0@1,-2V")[1].rows == (12,)
    for card in ("1|0@2,0H", "6|1@1,-2V", "0|1@-2,0H"):
        with pytest.raises(IllegalAction) as info:
            place(board, card)
        assert info.value.code == "row_too_high"
        assert info.value.details["total"] == 13 and card in info.value.message


def test_super_bonus_for_ten_eleven_twelve() -> None:
    _, scoring = place(board_of("4|5@0,0H"), "6|6@0,1H")
    assert sorted(scoring.rows) == [10, 11, 12]
    assert sum(scoring.points) == 9 and scoring.super_bonus == 6 and scoring.total == 15


def test_super_bonus_for_three_twelves() -> None:
    _, scoring = place(board_of("6|6@0,0H"), "6|6@0,1H")
    assert scoring.rows == (12, 12, 12)
    assert scoring.points == (5, 5, 5) and scoring.super_bonus == 6


@pytest.mark.parametrize(
    "board, card, rows",
    [
        (("5|5@0,0H",), "5|5@0,1H", (10, 10, 10)),
        (("5|6@0,0H",), "6|5@0,1H", (11, 11, 11)),
        (("6|6@0,0H",), "5|6@0,1H", (11, 11, 12)),
    ],
)
def test_other_triples_earn_no_super_bonus(board: tuple[str, ...], card: str, rows: tuple[int, ...]) -> None:
    _, scoring = place(board_of(*board), card)
    assert tuple(sorted(scoring.rows)) == rows
    assert scoring.super_bonus == 0
    assert scoring.points == tuple({10: 1, 11: 3, 12: 5}[t] for t in scoring.rows)


def test_only_rows_through_the_new_card_score() -> None:
    board = board_of("5|6@0,0H", "4|6@0,2H")  # an 11 row and a 10 row, already laid
    _, scoring = place(board, "0|0@0,1H")  # columns 5+0+4 = 9 and 6+0+6 = 12
    assert scoring.rows == (12,)


def test_two_card_first_turn_scores_the_rows_of_the_final_board_once() -> None:
    # 6|6 and 0|4 below it: the row of 6|6 (12) and the column 6 + 4 (10).
    board, scoring = place_cards(Board(), ["6|6@0,0H", "0|4@0,1H"])
    assert scoring.rows == (12, 10)
    assert len(board.placements) == 2
    # A row through both cards counts once, at its final total (4+6 alone would have been a 10).
    _, scoring = place_cards(Board(), ["4|6@0,0H", "1|0@2,0H"])
    assert scoring.rows == (11,)


def test_two_card_first_turn_must_touch() -> None:
    with pytest.raises(IllegalAction) as info:
        place_cards(Board(), ["6|6@0,0H", "1|1@0,2H"])
    assert info.value.code == "not_touching"
    with pytest.raises(IllegalAction) as info:
        place_cards(Board(), ["6|6@0,0H", "1|1@1,0V"])
    assert info.value.code == "overlap"


def test_a_triple_counts_only_from_a_single_card() -> None:
    # The two cards make four 12 rows; the second card makes three of them at once (a triple), the
    # first card lay alone when it was laid.
    _, scoring = place_cards(Board(), ["6|6@0,0H", "6|6@0,1H"])
    assert sorted(scoring.rows) == [12, 12, 12, 12]
    assert scoring.super_bonus == 6
    # 12 rows made by different cards of one turn do not add up to a triple.
    _, scoring = place_cards(board_of("6|6@0,0H"), ["6|0@0,1V", "0|6@1,1V"])
    assert sorted(scoring.rows) == [12, 12] and scoring.super_bonus == 0


def test_scoring_groups_points_by_total() -> None:
    _, scoring = place(board_of("6|6@0,0H"), "6|6@0,1H")
    assert scoring.points_by_total() == {12: 15}
