"""Kalooki's phases as states and its screen as one panel per state (issue 35): every state has a panel,
a reading awaited is drawn by the panel of the state it was asked in, and the screen's touches are
events (``Touch``, ``RankPicked``, …) that the current state handles — through the session alone, and
through the real screen's targets."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import cast

import pytest

import device.screens.kalooki_panels as panels_module
import device.screens.kalooki_table as table_module
from device.journal import Journal
from device.screens.kalooki_panels import (
    PANELS,
    CorrectPanel,
    DrawPanel,
    PlayPanel,
    RevealPanel,
    TurnUpPanel,
    panel_of,
)
from device.sessions import kalooki as kalooki_module
from device.sessions.kalooki import (
    CardPicked,
    Confirmed,
    Correcting,
    Correction,
    DigitTyped,
    Drawing,
    KalookiSession,
    KalookiStage,
    MeldTapped,
    Over,
    Playing,
    RankPicked,
    ReadingTable,
    Revealing,
    SuitPicked,
    Touch,
    TurningUp,
)
from device.sessions.kalooki_camera import CardTable
from device.timer import MoveTimer
from drivers.events import ButtonEvent
from rules import Action
from rules.kalooki import Card, DrawStock, KalookiOptions, LayDown, TurnUp, parse_cards
from tests.device.helpers import labels, tap
from tests.device.test_kalooki_by_camera import Table


@pytest.fixture
def session(tmp_path: Path) -> KalookiSession:
    journal = Journal.open(tmp_path / "journal.db")
    started = KalookiSession.start(journal, KalookiOptions(players=2, seed=1), ["Ala", "Ola"], MoveTimer(0))
    assert isinstance(started, KalookiSession)
    return started


def last(session: KalookiSession) -> Action:
    """The last action taken (read afresh: an assertion on an earlier one does not narrow it)."""
    return session.history[-1]


def stage_states() -> set[type[KalookiStage]]:
    """Every state class of the Kalooki session (the reading's aside: its panel is its phase's)."""
    found = {
        obj
        for obj in vars(kalooki_module).values()
        if inspect.isclass(obj) and issubclass(obj, KalookiStage) and obj is not KalookiStage
    }
    return found - {ReadingTable}


def test_every_state_has_a_panel_and_a_reading_is_drawn_by_its_phase() -> None:
    assert stage_states() == set(PANELS) == {TurningUp, Drawing, Playing, Revealing, Correcting, Over}
    for state, panel in PANELS.items():
        if state is Correcting:
            continue  # a correction needs a reading: below
        stage = state()
        assert panel_of(stage) == (panel, stage)
    correcting = Correcting(Playing(), Correction(cast(CardTable, Table([], None)), {}))
    assert panel_of(correcting) == (CorrectPanel, correcting) and correcting.phase == "play"
    for back, panel in ((TurningUp(), TurnUpPanel), (Drawing(), DrawPanel), (Playing(), PlayPanel)):
        kind, shown = panel_of(ReadingTable(back))
        assert kind is panel and shown is back
    assert panel_of(Revealing())[0] is RevealPanel


def test_the_screen_branches_on_no_phase_name() -> None:
    """The screen and its panels draw the state they are given: no ``.phase`` compared anywhere."""
    for module in (table_module, panels_module):
        tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))
        phases = [
            node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "phase"
        ]
        assert phases == [], (module.__name__, phases)


def test_touch_events_drive_a_whole_deal_through_the_states(session: KalookiSession) -> None:
    machine = session.machine
    assert machine is not None and isinstance(session.stage, TurningUp)
    session.send(Touch("discard"))  # the turned-up card with nothing picked: refused, the state stays
    assert session.refusal is not None and session.refusal.code == "pick_one_card"
    assert isinstance(session.stage, TurningUp)
    session.send(RankPicked(13))
    session.send(SuitPicked("C"))
    assert session.picker.cards == [Card.parse("KC")]
    session.send(Touch("discard"))
    assert last(session) == TurnUp(Card.parse("KC")) and isinstance(session.stage, Drawing)
    assert str(machine.transitions[-1]) == "TurningUp -> Drawing (TurnUp)"
    session.send(Touch("lay_down"))  # not the draw's button: nothing happens
    assert len(session.history) == 1 and isinstance(session.stage, Drawing)
    session.send(Confirmed(0))  # Enter before the draw
    assert session.refusal is not None and session.refusal.code == "draw_first"
    session.send(Touch("stock"))
    assert last(session) == DrawStock() and isinstance(session.stage, Playing)
    playing = session.stage
    for event in (RankPicked(10), SuitPicked("H"), Touch("to"), RankPicked(13), Touch("keep_meld")):
        session.send(event)
    for event in (RankPicked(9), SuitPicked("S"), RankPicked(9), SuitPicked("D")):
        session.send(event)
    session.send(CardPicked(Card.parse("9C")))
    assert session.picker.melds() == (tuple(parse_cards("10H JH QH KH")), tuple(parse_cards("9S 9D 9C")))
    assert session.stage is playing  # the picker is the state's
    session.send(Touch("lay_down"))
    assert isinstance(last(session), LayDown) and session.deal.opened[0]
    assert isinstance(session.stage, Playing) and session.stage is not playing and session.picker.cards == []
    session.send(CardPicked(Card.parse("9H")))
    session.send(MeldTapped(0))  # built on the run, at its low end
    assert session.deal.table[0].cards == tuple(parse_cards("9H 10H JH QH KH"))
    session.send(CardPicked(Card.parse("4D")))
    session.send(Touch("back"))
    assert session.picker.cards == []
    session.send(CardPicked(Card.parse("4D")))
    session.send(Confirmed(1))  # Enter for a seat not to move
    assert session.refusal is not None and session.refusal.code == "not_your_turn"
    session.send(Confirmed(0))
    assert session.deal.discard_top == Card.parse("4D") and isinstance(session.stage, Drawing)
    assert session.deal.turn == 1


def test_the_number_pad_is_the_reveal_state_s(session: KalookiSession) -> None:
    for act in (
        TurnUp(Card.parse("AS")),
        DrawStock(),
        LayDown(tuple(tuple(parse_cards(m)) for m in ("2H 3H 4H 5H 6H 7H 8H", "10S JS QS", "KD KC KH"))),
    ):
        assert session.submit(act), session.refusal
    session.send(CardPicked(Card.parse("9C")))
    session.send(Touch("discard"))
    stage = session.stage
    assert isinstance(stage, Revealing) and session.revealing() == 1 and stage.pad is None
    session.send(DigitTyped(4))  # the picker is showing: a digit is not its event
    assert stage.pad is None
    session.send(Touch("points"))
    assert stage.pad == "" and session.pad == ""
    for digit in (0, 1, 2, 0, 7):
        session.send(DigitTyped(digit))
    assert stage.pad == "120"  # no leading zero, three digits at most
    session.send(Touch("back"))
    assert stage.pad == "12"
    session.send(Touch("clear"))
    session.send(Touch("enter_points"))
    assert session.refusal is not None and session.refusal.code == "type_points_first"
    session.send(Touch("cards"))
    assert stage.pad is None
    session.send(Touch("points"))
    for digit in (1, 2, 0):
        session.send(DigitTyped(digit))
    session.send(Confirmed(0))  # any seat's Enter enters the points between turns
    assert len(session.kalooki.results) == 1 and session.finished and isinstance(session.stage, Over)
    seq = session.seq
    for event in (CardPicked(Card.parse("2C")), Touch("discard"), Confirmed(0), ButtonEvent(0, "press")):
        session.send(event)  # the game is over: no state takes anything
    assert session.seq == seq and isinstance(session.stage, Over)


def test_a_touch_while_the_table_is_read_is_the_phase_s(session: KalookiSession, monkeypatch) -> None:
    monkeypatch.setattr(KalookiSession, "reader", object())  # a card reader is there
    assert session.submit(TurnUp(Card.parse("KC")))
    session.handle(ButtonEvent(0, "press"))
    reading = session.stage
    assert isinstance(reading, ReadingTable) and isinstance(reading.back, Drawing)
    session.send(Touch("stock"))  # tapped while the camera reads: the draw is taken
    assert last(session) == DrawStock() and isinstance(session.stage, Playing)


def test_the_screen_s_targets_send_events_to_the_state(make_app) -> None:
    app = make_app()
    tap(app, "Kalooki")
    tap(app, "Start")
    session = app.session
    assert isinstance(session, KalookiSession)
    sent: list[object] = []
    real = session.send

    def recording(event: object) -> None:
        sent.append(event)
        real(event)

    session.send = recording  # type: ignore[method-assign]
    tap(app, "K")
    tap(app, "suit C")
    tap(app, app.tr.format("Turned-up card"))
    assert sent == [RankPicked(13), SuitPicked("C"), Touch("discard")]
    assert isinstance(session.stage, Drawing) and app.tr.format("Stock") in labels(app)
    tap(app, app.tr.format("Stock"))
    assert sent[-1] == Touch("stock") and isinstance(session.stage, Playing)
