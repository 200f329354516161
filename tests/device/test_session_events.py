"""The session owns the game's events: nothing is lost behind another screen; one move-time source;
the failsafe and history screens ask the journal once."""

from __future__ import annotations

import logging

from device.journal import JournalError
from device.settings import move_seconds
from rules.rummikub import RummikubOptions
from tests.device.conftest import make_config
from tests.device.helpers import press, roll, start, tap


def test_a_seat_press_behind_the_settings_screen_is_not_lost(make_app) -> None:
    app = make_app()
    session = start(app, "Generał (classic)")
    roll(app, (2, 3, 4, 5, 6))
    tap(app, "Large straight")
    seat = session.current_seat
    assert seat is not None
    app.show("settings")
    press(app, seat)
    assert session.seq == 2 and app.screen.name == "settings"
    assert any(d.kind == "banner" and "Move recorded for" in d.text for d in app.canvas.log)
    app.show_game()
    assert app.screen.name == "dice_table" and session.phase == "rolling"


def test_the_move_time_resolves_in_one_place(tmp_path, make_app) -> None:
    assert move_seconds(RummikubOptions()) == 60
    assert move_seconds(RummikubOptions(move_seconds=90), config=45) == 45
    assert move_seconds(RummikubOptions(), config=45, owner=0) == 0
    app = make_app(config=make_config(tmp_path, games={"rummikub": {"move_seconds": 90}}))
    assert app.settings.move_seconds(RummikubOptions(move_seconds=30)) == 30  # the options played
    assert app.settings.timer_seconds("rummikub") == 90  # a new game with the file's options
    start(app, "Generał (classic)")
    app.set_move_seconds("yahtzee", 45)
    assert app.session.timer.limit_seconds == 45 and app.settings.timer_seconds("yahtzee") == 45


def test_the_failsafe_asks_a_failed_journal_nothing_and_logs_once(make_app, caplog) -> None:
    app = make_app()
    asked: list[int] = []

    def unfinished() -> None:
        asked.append(1)
        raise JournalError("disk I/O error")

    app.journal.unfinished = unfinished
    with caplog.at_level(logging.ERROR):
        for _ in range(5):
            app.fail(JournalError("disk I/O error"))
            app.step()
    assert app.screen.name == "failsafe" and asked == []
    assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1


def test_history_reads_the_journal_once(make_app) -> None:
    app = make_app()
    calls: list[int] = []
    history = app.journal.history

    def counted(*args, **kwargs):
        calls.append(1)
        return history(*args, **kwargs)

    app.journal.history = counted
    tap(app, "History")
    for _ in range(10):
        app.step()
    assert len(calls) == 1
