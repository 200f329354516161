"""The simulator: the appliance on any computer, each game's table simulated by the program.

Keys: **F1–F4** are the seat buttons (a long press is a hold, as on the real buttons); each game's
simulated table adds its own (the dice: **R** rolls, **1–5** hold; see ``device.sessions.dice_sim``),
and may take mouse clicks before the screens do. While the owner counts his Zatre deck (Settings), the
simulated box of cards takes **N**, **H**, **X**, **R** and is what the camera films
(``device.zatre_deck_sim``).

The simulator owns what is common to every game: the seat keys, starting the game that ``--autoplay``
names (again, whenever a game ends), and one :class:`~device.sessions.simulated.SimulatedTable` for each
game that starts or resumes, looked up by the game's name in ``device.sessions.simulated.TABLES``.
The tables see the app only through :class:`AppTableHost`, the narrow
``device.sessions.simulated.TableHost`` (post, tap a labelled target, show a screen). Everything
else — what lies on the table, what the synthetic camera films, how the simulated players play — is
that table's. A game without a simulated table is played by hand on the screen.
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING

import numpy as np
import pygame

import rules
from device.events import Event, Key, Tap
from device.session import GameSession
from device.sessions.simulated import SimulatedTable, table_for
from device.zatre_deck_sim import DECK_SCREEN, DeckBox
from drivers.events import ButtonEvent
from drivers.seats import KeyboardSeats

if TYPE_CHECKING:
    from device.app import App

__all__ = ["EMPTY_TABLE", "NAMES", "SEAT_KEYS", "AppTableHost", "Simulator"]

log = logging.getLogger(__name__)

SEAT_KEYS = {pygame.K_F1: 0, pygame.K_F2: 1, pygame.K_F3: 2, pygame.K_F4: 3}
EMPTY_TABLE = np.full((720, 1280, 3), (40, 70, 30), dtype=np.uint8)  # BGR: the green felt of a bare table
NAMES = ("Ala", "Ola", "Ela", "Iza", "Ula", "Ewa")  # the simulated players


class AppTableHost:
    """The app as a simulated table sees it (``device.sessions.simulated.TableHost``): the game, the
    screen's name and its labelled targets, the queue; never the loop or the canvas themselves."""

    def __init__(self, app: App) -> None:
        self._app = app
        self.clock = app.clock

    @property
    def session(self) -> GameSession | None:
        return self._app.session

    @property
    def screen(self) -> str:
        return self._app.screen.name

    @property
    def frames(self) -> int:
        return self._app.frames

    def post(self, event: Event) -> None:
        self._app.post(event)

    def text(self, msgid: str, **values: object) -> str:
        return self._app.tr.format(msgid, **values)

    def labels(self) -> list[str]:
        return [t.label for t in self._app.canvas.targets]

    def tap(self, label: str) -> bool:
        target = next((t for t in self._app.canvas.targets if t.label == label), None)
        if target is None:
            return False
        self._app.post(Tap(target.rect.center))
        return True

    @property
    def camera_size(self) -> tuple[int, int]:
        camera = self._app.config.camera
        return (camera.width, camera.height)

    def image_rect(self, label: str) -> pygame.Rect | None:
        drawn = next((d for d in self._app.canvas.log if d.kind == "image" and d.text == label), None)
        return None if drawn is None else pygame.Rect(drawn.rect)

    def show(self, screen: str) -> None:
        self._app.show(screen)

    def show_game(self) -> None:
        self._app.show_game()


