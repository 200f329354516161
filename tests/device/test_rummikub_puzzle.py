"""Rummikub solo puzzles: dealt at a difficulty, answered on the table through the camera path
(the synthetic camera films the answer, ``read_tiles`` reads it), scored against the optimum, kept
in the history, the statistics and the export; a puzzle from a journaled position."""

from __future__ import annotations

import json

import pytest

from device.events import Seen
from device.export import to_json
from device.sessions.rummikub_puzzle import PuzzleSession
from device.sessions.rummikub_puzzle_sim import PuzzleTable
from device.simulator import Simulator
from rules.errors import IllegalAction
from rules.rummikub import Meld, best_move, check_turn, parse_tiles
from rules.rummikub.advice import advise
from rules.rummikub.puzzle import (
    Answer,
    NoMove,
    PuzzleOptions,
    difficulty_of,
    from_position,
    generate,
    new_puzzle,
)
from tests.device.helpers import check_layout, labels, tap
from tests.device.test_rummikub_table import FakeCamera
from vision.tiles import read_tiles


def start_puzzle(app) -> PuzzleSession:
    tap(app, "Rummikub puzzle")
    tap(app, "Start")
    session = app.session
    assert isinstance(session, PuzzleSession) and app.screen.name == "rummikub_puzzle"
    return session


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_a_generated_puzzle_has_its_difficulty_and_a_known_optimum(difficulty: str) -> None:
    for seed in range(4):
        table, rack, advice = generate(seed, difficulty)
        assert generate(seed, difficulty)[1] == rack  # the same puzzle for the same seed
        assert difficulty_of(len(advice.changed_melds)) == difficulty and advice.tiles_possible >= 1
        move = best_move(table, rack)
        assert move is not None and len(move.placed) == advice.tiles_possible
        check_turn(table, advice.table_after)


def test_scores_are_the_share_of_the_optimum() -> None:
    state = new_puzzle(PuzzleOptions(table="R1 R2 R3|B7 K7 O7", rack="R4 R5 B9 O9"))
    assert state.optimum == 2
    assert state.apply(Answer(state.advice.table_after)).outcome.scores == (100,)  # type: ignore[union-attr]
    assert state.apply(NoMove()).outcome.scores == (0,)  # type: ignore[union-attr]
    with pytest.raises(IllegalAction) as refused:
        state.apply(Answer((Meld.parse("R1 R2 R3 R4"), Meld.parse("B7 K7 O7 R7"))))
    assert refused.value.code == "not_on_rack"
    with pytest.raises(IllegalAction) as refused:
        state.apply(Answer((Meld.parse("R1 R2 R3"),)))
    assert refused.value.code == "tile_removed"
    none = new_puzzle(PuzzleOptions(table="R1 R2 R3", rack="B9"))
    assert none.optimum == 0 and none.apply(NoMove()).outcome.scores == (100,)  # type: ignore[union-attr]


def test_a_puzzle_from_a_journaled_position() -> None:
    table, rack = (Meld.parse("K3 K4 K5"), Meld.parse("O9 B9 R9")), tuple(parse_tiles("K6 K7 O10 K9"))
    options = from_position(table, rack, seed=3)
    state = new_puzzle(options)
    assert state.table == table and state.rack == rack
    assert state.advice == advise(table, rack, opened=True)


