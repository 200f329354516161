"""The move timer: warnings at 10 s, timeout, pause/resume, time used per seat (fake clock)."""

from __future__ import annotations

from device.timer import MoveTimer
from tests.device.conftest import FakeClock, make_config
from tests.device.helpers import press, roll, seat_to_move, start, start_dice, tap


def test_warning_then_timeout_once_each() -> None:
    clock = FakeClock()
    timer = MoveTimer(30, clock=clock)
    timer.start(0)
    clock.advance(19)
    assert timer.poll() is None and not timer.warning()
    clock.advance(1)
    assert timer.poll() == "warning" and timer.warning()
    clock.advance(5)
    assert timer.poll() is None
    clock.advance(5)
    assert timer.poll() == "timeout"
    clock.advance(5)
    assert timer.poll() is None
    assert timer.remaining() == 0


def test_pause_stops_the_clock() -> None:
    clock = FakeClock()
    timer = MoveTimer(30, clock=clock)
    timer.start(1)
    clock.advance(10)
    timer.pause()
    clock.advance(100)
    assert timer.elapsed() == 10 and timer.poll() is None
    timer.resume()
    clock.advance(5)
    assert timer.elapsed() == 15 and timer.remaining() == 15


def test_time_used_accumulates_per_seat_and_laps_split_it() -> None:
    clock = FakeClock()
    timer = MoveTimer(0, clock=clock)
    timer.start(0)
    clock.advance(3)
    assert timer.lap() == 3
    clock.advance(4)
    assert timer.lap() == 4
    timer.start(1)
    clock.advance(2)
    timer.start(0)
    clock.advance(1)
    assert timer.used(0) == 8 and timer.used(1) == 2
    assert timer.remaining() is None and timer.poll() is None


def test_no_limit_never_warns() -> None:
    clock = FakeClock()
    timer = MoveTimer(0, clock=clock)
    timer.start(0)
    clock.advance(10_000)
    assert timer.poll() is None and not timer.warning()


def test_table_warns_then_enters_the_best_box_on_timeout(tmp_path, make_app, clock) -> None:
    config = make_config(tmp_path, games={"yahtzee": {"timer_seconds": 30}})
    app = make_app(config=config)
    panel = RecordingPanel()
    app.signals.panels = [panel]
    session = start_dice(app, "Generał (classic)")
    assert session is not None and session.timer.limit_seconds == 30
    seat = seat_to_move(session)
    roll(app, (6, 6, 6, 2, 2))
    clock.advance(21)
    app.step()
    assert panel.leds[seat] == "BLINK" and panel.beeps == [1]
    assert "0:09" in app.canvas.texts()
    best = session.best_choice()
    clock.advance(10)
    app.step()
    assert panel.beeps == [1, 3]
    assert best is not None and session.game_state.sheets[seat].get(best) is not None
    assert session.current_seat != seat
    assert panel.leds[seat_to_move(session)] == "ON" and panel.leds[seat] == "OFF"
    # The next player sees for a few seconds what the timer entered, for whom and why.
    name = session.players[seat].name
    points = session.game_state.sheets[seat].get(best)
    notice = [t for t in app.canvas.texts() if t.startswith("Time ran out")]
    assert notice and name in notice[0] and f"({points})" in notice[0]
    clock.advance(9)
    app.step()
    assert not [t for t in app.canvas.texts() if t.startswith("Time ran out")]


def test_timeout_before_rolling_enters_the_best_box_on_the_roll(tmp_path, make_app, clock) -> None:
    config = make_config(tmp_path, games={"poker_dice": {"timer_seconds": 30}})
    app = make_app(config=config)
    session = start_dice(app, "Kości (poker dice)")
    seat = seat_to_move(session)
    clock.advance(31)
    app.step()
    assert session.current_seat == seat
    roll(app, (5, 5, 5, 5, 5))
    assert session.game_state.sheets[seat].get("poker") == 75
    assert session.current_seat != seat
    app.step()
    assert any(t.startswith("Time ran out before the roll") and "(75)" in t for t in app.canvas.texts())


def test_owner_pauses_and_resumes(tmp_path, make_app, clock) -> None:
    config = make_config(tmp_path, games={"yahtzee": {"timer_seconds": 30}})
    app = make_app(config=config)
    start(app, "Generał (classic)")
    tap(app, "Menu")
    for digit in "0000":
        tap(app, digit)
    tap(app, "OK")
    tap(app, "Pause timer")
    clock.advance(100)
    tap(app, "Back")
    assert app.screen.name == "dice_table" and "Paused" in app.canvas.texts()
    assert app.session.timer.poll() is None
    tap(app, "Menu")
    for digit in "0000":
        tap(app, digit)
    tap(app, "OK")
    tap(app, "Resume timer")
    tap(app, "Back")
    assert app.session.timer.remaining() == 30
    press(app, app.session.current_seat)
    assert app.session.refusal is not None and app.session.refusal.code == "roll_first"


class RecordingPanel:
    def __init__(self) -> None:
        self.leds: dict[int, str] = {}
        self.beeps: list[int] = []

    def set_led(self, seat: int, pattern: object) -> None:
        self.leds[seat] = getattr(pattern, "name", str(pattern))

    def beep(self, count: int = 1, on_time: float = 0.1, off_time: float = 0.1) -> None:
        self.beeps.append(count)
