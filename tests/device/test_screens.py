"""Headless screenshots of every screen: the expected texts are drawn, nothing is off-screen, and every
touch target is at least 48 px — at 800×480, and the main screens at 1024×600 and 1920×1080."""

from __future__ import annotations

import pygame
import pytest

import rules
from device.app import App
from device.screens.base import SCREENS
from device.sessions.dice_events import DiceSeen, SeenDie
from tests.device.helpers import check_layout, labels, pick_box, press, roll, sheet_texts, tap

SIZES = [(800, 480), (1024, 600), (1920, 1080)]


def shot(app: App) -> list[str]:
    app.step()
    check_layout(app)
    return app.canvas.texts()


def start(app: App, game: str = "Generał (classic)", players: int = 2) -> None:
    tap(app, game)
    for _ in range(players - 2):
        tap(app, "+")
    tap(app, "Start")


@pytest.mark.parametrize("size", SIZES)
def test_home(make_app, size) -> None:
    texts = shot(make_app(size))
    assert {
        "Tabletop Referee",
        "Generał (classic)",
        "Triple Generał",
        "Kości (poker dice)",
        "History",
    } <= set(texts)


@pytest.mark.parametrize("size", SIZES)
def test_players(make_app, size) -> None:
    app = make_app(size)
    tap(app, "Generał (classic)")
    tap(app, "+")
    tap(app, "+")
    texts = shot(app)
    assert {"Player 1", "Player 4", "Seat 4", "Start"} <= set(texts)
    tap(app, "+")
    assert "Player 4" in shot(app) and app.screen.count == 4


def test_players_keyboard(make_app) -> None:
    app = make_app()
    tap(app, "PL")
    tap(app, "Kości")
    tap(app, "Gracz 2")
    texts = shot(app)
    assert {"Q", "Ł", "Ż", "Gotowe"} <= set(texts)


@pytest.mark.parametrize("size", SIZES)
def test_dice_table_before_and_after_a_roll(make_app, size) -> None:
    app = make_app(size)
    start(app, players=4)
    texts = shot(app)
    assert {"Player 1", "Roll 0 of 3", "Turn 1", "Choices", "Sheets", "Total", "No camera"} <= set(texts)
    assert {"Ones", "Yahtzee", "Chance", "Upper bonus"} <= sheet_texts(app)
    roll(app, (3, 3, 3, 6, 6))
    texts = shot(app)
    assert {"Roll 1 of 3", "Full house", "25", "Three of a kind", "21"} <= set(texts)
    assert [d.text for d in app.canvas.log if d.kind == "die"] == ["3", "3", "3", "6", "6"]
    tap(app, "Full house")
    texts = shot(app)
    assert "Enter" in texts and "Full house: 25" in texts


def test_triple_table_pages_by_column(make_app) -> None:
    app = make_app()
    start(app, "Triple Generał", players=4)
    roll(app, (1, 2, 3, 4, 5))
    texts = shot(app)
    assert {"×1", "×2", "×3", "Large straight", "40"} <= set(texts)
    tap(app, "×3")
    assert "120" in shot(app)
    tap(app, "Sheets")
    sheets = sheet_texts(app)
    assert "Yahtzee bonus" in sheets and "Player 4" in sheets


def test_refusal_is_shown_in_the_players_language(make_app) -> None:
    app = make_app()
    tap(app, "DE")
    tap(app, "Generał (klassisch)")
    tap(app, "Start")
    roll(app, (1, 1, 2, 3, 4))
    roll(app, (6, 6, 6, 6, 6), held=(0, 1))
    texts = " ".join(shot(app))
    assert "gehaltener Würfel" in texts