class Simulator:
    def __init__(
        self,
        app: App,
        *,
        seed: int = 0,
        seats: KeyboardSeats | None = None,
        camera: bool = False,
        autoplay: str | None = None,
    ) -> None:
        self.app = app
        self.rng = random.Random(seed)
        self.seats = seats  # None: the seat keys post presses directly
        self.camera = camera  # the synthetic camera films the tables (else they post their readings)
        app.readings_answered = not camera
        self.autoplay = autoplay  # the game the simulated players start and play, if any
        self.clock = app.clock
        self.host = AppTableHost(app)  # what the tables see of the app
        self.table: SimulatedTable | None = None  # the current game's
        self.deck_box: DeckBox | None = None  # the box of Zatre cards the owner counts (Settings)
        self._table_of: GameSession | None = None
        self._resumed_checked = False  # autoplay: whether a resumed game of another kind was set aside
        app.key_hooks.append(self.on_key)
        app.tap_hooks.append(self.on_tap)
        app.session_hooks.append(self.on_session)
        if app.session is not None:
            self.on_session(app.session)  # the app resumed a game before the simulator was made

    # --- the current game's table ---------------------------------------------------------------------

    def on_session(self, session: GameSession) -> None:
        """A game started or resumed: a fresh table of its kind (none if the game has no simulation)."""
        if session is self._table_of:
            return
        kind = table_for(session.spec.name)
        self.table = None if kind is None else kind(self.host, self.rng, camera=self.camera)
        self._table_of = session
        if kind is None:
            log.info("%s has no simulated table: it is played on the screen", session.spec.name)

    def live(self) -> tuple[GameSession, SimulatedTable] | None:
        """The game being played and its table, while there is one and the game is on."""
        session = self.app.session
        if session is None or session.finished or self.table is None or session is not self._table_of:
            return None
        return session, self.table

    # --- input ---------------------------------------------------------------------------------------

    def counting_deck(self) -> DeckBox | None:
        """The box of Zatre cards while the owner's deck count shows (made the first time)."""
        if self.app.screen.name != DECK_SCREEN:
            return None
        if self.deck_box is None:
            self.deck_box = DeckBox(self.host, self.rng, camera=self.camera)
        return self.deck_box

    def on_key(self, event: Key) -> bool:
        box = self.counting_deck()
        if box is not None and box.on_key(event):
            return True
        if event.key in SEAT_KEYS:
            seat = SEAT_KEYS[event.key]
            if self.seats is not None:
                self.seats.key(seat, event.down, self.clock())
            elif event.down:
                self.app.post(ButtonEvent(seat, "press", "keyboard"))
            return True
        live = self.live()
        return live is not None and live[1].on_key(event)

    def on_tap(self, event: Tap) -> bool:
        live = self.live()
        return live is not None and live[1].on_mouse(event)

    def poll(self) -> None:
        """Once per frame: the keyboard seats' hold timing, the table, autoplay."""
        if self.seats is not None:
            self.seats.poll(self.clock())
        box = self.counting_deck()
        if box is not None:
            box.poll()
        if self.autoplay and not self._resumed_checked:
            self._resumed_checked = True
            self.set_aside_other_game(self.autoplay)
        live = self.live()
        if live is None:
            if self.autoplay and self.app.screen.name in ("home", "end"):
                self.start_autoplay(self.autoplay)
            return
        session, table = live
        table.poll(session)
        if self.autoplay:
            table.play(session)

    def camera_frame(self) -> np.ndarray:
        """The synthetic camera's picture: the current table's (the box of cards while the owner counts
        his Zatre deck), or the bare felt."""
        box = self.deck_box if self.app.screen.name == DECK_SCREEN else None
        if box is not None:
            frame = box.camera_frame()
            return EMPTY_TABLE if frame is None else frame
        live = self.live()
        frame = live[1].camera_frame() if live is not None else None
        return EMPTY_TABLE if frame is None else frame

    # --- autoplay ------------------------------------------------------------------------------------

    def set_aside_other_game(self, game: str) -> None:
        """``--autoplay GAME`` found an unfinished game of another kind resumed from the journal: play
        the game asked for, and keep the other unfinished (it resumes when the simulator starts without
        ``--autoplay``), saying so on the log. A game of the kind asked for is played on."""
        session = self.app.session
        if session is None or session.finished:
            return
        name, _, variant = game.partition(":")
        spec = rules.get_game(name)
        asked = variant or next(iter(spec.variants), None)
        if session.spec.name == name and spec.variant_of(session.options.to_dict()) == asked:
            return
        log.warning(
            "--autoplay %s: the unfinished %s game (%s, journal game %d) is kept, not played; it resumes "
            "when the simulator starts without --autoplay",
            game,
            session.spec.title("en", session.options.to_dict().get("variant")),
            ", ".join(p.name for p in session.players),
            session.game_id,
        )
        self.start_autoplay(game, keep_unfinished=True)

    def start_autoplay(self, game: str, *, keep_unfinished: bool = False) -> None:
        """Start ``game`` for simulated players; ``GAME:VARIANT`` (``yahtzee:triple``) picks a variant."""
        name, _, variant = game.partition(":")
        overrides: dict[str, object] = {"players": 2, "seed": self.rng.randrange(2**31)}
        spec = rules.get_game(name)
        if variant or spec.variants:
            overrides[spec.variant_field] = variant or next(iter(spec.variants))
        kind = table_for(name)
        if kind is not None:
            overrides.update(kind.autoplay_options(name, self.rng))
        options = self.app.settings.game_options(name, **overrides)
        self.app.start_game(options, list(NAMES[: options.players]), keep_unfinished=keep_unfinished)
