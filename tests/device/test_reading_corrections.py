"""A misread never costs a legal move: after a refusal any tile of the reading can be corrected with
the picker, the correction is journaled beside the action it entered (and exported), a restart in the
middle of a correction loses nothing of the game; the dice's correction screen journals its
corrections too."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from device.app import App
from device.cli import main
from device.export import to_corrections_csv, to_json
from device.journal import APPLICATION_ID, SCHEMA, SCHEMA_VERSION, Journal, ReadingFix
from device.sessions.dice_events import DiceSeen, SeenDie
from device.sessions.rummikub import VOTE_FRAMES, RummikubSession
from device.sessions.rummikub_sim import RummikubTable, laid_out
from device.simulator import Simulator
from rules import Action
from rules.dice import RollDice
from rules.rummikub import Draw, Meld, Play, Timeout, parse_tiles
from rules.rummikub.tiles import Tile
from tests.device.conftest import FakeClock, make_config
from tests.device.helpers import check_layout, labels, phase_of, press, start, tap
from tests.device.test_rummikub_table import FakeCamera, hold, read, seen, start_game, voting
from vision.tiles import TableObservation

OPENING = ["R10 R11 R12", "B5 B6 K7"]  # B7 read as K7, with confidence: the reading is refused
TRUE_OPENING = ["R10 R11 R12", "B5 B6 B7"]


def refused_opening(app) -> RummikubSession:
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    read(app, seen(OPENING), vote=False)  # it would be refused: the next frames are read and vote
    assert voting(session) and app.camera.frames == [1, VOTE_FRAMES]
    read(app, seen(OPENING))  # the vote read it so too
    assert session.refusal is not None and session.refusal.code == "invalid_meld"
    assert session.phase == "playing" and session.can_dispute()
    return session


def test_a_confident_misread_is_corrected_after_the_refusal_and_journaled(make_app) -> None:
    app = make_app()
    session = refused_opening(app)
    tap(app, "Correct the reading")
    assert session.phase == "correcting" and session.correction is not None
    assert session.correction.disputed and not session.correction.unsure
    check_layout(app)
    # The refused meld's page comes first: its tiles are chips, any of them can be tapped.
    assert {"tile 4", "tile 5", "tile 6"} <= set(labels(app)) and "Check" in labels(app)
    tap(app, "tile 6")
    assert session.correction.chosen == 5
    tap(app, "colour B")
    tap(app, "number 7")
    app.step()
    check_layout(app)
    tap(app, "Check")
    assert session.history[-1] == Play((Meld.parse("R10 R11 R12"), Meld.parse("B5 B6 B7")))
    assert session.refusal is None and session.current_seat == 1
    stored = app.journal.corrections(session.game_id)
    assert [(c.seq, c.fix) for c in stored] == [(session.seq, ReadingFix(5, "tile", "K7", "B7", 1.0, True))]
    assert stored[0].fix.misread
    # Exported: the corrections CSV counts it, the JSON has it beside the game.
    rows = to_corrections_csv(app.journal).splitlines()
    assert rows[1].split(",")[3:] == ["tile", "5", "K7", "B7", "1.0", "1", "1"]
    assert json.loads(to_json(app.journal))["games"] == []  # the JSON has finished games only


def test_pages_any_tile_and_a_correction_taken_back(make_app) -> None:
    app = make_app()
    session = refused_opening(app)
    tap(app, "Correct the reading")
    corr = session.correction
    assert corr is not None and corr.pages() == [(0, 1, 2), (3, 4, 5)] and corr.page == 1
    tap(app, "page on")
    assert corr.page == 0
    tap(app, "tile 1")  # a tile read right: picked otherwise, then back as it was read
    tap(app, "colour O")
    tap(app, "number 10")
    assert corr.fixes == {0: Meld.parse("O10").tiles[0]}
    tap(app, "tile 1")
    tap(app, "colour R")
    tap(app, "number 10")
    assert corr.fixes == {}
    tap(app, "Cancel")
    assert session.correction is None and session.phase == "playing" and session.can_dispute()


def test_a_corrected_reading_refused_again_keeps_its_corrections(make_app) -> None:
    app = make_app()
    session = refused_opening(app)
    tap(app, "Correct the reading")
    tap(app, "tile 6")
    tap(app, "colour O")  # a wrong pick: still no meld
    tap(app, "number 7")
    tap(app, "Check")
    assert session.refusal is not None and session.refusal.code == "invalid_meld"
    assert session.refused is not None and str(session.refused.tiles[5].tile) == "O7"
    tap(app, "Correct the reading")
    corr = session.correction
    assert corr is not None and str(corr.fixes[5]) == "O7"
    tap(app, "tile 6")
    tap(app, "colour B")
    tap(app, "number 7")
    tap(app, "Check")
    assert session.refusal is None and session.seq == 2
    assert [c.fix.entered for c in app.journal.corrections(session.game_id)] == ["B7"]


def test_a_draw_refused_on_a_misread_is_corrected(make_app) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    read(app, seen(TRUE_OPENING))
    hold(app, 1)  # seat 2 draws; the camera reads the untouched table's R11 as R1 (and so does the vote)
    read(app, seen(["R10 R1 R12", "B5 B6 B7"]), vote=False)
    assert voting(session)
    read(app, seen(["R10 R1 R12", "B5 B6 B7"]))
    assert session.refusal is not None and session.refusal.code == "table_changed"
    tap(app, "Correct the reading")
    tap(app, "tile 2")
    tap(app, "colour R")
    tap(app, "number 11")
    tap(app, "Check")
    assert session.history[-1] == Draw() and session.current_seat == 0
    [stored] = app.journal.corrections(session.game_id)
    assert stored.seq == session.seq and (stored.fix.read, stored.fix.entered) == ("R1", "R11")


def test_unsure_tiles_confirmed_are_journaled_as_no_misread(make_app) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    read(app, seen(TRUE_OPENING, unsure=[2]))  # and the vote of the next frames is not sure either
    assert session.phase == "correcting" and "Check" not in labels(app)
    tap(app, "colour R")
    tap(app, "number 12")  # the chosen tile is the unsure one: confirmed as read
    tap(app, "Check")
    [stored] = app.journal.corrections(session.game_id)
    assert stored.fix == ReadingFix(2, "tile", "R12", "R12", 1.0, False) and not stored.fix.misread


def test_a_restart_in_the_middle_of_a_correction(make_app, tmp_path) -> None:
    """Killed while correcting: the game resumes at the same before table, nothing of the correction
    kept; the player presses again, corrects again, and the journal has the correction once."""
    config = make_config(tmp_path)
    app = make_app(config=config)
    session = refused_opening(app)
    tap(app, "Correct the reading")
    tap(app, "tile 6")
    tap(app, "colour B")
    history = list(session.history)
    app.journal.close()  # the power is cut here
    again = make_app(config=config)
    again.camera = FakeCamera()
    resumed = again.session
    assert isinstance(resumed, RummikubSession)
    assert resumed.history == history and resumed.phase == "playing" and resumed.correction is None
    assert again.journal.corrections(resumed.game_id) == []
    press(again, 0)
    read(again, seen(OPENING))
    tap(again, "Correct the reading")
    tap(again, "tile 6")
    tap(again, "colour B")
    tap(again, "number 7")
    tap(again, "Check")
    assert resumed.seq == 2 and resumed.refusal is None
    assert len(again.journal.corrections(resumed.game_id)) == 1


def test_the_correction_screen_journals_the_dice_changed(make_app) -> None:
    app = make_app()
    session = start(app, "Kości (poker dice)")
    # A roll the camera was unsure of; the players also change a die it was sure of (a misread).
    dice = (SeenDie(2), SeenDie(3, uncertain=True), SeenDie(None, uncertain=True), SeenDie(5), SeenDie(6))
    app.post(DiceSeen(dice))
    app.step()
    app.step()
    assert app.screen.name == "correction"
    tap(app, "3")  # the unsure 3 becomes 4
    tap(app, "?")  # the unreadable die: 1
    tap(app, "5")  # the confident 5 was a 6
    tap(app, "Use these dice")
    assert session.seq == 1
    fixes = [c.fix for c in app.journal.corrections(session.game_id)]
    assert fixes == [
        ReadingFix(1, "die", "3", "4", None, False),
        ReadingFix(2, "die", "", "1", None, False),
        ReadingFix(3, "die", "5", "6", None, True),
    ]


def test_an_older_journal_gains_the_corrections_table(tmp_path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.executescript(
        f"BEGIN; {SCHEMA} PRAGMA application_id = {APPLICATION_ID}; "
        f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
    )
    conn.execute("INSERT INTO games (game, options, players, started) VALUES ('rummikub', '{}', '[]', 0)")
    conn.close()
    journal = Journal.open(path)
    assert journal.set_aside is None and len(journal.games()) == 1
    journal.append(1, 1, {"kind": "demo"}, corrections=[ReadingFix(0, "tile", "B7", "K7", 0.9, True)])
    assert [c.fix.entered for c in journal.corrections()] == ["K7"]
    journal.close()


def test_salvage_keeps_the_corrections(tmp_path) -> None:
    source = Journal.open(tmp_path / "a.sqlite3")
    gid = source.start_game("rummikub", {"players": 2, "information": "referee"}, ["Ala", "Ola"])
    source.append(gid, 1, {"kind": "rummikub.start", "seat": 0})
    source.append(
        gid, 2, {"kind": "rummikub.draw"}, corrections=[ReadingFix(1, "tile", "R6", "R9", 0.8, True)]
    )
    source.close()
    target = Journal.open(tmp_path / "b.sqlite3")
    saved = target.salvage(tmp_path / "a.sqlite3")
    assert saved.games == 1 and saved.actions == 2
    assert [(c.seq, c.fix.read) for c in target.corrections()] == [(2, "R6")]
    target.close()


def test_export_corrections_on_the_command_line(make_app, tmp_path) -> None:
    config = make_config(tmp_path)
    app = make_app(config=config)
    session = refused_opening(app)
    tap(app, "Correct the reading")
    tap(app, "tile 6")
    tap(app, "colour B")
    tap(app, "number 7")
    tap(app, "Check")
    assert session.seq == 2
    out = tmp_path / "corrections.csv"
    journal = str(config.device.journal_path)
    assert main(["export", "--format", "corrections", "--journal", journal, "-o", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("game_id,game,seq,kind,item,read,entered")
    assert lines[1].endswith("tile,5,K7,B7,1.0,1,1")


def test_one_bad_frame_does_not_cost_a_refusal(make_app) -> None:
    """A confident misread making a meld invalid by one tile: the next frames are read and vote, and the
    play is judged on their reading (accepted), not on the bad frame's."""
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    read(app, seen(OPENING), vote=False)
    assert voting(session) and session.refusal is None and session.phase == "checking"
    read(app, seen(TRUE_OPENING))
    assert session.seq == 2 and session.refusal is None and session.votes == 1
    assert app.journal.corrections(session.game_id) == []  # nothing was corrected by hand


