"""What a person sees when the journal cannot be opened, after wrong PINs, with the default PIN, and
after a damaged journal was set aside (issue #17)."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from device.appliance import RunOptions, open_journal, run
from device.journal import Journal, JournalError
from device.screens.settings import pin_delay
from tests.device.conftest import make_config
from tests.device.helpers import check_layout, labels, tap

ROOT = Path(__file__).resolve().parents[2]


class Ticking:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_journal_error_is_on_screen_and_logged_once_and_the_service_stays_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    config = make_config(tmp_path, device={"state_dir": str(blocker / "state")})
    pygame.display.init()
    surface = pygame.Surface((800, 480))
    pings: list[int] = []

    class Dog:
        def ping(self) -> None:
            pings.append(1)

    caplog.set_level(logging.ERROR)
    journal = open_journal(
        config,
        surface,
        RunOptions(frames=40),
        Dog(),
        clock=Ticking(1.0),
        error_retry=10.0,
        present=lambda: None,
    )
    assert journal is None  # --frames ran out: still on the error screen, retrying
    errors = [r for r in caplog.records if "journal error" in r.getMessage()]
    assert len(errors) == 1 and "cannot create the state directory" in errors[0].getMessage()
    assert not any(r.exc_info for r in caplog.records)
    assert len(pings) == 40  # the watchdog was fed on every frame
    pygame.image.save(surface, str(tmp_path / "journal-error.png"))


def test_a_locked_journal_is_waited_for_and_then_opened(tmp_path: Path, monkeypatch) -> None:
    config = make_config(tmp_path)
    pygame.display.init()
    surface = pygame.Surface((800, 480))
    attempts: list[int] = []
    real_open = Journal.open

    def busy_twice(path, **kw):
        from device.journal import JournalLocked

        attempts.append(1)
        if len(attempts) <= 2:
            raise JournalLocked(f"cannot open the journal {path}: the journal is in use by another program")
        return real_open(path, **kw)

    monkeypatch.setattr(Journal, "open", staticmethod(busy_twice))
    journal = open_journal(
        config, surface, RunOptions(frames=1000), None, clock=Ticking(1.0), present=lambda: None
    )
    assert journal is not None and len(attempts) == 3
    journal.close()


def test_the_appliance_exits_3_with_a_clear_line_when_the_journal_cannot_open(tmp_path: Path) -> None:
    path = tmp_path / "state" / "journal.sqlite3"
    path.mkdir(parents=True)
    config = tmp_path / "config.toml"
    config.write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "device.cli", "--headless", "--frames", "3", "--config", str(config),
         "--state-dir", str(tmp_path / "state")],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PATH": "/usr/bin:/bin",
             "PYTHONPATH": str(ROOT), "GPIOZERO_PIN_FACTORY": "mock"},
    )  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert "referee: journal error:" in done.stderr and "is a directory" in done.stderr
    assert "Traceback" not in done.stderr


def test_wrong_pins_lock_the_pad_for_a_growing_time_shown_on_screen(tmp_path: Path, make_app, clock) -> None:
    config = make_config(tmp_path, device={"state_dir": str(tmp_path), "owner_pin": "2468"})
    app = make_app(config=config)
    tap(app, "Settings")
    screen = app.screen

    def enter(pin: str) -> None:
        for d in pin:
            screen.digit(d)
        screen.check()
        app.step()

    for _ in range(3):
        enter("1111")
    assert screen.lock_left() == pytest.approx(5.0)
    assert any("Too many wrong PINs: wait 5 s" in t for t in app.canvas.texts())
    enter("2468")  # the right PIN is not taken while locked
    assert not screen.unlocked
    clock.advance(5.0)
    enter("1111")
    assert screen.lock_left() == pytest.approx(10.0)  # the fourth wrong PIN: twice as long
    check_layout(app)
    pygame.image.save(app.canvas.surface, str(tmp_path / "pin-locked.png"))
    # The count survives a restart (it is in the journal).
    app.journal.close()
    again = make_app(config=config)
    assert again.screens["settings"].failures == 4
    clock.advance(10.0)
    tap(again, "Settings")
    for d in "2468":
        again.screen.digit(d)
    again.screen.check()
    assert again.screen.unlocked and again.journal.setting("pin_failures") == 0


def test_ten_thousand_guesses_take_days(tmp_path: Path) -> None:
    assert sum(pin_delay(n) for n in range(1, 10_001)) > 10_000 * 60


def test_the_default_pin_is_warned_about(tmp_path: Path, make_app) -> None:
    app = make_app()
    tap(app, "Settings")
    for d in "0000":
        app.screen.digit(d)
    app.screen.check()
    app.step()
    assert any("still 0000" in t for t in app.canvas.texts())
    check_layout(app)
    pygame.image.save(app.canvas.surface, str(tmp_path / "default-pin.png"))
    other = make_app(config=make_config(tmp_path, device={"state_dir": str(tmp_path), "owner_pin": "9753"}))
    tap(other, "Settings")
    for d in "9753":
        other.screen.digit(d)
    other.screen.check()
    other.step()
    assert not any("still 0000" in t for t in other.canvas.texts())


def test_a_damaged_journal_can_be_recovered_from_the_home_screen(tmp_path: Path, make_app) -> None:
    from tests.device.journal_games import finished_game, store_game

    config = make_config(tmp_path)
    journal = Journal.open(config.device.journal_path)
    for seed in range(1, 5):
        store_game(journal, *finished_game(seed=seed, players=2))
    journal.close()
    path = config.device.journal_path
    with path.open("r+b") as f:
        f.seek((path.stat().st_size // 4096 // 2) * 4096)
        f.write(b"\xa5" * 4096)
    app = make_app(config=config)
    app.step()
    assert "Recover the games" in labels(app)
    tap(app, "Recover the games")
    assert app.journal.salvaged is not None and app.journal.salvaged.games > 0
    assert "Recover the games" not in labels(app)
    assert "were recovered" in " ".join(app.canvas.texts())  # a paragraph: its lines wrap where they fit
    check_layout(app)
    pygame.image.save(app.canvas.surface, str(tmp_path / "recovered.png"))


def test_journal_error_is_raised_for_a_full_disk_during_play(tmp_path: Path) -> None:
    """A write that fails is the JournalError the failsafe screen shows, not a bare sqlite3 error."""
    journal = Journal.open(tmp_path / "j.sqlite3")
    gid = journal.start_game("yahtzee", {}, ["A"])
    journal._conn.execute(
        f"PRAGMA max_page_count = {journal._conn.execute('PRAGMA page_count').fetchone()[0]}"
    )
    with pytest.raises(JournalError, match="disk is full"):
        for seq in range(1, 2000):
            journal.append(gid, seq, {"kind": "x", "pad": "y" * 2000})
    assert run is not None
