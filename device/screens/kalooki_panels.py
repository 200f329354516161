"""The Kalooki table's panels: one per state of the session (``device.sessions.kalooki``), each drawing
the state it is given in the table screen (``device.screens.kalooki_table``, which draws what every
state shares: the top bar, the discard pile, the stock and the hands' counts, the entry line, the card
picker and the message line).

A panel draws the table area (the melds, or at a new deal the last deal's results), the entry line and
what is below it (the picker, or the number pad), says the phase's buttons (:meth:`Panel.actions`: each
an event for the state, sent when tapped) and the phase's status line. A reading of the table awaited
(:class:`ReadingTable`) is drawn by the panel of the state it was asked in.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

import pygame

from device.sessions.kalooki import (
    Correcting,
    Drawing,
    KalookiSession,
    KalookiStage,
    KalookiTouch,
    Over,
    Playing,
    ReadingTable,
    RefusedTable,
    Revealing,
    Touch,
    TurningUp,
)
from device.ui.canvas import Canvas
from device.ui.theme import GOOD, Colour

__all__ = ["PANELS", "Button", "Layout", "Panel", "TableParts", "panel_of"]

S = TypeVar("S", bound=KalookiStage)
Button = tuple[str, KalookiTouch, Colour | None]  # a phase button: its text, the event it sends, its colour


class TableParts(Protocol):
    """What the panels draw with of the table screen (``device.screens.kalooki_table``, which imports
    this module: a protocol, so that the two import one way)."""

    def _(self, msgid: str, **values: object) -> str: ...

    def draw_melds(self, canvas: Canvas, session: KalookiSession, area: pygame.Rect, help: str) -> None: ...

    def draw_result(self, canvas: Canvas, session: KalookiSession, area: pygame.Rect) -> None: ...

    def draw_reading(self, canvas: Canvas, refused: RefusedTable, area: pygame.Rect) -> None: ...

    def draw_correction(self, canvas: Canvas, stage: Correcting, area: pygame.Rect) -> None: ...

    def draw_correction_entry(self, canvas: Canvas, stage: Correcting, area: pygame.Rect) -> None: ...

    def draw_entry(
        self, canvas: Canvas, session: KalookiSession, area: pygame.Rect, hand_of: str | None = None
    ) -> None: ...

    def draw_picker(
        self, canvas: Canvas, session: KalookiSession, area: pygame.Rect, actions: list[Button]
    ) -> None: ...

    def draw_entry_points(self, canvas: Canvas, typed: str, area: pygame.Rect) -> None: ...

    def draw_pad(self, canvas: Canvas, area: pygame.Rect, actions: list[Button]) -> None: ...


class Panel(Generic[S]):
    """What one state draws of the Kalooki table screen."""

    def __init__(self, screen: TableParts) -> None:
        self.screen = screen

    def draw(self, canvas: Canvas, session: KalookiSession, stage: S, layout: Layout) -> None:
        """The state's parts of the screen: the table area, the entry, the picker and the buttons."""
        self.table_area(canvas, session, stage, layout.table)
        self.screen.draw_entry(canvas, session, layout.entry)
        self.screen.draw_picker(canvas, session, layout.below, self.buttons(session, stage))

    def buttons(self, session: KalookiSession, stage: S) -> list[Button]:
        """The phase's buttons, *Correct the reading* first while a reading refused is shown (the
        correction opens again on it)."""
        shown = stage.refused is not None and session.refusal is not None and not stage.picker.cards
        correct: list[Button] = (
            [(self.screen._("Correct the reading"), Touch("correct"), None)] if shown else []
        )
        return [*correct, *self.actions(session, stage)]

    def table_area(self, canvas: Canvas, session: KalookiSession, stage: S, area: pygame.Rect) -> None:
        """The table area: after a press the camera's reading refused, what it saw (until the refusal is
        answered or the player picks a card: then the melds, to build on); else :meth:`table`."""
        refused = stage.refused
        if refused is not None and session.refusal is not None and not stage.picker.cards:
            self.screen.draw_reading(canvas, refused, area)
        else:
            self.table(canvas, session, stage, area)

    def table(self, canvas: Canvas, session: KalookiSession, stage: S, area: pygame.Rect) -> None:
        """The melds on the table (each a touch target to build on), or the phase's help when none."""
        self.screen.draw_melds(canvas, session, area, self.help())

    def help(self) -> str:
        """What to do, shown while the table has no meld."""
        return ""

    def actions(self, session: KalookiSession, stage: S) -> list[Button]:
        """The phase's buttons (the melds' pages and *Clear* follow them)."""
        return []

    def status(self, session: KalookiSession, stage: S) -> str:
        """The phase's line in the top bar."""
        return ""


class Layout:
    """Where the panel draws: the table area, the entry line and what is below it."""

    def __init__(self, table: pygame.Rect, entry: pygame.Rect, below: pygame.Rect) -> None:
        self.table, self.entry, self.below = table, entry, below


