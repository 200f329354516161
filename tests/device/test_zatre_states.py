"""Zatre's states and the table screen's panels: every state has its panel, each drawing what that state
offers; the screen's touches are events (``HalfPicked``, ``CellTapped``, ``ValuePicked``, ``Touch``)
that the current state handles — sent straight to the session here, and tapped through the screen."""

from __future__ import annotations

import inspect

import pytest

import device.sessions.zatre as zatre_module
from device.app import App
from device.events import Seen
from device.screens.zatre_panels import PANELS, Panel, panel_of
from device.screens.zatre_table import ZatreTableScreen
from device.sessions.zatre import (
    Arranging,
    CellTapped,
    Checking,
    HalfPicked,
    Laying,
    Over,
    Showing,
    Touch,
    ValuePicked,
    ZatreSession,
    ZatreStage,
)
from device.sessions.zatre_sim import laid_out
from rules.zatre import Placement
from tests.device.helpers import check_layout, labels, phase_of, tap
from tests.device.test_zatre_referee import FakeCamera
from tests.device.test_zatre_referee import start as start_referee
from tests.device.test_zatre_table import start as start_solo
from tests.device.test_zatre_table import tap_target


def zatre_states() -> list[type[ZatreStage]]:
    """Every state class of the Zatre session's module."""
    return [
        kind
        for _, kind in inspect.getmembers(zatre_module, inspect.isclass)
        if issubclass(kind, ZatreStage) and kind is not ZatreStage
    ]


def stage(session: ZatreSession) -> ZatreStage:
    current = session.stage
    assert isinstance(current, ZatreStage)
    return current


def test_every_zatre_state_has_its_own_panel() -> None:
    states = zatre_states()
    assert set(states) == {Arranging, Laying, Checking, Showing, Over}
    assert set(PANELS) == set(states)
    kinds = [PANELS[kind] for kind in states]
    assert len(set(kinds)) == len(kinds) and all(issubclass(k, Panel) for k in kinds)
    laying = Laying()
    assert panel_of(Checking("lay", laying)) is PANELS[Checking] and panel_of(laying) is PANELS[Laying]
    # Every panel but the finished game's draws something of its own.
    assert [k.__name__ for k in kinds if k.draw is Panel.draw] == ["OverPanel"]


def drawn_panel(app: App) -> type[Panel]:
    screen = app.screen
    assert isinstance(screen, ZatreTableScreen)
    session = app.session
    assert isinstance(session, ZatreSession)
    app.step()
    check_layout(app)
    return type(screen.panel(stage(session)))


def current(session: ZatreSession, state: ZatreStage) -> bool:
    """Whether ``state`` is the current state (the very object: its data is the turn's)."""
    return session.stage is state


def transitions(session: ZatreSession) -> list[str]:
    assert session.machine is not None
    return [str(t) for t in session.machine.transitions]


def texts(app: App) -> str:
    return " ".join(app.canvas.texts())


def test_the_referee_panels_follow_the_states(make_app) -> None:
    app = make_app()
    session = start_referee(app)
    assert drawn_panel(app) is PANELS[Laying]
    assert {"Show hand", "Read the board"} <= set(labels(app)) and "0" not in labels(app)
    tap(app, "cell 0,0")  # a cell tapped: the pad is for it
    assert drawn_panel(app) is PANELS[Laying] and "Pick the value" in texts(app)
    assert {str(v) for v in range(7)} | {"pad cancel"} <= set(labels(app))
    tap(app, "pad cancel")
    assert "0" not in labels(app) and "Show hand" in labels(app)
    tap(app, "Read the board")  # the seat button of the player on turn: the camera reads the board
    assert isinstance(session.stage, Checking) and session.stage.what == "lay"
    assert drawn_panel(app) is PANELS[Checking] and "The camera reads the board" in texts(app)
    assert "Show hand" not in labels(app) and "Read the board" not in labels(app)  # drawn, but off
    app.post(Seen(laid_out([Placement.parse("5|6@0,0H"), Placement.parse("0|4@0,1H")]), kind="requested"))
    app.step()
    assert session.seq == 1 and isinstance(session.stage, Laying)
    tap(app, "Show hand")
    assert drawn_panel(app) is PANELS[Showing] and "Show your hand" in texts(app)
    assert "(0 of 6)" in texts(app)
    tap(app, "3")
    assert "(1 of 6)" in texts(app)
    tap(app, "pad cancel")
    assert isinstance(session.stage, Laying) and drawn_panel(app) is PANELS[Laying]


