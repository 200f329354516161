"""The dice table: the camera's view with the recognised dice and the hold zone, the dice of this roll,
whose turn and which roll it is, the clock, the boxes open for these dice with their points, and every
player's sheet.

The right-hand panel shows either the choices (after a roll) or the sheets; a tab switches. The triple
variant's 39 boxes are shown one column (×1, ×2, ×3) at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pygame

from device.events import DiceSeen, Event, Key
from device.screens.base import Screen, screen
from device.screens.coach_panel import coach_box, coach_hold, draw_coach_notice, hints_on
from device.session import Refusal
from device.sessions.dice import DiceSession
from device.ui.canvas import Canvas
from device.ui.names import box_base, box_column, box_label, box_name, clock_text, seat_colour
from device.ui.theme import ACCENT, GOOD, HOLD_ZONE, PANEL, TEXT, TEXT_DIM, WARNING
from device.ui.widgets import draw_die
from device.vision_worker import CameraView
from drivers.events import ButtonEvent

SHEET_TEXT = 24  # px at 800×480: the sheet is read from across the table
SHEET_ROW = 32
SHEET_LABEL = 176
SHEET_CELL = 48  # the narrowest cell that holds a three-digit score at SHEET_TEXT
REFUSAL_SECONDS = 6.0
TIMEOUT_NOTICE_SECONDS = 8.0  # how long the box the timer entered stays on the screen
MAX_ROLLS = 3


@dataclass(frozen=True)
class SheetLayout:
    """The sheets cut into pages: ``rows`` (box and bonus names) ``rows_per_page`` at a time, the
    players ``players_per_page`` at a time; every page shows the totals."""

    rows: list[str]
    columns: int
    rows_per_page: int
    players_per_page: int
    players: int

    @property
    def row_pages(self) -> int:
        return -(-len(self.rows) // self.rows_per_page)

    @property
    def player_pages(self) -> int:
        return -(-self.players // self.players_per_page)

    @property
    def pages(self) -> int:
        return self.row_pages * self.player_pages


def _row_names(keys: Iterable[str]) -> list[str]:
    """The names of a sheet's rows, in first-seen order: a triple's column prefix ("2:") dropped."""
    return list(dict.fromkeys(box_base(key) for key in keys))


def refusal_text(tr: Any, refusal: Refusal) -> str:
    """A refused action in the players' language, by its rule code; the rules' English message when
    the catalogue has no sentence for the code."""
    text: str = tr.pgettext("rule", refusal.code)
    if text == refusal.code:
        return f"{refusal.message} [{refusal.code}]"
    return text.format(**refusal.details) if refusal.details else text


class DiceScreen(Screen):
    """A screen of a dice game: it always runs over the app's dice session."""

    @property
    def session(self) -> DiceSession:
        session = self.app.session
        assert isinstance(session, DiceSession)
        return session