def test_camera_view_draws_recognised_dice_and_hold_zone(make_app) -> None:
    import numpy as np

    from device.camera_view import CameraView, ViewItem, ViewZone

    class Worker:
        def view(self) -> CameraView:
            return CameraView(
                image=np.zeros((270, 480, 3), dtype=np.uint8),
                frame_size=(1280, 720),
                items=(
                    ViewItem("4", (200.0, 300.0), 60.0),
                    ViewItem("?", (900.0, 600.0), 60.0, zone="hold", uncertain=True),
                ),
                zones=(ViewZone("hold", ((0.0, 576.0), (1280.0, 576.0), (1280.0, 720.0), (0.0, 720.0))),),
                state="settled",
                seq=1,
            )

    app = make_app()
    app.camera = Worker()
    start(app)
    shot(app)
    kinds = {(d.kind, d.text) for d in app.canvas.log}
    assert ("seen_die", "4") in kinds and ("seen_die", "?") in kinds and ("hold_zone", "Hold zone") in kinds


@pytest.mark.parametrize("size", SIZES)
def test_correction(make_app, size) -> None:
    app = make_app(size)
    start(app)
    app.post(DiceSeen((SeenDie(4), SeenDie(None, uncertain=True), SeenDie(2), SeenDie(2), SeenDie(6))))
    app.step()
    assert app.screen.name == "correction"
    texts = shot(app)
    assert {"Fix the dice", "Tap a die to change its value.", "Use these dice", "Cancel"} <= set(texts)
    assert "Use these dice" not in [t.label for t in app.canvas.targets]  # one die still unknown
    tap(app, "?")
    tap(app, "1")
    tap(app, "Use these dice")
    assert app.screen.name == "dice_table"
    assert app.session.dice.values == (4, 2, 2, 2, 6)


def test_correction_of_a_later_roll_has_hold_buttons(make_app) -> None:
    app = make_app()
    start(app)
    roll(app, (1, 2, 3, 4, 5))
    tap(app, "Fix the dice")
    texts = shot(app)
    assert texts.count("Rolled") == 5
    tap(app, "Rolled")
    assert "Held" in shot(app)


@pytest.mark.parametrize("size", SIZES)
def test_end(make_app, size) -> None:
    app = make_app(size)
    start(app, "Kości (poker dice)")
    session = app.session
    while not session.finished:
        roll(app, (5, 5, 5, 5, 5))
        session.choose_best()
    app.step()
    assert app.screen.name == "end"
    texts = shot(app)
    assert {"Game over", "1.", "Score over the turns", "New game", "Home"} <= set(texts)
    assert any(d.kind == "chart" for d in app.canvas.log)


def test_history_and_statistics(make_app) -> None:
    app = make_app()
    gid = app.journal.start_game("yahtzee", {}, ["Ala", "Ola"])
    app.journal.finish(gid, (230, 180), (1, 2))
    tap(app, "History")
    texts = shot(app)
    assert "Ala: 230, Ola: 180" in texts  # "name: score": a name may end in a number (Player 1)
    tap(app, "Statistics")
    texts = shot(app)
    assert {"Ala", "Ola", "230", "180.0"} <= set(texts)


def test_settings_need_the_pin(make_app) -> None:
    app = make_app()
    tap(app, "Settings")
    texts = shot(app)
    assert "Owner PIN" in texts and "Language" not in texts
    for d in "1234":
        tap(app, d)
    tap(app, "OK")
    assert "Wrong PIN" in shot(app)
    for d in "0000":
        tap(app, d)
    tap(app, "OK")
    texts = shot(app)
    assert {"Language", "Move timer", "Rule preset", "Camera", "Seats", "Off"} <= set(texts)
    tap(app, "+", nth=0)  # the move timer of the first game: off -> 30 s
    assert "30 s" in shot(app)
    screen = app.screens["settings"]
    first = screen.game
    assert app.settings.timer_seconds(first) == 30
    games = [game for game, _, _ in screen.games()]
    assert {"kalooki", "zatre", "yahtzee", "poker_dice"} <= set(games)
    seen: set[str] = set()
    for _ in games:  # every game shows its own presets, and only those
        game = screen.game
        presets = rules.get_game(game).options_type.preset_names()
        shown = labels(app)
        for words, preset in (("House rules", "seed"), ("Official rules", "official")):
            assert (words in shown) == (preset in presets), (game, presets, shown)
        if game not in seen:  # a variant (Triple Generał) shares its game's settings
            assert app.settings.preset(game) == "seed"
        seen.add(game)
        if "official" in presets:
            tap(app, "Official rules")
            assert app.settings.preset(game) == "official"
            assert app.settings.game_options(game) == rules.get_game(game).options_type.preset("official")
        tap(app, screen.game_title)  # the next game
    assert screen.game == first
    assert app.settings.preset("kalooki") == "seed" and app.settings.preset("zatre") == "seed"
    app.settings.presets["kalooki"] = "official"  # saved by an older version: Kalooki has no such preset
    assert app.settings.preset("kalooki") == "seed"
    assert app.settings.timer_seconds(first) == 30


