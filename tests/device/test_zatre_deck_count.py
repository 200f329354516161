"""The owner's Zatre deck count (issue 31, the deck learned from the box): the flow's states
(device/zatre_deck_flow.py), the screen reached from Settings walked in every language, the simulator's
box of cards, and the games dealt from the deck counted."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pygame
import pytest

from device.app import App
from device.camera_view import CameraView
from device.events import Key, Seen
from device.i18n import LANGUAGES
from device.screens.zatre_deck import ZatreDeckScreen
from device.sessions.zatre import ZatreSession
from device.simulator import Simulator
from device.vision_worker import Vision
from device.zatre_deck import MANIFEST_NAME, read_manifest, write_manifest
from device.zatre_deck_flow import DECK_READER, BatchRead, Complete, DeckCount, Laying, Refused
from device.zatre_deck_sim import SIMULATED_BOX
from rules.zatre import Card, deck_from_counts, default_deck
from tests.device.conftest import make_config
from tests.device.helpers import labels, tap
from tests.device.test_readable import problems
from vision.zatre import LooseCards, SeenCard

DECK = list(default_deck())


def seen(cards: list[Card], unsure: int = 0) -> LooseCards:
    """A reading of ``cards`` lying loose, the first ``unsure`` of them unreadable (a hand over them)."""
    found = []
    for i, card in enumerate(cards):
        x, y = 150.0 + 200 * (i % 6), 150.0 + 160 * (i // 6)
        corners = ((x - 60, y - 30), (x + 60, y - 30), (x + 60, y + 30), (x - 60, y + 30))
        hidden = i < unsure
        values = None if hidden else (card.key.first, card.key.second)
        found.append(
            SeenCard(values, (x, y), 120.0, corners, 0.0 if hidden else 1.0, "partly hidden" * hidden)
        )
    return LooseCards(tuple(found), tuple(range(unsure)))


def batches(size: int = 12) -> list[list[Card]]:
    return [DECK[i : i + size] for i in range(0, 50, size)]


# --- the flow's states -----------------------------------------------------------------------------------


def test_a_batch_read_is_added_and_not_counted_twice() -> None:
    count = DeckCount()
    assert isinstance(count.state, Laying) and count.state.batch is None
    first = seen(DECK[:12])
    count.seen(first)
    assert isinstance(count.state, BatchRead) and count.state.batch is first and count.total == 0
    count.add()
    assert count.total == 12 and isinstance(count.state, Laying) and count.state.added is first
    assert count.counts() == Counter(c.key for c in DECK[:12])
    count.seen(seen(DECK[:12]))  # the same cards read again (the table settled again): not a batch
    assert isinstance(count.state, Laying) and count.total == 12
    count.add()
    assert count.total == 12
    count.seen(seen([]))  # taken away
    assert isinstance(count.state, Laying) and count.state.added is None
    count.seen(seen(DECK[:12]))  # the same cards laid again after the table was cleared: a batch
    assert isinstance(count.state, BatchRead)
    halves = count.value_counts()
    assert sum(halves.values()) == 24 and halves[0] == sum(c.first == 0 for c in DECK[:12])


def test_a_batch_with_a_card_that_cannot_be_read_is_refused() -> None:
    count = DeckCount()
    count.seen(seen(DECK[:12], unsure=2))
    assert isinstance(count.state, BatchRead)
    count.add()
    assert isinstance(count.state, Refused) and count.state.why == "unreadable" and count.total == 0
    assert count.state.batch is not None and count.state.batch.uncertain == (0, 1)
    count.add()  # pressed again: refused again
    assert isinstance(count.state, Refused) and count.total == 0
    count.seen(seen(DECK[:12]))  # the hand taken away
    count.add()
    assert count.total == 12
    # Every transition made by the count's state machine, with its cause (device.states).
    assert [str(t) for t in count.machine.transitions] == [
        "Laying -> BatchRead (LooseCards)",
        "BatchRead -> Refused (AddBatch)",
        "Refused -> BatchRead (LooseCards)",
        "BatchRead -> Laying (AddBatch)",
    ]


def test_a_batch_that_makes_more_than_50_is_refused_and_50_completes() -> None:
    count = DeckCount()
    for batch in batches()[:4]:
        count.seen(seen(batch))
        count.add()
    assert count.total == 48
    count.seen(seen([*DECK[48:], Card(6, 6)]))  # a card of another box among the last two
    count.add()
    assert isinstance(count.state, Refused) and count.state.why == "too_many" and count.total == 48
    count.seen(seen(DECK[48:]))
    count.add()
    assert isinstance(count.state, Complete) and count.total == 50
    assert count.counts() == Counter(DECK)
    count.seen(seen(DECK[:3]))  # more cards once complete: no batch
    assert isinstance(count.state, Complete)


def test_undo_takes_the_last_batch_off_and_reads_the_table_again() -> None:
    count = DeckCount()
    count.undo()
    assert isinstance(count.state, Laying) and count.total == 0
    for batch in batches()[:2]:
        count.seen(seen(batch))
        count.add()
    count.undo()  # the second batch still lies there: shown as read, to add again
    assert count.total == 12 and isinstance(count.state, BatchRead)
    count.add()
    assert count.total == 24
    count.seen(seen([]))
    count.undo()  # the table is empty: lay it again
    assert count.total == 12 and isinstance(count.state, Laying) and count.state.undone


def test_save_writes_the_manifest_only_when_complete(tmp_path: Path) -> None:
    count = DeckCount()
    assert count.save(tmp_path / "deck.json", "x") is None and not (tmp_path / "deck.json").exists()
    for batch in batches(10):
        count.seen(seen(batch))
        count.add()
    assert isinstance(count.state, Complete)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert count.save(blocked / "deck.json", "x") is None  # cannot be written: said so, the count kept
    assert isinstance(count.state, Complete) and "deck.json" in count.state.error and count.total == 50
    manifest = count.save(tmp_path / "deck.json", "counted")
    assert manifest is not None and isinstance(count.state, Complete) and count.state.saved == manifest
    assert read_manifest(tmp_path / "deck.json").counts == Counter(DECK)


# --- the screen ----------------------------------------------------------------------------------------


def open_count(app: App) -> ZatreDeckScreen:
    """Home → Settings (PIN) → the game row on Zatre → Count the deck…"""
    tap(app, app.tr.format("Settings"))
    for digit in "0000":
        tap(app, digit)
    tap(app, "OK")
    for _ in range(12):
        if app.tr.format("Count the deck…") in labels(app):
            break
        screen = app.screen
        screen.next_game()  # type: ignore[attr-defined]
        app.step()
    tap(app, app.tr.format("Count the deck…"))
    assert app.screen.name == "zatre_deck"
    screen = app.screen
    assert isinstance(screen, ZatreDeckScreen)
    return screen


def show(app: App, reading: LooseCards, found: set[str]) -> None:
    app.post(Seen(reading))
    app.step()
    found.update(problems(app, set()))


class StillView:
    """A camera whose view is one grey frame (the preview the screen outlines the cards on)."""

    def view(self) -> CameraView:
        return CameraView(np.full((270, 480, 3), 90, np.uint8), (1280, 720), (), (), "settled", 1)

    def request(self, frames: int = 1) -> None:
        pass


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_count_walked_on_the_screen(make_app, tmp_path: Path, language: str) -> None:
    app = make_app()
    app.camera = StillView()
    app.set_language(language)
    found: set[str] = set()
    screen = open_count(app)
    _ = app.tr.format
    found.update(problems(app, set()))
    assert _("Counted: {n} of {total}", n=0, total=50) in app.canvas.texts()
    assert _("New games use the assumed deck (not counted)") in " ".join(app.canvas.texts())
    assert _("Add batch") not in labels(app)  # nothing to add yet
    # A batch with a hand over a card: shown, refused on Add, the card outlined.
    show(app, seen(DECK[:12], unsure=1), found)
    cards = [d for d in app.canvas.log if d.kind == "deck_card"]
    assert [d.text for d in cards].count("?") == 1 and len(cards) == 12  # each card outlined, one unsure
    tap(app, _("Add batch"))
    found.update(problems(app, set()))
    assert isinstance(screen.count.state, Refused) and screen.count.total == 0
    refused = "Refused: cards that cannot be read (outlined): {n}. Nothing was counted."
    assert _(refused, n=1) in " ".join(app.canvas.texts())
    # The hand taken away: added; the counts per card shown.
    show(app, seen(DECK[:12]), found)
    assert "0|6=0+2" in [d.text for d in app.canvas.log if d.kind == "deck_count"]
    tap(app, _("Add batch"))
    assert screen.count.total == 12
    assert "0|6=2+0" in [d.text for d in app.canvas.log if d.kind == "deck_count"]
    assert _("Counted: {n} of {total}", n=12, total=50) in app.canvas.texts()
    tap(app, _("Undo last batch"))
    assert screen.count.total == 0
    tap(app, _("Add batch"))
    for batch in batches()[1:4]:
        show(app, seen([]), found)
        show(app, seen(batch), found)
        tap(app, _("Add batch"))
    assert screen.count.total == 48
    show(app, seen([*DECK[48:], Card(3, 3)]), found)  # 51: refused
    tap(app, _("Add batch"))
    found.update(problems(app, set()))
    assert isinstance(screen.count.state, Refused) and screen.count.state.why == "too_many"
    assert _("Save") not in labels(app)
    show(app, seen(DECK[48:]), found)
    tap(app, _("Add batch"))
    assert isinstance(screen.count.state, Complete)
    tap(app, _("Save"))
    found.update(problems(app, set()))
    path = tmp_path / MANIFEST_NAME
    assert read_manifest(path).counts == Counter(DECK)
    assert app.settings.zatre_deck_manifest == str(path)
    assert app.journal.setting("zatre_deck_manifest") == str(path)
    assert _("New games use the counted deck ({file})", file=MANIFEST_NAME) in " ".join(app.canvas.texts())
    tap(app, _("Done"))
    assert app.screen.name == "settings"
    assert not found, "\n".join(sorted(found))


def test_back_keeps_the_count_and_nothing_is_written_before_save(make_app, tmp_path: Path) -> None:
    app = make_app()
    screen = open_count(app)
    show(app, seen(DECK[:12]), set())
    tap(app, "Add batch")
    tap(app, "Back")
    assert app.screen.name == "settings"
    assert not (tmp_path / MANIFEST_NAME).exists() and app.settings.zatre_deck().source == "assumed"
    app.post(Seen(seen(DECK[12:24])))  # a reading while the count does not show: not the count's
    app.step()
    tap(app, "Count the deck…")
    assert app.screen is screen and screen.count.total == 12 and isinstance(screen.count.state, Laying)


def test_no_count_during_a_game(make_app) -> None:
    app = make_app()
    tap(app, "Zatre – the card game")
    tap(app, "Start")
    tap(app, "Menu")
    for digit in "0000":
        tap(app, digit)
    tap(app, "OK")
    assert "Count the deck…" not in labels(app)
    assert "Count the deck: between games" in app.canvas.texts()
    app.show("zatre_deck")
    app.post(Seen(seen(DECK[:12])))
    app.step()
    assert "Add batch" not in labels(app)
    assert "Finish or leave the game first: the camera reads its table." in " ".join(app.canvas.texts())


class StillCamera:
    """A camera that has no frame yet: enough to see which reader the vision worker is given."""

    def latest(self) -> tuple[np.ndarray, int] | None:
        return None


def test_the_camera_reads_loose_cards_while_the_count_shows(make_app) -> None:
    app = make_app()
    vision = Vision(StillCamera(), app.post)
    try:
        app.camera = vision
        open_count(app)
        assert vision.reader is DECK_READER
        tap(app, "Back")
        assert vision.reader is None  # no game: the camera reads nothing again
        session = app.start_game(app.settings.game_options("zatre", players=2, seed=3), ["A", "B"])
        assert vision.reader is session.reader
        app.show("settings", unlocked=True)
        app.show("zatre_deck")
        assert vision.reader is DECK_READER
        app.show_game()
        assert vision.reader is session.reader
    finally:
        vision.stop()


# --- the games dealt from the deck counted ----------------------------------------------------------


COUNTED = deck_from_counts(SIMULATED_BOX)


def test_a_new_game_is_dealt_from_the_deck_counted_and_says_so(make_app, tmp_path: Path) -> None:
    config_deck = write_manifest(tmp_path / "config-deck.json", Counter(DECK), "config")
    app = make_app(config=make_config(tmp_path, games={"zatre": {"deck_manifest": config_deck.path}}))
    assert app.settings.zatre_deck().source == "config"
    counted = write_manifest(tmp_path / MANIFEST_NAME, Counter(COUNTED), "counted")
    app.settings.set_zatre_deck(counted.path)
    options = app.settings.game_options("zatre", players=2, seed=4, information="referee")
    assert options.cards() == COUNTED
    session = app.start_game(options, ["A", "B"])
    assert isinstance(session, ZatreSession) and session.referee and session.deck_counted
    screen = app.screen
    screen.view = "sheets"
    app.step()
    assert "Dealt from the counted deck" in app.canvas.texts()
    # The journal keeps the cards: the file changing later does not change the game.
    stored = json.loads(json.dumps(app.journal.unfinished().options))
    assert Counter(Card.parse(c) for c in stored["deck"]) == Counter(COUNTED)
    Path(counted.path).write_text("{broken", encoding="utf-8")
    choice = app.settings.zatre_deck()
    assert choice.source == "config" and "not valid JSON" in choice.problem  # said so; the next in line
    app.end_session()
    app.settings.set_zatre_deck("")
    app.settings.config.games.clear()
    session = app.start_game(
        app.settings.game_options("zatre", players=2, seed=4, information="referee"), ["A", "B"]
    )
    assert isinstance(session, ZatreSession) and not session.deck_counted
    screen.view = "sheets"
    app.step()
    assert "Dealt from the assumed deck (not counted)" in app.canvas.texts()


def key(app: App, name: int) -> None:
    app.post(Key(name))
    app.post(Key(name, down=False))


def test_the_simulator_counts_its_box_and_deals_from_it(make_app, clock, tmp_path: Path) -> None:
    """The simulator without a camera: the box of cards posts what lies on the table; the count walked
    with its keys, saved; then a refereed game's physical deck is the box's."""
    app = make_app()
    sim = Simulator(app, seed=3, camera=False)
    open_count(app)

    def frame() -> None:  # the keys handled, then what now lies on the table read
        app.step()
        sim.poll()
        app.step()

    def add() -> None:
        frame()
        tap(app, "Add batch")

    key(app, pygame.K_n)
    frame()
    key(app, pygame.K_h)  # a hand over a card: refused
    add()
    screen = app.screen
    assert isinstance(screen, ZatreDeckScreen) and isinstance(screen.count.state, Refused)
    key(app, pygame.K_h)
    add()
    for _ in range(3):
        key(app, pygame.K_n)
        add()
    assert screen.count.total == 48
    key(app, pygame.K_n)
    key(app, pygame.K_x)  # a card of another box: 51
    add()
    assert isinstance(screen.count.state, Refused) and screen.count.state.why == "too_many"
    key(app, pygame.K_x)
    add()
    assert isinstance(screen.count.state, Complete)
    tap(app, "Save")
    assert read_manifest(tmp_path / MANIFEST_NAME).counts == Counter(COUNTED)
    tap(app, "Done")
    tap(app, "Back")
    # A refereed game: the simulated players hold the box's cards, counted.
    sim.autoplay = "zatre"
    sim.start_autoplay("zatre")
    session = app.session
    assert isinstance(session, ZatreSession) and session.deck_counted
    for _ in range(300):
        sim.poll()
        app.step()
        clock.advance(0.1)
    table = sim.table
    held = [card.key for hand in table.deck.hands for card in hand]  # type: ignore[union-attr]
    assert held and Counter(held) <= Counter(COUNTED)
    assert session.seq > 0


def test_the_box_is_not_the_assumed_deck() -> None:
    assert Counter(COUNTED) != Counter(DECK) and len(COUNTED) == 50
    rng = random.Random(1)
    assert len(rng.sample(COUNTED, 12)) == 12


class FilmedBox:
    """The synthetic camera over the simulator's box: each call a new frame of the scene as it lies."""

    def __init__(self, sim: Simulator) -> None:
        self.sim = sim
        self.seq = 0

    def latest(self) -> tuple[np.ndarray, int]:
        self.seq += 1
        return self.sim.camera_frame(), self.seq


