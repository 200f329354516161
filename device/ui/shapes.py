"""Shapes the built-in font has no glyph for, drawn on a surface (the joker's star on Kalooki's cards and
Rummikub's tiles)."""

from __future__ import annotations

import math

import pygame

from device.ui.theme import Colour

__all__ = ["draw_star"]


def draw_star(surface: pygame.Surface, rect: pygame.Rect, colour: Colour) -> None:
    """A filled five-pointed star centred in ``rect`` (the joker's sign on cards and tiles)."""
    cx, cy = rect.center
    outer = min(rect.width, rect.height) / 2
    points = []
    for k in range(10):
        r = outer if k % 2 == 0 else outer * 0.42
        angle = math.pi * k / 5 - math.pi / 2
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle) + outer * 0.08))
    pygame.draw.polygon(surface, colour, points)
