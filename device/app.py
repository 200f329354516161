"""The appliance: one pygame loop that owns the game, fed by one event queue.

Each frame :meth:`App.step` takes every queued event and routes it:

- touches go to the drawn target under the finger, keys to the current screen (after the simulator's
  key hooks): they are the screens' input, turned into calls on the session;
- every domain event — a seat button, a reading of the table, the camera lost or back, and the move
  timer's warning and timeout (polled each frame) — goes to ``session.handle``, whatever screen is
  showing, so none is lost behind the settings or the history; what it changed there is shown as a
  banner. On the game's own screens the app follows the session's phase (``session.screen``), and
  shows the end screen when the game is over.

Screens see the app only as a :class:`device.host.Host`. An unexpected error in any of that is logged
(once per distinct error) and shown on the *failsafe* screen; the loop goes on, and the game resumes
from the journal when the players tap Continue.
"""

from __future__ import annotations

import logging
import random
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

import pygame

import device.screens  # registers the screens
import device.sessions  # noqa: F401  (registers the game sessions)
from device.camera_view import CameraFeed, GameReader
from device.config import Config
from device.events import (
    CameraBack,
    CameraLost,
    Event,
    EventQueue,
    Key,
    PodConnected,
    PodLost,
    Quit,
    Seen,
    Tap,
    Tick,
    TimerSignal,
)
from device.i18n import Translator
from device.journal import Journal, JournalError
from device.screens.base import SCREENS, Screen
from device.seat_signals import SeatSignals
from device.session import SESSIONS, GameSession, Refusal
from device.settings import Settings
from device.timer import Clock, MoveTimer
from device.ui.canvas import Canvas
from device.ui.names import refusal_text
from device.ui.theme import ACCENT, PANEL
from device.vision_worker import Vision
from device.voice.speaker import Speaker
from rules import Options
from vision.observation import Observation

__all__ = ["BANNER_SECONDS", "App", "AppReadings", "Banner"]

log = logging.getLogger(__name__)

BANNER_SECONDS = 6.0


@dataclass(frozen=True)
class Banner:
    """What the game did while another screen showed (settings, history), for a few seconds."""

    text: str
    at: float


class AppReadings:
    """The camera port (``device.readings``) the app gives each game: a request goes to the camera at
    once, and its reading comes back through the queue as ``Seen(kind="requested")``. Without a camera
    only the simulator's tables answer (:attr:`App.readings_answered`); otherwise nothing will."""

    def __init__(self, app: App) -> None:
        self.app = app

    def request(self, frames: int = 1) -> bool:
        camera = self.app.camera
        if camera is not None:
            camera.request(frames)
            return True
        return self.app.readings_answered


