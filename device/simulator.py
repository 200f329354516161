"""The simulator: the appliance on any computer, with the dice rolled by the program.

Keys: **R** rolls the dice that are not held, **1–5** put the die the screen shows as 1–5 into the hold
zone (or take it out), **F1–F4** are the seat buttons, Space/Enter confirms for the current seat, arrows
pick a box.

The simulated dice lie on a table like real ones: each keeps its place and angle until it is thrown, a
held die is pushed into the hold zone and the others stay where they are. They reach the game the way
real ones do: the synthetic camera renders them (``vision.synth.render_dice_scene``), the vision worker
reads the frames and posts the settled reading, and the session decides whether it was a roll. Without
a camera (``--no-camera``, or the dice reader not installed) the simulator posts what lies on its table
as the reading directly, positions included.

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
TABLE_SIZE = (1280, 720)  # the synthetic camera's frame
EMPTY_TABLE = np.full((720, 1280, 3), (40, 70, 30), dtype=np.uint8)  # BGR: the green felt of a dice tray
PATIENCE_SECONDS = 4.0  # autoplay: how long a simulated player waits for the camera's reading
HOLD_KEYS = {pygame.K_1: 0, pygame.K_2: 1, pygame.K_3: 2, pygame.K_4: 3, pygame.K_5: 4}
DIE_SIZE = 76.0  # px in the synthetic frame
HOLD_TOP = 0.8 * TABLE_SIZE[1]  # vision.synth.HOLD_FRACTION of the frame: the hold zone below


def free_spot(
    area: tuple[float, float, float, float], taken: list[tuple[float, float]], rng: random.Random
) -> tuple[float, float]:
    """A place for a die's centre in ``area`` (x0, y0, x1, y1) clear of the dice at ``taken``."""
    x0, y0, x1, y1 = area
    for _ in range(500):
        p = (rng.uniform(x0, x1), rng.uniform(y0, y1))
        if all(abs(p[0] - q[0]) > 1.6 * DIE_SIZE or abs(p[1] - q[1]) > 1.6 * DIE_SIZE for q in taken):
            return p
    raise ValueError(f"no room for another die in {area} beside {len(taken)} dice")


ROLLING_AREA = (DIE_SIZE, DIE_SIZE, TABLE_SIZE[0] - DIE_SIZE, HOLD_TOP - 0.8 * DIE_SIZE)
HOLD_AREA = (DIE_SIZE, HOLD_TOP + 0.65 * DIE_SIZE, TABLE_SIZE[0] - DIE_SIZE, TABLE_SIZE[1] - 0.65 * DIE_SIZE)


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
        self.seats = seats  # drivers.seats.KeyboardSeats, or None: seat keys post presses directly
        self.render = render  # vision.synth.render_dice_scene, or None: readings are posted directly
        self.autoplay = autoplay  # the game the simulated players start and play, if any
        self.clock = clock or app.clock
        self.values: tuple[int, ...] | None = None  # the dice of this turn (None: picked up for a new turn)
        self.held: set[int] = set()  # the simulator's own die numbers lying in the hold zone
        self.positions: list[tuple[float, float]] = []  # each die's centre in the synthetic frame
        self.angles: list[float] = []
        self.scene_seed = seed  # one table: the same felt, light and grain in every picture
        self.style = self.rng.randrange(6)
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
            self.toggle_hold(self.die_shown_as(HOLD_KEYS[event.key]))
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
            # Resumed in the middle of a turn: the dice of the journal's last roll lie on the table,
            # the held ones in the hold zone.
            self.values = session.dice.values
            last = session.history[-1] if session.history else None
            self.held = set(getattr(last, "held", ()))
            self.lay_out(range(len(self.values)))
            self.show()
        if self.autoplay:
            self.play(session)

    # --- the dice ------------------------------------------------------------------------------------

    def die_shown_as(self, slot: int) -> int:
        """The simulator's die that the screen shows at ``slot`` (its dice row, 1–5): the die lying
        where the session's scene has that slot; the simulator's own numbering before any is known."""
        session = self.session
        scene = session.scene if session is not None else None
        if scene is not None:
            for i, center in enumerate(self.positions):
                if scene.slot_of(center) == slot:
                    return i
        return slot

    def toggle_hold(self, die: int) -> None:
        """Push die ``die`` into the hold zone, or back to the rolling area; the others stay put."""
        if self.values is None or not 0 <= die < len(self.values):
            return
        self.held ^= {die}
        self.lay_out([die])
        self.show()

    def lay_out(self, dice: Any) -> None:
        """New places (and angles) for ``dice``: in the hold zone if held, else in the rolling area;
        never where one of them lay before (a die that moves lands elsewhere)."""
        assert self.values is not None
        count = len(self.values)
        if len(self.positions) != count:
            self.positions = []
            self.angles = [0.0] * count
            dice = range(count)
        moving = set(dice)
        taken = list(self.positions)
        self.positions = self.positions or [(0.0, 0.0)] * count
        for i in sorted(moving):
            area = HOLD_AREA if i in self.held else ROLLING_AREA
            self.positions[i] = free_spot(area, taken, self.rng)
            self.angles[i] = self.rng.uniform(-45, 45)
            taken.append(self.positions[i])

    def roll(self) -> None:
        session = self.session
        if session is None:
            return
        previous = Roll(self.values) if self.values is not None and session.rolls_used > 0 else None
        if previous is None:
            self.held = set()  # the turn's first roll throws every die
            if self.render is None and not self.positions:
                self.app.post(DiceSeen(()))  # what a camera would have seen: an empty table
        held = tuple(sorted(self.held))
        if self.values is not None and self.positions:
            # Dice chosen to keep (autoplay) are pushed into the hold zone before the throw.
            self.lay_out([i for i in held if self.positions[i][1] < HOLD_TOP])
        self.values = random_roll(self.rng, previous, held).values
        self._rolled_at = self.clock()
        self.lay_out([i for i in range(len(self.values)) if i not in self.held])
        self.show()

    def seen(self) -> DiceSeen:
        """The dice on the simulated table as a reading (the camera's, without a camera)."""
        assert self.values is not None
        return DiceSeen(
            tuple(
                SeenDie(v, held=i in self.held, center=self.positions[i], size=DIE_SIZE)
                for i, v in enumerate(self.values)
            )
        )

    def show(self) -> None:
        """Render the table as the synthetic camera sees it; without a camera post it as the reading."""
        if self.values is None:
            return
        if self.render is None:
            self.app.post(self.seen())
            return
        held = tuple(i in self.held for i in range(len(self.values)))
        self.frame, _ = self.render(
            self.values,
            rng=np.random.default_rng(self.scene_seed),
            held=held,
            positions=self.positions,
            angles=self.angles,
            die_size=DIE_SIZE,
            style=self.style,
        )
        self.frame_seq += 1

    def camera_frame(self) -> np.ndarray:
        """The synthetic camera's picture: the last rendered table (an empty dark tray before a roll)."""
        if self.frame is None:
            return EMPTY_TABLE
        return self.frame

    # --- autoplay ------------------------------------------------------------------------------------

    def start_autoplay(self, game: str) -> None:
        """Start ``game`` for two simulated players; ``GAME:VARIANT`` (``yahtzee:triple``) picks a variant."""
        name, _, variant = game.partition(":")
        overrides: dict[str, Any] = {"players": 2, "seed": self.rng.randrange(2**31)}
        if variant:
            overrides["variant"] = variant
        options = self.app.settings.game_options(name, **overrides)
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
