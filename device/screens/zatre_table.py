"""The Zatre table: the hand of the player on turn, the board as a grid of half-cells the players fill by
tapping, what the pending cards would score, and the score sheets as the paper pad has them.

Left: the hand (each card as its two halves: tap the half that goes on the cell you tap next), what
the pending cards score, *Take back* and *Lay* (the seat button does the same), the refusal line and
the arrows that move the view of the board. Right: the board, 48 px per half-cell at 800×480, centred
on the laid cards after every turn. The top bar switches between the board and the sheets.

The left column is the panel of the session's state (``device.screens.zatre_panels``: the hand in solo
practice; in referee mode what to do, *Show hand*, *Read the board* or the number pad), with the
refusal line and the arrows below it. Every touch of the game is an event for the current state
(``session.send``: ``CellTapped`` for a cell of the board, the panels' own); the arrows, the sheets and
their pages are the screen's.

The touch targets are labelled for the tests and the simulated players: ``hand 2.1`` (the second card's
first half), ``cell 3,-1`` (a half-cell of the board), ``pad cancel``, ``pan left`` … ``pan down``.
"""

from __future__ import annotations

from functools import partial

import pygame

from device.events import Event, Key
from device.host import Host
from device.screens.base import screen
from device.screens.table import TableScreen
from device.screens.zatre_panels import CARD_FACE, CARD_INK, Panel, panel_of
from device.sessions.zatre import CellTapped, TimeoutLay, Touch, ZatreSession, ZatreStage
from device.ui.canvas import Canvas
from device.ui.names import seat_colour
from device.ui.score_grid import ScoreGrid
from device.ui.theme import ACCENT, BUTTON, PANEL, TEXT, TEXT_DIM, WARNING, Colour
from rules.zatre import Scoring, Sheet

__all__ = ["CELL", "SHEET_COLUMNS", "ZatreTableScreen", "sheet_cell"]

CELL = 48  # px per half-cell at 800×480: the smallest touch target
FRONTIER: Colour = (45, 58, 78)
NOTICE_SECONDS = 8.0
SHEET_COLUMNS = ("10", "11", "12", "+", "Σ")  # the pad: three columns, the row bonus, the Total column
PAN = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


def sheet_cell(sheet: Sheet, row: int, column: int) -> int | None:
    """What the paper pad shows in sheet row ``row`` (0-based) and ``column`` (0–2: the 10, 11 and 12
    boxes, 3: the row bonus once the row is complete, 4: the Total column's super bonus, entered from
    the bottom row up), ``None`` for an empty box.

    >>> s = Sheet().enter(Scoring((12, 12, 10), (5, 5, 1), 6)).enter(Scoring((11,), (3,), 0))
    >>> [sheet_cell(s, 0, c) for c in range(4)], sheet_cell(s, s.length - 1, 4)
    ([1, 3, 10, 1], 6)
    """
    if column < 3:
        boxes = sheet.columns[column]
        return boxes[row] if row < len(boxes) else None
    if column == 3:
        return sheet.bonus_of_row(row) if row < sheet.complete_rows else None
    index = sheet.length - 1 - row
    return sheet.supers[index] if 0 <= index < len(sheet.supers) else None


