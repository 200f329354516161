"""Home: choose a game (and its variant), or go to the history or the settings."""

from __future__ import annotations

from functools import partial

import pygame

import rules
from device.i18n import LANGUAGES
from device.screens.base import Screen, screen
from device.session import SESSIONS
from device.ui.canvas import Canvas
from device.ui.theme import ACCENT, PANEL, TEXT_DIM


def game_entries(language: str) -> list[tuple[str, str | None, str]]:
    """``(game, variant, title)`` for every game the appliance can referee, variants listed apart; the
    title is the one name of the game and variant (``GameSpec.title``) every screen shows."""
    entries: list[tuple[str, str | None, str]] = []
    for spec in rules.games():
        if spec.name not in SESSIONS:
            continue
        for variant in spec.variants or [None]:
            entries.append((spec.name, variant, spec.title(language, variant)))
    return entries


@screen("home")
class HomeScreen(Screen):
    def back(self) -> None:
        """Home is the root: Escape does nothing here."""

    def salvage(self) -> None:
        """Copy what can still be read from the refused (damaged) journal into the new one."""
        aside = self.host.journal.set_aside
        if aside is not None and aside.salvageable and self.host.journal.salvaged is None:
            self.host.journal.salvage(aside.moved_to)

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        bar = pygame.Rect(0, 0, canvas.width, canvas.px(56))
        canvas.shape(bar, PANEL)
        canvas.text(
            self._("Tabletop Referee"), bar.inflate(-canvas.px(24), 0), size=32, colour=ACCENT, bold=True
        )
        canvas.text(
            self._("Choose a game"),
            (canvas.px(24), canvas.px(64), canvas.width - canvas.px(48), canvas.px(36)),
            size=24,
            colour=TEXT_DIM,
        )
        entries = game_entries(self.tr.language)
        cols = 3
        gap = canvas.px(12)
        left = canvas.px(24)
        width = (canvas.width - 2 * left - gap * (cols - 1)) // cols
        rows = -(-len(entries) // cols)
        height = canvas.px(88) if rows <= 2 else canvas.px(66)  # a third row leaves room for the notes
        top = canvas.px(108)
        for i, (game, variant, title) in enumerate(entries):
            r = pygame.Rect(
                left + (i % cols) * (width + gap), top + (i // cols) * (height + gap), width, height
            )
            canvas.button(r, title, partial(self.host.show, "players", game=game, variant=variant), size=30)
        bottom = canvas.height - canvas.px(64)
        w = canvas.px(150)
        canvas.button((left, bottom, w, canvas.px(52)), self._("History"), lambda: self.host.show("history"))
        canvas.button(
            (left + w + gap, bottom, w, canvas.px(52)), self._("Settings"), lambda: self.host.show("settings")
        )
        lw = canvas.px(64)
        for i, lang in enumerate(reversed(LANGUAGES)):
            key = (canvas.width - left - (i + 1) * lw - i * gap // 2, bottom, lw, canvas.px(52))
            canvas.button(
                key,
                lang.upper(),
                partial(self.host.set_language, lang),
                selected=lang == self.tr.language,
            )
        notes_top = top + ((len(entries) + cols - 1) // cols) * (height + gap)
        aside = self.host.journal.set_aside
        if aside is not None:
            note = self._(
                "The journal file was refused ({reason}) and kept as {path}.",
                reason=aside.reason,
                path=aside.moved_to.name,
            )
            salvaged = self.host.journal.salvaged
            if salvaged is not None:
                note += " " + self._(
                    "{games} games with {actions} moves were recovered from it.",
                    games=salvaged.games,
                    actions=salvaged.actions,
                )
            offer = aside.salvageable and salvaged is None
            button_w = canvas.px(240) if offer else 0
            canvas.paragraph(
                note,
                (left, notes_top, canvas.width - 2 * left - button_w - gap, bottom - notes_top - gap),
                size=20,
                colour=ACCENT,
            )
            if offer:
                canvas.button(
                    (canvas.width - left - button_w, notes_top, button_w, canvas.px(52)),
                    self._("Recover the games"),
                    self.salvage,
                    size=20,
                )
