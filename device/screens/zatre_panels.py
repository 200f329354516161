"""The Zatre table's panels: one per state of the session (``device.sessions.zatre``), each drawing the
state it is given in the left column of the table screen (``device.screens.zatre_table``, which draws
what every state shares: the top bar, the board, the refusal line and the arrows below the panel, the
sheets).

A panel's touches are events for the current state, sent with ``session.send``: ``HalfPicked`` (a
half of a card in the hand), ``ValuePicked`` (the number pad) and ``Touch`` (*Lay* / *Read the board*,
*Take back*, *Show hand*, the pad's cross); the board's cells (``CellTapped``) are the screen's.
:meth:`Panel.draw` returns where the panel ends: the screen's refusal line starts there.

- :class:`ArrangingPanel` (solo practice): the hand (each card as its two halves, ``hand 2.1``), what
  the pending cards score or what the turn needs, *Take back* and *Lay*.
- :class:`LayingPanel` (referee): the counts of the player on turn, what to do, *Show hand* and *Read
  the board* — or, with a cell tapped, the number pad for it.
- :class:`CheckingPanel`: *The camera reads the board…*, the buttons off (the pad still for a cell
  tapped meanwhile).
- :class:`ShowingPanel`: the hand being shown, half by half, on the pad.
- :class:`OverPanel`: nothing (the app shows the end screen).
"""

from __future__ import annotations

from functools import partial
from typing import Generic, Protocol, TypeVar

import pygame

from device.sessions.zatre import (
    Arranging,
    Checking,
    HalfPicked,
    Laying,
    Over,
    Showing,
    Touch,
    ValuePicked,
    ZatreSession,
    ZatreStage,
)
from device.ui.canvas import Canvas
from device.ui.theme import ACCENT, BUTTON, BUTTON_SELECTED, GOOD, TEXT, TEXT_DIM, Colour
from rules.zatre import Scoring

__all__ = ["CARD_EDGE", "CARD_FACE", "CARD_INK", "PANELS", "Panel", "TableParts", "panel_of"]

CARD_FACE: Colour = (245, 240, 225)
CARD_INK: Colour = (17, 24, 39)
CARD_EDGE: Colour = (120, 110, 90)
S = TypeVar("S", bound=ZatreStage)


class TableParts(Protocol):
    """What the panels draw with of the table screen (``device.screens.zatre_table``, which imports
    this module: a protocol, so that the two import one way)."""

    def _(self, msgid: str, **values: object) -> str: ...

    def scoring_text(self, scoring: Scoring) -> str: ...


class Panel(Generic[S]):
    """What one state draws in the table screen's left column, above the refusal line and the arrows."""

    def __init__(self, screen: TableParts) -> None:
        self.screen = screen

    def _(self, msgid: str, **values: object) -> str:
        """``msgid`` in the players' language (as ``self._`` so that the catalogues' check finds it)."""
        return self.screen._(msgid, **values)

    def draw(self, canvas: Canvas, session: ZatreSession, stage: S, area: pygame.Rect) -> int:
        """The state's part of the left column in ``area``; returns the y where it ends."""
        return area.top


class OverPanel(Panel[Over]):
    """The game is over: the app shows the end screen; nothing of the turn is left to touch."""


