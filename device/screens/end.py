"""End of game: the ranking (places shared on ties), each player's time used, and a chart of each
player's total over his turns (or deals, or hands: ``GameSession.progress_caption``)."""

from __future__ import annotations

import pygame

from device.screens.base import Screen, screen
from device.screens.coach_panel import draw_grades, grades_height
from device.ui.canvas import Canvas
from device.ui.names import clock_text, seat_colour
from device.ui.theme import ACCENT, TEXT_DIM
from device.ui.widgets import line_chart


@screen("end")
class EndScreen(Screen):
    def back(self) -> None:
        self.host.end_session()

    def new_game(self) -> None:
        self.host.replay_with_same_players()

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        session = self.host.session
        area = self.header(canvas, self._("Game over"))
        if session is None or session.state.outcome is None:
            return
        outcome = session.state.outcome
        m = canvas.px(16)
        notes = session.end_notes()  # what a game adds (Kalooki: the pool's winnings)
        # The notes go in two columns from three on; the ranking's rows give way so that all of it
        # stays above the buttons (Kalooki's four or five players and their winnings).
        note_cols = 2 if len(notes) > 2 else 1
        note_rows = -(-len(notes) // note_cols)
        note_h = canvas.px(28)
        bottom = canvas.height - canvas.px(76)
        y = area.top + canvas.px(8)
        free = bottom - y - canvas.px(48) - note_rows * note_h
        rows = max(1, len(session.players))
        row_h = max(canvas.px(36), min(canvas.px(52), free // rows - canvas.px(4)))
        colours = [seat_colour(self.host.config.seats.colours, p.seat) for p in session.players]
        used = session.time_used()
        order = sorted(range(len(session.players)), key=lambda i: (outcome.places[i], i))
        list_w = canvas.px(380)
        for i in order:
            player = session.players[i]
            place = outcome.places[i]
            canvas.text(
                f"{place}.",
                (m, y, canvas.px(40), row_h),
                size=30,
                colour=ACCENT if place == 1 else TEXT_DIM,
                bold=True,
            )
            dot = min(canvas.px(32), row_h - canvas.px(8))
            canvas.shape((m + canvas.px(44), y + (row_h - dot) // 2, dot, dot), colours[i], radius=16)
            canvas.text(player.name, (m + canvas.px(84), y, canvas.px(150), row_h), size=26, bold=place == 1)
            canvas.text(
                str(outcome.scores[i]),
                (m + canvas.px(236), y, canvas.px(70), row_h),
                size=28,
                align="right",
                bold=True,
            )
            canvas.text(
                clock_text(used[i]),
                (m + canvas.px(310), y, list_w - canvas.px(310), row_h),
                size=24,
                colour=TEXT_DIM,
                align="right",
            )
            y += row_h + canvas.px(4)
        winners = ", ".join(session.players[i].name for i in outcome.winners)
        canvas.text(
            self._("Winner: {names}", names=winners),
            (m, y + canvas.px(8), list_w, canvas.px(40)),
            size=24,
            colour=ACCENT,
        )
        note_w = list_w // note_cols
        for n, (text, values) in enumerate(notes):
            row, col = divmod(n, note_cols)
            rect = (m + col * note_w, y + canvas.px(48) + row * note_h, note_w - canvas.px(8), note_h)
            note, size = self._(text, **values), 22 if note_cols == 1 else 20
            if canvas.fonts.font(canvas.px(size)).size(note)[0] <= rect[2]:
                canvas.text(note, rect, size=size, colour=TEXT_DIM)
            else:  # on two lines rather than shrunk or cut
                canvas.paragraph(note, rect, size=18, colour=TEXT_DIM)
        chart = pygame.Rect(
            m + list_w + canvas.px(16),
            area.top + canvas.px(8),
            canvas.width - list_w - 3 * m,
            area.height - canvas.px(96),
        )
        canvas.text(
            self._(session.progress_caption),
            (chart.left, chart.top, chart.width, canvas.px(28)),
            size=20,
            colour=TEXT_DIM,
        )
        chart.top += canvas.px(32)
        chart.height -= canvas.px(32)
        graded = min(grades_height(self, canvas, chart.width), chart.height - canvas.px(80))
        if graded:
            grades = pygame.Rect(chart.left, chart.bottom - graded, chart.width, graded)
            chart.height -= graded + canvas.px(8)
            draw_grades(self, canvas, grades)
        line_chart(canvas, chart, session.score_progress(), colours, caption=self._(session.progress_caption))
        bottom = canvas.height - canvas.px(68)
        canvas.button(
            (m, bottom, canvas.px(220), canvas.px(56)),
            self._("New game"),
            self.new_game,
            size=24,
            colour=(22, 163, 74),
        )
        extra = session.end_button()  # the Rummikub learning table's review, a puzzle's best answer
        if extra is not None:
            label, shown = extra
            canvas.button(
                (m + canvas.px(236), bottom, canvas.px(220), canvas.px(56)),
                self._(label),
                lambda: self.host.show(shown),
                size=24,
            )
        canvas.button(
            (canvas.width - m - canvas.px(200), bottom, canvas.px(200), canvas.px(56)),
            self._("Home"),
            self.back,
            size=24,
        )
