"""The dice games' states and their touches: every state is drawn by a panel of the dice table
(``device.screens.dice_panels``), and the screens' touches are events (``BoxPicked``, ``Touch``,
``Answered``, ``DiceEntered``, ``RollAmended``) that the current state handles."""

from __future__ import annotations

import pytest

from device.app import App
from device.journal import ReadingFix
from device.screens.dice_panels import (
    PANELS,
    AskingPanel,
    ChoosingPanel,
    OverPanel,
    Panel,
    RollingPanel,
    panel_of,
)
from device.screens.dice_table import DiceTableScreen
from device.sessions.dice import (
    Answered,
    Asking,
    BoxPicked,
    Choosing,
    Correcting,
    DiceEntered,
    DiceSession,
    DiceStage,
    Over,
    RollAmended,
    Rolling,
    Touch,
)
from device.sessions.dice_events import DiceSeen, SeenDie
from device.sessions.dice_rolls import Verdict, place
from rules.dice import AmendRoll, Choose, Roll, RollDice
from tests.device.helpers import labels, seat_to_move, start_dice, tap


def concrete_states() -> set[type[DiceStage]]:
    """Every state class of the dice session (a new one must come with a panel)."""
    found: set[type[DiceStage]] = set()
    todo = list(DiceStage.__subclasses__())
    while todo:
        kind = todo.pop()
        found.add(kind)
        todo.extend(kind.__subclasses__())
    return found


def log(session: DiceSession) -> list[tuple[str, str, str]]:
    assert session.machine is not None
    return [(t.before, t.after, t.cause) for t in session.machine.transitions]


def stage_of(session: DiceSession) -> DiceStage:
    stage = session.stage
    assert isinstance(stage, DiceStage)
    return stage


def rolled(app: App, values: tuple[int, ...]) -> DiceSession:
    """A dice game started, the empty tray seen, then a throw: the turn's first roll, in Choosing."""
    session = start_dice(app)
    app.post(DiceSeen(()))
    app.post(DiceSeen(tuple(place(values))))
    app.step()
    assert session.rolls_used == 1 and isinstance(session.stage, Choosing)
    return session


def asked(app: App) -> DiceSession:
    """A roll, then the dice moved while the camera lost frames: the players are asked."""
    session = rolled(app, (6, 6, 6, 2, 3))
    app.post(DiceSeen(tuple(place((5, 5, 5, 2, 2), dx=300)), gap=True))
    app.step()
    assert isinstance(session.stage, Asking)
    return session


# --- every state has a panel ----------------------------------------------------------------------------


def test_every_dice_state_has_a_panel() -> None:
    states = concrete_states()
    assert states == {Rolling, Choosing, Asking, Correcting, Over}
    question = Verdict("ask", "test", None)
    instances: list[DiceStage] = [
        Rolling(),
        Choosing("chance"),
        Asking(question, Choosing()),
        Correcting(None, Rolling()),
        Over(),
    ]
    assert {type(s) for s in instances} == states
    for stage in instances:
        kind, shown = panel_of(stage)
        assert issubclass(kind, Panel) and PANELS[type(shown)] is kind
        if isinstance(stage, Correcting):
            assert shown is stage.back  # its own screen; the table behind it shows the turn's state
        else:
            assert shown is stage
    assert {Rolling: RollingPanel, Choosing: ChoosingPanel, Asking: AskingPanel, Over: OverPanel} == PANELS


