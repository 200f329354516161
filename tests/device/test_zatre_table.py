"""Zatre at the table: whole games laid by taps through the real loop, every refusal by its rule, the
pad the device fills equal to the engine's sheets, the move timer, resume on the same journal, the
screens' structure, the simulated players, history and export."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import rules
from device.app import App
from device.config import ConfigError, config_from_dict
from device.events import Event, Tap
from device.export import to_csv, to_json
from device.i18n import LANGUAGES, Translator
from device.screens.zatre_table import ZatreTableScreen, sheet_cell
from device.sessions.zatre import ROTATIONS, ZatreSession, anchored, best_turn
from device.sessions.zatre_plan import LAY, TAKE_BACK, choose_turn, next_tap
from device.sessions.zatre_sim import ZatreTable
from device.simulator import Simulator
from device.ui.names import refusal_text
from rules.errors import IllegalAction
from rules.zatre import Card, Lay, Placement, ZatreOptions, ZatreState, default_deck, place_cards
from tests.device.conftest import make_config
from tests.device.helpers import check_layout, labels, press, tap

TITLE = "Zatre – solo practice"


def start(app: App, players: int = 2) -> ZatreSession:
    tap(app, TITLE)
    for _ in range(players - 2):
        tap(app, "+")
    tap(app, "Start")
    session = app.session
    assert isinstance(session, ZatreSession) and app.screen.name == "zatre_table"
    return session


def tap_target(app: App, label: str) -> None:
    """A tap at the centre of the drawn target named ``label`` (the way the simulated players tap)."""
    target = next((t for t in app.canvas.targets if t.label == label), None)
    assert target is not None, (label, labels(app))
    app.post(Tap(target.rect.center))
    app.step()


def lay_turn(app: App, plan: Lay, *, use_seat: bool = True) -> int:
    """Lay ``plan`` by taps, then the seat button (or the Lay touch); returns the screen taps used."""
    session = app.session
    assert isinstance(session, ZatreSession)
    seat = session.current_seat
    taps = 0
    app.step()
    for _ in range(60):
        label = next_tap(session, plan, labels(app))
        if label == LAY:
            break
        tap_target(app, app.tr.format("Take back") if label == TAKE_BACK else label)
        taps += 1
    else:
        raise AssertionError(f"{plan} was not laid in 60 taps")
    assert [p.placement for p in session.pending] == list(plan.placements)
    seq = session.seq
    if use_seat:
        assert seat is not None
        press(app, seat)
    else:
        tap_target(app, app.tr.format("Lay"))
    assert session.seq == seq + 1, session.refusal
    return taps


def play_game(app: App, rng: random.Random, *, check_every: int = 5) -> list[int]:
    session = app.session
    assert isinstance(session, ZatreSession)
    taps = []
    while not session.finished:
        before = session.zatre
        player = before.turn
        assert player is not None
        plan = choose_turn(before, rng)
        _, scoring = place_cards(before.board, plan.placements)
        taps.append(lay_turn(app, plan, use_seat=rng.random() < 0.5))
        assert session.zatre.sheets[player] == before.sheets[player].enter(scoring)  # scored as laid
        if session.seq % check_every == 0 and not session.finished:
            check_layout(app)
            assert_pad_is_the_engines(app)
    return taps


def assert_pad_is_the_engines(app: App) -> None:
    """Every box of the pad on screen holds the engine's entry, read straight off its sheet."""
    screen = app.screen
    session = app.session
    assert isinstance(screen, ZatreTableScreen) and isinstance(session, ZatreSession)
    grid = screen.score_grid(session)
    for player, sheet in enumerate(session.zatre.sheets):
        assert grid.totals[player] == str(sheet.total)
        for row in range(len(grid.rows)):
            for column, total in enumerate((10, 11, 12)):
                boxes = sheet.column(total)
                assert grid.cell(row, player, column) == (str(boxes[row]) if row < len(boxes) else None)
            bonus = sheet.bonus_of_row(row) if row < sheet.complete_rows else None
            assert grid.cell(row, player, 3) == (None if bonus is None else str(bonus))
        supers = [grid.cell(row, player, 4) for row in reversed(range(len(grid.rows)))]
        assert [s for s in supers if s is not None] == [str(p) for p in sheet.supers]
        assert all(s is not None for s in supers[: len(sheet.supers)])  # from the bottom up, no gaps


