"""The Rummikub puzzle's screen (``device/sessions/rummikub_puzzle.py``): on the left the position to
lay out (the table as tiles, the rack), *Check my answer* and *No move*; on the right the camera's
picture with what it read, and the refusal line."""

from __future__ import annotations

import pygame

from device.camera_view import CameraView
from device.host import Host
from device.screens.base import Screen, screen
from device.screens.rummikub_coach_panel import move_lines
from device.screens.rummikub_table import RummikubTableScreen
from device.screens.table import TableScreen
from device.sessions.rummikub_puzzle import PuzzleSession
from device.ui.camera_panel import CameraPanel
from device.ui.canvas import Canvas
from device.ui.theme import ACCENT, GOOD, PANEL, TEXT_DIM
from rules.rummikub import Tile

__all__ = ["AnswerScreen", "PuzzleScreen"]

DIFFICULTY_WORDS = {"easy": "easy", "medium": "medium", "hard": "hard"}


@screen("rummikub_puzzle")
class PuzzleScreen(TableScreen):
    # The tiles are drawn as on the Rummikub table (one look for both).
    def draw_tile(self, canvas: Canvas, tile: Tile, rect: pygame.Rect, *, kind: str = "table_tile") -> None:
        RummikubTableScreen.draw_tile(self, canvas, tile, rect, kind=kind)  # type: ignore[arg-type]

    def draw_melds(
        self, canvas: Canvas, melds: list[list[Tile]], area: pygame.Rect, tile: tuple[int, int]
    ) -> None:
        RummikubTableScreen.draw_melds(self, canvas, melds, area, tile)  # type: ignore[arg-type]

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.camera_panel = CameraPanel("seen_tile")

    @property
    def puzzle_session(self) -> PuzzleSession:
        session = self.host.session
        assert isinstance(session, PuzzleSession)
        return session

    def camera_view(self) -> CameraView | None:
        camera = self.host.camera
        return camera.view() if camera is not None else None

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        session = self.puzzle_session
        puzzle = session.puzzle
        self.draw_top(canvas)
        top = canvas.px(64)
        left = pygame.Rect(canvas.px(8), top, canvas.px(340), canvas.height - top - canvas.px(8))
        right = pygame.Rect(left.right + canvas.px(8), top, canvas.width - left.right - canvas.px(16), 0)
        right.height = right.width * 9 // 16
        level = self._(DIFFICULTY_WORDS.get(puzzle.difficulty, puzzle.difficulty))
        canvas.text(
            self._("Puzzle ({level}): lay out the table", level=level),
            (left.left, left.top, left.width, canvas.px(24)),
            size=18,
            colour=ACCENT,
        )
        table = pygame.Rect(left.left, left.top + canvas.px(26), left.width, canvas.px(168))
        canvas.shape(table, PANEL, radius=6)
        melds = [list(m) for m in puzzle.table]
        if melds:
            self.draw_melds(canvas, melds, table.inflate(-canvas.px(8), -canvas.px(8)), (20, 28))
        else:
            canvas.text(self._("The table is empty."), table, size=20, colour=TEXT_DIM, align="center")
        y = table.bottom + canvas.px(6)
        canvas.text(self._("Your rack:"), (left.left, y, left.width, canvas.px(24)), size=18, colour=TEXT_DIM)
        y += canvas.px(26)
        rack = pygame.Rect(left.left, y, left.width, canvas.px(64))
        self.draw_melds(canvas, [list(puzzle.rack)], rack, (22, 30))
        y = rack.bottom + canvas.px(4)
        canvas.paragraph(
            self._(
                "Lay your move, take the rack tiles you do not use off the table, then press your button."
            ),
            (left.left, y, left.width, canvas.px(44)),
            size=18,
            colour=TEXT_DIM,
        )
        y = left.bottom - canvas.px(56)
        w = (left.width - canvas.px(8)) // 2
        solving = session.phase == "solving"
        canvas.button(
            (left.left, y, w, canvas.px(56)),
            self._("Check my answer"),
            session.check_answer if solving else None,
            size=20,
            colour=GOOD if solving else None,
        )
        canvas.button(
            (left.left + w + canvas.px(8), y, w, canvas.px(56)),
            self._("No move"),
            session.no_move if solving else None,
            size=20,
        )
        view = self.camera_view()
        self.camera_panel.draw(
            canvas,
            right,
            view,
            no_camera=self._("No camera"),
            camera_label=self._("Camera"),
            zone_labels={},
            moving=self._("Moving…"),
            labelled=False,
        )
        below = pygame.Rect(
            right.left, right.bottom + canvas.px(8), right.width, left.bottom - right.bottom - canvas.px(8)
        )
        if session.phase == "checking":
            canvas.paragraph(self._("Reading the table…"), below, size=20, colour=ACCENT)
        else:
            self.draw_message(canvas, below)


@screen("rummikub_puzzle_answer")
class AnswerScreen(Screen):
    """After a puzzle (from the end screen's *Best answer*): the position, the player's answer and the
    best one as tiles — the melds to take apart, then the melds to lay."""

    def draw_tile(self, canvas: Canvas, tile: Tile, rect: pygame.Rect, *, kind: str = "table_tile") -> None:
        RummikubTableScreen.draw_tile(self, canvas, tile, rect, kind=kind)  # type: ignore[arg-type]

    def draw_melds(
        self, canvas: Canvas, melds: list[list[Tile]], area: pygame.Rect, tile: tuple[int, int]
    ) -> None:
        RummikubTableScreen.draw_melds(self, canvas, melds, area, tile)  # type: ignore[arg-type]

    def back(self) -> None:
        self.host.show_game()

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        area = self.header(canvas, self._("Best answer"))
        session = self.host.session
        if not isinstance(session, PuzzleSession):
            return
        puzzle = session.puzzle
        m = canvas.px(16)
        width = canvas.width - 2 * m
        y = area.top + canvas.px(6)
        line = canvas.px(28)
        canvas.text(
            self._("Laid {n}, the best lays {best}", n=puzzle.laid, best=puzzle.optimum),
            (m, y, width, line),
            size=24,
            colour=GOOD if puzzle.laid >= puzzle.optimum else ACCENT,
            bold=True,
        )
        y += line + canvas.px(4)
        canvas.text(self._("The table:"), (m, y, canvas.px(120), line), size=18, colour=TEXT_DIM)
        table = pygame.Rect(m + canvas.px(120), y, width - canvas.px(120), canvas.px(100))
        self.draw_melds(canvas, [list(t) for t in puzzle.table], table, (20, 28))
        y = table.bottom + canvas.px(4)
        canvas.text(self._("Your rack:"), (m, y, canvas.px(120), line), size=18, colour=TEXT_DIM)
        self.draw_melds(
            canvas,
            [list(puzzle.rack)],
            pygame.Rect(m + canvas.px(120), y, width - canvas.px(120), line + 4),
            (20, 28),
        )
        y += line + canvas.px(12)
        box = pygame.Rect(m, y, width, canvas.height - y - m)
        canvas.shape(box, PANEL, radius=6)
        inner = box.inflate(-canvas.px(8), -canvas.px(8))
        if puzzle.advice.move is None:
            canvas.text(self._("No tile could be laid."), inner, size=20, colour=TEXT_DIM)
        else:
            move_lines(self, canvas, puzzle.advice, inner)
