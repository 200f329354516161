"""The coach's table files (``device/coach_tables.py``): written atomically, read back, refused when
missing, damaged or built for other rules."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from device.coach_tables import load_coach, load_table, save_table, table_path
from rules.coach.table import TableError, build
from rules.poker_dice.game import PokerDiceOptions
from rules.poker_dice.solver import KosciModel
from rules.yahtzee.solver import GeneralModel


def test_table_file_round_trip_and_refusals(tmp_path: Path) -> None:
    late_kosci = build(KosciModel(), down_to=11)
    path = save_table(late_kosci, tmp_path / "t.npz")
    assert not (tmp_path / "t.npz.partial").exists()
    again = load_table(KosciModel(), path)
    assert np.array_equal(again.values, late_kosci.values)
    with pytest.raises(TableError, match="built for"):
        load_table(KosciModel(penalty_per_zero=True), path)
    with pytest.raises(TableError, match="no coach table"):
        load_table(KosciModel(), tmp_path / "missing.npz")
    (tmp_path / "bad.npz").write_bytes(b"not a table")
    with pytest.raises(TableError, match="not a coach table"):
        load_table(KosciModel(), tmp_path / "bad.npz")
    with pytest.raises(TableError, match="built for"):
        load_table(GeneralModel(), path)


def test_the_coach_of_a_game_reads_its_table_from_the_state_directory(tmp_path: Path) -> None:
    model = KosciModel()
    assert (
        table_path(tmp_path, model)
        == tmp_path / "coach-poker_dice-allow-voluntary-zero-no-penalty-per-zero.npz"
    )
    with pytest.raises(TableError, match="no coach table"):
        load_coach(PokerDiceOptions(), tmp_path)
    save_table(build(model, down_to=13), table_path(tmp_path, model))
    assert load_coach(PokerDiceOptions(), tmp_path).exact
