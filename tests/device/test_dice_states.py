"""The dice games' states and their touches: every state is drawn by a panel of the dice table
(``device.screens.dice_panels``), and the screens' touches are events (``BoxPicked``, ``Touch``,
``Answered``, ``DieStepped``, ``HoldToggled``, ``DiceEntered``, ``RollAmended``) that the current state
handles; the dice being set on the correction screen are the correcting state's."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from device.app import App
from device.events import Key
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
    DieStepped,
    HoldToggled,
    Over,
    RollAmended,
    Rolling,
    Touch,
)
from device.sessions.dice_events import DiceSeen, SeenDie
from device.sessions.dice_rolls import Verdict, place
from device.sessions.dice_sim import DiceTable
from device.simulator import Simulator
from rules.dice import AmendRoll, Choose, Roll, RollDice
from tests.device.conftest import make_config
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


def correcting(session: DiceSession) -> Correcting:
    stage = session.stage
    assert isinstance(stage, Correcting), stage
    return stage


def dice_shown(app: App) -> list[str]:
    """The dice the screen shows (its targets labelled with a face or ``?``), in their order."""
    return [t.label for t in app.canvas.targets if t.label in ("1", "2", "3", "4", "5", "6", "?")]


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
    stage = correcting(session)
    assert stage.pending is not None and session.seq == 0 and not stage.later and stage.roll is None
    assert stage.values == [4, None, 2, 2, 6] and stage.unsure == [False, True, False, False, False]
    session.send(DiceEntered())  # a die still unknown: nothing entered
    assert session.stage is stage and session.seq == 0
    session.send(DieStepped(1))
    assert stage.values == [4, 1, 2, 2, 6] and not any(stage.unsure) and stage.complete
    session.send(DiceEntered())
    assert session.seq == 1 and session.dice == Roll.parse("4 1 2 2 6")
    assert isinstance(session.stage, Choosing)
    fixes = [c.fix for c in app.journal.corrections(session.game_id)]
    assert fixes == [ReadingFix(1, "die", "", "1", None, False)]


def test_the_dice_entered_by_the_players_on_their_own_are_the_next_roll(make_app) -> None:
    app = make_app()
    session = rolled(app, (6, 6, 6, 2, 3))
    session.send(Touch("fix_dice"))
    stage = correcting(session)
    # Opened on the turn's roll: its dice, none held yet, none unsure; a later roll asks what was held.
    assert stage.values == [6, 6, 6, 2, 3] and stage.held == [False] * 5 and not any(stage.unsure)
    assert stage.later and stage.roll == Roll.parse("6 6 6 2 3") and not stage.amendable
    for touch in stage.touches((6, 6, 6, 5, 5), (True, True, True, False, False)):
        session.send(touch)
    assert stage.values == [6, 6, 6, 5, 5] and stage.held == [True, True, True, False, False]
    session.send(DiceEntered())
    last = session.history[-1]
    assert session.rolls_used == 2 and isinstance(last, RollDice) and last.held == (0, 1, 2)
    assert isinstance(session.stage, Choosing) and app.journal.corrections(session.game_id) == []


def test_a_die_stepped_goes_round_and_loses_its_unsure_mark(make_app) -> None:
    app = make_app()
    session = start_dice(app)
    app.post(DiceSeen((SeenDie(5, uncertain=True), SeenDie(None, uncertain=True), *map(SeenDie, (1, 2, 3)))))
    app.step()
    stage = correcting(session)
    assert stage.values[:2] == [5, None] and stage.unsure[:2] == [True, True]
    session.send(DieStepped(0))
    assert stage.values[:2] == [6, None] and stage.unsure[:2] == [False, True]
    session.send(DieStepped(0))
    assert stage.values[0] == 1  # after a six, a one
    session.send(DieStepped(1))
    assert stage.values[:2] == [1, 1] and not any(stage.unsure)
    assert session.stage is stage and session.seq == 0  # setting the dice enters nothing
    assert [t for t in log(session) if t[0] == "Correcting"] == []


def test_no_die_is_held_on_the_first_roll_of_a_turn(make_app) -> None:
    """Before the turn's first roll the correction shows no Hold buttons: a hold toggled is ignored,
    and every die is unknown until stepped."""
    app = make_app()
    session = start_dice(app)
    session.send(Touch("fix_dice"))
    stage = correcting(session)
    assert stage.pending is None and stage.roll is None and not stage.later
    assert stage.values == [None] * 5 and stage.unsure == [True] * 5 and not stage.complete
    session.send(HoldToggled(0))
    assert stage.held == [False] * 5
    session.send(RollAmended())  # no roll to amend
    assert session.stage is stage and session.seq == 0
    assert stage.touches((1, 2, 3, 4, 5), (True,) * 5) == tuple(
        DieStepped(i) for i, value in enumerate((1, 2, 3, 4, 5)) for _ in range(value)
    )
    for touch in stage.touches((1, 2, 3, 4, 5)):
        session.send(touch)
    session.send(DiceEntered())
    assert session.history[-1] == RollDice(Roll.parse("1 2 3 4 5"), ())
    assert isinstance(session.stage, Choosing)


def test_cancel_keeps_nothing_of_the_dice_set(make_app) -> None:
    app = make_app()
    session = rolled(app, (6, 6, 6, 2, 3))
    turn = stage_of(session)
    session.send(Touch("fix_dice"))
    first = correcting(session)
    session.send(DieStepped(4))
    session.send(HoldToggled(0))
    assert first.values == [6, 6, 6, 2, 4] and first.held[0] and first.amendable
    session.send(Touch("cancel"))
    assert session.stage is turn and session.seq == 1 and session.dice == Roll.parse("6 6 6 2 3")
    session.send(Touch("fix_dice"))
    again = correcting(session)
    assert again is not first and again.values == [6, 6, 6, 2, 3] and again.held == [False] * 5
    assert not again.amendable
    # A reading the camera was unsure of, cancelled: dropped with the dice set on it.
    session.send(Touch("cancel"))
    app.post(
        DiceSeen(tuple(replace(d, uncertain=i == 2) for i, d in enumerate(place((1, 1, 4, 5, 6), dx=300))))
    )
    app.step()
    waiting = correcting(session)
    assert waiting.pending is not None and waiting.values == [1, 1, 4, 5, 6] and waiting.unsure[2]
    session.send(DieStepped(2))
    session.send(Touch("cancel"))
    assert session.stage is turn and session.seq == 1 and app.journal.corrections(session.game_id) == []


def test_a_new_reading_the_camera_is_unsure_of_replaces_the_dice_being_set(make_app) -> None:
    """The dice were thrown again during a correction: the new reading's dice are set, not the old."""
    app = make_app()
    session = start_dice(app)
    app.post(DiceSeen(()))
    first_throw = place((1, 3, 4, 5, 6))
    app.post(DiceSeen((replace(first_throw[0], value=None, uncertain=True), *first_throw[1:])))
    app.step()
    first = correcting(session)
    session.send(DieStepped(0))
    unsure = [replace(d, uncertain=i == 1) for i, d in enumerate(place((3, 3, 3, 1, 1), dx=300))]
    app.post(DiceSeen(tuple(unsure)))
    app.step()
    second = correcting(session)
    assert second is not first and second.back is first.back
    assert second.values == [3, 3, 3, 1, 1] and second.unsure == [False, True, False, False, False]
    assert session.screen == "correction" and session.seq == 0


