"""The Rummikub table's panels: one per state of the session (``device.sessions.rummikub``), each
drawing the state it is given in the left column of the table screen (``device.screens.rummikub_table``,
which draws what every state shares: the top bar, the camera's picture, the tile picker, the reading
seen, the message line).

A panel says what else its state needs of the screen: the tile picker below (:attr:`Panel.picker`),
the whole width without the camera (:attr:`Panel.wide`), the reading seen (and the learning table's
advice) under the camera (:attr:`Panel.seen`). A reading awaited is drawn by the panel of the state it
was asked in (its move's, its start's, its reveal's), which shows that the table is being read.
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar, Generic, Protocol, TypeVar

import pygame

from device.screens.rummikub_coach_panel import TileScreen, draw_coach_controls, draw_rack_entry
from device.sessions.rummikub import (
    Correcting,
    Correction,
    EnteringRack,
    HandOver,
    Over,
    Phase,
    Playing,
    Reading,
    Restoring,
    Revealing,
    RummikubSession,
    Starting,
)
from device.ui.canvas import Canvas
from device.ui.theme import ACCENT, GOOD, PANEL, TEXT_DIM, WARNING
from rules.rummikub import Tile

__all__ = ["PANELS", "Panel", "TableParts", "panel_of"]

TILE = (24, 32)  # baseline px of a tile on the main view and the restore view: readable from a seat
P = TypeVar("P", bound=Phase)


class TableParts(TileScreen, Protocol):
    """What the panels draw with of the table screen (``device.screens.rummikub_table``, which imports
    this module: a protocol, so that the two import one way)."""

    before_picture: pygame.Surface | None  # the camera's picture of the before table

    def before_melds(self, session: RummikubSession) -> list[list[Tile]]: ...

    def draw_racks(self, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> None: ...

    def draw_chips(self, canvas: Canvas, corr: Correction, area: pygame.Rect) -> None: ...


class Panel(Generic[P]):
    """What one state draws in the table screen's left column."""

    picker: ClassVar[bool] = False  # the tile picker fills the bottom
    wide: ClassVar[bool] = False  # the panel takes the width: no camera picture
    seen: ClassVar[bool] = False  # the reading seen (or the coach's advice) under the camera

    def __init__(self, screen: TableParts) -> None:
        self.screen = screen

    def draw(self, canvas: Canvas, session: RummikubSession, stage: P, area: pygame.Rect) -> None:
        """The state's part of the screen in ``area``."""


class OverPanel(Panel[Over]):
    """The game is over: the app shows the end screen; nothing of the table is left to touch."""


