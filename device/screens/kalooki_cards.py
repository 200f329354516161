"""Kalooki's playing cards on the screen: the suits drawn as shapes (the built-in font has no ♠♥♦♣), a
card face with its rank and suit, and a row of cards that overlap when they do not fit.

Every card drawn is recorded in the render log as ``card`` with its text form (``10H``, ``JOKER``), so
the tests read what the screen shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from device.ui.canvas import Canvas
from device.ui.shapes import draw_star
from device.ui.theme import Colour
from rules.kalooki.cards import RANK_NAMES, Card

__all__ = [
    "CARD_FACE",
    "JOKER_FACE",
    "RED",
    "draw_card",
    "draw_cards",
    "draw_suit",
    "suit_colour",
]

CARD_FACE: Colour = (250, 250, 247)
RED: Colour = (200, 30, 40)
BLACK: Colour = (20, 20, 28)
JOKER_INK: Colour = (120, 50, 170)
JOKER_FACE: Colour = (253, 216, 90)  # a golden face: the joker is told from every other card at a glance


def suit_colour(suit: str) -> Colour:
    return RED if suit in "HD" else BLACK


def draw_suit(surface: pygame.Surface, rect: pygame.Rect, suit: str, colour: Colour) -> None:
    """♠ ♥ ♦ ♣ as filled shapes inside ``rect`` (square is best)."""
    size = min(rect.width, rect.height)
    box = pygame.Rect(0, 0, size, size)
    box.center = rect.center
    x, y, s = box.left, box.top, size
    r = max(2, s // 4)
    if suit == "D":
        pygame.draw.polygon(
            surface, colour, [(x + s // 2, y), (x + s, y + s // 2), (x + s // 2, y + s), (x, y + s // 2)]
        )
    elif suit == "H":
        pygame.draw.circle(surface, colour, (x + r, y + r + s // 10), r)
        pygame.draw.circle(surface, colour, (x + s - r, y + r + s // 10), r)
        pygame.draw.polygon(
            surface, colour, [(x, y + r + s // 8), (x + s, y + r + s // 8), (x + s // 2, y + s)]
        )
    elif suit == "S":
        pygame.draw.circle(surface, colour, (x + r, y + s // 2 + s // 10), r)
        pygame.draw.circle(surface, colour, (x + s - r, y + s // 2 + s // 10), r)
        pygame.draw.polygon(
            surface, colour, [(x, y + s // 2 + s // 12), (x + s, y + s // 2 + s // 12), (x + s // 2, y)]
        )
        pygame.draw.polygon(
            surface, colour, [(x + s // 2, y + s // 2), (x + s // 3, y + s), (x + 2 * s // 3, y + s)]
        )
    elif suit == "C":
        c = max(2, s // 5 + 1)
        pygame.draw.circle(surface, colour, (x + s // 2, y + c), c)
        pygame.draw.circle(surface, colour, (x + c, y + s // 2 + c // 2), c)
        pygame.draw.circle(surface, colour, (x + s - c, y + s // 2 + c // 2), c)
        pygame.draw.polygon(
            surface, colour, [(x + s // 2, y + s // 3), (x + s // 3, y + s), (x + 2 * s // 3, y + s)]
        )


def draw_card(
    canvas: Canvas,
    rect: pygame.Rect,
    card: Card,
    *,
    action: Callable[[], None] | None = None,
    label: str = "",
    face: Colour = CARD_FACE,
) -> None:
    """A card face: the rank above its suit. The joker has no rank a jack could be taken for: a golden
    face with a purple edge and a purple star where the rank and the suit are. With ``action`` it is a
    touch target named ``label`` (default: the card's text form)."""
    joker = card.is_joker
    canvas.shape(rect, JOKER_FACE if joker and face == CARD_FACE else face, radius=4)
    edge, width = (JOKER_INK, max(2, canvas.px(2))) if joker else ((150, 150, 150), 1)
    pygame.draw.rect(canvas.surface, edge, rect, width=width, border_radius=canvas.px(4))
    inner = rect.inflate(-2, -canvas.px(6))
    top = pygame.Rect(inner.left, inner.top, inner.width, inner.height // 2)
    bottom = pygame.Rect(inner.left, top.bottom, inner.width, inner.height - top.height)
    size = max(10, round(top.height / canvas.scale * 1.1))
    if joker:
        for half in (top, bottom):
            draw_star(canvas.surface, half.inflate(-canvas.px(2), -canvas.px(2)), JOKER_INK)
        canvas.record("joker_star", "", top)
    else:
        canvas.text(
            RANK_NAMES[card.rank], top, size=size, colour=suit_colour(card.suit), align="center", bold=True
        )
        draw_suit(
            canvas.surface, bottom.inflate(-canvas.px(4), -canvas.px(4)), card.suit, suit_colour(card.suit)
        )
    canvas.record("card", str(card), rect)
    if action is not None:
        canvas.target(rect, label or str(card), action)


def draw_cards(canvas: Canvas, rect: pygame.Rect, cards: Sequence[Card], *, width: int = 34) -> None:
    """A row of cards from the left of ``rect``, overlapping when ``width`` each does not fit."""
    if not cards:
        return
    w = min(canvas.px(width), rect.width)
    step = w if len(cards) * w <= rect.width else max(1, (rect.width - w) // max(1, len(cards) - 1))
    for i, card in enumerate(cards):
        draw_card(canvas, pygame.Rect(rect.left + i * step, rect.top, w, rect.height), card)
