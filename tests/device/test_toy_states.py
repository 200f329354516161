"""A game's phases as states need nothing outside the game's own files: a second toy game, with three
states, defined only here.

*Take away*: seven counters lie before the camera; the players take turns taking one or two of them;
whoever takes the last wins. Its session has three states (``device.states``): *choosing* (the
player touches how many he takes, takes them, presses his seat button; the state owns his choice),
*counting* (on enter it asks the camera, through the session's camera port, for a reading; the
reading comes back as an event: the counters left must be the pile less the choice, else back to
choosing, the choice kept) and *over*. Its screen draws the state it is given, one panel per state.
The rules, the session, the screen and the simulated table plug in through the registries; the game
is played through the real loop, the vision worker reading the simulated table's frames.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Annotated, Any, ClassVar, Self

import pytest

import rules
import rules.registry
from device.events import Seen
from device.screens.base import SCREENS
from device.screens.table import TableScreen
from device.session import SESSIONS, GameSession
from device.sessions.simulated import TABLES, SimulatedTable
from device.simulator import Simulator
from device.states import State
from device.ui.canvas import Canvas
from device.vision_worker import Vision
from drivers.events import ButtonEvent
from rules import Action, GameSpec, GameState, IllegalAction, Options
from rules.actions import action
from rules.options import Range
from rules.outcome import Outcome, Termination
from tests.device.helpers import check_layout, press, tap
from tests.device.toy_camera import COUNTER_READER, Counters, LiveFeed, counters, lay_counters

PILE = 7

# --- the rules ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TakeAwayOptions(Options):
    move_seconds: Annotated[int, Range(0, 120)] = 0

    @property
    def move_limit_seconds(self) -> int:
        return self.move_seconds


@action("test.take_away.take")
@dataclass(frozen=True)
class Take(Action):
    counters: int


@dataclass(frozen=True)
class TakeAwayState:
    options: TakeAwayOptions
    left: int = PILE
    turn: int = 0
    last: int | None = None  # the seat that took last

    @property
    def to_move(self) -> int | None:
        return None if self.left == 0 else self.turn % self.options.players

    @property
    def outcome(self) -> Outcome | None:
        if self.left or self.last is None:
            return None
        scores = [1 if seat == self.last else 0 for seat in range(self.options.players)]
        return Outcome.from_scores(Termination.ROUNDS_PLAYED, scores)

    def apply(self, act: Action) -> Self:
        seat = self.to_move
        if seat is None:
            raise IllegalAction("game_over", "the game is over")
        if not isinstance(act, Take) or not 1 <= act.counters <= min(2, self.left):
            raise IllegalAction("bad_take", f"take one or two of {self.left}: not {act}")
        return type(self)(self.options, self.left - act.counters, self.turn + 1, seat)


def _new(options: Options) -> TakeAwayState:
    assert isinstance(options, TakeAwayOptions)
    return TakeAwayState(options)


def _auto(options: Options) -> TakeAwayState:
    state, rng = _new(options), random.Random(options.seed)
    while state.outcome is None:
        state = state.apply(Take(rng.randint(1, min(2, state.left))))
    return state


def _describe(state: GameState) -> str:
    assert isinstance(state, TakeAwayState)
    return f"{state.left} left"


SPEC = GameSpec(
    name="take_away",
    titles={"pl": "Zabierz", "hu": "Elvenni", "de": "Wegnehmen", "en": "Take away"},
    options_type=TakeAwayOptions,
    new_game=_new,
    auto_play=_auto,
    describe=_describe,
)

# --- the session: three states ------------------------------------------------------------------------


@dataclass(frozen=True)
class Chosen:
    """The touch *take 1* / *take 2*."""

    counters: int


class Choosing(State["TakeAwaySession"]):
    name = "choosing"

    def __init__(self, chosen: int | None = None) -> None:
        self.chosen = chosen  # how many the player said he takes

    def handle(self, session: TakeAwaySession, event: object) -> State[TakeAwaySession] | None:
        if isinstance(event, Chosen):
            self.chosen = event.counters
        elif isinstance(event, ButtonEvent) and event.kind == "press":
            if session.pressed_out_of_turn(event.seat):
                return None
            if self.chosen is None:
                session.refuse("nothing_chosen", "touch how many you take first")
                return None
            return Counting(self.chosen)
        return None


class Counting(State["TakeAwaySession"]):
    name = "counting"

    def __init__(self, taken: int) -> None:
        self.taken = taken

    def enter(self, session: TakeAwaySession) -> None:
        session.request_reading()

    def handle(self, session: TakeAwaySession, event: object) -> State[TakeAwaySession] | None:
        if not isinstance(event, Seen) or event.kind != "requested":
            return None
        assert isinstance(event.observation, Counters)
        left, wanted = len(event.observation.items), session.pile.left - self.taken
        if left != wanted:
            session.refuse("miscounted", f"{left} counters left, {wanted} should be", left=left)
            return Choosing(self.taken)
        session.submit(Take(self.taken))  # taken: the session goes where the rules say (acted)
        return None


class Over(State["TakeAwaySession"]):
    name = "over"


class TakeAwaySession(GameSession):
    game = "take_away"
    table_screen = "take_away_table"
    reader = COUNTER_READER

    @property
    def pile(self) -> TakeAwayState:
        assert isinstance(self.state, TakeAwayState)
        return self.state

    def initial_stage(self) -> State[Any]:
        return Over() if self.finished else Choosing()

    def acted(self, act: Action) -> None:
        assert self.machine is not None
        self.machine.go(self.initial_stage(), cause=type(act).__name__)

    def choose(self, n: int) -> None:
        self.send(Chosen(n))


# --- the screen: one panel per state ------------------------------------------------------------------


def draw_choosing(screen: TakeAwayScreen, canvas: Canvas, stage: Choosing) -> None:
    for i, n in enumerate((1, 2)):
        canvas.button(
            (180 + 240 * i, 220, 200, 96),
            f"take {n}",
            partial(screen.session_of().choose, n),
            selected=stage.chosen == n,
        )


def draw_counting(screen: TakeAwayScreen, canvas: Canvas, stage: Counting) -> None:
    canvas.text(f"Counting what is left of {stage.taken} taken…", (40, 240, 720, 60), size=28, align="center")


PANELS: dict[type[State[Any]], Any] = {
    Choosing: draw_choosing,
    Counting: draw_counting,
    Over: lambda *_: None,
}


class TakeAwayScreen(TableScreen):
    name: ClassVar[str] = "take_away_table"

    def session_of(self) -> TakeAwaySession:
        session = self.session
        assert isinstance(session, TakeAwaySession)
        return session

    def draw(self, canvas: Canvas) -> None:
        session = self.session_of()
        canvas.begin()
        self.draw_top(canvas)
        canvas.text(f"{session.pile.left} left", (40, 80, 720, 100), size=56, align="center")
        stage = session.stage
        assert stage is not None
        PANELS[type(stage)](self, canvas, stage)
        self.draw_message(canvas, canvas.rect.clip((20, 400, 760, 60)))


# --- the simulated table ------------------------------------------------------------------------------


@dataclass
class Seen_:
    phases: list[str] = field(default_factory=list)
    mistakes: int = 0


class TakeAwayTable(SimulatedTable):
    games = ("take_away",)
    log = Seen_()
    vision: ClassVar[Vision]  # what the players see of the camera: whether it has seen the table still

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.laid = PILE  # the counters on the table
        self.wrong = False  # the counters laid are not what the player chose

    def camera_frame(self) -> Any:
        return lay_counters(self.laid)

    def play(self, session: GameSession) -> None:
        assert isinstance(session, TakeAwaySession)
        stage, seat = session.stage, session.current_seat
        if not self.log.phases or self.log.phases[-1] != session.phase:
            self.log.phases.append(session.phase)
        if seat is None or not isinstance(stage, Choosing):
            return
        if stage.chosen is None:
            n = self.rng.randint(1, min(2, session.pile.left))
            assert self.host.tap(f"take {n}")
            # The first player takes one counter too many, once: the camera's count refuses it.
            self.wrong = session.seq == 0 and not self.log.mistakes and session.pile.left > n + 1
            self.log.mistakes += self.wrong
            self.laid = session.pile.left - n - self.wrong
            return
        refusal = session.refusal
        if self.wrong and refusal is not None and refusal.code == "miscounted":
            self.wrong = False
            self.laid = session.pile.left - stage.chosen  # the counter put back
            return
        view = type(self).vision.view()
        seen = None if view is None or view.state == "rolling" else view.observation
        if seen is not None and len(seen.items) == self.laid:  # the camera saw it still: press
            self.host.post(ButtonEvent(seat, "press", "sim"))


@pytest.fixture
def take_away(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rules.registry._GAMES, "take_away", SPEC)
    monkeypatch.setitem(SESSIONS, "take_away", TakeAwaySession)
    monkeypatch.setitem(SCREENS, "take_away_table", TakeAwayScreen)
    monkeypatch.setitem(TABLES, "take_away", TakeAwayTable)
    TakeAwayTable.log = Seen_()


def test_a_game_of_three_states_plays_through_the_real_loop(take_away, make_app, clock) -> None:
    app = make_app()
    sim = Simulator(app, seed=3, autoplay="take_away", camera=True)
    vision = Vision(LiveFeed(sim.camera_frame), app.post, threaded=False)
    app.camera = TakeAwayTable.vision = vision
    for _ in range(3000):
        sim.poll()
        app.step()
        vision.process_latest()
        if app.screen.name == "take_away_table":
            check_layout(app)
        if app.screen.name == "end":
            break
        clock.advance(0.2)
    vision.stop()

    session = app.session
    assert isinstance(session, TakeAwaySession) and session.finished and app.screen.name == "end", (
        machine_log(session)[-4:],
        session.refusal,
    )
    assert session.phase == "over" and isinstance(session.stage, Over)
    # Every move: choosing, then counting (the press), then choosing again or over (the action taken).
    assert machine_log(session)[0] == ("Choosing", "Counting", "ButtonEvent")
    moves = [t for t in machine_log(session) if t[2] == "Take"]
    assert len(moves) == session.seq and moves[-1][1] == "Over"
    assert all(before == "Counting" for before, _, _ in moves)
    # The one mistake laid: the camera's count refused it, back to choosing with the choice kept.
    assert TakeAwayTable.log.mistakes == 1
    assert ("Counting", "Choosing", "Seen") in machine_log(session)
    assert {"choosing", "counting"} <= set(TakeAwayTable.log.phases)
    acts = [rules.action_from_json(item.action) for item in app.journal.actions(session.game_id)]
    assert acts == session.history and sum(a.counters for a in acts if isinstance(a, Take)) == PILE
    assert rules.replay(session.options, acts) == session.state


def machine_log(session: GameSession) -> list[tuple[str, str, str]]:
    assert session.machine is not None
    return [(t.before, t.after, t.cause) for t in session.machine.transitions]


def test_each_state_owns_its_data_and_a_resume_starts_where_the_rules_say(take_away, make_app) -> None:
    app = make_app()
    app.readings_answered = True  # the test answers the readings asked for
    app.start_game(TakeAwayOptions(), ["Ala", "Ola"])
    session = app.session
    assert isinstance(session, TakeAwaySession) and isinstance(session.stage, Choosing)
    press(app, 0)
    assert session.refusal is not None and session.refusal.code == "nothing_chosen"
    tap(app, "take 2")
    stage = session.stage
    assert isinstance(stage, Choosing) and stage.chosen == 2
    press(app, 0)
    assert isinstance(session.stage, Counting) and session.stage.taken == 2 and session.phase == "counting"
    app.post(Seen(counters(PILE - 2), kind="requested"))
    app.step()
    # The action taken: a fresh choosing state for the next player, nothing of the last choice kept.
    assert session.pile.left == PILE - 2
    assert isinstance(session.stage, Choosing) and session.stage.chosen is None
    tap(app, "take 1")
    again = make_app(config=app.config)  # the power cut: the journal resumed
    resumed = again.session
    assert isinstance(resumed, TakeAwaySession) and resumed.history == session.history
    assert isinstance(resumed.stage, Choosing) and resumed.stage.chosen is None  # a touch is not journaled


def test_no_device_file_knows_take_away() -> None:
    device = Path(__file__).resolve().parents[2] / "device"
    pattern = re.compile(r"take_away|TakeAway")
    assert [p for p in device.rglob("*.py") if pattern.search(p.read_text(encoding="utf-8"))] == []
