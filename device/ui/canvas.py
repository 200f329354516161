"""Immediate-mode drawing for the screens: every frame a screen draws itself onto a :class:`Canvas`.

The canvas keeps two lists per frame: the *touch targets* (a tap runs the action of the topmost target
under the finger) and the *render log* (every text and button with its rectangle), which the tests read
to check a screen's structure without comparing pixels. Sizes are given for the 800×480 baseline and
scaled (:meth:`Canvas.px`) so one layout serves 800×480 up to 1920×1080.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import pygame

from device.ui.theme import (
    ACCENT,
    BACKGROUND,
    BUTTON,
    BUTTON_DISABLED,
    BUTTON_SELECTED,
    TEXT,
    TEXT_DIM,
    Colour,
)

__all__ = ["BASE_SIZE", "EDGE", "MIN_TARGET", "MIN_TEXT", "NAME_TEXT", "Canvas", "Drawn", "Fonts", "Target"]

BASE_SIZE = (800, 480)
MIN_TARGET = 48  # px: the smallest touch target at any resolution
EDGE = 8  # baseline px: the least room between a touch target and the edge of the screen
MIN_TEXT = 18  # baseline px: the least size of anything a player must read (1 m from a 7-inch screen)
NAME_TEXT = 24  # baseline px: the least size of a player's name and of a score

Align = Literal["left", "center", "right"]


@dataclass(frozen=True)
class Drawn:
    """One entry of the render log: ``kind`` is ``text``, ``button``, ``image`` or ``shape``. A text
    has its ``size`` as drawn (baseline px: after shrinking to fit its box, at 800×480 scale), and its
    ``role`` when it is a player's ``name`` or a ``score`` (read from across the table: 24 px)."""

    kind: str
    text: str
    rect: tuple[int, int, int, int]
    size: int = 0
    role: str = ""
    cut: bool = False  # the text did not fit at its least size and ends in "…" (``text`` is whole)


@dataclass(frozen=True)
class Target:
    rect: pygame.Rect
    label: str
    action: Callable[[], None]
    shown: str = ""  # the text the button shows, when ``label`` names it otherwise (``relabel``)


