"""``referee coach``: value, advise, simulate and build from the command line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from device.cli import main
from device.coach_tables import save_table, table_path
from rules.coach.table import Table, build
from rules.poker_dice.solver import KosciModel


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    """A state directory holding a Kości table solved for the last three turns."""
    model = KosciModel()
    save_table(build(model, down_to=12), table_path(tmp_path, model))
    return tmp_path


LATE = (
    "ones=2 twos=4 threes=9 fours=12 fives=15 sixes=18 pair=12 two_pairs=14 three_of_a_kind=15"
    " small_straight=15 large_straight=20 full_house=27"
)


def test_value_and_chances(state_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach", "value", "kosci", "--state-dir", str(state_dir), "--sheet", LATE]) == 0
    out = capsys.readouterr().out
    assert "expected final score" in out and "(optimal)" in out
    args = ["coach", "value", "kosci", "--state-dir", str(state_dir), "--sheet", LATE, "--target", "220"]
    assert main([*args, "--games", "500"]) == 0
    out = capsys.readouterr().out
    assert "chance to beat 220" in out and "sd" in out


def test_advise_prints_ranked_choices(state_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["coach", "advise", "kosci", "--state-dir", str(state_dir), "--sheet", LATE]
    assert main([*args, "--dice", "6 6 6 2 6", "--rolls-left", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["choice", "expected", "loss"]
    assert lines[2].startswith("hold 6 6 6 6") and lines[2].split()[-1] == "0.00"
    assert main([*args, "--dice", "66626", "--rolls-left", "0"]) == 0
    assert "box four_of_a_kind" in capsys.readouterr().out


def test_errors_name_the_problem(tmp_path: Path, state_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach", "value", "yahtzee", "--state-dir", str(tmp_path)]) == 2
    assert "no coach table" in capsys.readouterr().err
    assert main(["coach", "value", "chess", "--state-dir", str(tmp_path)]) == 2
    assert "no coach for 'chess'" in capsys.readouterr().err
    args = ["coach", "advise", "kosci", "--state-dir", str(state_dir), "--sheet", "pair=13"]
    assert main([*args, "--dice", "1 2 3 4 5", "--rolls-left", "0"]) == 2
    assert "cannot hold 13" in capsys.readouterr().err
    args = ["coach", "advise", "kosci", "--state-dir", str(state_dir)]
    assert main([*args, "--dice", "1 2 3 4", "--rolls-left", "0"]) == 2
    assert "not a roll of 5 dice" in capsys.readouterr().err


def test_simulate_and_build(
    tmp_path: Path, full_table: Callable[..., Table], capsys: pytest.CaptureFixture[str]
) -> None:
    """The build itself runs through ``referee coach build`` in the ``full_table`` fixture."""
    save_table(full_table(KosciModel(), via_cli=True), table_path(tmp_path, KosciModel()))
    assert main(["coach", "simulate", "kosci", "--state-dir", str(tmp_path), "--games", "400"]) == 0
    out = capsys.readouterr().out
    assert "400 games of optimal play" in out and "standard errors away" in out
