"""``referee``: start-up with a broken config, a headless simulator run, ``referee export``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from device.cli import main
from device.journal import Journal


def test_broken_config_names_the_key_and_exits(tmp_path: Path, capsys) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[device]\nlanguage = "fr"\n', encoding="utf-8")
    assert main(["--simulate", "--headless", "--config", str(config), "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert "device.language" in err and "'pl', 'hu', 'de', 'en'" in err


def test_broken_config_is_shown_on_the_screen(tmp_path: Path, monkeypatch) -> None:
    import device.ui.canvas as canvas_module

    shown: list[str] = []

    original = canvas_module.Canvas.paragraph

    def spy(self, text, rect, **kwargs):  # type: ignore[no-untyped-def]
        shown.append(text)
        return original(self, text, rect, **kwargs)

    monkeypatch.setattr(canvas_module.Canvas, "paragraph", spy)
    config = tmp_path / "config.toml"
    config.write_text("[seats]\ncount = 9\n", encoding="utf-8")
    assert main(["--simulate", "--config", str(config), "--frames", "2"]) == 2
    assert any("seats.count" in text and "1–4" in text for text in shown)


def test_config_that_is_not_toml(tmp_path: Path, capsys) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[device\nlanguage = ", encoding="utf-8")
    assert main(["--headless", "--config", str(config), "--frames", "1"]) == 2
    assert "not valid TOML" in capsys.readouterr().err


def test_headless_simulator_runs_and_keeps_a_journal(tmp_path: Path) -> None:
    state = tmp_path / "state"
    args = [
        "--simulate",
        "--headless",
        "--frames",
        "40",
        "--state-dir",
        str(state),
        "--autoplay",
        "yahtzee",
        "--no-camera",
    ]
    assert main(args) == 0
    journal = Journal.open(state / "journal.sqlite3")
    stored = journal.unfinished()
    assert stored is not None and stored.game == "yahtzee" and journal.actions(stored.id)


def test_a_foreign_journal_is_moved_aside_and_reported(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "journal.sqlite3").write_text("not a database", encoding="utf-8")
    assert main(["--simulate", "--headless", "--frames", "2", "--state-dir", str(state)]) == 0
    aside = [p.name for p in state.iterdir() if ".refused-" in p.name]
    assert len(aside) == 1
    assert (state / aside[0]).read_text(encoding="utf-8") == "not a database"


def test_size_must_look_like_a_size() -> None:
    with pytest.raises(SystemExit):
        main(["--size", "big"])


@pytest.fixture
def journal_file(tmp_path: Path) -> Path:
    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    gid = journal.start_game("poker_dice", {"players": 2, "seed": 1}, ["Ala", "Ölbaum"])
    journal.append(gid, 1, {"kind": "dice.roll", "dice": "1 2 3 4 5", "held": []}, seat=0, seconds=3.0)
    journal.finish(gid, (120, 95), (1, 2))
    journal.start_game("yahtzee", {}, ["Unfinished"])
    journal.close()
    return path


def test_export_csv(journal_file: Path, capsys) -> None:
    assert main(["export", "--format", "csv", "--journal", str(journal_file)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["player"], r["score"], r["place"]) for r in rows] == [
        ("Ala", "120", "1"),
        ("Ölbaum", "95", "2"),
    ]
    assert rows[0]["game"] == "poker_dice"


def test_export_json_to_a_file(journal_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    assert main(["export", "--format", "json", "--journal", str(journal_file), "-o", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    (game,) = data["games"]
    assert game["players"] == ["Ala", "Ölbaum"] and game["scores"] == [120, 95]
    assert game["actions"] == [{"kind": "dice.roll", "dice": "1 2 3 4 5", "held": []}]


def test_export_refuses_a_foreign_file_without_moving_it(tmp_path: Path, capsys) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_text("hello", encoding="utf-8")
    assert main(["export", "--journal", str(path)]) == 2
    assert "not a journal" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == "hello"