def test_no_vote_on_a_reading_that_decides(make_app) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    read(app, seen(TRUE_OPENING))  # a reading the rules take: judged at once
    assert session.seq == 2 and not voting(session) and app.camera.frames == [1]


def test_a_draw_and_a_timeout_on_a_misread_table_are_read_again(make_app, clock) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    read(app, seen(TRUE_OPENING))
    hold(app, 1)
    read(app, seen(["R10 R1 R12", "B5 B6 B7"]), vote=False)  # one bad frame
    assert voting(session)
    read(app, seen(TRUE_OPENING))  # the next frames read the table as it was: the draw is taken
    assert session.history[-1] == Draw() and session.refusal is None
    clock.advance(61)  # seat 1 runs out of time, the table untouched; one frame misreads it
    app.step()
    read(app, seen(["R10 R11 R12", "B5 B6 K7"]), vote=False)
    assert voting(session) and session.phase == "checking"
    read(app, seen(TRUE_OPENING))
    timed: Action = session.history[-1]
    assert timed == Timeout(False) and phase_of(session) == "playing"


def misreading(read: Callable[[], TableObservation]) -> Callable[[], TableObservation]:
    """A reader that reads every 9 as a 6, with confidence, in every frame (no vote outvotes it)."""

    def answer() -> TableObservation:
        obs = read()
        tiles = tuple(
            replace(t, tile=Tile.parse(f"{t.tile.colour}6"))
            if not t.tile.is_joker and t.tile.number == 9
            else t
            for t in obs.tiles
        )
        return replace(obs, tiles=tiles)

    return answer