def test_failsafe_shows_the_error_and_keeps_running(make_app) -> None:
    app = make_app()
    start(app)

    def broken() -> None:
        raise RuntimeError("sensor on fire")

    app.screen.draw = lambda canvas: broken()
    app.step()
    assert app.screen.name == "failsafe"
    texts = shot(app)
    assert "Something went wrong" in texts and any("sensor on fire" in t for t in texts)
    del app.screens["dice_table"].draw
    tap(app, "Continue")
    assert app.screen.name == "dice_table" and app.session is not None


def test_a_game_that_cannot_be_resumed_can_be_put_aside(tmp_path, make_app) -> None:
    from device.journal import Journal
    from tests.device.conftest import make_config

    config = make_config(tmp_path)
    journal = Journal.open(config.device.journal_path)
    journal.start_game("yahtzee", {"players": 9, "seed": 1}, ["A"])  # written by a broken version
    journal.close()
    app = make_app(config=config)
    assert app.screen.name == "failsafe"
    assert any("players" in t for t in shot(app))
    tap(app, "Put the game aside")
    assert app.screen.name == "home" and app.journal.unfinished() is None


def test_home_says_when_the_journal_file_was_refused(tmp_path, make_app) -> None:
    from tests.device.conftest import make_config

    config = make_config(tmp_path)
    config.device.journal_path.write_text("not a database", encoding="utf-8")
    app = make_app(config=config)
    texts = " ".join(shot(app))
    assert "refused (not an SQLite database)" in texts and "journal.sqlite3.refused-" in texts
    tap(app, "PL")
    assert "Plik dziennika odrzucono" in " ".join(shot(app))


def test_every_screen_is_covered() -> None:
    covered = {"home", "players", "dice_table", "correction", "end", "history", "settings", "failsafe"}
    covered |= {"zatre_table", "kalooki_table"}  # tests/device/test_zatre_table.py, test_kalooki_table.py
    covered |= {"rummikub_table"}  # tests/device/test_rummikub_table.py
    covered |= {"rummikub_review"}  # tests/device/test_rummikub_coach.py
    covered |= {"rummikub_puzzle", "rummikub_puzzle_answer"}  # tests/device/test_rummikub_puzzle.py
    covered |= {"voice_settings"}  # tests/device/test_voice.py
    covered |= {"zatre_deck"}  # tests/device/test_zatre_deck_count.py
    assert set(SCREENS) == covered


def _sheet_texts(app):
    """The texts drawn in the sheet (right of the camera panel, below the tabs)."""
    return [d for d in app.canvas.log if d.kind == "text" and d.rect[0] >= 320 and d.rect[1] >= 124]


