"""Drawings shared by several screens: dice faces, the score chart, the PIN pad."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import pygame

from device.ui.canvas import Canvas
from device.ui.theme import DIE_FACE, DIE_PIP, HOLD_ZONE, TEXT_DIM, WARNING, Colour

__all__ = ["draw_die", "line_chart", "pin_pad"]

# Pip positions on a 3×3 grid (column, row) for each face.
PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def draw_die(
    canvas: Canvas,
    rect: pygame.Rect,
    value: int | None,
    *,
    held: bool = False,
    uncertain: bool = False,
    action: Callable[[], None] | None = None,
) -> None:
    """A die face; ``None`` draws a question mark. Held dice get the hold-zone frame, unsure ones a red one.
    With ``action`` the die is a touch target (the correction screen)."""
    pygame.draw.rect(canvas.surface, DIE_FACE, rect, border_radius=rect.width // 6)
    if value in PIPS:
        step = rect.width / 4
        radius = max(2, rect.width // 11)
        for col, row in PIPS[value]:
            centre = (round(rect.left + step * (col + 1)), round(rect.top + step * (row + 1)))
            pygame.draw.circle(canvas.surface, DIE_PIP, centre, radius)
    else:
        canvas.text("?", rect, size=round(rect.height / canvas.scale * 0.8), colour=DIE_PIP, align="center")
    frame = WARNING if uncertain else HOLD_ZONE if held else None
    if frame is not None:
        pygame.draw.rect(canvas.surface, frame, rect.inflate(6, 6), width=4, border_radius=rect.width // 5)
    text = "?" if value is None else str(value)
    canvas.record("die", text, rect)
    if action is not None:
        canvas.target(rect, text, action)


def line_chart(
    canvas: Canvas,
    rect: pygame.Rect,
    series: Sequence[Sequence[int]],
    colours: Sequence[Colour],
    *,
    caption: str,
) -> None:
    """Each player's total over his turns: one line per player from 0 before his first turn, the axes
    scaled to the largest total and labelled (points at the bottom and top of the left axis; 0, the
    start, and the last turn along the bottom: a series of N totals is N + 1 points)."""
    canvas.record("chart", caption, rect)
    longest = max((len(s) for s in series), default=0)
    top = max((max(s) for s in series if s), default=0)
    low = min((min(s) for s in series if s), default=0)
    low = min(low, 0)
    axis_w, axis_h = canvas.px(52), canvas.px(26)
    plot = pygame.Rect(rect.left + axis_w, rect.top, rect.width - axis_w, rect.height - axis_h)
    pygame.draw.line(canvas.surface, TEXT_DIM, plot.bottomleft, plot.topleft, width=2)
    pygame.draw.line(canvas.surface, TEXT_DIM, plot.bottomleft, plot.bottomright, width=2)
    if longest < 1 or top == low:
        return
    label_h = canvas.px(22)
    for value, y in ((low, plot.bottom - label_h), (top, plot.top)):
        canvas.text(
            str(value),
            (rect.left, y, axis_w - canvas.px(6), label_h),
            size=20,
            colour=TEXT_DIM,
            align="right",
        )
    canvas.text("0", (plot.left, plot.bottom + 2, canvas.px(40), axis_h - 2), size=20, colour=TEXT_DIM)
    canvas.text(
        str(longest),
        (plot.right - canvas.px(40), plot.bottom + 2, canvas.px(40), axis_h - 2),
        size=20,
        colour=TEXT_DIM,
        align="right",
    )
    inner = plot.inflate(-canvas.px(12), -canvas.px(12))

    def point(i: int, v: int) -> tuple[int, int]:
        x = inner.left + (inner.width * (i + 1)) // longest
        y = inner.bottom - (inner.height * (v - low)) // (top - low)
        return x, y

    for values, colour in zip(series, colours, strict=False):
        points = [(inner.left, point(0, 0)[1] if low <= 0 else inner.bottom)]
        points += [point(i, v) for i, v in enumerate(values)]
        if len(points) >= 2:
            pygame.draw.lines(canvas.surface, colour, False, points, width=max(2, canvas.px(3)))


def pin_pad(
    canvas: Canvas,
    rect: pygame.Rect,
    on_digit: Callable[[str], None],
    on_back: Callable[[], None],
    on_ok: Callable[[], None],
    ok_label: str,
) -> None:
    """Digits 0–9, backspace and OK in a 3×4 grid of large keys."""
    keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", ok_label]
    cols, rows = 3, 4
    gap = canvas.px(8)
    w = (rect.width - gap * (cols - 1)) // cols
    h = (rect.height - gap * (rows - 1)) // rows
    for i, key in enumerate(keys):
        r = pygame.Rect(rect.left + (i % cols) * (w + gap), rect.top + (i // cols) * (h + gap), w, h)
        if key == "⌫":
            canvas.button(r, "<", on_back, size=30)
        elif key == ok_label:
            canvas.button(r, ok_label, on_ok, size=26)
        else:
            canvas.button(r, key, partial(on_digit, key), size=30)
