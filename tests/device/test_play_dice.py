"""``referee play`` with the dice games: a whole random game, the final sheets printed."""

from __future__ import annotations

import pytest

from device import cli


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["yahtzee", "--players", "2", "--seed", "1"], ["Generał (classic)", "yahtzee bonus", "P2"]),
        (["yahtzee", "--variant", "triple", "--players", "3", "--seed", "2"], ["Triple Generał", "P3 ×3"]),
        (
            ["poker_dice", "--players", "4", "--seed", "3", "--preset", "official"],
            ["Kości", "joker bonus", "P4"],
        ),
        (["yahtzee", "--players", "1", "--seed", "4"], ["1 player(s)", "1. P1"]),
    ],
)
def test_auto_play_prints_the_final_sheets_and_ranking(
    argv: list[str], expected: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["play", *argv, "--auto"]) == 0
    out = capsys.readouterr().out
    assert "ranking:" in out and "Chance" in out
    for text in expected:
        assert text in out
    assert cli.main(["play", *argv, "--auto"]) == 0
    assert capsys.readouterr().out == out  # seeded: the same game again


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["yahtzee", "--variant", "double"], "variant"),
        (["poker_dice", "--variant", "triple"], "no variants"),
        (["yahtzee", "--players", "5"], "players"),
    ],
)
def test_bad_options_are_reported(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", *argv, "--auto"]) == 2
    assert message in capsys.readouterr().out