@pytest.mark.parametrize(
    ("game", "players"), [("Generał (classic)", 2), ("Triple Generał", 2), ("Kości (poker dice)", 4)]
)
def test_score_sheets_are_readable_from_a_metre_and_paged_not_shrunk(make_app, game, players) -> None:
    app = make_app()
    tap(app, game)
    for _ in range(players - 2):
        tap(app, "+")
    tap(app, "Start")
    roll(app, (3, 3, 3, 5, 6))
    tap(app, "Sheets")
    readable = pygame.font.Font(None, 22).get_height()  # the height of 22 px text at 800×480
    seen_names: set[str] = set()
    pages = [t for t in labels(app) if t.startswith("Page 1 of ")]
    count = int(pages[0].rsplit(" ", 1)[1]) if pages else 1
    for _ in range(count):
        texts = _sheet_texts(app)
        assert texts and all(d.rect[3] >= readable for d in texts), [d for d in texts if d.rect[3] < readable]
        seen_names |= {d.text for d in texts}
        if "×" in game or "Triple" in game:
            assert {"×1", "×2", "×3"} <= {d.text for d in texts}
        if count > 1:
            tap(app, next(t for t in labels(app) if t.startswith("Page ")))
    assert {p.name for p in app.session.players} <= seen_names
    assert {"Ones", "Total"} <= seen_names and any(t.startswith("Chance") for t in seen_names)


def _settings(app) -> None:
    tap(app, "Menu")
    for digit in "0000":
        tap(app, digit)
    tap(app, "OK")


def test_leave_game_asks_first(make_app) -> None:
    app = make_app()
    tap(app, "Generał (classic)")
    tap(app, "Start")
    _settings(app)
    assert {"House rules", "Official rules"} <= set(labels(app))
    assert "seed" not in labels(app) and "synthetic" not in labels(app)
    tap(app, "Leave game")
    assert app.session is not None and "Leave this game?" in app.canvas.texts()
    tap(app, "Keep playing")
    assert app.session is not None and not app.session.finished
    tap(app, "Leave game")
    tap(app, "Leave game")
    assert app.session is None and app.screen.name == "home"


def test_history_and_statistics_keep_classic_and_triple_apart(make_app) -> None:
    app = make_app()
    for variant in ("classic", "triple"):
        gid = app.journal.start_game("yahtzee", {"variant": variant, "players": 1}, ["Ala"])
        app.journal.finish(gid, (100,), (1,))
    stats = app.journal.statistics()
    assert sorted(s.game for s in stats) == ["yahtzee:classic", "yahtzee:triple"]
    tap(app, "History")
    assert {"Generał (classic)", "Triple Generał"} <= set(app.canvas.texts())


def test_a_game_left_stays_in_the_history_marked_left_with_its_scores_so_far(make_app) -> None:
    """Issue 36, item 1: *Leave game* says the game stays in the history; it does, marked left, with
    the scores so far; it is not counted in the statistics and never resumed."""
    app = make_app()
    start(app, "Generał (classic)")
    session = app.session
    assert session is not None
    roll(app, (6, 6, 6, 2, 3))
    pick_box(session, "sixes")
    press(app, session.current_seat)
    assert session.state.sheets[0].total() == 18
    _settings(app)
    tap(app, "Leave game")
    assert "It stays in the history but cannot be resumed." in app.canvas.texts()
    tap(app, "Leave game")
    assert app.session is None and app.journal.unfinished() is None
    tap(app, "History")
    texts = shot(app)
    assert "left: Player 1: 18, Player 2: 0" in texts and "Generał (classic)" in texts
    tap(app, "Statistics")
    assert "Player 1" not in shot(app)


def test_a_game_left_before_its_first_move_is_not_history(make_app) -> None:
    app = make_app()
    start(app, "Generał (classic)")
    app.end_session()
    assert app.journal.history() == []
    tap(app, "History")
    assert "No finished games yet." in shot(app)


