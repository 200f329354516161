"""Failsafe: an unexpected error is shown (it is also in the log, once); the appliance keeps running
and Continue reloads the game from the journal, so nothing confirmed is lost.

The screen asks the journal once, when it is shown, whether there is a game to put aside — and not at
all when the journal is what failed: drawing it never fails again, however broken the journal is.
"""

from __future__ import annotations

import logging

import pygame

from device.journal import JournalError
from device.screens.base import Screen, screen
from device.ui.canvas import Canvas
from device.ui.theme import TEXT_DIM, WARNING

log = logging.getLogger(__name__)


@screen("failsafe")
class FailsafeScreen(Screen):
    unfinished = False  # an unfinished game can be put aside (asked once, on enter)

    def enter(self, **_: object) -> None:
        self.unfinished = False
        if self.host.journal_failed:
            return
        try:
            self.unfinished = self.host.journal.unfinished() is not None
        except (JournalError, OSError, ValueError) as exc:
            log.warning("failsafe: the journal cannot say whether a game is unfinished: %s", exc)

    def back(self) -> None:
        self.host.dismiss_failure()

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
            self.host.failure or "",
            (m, canvas.px(150), canvas.width - 2 * m, canvas.px(160)),
            size=22,
            colour=TEXT_DIM,
        )
        bottom = canvas.height - canvas.px(80)
        canvas.button(
            pygame.Rect(m, bottom, canvas.px(240), canvas.px(56)), self._("Continue"), self.back, size=26
        )
        if self.unfinished:
            canvas.button(
                pygame.Rect(canvas.width - m - canvas.px(300), bottom, canvas.px(300), canvas.px(56)),
                self._("Put the game aside"),
                self.host.set_aside_unfinished,
                size=22,
            )