def autoplay_answering(
    app: App,
    clock: FakeClock,
    seed: int,
    answer: Callable[[RummikubTable], Callable[[], TableObservation]],
    done: Callable[[], bool],
    frames: int,
) -> RummikubTable:
    """Autoplay (no camera) with the simulated table answering each reading by ``answer(table)``
    instead of what lies on it, until ``done()`` or ``frames`` frames; the table."""
    sim = Simulator(app, seed=seed, autoplay="rummikub")
    table = None
    for _ in range(frames):
        sim.poll()
        if table is None and isinstance(sim.table, RummikubTable):
            table = sim.table
            table.observation = answer(table)  # type: ignore[method-assign]
        app.step()
        clock.advance(0.1)
        if done():
            break
    assert table is not None
    return table


def test_the_simulated_players_dispute_a_misread_and_finish_the_game(make_app, clock) -> None:
    """The simulated table lives with what the reader says: a 9 it reads as a 6 is refused, and the
    simulated player disputes it — Correct the reading, the tile picked as it lies, Check — and the
    game goes on to its end, each misread corrected in the journal."""
    app = make_app()

    def finished() -> bool:
        return bool(app.journal.games(finished_only=True))

    table = autoplay_answering(app, clock, 3, lambda t: misreading(t.lying), finished, 40000)
    assert app.journal.games(finished_only=True), app.session and app.session.phase
    assert table.moves["refused: misread"] >= 1 and table.moves["disputed"] >= 1, table.moves
    fixes = [c.fix for c in app.journal.corrections()]
    assert fixes and all(f.read[1:] == "6" and f.entered[1:] == "9" and f.sure for f in fixes), fixes


