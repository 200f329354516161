"""The camera panel draws any observation's items; readings of items lying close together never hide
each other."""

from __future__ import annotations

import numpy as np
import pygame

from device.camera_view import CameraView, ViewItem
from device.ui.camera_panel import CameraPanel
from device.ui.canvas import Canvas


def draw(items: tuple[ViewItem, ...]) -> Canvas:
    pygame.display.init()
    canvas = Canvas(pygame.Surface((800, 480)))
    canvas.begin()
    view = CameraView(
        image=np.zeros((72, 128, 3), dtype=np.uint8),
        frame_size=(1280, 720),
        items=items,
        zones=(),
        state="settled",
        seq=1,
    )
    CameraPanel("seen_die").draw(
        canvas, pygame.Rect(8, 64, 304, 171), view, no_camera="", camera_label="camera", zone_labels={}
    )
    return canvas


def test_readings_of_dice_lying_side_by_side_do_not_overlap() -> None:
    # Five dice in a tight row (each 76 px in the frame, almost touching): the readings of neighbours
    # would overlap above the dice, so some go below or beside.
    items = tuple(ViewItem(str(v), (400.0 + 80 * i, 300.0), 76.0) for i, v in enumerate((1, 2, 3, 4, 5)))
    canvas = draw(items)
    tags = [pygame.Rect(d.rect) for d in canvas.log if d.kind == "reading"]
    assert len(tags) == 5
    for i, a in enumerate(tags):
        for b in tags[i + 1 :]:
            assert not a.colliderect(b), (a, b)
    panel = pygame.Rect(8, 64, 304, 171)
    assert all(panel.contains(t) for t in tags)


def test_an_unsure_reading_is_marked_and_a_lone_die_is_read_above_it() -> None:
    canvas = draw((ViewItem("4", (640.0, 360.0), 76.0, uncertain=True),))
    (drawn,) = [d for d in canvas.log if d.kind == "seen_die"]
    assert drawn.text == "4?"
    (tag,) = [pygame.Rect(d.rect) for d in canvas.log if d.kind == "reading" and d.text == "4?"]
    assert tag.bottom <= pygame.Rect(drawn.rect).top
