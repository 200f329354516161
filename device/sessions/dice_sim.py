"""The dice games' simulated table: five dice that the program rolls, lying where real ones would.

Keys (on the dice table screen): **R** rolls the dice that are not held, **1–5** push the die the screen
shows as 1–5 into the hold zone (or take it out).

The simulated dice lie on a table like real ones: each keeps its place and angle until it is thrown, a
held die is pushed into the hold zone and the others stay where they are. They reach the game the way
real ones do: the synthetic camera renders them (``vision.synth.render_dice_scene``), the vision worker
reads the frames and posts the settled reading, and the session decides whether it was a roll. Without
a camera (``--no-camera``, or the dice reader not installed) the table posts what lies on it as the
reading directly, positions included.

Autoplay: the simulated players roll up to three times, holding the most frequent face, then enter the
best box; the resume tests kill such a run at random moments.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable

import numpy as np
import pygame

from device.events import Key
from device.session import GameSession
from device.sessions.dice import BoxPicked, Correcting, DiceEntered, DiceSession
from device.sessions.dice_events import DiceSeen, SeenDie
from device.sessions.simulated import SimulatedTable, TableHost, register_table
from drivers.events import ButtonEvent
from rules.dice import Roll, RollDice, random_roll

__all__ = ["DIE_SIZE", "HOLD_KEYS", "TABLE_SIZE", "DiceTable", "free_spot"]

TABLE_SIZE = (1280, 720)  # the synthetic camera's frame
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

Render = Callable[..., tuple[np.ndarray, object]]


def _renderer() -> Render:
    from vision.synth import render_dice_scene

    return render_dice_scene


@register_table
class DiceTable(SimulatedTable):
    games = ("yahtzee", "poker_dice")

    def __init__(self, host: TableHost, rng: random.Random, *, camera: bool) -> None:
        super().__init__(host, rng, camera=camera)
        # The synthetic camera's renderer (tests may give another), or None: readings are posted directly.
        self.render: Render | None = _renderer() if camera else None
        self.clock = host.clock
        self.values: tuple[int, ...] | None = None  # the dice of this turn (None: picked up for a new turn)
        self.held: set[int] = set()  # the table's own die numbers lying in the hold zone
        self.positions: list[tuple[float, float]] = []  # each die's centre in the synthetic frame
        self.angles: list[float] = []
        self.scene_seed = rng.randrange(2**31)  # one table: the same felt, light and grain in every picture
        self.style = rng.randrange(6)
        self.frame: np.ndarray | None = None
        self.frame_seq = 0
        self._turn_seq = -1
        self._rolled_at = 0.0

    @property
    def session(self) -> DiceSession | None:
        session = self.host.session
        return session if isinstance(session, DiceSession) and not session.finished else None

    # --- keys ----------------------------------------------------------------------------------------

    def on_key(self, event: Key) -> bool:
        session = self.session
        if not event.down or session is None or self.host.screen != session.table_screen:
            return False
        if event.key == pygame.K_r:
            self.roll()
            return True
        if event.key in HOLD_KEYS:
            self.toggle_hold(self.die_shown_as(HOLD_KEYS[event.key]))
            return True
        return False

    def poll(self, session: GameSession) -> None:
        """A new turn's reset; a resumed turn's dice laid out as the journal has them."""
        if not isinstance(session, DiceSession):
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
            self.held = set(last.held) if isinstance(last, RollDice) else set()
            self.lay_out(range(len(self.values)))
            self.show()

    # --- the dice ------------------------------------------------------------------------------------

    def die_shown_as(self, slot: int) -> int:
        """The table's die that the screen shows at ``slot`` (its dice row, 1–5): the die lying where
        the session's scene has that slot; the table's own numbering before any is known."""
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

    def lay_out(self, dice: Iterable[int]) -> None:
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
                self.host.post(DiceSeen(()))  # what a camera would have seen: an empty table
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
            self.host.post(self.seen())
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

    def camera_frame(self) -> np.ndarray | None:
        """The last rendered table (``None`` before the first roll: the simulator's empty tray)."""
        return self.frame

    # --- autoplay ------------------------------------------------------------------------------------

    def play(self, session: GameSession) -> None:
        """One step of a simulated player: roll (holding the most common face), or enter the best box.

        Like a player at the table it fixes a reading the camera was unsure of (it knows its dice), and
        when the referee recorded other dice than it threw (a misread, a refused roll) it goes on with
        the referee's dice after a few seconds."""
        if not isinstance(session, DiceSession):
            return
        stage = session.stage
        if isinstance(stage, Correcting) and stage.pending is not None:
            if self.values is not None:
                # It sets the correction's dice to its own, as a player taps them, and enters them.
                held = tuple(i in self.held for i in range(len(self.values)))
                for touch in stage.touches(self.values, held):
                    session.send(touch)
                session.send(DiceEntered())
                self.host.show(session.table_screen)
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
            session.send(BoxPicked(box))
            self.host.post(ButtonEvent(seat, "press", "autoplay"))