@screen("dice_table")
class DiceTableScreen(DiceScreen):
    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.tab = "choices"
        self.page = 1
        self.sheet_page = 0
        self._camera_seq = -1
        self._camera_surface: pygame.Surface | None = None

    def enter(self, **_: Any) -> None:
        self.tab = "choices" if self.session.dice is not None else "sheets"

    def back(self) -> None:
        self.app.show("settings")

    # --- events --------------------------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        session = self.session
        if isinstance(event, DiceSeen):
            if session.on_dice(event):
                self.tab = "choices"
                self.page = 1
            elif session.pending is not None:
                self.app.show("correction")
        elif isinstance(event, ButtonEvent):
            session.confirm(event.seat)
        elif isinstance(event, Key) and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            seat = session.current_seat
            if seat is not None:
                session.confirm(seat)
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
        self.session.select(box)
        self.page = box_column(box)

    def confirm_touch(self) -> None:
        seat = self.session.current_seat
        if seat is not None:
            self.session.confirm(seat)

    # --- drawing -------------------------------------------------------------------------------------

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        session = self.session
        self.draw_top(canvas, session)
        left = pygame.Rect(canvas.px(8), canvas.px(64), canvas.px(304), canvas.height - canvas.px(72))
        right = pygame.Rect(
            left.right + canvas.px(8), left.top, canvas.width - left.right - canvas.px(16), left.height
        )
        self.draw_left(canvas, session, left)
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
        if self.tab == "sheets" and session.question is None:
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
        if session.question is not None:
            self.draw_question(canvas, body)
            return
        notice = self.timeout_notice(session)
        if notice:
            box = pygame.Rect(body.left, body.top, body.width, canvas.px(84))
            canvas.shape(box, PANEL, radius=canvas.px(8))
            canvas.paragraph(notice, box.inflate(-canvas.px(16), -canvas.px(8)), size=22, colour=ACCENT)
            body = pygame.Rect(
                body.left, box.bottom + canvas.px(8), body.width, body.bottom - box.bottom - canvas.px(8)
            )
        body = draw_coach_notice(self, canvas, body)
        if self.tab == "choices":
            self.draw_choices(canvas, session, body)
        else:
            self.draw_sheets(canvas, session, body)

    def draw_question(self, canvas: Canvas, area: pygame.Rect) -> None:
        """The device cannot tell whether the dice were thrown: the players say."""
        canvas.shape(area, PANEL, radius=canvas.px(8))
        inner = area.inflate(-canvas.px(24), -canvas.px(24))
        canvas.text(
            self._("Were the dice rolled?"),
            (inner.left, inner.top, inner.width, canvas.px(40)),
            size=28,
            bold=True,
            colour=ACCENT,
        )
        canvas.paragraph(
            self._("The camera could not tell whether the dice were thrown or only moved."),
            (inner.left, inner.top + canvas.px(48), inner.width, canvas.px(90)),
            size=22,
        )
        w = (inner.width - canvas.px(16)) // 2
        y = inner.bottom - canvas.px(64)
        canvas.button(
            (inner.left, y, w, canvas.px(64)),
            self._("Yes, a new roll"),
            partial(self.answer, True),
            colour=GOOD,
            size=22,
        )
        canvas.button(
            (inner.left + w + canvas.px(16), y, w, canvas.px(64)),
            self._("No, same roll"),
            partial(self.answer, False),
            size=22,
        )

    def answer(self, rolled: bool) -> None:
        if self.session.answer(rolled):
            self.tab = "choices"
        elif self.session.pending is not None:
            self.app.show("correction")

    def timeout_notice(self, session: DiceSession) -> str:
        """After a timeout, for a few seconds: which box the timer entered, for whom, and why."""
        entry = session.timeout_entry
        if entry is None or session.timer.now() - entry.at >= TIMEOUT_NOTICE_SECONDS:
            return ""
        name = session.players[entry.seat].name
        box = box_label(self.tr, session.spec.name, entry.box)
        if entry.unrolled:
            return self._(
                "Time ran out before the roll: {box} ({points}) entered for {name}.",
                box=box,
                points=entry.points,
                name=name,
            )
        return self._(
            "Time ran out: {box} ({points}) entered for {name}.", box=box, points=entry.points, name=name
        )

    def set_tab(self, tab: str) -> None:
        self.tab = tab

    def set_page(self, page: int) -> None:
        self.page = page

    def is_triple(self) -> bool:
        return any(":" in b for b in self.session.state.sheets[0].boxes)  # type: ignore[attr-defined]

    def draw_top(self, canvas: Canvas, session: DiceSession) -> None:
        bar = pygame.Rect(0, 0, canvas.width, canvas.px(56))
        canvas.shape(bar, PANEL)
        seat = session.current_seat
        if seat is not None:
            player = session.players[seat]
            colour = seat_colour(self.app.config.seats.colours, player.seat)
            canvas.shape((canvas.px(8), canvas.px(6), canvas.px(44), canvas.px(44)), colour, radius=22)
            canvas.text(player.name, (canvas.px(60), 0, canvas.px(230), bar.height), size=28, bold=True)
        turn = int(session.state.round_number)  # type: ignore[attr-defined]
        canvas.text(
            self._("Turn {n}", n=turn),
            (canvas.px(300), 0, canvas.px(120), bar.height),
            size=22,
            colour=TEXT_DIM,
        )
        rolls = self._("Roll {n} of {total}", n=session.rolls_used, total=MAX_ROLLS)
        canvas.text(rolls, (canvas.px(420), 0, canvas.px(150), bar.height), size=24, colour=ACCENT)
        self.draw_clock(canvas, session, pygame.Rect(canvas.px(570), 0, canvas.px(110), bar.height))
        canvas.button(
            (canvas.width - canvas.px(112), canvas.px(4), canvas.px(104), canvas.px(48)),
            self._("Menu"),
            lambda: self.app.show("settings"),
            size=20,
        )

    def draw_clock(self, canvas: Canvas, session: DiceSession, rect: pygame.Rect) -> None:
        """The move timer's time left ("move time"), or without a limit the time of this turn so far
        ("turn time"), labelled above the figures."""
        timer = session.timer
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

    def draw_left(self, canvas: Canvas, session: DiceSession, area: pygame.Rect) -> None:
        cam = pygame.Rect(area.left, area.top, area.width, area.width * 9 // 16)
        self.draw_camera(canvas, cam)
        size = canvas.px(52)
        gap = (area.width - 5 * size) // 4
        y = cam.bottom + canvas.px(8)
        dice = session.dice
        held = session.held_now() if session.scene is not None else self.last_held(session)
        suggested = coach_hold(self.app)
        for i in range(5):
            rect = pygame.Rect(area.left + i * (size + gap), y, size, size)
            value = dice.values[i] if dice is not None else None
            draw_die(canvas, rect, value, held=i in held, action=lambda: self.app.show("correction"))
            if i in suggested:
                mark = pygame.Rect(rect.left, rect.bottom + canvas.px(2), rect.width, canvas.px(5))
                canvas.shape(mark, ACCENT, radius=canvas.px(2))
                canvas.record("coach_hold", str(value), mark)
        y += size + canvas.px(10)
        choices = session.choices()
        selected = session.selected
        if selected is not None and selected in choices:
            label = self._("Enter")
            sub = f"{box_label(self.tr, session.spec.name, selected)}: {choices[selected]}"
            canvas.button(
                (area.left, y, area.width, canvas.px(64)),
                label,
                self.confirm_touch,
                sublabel=sub,
                colour=GOOD,
                size=20,
            )
        else:
            hint = self._("Roll the dice") if not choices else self._("Choose a box")
            canvas.button((area.left, y, area.width, canvas.px(64)), hint, None, size=22)
        y += canvas.px(72)
        canvas.button(
            (area.left, y, area.width, canvas.px(48)),
            self._("Fix the dice"),
            lambda: self.app.show("correction"),
            size=20,
        )
        y += canvas.px(56)
        message = self.message(session)
        if message:
            canvas.paragraph(message, (area.left, y, area.width, area.bottom - y), size=22, colour=WARNING)

    def message(self, session: DiceSession) -> str:
        refusal = session.refusal
        if refusal is not None and session.timer.now() - refusal.at < REFUSAL_SECONDS:
            return refusal_text(self.tr, refusal)
        if self.app.camera_status:
            return str(self.app.camera_status)
        if session.seen is not None and session.seen.kind == "incomplete":
            return self._("{n} dice seen, 5 needed", n=session.seen_count)
        return ""

    def last_held(self, session: DiceSession) -> tuple[int, ...]:
        if session.rolls_used == 0 or not session.history:
            return ()
        return tuple(getattr(session.history[-1], "held", ()))

    def draw_camera(self, canvas: Canvas, rect: pygame.Rect) -> None:
        canvas.shape(rect, PANEL)
        camera = self.app.camera
        view: CameraView | None = camera.view() if camera is not None else None
        if view is None:
            canvas.text(self._("No camera"), rect, size=22, colour=TEXT_DIM, align="center")
            return
        if view.seq != self._camera_seq or self._camera_surface is None:
            image = np.ascontiguousarray(view.image)
            surface = pygame.image.frombuffer(image.tobytes(), (image.shape[1], image.shape[0]), "RGB")
            self._camera_surface = pygame.transform.smoothscale(surface, rect.size)
            self._camera_seq = view.seq
        canvas.image(self._camera_surface, rect, self._("Camera"))
        sx = rect.width / view.frame_size[0]
        sy = rect.height / view.frame_size[1]
        if view.hold_zone is not None:
            corners = [
                (
                    min(max(rect.left + x * sx, rect.left), rect.right - 1),
                    min(max(rect.top + y * sy, rect.top), rect.bottom - 1),
                )
                for x, y in view.hold_zone
            ]
            pygame.draw.polygon(canvas.surface, HOLD_ZONE, corners, width=2)
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            zone = pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
            boxes = [self._die_box(die, rect, sx, sy) for die in view.dice]
            label_w, label_h = min(zone.width - 8, canvas.px(110)), canvas.px(22)
            # The label goes in a corner of the zone that no die covers (none if every corner is taken).
            for corner in (
                (zone.left + 4, zone.top + 2),
                (zone.right - 4 - label_w, zone.top + 2),
                (zone.left + 4, zone.bottom - 2 - label_h),
                (zone.right - 4 - label_w, zone.bottom - 2 - label_h),
            ):
                spot = pygame.Rect(corner[0], corner[1], label_w, label_h)
                if not any(spot.colliderect(b) for b in boxes):
                    canvas.text(self._("Hold zone"), spot, size=18, colour=HOLD_ZONE)
                    break
            canvas.record("hold_zone", self._("Hold zone"), zone)
        for die in view.dice:
            box = self._die_box(die, rect, sx, sy)
            colour = WARNING if die.uncertain else HOLD_ZONE if die.held else GOOD
            pygame.draw.rect(canvas.surface, colour, box, width=3 if die.uncertain else 2)
            label = "?" if die.value is None else str(die.value)
            if die.uncertain and die.value is not None:
                label += "?"
            # The value in large type beside the die, so a player a metre away sees what was read.
            tag = pygame.Rect(0, 0, canvas.px(30 if len(label) == 1 else 40), canvas.px(30))
            tag.midbottom = (box.centerx, box.top - 1)
            if tag.top < rect.top:
                tag.midtop = (box.centerx, box.bottom + 1)
            tag = tag.clamp(rect)
            pygame.draw.rect(canvas.surface, colour, tag, border_radius=canvas.px(6))
            canvas.text(label, tag, size=26, bold=True, align="center")
            canvas.record("seen_die", label, box)
        if view.state == "rolling" and view.moving:
            canvas.text(
                self._("Rolling…"),
                (rect.left, rect.bottom - canvas.px(28), rect.width, canvas.px(26)),
                size=20,
                colour=ACCENT,
                align="center",
            )

    @staticmethod
    def _die_box(die: Any, rect: pygame.Rect, sx: float, sy: float) -> pygame.Rect:
        half = die.size * sx / 2
        box = pygame.Rect(0, 0, half * 2, half * 2)
        box.center = (round(rect.left + die.center[0] * sx), round(rect.top + die.center[1] * sy))
        return box.clip(rect)

    def draw_choices(self, canvas: Canvas, session: DiceSession, area: pygame.Rect) -> None:
        choices = session.choices()
        if not choices:
            canvas.paragraph(
                self._("Roll the dice. Dice put in the hold zone stay held for the next roll."),
                area.inflate(-canvas.px(16), -canvas.px(16)),
                size=22,
                colour=TEXT_DIM,
            )
            return
        boxes = [b for b in choices if not self.is_triple() or box_column(b) == self.page]
        best = coach_box(self.app) if hints_on(self.app) else session.best_choice()
        cols, rows = 3, 5
        gap = canvas.px(6)
        w = (area.width - gap * (cols - 1)) // cols
        h = min(canvas.px(72), (area.height - gap * (rows - 1)) // rows)
        game = session.spec.name
        for i, box in enumerate(boxes[: cols * rows]):
            r = pygame.Rect(area.left + (i % cols) * (w + gap), area.top + (i // cols) * (h + gap), w, h)
            canvas.button(
                r,
                box_name(self.tr, game, box),
                partial(session.select, box),
                sublabel=str(choices[box]),
                selected=box == session.selected,
                highlight=box == best,
                size=19,
            )

    def sheet_layout(self, session: DiceSession, area: pygame.Rect, canvas: Canvas) -> SheetLayout:
        """How the sheets are paged: rows per page and players per page at a size readable from a
        metre away (``SHEET_TEXT`` px at 800×480); the sheet is paged, never shrunk."""
        sheets = session.state.sheets  # type: ignore[attr-defined]
        columns = 3 if self.is_triple() else 1
        rows = _row_names(sheets[0].boxes) + _row_names(key for sheet in sheets for key in sheet.bonuses())
        row_h = canvas.px(SHEET_ROW)
        fixed = 2 + (1 if columns > 1 else 0)  # names (and ×1 ×2 ×3) above, the totals below
        per_page = max(1, area.height // row_h - fixed)
        per_players = max(1, (area.width - canvas.px(SHEET_LABEL)) // (columns * canvas.px(SHEET_CELL)))
        return SheetLayout(rows, columns, per_page, min(per_players, len(sheets)), len(sheets))

    def next_sheet_page(self) -> None:
        self.sheet_page += 1

    def draw_sheets(self, canvas: Canvas, session: DiceSession, area: pygame.Rect) -> None:
        state: Any = session.state
        game = session.spec.name
        sheets = state.sheets
        layout = self.sheet_layout(session, area, canvas)
        columns = layout.columns
        page = self.sheet_page % layout.pages
        row_page, player_page = divmod(page, layout.player_pages)
        rows = layout.rows[row_page * layout.rows_per_page : (row_page + 1) * layout.rows_per_page]
        shown = list(range(len(sheets)))[
            player_page * layout.players_per_page : (player_page + 1) * layout.players_per_page
        ]
        row_h = canvas.px(SHEET_ROW)
        label_w = canvas.px(SHEET_LABEL)
        cell_w = (area.width - label_w) // (len(shown) * columns)
        size = SHEET_TEXT
        bonus_keys = set(_row_names(key for sheet in sheets for key in sheet.bonuses()))

        def column_key(c: int, name: str) -> str:
            return f"{c + 1}:{name}" if columns > 1 else name

        def cell(n: int, c: int, y: int) -> tuple[int, int, int, int]:
            return (area.left + label_w + (n * columns + c) * cell_w, y, cell_w - canvas.px(6), row_h)

        y = area.top
        for n, p in enumerate(shown):
            player = session.players[p]
            x = area.left + label_w + n * columns * cell_w
            colour = seat_colour(self.app.config.seats.colours, player.seat)
            canvas.shape((x + 1, y, columns * cell_w - 2, row_h), colour)
            canvas.text(
                player.name, (x + 4, y, columns * cell_w - 8, row_h), size=size, align="center", bold=True
            )
        y += row_h
        if columns > 1:
            for n in range(len(shown)):
                for c in range(columns):
                    canvas.text(
                        f"×{c + 1}", cell(n, c, y), size=size, colour=ACCENT, align="right", bold=True
                    )
            y += row_h
        current = session.current_seat
        for name in rows:
            canvas.text(
                box_name(self.tr, game, name), (area.left, y, label_w - 4, row_h), size=size, colour=TEXT_DIM
            )
            for n, p in enumerate(shown):
                sheet = sheets[p]
                for c in range(columns):
                    if name in bonus_keys:
                        value = sheet.bonuses().get(column_key(c, name))
                        if value:
                            canvas.text(str(value), cell(n, c, y), size=size, align="right")
                        continue
                    value = sheet.get(column_key(c, name))
                    if value is not None:
                        canvas.text(str(value), cell(n, c, y), size=size, align="right")
                    elif session.players[p].seat == current:
                        canvas.text("·", cell(n, c, y), size=size, colour=TEXT_DIM, align="right")
            y += row_h
        y = max(y, area.bottom - row_h)
        canvas.text(self._("Total"), (area.left, y, label_w - 4, row_h), size=size, bold=True)
        for n, p in enumerate(shown):
            canvas.text(
                str(sheets[p].total()),
                cell(n, columns - 1, y),
                size=size,
                align="right",
                bold=True,
                colour=ACCENT,
            )
