"""The dice table: the camera's view with the recognised dice and the hold zone, the dice of this roll,
whose turn and which roll it is, the clock, the boxes open for these dice with their points, and every
player's sheet.

The right-hand panel shows either the choices (after a roll) or the sheets; a tab switches. The triple
variant's 39 boxes are shown one column (×1, ×2, ×3) at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

import pygame

from device.events import Event, Key
from device.host import Host
from device.screens.base import Screen, screen
from device.screens.coach_panel import coach_box, coach_hold, draw_coach_notice, hints_on
from device.screens.table import TableScreen
from device.sessions.dice import DiceSession
from device.ui.camera_panel import CameraPanel
from device.ui.canvas import Canvas
from device.ui.names import box_base, box_column, box_label, box_name, seat_colour
from device.ui.score_grid import GridLayout, ScoreGrid
from device.ui.theme import ACCENT, GOOD, PANEL, TEXT_DIM
from device.ui.widgets import draw_die
from rules.dice import RollDice
from vision.calibration import HOLD

TIMEOUT_NOTICE_SECONDS = 8.0  # how long the box the timer entered stays on the screen
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
        session = self.session
        if isinstance(event, Key) and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
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
        if (session.seq, session.rolls_used) != self._rolls_seen:
            if session.rolls_used > self._rolls_seen[1] or session.seq < self._rolls_seen[0]:
                self.tab, self.page = "choices", 1  # a new roll: its choices
            self._rolls_seen = (session.seq, session.rolls_used)
        self.draw_status(canvas, session, self.draw_top(canvas))
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
        self.session.answer(rolled)

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

    def draw_left(self, canvas: Canvas, session: DiceSession, area: pygame.Rect) -> None:
        cam = pygame.Rect(area.left, area.top, area.width, area.width * 9 // 16)
        self.draw_camera(canvas, cam)
        size = canvas.px(52)
        gap = (area.width - 5 * size) // 4
        y = cam.bottom + canvas.px(8)
        dice = session.dice
        held = session.held_now() if session.scene is not None else self.last_held(session)
        suggested = coach_hold(self.host)
        for i in range(5):
            rect = pygame.Rect(area.left + i * (size + gap), y, size, size)
            value = dice.values[i] if dice is not None else None
            draw_die(canvas, rect, value, held=i in held, action=session.fix_dice)
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
            # What to do next is a hint, not a button: no button's shape, so nobody taps it in vain.
            hint = self._("Roll the dice") if not choices else self._("Choose a box")
            canvas.text(
                hint, (area.left, y, area.width, canvas.px(64)), size=24, colour=ACCENT, align="center"
            )
        y += canvas.px(72)
        canvas.button(
            (area.left, y, area.width, canvas.px(48)),
            self._("Fix the dice"),
            session.fix_dice,
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
        best = coach_box(self.host) if hints_on(self.host) else session.best_choice()
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
                sublabel_size=24,
                sublabel_role="score",
                selected=box == session.selected,
                highlight=box == best,
                size=20,
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