class TurnUpPanel(Panel[TurningUp]):
    """A new deal: the card turned up entered (or read); after the first deal, the last deal's
    penalties, totals and payouts in the table area."""

    def table(self, canvas: Canvas, session: KalookiSession, stage: TurningUp, area: pygame.Rect) -> None:
        if session.kalooki.results:
            self.screen.draw_result(canvas, session, area)
        else:
            super().table(canvas, session, stage, area)

    def help(self) -> str:
        return self.screen._("A new deal: enter the card turned up from the stock, then the seat button.")

    def actions(self, session: KalookiSession, stage: TurningUp) -> list[Button]:
        return [(self.screen._("Turned-up card"), Touch("discard"), GOOD)]


class DrawPanel(Panel[Drawing]):
    """The draw: *Stock* or *Discard pile*."""

    def help(self) -> str:
        return self.screen._("Draw: tap Stock or Discard pile.")

    def actions(self, session: KalookiSession, stage: Drawing) -> list[Button]:
        _ = self.screen._
        return [(_("Stock"), Touch("stock"), GOOD), (_("Discard pile"), Touch("discard_pile"), None)]


def play_help(screen: TableParts) -> str:
    return screen._("Pick the cards you lay, then Lay down, or tap a meld to build on it; then the discard.")


class PlayPanel(Panel[Playing]):
    """The play: *+ Meld*, *Lay down*, a meld tapped to build on it, *Discard*."""

    def help(self) -> str:
        return play_help(self.screen)

    def actions(self, session: KalookiSession, stage: Playing) -> list[Button]:
        _ = self.screen._
        return [
            (_("+ Meld"), Touch("keep_meld"), None),
            (_("Lay down"), Touch("lay_down"), None),
            (_("Discard"), Touch("discard"), GOOD),
        ]


class RevealPanel(Panel[Revealing]):
    """The deal's end: the loser named enters his hand on the picker (*Enter hand*), or its points on the
    number pad (*Points*, *Enter points*; *Cards* goes back)."""

    def draw(self, canvas: Canvas, session: KalookiSession, stage: Revealing, layout: Layout) -> None:
        seat = session.revealing()
        self.table_area(canvas, session, stage, layout.table)
        if stage.pad is None or seat is None:
            name = None if seat is None else session.players[seat].name
            self.screen.draw_entry(canvas, session, layout.entry, hand_of=name)
            self.screen.draw_picker(canvas, session, layout.below, self.buttons(session, stage))
            return
        self.screen.draw_entry_points(canvas, stage.pad, layout.entry)
        self.screen.draw_pad(canvas, layout.below, self.actions(session, stage))

    def help(self) -> str:
        return play_help(self.screen)

    def actions(self, session: KalookiSession, stage: Revealing) -> list[Button]:
        _ = self.screen._
        if stage.pad is not None:
            return [(_("Enter points"), Touch("enter_points"), GOOD), (_("Cards"), Touch("cards"), None)]
        return [(_("Enter hand"), Touch("reveal"), GOOD), (_("Points"), Touch("points"), None)]

    def status(self, session: KalookiSession, stage: Revealing) -> str:
        seat = session.revealing()
        if seat is None:
            return ""
        name, n = session.players[seat].name, session.deal.counts[seat]
        if stage.pad is not None:
            return self.screen._(
                "{name} holds {n} cards: type their points, then Enter points.", name=name, n=n
            )
        return self.screen._("{name} holds {n} cards: enter them, or their points (Points).", name=name, n=n)


class CorrectPanel(Panel[Correcting]):
    """A reading being corrected: the camera's picture with the unsure cards boxed (the one the picker
    is on in white) and the list of the cards to enter (each a target: the picker is for it); the
    entry line names the card and shows its meld as read; the picker offers the reader's likeliest
    readings of it in one tap; *Cancel* goes back to the phase."""

    def draw(self, canvas: Canvas, session: KalookiSession, stage: Correcting, layout: Layout) -> None:
        self.screen.draw_correction(canvas, stage, layout.table)
        self.screen.draw_correction_entry(canvas, stage, layout.entry)
        self.screen.draw_picker(canvas, session, layout.below, self.actions(session, stage))

    def actions(self, session: KalookiSession, stage: Correcting) -> list[Button]:
        return [(self.screen._("Cancel"), Touch("cancel"), None)]

    def status(self, session: KalookiSession, stage: Correcting) -> str:
        corr = stage.correction
        left = len(corr.open())
        return self.screen._(
            "Pick the cards the camera could not read ({n} left), or straighten them and press again.",
            n=left,
        )


class OverPanel(Panel[Over]):
    """The game is over: the app shows the end screen; the last table stays, with nothing to enter."""


PANELS: dict[type[KalookiStage], type[Panel]] = {
    TurningUp: TurnUpPanel,
    Drawing: DrawPanel,
    Playing: PlayPanel,
    Revealing: RevealPanel,
    Correcting: CorrectPanel,
    Over: OverPanel,
}


def panel_of(stage: KalookiStage) -> tuple[type[Panel], KalookiStage]:
    """The panel that draws ``stage``, and the state it draws: a reading of the table awaited is drawn
    by the panel of the state it was asked in (a correction by its own)."""
    shown = stage.back if isinstance(stage, ReadingTable) else stage
    return PANELS[type(shown)], shown