def test_a_restart_in_the_middle_of_a_correction_keeps_nothing_of_it(make_app, tmp_path) -> None:
    """The dice being set are the state's, not the journal's: killed while correcting, the game resumes
    at the turn's roll (the table, its box picked gone with the session), and the next *Fix the dice*
    starts from that roll again; nothing was journaled of the correction."""
    config = make_config(tmp_path)
    app = make_app(config=config)
    session = rolled(app, (6, 6, 6, 2, 3))
    session.send(Touch("fix_dice"))
    stage = correcting(session)
    for touch in stage.touches((6, 6, 6, 4, 4), (True, True, True, False, False)):
        session.send(touch)
    history = list(session.history)
    app.journal.close()  # the power is cut here
    again = make_app(config=config)
    resumed = again.session
    assert isinstance(resumed, DiceSession)
    assert resumed.history == history and isinstance(resumed.stage, Choosing)
    assert again.screen.name == "dice_table" and again.journal.corrections(resumed.game_id) == []
    tap(again, "Fix the dice")
    fresh = correcting(resumed)
    assert again.screen.name == "correction"
    assert fresh.values == [6, 6, 6, 2, 3] and fresh.held == [False] * 5 and fresh.later
    for touch in fresh.touches((6, 6, 6, 4, 4), (True, True, True, False, False)):
        resumed.send(touch)
    tap(again, "Use these dice")
    assert resumed.rolls_used == 2 and resumed.dice == Roll.parse("6 6 6 4 4")
    assert again.screen.name == "dice_table"


