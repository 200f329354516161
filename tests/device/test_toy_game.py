"""A new game really is "a session, a screen and a simulated table": a toy game defined only here.

*Count to ten*: the players take turns adding 1, 2 or 3 to a running total; whoever makes it exactly 10
wins. A move is chosen on the touch screen (+1/+2/+3), its counters laid before the camera, and ended
with the seat button: the session asks the camera for a reading (its camera port), and the counters
read must be the step chosen; a move that runs out of time is a pass. The rules, the session, the
screen and the simulated table live in this file (the counters' reader in ``toy_camera.py``) and plug
in through the four registries (games, sessions, screens, simulated tables); the game is then played
through the real loop — the app, the move timer, GPIO seat buttons and LEDs on gpiozero's mock pins,
the vision worker reading the simulated table's frames, the journal — by the generic simulator's
autoplay, which taps the screen, lays counters and presses the seat buttons the way people do. Nothing
in ``device/`` knows of it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Annotated, Any, ClassVar, Self

import pytest
from gpiozero.pins.mock import MockFactory

import rules
import rules.registry
from device.events import Seen
from device.screens.base import SCREENS
from device.screens.table import TableScreen
from device.seat_signals import SeatSignals
from device.session import SESSIONS, GameSession
from device.sessions.simulated import TABLES, SimulatedTable
from device.simulator import Simulator
from device.ui.canvas import Canvas
from device.vision_worker import Vision
from drivers.seats import LedPattern, SeatPanel
from rules import Action, GameSpec, GameState, IllegalAction, Options
from rules.actions import action
from rules.options import Range
from rules.outcome import Outcome, Termination
from tests.device.helpers import check_layout
from tests.device.toy_camera import COUNTER_READER, Counters, LiveFeed, counters, lay_counters

GOAL = 10
MOVE_SECONDS = 20

# --- the rules ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToyOptions(Options):
    move_seconds: Annotated[int, Range(0, 120)] = MOVE_SECONDS

    @property
    def move_limit_seconds(self) -> int:
        return self.move_seconds


@action("test.toy.add")
@dataclass(frozen=True)
class Add(Action):
    step: int


@action("test.toy.pass")
@dataclass(frozen=True)
class Pass(Action):
    """The move ran out of time."""


@dataclass(frozen=True)
class ToyState:
    options: ToyOptions
    total: int = 0
    turn: int = 0  # how many moves were made (the seat to move is turn % players)
    last: int | None = None  # the seat that added last

    @property
    def to_move(self) -> int | None:
        return None if self.total == GOAL else self.turn % self.options.players

    @property
    def outcome(self) -> Outcome | None:
        if self.total != GOAL or self.last is None:
            return None
        scores = [1 if seat == self.last else 0 for seat in range(self.options.players)]
        return Outcome.from_scores(Termination.ROUNDS_PLAYED, scores)

    def apply(self, act: Action) -> Self:
        seat = self.to_move
        if seat is None:
            raise IllegalAction("game_over", "the game is over")
        if isinstance(act, Pass):
            return type(self)(self.options, self.total, self.turn + 1, self.last)
        if not isinstance(act, Add):
            raise IllegalAction("unknown_action", f"{act} is not a move of count to ten")
        if not 1 <= act.step <= 3:
            raise IllegalAction("bad_step", f"add 1, 2 or 3, not {act.step}", step=act.step)
        if self.total + act.step > GOAL:
            raise IllegalAction("past_ten", f"{self.total} + {act.step} is more than {GOAL}")
        return type(self)(self.options, self.total + act.step, self.turn + 1, seat)


def _new(options: Options) -> ToyState:
    assert isinstance(options, ToyOptions)
    return ToyState(options)


def _auto(options: Options) -> ToyState:
    state, rng = _new(options), random.Random(options.seed)
    while state.outcome is None:
        state = state.apply(Add(rng.randint(1, min(3, GOAL - state.total))))
    return state


def _describe(state: GameState) -> str:
    assert isinstance(state, ToyState)
    return f"total {state.total} of {GOAL}"


SPEC = GameSpec(
    name="toy",
    titles={"pl": "Do dziesięciu", "hu": "Tízig", "de": "Bis zehn", "en": "Count to ten"},
    options_type=ToyOptions,
    new_game=_new,
    auto_play=_auto,
    describe=_describe,
)

# --- the session: what the seat button, the screen and the timer mean ----------------------------------


class ToySession(GameSession):
    game = "toy"
    table_screen = "toy_table"
    reader = COUNTER_READER

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.chosen: int | None = None  # the step picked on the screen, entered by the seat button

    @property
    def toy(self) -> ToyState:
        assert isinstance(self.state, ToyState)
        return self.state

    def choose(self, step: int) -> None:
        self.chosen = step

    def on_press(self, seat: int) -> None:
        if self.pressed_out_of_turn(seat):
            return
        if self.chosen is None:
            self.refuse("nothing_chosen", "choose +1, +2 or +3 first")
            return
        self.request_reading()  # the counters laid: the camera port, the answer a Seen

    def on_reading(self, seen: Seen) -> None:
        if seen.kind != "requested" or not isinstance(seen.observation, Counters) or self.chosen is None:
            return
        laid = len(seen.observation.items)
        if laid != self.chosen:
            self.refuse("counters", f"{laid} counters laid for +{self.chosen}", laid=laid)
        elif self.submit(Add(self.chosen)):
            self.chosen = None

    def on_timeout(self) -> None:
        self.chosen = None
        self.submit(Pass())


class ToyScreen(TableScreen):
    name: ClassVar[str] = "toy_table"

    def draw(self, canvas: Canvas) -> None:
        session = self.session
        assert isinstance(session, ToySession)
        canvas.begin()
        self.draw_top(canvas)
        canvas.text(f"{session.toy.total} / {GOAL}", (40, 80, 720, 120), size=64, align="center")
        for i, step in enumerate((1, 2, 3)):
            canvas.button((100 + 220 * i, 240, 160, 96), f"+{step}", partial(session.choose, step))
        self.draw_message(canvas, canvas.rect.clip((20, 400, 760, 60)))


# --- the simulated table: players who tap the screen and press their buttons -------------------------


@dataclass
class Played:
    """What the simulated players did, for the test to compare with the journal."""

    taps: list[str] = field(default_factory=list)
    presses: list[int] = field(default_factory=list)
    waited: list[int] = field(default_factory=list)  # seats that let their clock run out


class ToyTable(SimulatedTable):
    games = ("toy",)
    log = Played()
    press: ClassVar[Callable[[int], None]]  # a seat button pressed by hand (the test's GPIO pins)
    vision: ClassVar[Vision]  # what the players see of the camera: whether it has seen the table still

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.plan: tuple[int, int] | None = None  # (move number, step; 0 = let the clock run out)
        self.laid = 0  # the counters before the camera

    def camera_frame(self) -> Any:
        return lay_counters(self.laid)

    def play(self, session: GameSession) -> None:
        assert isinstance(session, ToySession)
        seat = session.current_seat
        if seat is None:
            return
        if self.plan is None or self.plan[0] != session.seq:
            self.laid = 0  # the last move's counters go back to the box
            left = GOAL - session.toy.total
            waits = not self.log.waited or (session.seq == 3 and seat not in self.log.waited)
            self.plan = (session.seq, 0 if waits and left > 1 else self.rng.randint(1, min(3, left)))
            if self.plan[1] == 0:
                self.log.waited.append(seat)
            return
        step = self.plan[1]
        if step == 0:
            return  # this player thinks too long; the move timer will end the move
        if session.chosen != step:
            label = f"+{step}"
            assert self.host.tap(label)
            self.log.taps.append(label)
        elif self.laid != step:
            self.laid = step  # laid before the camera; the player presses once it has seen them still
        else:
            # Pressed once the camera has seen them still, once a move (its reading is on its way).
            view = type(self).vision.view()
            pending = len(self.log.presses) > session.seq - len(self.log.waited)
            if view is not None and view.state == "settled" and not pending:
                self.log.presses.append(seat)
                type(self).press(seat)


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy's four registrations, undone after the test (the other tests never see it)."""
    monkeypatch.setitem(rules.registry._GAMES, "toy", SPEC)
    monkeypatch.setitem(SESSIONS, "toy", ToySession)
    monkeypatch.setitem(SCREENS, "toy_table", ToyScreen)
    monkeypatch.setitem(TABLES, "toy", ToyTable)
    ToyTable.log = Played()


