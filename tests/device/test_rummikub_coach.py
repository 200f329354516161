"""The Rummikub learning table through the real loop: the owner's setting (never in tournaments),
the rack shown to the camera or entered with the picker, only the drawn tiles afterwards, the
advice after each accepted move (the solver's answer), the hint in two counted stages, the review
screen and the export's review, a resume on the same journal."""

from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import replace

import pygame
import pytest

from device.app import App
from device.events import Key
from device.sessions import rummikub_coach
from device.sessions.rummikub import LEARNING_READER, EnteringRack, RummikubSession
from device.sessions.rummikub_coach import Advisor, track
from device.sessions.rummikub_sim import RummikubTable
from device.simulator import Simulator
from device.vision_worker import Vision
from rules.rummikub import Draw, Meld, Play, ShowRack, TakeHint, Tile, best_move, parse_tiles
from rules.rummikub.advice import advise
from tests.device.conftest import make_config
from tests.device.helpers import check_layout, labels, press, tap
from tests.device.test_reading_corrections import autoplay_answering
from tests.device.test_rummikub_table import hold, read, seen, start_game
from tests.device.test_vision_path import SimulatorCamera
from vision.calibration import Calibration
from vision.card_zones import with_card_zones
from vision.tile_zones import RACK, with_tile_zones
from vision.tiles import TableObservation

RACK0 = "R10 R11 R12 R13 B4 K4 O4 B9 K2 O7 R1 B1 K13 O13"
RACK1 = "B10 B11 B12 K5 K6 K7 O1 O2 R5 R6 B6 O9 K9 J"


class Inline(Executor):
    """The worker, in the test's thread (the tests wait for nothing)."""

    def submit(self, fn, /, *args, **kwargs):
        future: Future[object] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


@pytest.fixture(autouse=True)
def inline_advisor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rummikub_coach, "_executor", Inline)
    monkeypatch.setattr(Advisor.__init__, "__defaults__", (Inline,))


def learning_game(make_app, on: bool = True, preset: str = "seed") -> tuple[App, RummikubSession]:
    app = make_app()
    app.settings.set_learning("rummikub", on)
    app.settings.set_preset("rummikub", preset)
    session = start_game(app)
    tap(app, "start 1")
    return app, session


def test_the_owner_setting_is_off_by_default_and_never_in_tournaments(make_app) -> None:
    app = make_app()
    assert app.settings.game_options("rummikub").learning is False
    app.settings.set_learning("rummikub", True)
    assert app.settings.game_options("rummikub").learning is True
    app.settings.set_preset("rummikub", "tournament")
    assert app.settings.game_options("rummikub").learning is False
    _, session = learning_game(make_app, on=True, preset="tournament")
    assert session.coach is None and "Read my rack" not in labels(app)


def test_the_settings_screen_toggles_it(make_app) -> None:
    app = make_app()
    app.show("settings")
    for digit in "0000":
        tap(app, digit)
    tap(app, "OK")
    while app.screen.game != "rummikub":
        app.screen.next_game()
    app.step()
    tap(app, "Learning table: Off")
    assert app.settings.learning == {"rummikub": True} and "Learning table: On" in labels(app)
    check_layout(app)


class FakeVoice:
    """The voice as the screens see it (``app.voice``): what was said."""

    def __init__(self) -> None:
        self.said: list[tuple[str, dict[str, object]]] = []

    def speak(self, kind: str, **params: object) -> str:
        self.said.append((kind, params))
        return kind