def test_the_chart_labels_its_start_0_and_its_last_point_n() -> None:
    """Issue 36, item 8: N totals are N + 1 points (the start at 0, then each turn): the x-axis says 0
    at the start and N at the last point, not 1 at the start."""
    from device.ui.canvas import Canvas
    from device.ui.widgets import line_chart

    pygame.display.init()
    canvas = Canvas(pygame.Surface((800, 480)))
    canvas.begin()
    rect = pygame.Rect(100, 100, 400, 240)
    line_chart(canvas, rect, [[5, 10, 20], [3, 4]], [(255, 0, 0), (0, 0, 255)], caption="chart")
    axis_h = canvas.px(26)
    bottom = [d for d in canvas.log if d.kind == "text" and d.rect[1] >= rect.bottom - axis_h]
    assert [d.text for d in sorted(bottom, key=lambda d: d.rect[0])] == ["0", "3"]


@pytest.mark.parametrize(
    ("game", "caption"),
    [
        ("yahtzee", "Score over the turns"),
        ("poker_dice", "Score over the turns"),
        ("zatre", "Score over the turns"),
        ("kalooki", "Penalty points over the deals"),
        ("rummikub", "Score over the hands"),
    ],
)
def test_the_chart_says_what_its_points_are(game: str, caption: str) -> None:
    """Issue 36, item 8: not "over the turns" for Kalooki's deals and Rummikub's hands; translated."""
    from device.i18n import load_catalogue
    from device.session import SESSIONS

    assert SESSIONS[game].progress_caption == caption
    for language in ("pl", "hu", "de"):
        assert load_catalogue(language).lookup("", caption), (language, caption)


@pytest.mark.parametrize("finish", ["Done", "enter", "back"])
def test_a_blank_name_is_the_seats_default_name_again(make_app, finish: str) -> None:
    """Issue 36, item 16: a name typed blank (or only spaces) is not an empty button: the seat's
    default name comes back, the one the game then uses; spaces around a name are dropped."""
    from device.events import Key

    app = make_app()
    tap(app, "Generał (classic)")
    tap(app, "Player 1")
    tap(app, "Space")
    tap(app, "Space")
    if finish == "Done":
        tap(app, "Done")
    elif finish == "enter":
        app.post(Key(pygame.K_RETURN, "\r", down=True))
        app.step()
    else:
        app.screen.back()
        app.step()
    assert app.screen.name == "players"
    assert "Player 1" in labels(app) and "" not in labels(app) and "  " not in labels(app)
    tap(app, "Player 2")
    for key in ("Space", "O", "L", "A", "Space"):
        tap(app, key)
    tap(app, "Done")
    assert "Ola" in labels(app)
    tap(app, "Start")
    assert app.session is not None and [p.name for p in app.session.players] == ["Player 1", "Ola"]


