"""Colours of the screens: high contrast on a dark background, readable across a table."""

from __future__ import annotations

Colour = tuple[int, int, int]

BACKGROUND: Colour = (17, 24, 39)
PANEL: Colour = (31, 41, 55)
TEXT: Colour = (243, 244, 246)
TEXT_DIM: Colour = (156, 163, 175)
BUTTON: Colour = (55, 65, 81)
BUTTON_SELECTED: Colour = (37, 99, 235)
BUTTON_DISABLED: Colour = (38, 44, 56)
ACCENT: Colour = (250, 204, 21)
GOOD: Colour = (22, 163, 74)
WARNING: Colour = (220, 38, 38)
HOLD_ZONE: Colour = (56, 189, 248)
DIE_FACE: Colour = (250, 250, 250)
DIE_PIP: Colour = (17, 24, 39)


def parse_colour(text: str) -> Colour:
    """``"#d62828"`` -> ``(214, 40, 40)``."""
    value = int(text.lstrip("#"), 16)
    return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
