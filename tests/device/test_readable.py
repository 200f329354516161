"""Readable from every seat (issue 36, item 18): every screen of every game, walked at 800×480 with
four players and long names, in each language, is checked through its render log — anything a player
must read at least ``MIN_TEXT`` (18) px as drawn (after shrinking to fit), a player's name and a score
at least ``NAME_TEXT`` (24) px, every touch target at least ``MIN_TARGET`` (48) px and ``EDGE`` (8) px
from the edge of the screen. The games are played by their simulated players, frame by frame."""

from __future__ import annotations

import random
from collections import Counter

import pygame
import pytest

import rules
from device.app import App
from device.coach_tables import save_table, table_path
from device.i18n import LANGUAGES
from device.sessions.dice_events import DiceSeen, SeenDie
from device.sessions.simulated import table_for
from device.simulator import Simulator
from device.ui.canvas import EDGE, MIN_TARGET, MIN_TEXT, NAME_TEXT
from rules.poker_dice.solver import KosciModel
from tests.device.conftest import make_config
from tests.device.helpers import tap

NAMES = ["Maximilian", "Katarzyna", "Bartholomew", "Zsuzsanna"]  # four long names
GAMES = ["yahtzee", "yahtzee:triple", "poker_dice", "rummikub", "kalooki", "zatre", "zatre:full"]


def problems(app: App, names: set[str]) -> list[str]:
    """What is too small or too near the edge on the frame just drawn."""
    canvas = app.canvas
    where = f"{app.screen.name}/{getattr(app.session, 'phase', '')}"
    found = []
    for d in canvas.log:
        if d.kind != "text" or not d.text.strip():
            continue
        least = NAME_TEXT if d.text in names or d.role in ("name", "score") else MIN_TEXT
        if d.size < least:
            found.append(f"{where}: {d.text!r} {d.size} px < {least}")
        if d.cut and d.role != "name":
            found.append(f"{where}: {d.text!r} cut to fit at {d.size} px")
    for d in canvas.log:
        if not canvas.rect.contains(pygame.Rect(d.rect)):
            found.append(f"{where}: {d.kind} {d.text!r} {d.rect} off the screen")
    inside = canvas.rect.inflate(-2 * canvas.px(EDGE), -2 * canvas.px(EDGE))
    for t in canvas.targets:
        if t.rect.width < MIN_TARGET or t.rect.height < MIN_TARGET:
            found.append(f"{where}: target {t.label!r} {t.rect.size} < {MIN_TARGET}")
        if not inside.contains(t.rect):
            found.append(f"{where}: target {t.label!r} {tuple(t.rect)} nearer than {EDGE} px to the edge")
    return found


def check(app: App, found: set[str], names: set[str] = frozenset(NAMES)) -> None:  # type: ignore[assignment]
    app.step()
    found.update(problems(app, set(names)))


def other_views(app: App, found: set[str]) -> None:
    """The table screen's other views, page by page: the score sheets (dice, Zatre)."""
    screen = app.screen
    for attr, value, back in (("tab", "sheets", "choices"), ("view", "sheets", "board")):
        if getattr(screen, attr, None) != back:
            continue
        setattr(screen, attr, value)
        for page in range(4):
            screen.sheet_page = page  # type: ignore[attr-defined]
            check(app, found)
        setattr(screen, attr, back)
        screen.sheet_page = 0  # type: ignore[attr-defined]
        app.step()


def play(
    app: App, clock, game: str, frames: int, seen: Counter[str], found: set[str], players: int = 4
) -> None:
    """Start ``game`` with four (``players``) long-named players and let the simulated players play it."""
    name, _, variant = game.partition(":")
    sim = Simulator(app, seed=5, autoplay=game)
    rng = random.Random(5)
    spec = rules.get_game(name)
    variant = variant or next(iter(spec.variants), "")
    overrides = {"players": players, "seed": 5, **({spec.variant_field: variant} if variant else {})}
    kind = table_for(name)
    if kind is not None:
        overrides.update(kind.autoplay_options(name, rng))
    if name == "kalooki":
        overrides["deals"] = 1  # one deal shows every phase
    app.start_game(app.settings.game_options(name, **overrides), NAMES[:players])
    for frame in range(frames):
        app.step()
        seen[f"{app.screen.name}/{getattr(app.session, 'phase', '')}"] += 1
        found.update(problems(app, set(NAMES)))
        if app.screen.name == "end":
            break
        if frame % 97 == 0:
            other_views(app, found)
        sim.poll()
        clock.advance(0.1)