BUTTONS, LEDS = (17, 27), (5, 6)


def test_a_toy_game_plays_through_the_real_loop(toy_game, make_app, clock, tmp_path: Path) -> None:
    factory = MockFactory()
    app = make_app()
    sim = Simulator(app, seed=5, autoplay="toy", camera=True)
    requested: list[Seen] = []

    def post(event: Seen) -> None:  # the vision worker's readings, on their way to the queue
        if event.kind == "requested":
            requested.append(event)
        app.post(event)

    # The camera films the simulated table; the vision worker reads each frame in the loop below.
    vision = Vision(LiveFeed(sim.camera_frame), post, threaded=False)
    app.camera = ToyTable.vision = vision
    panel = SeatPanel(BUTTONS, LEDS, None, app.post, hold_seconds=5.0, pin_factory=factory)

    def press(seat: int) -> None:  # a real press on the mock GPIO pin: the driver posts the event
        pin = factory.pin(BUTTONS[seat])
        pin.drive_low()
        pin.drive_high()

    ToyTable.press = staticmethod(press)
    app.signals = SeatSignals([panel], 2)
    lit: list[tuple[int | None, bool, tuple[LedPattern, ...], tuple[float, ...]]] = []
    for _ in range(4000):
        sim.poll()
        app.step()
        vision.process_latest()
        session = app.session
        if app.screen.name == "toy_table":
            check_layout(app)
        if session is not None and not session.finished:
            patterns = tuple(panel.led_pattern(s) for s in range(2))
            pins = tuple(float(factory.pin(pin).state) for pin in LEDS)
            lit.append((session.current_seat, session.timer.warning(), patterns, pins))
        if app.screen.name == "end":
            break
        clock.advance(0.5)
    panel.close()
    vision.stop()

    session = app.session
    assert isinstance(session, ToySession) and session.finished and app.screen.name == "end"
    assert isinstance(sim.table, ToyTable)
    # The seat LEDs followed the seat to move: lit, blinking in the last seconds, the other one dark.
    assert lit and {seat for seat, *_ in lit} == {0, 1}
    for seat, warning, patterns, pins in lit:
        assert seat is not None
        assert patterns[seat] is (LedPattern.BLINK if warning else LedPattern.ON)
        assert patterns[1 - seat] is LedPattern.OFF and pins[1 - seat] == 0
        if not warning:
            assert pins[seat] == 1  # the mock pin itself, not only what the driver was told
    # The move timer fired: the warning blinked, then the waiting players' moves were passes.
    assert any(warning for _, warning, *_ in lit) and len(ToyTable.log.waited) >= 2
    stored = app.journal.actions(session.game_id)
    acts = [rules.action_from_json(item.action) for item in stored]
    assert acts == session.history
    passes = [item for item, act in zip(stored, acts, strict=True) if isinstance(act, Pass)]
    assert len(passes) == len(ToyTable.log.waited)
    assert [item.seat for item in passes] == ToyTable.log.waited
    for item in passes:
        assert item.seconds == pytest.approx(MOVE_SECONDS, abs=1.0)
    # Every action is booked to the seat that was to move, with the time it took.
    seats = [item.seat for item in stored]
    assert seats == [i % 2 for i in range(len(stored))]
    assert all(item.seconds > 0 for item in stored)
    assert sum(item.seconds for item in stored) == pytest.approx(sum(session.time_used()), abs=1e-6)
    adds = [act for act in acts if isinstance(act, Add)]
    assert sum(a.step for a in adds) == GOAL
    assert len(ToyTable.log.presses) == len(adds)  # one seat press per entered move
    # Each press asked the camera (the session's port) and the vision worker read the counters laid.
    assert [len(seen.observation.items) for seen in requested] == [a.step for a in adds]  # type: ignore[union-attr]
    # The journal replays to the same game, and the finished game is in the history.
    replayed = rules.replay(SPEC.options_type.from_dict(app.journal.games()[0].options), acts)
    assert replayed == session.state
    assert [g.game for g in app.journal.games(finished_only=True)] == ["toy"]


