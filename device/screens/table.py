"""The chrome every game's table screen shares: the top bar (the seat to move in its colour and name,
below it every player in seat order — by name where the names fit at 24 px, else by seat colour — the
game's own status in the middle, the move clock, the menu) and the refusal line.

A game's table screen derives from :class:`TableScreen`, draws its own body below :meth:`draw_top`,
and turns taps into calls on its session (``self.session``, which a game's screen narrows to its
session class).
"""

from __future__ import annotations

import pygame

from device.screens.base import Screen
from device.session import GameSession
from device.ui.canvas import NAME_TEXT, Canvas
from device.ui.names import clock_text, refusal_text, seat_colour
from device.ui.theme import ACCENT, PANEL, TEXT, TEXT_DIM, WARNING

__all__ = ["REFUSAL_SECONDS", "TableScreen"]

REFUSAL_SECONDS = 6.0  # how long a refused move's reason stays on the screen


class TableScreen(Screen):
    @property
    def session(self) -> GameSession:
        """The game on the table (a game's screen narrows it to its session class)."""
        session = self.host.session
        assert session is not None, f"{self.name} is shown without a game"
        return session

    def back(self) -> None:
        self.host.show("settings")

    # --- the top bar ---------------------------------------------------------------------------------

    def draw_top(self, canvas: Canvas) -> pygame.Rect:
        """The top bar; returns the area of the game's status (between the name and the clock)."""
        session = self.session
        bar = pygame.Rect(0, 0, canvas.width, canvas.px(56))
        canvas.shape(bar, PANEL)
        seat = session.current_seat
        colours = self.host.config.seats.colours
        several = len(session.players) > 1
        if seat is not None:
            player = session.players[seat]
            colour = seat_colour(colours, player.seat)
            canvas.shape((canvas.px(8), canvas.px(6), canvas.px(44), canvas.px(44)), colour, radius=22)
            name = pygame.Rect(canvas.px(60), 0, canvas.px(230), canvas.px(34) if several else bar.height)
            canvas.text(player.name, name, size=26 if several else 30, bold=True, role="name")
        if several:
            self.draw_players(
                canvas, pygame.Rect(canvas.px(60), canvas.px(34), canvas.px(230), canvas.px(20))
            )
        self.draw_clock(canvas, pygame.Rect(canvas.px(570), 0, canvas.px(110), bar.height))
        canvas.button(
            (canvas.width - canvas.px(112), canvas.px(8), canvas.px(104), canvas.px(48)),
            self._("Menu"),
            self.back,
            size=20,
        )
        return pygame.Rect(canvas.px(300), 0, canvas.px(270), bar.height)

    def draw_players(self, canvas: Canvas, row: pygame.Rect) -> None:
        """Every player of the game in seat order, each with his seat colour, the one to move bright: by
        name where every name fits at ``NAME_TEXT`` px, else by the seat colours alone (a name is never
        drawn smaller than a player reads it from his seat), the one to move ringed."""
        session = self.session
        dot, gap = canvas.px(14), canvas.px(10)
        font = canvas.fonts.font(canvas.px(NAME_TEXT), True)
        widths = [dot + canvas.px(4) + font.size(p.name)[0] for p in session.players]
        named = sum(widths) + gap * (len(widths) - 1) <= row.width
        x = row.left
        for player, width in zip(session.players, widths, strict=True):
            colour = seat_colour(self.host.config.seats.colours, player.seat)
            to_move = player.seat == session.current_seat
            spot = pygame.Rect(x, row.centery - dot // 2, dot, dot)
            if named:
                canvas.shape(spot, colour, radius=dot // 2)
                text = pygame.Rect(spot.right + canvas.px(4), row.top, width - dot, row.height)
                canvas.text(
                    player.name,
                    text,
                    size=NAME_TEXT,
                    colour=TEXT if to_move else TEXT_DIM,
                    bold=True,
                    role="name",
                )
                cell = pygame.Rect(x, row.top, width, row.height)
                x += width + gap
            else:
                big = spot.inflate(canvas.px(4), canvas.px(4)) if to_move else spot
                canvas.shape(big, colour, radius=big.width // 2)
                if to_move:
                    pygame.draw.circle(canvas.surface, TEXT, big.center, big.width // 2 + 2, width=2)
                cell = big
                x += dot + canvas.px(4) + gap
            canvas.record("player", player.name, cell)

    def draw_clock(self, canvas: Canvas, rect: pygame.Rect) -> None:
        """The move timer's time left ("move time"), or without a limit the time of this move so far
        ("turn time"), labelled above the figures."""
        timer = self.session.timer
        label = pygame.Rect(rect.left, rect.top + canvas.px(2), rect.width, canvas.px(20))
        figures = pygame.Rect(rect.left, label.bottom, rect.width, rect.bottom - label.bottom)
        if timer.paused:
            canvas.text(self._("Paused"), rect, size=24, colour=ACCENT, align="center")
            return
        left = timer.remaining()
        if left is None:
            canvas.text(self._("turn time"), label, size=18, colour=TEXT_DIM, align="center")
            canvas.text(clock_text(timer.elapsed()), figures, size=28, colour=TEXT, align="center")
        else:
            colour = WARNING if timer.warning() else TEXT
            canvas.text(self._("move time"), label, size=18, colour=TEXT_DIM, align="center")
            canvas.text(clock_text(left), figures, size=32, colour=colour, align="center", bold=True)

    # --- the refusal line ----------------------------------------------------------------------------

    def message(self) -> str:
        """The refusal of the last few seconds, else the camera's trouble, else the game's own line."""
        session = self.session
        refusal = session.refusal
        if refusal is not None and session.timer.now() - refusal.at < REFUSAL_SECONDS:
            return refusal_text(self.tr, refusal)
        if self.host.camera_status:
            return self.host.camera_status
        return self.status_line()

    def status_line(self) -> str:
        """What the game says on the refusal line when nothing was refused (dice: 4 dice seen)."""
        return ""

    def trouble(self) -> bool:
        """Whether the line shows a refusal or the camera's trouble (red), not the game's own line."""
        session = self.session
        refusal = session.refusal
        recent = refusal is not None and session.timer.now() - refusal.at < REFUSAL_SECONDS
        return recent or bool(self.host.camera_status)

    def draw_message(self, canvas: Canvas, area: pygame.Rect) -> None:
        """The refusal line: a refusal or the camera's trouble in red, the game's own line (a score, what
        was laid) in the text colour."""
        text = self.message()
        if text:
            canvas.paragraph(text, area, size=22, colour=WARNING if self.trouble() else TEXT)
