"""Manual correction: the players set the dice themselves when the camera is unsure or absent.

Tapping a die steps its value (1…6); on the second and third roll a Hold button under each die says
whether it was kept from the previous roll. "Use these dice" enters them as the roll. Opened on a roll
already entered (the camera was sure of a die it misread), "Correct this roll" corrects that roll
instead (``RollAmended``: no roll used, journaled). Each of these touches is an event for the session's
current state (:class:`device.sessions.dice.Correcting`): ``DiceEntered``, ``RollAmended``,
``Touch("cancel")``; the dice being set are this screen's until one of them is sent.
"""

from __future__ import annotations

from functools import partial

import pygame

from device.host import Host
from device.screens.base import screen
from device.screens.dice_table import DiceScreen
from device.sessions.dice import DiceEntered, RollAmended, Touch
from device.sessions.dice_events import DiceSeen
from device.ui.canvas import Canvas
from device.ui.widgets import draw_die


@screen("correction")
class CorrectionScreen(DiceScreen):
    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.values: list[int | None] = [None] * 5
        self.held: list[bool] = [False] * 5
        self.unsure: list[bool] = [False] * 5  # the dice the camera was unsure of, marked until changed
        self._source: DiceSeen | None = None  # the reading the values come from

    def enter(self, **_: object) -> None:
        session = self.session
        pending = session.pending
        self._source = pending
        if pending is not None and len(pending.dice) == 5:
            self.values = [d.value for d in pending.dice]
            self.held = [d.held for d in pending.dice] if session.rolls_used > 0 else [False] * 5
            self.unsure = [d.uncertain or d.value is None for d in pending.dice]
        elif session.dice is not None and session.rolls_used > 0:
            self.values = list(session.dice.values)
            self.held = [False] * 5
        else:
            self.values = [None] * 5
            self.held = [False] * 5
        if pending is None or len(pending.dice) != 5:
            self.unsure = [v is None for v in self.values]

    def back(self) -> None:
        self.session.send(Touch("cancel"))
        self.host.show_game()

    def step(self, i: int) -> None:
        value = self.values[i]
        self.values[i] = 1 if value is None or value == 6 else value + 1
        self.unsure[i] = False  # the players have looked at this die

    def toggle_hold(self, i: int) -> None:
        self.held[i] = not self.held[i]

    def amend(self) -> None:
        """*Correct this roll*: the turn's latest roll, entered with a die misread, as it lies."""
        if any(v is None for v in self.values):
            return
        self.session.send(RollAmended(tuple(int(v) for v in self.values if v is not None)))
        self.host.show_game()

    def amendable(self) -> bool:
        """Whether the screen shows the turn's entered roll (not a reading waiting for the players),
        changed: then it can correct that roll instead of entering a new one."""
        session = self.session
        dice = session.dice
        if session.pending is not None or dice is None or session.rolls_used == 0:
            return False
        return all(v is not None for v in self.values) and list(dice.values) != self.values

    def use(self) -> None:
        if any(v is None for v in self.values):
            return
        values = tuple(int(v) for v in self.values if v is not None)
        self.session.send(DiceEntered(values, tuple(self.held)))
        self.host.show_game()

    def draw(self, canvas: Canvas) -> None:
        if self.session.pending is not self._source and self.session.pending is not None:
            self.enter()  # a fresh reading the camera was unsure of: the dice were thrown again
        canvas.begin()
        area = self.header(canvas, self._("Fix the dice"))
        m = canvas.px(24)
        canvas.text(
            self._("Tap a die to change its value."),
            (m, area.top + canvas.px(8), canvas.width - 2 * m, canvas.px(32)),
            size=22,
        )
        size = canvas.px(112)
        gap = (canvas.width - 2 * m - 5 * size) // 4
        y = area.top + canvas.px(56)
        later_roll = self.session.rolls_used > 0
        for i in range(5):
            rect = pygame.Rect(m + i * (size + gap), y, size, size)
            draw_die(
                canvas,
                rect,
                self.values[i],
                held=self.held[i],
                uncertain=self.unsure[i],
                action=partial(self.step, i),
            )
            if later_roll:
                label = self._("Held") if self.held[i] else self._("Rolled")
                canvas.button(
                    (rect.left, rect.bottom + canvas.px(12), size, canvas.px(52)),
                    label,
                    partial(self.toggle_hold, i),
                    selected=self.held[i],
                    size=20,
                )
        bottom = canvas.height - canvas.px(72)
        ready = all(v is not None for v in self.values)
        canvas.button(
            (m, bottom, canvas.px(300), canvas.px(60)),
            self._("Use these dice"),
            self.use if ready else None,
            size=24,
            colour=(22, 163, 74) if ready else None,
        )
        if self.amendable():
            canvas.button(
                (m + canvas.px(312), bottom, canvas.px(228), canvas.px(60)),
                self._("Correct this roll"),
                self.amend,
                size=22,
                colour=(22, 163, 74),
            )
        canvas.button(
            (canvas.width - m - canvas.px(200), bottom, canvas.px(200), canvas.px(60)),
            self._("Cancel"),
            self.back,
            size=24,
        )