def test_a_whole_game_laid_by_taps_to_the_ranking(make_app) -> None:
    app = make_app()
    session = start(app, players=3)
    taps = play_game(app, random.Random(5))
    assert app.screen.name == "end"
    outcome = session.state.outcome
    assert outcome is not None and outcome.scores == tuple(s.total for s in session.zatre.sheets)
    texts = app.canvas.texts()
    assert all(str(score) in texts for score in outcome.scores)
    check_layout(app)
    stored = app.journal.game(session.game_id)
    actions = [rules.action_from_json(a.action) for a in app.journal.actions(stored.id)]
    replayed = rules.replay(session.options, actions)
    assert replayed.outcome == outcome and stored.scores == outcome.scores
    # A placement takes two taps (the half, the cell) and the seat button; the round's first turn four.
    assert sorted(taps)[len(taps) // 2] == 2


def test_the_pad_on_screen_is_the_engines_sheet(make_app) -> None:
    app = make_app()
    session = start(app)
    rng = random.Random(11)
    while session.seq < 30:
        lay_turn(app, choose_turn(session.zatre, rng))
    screen = app.screen
    assert isinstance(screen, ZatreTableScreen)
    tap(app, "Sheets")
    assert screen.view == "sheets"
    assert_pad_is_the_engines(app)
    seen: set[str] = set()
    for _ in range(8):
        check_layout(app)
        seen |= set(app.canvas.texts())
        screen.next_sheet_page()
        app.step()
    sheets = session.zatre.sheets
    assert {str(s.total) for s in sheets} <= seen
    assert {p.name for p in session.players} <= seen and {"10", "11", "12", "+", "Σ"} <= seen
    assert {str(n) for n in range(1, 26)} <= seen  # all 25 printed rows of the pad
    tap(app, "Board")
    assert screen.view == "board"


def test_sheet_cell_reads_the_pad_like_paper() -> None:
    from rules.zatre import Scoring, Sheet

    sheet = Sheet().enter(Scoring((12, 12, 10), (5, 5, 1), 6)).enter(Scoring((11,), (3,), 0))
    sheet = sheet.enter(Scoring((10, 11, 12), (1, 3, 5), 6))
    assert [sheet_cell(sheet, 0, c) for c in range(4)] == [1, 3, 10, 1]
    assert [sheet_cell(sheet, 1, c) for c in range(4)] == [1, 3, 5, 1]
    assert [sheet_cell(sheet, sheet.length - 1 - i, 4) for i in range(3)] == [6, 6, None]
    assert sheet_cell(sheet, 2, 0) is None and sheet_cell(sheet, 2, 3) is None


# --- refusals, each by its rule -------------------------------------------------------------------


def refusal_shown(app: App, code: str) -> None:
    session = app.session
    assert session is not None and session.refusal is not None and session.refusal.code == code
    app.step()
    sentence = refusal_text(app.tr, session.refusal)
    assert code not in sentence
    shown = " ".join(app.canvas.texts())
    assert sentence.split(":")[0].split()[0] in shown, (sentence, shown)


def test_first_turn_refusals_name_the_rule(make_app) -> None:
    app = make_app()
    session = start(app)
    app.step()
    tap_target(app, "cell 0,0")
    refusal_shown(app, "pick_card_first")
    press(app, 0)
    refusal_shown(app, "lay_card_first")
    press(app, 1)
    refusal_shown(app, "not_your_turn")
    tap_target(app, "hand 1.1")
    tap_target(app, "cell 0,0")
    assert len(session.pending) == 1
    press(app, 0)
    refusal_shown(app, "wrong_card_count")  # the round's first turn lays two cards: the engine says so
    assert session.seq == 0
    tap_target(app, "hand 2.1")
    tap_target(app, "cell 5,5" if "cell 5,5" in labels(app) else "cell -3,-3")
    refusal_shown(app, "not_touching")
    tap_target(app, "cell 0,1")  # below the first card: the second card of the turn
    assert len(session.pending) == 2
    press(app, 0)
    assert session.seq == 1 and session.current_seat == 1
    tap_target(app, "hand 1.1")
    tap_target(app, "cell 0,0")  # the first card lies there now
    refusal_shown(app, "overlap")
    assert not session.pending and session.picked == (0, 0)


def find_row_too_high(state: ZatreState) -> tuple[int, int, tuple[int, int]] | None:
    """A hand card, its half and a free cell next to the board where every side is refused, at least
    one for ``row_too_high`` (so the screen names that rule)."""
    assert state.turn is not None
    board = state.board
    for index, card in enumerate(state.hands[state.turn]):
        for anchor in (0, 1):
            for cell in sorted(board.frontier()):
                codes = []
                for rotation in ROTATIONS:
                    try:
                        place_cards(board, [anchored(card, anchor, cell, rotation)])
                    except IllegalAction as exc:
                        codes.append(exc.code)
                if len(codes) == 4 and "row_too_high" in codes:
                    return index, anchor, cell
    return None


def test_a_row_of_13_is_refused_and_so_is_a_second_card(make_app) -> None:
    app = make_app()
    session = start(app)
    rng = random.Random(2)
    found = None
    while found is None:
        lay_turn(app, choose_turn(session.zatre, rng))
        found = find_row_too_high(session.zatre) if session.seq > 2 else None
    index, anchor, cell = found
    screen = app.screen
    assert isinstance(screen, ZatreTableScreen)
    tap_target(app, f"hand {index + 1}.{anchor + 1}")
    for _ in range(40):  # the cell may lie off the view: the arrows bring it in
        app.step()
        if f"cell {cell[0]},{cell[1]}" in labels(app):
            break
        tap_target(app, next_tap_to_cell(app, cell))
    seq = session.seq
    tap_target(app, f"cell {cell[0]},{cell[1]}")
    refusal_shown(app, "row_too_high")
    assert session.refusal is not None
    total = session.refusal.details["total"]
    assert isinstance(total, int) and total >= 13 and str(total) in " ".join(app.canvas.texts())
    assert not session.pending and session.seq == seq
    # A legal card, then a second one: the turn is complete.
    plan = best_turn(session.zatre)
    assert plan is not None
    screen.pan = (0, 0)
    app.step()
    while len(session.pending) < 1:
        tap_target(app, next_tap(session, plan, labels(app)))
    other = next(i for i in session.available())
    tap_target(app, f"hand {other + 1}.1")
    free = next(
        t.label for t in app.canvas.targets if t.label.startswith("cell ") and _free(session, t.label)
    )
    tap_target(app, free)
    refusal_shown(app, "turn_complete")
    tap_target(app, app.tr.format("Take back"))
    assert not session.pending


def _free(session: ZatreSession, label: str) -> bool:
    x, y = (int(v) for v in label.split()[1].split(","))
    return (x, y) not in session.zatre.board.cells and (x, y) not in session.pending_cells()


def next_tap_to_cell(app: App, cell: tuple[int, int]) -> str:
    from device.sessions.zatre_plan import _cell

    return _cell(cell, labels(app))


def test_a_card_not_in_the_hand_is_refused_by_the_engine(make_app) -> None:
    app = make_app()
    session = start(app)
    hand = session.hand
    missing = next(c for c in default_deck() if c.key not in {h.key for h in hand})
    opening = Lay((Placement(missing, 0, 0, "H"), Placement(hand[0], 0, 1, "H")))
    assert not session.submit(opening)
    assert session.refusal is not None and session.refusal.code == "card_not_in_hand"
    for language in LANGUAGES:
        assert Translator(language).pgettext("rule", "card_not_in_hand") != "card_not_in_hand"


def test_tapping_the_laid_card_turns_it_and_an_earlier_one_is_taken_back(make_app) -> None:
    app = make_app()
    session = start(app)
    app.step()
    tap_target(app, "hand 1.1")
    tap_target(app, "cell 0,0")
    first = session.pending[0].placement
    assert first.cells[0][0] == (0, 0) and first.orientation == "H"
    tap_target(app, "cell 0,0")
    assert session.pending[0].placement.orientation == "V"  # turned below the anchored half
    tap_target(app, "cell 0,0")
    turned = session.pending[0].placement
    assert turned.cells[1][0] == (0, 0) and turned.x == -1  # now to the left
    tap_target(app, "hand 2.1")
    tap_target(app, "cell 0,1")
    assert len(session.pending) == 2
    tap_target(app, "cell -1,0")  # the first card again: taken back with the one laid against it
    assert not session.pending


# --- the move timer --------------------------------------------------------------------------------


def test_the_move_timer_warns_then_lays_the_best_turn(make_app, clock) -> None:
    app = make_app()
    app.set_move_seconds("zatre", 30)
    session = start(app)
    beeps: list[int] = []
    app.signals.beep = beeps.append
    app.step()
    assert session.timer.remaining() == 30
    clock.advance(21)
    app.step()
    assert session.timer.warning() and beeps == [1]
    app.step()
    assert "0:09" in app.canvas.texts()
    best = best_turn(session.zatre)
    assert best is not None
    _, scoring = place_cards(session.zatre.board, best.placements)
    clock.advance(10)
    app.step()
    assert session.seq == 1 and session.history[-1] == best and beeps == [1, 3]
    assert session.timeout_entry is not None and session.timeout_entry.points == scoring.total
    app.step()
    assert any("Time ran out" in t for t in app.canvas.texts())


def test_the_move_timer_is_off_by_default(make_app, clock) -> None:
    app = make_app()
    session = start(app)
    clock.advance(600)
    app.step()
    assert session.timer.remaining() is None and session.seq == 0


# --- resume, structure, the simulator, history ------------------------------------------------------


def test_a_game_resumes_where_it_stood_on_a_new_app(make_app, tmp_path: Path) -> None:
    app = make_app()
    session = start(app)
    rng = random.Random(3)
    while session.seq < 17:
        lay_turn(app, choose_turn(session.zatre, rng))
    state = session.zatre
    app.journal.close()  # the process dies; a new one opens the same journal
    again = make_app()
    resumed = again.session
    assert isinstance(resumed, ZatreSession) and again.screen.name == "zatre_table"
    assert resumed.zatre == state
    play_game(again, rng)
    assert again.screen.name == "end"


@pytest.mark.parametrize("size", [(800, 480), (1024, 600)])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_zatre_screen_keeps_its_structure(make_app, size, language) -> None:
    app = make_app(size)
    app.set_language(language)
    session = start_in(app, language)
    rng = random.Random(8)
    while session.seq < 12:
        lay_turn(app, choose_turn(session.zatre, rng))
    tap_target(app, "hand 1.1")
    check_layout(app)
    tap_target(app, "pan left")
    tap_target(app, "pan up")
    check_layout(app)
    screen = app.screen
    assert isinstance(screen, ZatreTableScreen)
    screen.toggle_view()
    for _ in range(4):
        app.step()
        check_layout(app)
        screen.next_sheet_page()


def start_in(app: App, language: str) -> ZatreSession:
    tap(app, rules.get_game("zatre").variants["full"][language])
    tap(app, Translator(language).format("Start"))
    session = app.session
    assert isinstance(session, ZatreSession)
    return session


def test_autoplay_lays_whole_games_by_tapping_the_screen(make_app, clock) -> None:
    app = make_app()
    sim = Simulator(app, seed=6, autoplay="zatre:full")
    taps: list[Tap] = []
    real_post = app.post

    def recording(event: Event) -> None:
        if isinstance(event, Tap):
            taps.append(event)
        real_post(event)

    app.post = recording
    for _ in range(3000):
        sim.poll()
        app.step()
        clock.advance(0.1)
        if app.screen.name == "end":
            break
    session = app.session
    assert isinstance(session, ZatreSession) and session.finished and app.screen.name == "end"
    table = sim.table
    assert isinstance(table, ZatreTable)
    assert len(table.taps) == session.seq and sum(table.taps) <= len(taps)
    assert sorted(table.taps)[len(table.taps) // 2] == 2


def test_history_statistics_and_export_have_the_game(make_app) -> None:
    app = make_app()
    session = start(app)
    play_game(app, random.Random(9), check_every=1000)
    stats = [s for s in app.journal.statistics() if s.game == "zatre:full"]
    assert {s.player for s in stats} == {p.name for p in session.players}
    csv = to_csv(app.journal)
    assert sum(1 for line in csv.splitlines() if ",zatre," in line) == 2
    data = json.loads(to_json(app.journal))
    game = next(g for g in data["games"] if g["game"] == "zatre")
    assert len(game["actions"]) == session.seq and len(game["options"]["deck"]) == 0
    tap(app, "Home")
    tap(app, "History")
    app.step()
    assert TITLE in app.canvas.texts()


# --- the deck ---------------------------------------------------------------------------------------


def test_the_config_loads_a_deck_manifest(make_app, tmp_path: Path) -> None:
    cards = {"1|1": 10, "2|3": 10, "0|6": 10, "4|5": 10, "6|6": 10}
    manifest = tmp_path / "deck.json"
    manifest.write_text(json.dumps({"name": "counted", "cards": cards}), encoding="utf-8")
    config = make_config(tmp_path, games={"zatre": {"deck_manifest": str(manifest)}})
    app = make_app(config=config)
    session = start(app)
    assert isinstance(session.options, ZatreOptions)
    deck = session.options.cards()
    assert sorted({str(c) for c in deck}) == sorted(cards) and len(deck) == 50
    assert all(card.key in {Card.parse(k).key for k in cards} for card in session.hand)
    manifest.write_text(json.dumps({"cards": {"1|1": 49}}), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"games\.zatre\.deck_manifest: .*49 cards"):
        config_from_dict({"games": {"zatre": {"deck_manifest": str(manifest)}}})
    with pytest.raises(ConfigError, match=r"games\.yahtzee\.deck_manifest"):
        config_from_dict({"games": {"yahtzee": {"deck_manifest": str(manifest)}}})
    with pytest.raises(ConfigError, match="cannot read it"):
        config_from_dict({"games": {"zatre": {"deck_manifest": str(tmp_path / "none.json")}}})