class StartPanel(Panel[Starting]):
    """Who begins: the drawn tiles read, or a starter chosen."""

    def draw(self, canvas: Canvas, session: RummikubSession, stage: Starting, area: pygame.Rect) -> None:
        screen = self.screen
        names = ", ".join(session.players[s].name for s in stage.contenders)
        canvas.paragraph(
            screen._(
                "Who starts? {names}: each lays a drawn tile before the camera, seat order from the left.",
                names=names,
            ),
            (area.left, area.top, area.width, canvas.px(96)),
            size=20,
        )
        y = area.top + canvas.px(100)
        canvas.button(
            (area.left, y, area.width, canvas.px(56)),
            screen._("Read the drawn tiles"),
            session.read_start,
            size=22,
            colour=GOOD,
        )
        y += canvas.px(64)
        canvas.text(
            screen._("Or choose who starts:"),
            (area.left, y, area.width, canvas.px(24)),
            size=18,
            colour=TEXT_DIM,
        )
        y += canvas.px(28)
        w = (area.width - canvas.px(8)) // 2
        for n, p in enumerate(session.players):
            rect = (area.left + (n % 2) * (w + canvas.px(8)), y + (n // 2) * canvas.px(58), w, canvas.px(52))
            canvas.button(
                rect,
                screen._("{name} starts", name=p.name),
                partial(session.choose_starter, p.seat),
                size=24,
                wrap=True,
            )
            canvas.relabel(f"start {p.seat + 1}")


class MovePanel(Panel[Playing]):
    """The move: the before table, the racks, Draw, +30 s, Announce, Correct the reading, the coach's
    touches; *Reading the table…* while the press's reading is awaited."""

    seen = True

    def draw(self, canvas: Canvas, session: RummikubSession, stage: Playing, area: pygame.Rect) -> None:
        screen = self.screen
        canvas.text(
            screen._("Before this move"),
            (area.left, area.top, area.width, canvas.px(24)),
            size=18,
            colour=TEXT_DIM,
        )
        table = pygame.Rect(area.left, area.top + canvas.px(26), area.width, canvas.px(170))
        canvas.shape(table, PANEL, radius=6)
        melds = screen.before_melds(session)
        if melds:
            screen.draw_melds(canvas, melds, table.inflate(-canvas.px(8), -canvas.px(8)), TILE)
        else:
            canvas.text(screen._("The table is empty."), table, size=20, colour=TEXT_DIM, align="center")
        y = table.bottom + canvas.px(4)
        screen.draw_racks(canvas, session, pygame.Rect(area.left, y, area.width, canvas.px(44)))
        y += canvas.px(46)
        state = session.rummikub
        seat = session.current_seat
        checking = session.phase == "checking"
        w = (area.width - canvas.px(8)) // 2
        canvas.button(
            (area.left, y, w, canvas.px(52)), screen._("Draw"), None if checking else session.draw, size=22
        )
        left = state.extensions_left(seat) if seat is not None else 0
        extend = session.extend if left > 0 and session.timer.enabled and not checking else None
        canvas.button(
            (area.left + w + canvas.px(8), y, w, canvas.px(52)),
            screen._("+{s} s", s=state.options.extension_seconds),
            extend,
            size=22,
            sublabel=screen._("{n} left", n=left),
        )
        y += canvas.px(58)
        if seat is not None and not state.opened[seat] and not state.announced[seat]:
            canvas.button(
                (area.left, y, area.width, canvas.px(48)),
                screen._("Announce: I open next turn"),
                partial(session.announce, seat),
                size=18,
            )
            y += canvas.px(52)
        if session.can_dispute() and area.bottom - y >= canvas.px(48):
            canvas.button(
                (area.left, y, area.width, canvas.px(48)),
                screen._("Correct the reading"),
                session.dispute,
                size=20,
            )
            return
        if draw_coach_controls(
            screen, canvas, session, pygame.Rect(area.left, y, area.width, area.bottom - y)
        ):
            return
        hint = (
            screen._("Reading the table…")
            if checking
            else screen._("Lay your tiles, then press your seat button. Hold it to draw.")
        )
        canvas.paragraph(
            hint,
            (area.left, y, area.width, area.bottom - y),
            size=18,
            colour=ACCENT if checking else TEXT_DIM,
        )


class RestorePanel(Panel[Restoring]):
    """Time is up on a changed table: the before table to lay again, what is missing and what to take away."""

    seen = True

    def draw(self, canvas: Canvas, session: RummikubSession, stage: Restoring, area: pygame.Rect) -> None:
        screen = self.screen
        title = screen._("Time is up: restore the table")
        lines = canvas.wrap(title, area.width, 20, bold=True)
        for i, line in enumerate(lines[:2]):
            canvas.text(
                line,
                (
                    area.left,
                    area.top + i * canvas.px(22),
                    area.width,
                    canvas.px(22 if len(lines) > 1 else 26),
                ),
                size=20,
                colour=WARNING,
                bold=True,
            )
        y = area.top + canvas.px(28 if len(lines) == 1 else 46)
        if screen.before_picture is not None:
            pic = pygame.Rect(area.left, y, area.width, area.width * 9 // 16)
            canvas.image(
                pygame.transform.smoothscale(screen.before_picture, pic.size), pic, screen._("Before")
            )
            y = pic.bottom + canvas.px(4)
        table = pygame.Rect(area.left, y, area.width, canvas.px(96))
        melds = screen.before_melds(session)
        if melds:
            screen.draw_melds(canvas, melds, table, TILE)
        else:
            canvas.text(screen._("The table was empty."), table, size=18, colour=TEXT_DIM)
        y = table.bottom + canvas.px(4)
        missing = " ".join(str(t) for t in session.missing())
        extra = " ".join(str(session.live.tiles[i].tile) for i in session.differs()) if session.live else ""
        lines = []
        if missing:
            lines.append(screen._("Missing: {tiles}", tiles=missing))
        if extra:
            lines.append(screen._("Take away: {tiles}", tiles=extra))
        if not lines:
            lines.append(screen._("Lay the melds as they were."))
        canvas.paragraph(" ".join(lines), (area.left, y, area.width, canvas.px(50)), size=18, colour=ACCENT)
        y += canvas.px(54)
        # The players' word: the camera lost, or a misread of the restored table it cannot confirm.
        canvas.button(
            (area.left, y, area.width, canvas.px(52)),
            screen._("Table restored"),
            session.table_restored,
            size=22,
        )


class CorrectingPanel(Panel[Correcting]):
    """A reading corrected by hand: its tiles a page at a time, Check and Cancel (the picker below)."""

    picker = True

    def draw(self, canvas: Canvas, session: RummikubSession, stage: Correcting, area: pygame.Rect) -> None:
        screen = self.screen
        corr = stage.correction
        if corr.unsure:
            text = screen._("Unsure tiles: straighten them and press again, or tap each and pick what it is.")
        else:
            text = screen._("Tap a tile the camera misread and pick what it is, then Check.")
        canvas.paragraph(text, (area.left, area.top, area.width, canvas.px(66)), size=18)
        y = area.top + canvas.px(68)
        pages = corr.pages()
        if len(pages) > 1:
            arrow = canvas.px(56)
            canvas.button((area.left, y, arrow, canvas.px(48)), "<", partial(session.turn_page, -1), size=22)
            canvas.relabel("page back")
            canvas.button(
                (area.right - arrow, y, arrow, canvas.px(48)), ">", partial(session.turn_page, 1), size=22
            )
            canvas.relabel("page on")
            canvas.text(
                screen._("Page {n} of {total}", n=corr.page + 1, total=len(pages)),
                (area.left + arrow, y, area.width - 2 * arrow, canvas.px(48)),
                size=18,
                colour=TEXT_DIM,
                align="center",
            )
            y += canvas.px(52)
        screen.draw_chips(canvas, corr, pygame.Rect(area.left, y, area.width, canvas.px(108)))
        y = area.bottom - canvas.px(52)
        w = (area.width - canvas.px(8)) // 2
        canvas.button(
            (area.left, y, w, canvas.px(52)),
            screen._("Check"),
            session.enter_correction if corr.complete else None,
            colour=GOOD if corr.complete else None,
            size=22,
        )
        canvas.button(
            (area.left + w + canvas.px(8), y, w, canvas.px(52)),
            screen._("Cancel"),
            session.cancel_correction,
            size=22,
        )


class RevealPanel(Panel[Revealing]):
    """The rack to show: Read the rack, or its tiles entered with the picker below."""

    picker = True

    def draw(self, canvas: Canvas, session: RummikubSession, stage: Revealing, area: pygame.Rect) -> None:
        screen = self.screen
        seat = session.to_reveal()
        if seat is None:
            return
        name = session.players[seat].name
        count = session.rummikub.rack_counts[seat]
        canvas.paragraph(
            screen._(
                "{name}: lay your {n} tiles face up in front of the camera, or enter them below.",
                name=name,
                n=count,
            ),
            (area.left, area.top, area.width, canvas.px(72)),
            size=18,
        )
        y = area.top + canvas.px(74)
        canvas.button(
            (area.left, y, area.width, canvas.px(52)),
            screen._("Read the rack"),
            session.read_rack,
            size=22,
            colour=GOOD,
        )
        y += canvas.px(58)
        entry = stage.entry
        tw, th = canvas.px(22), canvas.px(30)
        per_row = max(1, area.width // tw)
        for k, t in enumerate(entry[: 2 * per_row]):  # two rows; the count says how many there are
            rect = pygame.Rect(area.left + (k % per_row) * tw, y + (k // per_row) * (th + 4), tw - 1, th)
            screen.draw_tile(canvas, t, rect, kind="entered_tile")
        y += 2 * (th + 4)
        canvas.text(
            screen._("{n} of {count} entered", n=len(entry), count=count),
            (area.left, y, area.width, canvas.px(22)),
            size=18,
            colour=TEXT_DIM,
        )
        y += canvas.px(26)
        w = (area.width - canvas.px(8)) // 2
        canvas.button(
            (area.left, y, w, canvas.px(48)),
            screen._("Remove last"),
            session.unpick if entry else None,
            size=18,
        )
        done = session.enter_rack if len(entry) == count else None
        canvas.button(
            (area.left + w + canvas.px(8), y, w, canvas.px(48)),
            screen._("Done"),
            done,
            size=20,
            colour=GOOD if done else None,
        )


class HandOverPanel(Panel[HandOver]):
    """The hand's scores and the totals; Next hand (and the learning table's review)."""

    wide = True

    def draw(self, canvas: Canvas, session: RummikubSession, stage: HandOver, area: pygame.Rect) -> None:
        screen = self.screen
        state = session.rummikub
        canvas.text(
            screen._("Hand {n} is over", n=state.hand),
            (area.left, area.top, area.width, canvas.px(32)),
            size=26,
            colour=ACCENT,
            bold=True,
        )
        y = area.top + canvas.px(40)
        hands = state.hand_scores
        shown = hands[-6:]
        cols = len(shown) + 2
        cw = area.width // cols
        heads = [
            screen._("Player"),
            *(screen._("Hand {n}", n=len(hands) - len(shown) + k + 1) for k in range(len(shown))),
            screen._("Total"),
        ]
        for c, head in enumerate(heads):
            canvas.text(
                head, (area.left + c * cw, y, cw - canvas.px(4), canvas.px(28)), size=18, colour=TEXT_DIM
            )
        totals = state.totals
        for r, p in enumerate(session.players):
            ry = y + canvas.px(32) * (r + 1)
            cells = [p.name, *(str(h[p.seat]) for h in shown), str(totals[p.seat])]
            for c, cell in enumerate(cells):
                canvas.text(
                    cell,
                    (area.left + c * cw, ry, cw - canvas.px(4), canvas.px(28)),
                    size=24,
                    bold=c in (0, cols - 1),
                    role="name" if c == 0 else "score",
                )
        y += canvas.px(32) * (len(session.players) + 1) + canvas.px(12)
        canvas.button(
            (area.left, y, canvas.px(240), canvas.px(56)),
            screen._("Next hand"),
            session.next_hand,
            size=22,
            colour=GOOD,
        )
        if session.coach is not None:
            canvas.button(
                (area.left + canvas.px(256), y, canvas.px(240), canvas.px(56)),
                screen._("Review"),
                partial(screen.host.show, "rummikub_review", hand=state.hand),
                size=22,
            )


class RackEntryPanel(Panel[EnteringRack]):
    """The learning table: the rack (or the tiles drawn since it was shown) entered with the picker."""

    picker = True
    seen = True

    def draw(self, canvas: Canvas, session: RummikubSession, stage: EnteringRack, area: pygame.Rect) -> None:
        draw_rack_entry(self.screen, canvas, session, stage.entry, area)


PANELS: dict[type[Phase], type[Panel]] = {
    Starting: StartPanel,
    Playing: MovePanel,
    Restoring: RestorePanel,
    Correcting: CorrectingPanel,
    EnteringRack: RackEntryPanel,
    Revealing: RevealPanel,
    HandOver: HandOverPanel,
    Over: OverPanel,
}


def panel_of(stage: Phase) -> tuple[type[Panel], Phase]:
    """The panel that draws ``stage``, and the state it draws: a reading awaited is drawn by the panel
    of the state it was asked in."""
    shown = stage.back if isinstance(stage, Reading) else stage
    return PANELS[type(shown)], shown