class Fonts:
    """pygame's built-in font (FreeSans: Latin Extended, so ł, ő, ß all draw) at any size, with rendered
    texts cached: a frame redraws the same few dozen strings, and rendering is the costly part."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._texts: dict[tuple[str, int, bool, Colour], pygame.Surface] = {}

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (size, bold)
        if key not in self._fonts:
            font = pygame.font.Font(None, size)
            font.bold = bold
            self._fonts[key] = font
        return self._fonts[key]

    def render(self, text: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
        key = (text, size, bold, colour)
        surface = self._texts.get(key)
        if surface is None:
            if len(self._texts) > 4000:
                self._texts.clear()
            surface = self.font(size, bold).render(text, True, colour)
            self._texts[key] = surface
        return surface


class Canvas:
    def __init__(self, surface: pygame.Surface, fonts: Fonts | None = None) -> None:
        self.surface = surface
        self.fonts = fonts or Fonts()
        self.log: list[Drawn] = []
        self.targets: list[Target] = []
        self.resize(surface)

    def resize(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.width, self.height = surface.get_size()
        self.scale = min(self.width / BASE_SIZE[0], self.height / BASE_SIZE[1])

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.width, self.height)

    def px(self, n: float) -> int:
        """A baseline length scaled to this screen."""
        return round(n * self.scale)

    def begin(self, background: Colour = BACKGROUND) -> None:
        self.log = []
        self.targets = []
        self.surface.fill(background)

    def hit(self, pos: tuple[int, int]) -> Target | None:
        for target in reversed(self.targets):
            if target.rect.collidepoint(pos):
                return target
        return None

    # --- drawing -------------------------------------------------------------------------------------

    def text(
        self,
        text: str,
        rect: pygame.Rect | tuple[int, int, int, int],
        *,
        size: int = 22,
        colour: Colour = TEXT,
        align: Align = "left",
        bold: bool = False,
        role: str = "",
    ) -> pygame.Rect:
        """Draw ``text`` in ``rect`` (centred vertically); ``size``: baseline px. Too wide, it is shrunk to
        fit, but never below what a player reads from his seat (``MIN_TEXT``; ``NAME_TEXT`` for a
        ``role`` ``name`` or ``score``): what still does not fit is cut, ending in "…".
        """
        box = pygame.Rect(rect)
        pixels = max(8, self.px(size))
        surface = self.fonts.render(text, pixels, colour, bold)
        cut = False
        if surface.get_width() > box.width > 0:
            least = min(pixels, self.px(NAME_TEXT if role in ("name", "score") else MIN_TEXT))
            pixels = max(least, 8, int(pixels * box.width / surface.get_width()))
            surface = self.fonts.render(text, pixels, colour, bold)
            shown = text
            while surface.get_width() > box.width and len(shown) > 1:
                shown, cut = shown[:-1], True
                surface = self.fonts.render(shown.rstrip() + "…", pixels, colour, bold)
        placed = surface.get_rect()
        placed.centery = box.centery
        if align == "center":
            placed.centerx = box.centerx
        elif align == "right":
            placed.right = box.right
        else:
            placed.left = box.left
        self.surface.blit(surface, placed)
        drawn = round(pixels / self.scale) if self.scale else pixels
        self.log.append(Drawn("text", text, tuple(placed), drawn, role, cut))  # type: ignore[arg-type]
        return placed

    def paragraph(
        self,
        text: str,
        rect: pygame.Rect | tuple[int, int, int, int],
        *,
        size: int = 20,
        colour: Colour = TEXT,
    ) -> None:
        """Word-wrapped text from the top of ``rect``; lines that do not fit in its height are dropped."""
        box = pygame.Rect(rect)
        lines = self.wrap(text, box.width, size)
        height = self.fonts.font(max(8, self.px(size))).get_linesize()
        for i, line in enumerate(lines):
            top = box.top + i * height
            if top + height > box.bottom:
                break
            self.text(line, (box.left, top, box.width, height), size=size, colour=colour)

    def wrap(self, text: str, width: int, size: int, bold: bool = False) -> list[str]:
        """``text`` in lines of at most ``width`` px at ``size`` (a word longer than that on its own)."""
        font = self.fonts.font(max(8, self.px(size)), bold)
        lines: list[str] = []
        for word in text.split():
            if lines and font.size(lines[-1] + " " + word)[0] <= width:
                lines[-1] += " " + word
            else:
                lines.append(word)
        return lines

    def shape(
        self,
        rect: pygame.Rect | tuple[int, int, int, int],
        colour: Colour,
        *,
        radius: int = 0,
        width: int = 0,
    ) -> None:
        box = pygame.Rect(rect)
        pygame.draw.rect(
            self.surface, colour, box, width=width, border_radius=self.px(radius) if radius else 0
        )
        self.log.append(Drawn("shape", "", tuple(box)))  # type: ignore[arg-type]

    def button(
        self,
        rect: pygame.Rect | tuple[int, int, int, int],
        label: str,
        action: Callable[[], None] | None,
        *,
        size: int = 22,
        colour: Colour | None = None,
        text_colour: Colour = TEXT,
        selected: bool = False,
        highlight: bool = False,
        sublabel: str = "",
        sublabel_size: int = 0,
        sublabel_role: str = "",
        wrap: bool = False,
    ) -> pygame.Rect:
        """A touch target; ``action`` ``None`` draws it disabled. ``sublabel`` is a second line, bold, at
        ``sublabel_size`` (default: a little smaller than the label), ``sublabel_role`` as ``text``'s.
        ``wrap``: a label too long for one line goes on two (or more), centred, rather than shrunk."""
        box = pygame.Rect(rect)
        fill = colour or (BUTTON_SELECTED if selected else BUTTON if action else BUTTON_DISABLED)
        pygame.draw.rect(self.surface, fill, box, border_radius=self.px(8))
        if selected or highlight:
            edge = TEXT if selected else ACCENT
            pygame.draw.rect(self.surface, edge, box, width=max(2, self.px(3)), border_radius=self.px(8))
        inner = box.inflate(-self.px(12), 0)
        shown = text_colour if action else TEXT_DIM
        if sublabel:
            top, bottom = inner.copy(), inner.copy()
            top.height = bottom.height = inner.height // 2
            bottom.top = top.bottom
            self.text(label, top, size=size, colour=shown, align="center")
            self.text(
                sublabel,
                bottom,
                size=sublabel_size or max(MIN_TEXT, round(size * 0.9)),
                colour=shown,
                align="center",
                bold=True,
                role=sublabel_role,
            )
        elif wrap:
            lines = self.wrap(label, inner.width, size)
            line_h = self.fonts.font(max(8, self.px(size))).get_linesize()
            first = inner.centery - line_h * len(lines) // 2
            for i, line in enumerate(lines):
                self.text(
                    line,
                    (inner.left, first + i * line_h, inner.width, line_h),
                    size=size,
                    colour=shown,
                    align="center",
                )
        else:
            self.text(label, inner, size=size, colour=shown, align="center")
        self.log.append(Drawn("button", label, tuple(box)))  # type: ignore[arg-type]
        if action is not None:
            self.targets.append(Target(box, label, action))
        return box

    def record(self, kind: str, text: str, rect: pygame.Rect) -> None:
        """Add an entry to the render log for something drawn directly with ``pygame.draw``."""
        self.log.append(Drawn(kind, text, (rect.x, rect.y, rect.width, rect.height)))

    def target(self, rect: pygame.Rect, label: str, action: Callable[[], None]) -> None:
        """Make ``rect`` a touch target without drawing a button (a die, a chart)."""
        self.targets.append(Target(pygame.Rect(rect), label, action))

    def relabel(self, label: str) -> None:
        """Name the target just drawn otherwise than its text (the tests and the simulated players tap
        targets by name: ``start 2`` for a button showing *Ala starts*)."""
        last = self.targets[-1]
        self.targets[-1] = Target(last.rect, label, last.action, shown=last.shown or last.label)

    def image(self, surface: pygame.Surface, rect: pygame.Rect, label: str) -> None:
        self.surface.blit(surface, rect)
        self.log.append(Drawn("image", label, tuple(rect)))  # type: ignore[arg-type]

    def texts(self) -> list[str]:
        """Every text drawn this frame (for tests and the headless screenshot dump)."""
        return [d.text for d in self.log if d.kind == "text"]
