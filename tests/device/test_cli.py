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

    def spy(self, text, rect, **kwargs):
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


# --- the command line a newcomer meets ------------------------------------------------------------


def test_a_config_file_that_does_not_exist_is_an_error(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "nope.toml"
    assert main(["--simulate", "--headless", "--config", str(missing), "--frames", "1"]) == 2
    assert f"the config file {missing} does not exist" in capsys.readouterr().err
    assert main(["export", "--config", str(missing)]) == 2
    # Before the command too: a command's own --config must not silently drop the global one.
    for command in (["export"], ["doctor"], ["coach", "value", "kosci"]):
        capsys.readouterr()
        assert main(["--config", str(missing), *command]) == 2, command
        assert f"the config file {missing} does not exist" in capsys.readouterr().err


def test_the_global_config_reaches_the_command(tmp_path: Path, capsys, monkeypatch) -> None:
    # No simulator's journal to fall back on, whatever this machine's home holds (a simulator run by hand
    # leaves one there, and the export then exports it).
    import device.commands.export as export

    monkeypatch.setattr(export, "SIMULATOR_STATE", tmp_path / "no-simulator")
    state = tmp_path / "elsewhere"
    config = tmp_path / "config.toml"
    config.write_text(f'[device]\nstate_dir = "{state}"\n', encoding="utf-8")
    assert main(["--config", str(config), "export"]) == 2  # its state directory has no journal yet
    assert f"no journal at {state / 'journal.sqlite3'}" in capsys.readouterr().err


def test_a_state_directory_that_cannot_be_made_is_named(tmp_path: Path, capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert main(["--simulate", "--headless", "--frames", "1", "--state-dir", str(blocker / "state")]) != 0
    err = capsys.readouterr().err
    assert "journal error" in err and str(blocker) in err and "Traceback" not in err


def test_the_simulator_without_a_display_says_how_to_run_headless(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    assert main(["--simulate", "--frames", "1", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "--headless" in err and "make run ARGS=" in err


def test_export_takes_the_state_dir_before_or_after_the_command(journal_file: Path, capsys) -> None:
    state = str(journal_file.parent)
    assert main(["export", "--state-dir", state]) == 0
    assert "Ala" in capsys.readouterr().out
    assert main(["--state-dir", state, "export", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"][0]["players"] == ["Ala", "Ölbaum"]


def test_export_finds_the_simulators_journal(journal_file: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    import device.commands.export as export

    monkeypatch.setattr(export, "SIMULATOR_STATE", journal_file.parent)
    config = tmp_path / "config.toml"
    config.write_text(f'[device]\nstate_dir = "{tmp_path / "nothing-here"}"\n', encoding="utf-8")
    assert main(["export", "--config", str(config)]) == 0
    captured = capsys.readouterr()
    assert "Ala" in captured.out and "exporting the simulator's" in captured.err


def test_doctor_json_prints_only_json() -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    env["SDL_VIDEODRIVER"] = "dummy"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "device.cli",
            "doctor",
            "--json",
            "--non-interactive",
            "--button-seconds",
            "0",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    data = json.loads(result.stdout)  # nothing but the report on stdout: no pygame banner
    assert {"ok", "checks"} <= set(data)


def test_autoplay_takes_the_triple_variant_and_names_the_choices(tmp_path: Path, capsys) -> None:
    args = ["--simulate", "--headless", "--no-camera", "--frames", "60", "--state-dir", str(tmp_path)]
    assert main([*args, "--autoplay", "yahtzee:triple"]) == 0
    journal = Journal.open(tmp_path / "journal.sqlite3")
    stored = journal.unfinished() or journal.games()[-1]
    assert stored.options["variant"] == "triple"
    journal.close()
    with pytest.raises(SystemExit):
        main([*args, "--autoplay", "chess"])
    assert "yahtzee:triple" in capsys.readouterr().err


def test_eval_dice_on_a_folder_that_is_not_a_dice_set(tmp_path: Path, capsys) -> None:
    (tmp_path / "ground_truth.csv").write_text(
        "split,image,width,height,n_objects,objects\ntrain,a.jpg,10,10,2,black_6 joker\n", encoding="utf-8"
    )
    assert main(["vision", "eval-dice", str(tmp_path)]) == 2
    assert "is not a dice set" in capsys.readouterr().err
    (tmp_path / "none").mkdir()
    assert main(["vision", "eval-dice", str(tmp_path / "none")]) == 2
    assert "no ground_truth.csv" in capsys.readouterr().err


def test_export_says_what_it_leaves_out(journal_file: Path, capsys) -> None:
    """Issue 36, item 7: a game not finished is not exported, and stderr says so (not a bare [])."""
    journal = Journal.open(journal_file)
    left = journal.start_game("yahtzee", {}, ["Ala"])
    journal.append(left, 1, {"kind": "dice.roll", "dice": "1 2 3 4 5", "held": []}, seat=0, seconds=1.0)
    journal.abandon(left, (0,))
    journal.close()
    assert main(["export", "--format", "json", "--journal", str(journal_file)]) == 0
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["games"]) == 1
    assert "1 game in progress and 1 game left unfinished are not exported" in captured.err


def test_export_json_numbers_seats_from_1_as_the_csv(journal_file: Path, capsys) -> None:
    """Issue 36, item 7: one convention for what a person reads: seats from 1, as on the screens and
    in the CSV; the actions stay the rules' replayable records (said in the file)."""
    assert main(["export", "--format", "json", "--journal", str(journal_file)]) == 0
    data = json.loads(capsys.readouterr().out)
    (game,) = data["games"]
    assert game["seats"] == [
        {"seat": 1, "player": "Ala", "score": 120, "place": 1},
        {"seat": 2, "player": "Ölbaum", "score": 95, "place": 2},
    ]
    assert "count from 1" in data["about"]
    assert main(["export", "--format", "csv", "--journal", str(journal_file)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["seat"], r["player"]) for r in rows] == [(str(s["seat"]), s["player"]) for s in game["seats"]]


def test_export_simulator_takes_the_simulators_journal_and_the_default_names_it(
    journal_file: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    """Issue 36, item 7: ``--simulator`` exports the simulator's journal; without it the appliance's
    journal is exported and stderr names the simulator's too."""
    import device.commands.export as export

    monkeypatch.setattr(export, "SIMULATOR_STATE", journal_file.parent)
    appliance = tmp_path / "appliance"
    appliance.mkdir()
    Journal.open(appliance / "journal.sqlite3").close()  # the appliance's: no games
    config = tmp_path / "config.toml"
    config.write_text(f'[device]\nstate_dir = "{appliance}"\n', encoding="utf-8")
    monkeypatch.setattr(export, "DeviceConfig", lambda: type("D", (), {"state_dir": str(appliance)})())
    assert main(["export", "--config", str(config)]) == 0
    captured = capsys.readouterr()
    assert "Ala" not in captured.out and "--simulator exports the simulator's" in captured.err
    assert main(["export", "--config", str(config), "--simulator"]) == 0
    assert "Ala" in capsys.readouterr().out