def test_the_table_draws_each_state_with_its_panel(make_app) -> None:
    app = make_app()
    session = start_dice(app)
    screen = app.screens["dice_table"]
    assert isinstance(screen, DiceTableScreen)
    app.step()
    assert type(screen.panel(stage_of(session))[0]) is RollingPanel
    assert "Roll the dice" in app.canvas.texts() and "Enter" not in labels(app)
    app.post(DiceSeen(()))
    app.post(DiceSeen(tuple(place((6, 6, 6, 2, 3)))))
    app.step()
    assert type(screen.panel(stage_of(session))[0]) is ChoosingPanel
    assert "Choose a box" in app.canvas.texts() and "Three of a kind" in labels(app)
    tap(app, "Three of a kind")
    assert "Enter" in labels(app) and "Three of a kind: 23" in app.canvas.texts()
    app.post(DiceSeen(tuple(place((5, 5, 5, 2, 2), dx=300)), gap=True))
    app.step()
    assert type(screen.panel(stage_of(session))[0]) is AskingPanel
    # The question takes the body; under the dice the turn's touch: the box picked can still be entered.
    assert {"Yes, a new roll", "No, same roll", "Enter"} <= set(labels(app))
    assert "Three of a kind" not in labels(app)


# --- the touches drive the states -----------------------------------------------------------------------


def test_a_box_picked_then_enter_enters_it(make_app) -> None:
    app = make_app()
    session = rolled(app, (6, 6, 6, 2, 3))
    seat = seat_to_move(session)
    stage = stage_of(session)
    session.send(BoxPicked("no_such_box"))  # not a box open for these dice: nothing picked
    assert session.selected is None
    session.send(BoxPicked("sixes"))
    assert stage_of(session) is stage and isinstance(stage, Choosing) and stage.selected == "sixes"
    session.send(Touch("enter"))
    assert session.history[-1] == Choose("sixes") and session.game_state.sheets[seat].get("sixes") == 18
    assert isinstance(session.stage, Rolling) and log(session)[-1] == ("Choosing", "Rolling", "Choose")


def test_enter_before_a_box_or_a_roll_is_refused_and_a_box_before_a_roll_is_ignored(make_app) -> None:
    app = make_app()
    session = start_dice(app)
    session.send(BoxPicked("chance"))
    assert isinstance(session.stage, Rolling) and session.selected is None
    session.send(Touch("enter"))
    assert session.refusal is not None and session.refusal.code == "roll_first" and session.seq == 0
    app.post(DiceSeen(()))
    app.post(DiceSeen(tuple(place((1, 2, 3, 4, 6)))))
    app.step()
    session.send(Touch("enter"))
    assert session.refusal is not None and session.refusal.code == "choose_box_first"


def test_fix_the_dice_then_cancel_keeps_the_box_picked(make_app) -> None:
    app = make_app()
    session = rolled(app, (6, 6, 6, 2, 3))
    session.send(BoxPicked("sixes"))
    turn = stage_of(session)
    session.send(Touch("fix_dice"))
    stage = stage_of(session)
    assert isinstance(stage, Correcting) and stage.pending is None and stage.back is turn
    assert session.screen == "correction"
    session.send(Touch("fix_dice"))  # already open: the same correction
    assert session.stage is stage
    session.send(Touch("cancel"))
    assert stage_of(session) is turn and session.selected == "sixes" and session.seq == 1
    assert log(session)[-2:] == [
        ("Choosing", "Correcting", "Touch"),
        ("Correcting", "Choosing", "Touch"),
    ]


def test_the_dice_entered_correct_a_roll_the_camera_was_unsure_of(make_app) -> None:
    app = make_app()
    session = start_dice(app)
    app.post(DiceSeen((SeenDie(4), SeenDie(None, uncertain=True), SeenDie(2), SeenDie(2), SeenDie(6))))
    app.step()
    stage = stage_of(session)
    assert isinstance(stage, Correcting) and stage.pending is not None and session.seq == 0
    session.send(DiceEntered((4, 1, 2, 2, 6), (False,) * 5))
    assert session.seq == 1 and session.dice == Roll.parse("4 1 2 2 6")
    assert isinstance(session.stage, Choosing)
    fixes = [c.fix for c in app.journal.corrections(session.game_id)]
    assert fixes == [ReadingFix(1, "die", "", "1", None, False)]


