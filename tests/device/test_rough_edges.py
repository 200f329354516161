"""Rough edges a new user met (issue 36): a refusal that outlives the value it refused, counted texts
in their plural forms, a success drawn in the refusal red, dice labels over the hold zone's name,
Kalooki's joker."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pygame
import pytest

import device
import rules
from device.camera_view import CameraView, ViewItem, ViewZone
from device.i18n import PLURAL_RULES, Translator, load_catalogue
from device.screens.kalooki_cards import JOKER_FACE, JOKER_INK
from device.screens.zatre_table import ZatreTableScreen
from device.session import Refusal
from device.sessions.zatre_plan import choose_turn
from device.ui.camera_panel import CameraPanel
from device.ui.canvas import Canvas
from device.ui.names import refusal_text
from device.ui.theme import WARNING
from rules.kalooki import Card, parse_cards
from rules.zatre.board import Scoring
from tests.device.helpers import press
from tests.device.test_kalooki_table import button, refused, taps
from tests.device.test_kalooki_table import start as start_kalooki
from tests.device.test_zatre_table import lay_turn
from tests.device.test_zatre_table import start as start_zatre

SOURCE = Path(device.__file__).parent
COUNTED = re.compile(r'(?:nformat|ngettext)\(\s*"((?:[^"\\]|\\.)+)",\s*"((?:[^"\\]|\\.)+)"')


# --- 13: the number pad's refusal goes once other points are typed -----------------------------------


def test_the_pad_forgets_the_refusal_of_points_typed_over(make_app) -> None:
    app = make_app()
    session = start_kalooki(app)
    for act in (
        rules.kalooki.TurnUp(Card.parse("AS")),
        rules.kalooki.DrawStock(),
        rules.kalooki.LayDown(
            tuple(tuple(parse_cards(m)) for m in ("2H 3H 4H 5H 6H 7H 8H", "10S JS QS", "KD KC KH"))
        ),
        rules.kalooki.Discard(Card.parse("9C")),
    ):
        assert session.submit(act), session.refusal
    button(app, "Points")
    taps(app, "9 9 9")
    button(app, "Enter points")
    refused(app, "impossible_points")
    assert any("167" in t for t in app.canvas.texts())
    taps(app, "< < <", "1 2 0")  # a valid number now stands on the pad
    assert session.pad == "120"
    app.step()
    assert not any("167" in t for t in app.canvas.texts()), app.canvas.texts()
    assert session.refusal is None
    press(app, 1)
    assert session.history[-1] == rules.kalooki.HandPoints(1, 120)


# --- 15: plural forms through gettext; a score is not a refusal ---------------------------------------


def test_counted_texts_take_the_languages_plural_forms() -> None:
    pl, de, en = Translator("pl"), Translator("de"), Translator("en")
    forms = [pl.nformat("Pool {n} tile", "Pool {n} tiles", n) for n in (1, 2, 5, 12, 22, 25)]
    assert forms == [
        "W puli 1 płytka",
        "W puli 2 płytki",
        "W puli 5 płytek",
        "W puli 12 płytek",
        "W puli 22 płytki",
        "W puli 25 płytek",
    ]
    assert [de.nformat("+{n} tile more", "+{n} tiles more", n) for n in (1, 3)] == [
        "+1 weiterer Stein",
        "+3 weitere Steine",
    ]
    assert en.nformat("Row {rows}: {n} point", "Row {rows}: {n} points", 1, rows="10") == "Row 10: 1 point"


@pytest.mark.parametrize("language", ["pl", "hu", "de"])
def test_every_counted_text_has_all_its_forms(language: str) -> None:
    catalogue = load_catalogue(language)
    header = PLURAL_RULES[language][0]
    nplurals = int(header.split(";")[0].split("=")[1])
    calls = {m for path in SOURCE.rglob("*.py") for m in COUNTED.findall(path.read_text(encoding="utf-8"))}
    assert ("Pool {n} tile", "Pool {n} tiles") in calls
    for msgid, plural in calls:
        entry = catalogue.plurals.get(("", msgid))
        assert entry is not None, (language, msgid)
        assert entry[0] == plural and len(entry[1]) == nplurals and all(entry[1]), (language, msgid)
        wanted = set(re.findall(r"{\w+}", msgid))
        assert all(set(re.findall(r"{\w+}", f)) == wanted for f in entry[1]), (language, entry)
    rule = catalogue.plurals[("rule", "wrong_card_count")]
    assert len(rule[1]) == nplurals and all("{wanted}" in f for f in rule[1])


def test_zatre_texts_count_rows_points_and_cards(make_app) -> None:
    app = make_app()
    start_zatre(app)
    screen = app.screen
    assert isinstance(screen, ZatreTableScreen)
    assert screen.scoring_text(Scoring((10,), (1,))) == "Row 10: 1 point"
    assert screen.scoring_text(Scoring((12, 10), (5, 1))) == "Rows 12 + 10: 6 points"
    refusal = Refusal("wrong_card_count", "this turn lays 2 cards, not 1", {"wanted": 2, "laid": 1}, 0.0)
    assert refusal_text(app.tr, refusal) == "This turn lays 2 cards."
    one = Refusal("wrong_card_count", "this turn lays 1 card, not 2", {"wanted": 1, "laid": 2}, 0.0)
    assert refusal_text(app.tr, one) == "This turn lays 1 card."
    app.set_language("pl")
    assert screen.scoring_text(Scoring((12, 10), (5, 1))) == "Rzędy 12 + 10: 6 punktów"
    assert screen.scoring_text(Scoring((11,), (3,))) == "Rząd 11: 3 punkty"
    assert refusal_text(app.tr, refusal) == "W tym ruchu kładzie się 2 karty."


def test_a_score_is_not_drawn_in_the_refusal_red(make_app) -> None:
    app = make_app()
    session = start_zatre(app)
    rng = random.Random(3)
    lay_turn(app, choose_turn(session.zatre, rng))
    app.step()
    line = next(d for d in app.canvas.log if d.kind == "text" and "scored" in d.text)
    pixels = pygame.PixelArray(app.canvas.surface.subsurface(pygame.Rect(line.rect)).copy())
    colours = {app.canvas.surface.unmap_rgb(p)[:3] for row in pixels for p in row}  # type: ignore[attr-defined]  # pygame's stubs: PixelArray has no __iter__
    assert WARNING not in colours, line


# --- 14: the dice's readings keep off the hold zone's name, and out of the zone when the die is ------


def test_dice_readings_keep_off_the_zone_name_and_out_of_the_zone() -> None:
    pygame.display.init()
    canvas = Canvas(pygame.Surface((800, 480)))
    canvas.begin()
    hold = ViewZone("hold", ((880.0, 40.0), (1260.0, 40.0), (1260.0, 680.0), (880.0, 680.0)))
    items = (
        ViewItem("5", (1000.0, 200.0), 76.0, zone="hold"),  # held, near the zone's top left corner
        ViewItem("3", (840.0, 360.0), 76.0),  # lying just left of the zone, not in it
        ViewItem("2", (500.0, 300.0), 76.0),
    )
    view = CameraView(np.zeros((72, 128, 3), dtype=np.uint8), (1280, 720), items, (hold,), "settled", 1)
    CameraPanel("seen_die").draw(
        canvas,
        pygame.Rect(8, 64, 304, 171),
        view,
        no_camera="",
        camera_label="camera",
        zone_labels={"hold": "Hold zone"},
    )
    (name,) = [pygame.Rect(d.rect) for d in canvas.log if d.kind == "text" and d.text == "Hold zone"]
    (zone,) = [pygame.Rect(d.rect) for d in canvas.log if d.kind == "hold_zone"]
    tags = {d.text: pygame.Rect(d.rect) for d in canvas.log if d.kind == "reading"}
    assert set(tags) == {"5", "3", "2"}
    assert all(not tag.colliderect(name) for tag in tags.values()), (name, tags)
    assert not tags["3"].colliderect(zone), (zone, tags["3"])  # a die outside: its reading outside
    assert zone.contains(tags["5"]) or tags["5"].colliderect(zone)


# --- 20: a joker no one takes for a jack ------------------------------------------------------------


def test_the_joker_is_no_jack_on_the_kalooki_table(make_app) -> None:
    app = make_app()
    session = start_kalooki(app)
    for act in (
        rules.kalooki.TurnUp(Card.parse("AS")),
        rules.kalooki.DrawStock(),
        rules.kalooki.LayDown(
            tuple(tuple(parse_cards(m)) for m in ("9S 10S JS JOKER", "2H 3H 4H 5H", "KD KC KH"))
        ),
    ):
        assert session.submit(act), session.refusal
    app.step()
    surface = app.canvas.surface
    cards = [d for d in app.canvas.log if d.kind == "card"]
    jokers = [pygame.Rect(d.rect) for d in cards if d.text == "JOKER"]
    jack = next(pygame.Rect(d.rect) for d in cards if d.text == "JS")
    assert jokers, [d.text for d in cards]
    for rect in jokers:
        # No letter on it at all: nothing a player reads as the J of a jack.
        letters = [d.text for d in app.canvas.log if d.kind == "text" and rect.contains(pygame.Rect(d.rect))]
        assert letters == [], letters
        stars = [d for d in app.canvas.log if d.kind == "joker_star" and rect.contains(pygame.Rect(d.rect))]
        assert stars, rect
        face = surface.get_at((rect.left + 3, rect.bottom - 4))[:3]
        assert face == JOKER_FACE, face  # a face of its own colour
        assert surface.get_at(pygame.Rect(stars[0].rect).center)[:3] == JOKER_INK  # the star drawn
    assert surface.get_at((jack.left + 3, jack.bottom - 4))[:3] != JOKER_FACE
