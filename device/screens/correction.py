"""Manual correction: the players set the dice themselves when the camera is unsure or absent.

Tapping a die steps its value (1…6); on the second and third roll a Hold button under each die says
whether it was kept from the previous roll. "Use these dice" enters them as the roll. Opened on a roll
already entered (the camera was sure of a die it misread), "Correct this roll" corrects that roll
instead (``RollAmended``: no roll used, journaled).

The dice being set are the session's current state's (:class:`device.sessions.dice.Correcting`: their
values, which are held, which the camera was unsure of); the screen draws that state and each touch is
an event for it: ``DieStepped``, ``HoldToggled``, ``DiceEntered``, ``RollAmended``, ``Touch("cancel")``.
"""

from __future__ import annotations

from functools import partial

import pygame

from device.screens.base import screen
from device.screens.dice_table import DiceScreen
from device.sessions.dice import Correcting, DiceEntered, DieStepped, HoldToggled, RollAmended, Touch
from device.ui.canvas import Canvas
from device.ui.widgets import draw_die


@screen("correction")
class CorrectionScreen(DiceScreen):
    def correcting(self) -> Correcting | None:
        """The state drawn: the session's correction (``None`` for the moment the session has left it
        and the app has not yet shown the table)."""
        stage = self.session.stage
        return stage if isinstance(stage, Correcting) else None

    def leave(self, event: object) -> None:
        """A touch that ends the correction (*Use these dice*, *Correct this roll*, *Cancel*)."""
        self.session.send(event)
        self.host.show_game()

    def back(self) -> None:
        self.leave(Touch("cancel"))

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        area = self.header(canvas, self._("Fix the dice"))
        state = self.correcting()
        if state is None:
            return
        m = canvas.px(24)
        canvas.text(
            self._("Tap a die to change its value."),
            (m, area.top + canvas.px(8), canvas.width - 2 * m, canvas.px(32)),
            size=22,
        )
        size = canvas.px(112)
        gap = (canvas.width - 2 * m - 5 * size) // 4
        y = area.top + canvas.px(56)
        send = self.session.send
        for i, value in enumerate(state.values):
            rect = pygame.Rect(m + i * (size + gap), y, size, size)
            draw_die(
                canvas,
                rect,
                value,
                held=state.held[i],
                uncertain=state.unsure[i],
                action=partial(send, DieStepped(i)),
            )
            if state.later:
                label = self._("Held") if state.held[i] else self._("Rolled")
                canvas.button(
                    (rect.left, rect.bottom + canvas.px(12), size, canvas.px(52)),
                    label,
                    partial(send, HoldToggled(i)),
                    selected=state.held[i],
                    size=20,
                )
        bottom = canvas.height - canvas.px(72)
        ready = state.complete
        canvas.button(
            (m, bottom, canvas.px(300), canvas.px(60)),
            self._("Use these dice"),
            partial(self.leave, DiceEntered()) if ready else None,
            size=24,
            colour=(22, 163, 74) if ready else None,
        )
        if state.amendable:
            canvas.button(
                (m + canvas.px(312), bottom, canvas.px(228), canvas.px(60)),
                self._("Correct this roll"),
                partial(self.leave, RollAmended()),
                size=22,
                colour=(22, 163, 74),
            )
        canvas.button(
            (canvas.width - m - canvas.px(200), bottom, canvas.px(200), canvas.px(60)),
            self._("Cancel"),
            self.back,
            size=24,
        )