class App:
    def __init__(
        self,
        config: Config,
        *,
        surface: pygame.Surface,
        journal: Journal,
        clock: Clock = time.monotonic,
        signals: SeatSignals | None = None,
        camera: CameraFeed | None = None,
    ) -> None:
        self.config = config
        self.journal = journal
        self.clock = clock
        self.queue = EventQueue()
        self.settings = Settings.load(config, journal)
        self.tr = Translator(self.settings.language)
        self.canvas = Canvas(surface)
        self.signals = signals or SeatSignals((), config.seats.count)
        self.camera = camera  # the vision worker (or None): its latest view is drawn on the table screen
        # New games' seeds (their shuffles and deals): from the clock, unless a scripted simulator run
        # gives them from ``--seed`` so that a script meets the same deals every time it is played.
        self.game_seeds: random.Random | None = None
        # Something other than a camera answers the readings a session asks for (the simulator's tables
        # with --no-camera): without a camera such a request is then not refused.
        self.readings_answered = False
        self.session: GameSession | None = None
        self.screens: dict[str, Screen] = {name: cls(self) for name, cls in SCREENS.items()}
        self.screen: Screen = self.screens["home"]
        self.failure: str | None = None
        self.journal_failed = False
        self.camera_status: str | None = None
        self._reader_before: tuple[object] | None = None  # the camera's reader before a screen's own
        self.banner: Banner | None = None
        self.key_hooks: list[Callable[[Key], bool]] = []  # the simulator's keys, before the screen's
        self.tap_hooks: list[Callable[[Tap], bool]] = []  # the simulated table's clicks, before the screen's
        self.session_hooks: list[Callable[[GameSession], None]] = []  # told of each new or resumed game
        self.frame_hooks: list[Callable[[], None]] = []  # after each frame's events (the voice's narrator)
        self.voice: Speaker | None = None  # the referee's voice (device.voice.attach), if it speaks
        self.running = True
        self.frames = 0
        self._logged_failure: str | None = None
        self._guarded(self.resume_unfinished)

    def game_seed(self) -> int:
        """The seed of a game a person starts (its shuffles and deals)."""
        if self.game_seeds is not None:
            return self.game_seeds.randrange(2**31)
        return int(self.clock() * 1000) % (2**31)

    # --- the loop ------------------------------------------------------------------------------------

    def post(self, event: Event) -> None:
        """Thread-safe: drivers, the vision worker and the simulator put events here."""
        self.queue.post(event)

    def step(self) -> None:
        """One frame: handle every queued event, poll the timer, draw."""
        events: list[Event] = [*self.queue.drain(), Tick(self.clock())]
        for event in events:
            self._guarded(partial(self.dispatch, event))
        for hook in self.frame_hooks:
            self._guarded(hook)
        self._guarded(self.draw)
        self.frames += 1

    def draw(self) -> None:
        self.screen.draw(self.canvas)
        banner = self.banner
        if banner is not None and self.clock() - banner.at < BANNER_SECONDS and not self.on_game_screen():
            canvas = self.canvas
            box = pygame.Rect(canvas.px(8), canvas.height - canvas.px(60), canvas.width - canvas.px(16), 0)
            box.height = canvas.px(52)
            canvas.shape(box, PANEL, radius=canvas.px(8))
            canvas.text(banner.text, box.inflate(-canvas.px(16), 0), size=22, colour=ACCENT)
            canvas.record("banner", banner.text, box)

    def _guarded(self, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception as exc:
            self.fail(exc)

    def fail(self, exc: BaseException) -> None:
        failure = f"{type(exc).__name__}: {exc}"
        if failure != self._logged_failure:
            log.error(
                "unexpected error; showing the failsafe screen\n%s", "".join(traceback.format_exception(exc))
            )
            self._logged_failure = failure
        self.failure = failure
        self.journal_failed = isinstance(exc, JournalError)
        if self.screen.name == "failsafe":
            return  # already showing it; the failsafe screen asks nothing that could fail again
        self.show("failsafe")
        try:
            self.screen.draw(self.canvas)
        except Exception:
            log.exception("the failsafe screen itself failed to draw")

    def dispatch(self, event: Event) -> None:
        if isinstance(event, Quit):
            self.running = False
        elif isinstance(event, Tap):
            if any(hook(event) for hook in self.tap_hooks):
                return
            target = self.canvas.hit(event.pos)
            if target is not None and target.action is not None:
                target.action()
                self.after_input()
        elif isinstance(event, Tick):
            self.tick()
        elif isinstance(event, Key):
            if any(hook(event) for hook in self.key_hooks) or not event.down:
                return
            self.screen.handle(event)
            self.after_input()
        elif isinstance(event, PodConnected | PodLost):
            log.info("%s", event)
        elif isinstance(event, Seen) and self.screen.reader is not None:
            self.screen.handle(event)  # the screen reads the table itself (the Zatre deck count)
        else:
            if isinstance(event, CameraLost):
                self.camera_status = self.tr.format("Camera lost: {reason}", reason=event.reason)
            elif isinstance(event, CameraBack):
                self.camera_status = None
            self.to_session(event)

    def to_session(self, event: object) -> None:
        """A domain event for the game (none without a game: the home screen has nothing to do with it)."""
        session = self.session
        if session is None:
            return
        before = (session.seq, session.refusal, session.current_seat)
        session.handle(event)
        self.after_session(session, *before)

    def after_input(self) -> None:
        session = self.session
        if session is not None:
            self.after_session(session, session.seq, session.refusal, session.current_seat)

    def after_session(
        self, session: GameSession, seq: int, refusal: Refusal | None, seat: int | None
    ) -> None:
        if self.on_game_screen():
            target = "end" if session.finished else session.screen
            if target != self.screen.name:
                self.show(target)
            return
        if session.refusal is not None and session.refusal is not refusal:
            self.banner = Banner(refusal_text(self.tr, session.refusal), self.clock())
        elif session.seq != seq:
            name = session.players[seat].name if seat is not None else ""
            text = self.tr.format("Move recorded for {name}", name=name) if name else ""
            if session.finished:
                text = self.tr.format("Game over")
            self.banner = Banner(text, self.clock()) if text else self.banner

    def on_game_screen(self) -> bool:
        """Whether the screen showing is one of the current game's own (its table, its correction)."""
        session = self.session
        return session is not None and self.screen.name in (session.table_screen, *session.screens)

    def tick(self) -> None:
        session = self.session
        if session is None or session.finished:
            self.signals.show(None)
            if session is not None and self.on_game_screen():
                self.show("end")
            return
        signal = session.timer.poll()
        seat = session.current_seat
        if signal is not None and seat is not None:
            self.signals.beep(1 if signal == "warning" else 3)
            self.to_session(TimerSignal(signal, seat))
            if session.finished:
                self.signals.show(None)
                return
        timer = session.timer
        self.signals.show(
            session.current_seat, warning=timer.warning(), paused=timer.paused, seconds_left=timer.remaining()
        )

    # --- screens and games ---------------------------------------------------------------------------

    def show(self, name: str, **kwargs: Any) -> None:  # Any: the screen's own keywords (Screen.enter)
        self.screen = self.screens[name]
        self.screen.enter(**kwargs)
        self._screen_reader()

    def _screen_reader(self) -> None:
        """The camera reads with the screen's own reader while it shows (``Screen.reader``: the Zatre
        deck count); after it, with the game's again (without a game: what it read before)."""
        if not isinstance(self.camera, Vision):
            return
        own = self.screen.reader
        if own is not None:
            if self.camera.reader is not own:
                if self._reader_before is None:
                    self._reader_before = (self.camera.reader,)
                self.camera.use(own)
        elif self._reader_before is not None:
            (before,) = self._reader_before
            self._reader_before = None
            session = self.session
            self.camera.use(
                session.reader if session is not None else cast("GameReader[Observation] | None", before)
            )

    def show_game(self) -> None:
        session = self.session
        if session is None:
            self.show("home")
        elif session.finished:
            self.show("end")
        else:
            self.show(session.screen)

    def set_language(self, language: str) -> None:
        self.settings.set("language", language)
        self.tr.set_language(language)

    def new_timer(self, options: Options) -> MoveTimer:
        return MoveTimer(self.settings.move_seconds(options), clock=self.clock)

    def set_move_seconds(self, game: str, seconds: int) -> None:
        self.settings.set_timer(game, seconds)
        session = self.session
        if session is not None and session.spec.name == game:
            session.timer.limit_seconds = float(self.settings.move_seconds(session.options))

    def start_game(self, options: Options, names: list[str], *, keep_unfinished: bool = False) -> GameSession:
        """Start a game; the unfinished one is abandoned (left), unless ``keep_unfinished``: then it stays
        in the journal to be resumed (the simulator's ``--autoplay`` of another game)."""
        if self.session is not None and not self.session.finished:
            if keep_unfinished:
                self.session.timer.stop()
            else:
                self.session.abandon()
        spec_name = _game_name(options)
        session = SESSIONS[spec_name].start(self.journal, options, names, self.new_timer(options))
        self._attach(session)
        view = self.camera.view() if self.camera is not None else None
        if view is not None:
            observation = view.observation if view.state == "settled" else None
            self.to_session(Seen(observation, kind="start"))
        self.show(session.screen)
        return session

    def resume_unfinished(self) -> None:
        """Back in the unfinished game of the journal, if there is one (after a power cut or a crash)."""
        stored = self.journal.unfinished()
        if stored is None or stored.game not in SESSIONS:
            self.session = None
            self.show("home")
            return
        options = SESSIONS[stored.game].stored_options(stored)
        session = SESSIONS[stored.game].resume(self.journal, stored, self.new_timer(options))
        self._attach(session)
        self.show(session.screen)

    def _attach(self, session: GameSession) -> None:
        self.session = session
        session.readings = AppReadings(self)
        if isinstance(self.camera, Vision):
            self.camera.use(session.reader)  # the camera reads what this game needs
        for hook in self.session_hooks:
            hook(session)

    def dismiss_failure(self) -> None:
        self.failure = None
        self.journal_failed = False
        self._logged_failure = None
        self.resume_unfinished()

    def set_aside_unfinished(self) -> None:
        """The way out when the unfinished game cannot be resumed: it stays in the journal (history,
        export) but is no longer resumed."""
        stored = self.journal.unfinished()
        if stored is not None:
            self.journal.abandon(stored.id)
        self.session = None
        self.failure = None
        self.show("home")

    def end_session(self) -> None:
        """Leave the current game: an unfinished one is abandoned (kept in the journal, not resumed)."""
        if self.session is not None and not self.session.finished:
            self.session.abandon()
        self.session = None
        self.show("home")

    def replay_with_same_players(self) -> None:
        session = self.session
        if session is None:
            self.show("home")
            return
        variant = session.spec.variant_of(session.options.to_dict())
        self.session = None
        self.show("players", game=session.spec.name, variant=None if variant is None else str(variant))


def _game_name(options: Options) -> str:
    import rules

    return rules.game_of(options).name
