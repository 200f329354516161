"""The simulator's keys: R rolls, 1–5 hold, F1–F4 are the seat buttons; autoplay finishes a game; one
simulated table per game, looked up in the registry."""

from __future__ import annotations

import numpy as np
import pygame

from device.events import Key
from device.sessions.dice_sim import DiceTable
from device.simulator import Simulator
from tests.device.helpers import pick_box, seat_to_move, start, start_dice


def key(app, code: int, down: bool = True) -> None:
    app.post(Key(code, "", down=down))
    app.step()
    app.step()  # what the key posted (a reading, a seat press) is handled in the next frame


def test_roll_hold_and_reroll(make_app) -> None:
    app = make_app()
    sim = Simulator(app, seed=3)
    start(app, "Generał (classic)")
    sim.poll()
    key(app, pygame.K_r)
    session = app.session
    first = session.dice.values
    assert isinstance(sim.table, DiceTable) and sim.table.values is not None
    assert session.rolls_used == 1 and sorted(first) == sorted(sim.table.values)
    key(app, pygame.K_1)
    key(app, pygame.K_3)
    assert session.rolls_used == 1  # pushing dice into the hold zone is not a roll
    assert session.held_now() == (0, 2)  # keys 1 and 3 held the dice the screen shows as 1 and 3
    key(app, pygame.K_r)
    assert session.rolls_used == 2
    assert session.history[-1].held == (0, 2)
    assert session.dice.values[0] == first[0] and session.dice.values[2] == first[2]


def test_seat_keys_press_the_seat_buttons(make_app) -> None:
    app = make_app()
    Simulator(app, seed=1)
    start(app, "Generał (classic)")
    key(app, pygame.K_r)
    session = app.session
    seat = session.current_seat
    pick_box(session, "chance")
    key(app, pygame.K_F1 + seat)
    key(app, pygame.K_F1 + seat, down=False)
    assert session.state.sheets[seat].get("chance") is not None


def test_the_synthetic_camera_renders_the_rolled_dice(make_app) -> None:
    rendered: list[tuple[tuple[int, ...], tuple[bool, ...]]] = []

    def render(values, rng, held, **layout):
        rendered.append((tuple(values), tuple(held)))
        return np.zeros((720, 1280, 3), dtype=np.uint8), None

    app = make_app()
    sim = Simulator(app, seed=2, camera=True)
    start(app, "Kości (poker dice)")
    assert isinstance(sim.table, DiceTable)
    sim.table.render = render
    assert sim.camera_frame().shape == (720, 1280, 3)  # the empty tray before the first roll
    key(app, pygame.K_r)
    assert app.session.rolls_used == 0  # the reading comes from the camera, not from the simulator
    assert sim.camera_frame() is not None and rendered[-1][1] == (False,) * 5
    key(app, pygame.K_2)
    assert rendered[-1][1] == (False, True, False, False, False)


def test_autoplay_plays_a_game_to_the_end(make_app) -> None:
    app = make_app()
    sim = Simulator(app, seed=4, autoplay="poker_dice")
    for _ in range(2000):
        sim.poll()
        app.step()
        if app.screen.name == "end":
            break
    assert app.screen.name == "end" and app.session.finished


def test_keyboard_seats_of_the_drivers_light_and_press(make_app) -> None:
    from device.seat_signals import SeatSignals
    from drivers.seats import KeyboardSeats, LedPattern

    app = make_app()
    seats = KeyboardSeats(2, app.post)
    app.signals = SeatSignals([seats], 2)
    Simulator(app, seed=5, seats=seats)
    session = start_dice(app, "Generał (classic)")
    seat = seat_to_move(session)
    assert seats.led_pattern(seat) is LedPattern.ON and seats.led_pattern(1 - seat) is LedPattern.OFF
    key(app, pygame.K_r)
    pick_box(session, "chance")
    key(app, pygame.K_F1 + seat)
    key(app, pygame.K_F1 + seat, down=False)
    assert session.game_state.sheets[seat].get("chance") is not None
    assert seats.led_pattern(seat) is LedPattern.OFF and seats.led_pattern(1 - seat) is LedPattern.ON


def test_each_game_gets_its_own_simulated_table(make_app) -> None:
    from device.sessions.dice_sim import DiceTable
    from device.sessions.simulated import TABLES, SimulatedTable, register_table

    assert TABLES["yahtzee"] is DiceTable and TABLES["poker_dice"] is DiceTable
    app = make_app()
    sim = Simulator(app, seed=6)
    assert sim.table is None  # no game yet
    start(app, "Generał (classic)")
    first = sim.table
    assert isinstance(first, DiceTable)
    key(app, pygame.K_r)
    assert first.values is not None
    app.end_session()
    start(app, "Kości (poker dice)")
    assert isinstance(sim.table, DiceTable) and sim.table is not first and sim.table.values is None

    class Other(SimulatedTable):
        games = ("yahtzee",)

    class Nameless(SimulatedTable):
        pass

    import pytest

    with pytest.raises(ValueError, match="two simulated tables"):
        register_table(Other)
    with pytest.raises(ValueError, match="names no game"):
        register_table(Nameless)
    assert TABLES["yahtzee"] is DiceTable


def test_a_resumed_game_gets_its_table_when_the_simulator_starts_after_the_app(make_app) -> None:
    from device.sessions.dice_sim import DiceTable

    app = make_app()
    Simulator(app, seed=7)
    start(app, "Generał (classic)")
    app.journal.close()
    again = make_app()  # resumes the unfinished game in its constructor
    sim = Simulator(again, seed=7)
    assert isinstance(sim.table, DiceTable)


def test_autoplay_starts_the_asked_game_and_keeps_an_unfinished_game_of_another_kind(
    make_app, caplog
) -> None:
    """Issue 36, item 2: ``--autoplay kalooki`` over a state directory with an unfinished Generał game
    plays Kalooki (what was asked) and says so; the Generał game is not abandoned: the simulator
    started without ``--autoplay`` resumes it."""
    app = make_app()
    Simulator(app, seed=8)
    first = start(app, "Generał (classic)")
    app.journal.close()
    again = make_app()
    assert again.session is not None and again.session.game_id == first.game_id  # resumed
    with caplog.at_level("WARNING"):
        sim = Simulator(again, seed=8, autoplay="kalooki")
        sim.poll()
        again.step()
    assert again.session is not None and again.session.spec.name == "kalooki"
    assert "kept" in caplog.text and "Generał" in caplog.text
    kept = again.journal.game(first.game_id)
    assert not kept.abandoned and kept.finished is None
    again.end_session()  # the Kalooki game is left: the Generał game is the one to resume again
    assert again.journal.unfinished() is not None and again.journal.unfinished().id == first.game_id


def test_autoplay_plays_on_an_unfinished_game_of_its_own_kind(make_app) -> None:
    app = make_app()
    Simulator(app, seed=9)
    first = start(app, "Kości (poker dice)")
    app.journal.close()
    again = make_app()
    sim = Simulator(again, seed=9, autoplay="poker_dice")
    sim.poll()
    again.step()
    assert again.session is not None and again.session.game_id == first.game_id