def test_a_learning_hand(make_app) -> None:
    app, session = learning_game(make_app)
    voice = app.voice = FakeVoice()  # type: ignore[assignment]
    coach = session.coach
    assert coach is not None and session.rack_to_show() == (14, 14)
    assert "Read my rack" in labels(app) and "Enter my rack" in labels(app)
    check_layout(app)
    # Seat 1 shows his rack beside the (empty) table; the camera reads it.
    tap(app, "Read my rack")
    read(app, seen([], RACK0.split()))
    assert session.history[-1] == ShowRack(0, tuple(parse_tiles(RACK0)))
    assert session.rack_to_show() is None and coach.mover_rack() is not None
    # He opens with the 10-13 run only (46): the group of 4s and more could have gone too.
    press(app, 0)
    read(app, seen(["R10 R11 R12 R13"]))
    assert len(session.history) == 3
    move = coach.last_move()
    assert move is not None and move.laid == 4
    advice = coach.advice_for(move)
    expected = advise([], parse_tiles(RACK0), opened=False)
    assert advice is not None and advice.move == expected.move and advice.tiles_possible > 4
    texts = [d.text for d in app.canvas.log]
    assert f"Player 1: 4 laid, {expected.tiles_possible} possible" in texts
    check_layout(app)
    said = [("coach_advice", {"name": "Player 1", "laid": 4, "best": expected.tiles_possible})]
    assert voice.said == said
    app.step()
    assert voice.said == said  # once per move
    # Seat 2 enters his rack with the picker, asks for a hint twice (counted), then draws.
    tap(app, "Enter my rack")
    assert isinstance(session.stage, EnteringRack) and "number 7" in labels(app)
    check_layout(app)
    for word in RACK1.split():
        if word == "J":
            tap(app, "joker")
        else:
            tap(app, f"colour {word[0]}")
            tap(app, f"number {word[1:]}")
    tap(app, "Done")
    assert session.history[-1] == ShowRack(1, tuple(parse_tiles(RACK1)))
    tap(app, "Hint")
    tap(app, "Show the move")
    assert session.history[-2:] == [TakeHint(1, 1), TakeHint(1, 2)]
    now = coach.now()
    assert now is not None and now.tiles_possible == len(best_move(session.before, parse_tiles(RACK1)).placed)  # type: ignore[union-attr]
    assert any("Hint: the best move lays" in d.text for d in app.canvas.log)
    check_layout(app)
    hold(app, 1)
    read(app, seen(["R10 R11 R12 R13"]))  # the table as it was: the draw is taken
    assert coach.last_move() is not None and coach.last_move().kind == "draw"  # type: ignore[union-attr]
    # Seat 1 knows the rest of his rack: nothing to show; he lays the 4s.
    assert session.current_seat == 0 and session.rack_to_show() is None
    press(app, 0)
    read(app, seen(["R10 R11 R12 R13", "B4 K4 O4"]))
    assert coach.last_move() is not None and coach.last_move().laid == 3  # type: ignore[union-attr]
    # Seat 2 drew one tile: he shows only that one.
    assert session.rack_to_show() == (1, 15)
    tap(app, "Read my rack")
    read(app, seen(["R10 R11 R12 R13", "B4 K4 O4"], ["O12"]))
    shown = session.history[-1]
    assert isinstance(shown, ShowRack) and shown.seat == 1
    assert Counter(shown.rack) == Counter(parse_tiles(RACK1 + " O12"))
    # The review screen: both players, the hints counted.
    review = coach.review(1)
    assert [s.hints for s in review.seats] == [0, 2]
    assert review.seats[0].laid == 7 and review.seats[1].laid == 0
    app.show("rummikub_review", hand=1)
    app.step()
    check_layout(app)
    assert any("hints 2" in d.text for d in app.canvas.log)


def test_a_wrong_count_and_a_changed_table_are_refused(make_app) -> None:
    app, session = learning_game(make_app)
    tap(app, "Read my rack")
    read(app, seen([], RACK0.split()[:5]))
    assert session.refusal is not None and session.refusal.code == "rack_count"
    tap(app, "Read my rack")
    read(app, seen([], RACK0.split()))
    press(app, 0)
    read(app, seen(["R10 R11 R12 R13"]))
    tap(app, "Read my rack")
    read(app, seen(["R10 R11"], RACK1.split()))  # the table touched before the rack was read
    assert session.refusal is not None and session.refusal.code == "rack_table_changed"


def test_the_rack_is_followed_across_moves_and_a_resume(make_app, tmp_path) -> None:
    config = make_config(tmp_path)
    app = make_app(config=config)
    app.settings.set_learning("rummikub", True)
    session = start_game(app)
    tap(app, "start 1")
    tap(app, "Read my rack")
    read(app, seen([], RACK0.split()))
    press(app, 0)
    read(app, seen(["R10 R11 R12 R13"]))
    known = track(session.rummikub.options, session.history)
    left = Counter(parse_tiles(RACK0)) - Counter(parse_tiles("R10 R11 R12 R13"))
    assert known.rack(0) is not None and Counter(known.rack(0)) == left
    history = list(session.history)
    app.journal.close()
    again = make_app(config=config)  # the appliance restarted on the same journal
    resumed = again.session
    assert isinstance(resumed, RummikubSession) and resumed.history == history
    assert resumed.coach is not None and resumed.coach.known.rack(0) == known.rack(0)
    assert resumed.coach.last_move() is not None and resumed.coach.last_move().laid == 4  # type: ignore[union-attr]