@screen("zatre_table")
class ZatreTableScreen(TableScreen):
    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.view = "board"
        self.sheet_page = 0
        self.pan = (0, 0)
        self._seq = -1
        self.panels: dict[type[Panel], Panel] = {}

    @property
    def session(self) -> ZatreSession:
        session = self.host.session
        assert isinstance(session, ZatreSession)
        return session

    def enter(self, **_: object) -> None:
        self.view = "board"
        self.pan = (0, 0)

    # --- input ---------------------------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        if isinstance(event, Key) and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.session.send(Touch("lay"))
        elif isinstance(event, Key) and event.key == pygame.K_BACKSPACE:
            self.session.send(Touch("take_back"))
        elif isinstance(event, Key) and event.key in (
            pygame.K_LEFT,
            pygame.K_RIGHT,
            pygame.K_UP,
            pygame.K_DOWN,
        ):
            name = {pygame.K_LEFT: "left", pygame.K_RIGHT: "right", pygame.K_UP: "up", pygame.K_DOWN: "down"}
            self.move_view(name[event.key])
        else:
            super().handle(event)

    def move_view(self, direction: str) -> None:
        dx, dy = PAN[direction]
        self.pan = (self.pan[0] + dx, self.pan[1] + dy)

    def toggle_view(self) -> None:
        self.view = "sheets" if self.view == "board" else "board"

    def next_sheet_page(self) -> None:
        self.sheet_page += 1

    # --- drawing -------------------------------------------------------------------------------------

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        session = self.session
        if session.seq != self._seq:
            self._seq, self.pan = session.seq, (0, 0)  # after every turn: the view on the laid cards
        status = self.draw_top(canvas)
        self.draw_status(canvas, session, status)
        body = pygame.Rect(canvas.px(8), canvas.px(64), canvas.width - canvas.px(16), 0)
        body.height = canvas.height - canvas.px(8) - body.top
        if self.view == "sheets":
            self.draw_sheets(canvas, session, body)
            return
        left = pygame.Rect(body.left, body.top, canvas.px(296), body.height)
        board = pygame.Rect(left.right + canvas.px(8), body.top, body.right - left.right - canvas.px(8), 0)
        board.height = body.height
        self.draw_left(canvas, session, left)
        self.draw_board(canvas, session, board)

    def panel(self, stage: ZatreStage) -> Panel:
        """The panel of the current state (``device.screens.zatre_panels``)."""
        kind = panel_of(stage)
        if kind not in self.panels:
            self.panels[kind] = kind(self)
        return self.panels[kind]

    def draw_left(self, canvas: Canvas, session: ZatreSession, area: pygame.Rect) -> None:
        """The state's panel, then the refusal line and the arrows that move the view of the board."""
        stage = session.stage
        assert isinstance(stage, ZatreStage)
        y = self.panel(stage).draw(canvas, session, stage, area)
        arrows_top = area.bottom - canvas.px(52)
        self.draw_message(canvas, pygame.Rect(area.left, y, area.width, arrows_top - y - canvas.px(4)))
        aw = (area.width - 3 * canvas.px(8)) // 4
        for n, direction in enumerate(("left", "up", "down", "right")):
            rect = pygame.Rect(area.left + n * (aw + canvas.px(8)), arrows_top, aw, canvas.px(52))
            self.arrow(canvas, rect, direction)

    def draw_status(self, canvas: Canvas, session: ZatreSession, area: pygame.Rect) -> None:
        state = session.zatre
        canvas.text(
            self._("Round {n} of {total}", n=state.round + 1, total=state.rounds),
            (area.left, 0, canvas.px(136), area.height),
            size=22,
            colour=ACCENT,
        )
        label = self._("Sheets") if self.view == "board" else self._("Board")
        canvas.button(
            (area.left + canvas.px(140), canvas.px(8), area.width - canvas.px(144), canvas.px(48)),
            label,
            self.toggle_view,
            size=20,
        )

    def arrow(self, canvas: Canvas, rect: pygame.Rect, direction: str) -> None:
        """A button with a drawn arrowhead (the font has no arrows): moves the view of the board."""
        canvas.shape(rect, BUTTON, radius=8)
        cx, cy, r = rect.centerx, rect.centery, canvas.px(12)
        dx, dy = PAN[direction]
        tip = (cx + dx * r, cy + dy * r)
        base = [(cx - dx * r + dy * r, cy - dy * r + dx * r), (cx - dx * r - dy * r, cy - dy * r - dx * r)]
        pygame.draw.polygon(canvas.surface, TEXT, [tip, *base])
        canvas.record("button", f"pan {direction}", rect)
        canvas.target(rect, f"pan {direction}", partial(self.move_view, direction))

    def scoring_text(self, scoring: Scoring) -> str:
        if not scoring.rows:
            return self._("No row of 10, 11 or 12: 0 points")
        rows = " + ".join(str(t) for t in scoring.rows)
        points = sum(scoring.points)
        if len(scoring.rows) == 1:
            text = self.tr.nformat("Row {rows}: {n} point", "Row {rows}: {n} points", points, rows=rows)
        else:
            text = self.tr.nformat("Rows {rows}: {n} point", "Rows {rows}: {n} points", points, rows=rows)
        if scoring.super_bonus:
            text += " " + self._("Super bonus +{bonus}", bonus=scoring.super_bonus)
        return text

    def status_line(self) -> str:
        """After a turn: the timer's lay, the exchanges and passes, the end of a round; else the last
        turn's score."""
        session = self.session
        entry = session.timeout_entry
        if entry is not None and session.timer.now() - entry.at < NOTICE_SECONDS:
            if entry.lay is None:
                return self._("Time ran out: {name} passes.", name=session.players[entry.seat].name)
            return self.timeout_text(entry)
        names = [p.name for p in session.players]
        lines = []
        for event in session.zatre.events:
            if event.kind == "exchange" and event.player is not None:
                lines.append(
                    self._(
                        "{name} could not lay: the hand goes under the pile, 3 new cards.",
                        name=names[event.player],
                    )
                )
            elif event.kind == "pass" and event.player is not None:
                lines.append(self._("{name} cannot lay any card and passes.", name=names[event.player]))
            elif event.kind == "round_end":
                lines.append(self._("The round is over."))
        if lines:
            return " ".join(lines)
        if session.last_turn is not None and not session.pending:
            seat, _, scoring = session.last_turn
            return self._("{name} scored {points}.", name=names[seat], points=scoring.total)
        return ""

    def timeout_text(self, entry: TimeoutLay) -> str:
        assert entry.lay is not None
        return self._(
            "Time ran out: {cards} laid for {name} ({points}).",
            cards=" ".join(str(p.card) for p in entry.lay.placements),
            name=self.session.players[entry.seat].name,
            points=entry.points,
        )

    # --- the board -----------------------------------------------------------------------------------

    def view_origin(self, session: ZatreSession, cols: int, rows: int) -> tuple[int, int]:
        """The board cell at the view's top left: the laid and pending cards centred, then panned."""
        cells = [*session.zatre.board.cells, *session.pending_cells(), *(c for c, _ in session.manual)]
        if cells:
            xs = [x for x, _ in cells]
            ys = [y for _, y in cells]
            cx, cy = (min(xs) + max(xs) + 1) // 2, (min(ys) + max(ys) + 1) // 2
        else:
            cx, cy = 0, 0
        return cx - cols // 2 + self.pan[0], cy - rows // 2 + self.pan[1]

    def draw_board(self, canvas: Canvas, session: ZatreSession, area: pygame.Rect) -> None:
        cell = canvas.px(CELL)
        cols, rows = area.width // cell, area.height // cell
        grid = pygame.Rect(0, 0, cols * cell, rows * cell)
        grid.center = area.center
        canvas.shape(area, PANEL, radius=8)
        ox, oy = self.view_origin(session, cols, rows)
        laid = session.zatre.board.cells
        pending = session.pending_cells()
        frontier = session.zatre.board.frontier()

        def rect_of(x: int, y: int) -> pygame.Rect:
            return pygame.Rect(grid.left + (x - ox) * cell, grid.top + (y - oy) * cell, cell, cell)

        for row in range(rows):
            for col in range(cols):
                x, y = ox + col, oy + row
                rect = rect_of(x, y)
                if (x, y) not in laid and (x, y) not in pending:
                    colour = FRONTIER if (x, y) in frontier else BUTTON
                    pygame.draw.rect(canvas.surface, colour, rect.inflate(-2, -2), width=1)
                canvas.target(rect, f"cell {x},{y}", partial(session.send, CellTapped((x, y))))
        visible = pygame.Rect(ox, oy, cols, rows)
        cards = [(p, False) for p in session.zatre.board.placements]
        cards += [(p.placement, True) for p in session.pending]
        diff = session.diff
        moved = set(diff.moved) if diff is not None else set()
        for placement, is_pending in cards:
            (a, va), (b, vb) = placement.cells
            if not (visible.collidepoint(a) or visible.collidepoint(b)):
                continue
            first, second = rect_of(*a), rect_of(*b)
            whole = first.union(second).clip(grid)
            canvas.shape(whole.inflate(-canvas.px(4), -canvas.px(4)), CARD_FACE, radius=6)
            if is_pending:
                pygame.draw.rect(
                    canvas.surface, ACCENT, whole.inflate(-2, -2), width=max(2, canvas.px(3)), border_radius=6
                )
            for rect, value in ((first, va), (second, vb)):
                if grid.contains(rect):
                    canvas.text(
                        str(value) if value else "", rect, size=30, colour=CARD_INK, align="center", bold=True
                    )
            if placement in moved:
                pygame.draw.rect(
                    canvas.surface,
                    WARNING,
                    whole.inflate(-2, -2),
                    width=max(3, canvas.px(4)),
                    border_radius=6,
                )
            canvas.record(
                "zatre_card",
                f"{placement}{'*' if is_pending else ''}{'!' if placement in moved else ''}",
                whole,
            )
        # Referee mode: the halves entered on the pad, the tapped cell, the unsure cells of the reading.
        for (x, y), value in session.manual:
            if visible.collidepoint((x, y)):
                rect = rect_of(x, y)
                canvas.shape(rect.inflate(-canvas.px(4), -canvas.px(4)), CARD_FACE, radius=6)
                pygame.draw.rect(canvas.surface, ACCENT, rect.inflate(-2, -2), width=max(2, canvas.px(3)))
                canvas.text(
                    str(value) if value else "", rect, size=30, colour=CARD_INK, align="center", bold=True
                )
                canvas.record("zatre_manual", f"{x},{y}={value}", rect)
        marks = [(session.selected, ACCENT)] if session.selected is not None else []
        marks += [(c, WARNING) for c in (diff.unsure if diff is not None else ())]
        for cell_xy, colour in marks:
            if cell_xy is not None and visible.collidepoint(cell_xy):
                pygame.draw.rect(
                    canvas.surface, colour, rect_of(*cell_xy).inflate(-2, -2), width=max(3, canvas.px(4))
                )

    # --- the sheets ----------------------------------------------------------------------------------

    def score_grid(self, session: ZatreSession) -> ScoreGrid:
        """Every player's pad: rows 1…25, the 10 | 11 | 12 boxes, the row bonus and the Total column."""
        sheets = session.zatre.sheets
        length = max(sheet.length for sheet in sheets)
        colours = self.host.config.seats.colours

        def cell(row: int, player: int, column: int) -> str | None:
            value = sheet_cell(sheets[player], row, column)
            return None if value is None else str(value)

        def open_box(row: int, player: int, column: int) -> bool:
            return column < 3 and row == len(sheets[player].columns[column])

        return ScoreGrid(
            rows=[str(n + 1) for n in range(length)],
            players=[(p.name, seat_colour(colours, p.seat)) for p in session.players],
            cell=cell,
            totals=[str(sheet.total) for sheet in sheets],
            column_labels=SHEET_COLUMNS,
            open=open_box,
            total_label=self._("Total"),
            label_width=56,
        )

    def draw_sheets(self, canvas: Canvas, session: ZatreSession, area: pygame.Rect) -> None:
        grid = self.score_grid(session)
        top = pygame.Rect(area.left, area.top, area.width, canvas.px(52))
        body = pygame.Rect(
            area.left, top.bottom + canvas.px(6), area.width, area.bottom - top.bottom - canvas.px(6)
        )
        layout = grid.layout(canvas, body)
        half = top.height // 2
        canvas.text(
            self._("+ row bonus · Σ super bonuses, from the bottom up"),
            (top.left, top.top, top.width - canvas.px(230), half),
            size=18,
            colour=TEXT_DIM,
        )
        deck = (
            self._("Dealt from the counted deck")
            if session.deck_counted
            else self._("Dealt from the assumed deck (not counted)")
        )
        canvas.text(
            deck, (top.left, top.top + half, top.width - canvas.px(230), half), size=18, colour=TEXT_DIM
        )
        if layout.pages > 1:
            canvas.button(
                (top.right - canvas.px(220), top.top, canvas.px(220), top.height),
                self._("Page {n} of {total}", n=self.sheet_page % layout.pages + 1, total=layout.pages),
                self.next_sheet_page,
                size=20,
            )
        grid.draw(canvas, body, self.sheet_page)
