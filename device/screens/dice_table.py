"""The dice table: the camera's view with the recognised dice and the hold zone, the dice of this roll,
whose turn and which roll it is, the clock, the boxes open for these dice with their points, and every
player's sheet.

The right-hand panel shows either the choices (after a roll) or the sheets; a tab switches. The triple
variant's 39 boxes are shown one column (×1, ×2, ×3) at a time.

What differs from state to state of the session (rolling, choosing, asking) is drawn by the state's
panel (``device.screens.dice_panels``): the touch under the dice and the body under the tabs. The
touches are events for the current state (``DiceSession.send``: ``BoxPicked``, ``Touch("enter")``,
``Touch("fix_dice")``, ``Answered``), as are the keyboard's arrows and Enter.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

import pygame

from device.events import Event, Key
from device.host import Host
from device.screens.base import Screen, screen
from device.screens.coach_panel import coach_hold
from device.screens.dice_panels import Panel, panel_of
from device.screens.table import TableScreen
from device.sessions.dice import BoxPicked, DiceSession, DiceStage, Touch
from device.ui.camera_panel import CameraPanel
from device.ui.canvas import Canvas
from device.ui.names import box_base, box_column, box_name, seat_colour
from device.ui.score_grid import GridLayout, ScoreGrid
from device.ui.theme import ACCENT, TEXT_DIM
from device.ui.widgets import draw_die
from rules.dice import RollDice
from vision.calibration import HOLD

MAX_ROLLS = 3


def _row_names(keys: Iterable[str]) -> list[str]:
    """The names of a sheet's rows, in first-seen order: a triple's column prefix ("2:") dropped."""
    return list(dict.fromkeys(box_base(key) for key in keys))


class DiceScreen(Screen):
    """A screen of a dice game (the correction): it always runs over the app's dice session."""

    @property
    def session(self) -> DiceSession:
        session = self.host.session
        assert isinstance(session, DiceSession)
        return session