@pytest.mark.parametrize("language", ["pl", "hu", "de", "en"])
def test_one_name_per_game_and_variant_on_every_screen(make_app, language: str) -> None:
    """Issue 36, item 9: home, the players screen, the settings (the triple variant listed too), the
    history and the export name a game and variant the same (``GameSpec.title``), in each language."""
    from device.export import title as export_title
    from device.journal import StoredGame
    from device.screens.home import game_entries

    app = make_app()
    app.set_language(language)
    app.step()
    entries = game_entries(language)
    assert ("yahtzee", "triple", rules.get_game("yahtzee").title(language, "triple")) in entries
    home = set(labels(app))
    for game, variant, title in entries:
        assert title == rules.get_game(game).title(language, variant)
        assert title in home
        tap(app, title)
        assert app.screen.name == "players" and title in app.canvas.texts()
        app.screen.back()
        app.step()
    # The settings list the same entries by the same names, the triple variant too.
    app.show("settings")
    screen = app.screens["settings"]
    screen.unlocked = True
    shown = []
    for _ in entries:
        app.step()
        shown.append(screen.game_title)
        assert screen.game_title in labels(app)
        screen.next_game()
    assert sorted(shown) == sorted(title for _, _, title in entries)
    # The history and the export.
    history = app.screens["history"]
    for game, variant, title in entries:
        key = f"{game}:{variant}" if variant else game
        assert history.title(key) == title
        stored = StoredGame(
            1, game, {"variant": variant} if variant else {}, ("A",), 0.0, 1.0, (1,), (1,), False
        )
        assert export_title(stored) == rules.get_game(game).title("en", variant)
    assert history.title("yahtzee") == rules.get_game("yahtzee").title(language, "classic")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("kosci", ("poker_dice", None)),
        ("Kości", ("poker_dice", None)),
        ("KOŚCI (POKER DICE)", ("poker_dice", None)),
        ("Kości (pókerkocka)", ("poker_dice", None)),
        ("Rummikub", ("rummikub", None)),
        ("RUMMIKUB", ("rummikub", None)),
        ("poker_dice", ("poker_dice", None)),
        ("Poker Dice", ("poker_dice", None)),
        ("yahtzee:triple", ("yahtzee", "triple")),
        ("Triple Generał", ("yahtzee", "triple")),
        ("triple general", ("yahtzee", "triple")),
        ("Generał potrójny", ("yahtzee", "triple")),
        ("Generał (classic)", ("yahtzee", "classic")),
        ("Generał", ("yahtzee", None)),
        ("Zatre – the card game", ("zatre", None)),
        ("zatre", ("zatre", None)),
        ("Kalooki-Rommé", ("kalooki", None)),
    ],
)
def test_the_command_line_takes_any_case_and_the_names_the_screens_show(text: str, found) -> None:
    assert rules.find_game(text) == found


def test_an_unknown_game_name_lists_the_names() -> None:
    with pytest.raises(KeyError, match="Triple Generał"):
        rules.find_game("chess")


@pytest.mark.parametrize("name", ["Rummikub", "kosci", "Kości", "Triple Generał", "ZATRE", "yahtzee:triple"])
def test_referee_play_takes_the_names(name: str, capsys) -> None:
    from device.cli import main

    assert main(["play", name, "--auto", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    if "triple" in name.lower():
        assert out.startswith("Triple Generał")


def test_coach_and_autoplay_take_the_same_names() -> None:
    from device.cli import _autoplay_game
    from device.commands.coach import _game

    assert _game("Kości") == _game("kosci") == _game("POKER_DICE") == "poker_dice"
    assert _game("Triple Generał") == "yahtzee-triple" and _game("Generał (classic)") == "yahtzee"
    assert _autoplay_game("Triple Generał") == "yahtzee:triple" and _autoplay_game("Kości") == "poker_dice"
    assert _autoplay_game("RUMMIKUB") == "rummikub"


def test_misreads_tab_lists_corrected_readings_most_frequent_first(make_app) -> None:
    """Issue 32: the readings the players corrected are counted where the owner looks (History ->
    Misreads): what the camera read, what was entered, how often, how often it had been sure."""
    from device.journal import ReadingFix

    app = make_app()
    tap(app, "History")
    tap(app, "Misreads")
    assert "The players have corrected no reading yet." in shot(app)
    app = make_app()
    gid = app.journal.start_game("rummikub", {}, ["Ala", "Ola"])
    app.journal.append(
        gid,
        1,
        {"kind": "demo"},
        corrections=[
            ReadingFix(0, "tile", "R6", "R9", 0.97, True),
            ReadingFix(1, "tile", "K7", "K7", 0.31, False),  # an unsure reading confirmed: no misread
        ],
    )
    app.journal.append(
        gid,
        2,
        {"kind": "demo"},
        corrections=[
            ReadingFix(2, "tile", "R6", "R9", 0.4, False),
            ReadingFix(0, "die", "4", "5", None, True),
        ],
    )
    tap(app, "History")
    tap(app, "Misreads")
    texts = shot(app)
    assert {"Tile", "R6", "R9", "2", "1", "Die", "4", "5"} <= set(texts)
    assert "K7" not in texts
    assert texts.index("R6") < texts.index("Die")  # most frequent first
