"""Zatre's simulated table: simulated players who lay their cards by tapping the screen.

There is nothing for a camera to film (the cards are entered on the screen), so the table only plays:
with ``--autoplay zatre`` each simulated player chooses a legal turn (``zatre_plan.choose_turn``) and
lays it through the Zatre table screen the way a person does — one tap per frame at the centre of a
drawn target (a half of a card, a cell, the arrows, *Take back*), looking at the screen between taps —
then presses his seat button or taps *Lay*. :attr:`ZatreTable.taps` counts the taps of each turn for
``bench/card_taps.py``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from device.events import Tap
from device.session import GameSession
from device.sessions.simulated import SimulatedTable, register_table
from device.sessions.zatre import ZatreSession
from device.sessions.zatre_plan import LAY, TAKE_BACK, choose_turn, next_tap
from drivers.events import ButtonEvent
from rules.zatre import Lay

if TYPE_CHECKING:
    from device.app import App

__all__ = ["ZatreTable"]


@register_table
class ZatreTable(SimulatedTable):
    games = ("zatre",)

    def __init__(self, app: App, rng: random.Random, *, camera: bool) -> None:
        super().__init__(app, rng, camera=camera)
        self.plan: tuple[int, Lay] | None = None  # (the game's action count when chosen, the turn)
        self.turn_taps = 0
        self.taps: list[int] = []  # screen taps of each turn laid, the seat press not counted
        self._waiting = -1  # the frame of the last tap: wait until the screen has drawn its effect

    def play(self, session: GameSession) -> None:
        app = self.app
        if not isinstance(session, ZatreSession) or session.current_seat is None:
            return
        if app.screen.name != session.table_screen:
            app.show_game()  # a player walks back to the table screen (after a banner, a menu)
            return
        if app.frames <= self._waiting + 1:
            return  # the tap posted last frame is handled this frame; look again after the next draw
        if self.plan is None or self.plan[0] != session.seq:
            self.plan = (session.seq, choose_turn(session.zatre, self.rng))
            self.turn_taps = 0
        shown = {t.label: t for t in app.canvas.targets}
        label = next_tap(session, self.plan[1], shown)
        if label == LAY:
            self.taps.append(self.turn_taps)
            self.plan = None
            seat = session.current_seat
            if self.rng.random() < 0.5:
                app.post(ButtonEvent(seat, "press", "autoplay"))
                self._waiting = app.frames
                return
            label = app.tr.format("Lay")
        elif label == TAKE_BACK:
            label = app.tr.format("Take back")
        else:
            self.turn_taps += 1
        target = shown.get(label)
        if target is None:
            return  # not drawn yet: the next frame
        app.post(Tap(target.rect.center))
        self._waiting = app.frames
