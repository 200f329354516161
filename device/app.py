"""The appliance: one pygame loop that owns the game, fed by one event queue.

Each frame :meth:`App.step` takes every queued event (seat buttons, touches, keys, dice seen by the vision
worker, camera status), hands it to the current screen or the session, polls the move timer, and draws
the current screen. An unexpected error in any of that is logged and shown on the *failsafe* screen;
the loop goes on, and the game resumes from the journal when the players tap Continue.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable
from functools import partial
from typing import Any

import pygame

import device.screens  # registers the screens
import device.sessions  # noqa: F401  (registers the game sessions)
from device.config import Config
from device.events import ButtonEvent, CameraBack, CameraLost, Event, EventQueue, Key, Quit, Tap, Tick
from device.i18n import Translator
from device.journal import Journal
from device.screens.base import SCREENS, Screen
from device.seat_signals import SeatSignals
from device.session import SESSIONS, GameSession
from device.settings import Settings
from device.timer import Clock, MoveTimer
from device.ui.canvas import Canvas
from rules import Options

__all__ = ["App"]

log = logging.getLogger(__name__)


class App:
    def __init__(
        self,
        config: Config,
        *,
        surface: pygame.Surface,
        journal: Journal,
        clock: Clock = time.monotonic,
        signals: SeatSignals | None = None,
        camera: Any = None,
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
        self.session: GameSession | None = None
        self.screens: dict[str, Screen] = {name: cls(self) for name, cls in SCREENS.items()}
        self.screen: Screen = self.screens["home"]
        self.failure: str | None = None
        self.camera_status: str | None = None
        self.key_hooks: list[Callable[[Key], bool]] = []
        self.running = True
        self.frames = 0
        self._guarded(self.resume_unfinished)

    # --- the loop ------------------------------------------------------------------------------------

    def post(self, event: Any) -> None:
        """Thread-safe: drivers, the vision worker and the simulator put events here."""
        self.queue.post(event)

    def step(self) -> None:
        """One frame: handle every queued event, poll the timer, draw."""
        events: list[Event] = [*self.queue.drain(), Tick(self.clock())]
        for event in events:
            self._guarded(partial(self.dispatch, event))
        self._guarded(lambda: self.screen.draw(self.canvas))
        self.frames += 1

    def _guarded(self, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception as exc:
            self.fail(exc)

    def fail(self, exc: BaseException) -> None:
        log.error(
            "unexpected error; showing the failsafe screen\n%s", "".join(traceback.format_exception(exc))
        )
        self.failure = f"{type(exc).__name__}: {exc}"
        self.show("failsafe")
        try:
            self.screen.draw(self.canvas)
        except Exception:
            log.exception("the failsafe screen itself failed to draw")

    def dispatch(self, event: Event) -> None:
        if isinstance(event, Quit):
            self.running = False
        elif isinstance(event, Tap):
            target = self.canvas.hit(event.pos)
            if target is not None:
                target.action()
        elif isinstance(event, Tick):
            self.tick()
        elif isinstance(event, CameraLost):
            self.camera_status = self.tr.format("Camera lost: {reason}", reason=event.reason)
        elif isinstance(event, CameraBack):
            self.camera_status = None
        elif isinstance(event, Key) and (any(hook(event) for hook in self.key_hooks) or not event.down):
            return
        elif not isinstance(event, ButtonEvent) or event.kind == "press":
            self.screen.handle(event)

    def tick(self) -> None:
        session = self.session
        if session is not None and session.finished and self.screen.name == session.table_screen:
            self.show("end")
        if session is None or session.finished:
            self.signals.show(None)
            return
        signal = session.timer.poll()
        if signal == "warning":
            self.signals.beep(1)
        elif signal == "timeout":
            self.signals.beep(3)
            session.on_timeout()
            if session.finished:
                self.show("end")
                return
        timer = session.timer
        self.signals.show(
            session.current_seat, warning=timer.warning(), paused=timer.paused, seconds_left=timer.remaining()
        )

    # --- screens and games ---------------------------------------------------------------------------

    def show(self, name: str, **kwargs: Any) -> None:
        self.screen = self.screens[name]
        self.screen.enter(**kwargs)

    def set_language(self, language: str) -> None:
        self.settings.set("language", language)
        self.tr.set_language(language)

    def new_timer(self, game: str) -> MoveTimer:
        return MoveTimer(self.settings.timer_seconds(game), clock=self.clock)

    def start_game(self, options: Options, names: list[str]) -> GameSession:
        if self.session is not None and not self.session.finished:
            self.session.abandon()
        spec_name = _game_name(options)
        session = SESSIONS[spec_name].start(self.journal, options, names, self.new_timer(spec_name))
        self.session = session
        self.show(session.table_screen)
        view = self.camera.view() if self.camera is not None else None
        if view is not None:
            # The dice as they lie at the start are the new game's first reading (not a roll), so the
            # first throw after Start counts, however soon it comes (device/sessions/dice_rolls.py).
            from device.vision_worker import reading_of_view

            self.post(reading_of_view(view))
        return session

    def resume_unfinished(self) -> None:
        """Back in the unfinished game of the journal, if there is one (after a power cut or a crash)."""
        stored = self.journal.unfinished()
        if stored is None or stored.game not in SESSIONS:
            self.session = None
            self.show("home")
            return
        session = SESSIONS[stored.game].resume(self.journal, stored, self.new_timer(stored.game))
        self.session = session
        self.show(session.table_screen)

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


def _game_name(options: Options) -> str:
    import rules

    return rules.game_of(options).name
