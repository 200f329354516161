"""Zatre at a refereed table: the players hold a physical deck, the camera reads the grid, the device
keeps the pad. Whole games autoplayed through the camera path (the synthetic camera's frames read by
``read_zatre``) with mistakes refused and put right, the export replaying to the same pad, a kill -9
mid-turn resuming to the same board; the pieces one by one: the seat press, a moved card, an unsure
card and the number pad, the shown hand, the timeout, the screens."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

import rules
from device.app import App
from device.camera_view import CameraView, view_items
from device.events import CameraLost, Seen, TimerSignal
from device.sessions.zatre import ZatreSession
from device.sessions.zatre_sim import laid_out
from device.simulator import Simulator
from rules.zatre import Placement, ZatreState
from tests.device.helpers import check_layout, press, tap
from vision.calibration import Calibration
from vision.zatre import ZatreObservation, read_zatre

TITLE = "Zatre – the card game"


class FilmingCamera:
    """The vision worker in one thread: each request reads the simulated table's frame with
    ``read_zatre`` under the simulator's calibration (the play area: the camera's frame size) and posts
    the reading (the way ``device.vision_worker`` does)."""

    def __init__(self, app: App, sim: Simulator) -> None:
        self.app, self.sim = app, sim
        self.observation: ZatreObservation | None = None
        self.requests = 0
        self.size = (app.config.camera.width, app.config.camera.height)
        self.calibration = Calibration.identity(self.size)

    def view(self) -> CameraView | None:
        if self.observation is None:
            return None
        image = np.full((270, 480, 3), (60, 90, 40), dtype=np.uint8)
        return CameraView(
            image,
            self.size,
            view_items(self.observation),
            (),
            "settled",
            self.requests,
            observation=self.observation,
        )

    def request(self, frames: int = 1) -> None:
        self.requests += 1
        frame = self.sim.camera_frame()
        observation = read_zatre(frame, self.calibration) if frame is not None else ZatreObservation(())
        self.observation = observation
        self.app.post(Seen(observation, kind="requested"))


class FakeCamera:
    def __init__(self) -> None:
        self.requests = 0

    def view(self) -> CameraView | None:
        return None

    def request(self, frames: int = 1) -> None:
        self.requests += 1


def start(app: App, players: int = 2) -> ZatreSession:
    app.camera = FakeCamera()
    tap(app, TITLE)
    for _ in range(players - 2):
        tap(app, "+")
    tap(app, "Start")
    session = app.session
    assert isinstance(session, ZatreSession) and session.referee and app.screen.name == "zatre_table"
    return session


def read(app: App, placements: list[Placement], off: frozenset[int] = frozenset()) -> None:
    app.post(Seen(laid_out(placements, off), kind="requested"))
    app.step()


def lay(app: App, session: ZatreSession, table: list[Placement], *new: str) -> None:
    seat = session.current_seat
    assert seat is not None
    table.extend(Placement.parse(p) for p in new)
    press(app, seat)
    assert session.phase == "checking"
    read(app, table)


def test_the_seat_press_reads_the_board_and_the_new_cards_are_the_turn(make_app) -> None:
    app = make_app()
    session = start(app)
    table: list[Placement] = []
    lay(app, session, table, "5|6@0,0H", "0|4@0,1H")
    assert session.seq == 1 and sorted(session.zatre.board.placements) == sorted(table)
    assert session.zatre.sheets[0].total == 4 and session.zatre.hand_counts == (3, 3)
    lay(app, session, table, "1|3@2,0V")
    assert session.seq == 2 and session.current_seat == 0
    check_layout(app)


def test_the_reading_is_laid_over_the_board_whatever_its_origin(make_app) -> None:
    app = make_app()
    session = start(app)
    table: list[Placement] = []
    lay(app, session, table, "5|6@0,0H", "0|4@0,1H")
    seat = session.current_seat
    assert seat is not None
    press(app, seat)
    # The camera counts cells from the top-left half it sees: a card above shifts every cell.
    read(
        app,
        [*(Placement(p.card, p.x + 4, p.y + 7, p.orientation) for p in table), Placement.parse("1|2@4,6H")],
    )
    assert session.seq == 2 and str(session.zatre.board.placements[-1]) == "1|2@0,-1H"


def test_a_moved_card_is_refused_naming_it_and_outlined(make_app) -> None:
    app = make_app()
    session = start(app)
    table: list[Placement] = []
    lay(app, session, table, "5|6@0,0H", "0|4@0,1H")
    press(app, 1)
    read(app, [Placement.parse("5|6@0,0H"), Placement.parse("0|4@5,5H"), Placement.parse("3|3@2,0V")])
    assert session.seq == 1 and session.refusal is not None and session.refusal.code == "card_moved"
    assert "0|4" in session.refusal.message
    app.step()
    assert "0|4@0,1H!" in [d.text for d in app.canvas.log if d.kind == "zatre_card"]
    assert "moved" in " ".join(app.canvas.texts()).lower()


def test_an_unsure_card_is_refused_then_tapped_on_the_number_pad(make_app) -> None:
    app = make_app()
    session = start(app)
    table: list[Placement] = []
    lay(app, session, table, "5|6@0,0H", "0|4@0,1H")
    press(app, 1)
    read(app, [*table, Placement.parse("1|3@2,0V")], off=frozenset({2}))
    assert session.refusal is not None and session.refusal.code == "card_unsure" and session.seq == 1
    # The fallback: tap the cells, pick the values, press.
    tap(app, "cell 2,0")
    tap(app, "1")
    tap(app, "cell 2,1")
    check_layout(app)
    tap(app, "3")
    press(app, 1)
    assert session.seq == 2 and str(session.zatre.board.placements[-1]) == "1|3@2,0V"


def test_a_lost_camera_asks_for_taps(make_app) -> None:
    app = make_app()
    session = start(app)
    app.post(CameraLost("synthetic", "unplugged"))
    app.step()
    press(app, 0)
    assert session.refusal is not None and session.refusal.code == "camera_lost_tap"


def test_a_shown_hand_that_fits_is_refused_with_a_place(make_app) -> None:
    app = make_app()
    session = start(app)
    table: list[Placement] = []
    lay(app, session, table, "6|6@0,0H", "6|6@0,1H")
    app.step()
    tap(app, "Show hand")
    assert session.phase == "showing"
    for value in (1, 2, 0, 4, 5, 5):
        tap(app, str(value))
    assert session.refusal is not None and session.refusal.code == "card_fits" and session.seq == 1
    tap(app, "Show hand")
    for value in (1, 2, 3, 4, 5, 5):
        tap(app, str(value))
    assert session.seq == 2 and session.zatre.events[0].kind == "exchange"


def test_on_timeout_the_cards_laid_make_the_turn_or_it_is_passed(make_app) -> None:
    app = make_app()
    session = start(app)
    table: list[Placement] = []
    lay(app, session, table, "5|6@0,0H", "0|4@0,1H")
    app.post(TimerSignal("timeout", 1))
    app.step()
    assert session.phase == "checking"
    read(app, [*table, Placement.parse("1|3@2,0V")])
    assert session.seq == 2 and session.timeout_entry is not None and session.timeout_entry.lay is not None
    app.post(TimerSignal("timeout", 0))
    app.step()
    read(app, [*table, Placement.parse("1|3@2,0V"), Placement.parse("1|1@9,9H")])  # touches nothing
    assert session.seq == 3 and type(session.history[-1]).__name__ == "Pass"
    app.step()
    assert "passes" in " ".join(app.canvas.texts())


def play_until_finished(app: App, sim: Simulator, clock, frames: int) -> Counter[str]:
    refusals: Counter[str] = Counter()
    last = None
    for _ in range(frames):
        app.step()
        sim.poll()
        clock.advance(0.1)
        session = app.session
        if session is not None and session.refusal is not None and session.refusal is not last:
            last = session.refusal
            refusals[last.code] += 1
        if app.journal.games(finished_only=True):
            return refusals
    raise AssertionError(f"no game finished in {frames} frames")


def replays(app: App) -> ZatreState:
    game = app.journal.games(finished_only=True)[0]
    actions = [rules.action_from_json(a.action) for a in app.journal.actions(game.id)]
    options = ZatreSession.stored_options(game)
    assert options.information == "referee"  # type: ignore[attr-defined]
    state = rules.replay(options, actions)
    assert isinstance(state, ZatreState) and state.outcome is not None
    assert game.scores is not None and list(state.outcome.scores) == list(game.scores)
    return state


def test_autoplay_without_a_camera_plays_a_whole_game_with_mistakes(make_app, clock) -> None:
    app = make_app()
    sim = Simulator(app, seed=4, autoplay="zatre")
    refusals = play_until_finished(app, sim, clock, 20000)
    # The mistakes were refused: a card moved or nudged off its cell, a card touching nothing or a
    # row of 13; each was put right and the game went on.
    assert set(refusals) & {"card_moved", "card_unsure"}, refusals
    assert set(refusals) & {"not_touching", "row_too_high"}, refusals
    replays(app)


@pytest.mark.slow
def test_a_whole_game_through_the_camera_path(make_app, clock) -> None:
    """Every reading is the synthetic camera's frame (1280×720) read by ``read_zatre``."""
    app = make_app()
    sim = Simulator(app, seed=7, autoplay="zatre", camera=True)
    app.camera = FilmingCamera(app, sim)
    refusals = play_until_finished(app, sim, clock, 20000)
    state = replays(app)
    assert len(state.rounds_played) == 2 and sum(s.total for s in state.sheets) > 0
    assert sum(refusals.values()) >= 1, refusals  # the mistakes, seen by the camera and refused


