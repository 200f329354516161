"""The camera panel: the camera's latest view with what was recognised drawn on it, for any game.

Every item of the observation is boxed where it lies, its reading written large beside it (so a player
a metre away sees what was read): green when sure, the zone's colour in a named zone (the dice's hold
zone), red with a ``?`` when the reader was unsure. The calibration's named zones are outlined and
labelled in a corner no item covers. Only pygame here: the vision worker made the RGB preview.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pygame

from device.camera_view import CameraView, ViewItem
from device.ui.canvas import Canvas
from device.ui.theme import ACCENT, GOOD, HOLD_ZONE, PANEL, TEXT_DIM, WARNING, Colour

__all__ = ["CameraPanel", "item_colour", "place_tag"]


def item_colour(item: ViewItem) -> Colour:
    """Unsure: red; in a named zone: the zone colour; else green."""
    return WARNING if item.uncertain else HOLD_ZONE if item.zone is not None else GOOD


def place_tag(
    size: tuple[int, int],
    box: pygame.Rect,
    area: pygame.Rect,
    *,
    taken: list[pygame.Rect],
    avoid: list[pygame.Rect],
) -> pygame.Rect:
    """Where an item's reading goes: above its box, else below, right or left of it — the first
    place inside ``area`` that covers no tag already ``taken`` and nothing to ``avoid`` (another
    item's box, a zone's name, a zone the item is not in); when every place covers something, the
    one that covers the least of the tags, then the fewest things to avoid (readings never hide
    readings if there is any room).

    >>> area = pygame.Rect(0, 0, 400, 300)
    >>> first = place_tag((30, 30), pygame.Rect(100, 100, 40, 40), area, taken=[], avoid=[])
    >>> first.midbottom
    (120, 99)
    >>> second = place_tag((30, 30), pygame.Rect(120, 100, 40, 40), area, taken=[first], avoid=[])
    >>> second.colliderect(first), second.top
    (False, 141)
    """
    w, h = size
    spots = []
    for place in ("above", "below", "right", "left"):
        tag = pygame.Rect(0, 0, w, h)
        if place == "above":
            tag.midbottom = (box.centerx, box.top - 1)
        elif place == "below":
            tag.midtop = (box.centerx, box.bottom + 1)
        elif place == "right":
            tag.midleft = (box.right + 1, box.centery)
        else:
            tag.midright = (box.left - 1, box.centery)
        tag = tag.clamp(area)
        covered = sum(_overlap(tag, t) for t in taken)
        hits = sum(tag.colliderect(b) for b in avoid)
        if not covered and not hits:
            return tag
        spots.append(((covered, hits), tag))
    return min(spots, key=lambda spot: spot[0])[1]


def _overlap(a: pygame.Rect, b: pygame.Rect) -> int:
    clipped = a.clip(b)
    return clipped.width * clipped.height


class CameraPanel:
    """Draws views; keeps the scaled preview until the next frame (one conversion per camera frame).

    ``zone_labels`` names the zones in the players' language (``{"hold": "Hold zone"}``); ``item_kind``
    is what the render log calls each item (``seen_die``, ``seen_tile``)."""

    def __init__(self, item_kind: str = "seen_item") -> None:
        self.item_kind = item_kind
        self._seq = -1
        self._size = (0, 0)
        self._surface: pygame.Surface | None = None

    def draw(
        self,
        canvas: Canvas,
        rect: pygame.Rect,
        view: CameraView | None,
        *,
        no_camera: str,
        camera_label: str,
        zone_labels: Mapping[str, str],
        moving: str = "",
        labelled: bool = True,
    ) -> None:
        """``labelled``: label each item in a tag beside its box (off where the items are too small and
        many for tags: a Rummikub table, whose reading the screen shows as tiles)."""
        canvas.shape(rect, PANEL)
        if view is None:
            canvas.text(no_camera, rect, size=22, colour=TEXT_DIM, align="center")
            return
        if view.seq != self._seq or self._surface is None or self._size != rect.size:
            image = np.ascontiguousarray(view.image)
            surface = pygame.image.frombuffer(image.tobytes(), (image.shape[1], image.shape[0]), "RGB")
            self._surface = pygame.transform.smoothscale(surface, rect.size)
            self._seq, self._size = view.seq, rect.size
        canvas.image(self._surface, rect, camera_label)
        sx = rect.width / view.frame_size[0]
        sy = rect.height / view.frame_size[1]
        boxes = [self._box(item, rect, sx, sy) for item in view.items]
        names: list[pygame.Rect] = []  # where the zones' names are written: no reading covers them
        areas: list[pygame.Rect] = []
        for zone in view.zones:
            corners = [
                (
                    min(max(rect.left + x * sx, rect.left), rect.right - 1),
                    min(max(rect.top + y * sy, rect.top), rect.bottom - 1),
                )
                for x, y in zone.corners
            ]
            pygame.draw.polygon(canvas.surface, HOLD_ZONE, corners, width=2)
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            area = pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
            label = zone_labels.get(zone.name, zone.name)
            label_w, label_h = min(area.width - 8, canvas.px(110)), canvas.px(22)
            # The label goes in a corner of the zone that no item covers (none if every corner is taken).
            for corner in (
                (area.left + 4, area.top + 2),
                (area.right - 4 - label_w, area.top + 2),
                (area.left + 4, area.bottom - 2 - label_h),
                (area.right - 4 - label_w, area.bottom - 2 - label_h),
            ):
                spot = pygame.Rect(corner[0], corner[1], label_w, label_h)
                if not any(spot.colliderect(b) for b in boxes):
                    names.append(canvas.text(label, spot, size=18, colour=HOLD_ZONE))
                    break
            canvas.record(f"{zone.name}_zone", label, area)
            areas.append(area)
        tags: list[pygame.Rect] = []
        for i, (item, box) in enumerate(zip(view.items, boxes, strict=True)):
            colour = item_colour(item)
            pygame.draw.rect(canvas.surface, colour, box, width=3 if item.uncertain else 2)
            if not labelled:
                canvas.record(self.item_kind, item.label, box)
                continue
            text = item.label + ("?" if item.uncertain and item.label != "?" else "")
            size = (canvas.px(30 if len(text) == 1 else 16 + 14 * len(text)), canvas.px(30))
            others = boxes[:i] + boxes[i + 1 :]
            # An item outside every zone is read outside them (a die beside the hold zone is not held).
            outside = areas if item.zone is None else []
            tag = place_tag(size, box, rect, taken=tags, avoid=[*others, *names, *outside])
            tags.append(tag)
            pygame.draw.rect(canvas.surface, colour, tag, border_radius=canvas.px(6))
            canvas.text(text, tag, size=26, bold=True, align="center")
            canvas.record(self.item_kind, text, box)
            canvas.record("reading", text, tag)
        if moving and view.state == "rolling" and view.moving:
            canvas.text(
                moving,
                (rect.left, rect.bottom - canvas.px(28), rect.width, canvas.px(26)),
                size=20,
                colour=ACCENT,
                align="center",
            )

    @staticmethod
    def _box(item: ViewItem, rect: pygame.Rect, sx: float, sy: float) -> pygame.Rect:
        half = item.size * sx / 2
        box = pygame.Rect(0, 0, half * 2, half * 2)
        box.center = (round(rect.left + item.center[0] * sx), round(rect.top + item.center[1] * sy))
        return box.clip(rect)
