"""The simulator: the appliance on any computer, with the dice rolled by the program.

Keys: **R** rolls the dice that are not held, **1–5** put die 1–5 into the hold zone (or take it out),
**F1–F4** are the seat buttons, Space/Enter confirms for the current seat, arrows pick a box.

The simulated dice reach the game the way real ones do: the synthetic camera renders them
(``vision.synth.render_dice_scene``, held dice in the hold zone), the vision worker reads the frames and
posts the settled reading. When the dice reader is not installed the simulator posts what it rolled as
the reading directly (said in the log at start).

``autoplay`` makes the simulated players play by themselves (roll up to three times, holding the most
frequent face, then enter the best box); the resume tests kill such a run at random moments.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pygame

from device.events import DiceSeen, Key, SeenDie
from device.sessions.dice import DiceSession
from drivers.events import ButtonEvent
from rules.dice import Roll, random_roll

__all__ = ["SEAT_KEYS", "Simulator"]

log = logging.getLogger(__name__)

SEAT_KEYS = {pygame.K_F1: 0, pygame.K_F2: 1, pygame.K_F3: 2, pygame.K_F4: 3}
EMPTY_TABLE = np.full((720, 1280, 3), (40, 70, 30), dtype=np.uint8)  # BGR: the green felt of a dice tray
PATIENCE_SECONDS = 4.0  # autoplay: how long a simulated player waits for the camera's reading
HOLD_KEYS = {pygame.K_1: 0, pygame.K_2: 1, pygame.K_3: 2, pygame.K_4: 3, pygame.K_5: 4}


class Simulator:
    def __init__(
        self,
        app: Any,
        *,
        seed: int = 0,
        seats: Any = None,
        render: Callable[..., Any] | None = None,
        autoplay: str | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.app = app
        self.rng = random.Random(seed)
        self.scene_rng = np.random.default_rng(seed)  # the renderer's: positions, angles, colours
        self.seats = seats  # drivers.seats.KeyboardSeats, or None: seat keys post presses directly
        self.render = render  # vision.synth.render_dice_scene, or None: readings are posted directly
        self.autoplay = autoplay  # the game the simulated players start and play, if any
        self.clock = clock or app.clock
        self.values: tuple[int, ...] | None = None
        self.held: set[int] = set()
        self.frame: np.ndarray | None = None
        self.frame_seq = 0
        self._turn_seq = -1
        self._rolled_at = 0.0
        app.key_hooks.append(self.on_key)

    @property
    def session(self) -> DiceSession | None:
        session = self.app.session
        return session if isinstance(session, DiceSession) and not session.finished else None

    # --- keys ----------------------------------------------------------------------------------------

    def on_key(self, event: Key) -> bool:
        if event.key in SEAT_KEYS:
            seat = SEAT_KEYS[event.key]
            if self.seats is not None:
                self.seats.key(seat, event.down, self.clock())
            elif event.down:
                self.app.post(ButtonEvent(seat, "press", "keyboard"))
            return True
        if not event.down or self.session is None or self.app.screen.name != self.session.table_screen:
            return False
        if event.key == pygame.K_r:
            self.roll()
            return True
        if event.key in HOLD_KEYS:
            self.toggle_hold(HOLD_KEYS[event.key])
            return True
        return False

    def poll(self) -> None:
        """Once per frame: the keyboard seats' hold timing, a new turn's reset, autoplay."""
        if self.seats is not None:
            self.seats.poll(self.clock())
        session = self.session
        if session is None:
            if self.autoplay and self.app.screen.name in ("home", "end"):
                self.start_autoplay(self.autoplay)
            return
        if session.rolls_used == 0 and self._turn_seq != session.seq:
            # A new turn: every die is picked up again.
            self.values = None
            self.held = set()
            self._turn_seq = session.seq
        elif session.rolls_used > 0 and self.values is None and session.dice is not None:
            # Resumed in the middle of a turn: the dice of the journal's last roll lie on the table.
            self.values = session.dice.values
            self.show()
        if self.autoplay:
            self.play(session)

    # --- the dice ------------------------------------------------------------------------------------

    def toggle_hold(self, position: int) -> None:
        if self.values is None:
            return
        self.held ^= {position}
        self.show()

    def roll(self) -> None:
        session = self.session
        if session is None:
            return
        previous = Roll(self.values) if self.values is not None and session.rolls_used > 0 else None
        held = tuple(sorted(self.held)) if previous is not None else ()
        self.values = random_roll(self.rng, previous, held).values
        self._rolled_at = self.clock()
        self.show()
        if self.render is None:
            dice = tuple(SeenDie(v, held=i in self.held) for i, v in enumerate(self.values))
            self.app.post(DiceSeen(dice))

    def show(self) -> None:
        """Render the table as the synthetic camera sees it (held dice in the hold zone)."""
        if self.render is None or self.values is None:
            return
        held = tuple(i in self.held for i in range(len(self.values)))
        self.frame, _ = self.render(self.values, rng=self.scene_rng, held=held)
        self.frame_seq += 1

    def camera_frame(self) -> np.ndarray:
        """The synthetic camera's picture: the last rendered table (an empty dark tray before a roll)."""
        if self.frame is None:
            return EMPTY_TABLE
        return self.frame

    # --- autoplay ------------------------------------------------------------------------------------

    def start_autoplay(self, game: str) -> None:
        options = self.app.settings.game_options(game, players=2, seed=self.rng.randrange(2**31))
        self.app.start_game(options, ["Ala", "Ola"])

    def play(self, session: DiceSession) -> None:
        """One step of a simulated player: roll (holding the most common face), or enter the best box.

        Like a player at the table it fixes a reading the camera was unsure of (it knows its dice), and
        when the referee recorded other dice than it threw (a misread, a refused roll) it goes on with
        the referee's dice after a few seconds."""
        if session.pending is not None:
            if self.values is not None:
                later = session.rolls_used > 0
                session.correct(self.values, [later and i in self.held for i in range(len(self.values))])
                self.app.show(session.table_screen)
            return
        if session.rolls_used == 0 and self.values is None:
            self.roll()
            return
        if self.values is None or session.dice is None or sorted(session.dice.values) != sorted(self.values):
            # The roll is still on its way through the camera (which reads in its own order) ...
            if self.clock() - self._rolled_at > PATIENCE_SECONDS:
                # ... or it never will be: carry on from what the referee has.
                self.values = session.dice.values if session.dice is not None and session.rolls_used else None
                self.held = set()
                self._rolled_at = self.clock()
                self.show()
            return
        if session.rolls_used < 3 and self.rng.random() < 0.5:
            face, _ = Counter(self.values).most_common(1)[0]
            self.held = {i for i, v in enumerate(self.values) if v == face}
            self.roll()
            return
        box = session.best_choice()
        seat = session.current_seat
        if box is not None and seat is not None:
            session.select(box)
            self.app.post(ButtonEvent(seat, "press", "autoplay"))
