"""Rummikub at the table through the real loop: readings posted the way the vision worker posts them,
the seat buttons, the move timer on a fake clock, the tile picker, the end-of-hand racks, resume on
the same journal, the screens' structure."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest

import rules
from device.app import App
from device.camera_view import CameraView, view_items
from device.events import Seen
from device.export import to_csv, to_json
from device.screens.rummikub_table import RummikubTableScreen
from device.sessions.rummikub import Reading, RummikubSession, same_table
from device.sessions.rummikub_sim import RummikubTable, laid_out
from device.simulator import Simulator
from drivers.events import ButtonEvent
from rules.rummikub import Meld, Play, RevealRack, RummikubOptions, Start, Timeout, parse_tiles
from rules.rummikub.tiles import Tile, full_set
from tests.device.conftest import make_config
from tests.device.helpers import check_layout, labels, phase_of, press, tap
from vision.tiles import TableObservation, read_tiles


def seen(melds: Sequence[str], loose: Sequence[str] = (), unsure: Sequence[int] = ()) -> TableObservation:
    """A reading of ``melds`` (texts) laid in rows and ``loose`` tiles apart; ``unsure``: tile indices
    (melds first, then the loose tiles) the reader was not sure of."""
    laid = [parse_tiles(text) for text in melds] + [[tile] for tile in parse_tiles(" ".join(loose))]
    return laid_out(laid, unsure)


class FakeCamera:
    """The camera as the screens see it: the view of the last reading posted, and requests counted."""

    def __init__(self) -> None:
        self.observation: TableObservation | None = None
        self.requests = 0
        self.frames: list[int] = []  # the frames each request asked for (more than one: a vote)
        self.seq = 0

    def view(self) -> CameraView | None:
        if self.observation is None:
            return None
        # A picture of its own for each reading: the screens' copies of it can be told apart.
        image = np.full((270, 480, 3), (60, 90, 40 + 5 * self.seq % 200), dtype=np.uint8)
        items = view_items(self.observation)
        return CameraView(image, (1280, 720), items, (), "settled", self.seq, observation=self.observation)

    def request(self, frames: int = 1) -> None:
        self.requests += 1
        self.frames.append(frames)


def voting(session: object) -> bool:
    """Whether the session awaits the vote of several frames (its state: a reading of more than one)."""
    stage = getattr(session, "stage", None)
    return isinstance(stage, Reading) and stage.voting


def read(app: App, obs: TableObservation, kind: str = "requested", *, vote: bool = True) -> None:
    """A reading as the vision worker posts it (the camera's view shows it too). When the session asks
    for it again over the next frames (a reading that would be refused or is unsure), ``vote``: their
    vote reads the same (the misread is no single bad frame), posted too."""
    camera = app.camera
    if isinstance(camera, FakeCamera):
        camera.observation, camera.seq = obs, camera.seq + 1
    app.post(Seen(obs, kind=kind))  # type: ignore[arg-type]
    app.step()
    if vote and kind == "requested" and voting(app.session):
        read(app, obs, kind, vote=False)


def hold(app: App, seat: int) -> None:
    app.post(ButtonEvent(seat, "hold", "test"))
    app.step()


def start_game(app: App, players: int = 2) -> RummikubSession:
    app.camera = FakeCamera()
    tap(app, "Rummikub")
    for _ in range(players - 2):
        tap(app, "+")
    tap(app, "Start")
    session = app.session
    assert isinstance(session, RummikubSession) and app.screen.name == "rummikub_table"
    assert session.rummikub.options.information == "referee"
    return session


def test_who_starts_by_the_drawn_tiles_ties_draw_again(make_app) -> None:
    app = make_app()
    session = start_game(app, players=3)
    assert session.phase == "start"
    check_layout(app)
    tap(app, "Read the drawn tiles")
    assert session.awaiting == "start" and app.camera.requests == 1
    read(app, seen([], ["R9", "B12", "K12"]))  # seats 2 and 3 tie on 12
    assert session.phase == "start" and session.contenders == (1, 2)
    assert session.refusal is not None and session.refusal.code == "start_tie"
    tap(app, "Read the drawn tiles")
    read(app, seen([], ["O3"]))  # one tile for two contenders
    assert session.refusal is not None and session.refusal.code == "start_count"
    tap(app, "Read the drawn tiles")
    read(app, seen([], ["O3", "J"]))  # a joker counts as no number: seat 2 starts
    assert session.history == [Start(1)]
    assert session.current_seat == 1 and phase_of(session) == "playing"


def test_starter_chosen_on_screen(make_app) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 2")
    assert session.history == [Start(1)] and session.timer.remaining() is not None


def test_a_hand_opening_refusal_fix_draw_timeout_restore_unsure_reveal(make_app, clock) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    # Seat 1 opens with 30 points.
    press(app, 0)
    assert session.phase == "checking" and session.awaiting == "play"
    check_layout(app)
    read(app, seen(["R10 R11 R12"], ["B5"]))  # a loose tile is no meld: refused, outlined
    assert session.refusal is not None and session.refusal.code == "invalid_meld"
    assert session.refusal.details["why"] == "too_few"
    assert session.offending() == (3,)
    app.step()
    assert [d.kind for d in app.canvas.log].count("refused_tile") == 1
    assert "B5" in app.screen.message()  # the rule, in words
    press(app, 0)
    read(app, seen(["R10 R11 R12"]))
    assert session.rummikub.rack_counts == (11, 14) and session.current_seat == 1
    assert same_table(session.before, [Meld.parse("R10 R11 R12")])
    # Seat 2 draws with the table unchanged; a changed table is refused first.
    hold(app, 1)
    read(app, seen(["R10 R11 R12"], ["K1"]))
    assert session.refusal is not None and session.refusal.code == "table_changed"
    tap(app, "Draw")
    read(app, seen(["R12 R11 R10"]))  # the run seen from the other side is the same table
    assert session.rummikub.rack_counts == (11, 15) and session.current_seat == 0
    screen = app.screen
    assert isinstance(screen, RummikubTableScreen) and screen.before_picture is not None
    accepted = screen.before_picture.get_at((0, 0))  # the last picture of the accepted table
    # Seat 1 manipulates and runs out of time: 3 tiles, restore, the next clock waits.
    read(app, seen(["R10 R11", "R12 B12 K12"]), kind="settled")
    clock.advance(61)
    app.step()
    read(app, seen(["R10 R11", "R12 B12 K12"]))
    assert session.history[-1] == Timeout(True)
    assert session.rummikub.rack_counts == (14, 15)
    assert phase_of(session) == "restore"
    clock.advance(100)  # the next player's clock waits for the table: no timeout while restoring
    app.step()
    assert session.history[-1] == Timeout(True) and phase_of(session) == "restore"
    assert session.timer.paused  # the top bar says "Paused" instead of a running clock
    # The restore view's "before" picture is the accepted table's, not the changed one at the timeout.
    assert screen.before_picture is not None and screen.before_picture.get_at((0, 0)) == accepted
    check_layout(app)
    texts = " ".join(app.canvas.texts())
    assert "Missing: R12" not in texts and "Take away" in texts  # B12 K12 are extra, R12 is there
    read(app, seen(["R10 R11 R12"]), kind="settled")
    assert phase_of(session) == "playing" and session.current_seat == 1
    assert session.timer.remaining() is not None
    # Seat 2: an unsure tile; the table is read again over the next frames, which stay unsure of it:
    # corrected with the picker, then checked.
    press(app, 1)
    read(app, seen(["R10 R11 R12 R13", "K9 K10 K11"], unsure=[3]), vote=False)
    assert session.phase == "checking" and voting(session) and app.camera.frames[-1] == 5
    read(app, seen(["R10 R11 R12 R13", "K9 K10 K11"], unsure=[3]))
    assert phase_of(session) == "correcting"
    app.step()
    check_layout(app)
    assert "Check" not in labels(app)  # nothing is checked on a guess
    tap(app, "tile 4")
    tap(app, "colour R")
    tap(app, "number 13")
    tap(app, "Check")
    # Seat 2 has not opened: the table may not be touched in an opening.
    assert session.refusal is not None and session.refusal.code == "table_touched_before_opening"
    press(app, 1)
    read(app, seen(["R10 R11 R12", "K9 K10 K11", "B8 O8 R8"]))
    assert session.rummikub.rack_counts == (14, 9)
    # A timeout on an untouched table: one tile, no restore.
    clock.advance(61)
    app.step()
    read(app, seen(["R10 R11 R12", "K9 K10 K11", "B8 O8 R8"]))
    assert session.history[-1] == Timeout(False) and phase_of(session) == "playing"
    assert session.rummikub.rack_counts == (15, 9)


def test_end_of_hand_reveal_by_camera_and_picker(make_app) -> None:
    app = make_app()
    session = start_game(app, players=3)
    tap(app, "start 1")
    # Seat 1 lays all 14 tiles in one go.
    table = ["R1 R2 R3 R4 R5", "B9 B10 B11 B12 B13", "K7 O7 R7 B7"]
    press(app, 0)
    read(app, seen(table))
    assert session.phase == "reveal" and session.to_reveal() == 1
    assert session.timer.remaining() is not None and not session.timer.warning()
    assert session.timer.elapsed() == 0  # nobody's clock runs while the racks are shown
    app.step()
    check_layout(app)
    # Seat 2 lays his rack before the camera (a count that does not match is refused).
    tap(app, "Read the rack")
    read(app, seen(table, ["K5", "K6"]))  # the camera sees the melds and the rack beside them
    assert session.refusal is not None and session.refusal.code == "reveal_mismatch"
    rack = "K5 K6 J O1 O2 O3 O4 O5 O6 O7 O8 O9 O10 O11"
    tap(app, "Read the rack")
    read(app, seen(table, rack.split()))
    assert isinstance(session.history[-1], RevealRack) and session.to_reveal() == 2
    # Seat 3 enters his rack with the picker.
    wanted = parse_tiles("R13 R13 B1 B1 K1 K2 K3 K4 O12 O13 R12 B2 B3 J")
    colour = None
    for tile in wanted:
        if tile.is_joker:
            tap(app, "joker")
            continue
        if tile.colour != colour:
            tap(app, f"colour {tile.colour}")
            colour = tile.colour
        tap(app, f"number {tile.number}")
    app.step()
    check_layout(app)
    tap(app, "Done")
    assert session.finished
    scores = session.state.outcome.scores  # type: ignore[union-attr]
    assert sum(scores) == 0 and scores[0] > 0  # RULES.md §3: each hand is zero-sum
    assert app.screen.name == "end"


RACK = "K5 K6 K7 K8 K9 K10 K11 K12 K13 O1 O2 O3 O4 O5"


def test_several_hands_totals_and_next_hand(make_app, tmp_path) -> None:
    config = make_config(tmp_path, games={"rummikub": {"hands": 2}})
    app = make_app(config=config)
    session = start_game(app)
    for hand in (1, 2):
        tap(app, "start 1")
        press(app, 0)
        melds = ["R1 R2 R3 R4 R5", "B9 B10 B11 B12 B13", "K7 O7 R7 B7"]
        read(app, seen(melds))
        tap(app, "Read the rack")
        read(app, seen(melds, RACK.split()))
        if hand == 1:
            assert session.phase == "hand_over"
            app.step()
            check_layout(app)
            assert "Hand 1 is over" in app.canvas.texts()
            tap(app, "Next hand")
            assert phase_of(session) == "start" and session.rummikub.hand == 2
    assert session.finished
    assert session.score_progress()[0] == [200, 400]  # an unopened rack holding an opening: −200


def test_time_extension(make_app, clock) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    clock.advance(50)
    app.step()
    before = session.timer.remaining()
    tap(app, "+30 s")
    assert before is not None and session.timer.remaining() == pytest.approx(before + 30)
    assert session.rummikub.extensions_left(0) == 2


def test_out_of_turn_press_is_refused(make_app) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    press(app, 1)
    assert session.refusal is not None and session.refusal.code == "not_your_turn"
    assert session.awaiting is None


@pytest.mark.parametrize("phase", ["playing", "restore", "reveal"])
def test_resume_in_each_phase(make_app, tmp_path, clock, phase) -> None:
    config = make_config(tmp_path)
    app = make_app(config=config)
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    read(app, seen(["R10 R11 R12"]))
    if phase == "restore":
        clock.advance(61)
        app.step()
        read(app, seen(["R10 R11 R12", "B1 B2 B3"]))
        assert session.phase == "restore"
    if phase == "reveal":
        press(app, 1)
        read(app, seen(["R10 R11 R12", "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11", "K13 O13 J"]))
        assert session.phase == "reveal"
    history = list(session.history)
    app.journal.close()
    again = make_app(config=config)  # the appliance restarted on the same journal
    again.camera = FakeCamera()
    resumed = again.session
    assert isinstance(resumed, RummikubSession)
    assert resumed.history == history and resumed.phase == phase
    assert same_table(resumed.before, session.before)
    if phase == "restore":
        read(again, seen(["R10 R11 R12"]), kind="settled")
        assert resumed.phase == "playing" and resumed.timer.remaining() is not None


def test_screens_at_larger_sizes(make_app) -> None:
    app = make_app(size=(1280, 720))
    session = start_game(app)
    check_layout(app)
    tap(app, "start 2")
    check_layout(app)
    press(app, 1)
    read(app, seen(["R10 R11 R12"], unsure=[1]))  # and the vote of the next frames: still unsure
    app.step()
    check_layout(app)
    assert session.phase == "correcting"


def test_refusal_sentences_in_every_language(make_app) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    screen = app.screen
    assert isinstance(screen, RummikubTableScreen)
    press(app, 0)
    read(app, seen(["R12 B12 B12"]))  # and the vote of the next frames agrees
    assert session.refusal is not None
    assert screen.message() == "R12 B12 B12 is not a group: two blue tiles"
    for language in ("pl", "hu", "de"):
        app.set_language(language)
        text = screen.message()
        assert "R12 B12 B12" in text and "[invalid_meld]" not in text, (language, text)


def test_played_tile_accounting_matches_the_engine(make_app) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    read(app, seen(["R10 R11 R12", "K1 K2 K3"]))
    assert session.history[-1] == Play((Meld.parse("R10 R11 R12"), Meld.parse("K1 K2 K3")))
    assert session.verdict is not None and session.verdict.tiles == 6
    app.step()
    assert f"{session.players[0].name} laid 6 tiles." in " ".join(app.canvas.texts())
    assert Tile.parse("K1") in [t for m in session.before for t in m]
    # The other seat draws; then one tile more: said in the singular.
    hold(app, 1)
    read(app, seen(["R10 R11 R12", "K1 K2 K3"]))
    assert session.current_seat == 0
    press(app, 0)
    read(app, seen(["R10 R11 R12 R13", "K1 K2 K3"]))
    assert session.verdict is not None and session.verdict.tiles == 1
    app.step()
    texts = " ".join(app.canvas.texts())
    assert f"{session.players[0].name} laid a tile." in texts and "laid 1 tiles" not in texts


def play_until_finished(app: App, sim: Simulator, clock, frames: int, games: int = 1) -> list:
    """Step the appliance and the simulated players (0.1 s per frame) until ``games`` are finished;
    the refusals shown on the way are counted in ``refusals``."""
    last = None
    for _ in range(frames):
        app.step()
        sim.poll()
        clock.advance(0.1)
        session = app.session
        if session is not None and session.refusal is not None and session.refusal is not last:
            last = session.refusal
            refusals[last.code] += 1
        done = app.journal.games(finished_only=True)
        if len(done) >= games:
            return done
    raise AssertionError(f"no game finished in {frames} frames: {app.session and app.session.phase}")


refusals: Counter[str] = Counter()


def test_autoplay_plays_whole_games_and_the_journal_replays_them(make_app, clock) -> None:
    app = make_app()
    sim = Simulator(app, seed=11, autoplay="rummikub")
    refusals.clear()
    done = play_until_finished(app, sim, clock, 60000, games=3)
    kinds: Counter[str] = Counter()
    for game in done:
        actions = [rules.action_from_json(a.action) for a in app.journal.actions(game.id)]
        kinds.update(type(a).__name__ for a in actions)
        # The journal replays to the same result the game showed.
        options = RummikubSession.stored_options(game)
        assert isinstance(options, RummikubOptions) and options.information == "referee"
        state = rules.get_game("rummikub").new_game(options)
        for act in actions:
            state = state.apply(act)
        assert state.outcome is not None and list(state.outcome.scores) == list(game.scores)
        assert sum(game.scores) == 0  # zero-sum, hand by hand
    assert kinds["Play"] >= 6 and kinds["Draw"] >= 3 and kinds["RevealRack"] >= 3, kinds
    assert kinds["Timeout"] >= 1, kinds  # an unfinished move: the clock ran out
    assert refusals["invalid_meld"] >= 1, refusals  # a tile left loose, refused, taken back


def test_simulated_table_keeps_every_tile(make_app, clock) -> None:
    """No tile is created or lost: racks, pool and table always hold the 106 tiles of the set."""
    app = make_app()
    sim = Simulator(app, seed=5, autoplay="rummikub")
    for _ in range(1500):
        app.step()
        sim.poll()
        clock.advance(0.1)
        table = sim.table
        if isinstance(table, RummikubTable) and table.racks:
            held = [t for r in table.racks for t in r] + table.pool + [t for m in table.table for t in m]
            held += [table.held] if table.held is not None else []
            if not table.beside:
                assert Counter(map(str, held)) == Counter(map(str, full_set())), len(held)
            session = app.session
            if isinstance(session, RummikubSession) and table.seq == session.seq:
                counts = session.rummikub.rack_counts
                mine = [
                    len(r) + (len(table.taken) if s == table.mover else 0) for s, r in enumerate(table.racks)
                ]
                assert mine == list(counts)


def test_camera_path_reads_the_synthetic_table(make_app) -> None:
    """The simulated table filmed and read back through read_tiles: the reading is the table."""
    app = make_app()
    sim = Simulator(app, seed=2, camera=True)
    session = start_game(app)
    tap(app, "start 1")
    table = sim.table
    assert isinstance(table, RummikubTable) and table.camera
    table.poll(session)
    assert table.lay_best(session) or table.lay_loose(session)
    frame = sim.camera_frame()
    assert frame.shape == (720, 1280, 3)
    reading = read_tiles(frame)
    assert sorted(map(str, reading.values)) == sorted(str(t) for m in table.table for t in m)


def test_history_statistics_and_export_have_the_game(make_app) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    table = ["R1 R2 R3 R4 R5", "B9 B10 B11 B12 B13", "K7 O7 R7 B7"]
    press(app, 0)
    read(app, seen(table))
    tap(app, "Read the rack")
    read(app, seen(table, RACK.split()))
    assert session.finished and app.screen.name == "end"
    stats = [s for s in app.journal.statistics() if s.game == "rummikub"]
    assert {s.player for s in stats} == {p.name for p in session.players}
    csv = to_csv(app.journal)
    assert sum(1 for line in csv.splitlines() if ",rummikub," in line) == 2
    data = json.loads(to_json(app.journal))
    game = next(g for g in data["games"] if g["game"] == "rummikub")
    assert len(game["actions"]) == session.seq and game["options"]["information"] == "referee"
    tap(app, "Home")
    tap(app, "History")
    app.step()
    assert "Rummikub" in app.canvas.texts()


def test_the_number_of_hands_is_set_on_the_players_screen(make_app) -> None:
    app = make_app()
    app.camera = FakeCamera()
    tap(app, "Rummikub")
    tap(app, "hands +")
    tap(app, "hands +")
    tap(app, "hands −")
    check_layout(app)
    tap(app, "Start")
    session = app.session
    assert isinstance(session, RummikubSession) and session.rummikub.options.hands == 2
    app.step()
    assert "Hand 1 of 2" in app.canvas.texts()


def test_without_a_camera_the_simulated_table_answers_a_draw_with_no_camera_refusal(make_app) -> None:
    """Issue 36, item 6: with ``--no-camera`` the simulated table answers the readings a draw asks for;
    the screen does not say "There is no camera to read the table." beside "Reading the table…"."""
    app = make_app()
    sim = Simulator(app, seed=3)  # no camera: the table posts its readings
    tap(app, "Rummikub")
    tap(app, "Start")
    tap(app, "start 1")
    session = app.session
    assert isinstance(session, RummikubSession) and session.current_seat == 0
    hold(app, 0)
    app.step()
    assert session.refusal is None, session.refusal
    assert not any("no camera" in t for t in app.canvas.texts())
    for _ in range(5):
        sim.poll()
        app.step()
    assert [type(a).__name__ for a in session.history][-1] == "Draw"
    assert session.refusal is None and session.current_seat == 1


def test_without_any_camera_a_reading_asked_for_is_refused(make_app) -> None:
    app = make_app()
    tap(app, "Rummikub")
    tap(app, "Start")
    tap(app, "start 1")
    session = app.session
    assert isinstance(session, RummikubSession)
    hold(app, 0)
    assert session.refusal is not None and session.refusal.code == "no_camera"