def test_a_puzzle_through_the_camera_path(make_app) -> None:
    app = make_app()
    sim = Simulator(app, seed=4, camera=True)
    session = start_puzzle(app)
    app.step()
    check_layout(app)
    assert "Check my answer" in labels(app) and "No move" in labels(app)
    table = sim.table
    assert isinstance(table, PuzzleTable)
    table.poll(session)
    assert table.lay_answer(session, weaker=True) or table.lay_answer(session)
    tap(app, "Check my answer")
    assert session.phase == "checking"
    frame = sim.camera_frame()
    reading = read_tiles(frame)  # the synthetic camera's picture, read as the vision worker reads it
    assert sorted(map(str, reading.values)) == sorted(str(t) for m in table.table for t in m)
    app.post(Seen(reading, kind="requested"))
    app.step()
    assert session.finished and app.screen.name == "end"
    puzzle = session.puzzle
    expected = len(check_turn(puzzle.table, [Meld(tuple(m)) for m in table.table]))
    assert puzzle.laid == expected and puzzle.outcome.scores == (expected * 100 // puzzle.optimum,)  # type: ignore[union-attr]
    app.step()
    texts = app.canvas.texts()
    assert f"Laid {expected}, the best lays {puzzle.optimum}" in texts
    check_layout(app)
    tap(app, "Best answer")  # the best answer as tiles
    app.step()
    assert app.screen.name == "rummikub_puzzle_answer" and "Lay:" in app.canvas.texts()
    drawn = sorted(d.text for d in app.canvas.log if d.kind == "table_tile")
    assert all(str(t) in drawn for t in puzzle.advice.placed)
    check_layout(app)
    tap(app, "Back")
    assert app.screen.name == "end"
    # Kept in the history, the statistics and the export.
    stats = [s for s in app.journal.statistics() if s.game == "rummikub_puzzle"]
    assert len(stats) == 1 and stats[0].best == puzzle.outcome.scores[0]  # type: ignore[union-attr]
    game = next(g for g in json.loads(to_json(app.journal))["games"] if g["game"] == "rummikub_puzzle")
    assert game["puzzle"]["optimum"] == puzzle.optimum and game["puzzle"]["laid"] == expected
    tap(app, "Home")
    tap(app, "History")
    app.step()
    assert "Rummikub puzzle" in app.canvas.texts()


def test_an_unclear_or_wrong_answer_is_refused_and_tried_again(make_app) -> None:
    from device.sessions.rummikub_sim import laid_out

    app = make_app()
    app.camera = FakeCamera()
    session = start_puzzle(app)
    melds = [list(m) for m in session.puzzle.table]
    tap(app, "Check my answer")
    app.post(Seen(laid_out(melds, unsure=[0]), kind="requested"))
    app.step()
    assert session.refusal is not None and session.refusal.code == "answer_unclear"
    assert session.phase == "solving"
    tap(app, "Check my answer")
    app.post(Seen(laid_out(melds), kind="requested"))
    app.step()
    assert session.refusal is not None and session.refusal.code == "no_tile_played"
    app.step()
    assert "No rack tile was laid: lay your move, or No move." in app.canvas.texts()
    tap(app, "No move")
    assert session.finished and session.puzzle.outcome.scores == (0,)  # type: ignore[union-attr]


def test_autoplay_solves_puzzles(make_app, clock) -> None:
    app = make_app()
    sim = Simulator(app, seed=9, autoplay="rummikub_puzzle")
    for _ in range(3000):
        app.step()
        sim.poll()
        clock.advance(0.1)
        if len(app.journal.games(finished_only=True)) >= 2:
            break
    done = [g for g in app.journal.games(finished_only=True) if g.game == "rummikub_puzzle"]
    assert len(done) >= 2 and all(0 <= (g.scores or (0,))[0] <= 100 for g in done)


def test_the_difficulty_is_chosen_on_the_players_screen(make_app) -> None:
    app = make_app()
    app.camera = FakeCamera()
    tap(app, "Rummikub puzzle")
    tap(app, "hard")
    check_layout(app)
    tap(app, "Start")
    session = app.session
    assert isinstance(session, PuzzleSession)
    assert session.puzzle.options.difficulty == "hard" and session.puzzle.difficulty == "hard"


def test_a_puzzle_from_a_move_of_our_learning_games(make_app) -> None:
    from device.sessions.rummikub_coach import journaled_position
    from tests.device.test_rummikub_coach import RACK0, RACK1, learning_game
    from tests.device.test_rummikub_table import hold, press, read, seen

    app, _ = learning_game(make_app)
    assert journaled_position(app.journal) is None  # nothing recorded yet
    tap(app, "Read my rack")
    read(app, seen([], RACK0.split()))
    press(app, 0)
    read(app, seen(["R10 R11 R12 R13"]))  # the opening: not a puzzle (a puzzle's player has opened)
    tap(app, "Read my rack")
    read(app, seen(["R10 R11 R12 R13"], RACK1.split()))
    hold(app, 1)
    read(app, seen(["R10 R11 R12 R13"]))  # Ben (not opened) draws
    hold(app, 0)
    read(app, seen(["R10 R11 R12 R13"]))  # Anna, opened, draws with a rack that could lay: costly
    position = journaled_position(app.journal)
    assert position is not None
    table, rack = position
    anna = sorted(RACK0.split())
    for laid in ["R10", "R11", "R12", "R13"]:
        anna.remove(laid)
    assert [str(m) for m in table] == ["R10 R11 R12 R13"] and sorted(map(str, rack)) == anna
    app.end_session()
    tap(app, "Rummikub puzzle")
    tap(app, "A move of our games")
    tap(app, "Start")
    puzzle = app.session
    assert isinstance(puzzle, PuzzleSession)
    assert puzzle.puzzle.table == table and sorted(map(str, puzzle.puzzle.rack)) == anna