class ArrangingPanel(Panel[Arranging]):
    """Solo practice: the hand, what the pending cards score, *Take back* and *Lay*."""

    def draw(self, canvas: Canvas, session: ZatreSession, stage: Arranging, area: pygame.Rect) -> int:
        state = session.zatre
        seat = state.turn
        pile = len(state.piles[seat]) if seat is not None else 0
        canvas.text(
            self._("Hand · pile {n}", n=pile),
            (area.left, area.top, area.width, canvas.px(28)),
            size=20,
            colour=TEXT_DIM,
        )
        half_w, half_h = canvas.px(64), canvas.px(56)
        gap = area.width - 4 * half_w
        available = set(session.available())
        for i, card in enumerate(session.hand):
            x = area.left + (i % 2) * (2 * half_w + gap)
            y = area.top + canvas.px(32) + (i // 2) * (half_h + canvas.px(8))
            used = i not in available
            for half, value in enumerate((card.first, card.second)):
                rect = pygame.Rect(x + half * half_w, y, half_w, half_h)
                picked = stage.picked == (i, half)
                face = BUTTON if used else BUTTON_SELECTED if picked else CARD_FACE
                ink = TEXT_DIM if used else TEXT if picked else CARD_INK
                canvas.shape(rect.inflate(-canvas.px(2), 0), face, radius=6)
                canvas.text(str(value) if value else "", rect, size=34, colour=ink, align="center", bold=True)
                label = f"hand {i + 1}.{half + 1}"
                canvas.record("zatre_half", f"{label}={value}", rect)
                if not used:
                    canvas.target(rect, label, partial(session.send, HalfPicked(i, half)))
            pygame.draw.line(
                canvas.surface,
                CARD_EDGE,
                (x + half_w, y + canvas.px(6)),
                (x + half_w, y + half_h - canvas.px(6)),
            )
        y = area.top + canvas.px(32) + 2 * (half_h + canvas.px(8))
        canvas.paragraph(
            self.turn_text(session, stage), (area.left, y, area.width, canvas.px(56)), size=20, colour=ACCENT
        )
        y += canvas.px(60)
        w = (area.width - canvas.px(8)) // 2
        canvas.button(
            (area.left, y, w, canvas.px(56)),
            self._("Take back"),
            partial(session.send, Touch("take_back")) if stage.pending else None,
            size=20,
        )
        ready = len(stage.pending) == session.cards_wanted
        canvas.button(
            (area.left + w + canvas.px(8), y, w, canvas.px(56)),
            self._("Lay"),
            partial(session.send, Touch("lay")) if stage.pending else None,
            colour=GOOD if ready else None,
            size=24,
        )
        return y + canvas.px(64)

    def turn_text(self, session: ZatreSession, stage: Arranging) -> str:
        """What the pending cards score, or what this turn needs."""
        scoring = session.preview()
        if scoring is not None:
            return self.screen.scoring_text(scoring)
        if session.zatre.first_turn:
            return self._("First turn of the round: lay two touching cards.")
        if stage.picked is not None:
            return self._("Tap the cell for the chosen half.")
        return self._("Tap a half of a card, then a cell of the board.")


class RefereePanel(Panel[S]):
    """A referee-mode state: the counts of the player on turn, what to do now (:meth:`text`), then the
    state's touches (:meth:`controls`)."""

    def draw(self, canvas: Canvas, session: ZatreSession, stage: S, area: pygame.Rect) -> int:
        state = session.zatre
        seat = state.turn
        if seat is not None:
            canvas.text(
                self._("Hand {hand} · pile {pile}", hand=state.hand_size(seat), pile=state.pile_size(seat)),
                (area.left, area.top, area.width, canvas.px(28)),
                size=20,
                colour=TEXT_DIM,
            )
        y = area.top + canvas.px(32)
        canvas.paragraph(
            self.text(session, stage), (area.left, y, area.width, canvas.px(84)), size=20, colour=ACCENT
        )
        return self.controls(canvas, session, stage, area, y + canvas.px(88))

    def text(self, session: ZatreSession, stage: S) -> str:
        """What the player on turn does now."""
        return ""

    def controls(self, canvas: Canvas, session: ZatreSession, stage: S, area: pygame.Rect, y: int) -> int:
        """The state's touches from ``y`` down; returns the y where they end."""
        return y

    def pad(self, canvas: Canvas, session: ZatreSession, area: pygame.Rect, y: int) -> int:
        """The number pad: 0 (blank) to 6, and a cross that cancels (``pad cancel``)."""
        w = (area.width - 3 * canvas.px(8)) // 4
        for value in range(7):
            rect = pygame.Rect(
                area.left + (value % 4) * (w + canvas.px(8)),
                y + (value // 4) * canvas.px(60),
                w,
                canvas.px(52),
            )
            canvas.button(rect, str(value), partial(session.send, ValuePicked(value)), size=28)
        rect = pygame.Rect(area.left + 3 * (w + canvas.px(8)), y + canvas.px(60), w, canvas.px(52))
        canvas.shape(rect, BUTTON, radius=8)
        r = canvas.px(10)
        for sign in (1, -1):
            pygame.draw.line(
                canvas.surface,
                TEXT,
                (rect.centerx - r, rect.centery - sign * r),
                (rect.centerx + r, rect.centery + sign * r),
                3,
            )
        canvas.record("button", "pad cancel", rect)
        canvas.target(rect, "pad cancel", partial(session.send, Touch("pad_cancel")))
        return y + canvas.px(120)

    def buttons(
        self, canvas: Canvas, session: ZatreSession, area: pygame.Rect, y: int, *, show: bool, read: bool
    ) -> int:
        """*Show hand* and *Read the board* (each off unless ``show`` / ``read``)."""
        w = (area.width - canvas.px(8)) // 2
        canvas.button(
            (area.left, y, w, canvas.px(56)),
            self._("Show hand"),
            partial(session.send, Touch("show_hand")) if show else None,
            size=20,
        )
        canvas.button(
            (area.left + w + canvas.px(8), y, w, canvas.px(56)),
            self._("Read the board"),
            partial(session.send, Touch("lay")) if read else None,
            colour=GOOD if read else None,
            size=20,
        )
        return y + canvas.px(64)


class LayingPanel(RefereePanel[Laying]):
    """The player lays his cards on the table and presses his seat button; a tapped cell's value on
    the pad."""

    def text(self, session: ZatreSession, stage: Laying) -> str:
        if stage.selected is not None:
            return self._("Pick the value of the tapped half.")
        if session.zatre.first_turn:
            return self._("First turn of the round: lay two touching cards, then press your seat button.")
        return self._("Lay your card, then press your seat button.")

    def controls(
        self, canvas: Canvas, session: ZatreSession, stage: Laying, area: pygame.Rect, y: int
    ) -> int:
        if stage.selected is not None:
            return self.pad(canvas, session, area, y)
        # Show hand only before a half is entered on the pad: the halves entered are a turn.
        return self.buttons(canvas, session, area, y, show=not stage.manual, read=True)


class CheckingPanel(RefereePanel[Checking]):
    """The camera reads the board; the turn's touches wait for it (a cell tapped meanwhile: the pad)."""

    def text(self, session: ZatreSession, stage: Checking) -> str:
        return self._("The camera reads the board…")

    def controls(
        self, canvas: Canvas, session: ZatreSession, stage: Checking, area: pygame.Rect, y: int
    ) -> int:
        if stage.back.selected is not None:
            return self.pad(canvas, session, area, y)
        return self.buttons(canvas, session, area, y, show=False, read=False)


class ShowingPanel(RefereePanel[Showing]):
    """A player who cannot lay enters his hand on the pad, half by half; the cross goes back."""

    def text(self, session: ZatreSession, stage: Showing) -> str:
        total = 2 * session.zatre.hand_size(session.current_seat or 0)
        return self._(
            "Show your hand: pick each half's value, card by card ({n} of {total}).",
            n=len(stage.shown),
            total=total,
        )

    def controls(
        self, canvas: Canvas, session: ZatreSession, stage: Showing, area: pygame.Rect, y: int
    ) -> int:
        return self.pad(canvas, session, area, y)


PANELS: dict[type[ZatreStage], type[Panel]] = {
    Arranging: ArrangingPanel,
    Laying: LayingPanel,
    Checking: CheckingPanel,
    Showing: ShowingPanel,
    Over: OverPanel,
}


def panel_of(stage: ZatreStage) -> type[Panel]:
    """The panel that draws ``stage``."""
    return PANELS[type(stage)]
