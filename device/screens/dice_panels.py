"""The dice table's panels: one per state of the dice session (``device.sessions.dice``), each drawing
the state it is given on the dice table screen (``device.screens.dice_table``, which draws what every
state shares: the top bar, the turn and the roll, the camera's picture, the dice, *Fix the dice*, the
message line, the Choices / Sheets tabs and the sheets).

A panel draws two places: its touch under the dice (:meth:`Panel.action`: *Enter* with the box picked,
or what to do next) and the body under the tabs (:meth:`Panel.draw`: the box the timer entered, the
coach's strip, the choices or the sheets; the question). A panel that takes the body whatever the tab
(the question) says so (:attr:`Panel.sheets` false: no sheets, no sheet page button).

The correction (:class:`Correcting`) is its own screen (``device.screens.correction``, the session's
``screen`` while it is current); the table behind it, drawn for a frame before the app follows, shows
the turn's state the correction keeps (:func:`panel_of`).
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar, Generic, Protocol, TypeVar

import pygame

from device.i18n import Translator
from device.screens.coach_panel import Wording, coach_box, draw_coach_notice, hints_on
from device.sessions.dice import (
    Answered,
    Asking,
    BoxPicked,
    Choosing,
    Correcting,
    DiceSession,
    DiceStage,
    Over,
    Rolling,
    Touch,
)
from device.ui.canvas import Canvas
from device.ui.names import box_column, box_label, box_name
from device.ui.theme import ACCENT, GOOD, PANEL, TEXT_DIM

__all__ = [
    "PANELS",
    "AskingPanel",
    "ChoosingPanel",
    "OverPanel",
    "Panel",
    "RollingPanel",
    "TableParts",
    "panel_of",
]

TIMEOUT_NOTICE_SECONDS = 8.0  # how long the box the timer entered stays on the screen
S = TypeVar("S", bound=DiceStage)


class TableParts(Wording, Protocol):
    """What the panels draw with of the dice table screen (``device.screens.dice_table``, which imports
    this module: a protocol, so that the two import one way): its tab and its page of the triple's
    columns, the sheets, and the panel of another state (a question's turn)."""

    @property
    def tr(self) -> Translator: ...

    @property
    def tab(self) -> str: ...

    @property
    def page(self) -> int: ...

    def is_triple(self) -> bool: ...

    def draw_sheets(self, canvas: Canvas, session: DiceSession, area: pygame.Rect) -> None: ...

    def panel(self, stage: DiceStage) -> tuple[Panel, DiceStage]: ...


class Panel(Generic[S]):
    """What one state draws on the dice table."""

    sheets: ClassVar[bool] = True  # the body shows the sheets on the Sheets tab (and their page button)

    def __init__(self, screen: TableParts) -> None:
        self.screen = screen

    def action(self, canvas: Canvas, session: DiceSession, stage: S, area: pygame.Rect) -> None:
        """The state's touch under the dice, in ``area`` (the left column, 64 px high)."""

    def draw(self, canvas: Canvas, session: DiceSession, stage: S, area: pygame.Rect) -> None:
        """The body under the tabs, in ``area``."""

    def hint(self, canvas: Canvas, text: str, area: pygame.Rect) -> None:
        """What to do next, as a hint, not a button: no button's shape, so nobody taps it in vain."""
        canvas.text(text, area, size=24, colour=ACCENT, align="center")


class TurnPanel(Panel[S]):
    """A state of the turn itself: the box the timer entered and the coach's strip over the choices
    (or the sheets)."""

    def draw(self, canvas: Canvas, session: DiceSession, stage: S, area: pygame.Rect) -> None:
        area = self.timeout_notice(canvas, session, area)
        area = draw_coach_notice(self.screen, canvas, area)
        if self.screen.tab == "choices":
            self.choices(canvas, session, stage, area)
        else:
            self.screen.draw_sheets(canvas, session, area)

    def choices(self, canvas: Canvas, session: DiceSession, stage: S, area: pygame.Rect) -> None:
        """The Choices tab's body."""

    def timeout_notice(self, canvas: Canvas, session: DiceSession, area: pygame.Rect) -> pygame.Rect:
        """After a timeout, for a few seconds, which box the timer entered, for whom and why, at the top
        of ``area``; returns the area left below it."""
        text = notice_text(self.screen, session)
        if not text:
            return area
        box = pygame.Rect(area.left, area.top, area.width, canvas.px(84))
        canvas.shape(box, PANEL, radius=canvas.px(8))
        canvas.paragraph(text, box.inflate(-canvas.px(16), -canvas.px(8)), size=22, colour=ACCENT)
        return pygame.Rect(
            area.left, box.bottom + canvas.px(8), area.width, area.bottom - box.bottom - canvas.px(8)
        )


def notice_text(screen: TableParts, session: DiceSession) -> str:
    """The box the move timer entered (for a few seconds after), or nothing."""
    entry = session.timeout_entry
    if entry is None or session.timer.now() - entry.at >= TIMEOUT_NOTICE_SECONDS:
        return ""
    name = session.players[entry.seat].name
    box = box_label(screen.tr, session.spec.name, entry.box)
    if entry.unrolled:
        return screen._(
            "Time ran out before the roll: {box} ({points}) entered for {name}.",
            box=box,
            points=entry.points,
            name=name,
        )
    return screen._(
        "Time ran out: {box} ({points}) entered for {name}.", box=box, points=entry.points, name=name
    )


class RollingPanel(TurnPanel[Rolling]):
    """No roll yet this turn: roll the dice (and what the hold zone is for)."""

    def action(self, canvas: Canvas, session: DiceSession, stage: Rolling, area: pygame.Rect) -> None:
        self.hint(canvas, self.screen._("Roll the dice"), area)

    def choices(self, canvas: Canvas, session: DiceSession, stage: Rolling, area: pygame.Rect) -> None:
        canvas.paragraph(
            self.screen._("Roll the dice. Dice put in the hold zone stay held for the next roll."),
            area.inflate(-canvas.px(16), -canvas.px(16)),
            size=22,
            colour=TEXT_DIM,
        )


class ChoosingPanel(TurnPanel[Choosing]):
    """A roll taken: the boxes open for these dice with their points (the best marked), *Enter* once
    one is picked."""

    def action(self, canvas: Canvas, session: DiceSession, stage: Choosing, area: pygame.Rect) -> None:
        screen = self.screen
        choices = session.choices()
        box = stage.selected
        if box is None or box not in choices:
            self.hint(canvas, screen._("Choose a box"), area)
            return
        canvas.button(
            area,
            screen._("Enter"),
            partial(session.send, Touch("enter")),
            sublabel=f"{box_label(screen.tr, session.spec.name, box)}: {choices[box]}",
            colour=GOOD,
            size=20,
        )

    def choices(self, canvas: Canvas, session: DiceSession, stage: Choosing, area: pygame.Rect) -> None:
        screen = self.screen
        choices = session.choices()
        triple = screen.is_triple()
        boxes = [b for b in choices if not triple or box_column(b) == screen.page]
        best = coach_box(screen.host) if hints_on(screen.host) else session.best_choice()
        cols, rows = 3, 5
        gap = canvas.px(6)
        w = (area.width - gap * (cols - 1)) // cols
        h = min(canvas.px(72), (area.height - gap * (rows - 1)) // rows)
        game = session.spec.name
        for i, box in enumerate(boxes[: cols * rows]):
            r = pygame.Rect(area.left + (i % cols) * (w + gap), area.top + (i // cols) * (h + gap), w, h)
            canvas.button(
                r,
                box_name(screen.tr, game, box),
                partial(session.send, BoxPicked(box)),
                sublabel=str(choices[box]),
                sublabel_size=24,
                sublabel_role="score",
                selected=box == stage.selected,
                highlight=box == best,
                size=20,
            )


class AskingPanel(Panel[Asking]):
    """The device cannot tell whether the dice were thrown: the players say. The touch under the dice
    is the turn's (a box picked before the question can still be entered)."""

    sheets = False

    def action(self, canvas: Canvas, session: DiceSession, stage: Asking, area: pygame.Rect) -> None:
        panel, back = self.screen.panel(stage.back)
        panel.action(canvas, session, back, area)

    def draw(self, canvas: Canvas, session: DiceSession, stage: Asking, area: pygame.Rect) -> None:
        screen = self.screen
        canvas.shape(area, PANEL, radius=canvas.px(8))
        inner = area.inflate(-canvas.px(24), -canvas.px(24))
        canvas.text(
            screen._("Were the dice rolled?"),
            (inner.left, inner.top, inner.width, canvas.px(40)),
            size=28,
            bold=True,
            colour=ACCENT,
        )
        canvas.paragraph(
            screen._("The camera could not tell whether the dice were thrown or only moved."),
            (inner.left, inner.top + canvas.px(48), inner.width, canvas.px(90)),
            size=22,
        )
        w = (inner.width - canvas.px(16)) // 2
        y = inner.bottom - canvas.px(64)
        canvas.button(
            (inner.left, y, w, canvas.px(64)),
            screen._("Yes, a new roll"),
            partial(session.send, Answered(True)),
            colour=GOOD,
            size=22,
        )
        canvas.button(
            (inner.left + w + canvas.px(16), y, w, canvas.px(64)),
            screen._("No, same roll"),
            partial(session.send, Answered(False)),
            size=22,
        )


class OverPanel(Panel[Over]):
    """The game is over (the app shows the end screen): the final sheets, nothing left to touch."""

    def draw(self, canvas: Canvas, session: DiceSession, stage: Over, area: pygame.Rect) -> None:
        self.screen.draw_sheets(canvas, session, area)


PANELS: dict[type[DiceStage], type[Panel]] = {
    Rolling: RollingPanel,
    Choosing: ChoosingPanel,
    Asking: AskingPanel,
    Over: OverPanel,
}


def panel_of(stage: DiceStage) -> tuple[type[Panel], DiceStage]:
    """The panel that draws ``stage`` on the table, and the state it draws: a correction (its own
    screen) by the panel of the turn's state it keeps."""
    shown = stage.back if isinstance(stage, Correcting) else stage
    return PANELS[type(shown)], shown