@pytest.mark.slow
def test_the_whole_count_through_the_camera_path(make_app, tmp_path: Path) -> None:
    """The simulator's box filmed at the camera's size, read by the vision worker (no thread: one frame
    per step) with the simulator's calibration and the loose-card reader the count screen asks for."""
    from vision.calibration import Calibration

    app = make_app()
    sim = Simulator(app, seed=5, camera=True)
    size = (app.config.camera.width, app.config.camera.height)
    vision = Vision(FilmedBox(sim), app.post, calibration=Calibration.identity(size), threaded=False)
    app.camera = vision
    screen = open_count(app)
    assert vision.reader is DECK_READER

    def settle(*keys: int) -> None:
        for name in keys:
            key(app, name)
        app.step()
        before = screen.count.table
        for _ in range(40):  # quiet frames, then two readings that agree
            vision.process_latest()
            app.step()
            if screen.count.table is not before:
                return
        raise AssertionError(f"the camera never settled: {screen.count.state}")

    settle(pygame.K_n)
    assert isinstance(screen.count.state, BatchRead) and screen.count.state.reading.certain
    assert len(screen.count.state.reading.cards) == 12
    tap(app, "Add batch")
    settle(pygame.K_n, pygame.K_h)  # a hand over a card
    tap(app, "Add batch")
    assert isinstance(screen.count.state, Refused) and screen.count.state.why == "unreadable"
    settle(pygame.K_h)
    tap(app, "Add batch")
    for _ in range(2):
        settle(pygame.K_n)
        tap(app, "Add batch")
    settle(pygame.K_n, pygame.K_x)  # the last two and a card of another box
    tap(app, "Add batch")
    refused = screen.count.state  # read afresh: the batch changed it
    assert isinstance(refused, Refused) and refused.why == "too_many"
    settle(pygame.K_x)
    tap(app, "Add batch")
    assert isinstance(screen.count.state, Complete), screen.count.state
    tap(app, "Save")
    assert read_manifest(tmp_path / MANIFEST_NAME).counts == Counter(COUNTED)