def test_the_toy_refuses_a_press_out_of_turn_and_a_press_before_a_choice(toy_game, make_app) -> None:
    app = make_app()
    app.start_game(SPEC.options_type(), ["Ala", "Ola"])
    session = app.session
    assert isinstance(session, ToySession) and app.screen.name == "toy_table"
    from tests.device.helpers import press, tap

    press(app, 1)
    assert session.refusal is not None and session.refusal.code == "not_your_turn"
    press(app, 0)
    assert session.refusal is not None and session.refusal.code == "nothing_chosen"
    tap(app, "+3")
    press(app, 0)  # no camera: nothing reads the counters
    assert session.refusal is not None and session.refusal.code == "no_camera" and session.toy.total == 0
    app.readings_answered = True  # the test answers the readings the session asks for
    press(app, 0)
    app.post(Seen(counters(2), kind="requested"))
    app.step()
    assert session.refusal is not None and session.refusal.code == "counters" and session.toy.total == 0
    press(app, 0)
    app.post(Seen(counters(3), kind="requested"))
    app.step()
    assert session.toy.total == 3 and session.current_seat == 1 and session.refusal is None
    # The shared top bar names every player in seat order, the one to move first in big letters.
    players = [d.text for d in app.canvas.log if d.kind == "player"]
    assert players == ["Ala", "Ola"] and "Ola" in app.canvas.texts()


def test_no_device_file_knows_the_toy() -> None:
    device = Path(__file__).resolve().parents[2] / "device"
    mentions = [p for p in device.rglob("*.py") if re.search(r"\btoy\b", p.read_text(encoding="utf-8"), re.I)]
    assert mentions == []