@screen("dice_table")
class DiceTableScreen(TableScreen):
    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.tab = "choices"
        self.page = 1
        self.sheet_page = 0
        self.camera_panel = CameraPanel("seen_die")
        self._rolls_seen: tuple[int, int] = (-1, -1)  # (seq, rolls used) at the last draw
        self.panels: dict[type[Panel], Panel] = {}

    @property
    def session(self) -> DiceSession:
        session = self.host.session
        assert isinstance(session, DiceSession)
        return session

    def enter(self, **_: object) -> None:
        self.tab = "choices" if self.session.dice is not None else "sheets"
        self._rolls_seen = (self.session.seq, self.session.rolls_used)

    # --- keys (a keyboard at the table; the seat buttons go to the session) ---------------------------

    def handle(self, event: Event) -> None:
        if isinstance(event, Key) and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.session.send(Touch("enter"))
        elif isinstance(event, Key) and event.key in (
            pygame.K_LEFT,
            pygame.K_RIGHT,
            pygame.K_UP,
            pygame.K_DOWN,
        ):
            self.move_selection(-1 if event.key in (pygame.K_LEFT, pygame.K_UP) else 1)
        else:
            super().handle(event)

    def move_selection(self, step: int) -> None:
        boxes = list(self.session.choices())
        if not boxes:
            return
        self.tab = "choices"
        current = self.session.selected
        index = boxes.index(current) + step if current in boxes else (0 if step > 0 else len(boxes) - 1)
        box = boxes[index % len(boxes)]
        self.session.send(BoxPicked(box))
        self.page = box_column(box)

    # --- drawing -------------------------------------------------------------------------------------

    def panel(self, stage: DiceStage) -> tuple[Panel, DiceStage]:
        """The panel of ``stage`` (``device.screens.dice_panels``) and the state it draws."""
        kind, shown = panel_of(stage)
        if kind not in self.panels:
            self.panels[kind] = kind(self)
        return self.panels[kind], shown

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        session = self.session
        if (session.seq, session.rolls_used) != self._rolls_seen:
            if session.rolls_used > self._rolls_seen[1] or session.seq < self._rolls_seen[0]:
                self.tab, self.page = "choices", 1  # a new roll: its choices
            self._rolls_seen = (session.seq, session.rolls_used)
        self.draw_status(canvas, session, self.draw_top(canvas))
        stage = session.stage
        assert isinstance(stage, DiceStage)
        panel, shown = self.panel(stage)
        left = pygame.Rect(canvas.px(8), canvas.px(64), canvas.px(304), canvas.height - canvas.px(72))
        right = pygame.Rect(
            left.right + canvas.px(8), left.top, canvas.width - left.right - canvas.px(16), left.height
        )
        self.draw_left(canvas, session, panel, shown, left)
        tab_h = canvas.px(52)
        tw = (right.width - canvas.px(8) * 2) // 3
        if self.is_triple():
            tw = (right.width - canvas.px(8) * 4) // 5
        canvas.button(
            (right.left, right.top, tw, tab_h),
            self._("Choices"),
            lambda: self.set_tab("choices"),
            selected=self.tab == "choices",
            size=20,
        )
        canvas.button(
            (right.left + tw + canvas.px(8), right.top, tw, tab_h),
            self._("Sheets"),
            lambda: self.set_tab("sheets"),
            selected=self.tab == "sheets",
            size=20,
        )
        if self.tab == "sheets" and panel.sheets:
            body_probe = pygame.Rect(right.left, right.top + tab_h + canvas.px(8), right.width, 0)
            body_probe.height = right.bottom - body_probe.top
            layout = self.sheet_layout(session, body_probe, canvas)
            if layout.pages > 1:
                x = right.left + 2 * (tw + canvas.px(8))
                canvas.button(
                    (x, right.top, right.right - x, tab_h),
                    self._("Page {n} of {total}", n=self.sheet_page % layout.pages + 1, total=layout.pages),
                    self.next_sheet_page,
                    size=20,
                )
        if self.is_triple() and self.tab == "choices":
            for col in (1, 2, 3):
                x = right.left + (col + 1) * (tw + canvas.px(8))
                canvas.button(
                    (x, right.top, tw, tab_h),
                    f"×{col}",
                    partial(self.set_page, col),
                    selected=self.page == col,
                    size=22,
                )
        body = pygame.Rect(
            right.left, right.top + tab_h + canvas.px(8), right.width, right.height - tab_h - canvas.px(8)
        )
        panel.draw(canvas, session, shown, body)

    def set_tab(self, tab: str) -> None:
        self.tab = tab

    def set_page(self, page: int) -> None:
        self.page = page

    def is_triple(self) -> bool:
        return any(":" in b for b in self.session.game_state.sheets[0].boxes)

    def draw_status(self, canvas: Canvas, session: DiceSession, area: pygame.Rect) -> None:
        """The turn (round) and which roll of three, between the player's name and the clock."""
        turn = session.game_state.round_number
        canvas.text(
            self._("Turn {n}", n=turn),
            (area.left, 0, canvas.px(120), area.height),
            size=22,
            colour=TEXT_DIM,
        )
        rolls = self._("Roll {n} of {total}", n=session.rolls_used, total=MAX_ROLLS)
        canvas.text(
            rolls, (area.left + canvas.px(120), 0, canvas.px(150), area.height), size=24, colour=ACCENT
        )

    def draw_left(
        self, canvas: Canvas, session: DiceSession, panel: Panel, stage: DiceStage, area: pygame.Rect
    ) -> None:
        """The camera's picture, the dice (a die tapped: *Fix the dice*), the state's touch, *Fix the
        dice* and the message line."""
        cam = pygame.Rect(area.left, area.top, area.width, area.width * 9 // 16)
        self.draw_camera(canvas, cam)
        size = canvas.px(52)
        gap = (area.width - 5 * size) // 4
        y = cam.bottom + canvas.px(8)
        dice = session.dice
        held = session.held_now() if session.scene is not None else self.last_held(session)
        suggested = coach_hold(self.host)
        fix = partial(session.send, Touch("fix_dice"))
        for i in range(5):
            rect = pygame.Rect(area.left + i * (size + gap), y, size, size)
            value = dice.values[i] if dice is not None else None
            draw_die(canvas, rect, value, held=i in held, action=fix)
            if i in suggested:
                mark = pygame.Rect(rect.left, rect.bottom + canvas.px(2), rect.width, canvas.px(5))
                canvas.shape(mark, ACCENT, radius=canvas.px(2))
                canvas.record("coach_hold", str(value), mark)
        y += size + canvas.px(10)
        panel.action(canvas, session, stage, pygame.Rect(area.left, y, area.width, canvas.px(64)))
        y += canvas.px(72)
        canvas.button(
            (area.left, y, area.width, canvas.px(48)),
            self._("Fix the dice"),
            fix,
            size=20,
        )
        y += canvas.px(56)
        self.draw_message(canvas, pygame.Rect(area.left, y, area.width, area.bottom - y))

    def status_line(self) -> str:
        session = self.session
        if session.seen is not None and session.seen.kind == "incomplete":
            return self._("{n} dice seen, 5 needed", n=session.seen_count)
        return ""

    def trouble(self) -> bool:
        return super().trouble() or bool(self.status_line())  # too few dice seen: the camera's trouble

    def last_held(self, session: DiceSession) -> tuple[int, ...]:
        if session.rolls_used == 0 or not session.history:
            return ()
        last = session.history[-1]
        return last.held if isinstance(last, RollDice) else ()

    def draw_camera(self, canvas: Canvas, rect: pygame.Rect) -> None:
        camera = self.host.camera
        self.camera_panel.draw(
            canvas,
            rect,
            camera.view() if camera is not None else None,
            no_camera=self._("No camera"),
            camera_label=self._("Camera"),
            zone_labels={HOLD: self._("Hold zone")},
            moving=self._("Rolling…"),
        )

    def score_grid(self, session: DiceSession) -> ScoreGrid:
        """The players' sheets as a grid: box rows, then the bonus rows (``×1 ×2 ×3`` on the triple)."""
        sheets = session.game_state.sheets
        game = session.spec.name
        columns = 3 if self.is_triple() else 1
        boxes = _row_names(sheets[0].boxes)
        bonuses = _row_names(key for sheet in sheets for key in sheet.bonuses())
        rows = boxes + bonuses
        current = session.current_seat

        def key(c: int, name: str) -> str:
            return f"{c + 1}:{name}" if columns > 1 else name

        def cell(row: int, player: int, column: int) -> str | None:
            name = rows[row]
            if row >= len(boxes):
                bonus = sheets[player].bonuses().get(key(column, name))
                return str(bonus) if bonus else None
            value = sheets[player].get(key(column, name))
            return None if value is None else str(value)

        def open_box(row: int, player: int, column: int) -> bool:
            return row < len(boxes) and session.players[player].seat == current

        colours = self.host.config.seats.colours
        return ScoreGrid(
            rows=[box_name(self.tr, game, name) for name in rows],
            players=[(p.name, seat_colour(colours, p.seat)) for p in session.players],
            cell=cell,
            totals=[str(sheet.total()) for sheet in sheets],
            column_labels=[f"×{c + 1}" for c in range(columns)] if columns > 1 else [],
            open=open_box,
            total_label=self._("Total"),
        )

    def sheet_layout(self, session: DiceSession, area: pygame.Rect, canvas: Canvas) -> GridLayout:
        """How the sheets are paged (``device.ui.score_grid``): paged, never shrunk."""
        return self.score_grid(session).layout(canvas, area)

    def next_sheet_page(self) -> None:
        self.sheet_page += 1

    def draw_sheets(self, canvas: Canvas, session: DiceSession, area: pygame.Rect) -> None:
        self.score_grid(session).draw(canvas, area, self.sheet_page)