def test_the_simulated_camera_films_each_layout_once(make_app, monkeypatch) -> None:
    """No crutch: the table is rendered once as it lies, never laid out again until the reader reads
    it right; each frame has its own sensor grain."""
    import vision.synth

    calls = []
    real = vision.synth.render_table

    def counting(*args, **kwargs):
        calls.append(kwargs.get("seed"))
        return real(*args, **kwargs)

    monkeypatch.setattr(vision.synth, "render_table", counting)
    monkeypatch.setattr(
        "vision.tiles.read_tiles", lambda *a, **k: (_ for _ in ()).throw(AssertionError("read"))
    )
    app = make_app()
    sim = Simulator(app, seed=2, camera=True)
    session = start_game(app)
    tap(app, "start 1")
    table = sim.table
    assert isinstance(table, RummikubTable)
    table.poll(session)
    assert table.lay_best(session) or table.lay_loose(session)
    first, second = sim.camera_frame(), sim.camera_frame()
    assert len(calls) == 1 and first.shape == (720, 1280, 3)
    assert not np.array_equal(first, second) and np.abs(first.astype(int) - second).mean() < 4


def test_a_row_the_reader_cut_at_the_misread_tile_is_whole_again(make_app) -> None:
    """The reader cuts a row of tiles where the tile it misread breaks the run (O8 read as O10: the
    run O6 O7 O8 J O10 became O6 O7 | O10 loose | J O10); the corrected tile joins the row again."""
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    row = laid_out([parse_tiles("O6 O7 O10 J O10")])  # the tiles lie edge to edge, one row
    cut = replace(row, melds=((0, 1), (3, 4)), loose=(2,))
    press(app, 0)
    read(app, cut)
    assert session.refusal is not None and session.refusal.code == "invalid_meld"
    tap(app, "Correct the reading")
    corr = session.correction
    assert corr is not None and len(corr.pages()) == 3
    while 2 not in corr.pages()[corr.page]:
        tap(app, "page on")
    tap(app, "tile 3")
    tap(app, "colour O")
    tap(app, "number 8")
    tap(app, "Check")
    assert session.history[-1] == Play((Meld.parse("O6 O7 O8 J O10"),)), session.refusal