def test_the_export_holds_the_review(make_app) -> None:
    app, session = learning_game(make_app)
    tap(app, "Read my rack")
    read(app, seen([], RACK0.split()))
    press(app, 0)
    read(app, seen(["R10 R11 R12 R13"]))
    tap(app, "Read my rack")
    read(app, seen(["R10 R11 R12 R13"], RACK1.split()))
    # Seat 2 goes out with everything (a table the simulated players could not lay, read as such).
    press(app, 1)
    melds = ["R10 R11 R12 R13", "B10 B11 B12", "K5 K6 K7", "O1 O2 J", "R5 R6 B6 O9 K9"]
    read(app, seen(melds[:4]))  # four melds: not all of his tiles, so the hand goes on
    assert not session.finished
    hold(app, 0)
    read(app, seen(melds[:4]))
    review = RummikubSession.reviewed(session.options, list(session.history), ["Anna", "Ben"])
    anna, ben = review["review"]
    first = advise([], parse_tiles(RACK0), opened=False).tiles_possible
    assert anna["laid"] == 4 and anna["moves"][0]["possible"] == first
    assert anna["possible"] == sum(m["possible"] for m in anna["moves"])
    assert anna["moves"][0]["rack"] == " ".join(sorted(RACK0.split(), key=lambda w: Tile.parse(w).sort_key()))
    assert ben["laid"] == 9 and ben["moves"][0]["possible"] >= 9 and ben["hints"] == 0
    assert anna["moves"][1]["kind"] == "draw" and anna["costliest"][0] == {"hand": 1, "turn": 2}
    assert RummikubSession.reviewed(type(session.options)(), list(session.history)[:1], ["A", "B"]) == {}


def in_rack_zone(melds: list[str], rack: str, unsure: tuple[int, ...] = ()) -> TableObservation:
    """A learning table's reading: ``melds`` on the table, ``rack`` face up in the rack zone."""
    tiles = tuple(replace(t, zone=RACK) for t in seen([], rack.split()).tiles)
    return replace(
        seen(melds), shown=TableObservation(tiles, loose=tuple(range(len(tiles))), uncertain=unsure)
    )


def test_a_rack_left_in_the_rack_zone_is_the_rack_never_table_tiles(make_app) -> None:
    """The learning table reads with the rack zone; a rack shown there and left lying face up does not
    refuse the draw, nor count in a play; an unsure tile of it is the rack read's to refuse."""
    app, session = learning_game(make_app)
    assert session.reader is LEARNING_READER and RummikubSession.reader is not LEARNING_READER
    tap(app, "Read my rack")
    read(app, in_rack_zone([], RACK0, unsure=(3,)))  # read again over the frames first, then refused
    assert session.refusal is not None and session.refusal.code == "rack_unclear"
    tap(app, "Read my rack")
    read(app, in_rack_zone([], RACK0))
    assert session.history[-1] == ShowRack(0, tuple(parse_tiles(RACK0)))
    press(app, 0)
    read(app, in_rack_zone(["R10 R11 R12 R13"], " ".join(RACK0.split()[4:])))  # the rest left face up
    assert isinstance(session.history[-1], Play) and session.refusal is None
    assert session.history[-1].table == (Meld.parse("R10 R11 R12 R13"),)
    tap(app, "Read my rack")
    read(app, in_rack_zone(["R10 R11 R12 R13"], RACK1))
    assert session.history[-1] == ShowRack(1, tuple(parse_tiles(RACK1)))
    hold(app, 1)  # his rack still lies face up in the zone: the table is as it was, the draw is taken
    read(app, in_rack_zone(["R10 R11 R12 R13"], RACK1))
    assert session.history[-1] == Draw() and session.refusal is None
    # A tile beside the melds outside the zone is still the table's: the draw is refused.
    hold(app, 0)
    read(app, in_rack_zone(["R10 R11 R12 R13", "K9"], RACK1))
    assert session.refusal is not None and session.refusal.code == "table_changed"