def test_the_correction_screen_draws_the_state_it_is_given(make_app) -> None:
    """The screen keeps no dice of its own: what the state holds is what it draws, however it changed."""
    app = make_app()
    session = rolled(app, (6, 6, 6, 2, 3))
    tap(app, "Fix the dice")
    assert app.screen.name == "correction"
    assert dice_shown(app) == ["6", "6", "6", "2", "3"] and labels(app).count("Rolled") == 5
    session.send(DieStepped(3))
    session.send(HoldToggled(0))
    app.step()
    assert dice_shown(app) == ["6", "6", "6", "3", "3"] and labels(app).count("Held") == 1
    assert "Correct this roll" in labels(app)
    stage = correcting(session)
    stage.values[3] = 2  # the state's data, put back: the screen follows
    app.step()
    assert dice_shown(app) == ["6", "6", "6", "2", "3"] and "Correct this roll" not in labels(app)


def test_the_correction_screens_events_mean_nothing_outside_a_correction(make_app) -> None:
    app = make_app()
    session = rolled(app, (6, 6, 6, 2, 3))
    stage = stage_of(session)
    for event in (
        DieStepped(0),
        HoldToggled(0),
        DiceEntered(),
        RollAmended(),
        Touch("cancel"),
        Answered(True),
    ):
        session.send(event)
    assert session.stage is stage and session.seq == 1 and session.dice == Roll.parse("6 6 6 2 3")
    with pytest.raises(ValueError, match="die 5: the correction's dice are 0 to 4"):
        DieStepped(5)
    with pytest.raises(ValueError, match="die -1"):
        HoldToggled(-1)
    session.send(Touch("fix_dice"))
    with pytest.raises(ValueError, match="need 5 dice of 1 to 6"):
        correcting(session).touches((1, 2, 7, 4, 5))


def test_a_roll_amended_is_the_same_roll_and_keeps_the_box_picked(make_app) -> None:
    app = make_app()
    session = rolled(app, (2, 3, 5, 5, 6))
    session.send(BoxPicked("chance"))
    turn = stage_of(session)
    session.send(Touch("fix_dice"))
    stage = correcting(session)
    session.send(RollAmended())  # nothing changed: nothing to amend
    assert session.stage is stage and session.seq == 1
    for touch in stage.touches((2, 3, 4, 5, 6)):
        session.send(touch)
    assert stage.amendable
    session.send(RollAmended())
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
    one = correcting(session).values.index(1)
    tap(app, "1")  # the die showing 1: a 2 now
    tap(app, "Rolled")  # the last die's
    tap(app, "Correct this roll")
    tap(app, "Fix the dice")
    tap(app, "Use these dice")
    assert sent == [
        BoxPicked("three_of_a_kind"),
        Touch("enter"),
        Touch("fix_dice"),
        Touch("cancel"),
        Touch("fix_dice"),
        DieStepped(one),
        HoldToggled(4),
        RollAmended(),
        Touch("fix_dice"),
        DiceEntered(),
    ]
    amended, entered = session.history[-2:]
    assert isinstance(amended, AmendRoll) and sorted(amended.dice.values) == [2, 2, 3, 4, 4]
    assert isinstance(entered, RollDice) and entered.dice == amended.dice


def test_the_simulated_player_sets_a_reading_the_camera_was_unsure_of_with_taps(
    make_app, monkeypatch
) -> None:
    """Autoplay's player knows his dice: on a reading the camera was unsure of he taps the correction's
    dice to his own (``Correcting.touches``: die steps, holds) and enters them."""
    app = make_app()
    sim = Simulator(app, seed=3)
    session = start_dice(app)
    sim.poll()
    table = sim.table
    assert isinstance(table, DiceTable)
    app.post(Key(pygame.K_r, "", down=True))
    app.step()
    app.step()
    assert session.rolls_used == 1 and table.values is not None
    table.held = {0, 1}
    seen = table.seen

    def unsure_of_the_third() -> DiceSeen:  # the camera cannot tell the third die
        dice = seen().dice
        return DiceSeen((*dice[:2], replace(dice[2], value=None, uncertain=True), *dice[3:]))

    def record(event: object) -> None:
        sent.append(event)
        send(event)

    sent: list[object] = []
    send = session.send
    monkeypatch.setattr(table, "seen", unsure_of_the_third)
    monkeypatch.setattr(session, "send", record)
    table.roll()
    app.step()
    stage = correcting(session)
    assert stage.later and stage.values.count(None) == 1
    table.play(session)
    assert sent[-1] == DiceEntered() and DieStepped in {type(e) for e in sent}
    assert {type(e) for e in sent[:-1]} <= {DieStepped, HoldToggled}
    last = session.history[-1]
    assert isinstance(last, RollDice) and sorted(last.dice.values) == sorted(table.values)
    assert session.rolls_used == 2 and len(last.held) == 2 and isinstance(session.stage, Choosing)