def test_the_solo_panel_and_the_over_panel(make_app) -> None:
    app = make_app()
    session = start_solo(app)
    assert drawn_panel(app) is PANELS[Arranging]
    assert {"hand 1.1", "hand 1.2", "Take back", "Lay"} - set(labels(app)) == {"Take back", "Lay"}  # off
    tap_target(app, "hand 1.1")
    tap_target(app, "cell 0,0")
    assert {"Take back", "Lay"} <= set(labels(app))
    session.go(Over(), "test")
    assert drawn_panel(app) is PANELS[Over]
    assert not [label for label in labels(app) if label.startswith("hand ")]


def test_touch_events_drive_the_solo_practice_states(make_app) -> None:
    app = make_app()
    session = start_solo(app)
    arranging = stage(session)
    assert isinstance(arranging, Arranging)
    session.send(CellTapped((0, 0)))
    assert session.refusal is not None and session.refusal.code == "pick_card_first"
    session.send(HalfPicked(0, 1))
    assert arranging.picked == (0, 1) and phase_of(session) == "laying"
    session.send(HalfPicked(0, 2))  # no third half: nothing changes
    assert arranging.picked == (0, 1)
    session.send(CellTapped((0, 0)))
    assert len(arranging.pending) == 1 and arranging.picked is None and phase_of(session) == "placing"
    card = session.hand[0]
    assert arranging.pending[0].placement.cells[0] == ((0, 0), card.second)  # the anchored half there
    session.send(CellTapped((0, 0)))  # tapped again: turned below
    assert arranging.pending[0].placement.orientation == "V"
    session.send(Touch("lay"))  # the round's first turn lays two cards: the engine says so
    assert session.refusal is not None and session.refusal.code == "wrong_card_count" and session.seq == 0
    session.send(Touch("take_back"))
    assert not arranging.pending and arranging.picked == (0, 1)
    session.send(Touch("pad_cancel"))  # not a touch of this state: ignored
    assert current(session, arranging)
    session.send(HalfPicked(0, 0))
    session.send(CellTapped((0, 0)))
    session.send(HalfPicked(1, 0))
    session.send(CellTapped((0, 1)))
    assert len(arranging.pending) == 2
    session.send(Touch("lay"))
    assert session.seq == 1 and isinstance(session.stage, Arranging) and not current(session, arranging)
    assert transitions(session)[-1] == "Arranging -> Arranging (Lay)"


def test_touch_events_drive_the_referee_states(make_app) -> None:
    app = make_app()
    session = start_referee(app)
    laying = stage(session)
    assert isinstance(laying, Laying)
    session.send(HalfPicked(0, 0))  # solo practice's touch: nothing here
    session.send(Touch("take_back"))
    assert current(session, laying) and not laying.manual
    session.send(CellTapped((0, 0)))
    session.send(ValuePicked(5))
    session.send(CellTapped((1, 0)))
    session.send(ValuePicked(9))  # not on the pad
    session.send(ValuePicked(6))
    assert laying.manual == [((0, 0), 5), ((1, 0), 6)] and phase_of(session) == "placing"
    session.send(Touch("pad_cancel"))
    assert laying.manual == [] and laying.selected is None and phase_of(session) == "laying"
    session.send(Touch("show_hand"))
    showing = stage(session)
    assert isinstance(showing, Showing) and showing.back is laying
    session.send(CellTapped((0, 0)))  # not while the hand is shown
    assert laying.selected is None
    session.send(Touch("lay"))
    assert session.refusal is not None and session.refusal.code == "show_first"
    session.send(Touch("pad_cancel"))
    assert current(session, laying)
    session.send(Touch("lay"))  # Read the board: the camera is asked
    checking = stage(session)
    assert isinstance(checking, Checking) and checking.back is laying and checking.what == "lay"
    camera = app.camera
    assert isinstance(camera, FakeCamera) and camera.requests == 1
    session.send(CellTapped((3, 3)))  # a cell tapped meanwhile is the turn's
    assert current(session, checking) and laying.selected == (3, 3)
    session.send(Touch("pad_cancel"))
    assert laying.selected is None
    session.send(Seen(laid_out([Placement.parse("5|6@0,0H"), Placement.parse("0|4@0,1H")]), kind="requested"))
    assert session.seq == 1 and isinstance(session.stage, Laying) and not current(session, laying)
    assert transitions(session)[-2:] == ["Checking(lay) -> Laying (Seen)", "Laying -> Laying (Lay)"]


@pytest.mark.parametrize("name", ["lay", "take_back", "show_hand", "pad_cancel"])
def test_a_touch_after_the_game_is_over_changes_nothing(make_app, name) -> None:
    app = make_app()
    session = start_referee(app)
    session.go(Over(), "test")
    for event in (Touch(name), CellTapped((0, 0)), ValuePicked(1), HalfPicked(0, 0)):
        session.send(event)
    assert isinstance(session.stage, Over) and session.refusal is None and session.seq == 0