def test_the_dice_entered_by_the_players_on_their_own_are_the_next_roll(make_app) -> None:
    app = make_app()
    session = rolled(app, (6, 6, 6, 2, 3))
    session.send(Touch("fix_dice"))
    session.send(DiceEntered((6, 6, 6, 5, 5), (True, True, True, False, False)))
    last = session.history[-1]
    assert session.rolls_used == 2 and isinstance(last, RollDice) and last.held == (0, 1, 2)
    assert isinstance(session.stage, Choosing) and app.journal.corrections(session.game_id) == []


def test_the_correction_screens_events_mean_nothing_outside_a_correction(make_app) -> None:
    app = make_app()
    session = rolled(app, (6, 6, 6, 2, 3))
    stage = stage_of(session)
    session.send(DiceEntered((1, 1, 1, 1, 1), (False,) * 5))
    session.send(RollAmended((1, 1, 1, 1, 1)))
    session.send(Touch("cancel"))
    session.send(Answered(True))
    assert session.stage is stage and session.seq == 1 and session.dice == Roll.parse("6 6 6 2 3")
    with pytest.raises(ValueError, match="5 dice entered with 4 held marks"):
        DiceEntered((1, 2, 3, 4, 5), (False,) * 4)


def test_a_roll_amended_is_the_same_roll_and_keeps_the_box_picked(make_app) -> None:
    app = make_app()
    session = rolled(app, (2, 3, 5, 5, 6))
    session.send(BoxPicked("chance"))
    turn = stage_of(session)
    session.send(Touch("fix_dice"))
    session.send(RollAmended((2, 3, 4, 5, 6)))
    assert session.history[-1] == AmendRoll(Roll.parse("2 3 4 5 6")) and session.rolls_used == 1
    assert session.stage is turn and session.selected == "chance" and session.screen == "dice_table"
    [stored] = app.journal.corrections(session.game_id)
    assert stored.fix == ReadingFix(2, "die", "5", "4", None, True)


def test_the_answer_yes_enters_the_roll_asked_about(make_app) -> None:
    app = make_app()
    session = asked(app)
    session.send(BoxPicked("sixes"))  # a box picked under the question: the turn's
    stage = stage_of(session)
    assert isinstance(stage, Asking) and isinstance(stage.back, Choosing) and stage.back.selected == "sixes"
    session.send(Answered(True))
    assert session.rolls_used == 2 and sorted(session.dice.values if session.dice else ()) == [2, 2, 5, 5, 5]
    assert isinstance(session.stage, Choosing) and session.question is None


def test_the_answer_no_goes_back_to_the_turn(make_app) -> None:
    app = make_app()
    session = asked(app)
    stage = stage_of(session)
    assert isinstance(stage, Asking)
    session.send(Answered(False))
    assert session.stage is stage.back and session.rolls_used == 1 and session.seq == 1
    assert log(session)[-1] == ("Asking", "Choosing", "Answered")


def test_the_screens_touches_are_events_for_the_session(make_app, monkeypatch) -> None:
    """The dice table and the correction screen call no session method: each touch is sent."""
    app = make_app()
    session = rolled(app, (6, 6, 6, 2, 3))
    sent: list[object] = []
    send = session.send

    def record(event: object) -> None:
        sent.append(event)
        send(event)

    monkeypatch.setattr(session, "send", record)
    tap(app, "Three of a kind")
    tap(app, "Enter")
    app.post(DiceSeen(tuple(place((1, 2, 3, 4, 4)))))
    app.step()
    tap(app, "Fix the dice")
    tap(app, "Cancel")
    tap(app, "Fix the dice")
    tap(app, "Use these dice")
    assert sent == [
        BoxPicked("three_of_a_kind"),
        Touch("enter"),
        Touch("fix_dice"),
        Touch("cancel"),
        Touch("fix_dice"),
        DiceEntered((1, 2, 3, 4, 4), (False,) * 5),
    ]