def test_a_reading_no_table_can_show_is_never_judged_as_read(make_app) -> None:
    """Three jokers (the set has two): one is misread; every copy is unsure, the players say which."""
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    read(app, seen(["R12 B12 J", "R10 J R12", "J K12 O12"]))
    assert session.phase == "correcting" and session.correction is not None
    assert session.correction.unsure == (2, 4, 6) and session.seq == 1


def test_a_correction_stays_while_the_tile_lies_where_it_was(make_app) -> None:
    """The reader repeats its misread while the tile lies still: corrected once, the tile is read as
    corrected at the next moves (nobody corrects it again, and nothing more is journaled); moved
    elsewhere, it is read as the reader reads it."""
    app = make_app()
    session = refused_opening(app)
    tap(app, "Correct the reading")
    tap(app, "tile 6")
    tap(app, "colour B")
    tap(app, "number 7")
    tap(app, "Check")
    assert session.seq == 2 and len(session.carried) == 1
    hold(app, 1)  # seat 2 draws; the camera still reads the B7 as K7 where it lies
    read(app, seen(OPENING))
    assert session.history[-1] == Draw() and session.refusal is None
    press(app, 0)  # seat 1 lays a run beside; the tiles lie where they lay: still corrected
    read(app, seen([*OPENING, "O1 O2 O3"]))
    assert session.seq == 4 and session.refusal is None
    assert len(app.journal.corrections(session.game_id)) == 1
    hold(app, 1)  # the B7 moved to the front of its row: the misread counts as read
    read(app, seen(["R10 R11 R12", "K7 B5 B6", "O1 O2 O3"]))
    assert session.refusal is not None and session.refusal.code == "table_changed"


def test_a_confident_die_misread_in_an_entered_roll_is_corrected_without_a_roll(make_app) -> None:
    """The camera was sure of a die it misread: the roll is entered. Fix the dice, the die stepped,
    Correct this roll: the same roll (no roll used), journaled; the die held at the next roll is still
    misread by the camera where it lies, and is taken as corrected (no held_die_changed)."""
    from device.sessions.dice import DiceSession
    from device.sessions.dice_rolls import place
    from rules.dice import AmendRoll, Roll

    app = make_app()
    session = start(app, "Generał (classic)")
    assert isinstance(session, DiceSession)
    app.post(DiceSeen(()))  # the empty tray at the start
    app.post(DiceSeen(tuple(place([2, 3, 5, 5, 6]))))  # the die in slot 3 is a 4, read as 5
    app.step()
    assert session.rolls_used == 1 and str(session.dice) == "2 3 5 5 6"
    tap(app, "Fix the dice")
    assert app.screen.name == "correction" and "Correct this roll" not in labels(app)
    # The third die (targets are named by the value they show, in slot order): 5 → 6 → 1 → 2 → 3 → 4.
    for shown, nth in (("5", 0), ("6", 0), ("1", 0), ("2", 1), ("3", 1)):
        tap(app, shown, nth=nth)
    app.step()
    check_layout(app)
    tap(app, "Correct this roll")
    assert session.rolls_used == 1 and str(session.dice) == "2 3 4 5 6"
    assert session.history[-1] == AmendRoll(Roll.parse("2 3 4 5 6")) and app.screen.name == "dice_table"
    [stored] = app.journal.corrections(session.game_id)
    assert stored.seq == session.seq and stored.fix == ReadingFix(2, "die", "5", "4", None, True)
    # The 4 is held; the others thrown. The camera still reads the held die as 5.
    app.post(DiceSeen(tuple(place([1, 1, 5, 1, 1], held=[2], dx=300))))
    app.step()
    assert session.refusal is None and session.rolls_used == 2, session.refusal
    last = session.history[-1]
    assert str(session.dice) == "1 1 4 1 1" and isinstance(last, RollDice) and last.held == (2,)