def test_a_rack_laid_face_up_through_the_camera_does_not_refuse_the_draw(make_app) -> None:
    """End to end as docs/scripts/rummikub-learning.txt: the simulated table lays the mover's rack face
    up in the rack zone (V), the real reader reads it as his rack (Read my rack); left lying there, it
    does not refuse his draw; the camera panel outlines the zone."""
    app = make_app()
    app.settings.set_learning("rummikub", True)
    sim = Simulator(app, seed=5, camera=True)
    calibration = with_tile_zones(with_card_zones(Calibration.identity((1280, 720))))  # as the appliance's
    camera = Vision(SimulatorCamera(sim), app.post, calibration=calibration, threaded=False)
    app.camera = camera
    tap(app, "Rummikub")
    tap(app, "Start")
    tap(app, "start 1")
    session = app.session
    assert isinstance(session, RummikubSession) and camera.reader is LEARNING_READER
    sim.poll()
    table = sim.table
    assert isinstance(table, RummikubTable) and table.zoned
    app.post(Key(pygame.K_v))
    app.step()
    assert table.shown == table.racks[0] and not table.beside
    tap(app, "Read my rack")
    for _ in range(8):
        camera.process_latest()
        app.step()
    shown = session.history[-1]
    assert isinstance(shown, ShowRack) and Counter(shown.rack) == Counter(table.racks[0]), session.refusal
    assert {"rack_zone"} <= {d.kind for d in app.canvas.log}
    sim.poll()
    table.shown = list(table.racks[0])  # he leaves his rack lying face up in the zone
    table.changed()
    hold(app, 0)
    for _ in range(8):
        camera.process_latest()
        app.step()
    assert session.history[-1] == Draw(), session.refusal


def test_a_simulated_player_whose_rack_the_camera_cannot_read_lays_it_again_then_enters_it(
    make_app, clock
) -> None:
    """Autoplay at a learning table: a rack read refused (a tile unsure) is laid again and read again
    once, then entered with the picker; the game goes on."""
    app = make_app()
    app.settings.set_learning("rummikub", True)

    def unsure_rack(table: RummikubTable) -> Callable[[], TableObservation]:
        def answer() -> TableObservation:
            obs = table.lying()
            shown = obs.shown
            return (
                obs
                if shown is None or not shown.tiles
                else replace(obs, shown=replace(shown, uncertain=(0,)))
            )

        return answer

    def played() -> bool:
        return isinstance(app.session, RummikubSession) and any(
            isinstance(a, Play) for a in app.session.history
        )

    table = autoplay_answering(app, clock, 2, unsure_rack, played, 3000)
    session = app.session
    assert isinstance(session, RummikubSession)
    assert table.moves["rack read"] >= 2 and table.moves["rack laid again"] >= 1, table.moves
    assert table.moves["rack entered"] >= 1 and isinstance(session.history[1], ShowRack)
    assert any(isinstance(a, Play) for a in session.history), session.history


def test_simulated_players_show_only_the_tiles_they_drew(make_app, clock) -> None:
    """Autoplay at a learning table: after a draw a player shows the tiles he drew (the ones the coach
    does not know) wherever they lie in his rack (tiles taken back after a timeout go to its end too),
    and no rack shown is refused."""
    app = make_app()
    app.settings.set_learning("rummikub", True)
    sim = Simulator(app, seed=1, autoplay="rummikub")
    refused = []
    for _ in range(2500):
        sim.poll()
        app.step()
        clock.advance(0.1)
        session = app.session
        assert isinstance(session, RummikubSession)
        if session.refusal is not None and session.refusal.code.startswith("rack"):
            refused.append(session.refusal.code)
        wanted, table = session.rack_to_show(), sim.table
        if (
            wanted is not None
            and wanted[0] < wanted[1]
            and isinstance(table, RummikubTable)
            and not table.shown
        ):
            break
    else:
        raise AssertionError("no partial showing in 2500 frames")
    assert not refused, refused
    seat, coach = session.current_seat, session.coach
    assert seat is not None and coach is not None and (known := coach.known.partial(seat)) is not None
    table.racks[seat].reverse()  # the drawn tiles first: not the last ones of his rack
    table.lay_rack(session)
    assert (
        Counter(table.shown) == Counter(table.racks[seat]) - Counter(known[0])
        and len(table.shown) == wanted[0]
    )


def test_the_advisor_runs_in_a_worker_process() -> None:
    real = Advisor(
        lambda: ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    )
    table = [Meld.parse("R1 R2 R3")]
    key = real.request(table, parse_tiles("R4 R5"), True)
    assert real.get(real.request(table, parse_tiles("R4 R5"), True)) in (None, real.wait(key, timeout=120))
    assert real.wait(key, timeout=120) == advise(table, parse_tiles("R4 R5"), opened=True)
    assert real.get(key) is not None
    real.close()