def test_kill_9_mid_turn_resumes_to_the_same_board(tmp_path) -> None:
    """The appliance autoplays referee-mode Zatre in a child process and is killed at a random moment
    of a turn (cards on the table, the press not yet entered); it resumes the game at the journal's
    last action, the simulated table lays the journal's board again, and play goes on from it."""
    import signal
    import time

    from tests.device.test_resume import Lines, journal_state, read_line
    from tests.device.test_resume import start as start_appliance

    journal_path = tmp_path / "state" / "journal.sqlite3"
    rng = random.Random(31)
    game_id = None
    count = 0  # the journal's actions when the run before was killed
    boards = []
    for round_ in range(3):
        proc = start_appliance(tmp_path, seed=round_, game="zatre")
        lines = Lines(proc)
        try:
            game, what, seq = read_line(lines)
            assert what == "resumed"
            if game_id is not None:
                assert game == game_id and seq == count
            game_id = game
            confirmed = seq
            for _ in range(rng.randint(2, 5)):
                game, what, seq = read_line(lines)
                assert (game, what) == (game_id, "confirmed") and seq == confirmed + 1
                confirmed = seq
            time.sleep(rng.random() * 0.3)  # somewhere in the next turn
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        count, state = journal_state(journal_path, game_id)
        assert count >= confirmed
        assert isinstance(state, ZatreState) and not state.full_information
        boards.append((state.round, state.board.placements))
    # Each run went on from the board the one before left (a round's board only grows).
    for (round_a, before), (round_b, after) in itertools.pairwise(boards):
        if round_a == round_b:
            assert after[: len(before)] == before


def test_the_simulated_table_is_filmed_at_the_camera_size(make_app) -> None:
    """The simulator's calibration takes the camera's frame size as the play area: a frame of another
    size would be read cut to its corner (every card of a wide board must be read)."""
    app = make_app()
    sim = Simulator(app, seed=7, autoplay="zatre", camera=True)
    sim.poll()
    app.step()
    session = app.session
    assert isinstance(session, ZatreSession)
    table = sim.table
    state = rules.zatre.auto_play(rules.zatre.ZatreOptions(players=2, seed=3))
    table.laid = list(state.rounds_played[0].board.placements[:12])  # type: ignore[union-attr]
    frame = sim.camera_frame()
    assert frame.shape[:2] == (app.config.camera.height, app.config.camera.width)
    camera = FilmingCamera(app, sim)
    reading = read_zatre(frame, camera.calibration)
    assert len(reading.placements()) == 12 and reading.certain