# Each game in two languages or all four (the dice games share their screens): every text of every
# screen in each language, at a cost the suite can carry.
WALKS = [
    ("yahtzee", "en"),
    ("yahtzee", "pl"),
    ("yahtzee:triple", "de"),
    ("yahtzee:triple", "hu"),
    ("poker_dice", "pl"),
    ("poker_dice", "de"),
    *((game, language) for game in ("rummikub", "kalooki", "zatre") for language in LANGUAGES),
    ("zatre:full", "en"),
    ("zatre:full", "pl"),
]
EXPECTED = {
    "yahtzee": {"dice_table/rolling", "dice_table/choosing"},
    "yahtzee:triple": {"dice_table/rolling", "dice_table/choosing"},
    "poker_dice": {"dice_table/rolling", "dice_table/choosing"},
    "rummikub": {f"rummikub_table/{p}" for p in ("start", "playing", "checking", "reveal", "hand_over")},
    "kalooki": {f"kalooki_table/{p}" for p in ("turn_up", "draw", "play", "reveal")},
    "zatre": {"zatre_table/laying", "zatre_table/checking"},  # referee mode: the camera reads the board
    "zatre:full": {"zatre_table/placing", "zatre_table/laying"},
}


@pytest.mark.parametrize(("game", "language"), WALKS)
def test_every_screen_of_the_game_is_readable_from_every_seat(make_app, clock, game, language) -> None:
    app = make_app()
    app.set_language(language)
    seen: Counter[str] = Counter()
    found: set[str] = set()
    play(app, clock, game, 3000, seen, found)
    assert EXPECTED[game] | {"end/over"} <= set(seen), sorted(seen)
    assert not found, "\n".join(sorted(found))


def tap_text(app: App, text: str, found: set[str]) -> None:
    """Tap the target named ``text`` (in the current language), then check the frame it leads to."""
    tap(app, app.tr.format(text) if text not in {t.label for t in app.canvas.targets} else text)
    check(app, found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_around_the_games_is_readable_from_every_seat(make_app, tmp_path, language) -> None:
    app = make_app(config=make_config(tmp_path, games={"yahtzee": {"timer_seconds": 30}}))
    app.set_language(language)
    found: set[str] = set()
    gid = app.journal.start_game("yahtzee", {"players": 4}, NAMES)
    app.journal.finish(gid, (231, 187, 305, 96), (2, 3, 1, 4))
    check(app, found)  # home
    tap_text(app, "History", found)
    tap_text(app, "Statistics", found)
    tap_text(app, "Back", found)
    game = next(t.label for t in app.canvas.targets if t.label.startswith("Genera"))
    tap_text(app, game, found)  # the players screen
    for _ in range(2):
        tap_text(app, "+", found)
    players = app.screen
    players.names[:4] = NAMES
    check(app, found)
    tap_text(app, NAMES[0], found)  # the on-screen keyboard
    players.stop_editing()
    tap_text(app, "Start", found)
    assert app.screen.name == "dice_table"
    texts = [d for d in app.canvas.log if d.text == app.tr.format("Roll the dice")]
    assert texts and all(d.kind == "text" for d in texts), texts  # a hint, not a button look-alike
    app.post(DiceSeen((SeenDie(4), SeenDie(None, uncertain=True), SeenDie(2), SeenDie(2), SeenDie(6))))
    check(app, found)
    assert app.screen.name == "correction"
    tap_text(app, "Cancel", found)
    tap_text(app, "Menu", found)  # the owner PIN
    for digit in "0000":
        tap(app, digit)
    tap_text(app, "OK", found)  # the settings, with a game on: pause and leave
    assert app.screen.name == "settings"
    tap_text(app, "Pause timer", found)
    tap_text(app, "Leave game", found)  # asks first
    tap_text(app, "Keep playing", found)
    app.failure = "RuntimeError: sensor on fire"
    app.show("failsafe")
    check(app, found)
    assert not found, "\n".join(sorted(found))


@pytest.mark.parametrize(
    ("mode", "players", "language"),
    [("hints", 4, "en"), ("hints", 4, "de"), ("solo", 1, "pl"), ("solo", 1, "hu")],
)
def test_the_coach_is_readable_from_every_seat(
    make_app, clock, tmp_path, full_table, mode, players, language
) -> None:
    """Kości with the coach: its hints beside the dice, its par and grades on the end screen."""
    save_table(full_table(KosciModel(), via_cli=True), table_path(tmp_path, KosciModel()))
    app = make_app()
    app.set_language(language)
    app.settings.set("coach", mode)
    seen: Counter[str] = Counter()
    found: set[str] = set()
    play(app, clock, "poker_dice", 3000, seen, found, players=players)
    assert "end/over" in seen
    assert not found, "\n".join(sorted(found))
