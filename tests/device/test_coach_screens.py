"""The coach on the device: the owner's setting, hints on the dice screen, solo, the end screen's grade."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from device.app import App
from device.coach import Coaching
from device.coach_tables import save_table, table_path
from device.screens.coach_panel import coaching_of
from rules.coach.table import Table
from rules.poker_dice.game import PokerDiceOptions
from rules.poker_dice.solver import KosciModel
from tests.device.helpers import check_layout, labels, roll, tap

SHOTS = Path(__file__).resolve().parents[2] / ".pytest_cache" / "coach-shots"


def shot(app: App, name: str = "") -> list[str]:
    app.step()
    check_layout(app)
    if name:
        SHOTS.mkdir(parents=True, exist_ok=True)
        pygame.image.save(app.canvas.surface, str(SHOTS / f"{name}.png"))
    return app.canvas.texts()


@pytest.fixture
def coached(make_app, tmp_path: Path, full_table: Callable[..., Table]) -> Callable[..., App]:
    """An app whose state directory holds the Kości table, with the coach in ``mode``."""
    save_table(full_table(KosciModel(), via_cli=True), table_path(tmp_path, KosciModel()))

    def build(mode: str, players: list[str]) -> App:
        app = make_app()
        app.settings.set("coach", mode)
        app.start_game(PokerDiceOptions(players=len(players)), players)
        return app

    return build


def test_hints_mark_the_best_hold_then_the_loss(coached) -> None:
    app = coached("hints", ["Ala", "Ola"])
    roll(app, (6, 6, 2, 3, 6))
    texts = " ".join(shot(app, "hints-hold"))
    assert "Coach: Hold 6 6 6" in texts
    marks = [d.text for d in app.canvas.log if d.kind == "coach_hold"]
    assert marks == ["6", "6", "6"]
    roll(app, (6, 6, 1, 1, 6), held=(0, 1))  # kept only two sixes: a mistake
    texts = " ".join(shot(app, "hints-after"))
    assert "Last choice −" in texts and "best: Hold 6 6 6" in texts
    coaching = coaching_of(app)
    assert isinstance(coaching, Coaching)
    last = coaching.last_decision(app.session)
    assert last is not None and last.made.kept == (6, 6) and last.loss > 0


def test_best_box_is_marked_after_the_last_roll(coached) -> None:
    app = coached("hints", ["Ala", "Ola"])
    roll(app, (1, 2, 3, 4, 5))
    roll(app, (1, 2, 3, 4, 5), held=(0, 1, 2, 3, 4))
    roll(app, (1, 2, 3, 4, 5), held=(0, 1, 2, 3, 4))
    shot(app, "hints-box")
    highlighted = [d.text for d in app.canvas.log if d.kind == "button" and getattr(d, "highlight", False)]
    assert "Coach: Small straight" in " ".join(app.canvas.texts()) or highlighted


def test_off_shows_nothing_and_grades_nothing(coached) -> None:
    app = coached("off", ["Ala", "Ola"])
    roll(app, (6, 6, 2, 3, 6))
    assert not any("Coach" in t for t in shot(app))
    session = app.session
    while not session.finished:
        roll(app, (5, 5, 5, 5, 5))
        session.choose_best()
    assert not any("per decision" in t for t in shot(app))


def test_solo_par_opponent_and_the_grade(coached) -> None:
    app = coached("solo", ["Ala"])
    texts = " ".join(shot(app, "solo-start"))
    assert "Par 274.5; the coach has 0 after 0 turns" in texts
    session = app.session
    while not session.finished:
        roll(app, (2, 3, 4, 5, 6))
        session.choose_best()
    app.step()
    assert app.screen.name == "end"
    texts = " ".join(shot(app, "solo-end"))
    assert "Par 274.5; the optimal opponent scored" in texts
    assert "Ala: " in texts and "lost per decision" in texts and "Worst, turn" in texts
    grade = coaching_of(app).grades(session)[0]  # type: ignore[union-attr]
    assert grade.decisions == 15 and grade.biggest is not None and grade.lost > 0


def test_missing_table_is_said_not_fatal(make_app) -> None:
    app = make_app()
    app.settings.set("coach", "hints")
    app.start_game(PokerDiceOptions(players=2), ["Ala", "Ola"])
    roll(app, (1, 2, 3, 4, 5))
    assert "Coach: no table yet (referee coach build)" in shot(app)


def test_the_owner_cycles_the_coach_mode(make_app) -> None:
    app = make_app()
    app.show("settings")
    screen = app.screen
    screen.unlocked = True
    while screen.game != "poker_dice":
        screen.next_game()
    assert "Coach: Off" in shot(app)
    game = screen.game
    tap(app, "Coach: Off")
    assert app.settings.coach_mode(game) == "hints" and app.journal.setting("coaches", {}) == {game: "hints"}
    tap(app, "Coach: Hints")
    tap(app, "Coach: Solo")
    assert app.settings.coach_mode(game) == "off"


def test_the_coach_is_set_per_game_and_shown_only_for_games_with_one(make_app) -> None:
    """Issue 36, item 10: hints for Generał are not hints for Kości, and Zatre, Kalooki and Rummikub,
    which have no dice coach, show no coach setting (Rummikub shows its learning table instead)."""
    app = make_app()
    app.show("settings")
    screen = app.screen
    screen.unlocked = True
    app.step()
    seen: dict[str, list[str]] = {}
    for _ in screen.games():
        if screen.game == "yahtzee" and app.settings.coach_mode("yahtzee") == "off":
            tap(app, "Coach: Off")  # hints for Generał
        seen[screen.game_title] = [t for t in labels(app) if t.startswith("Coach")]
        screen.next_game()
        app.step()
    assert app.settings.coach_mode("yahtzee") == "hints" and app.settings.coach_mode("poker_dice") == "off"
    assert seen["Generał (classic)"] == ["Coach: Hints"] and seen["Triple Generał"] == ["Coach: Hints"]
    assert seen["Kości (poker dice)"] == ["Coach: Off"]
    for title in ("Zatre – the card game", "Kalooki", "Rummikub"):
        assert seen[title] == [], (title, seen[title])
    assert not app.settings.has_coach("zatre") and app.settings.coach_mode("zatre") == "off"
    with pytest.raises(ValueError, match="no coach"):
        app.settings.set_coach("kalooki", "hints")


def test_an_older_journals_one_switch_is_the_default_of_each_dice_game(make_app) -> None:
    app = make_app()
    app.settings.set("coach", "solo")
    assert app.settings.coach_mode("poker_dice") == "solo" and app.settings.coach_mode("kalooki") == "off"
    app.settings.set_coach("poker_dice", "off")
    assert app.settings.coach_mode("poker_dice") == "off" and app.settings.coach_mode("yahtzee") == "solo"
