"""Failsafe: an unexpected error is shown (it is also in the log); the appliance keeps running and
Continue reloads the game from the journal, so nothing confirmed is lost."""

from __future__ import annotations

import pygame

from device.screens.base import Screen, screen
from device.ui.canvas import Canvas
from device.ui.theme import TEXT_DIM, WARNING


@screen("failsafe")
class FailsafeScreen(Screen):
    def back(self) -> None:
        self.app.failure = None
        self.app.resume_unfinished()

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        m = canvas.px(24)
        canvas.text(
            self._("Something went wrong"),
            (m, m, canvas.width - 2 * m, canvas.px(48)),
            size=34,
            colour=WARNING,
            bold=True,
        )
        canvas.paragraph(
            self._("The error is in the log. Every confirmed move is kept in the journal."),
            (m, canvas.px(84), canvas.width - 2 * m, canvas.px(60)),
            size=22,
        )
        canvas.paragraph(
            self.app.failure or "",
            (m, canvas.px(150), canvas.width - 2 * m, canvas.px(160)),
            size=22,
            colour=TEXT_DIM,
        )
        bottom = canvas.height - canvas.px(80)
        canvas.button(
            pygame.Rect(m, bottom, canvas.px(240), canvas.px(56)), self._("Continue"), self.back, size=26
        )
        if self.app.journal.unfinished() is not None:
            canvas.button(
                pygame.Rect(canvas.width - m - canvas.px(300), bottom, canvas.px(300), canvas.px(56)),
                self._("Put the game aside"),
                self.app.set_aside_unfinished,
                size=22,
            )
