"""Synthetic Zatre boards: the cards as in the box, laid on a grid of half-cells, filmed from above.

A card is two square halves side by side, each with die pips (1–6) or blank (0), printed on a cream
card with a dark frame round each half; cards lie a little apart on the grid (the board is laid by
hand). The table is a real photo from the shared photo sets with its objects painted out
(:func:`table_textures`), or a drawn texture when no photo set is found. A scene may be lit warm or
unevenly, blurred, seen with the camera tilted (a perspective warp), and have hands partly over the
board; single cards may be nudged off their cells. :func:`render_loose_cards` lays a batch of cards
loose and face up, each at its own turn, a finger over some of them (the owner's deck count). The truth
says, per half, its value, its cell, where
it lies in the frame and whether a hand covers any of it.

>>> from rules.zatre import Placement
>>> frame, truth = render_zatre_board([Placement.parse("5|6@0,0H"), Placement.parse("0|4@0,1H")], seed=1)
>>> frame.shape, [h.value for h in truth.halves]
((1080, 1920, 3), [5, 6, 0, 4])
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from rules.zatre.board import Placement
from rules.zatre.cards import Card
from vision.synth import PIPS, table_background, warm_light

__all__ = [
    "PLANE",
    "LooseTruth",
    "SyntheticHalf",
    "ZatreTruth",
    "draw_card",
    "render_loose_cards",
    "render_zatre_board",
    "table_textures",
]

PLANE = 96  # pixels per half-cell when the board is drawn flat, before it is filmed
GAP = 0.05  # the space between two cards, in half-cells
MARGIN = 0.07  # the cream margin of a card outside its printed frame, in half-cells
LINE = 0.06  # the frame's line width, in half-cells
PIP_SPACING = 0.22
PIP_RADIUS = 0.075
PHOTO_SETS = ("dice-webcam", "dice-tray", "rummikub-tiles", "playing-cards")


@dataclass(frozen=True)
class SyntheticHalf:
    """One half as filmed: its card (index into the placements), value, cell, centre and side in the
    frame (pixels) and whether a hand covers any of it."""

    card: int
    value: int
    cell: tuple[int, int]
    center: tuple[float, float]
    side: float
    covered: bool


@dataclass(frozen=True)
class ZatreTruth:
    """What a synthetic board shows: the placements (grid cells as given), every half, the
    frame-from-board homography (board plane in half-cells -> frame pixels), which cards were nudged
    off their cells, and whether a hand is in the picture."""

    placements: tuple[Placement, ...]
    halves: tuple[SyntheticHalf, ...]
    homography: np.ndarray
    nudged: tuple[int, ...] = ()
    hands: int = 0

    @property
    def visible(self) -> tuple[SyntheticHalf, ...]:
        return tuple(h for h in self.halves if not h.covered)


def _datasets() -> Path:
    return Path(
        os.environ.get("REFEREE_DATASETS", Path(__file__).resolve().parents[2] / "shared" / "datasets")
    )


@functools.cache
def table_textures(limit: int = 24) -> tuple[np.ndarray, ...]:
    """Table tops cut from the shared photo sets (``REFEREE_DATASETS``): photos with their labelled
    objects painted out (inpainting at low resolution), a few from each set; empty when none is found."""
    from vision.dataset import load_folder

    textures: list[np.ndarray] = []
    root = _datasets()
    for name in PHOTO_SETS:
        folder = root / name
        if not (folder / "ground_truth.csv").is_file():
            continue
        items = load_folder(folder)
        step = max(1, len(items) // (limit // len(PHOTO_SETS)))
        for item in items[::step][: limit // len(PHOTO_SETS)]:
            image = cv2.imread(str(item.path))
            if image is None:
                continue
            scale = 320 / max(image.shape[:2])
            small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            mask = np.zeros(small.shape[:2], np.uint8)
            for box in item.boxes:
                x0, y0 = int((box.cx - box.w * 0.65) * scale), int((box.cy - box.h * 0.65) * scale)
                x1, y1 = int((box.cx + box.w * 0.65) * scale), int((box.cy + box.h * 0.65) * scale)
                cv2.rectangle(mask, (x0, y0), (x1, y1), 255, -1)
            if mask.mean() > 255 * 0.6:
                continue  # mostly objects: little table left to show
            textures.append(cv2.inpaint(small, mask, 5, cv2.INPAINT_TELEA))
    return tuple(textures)


def _photo_table(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray | None:
    textures = table_textures()
    if not textures:
        return None
    texture = textures[int(rng.integers(len(textures)))]
    if rng.random() < 0.5:
        texture = texture[:, ::-1]
    w, h = size
    th, tw = texture.shape[:2]
    # A random crop of the photo at the frame's aspect, scaled up (the table is out of focus anyway).
    crop_w = min(tw, int(th * w / h))
    crop_h = int(crop_w * h / w)
    x0 = int(rng.integers(0, tw - crop_w + 1))
    y0 = int(rng.integers(0, th - crop_h + 1))
    table = cv2.resize(texture[y0 : y0 + crop_h, x0 : x0 + crop_w], (w, h), interpolation=cv2.INTER_CUBIC)
    grain = rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    return np.clip(table.astype(np.float32) + grain, 0, 255).astype(np.uint8)


def draw_card(
    canvas: np.ndarray, placement: Placement, origin: tuple[int, int], rng: np.random.Generator, cream: float
) -> None:
    """Draw a card on the flat board ``canvas`` (BGRA, ``PLANE`` px per half-cell) at its cells, less
    the gap; ``origin`` is the canvas cell of grid (0, 0)."""
    (x0, y0), (x1, y1) = (cell for cell, _ in placement.cells)
    gx, gy = min(x0, x1) - origin[0], min(y0, y1) - origin[1]
    cols, rows = (2, 1) if placement.orientation == "H" else (1, 2)
    g = GAP * PLANE / 2
    left, top = gx * PLANE + g, gy * PLANE + g
    right, bottom = (gx + cols) * PLANE - g, (gy + rows) * PLANE - g
    tint = np.array((cream * 0.93, cream * 0.98, cream), np.float32)
    body = (*[int(v) for v in np.clip(tint + rng.normal(0, 3, 3), 0, 255)], 255)
    radius = int(0.08 * PLANE)
    x_0, y_0, x_1, y_1 = (round(v) for v in (left, top, right, bottom))
    cv2.rectangle(canvas, (x_0 + radius, y_0), (x_1 - radius, y_1), body, -1)
    cv2.rectangle(canvas, (x_0, y_0 + radius), (x_1, y_1 - radius), body, -1)
    for cx, cy in (
        (x_0 + radius, y_0 + radius),
        (x_1 - radius, y_0 + radius),
        (x_0 + radius, y_1 - radius),
        (x_1 - radius, y_1 - radius),
    ):
        cv2.circle(canvas, (cx, cy), radius, body, -1, cv2.LINE_AA)
    ink = (int(rng.uniform(40, 70)), int(rng.uniform(35, 55)), int(rng.uniform(25, 45)), 255)
    line = max(2, round(LINE * PLANE))
    inset = MARGIN * PLANE
    for (cx, cy), value in placement.cells:
        hx, hy = (cx - origin[0]) * PLANE, (cy - origin[1]) * PLANE
        # The half's square frame, inside the card's margin (shared with the other half in the middle).
        fl = hx + (inset + g if cx == min(x0, x1) or cols == 1 else 0)
        fr = hx + PLANE - (inset + g if cx == max(x0, x1) or cols == 1 else 0)
        ft = hy + (inset + g if cy == min(y0, y1) or rows == 1 else 0)
        fb = hy + PLANE - (inset + g if cy == max(y0, y1) or rows == 1 else 0)
        cv2.rectangle(canvas, (round(fl), round(ft)), (round(fr), round(fb)), ink, line, cv2.LINE_AA)
        if value:
            mx, my = hx + PLANE / 2, hy + PLANE / 2
            quarter = rng.integers(4)  # a 2, 3 or 6 may lie either way round
            for px, py in PIPS[value]:
                for _ in range(quarter):
                    px, py = -py, px
                centre = (
                    round((mx + px * PIP_SPACING * PLANE) * 16),
                    round((my + py * PIP_SPACING * PLANE) * 16),
                )
                cv2.circle(canvas, centre, round(PIP_RADIUS * PLANE * 16), ink, -1, cv2.LINE_AA, shift=4)


def _hand(mask: np.ndarray, target: tuple[float, float], reach: float, rng: np.random.Generator) -> None:
    """A hand (palm and four fingers) reaching from the nearest frame edge towards ``target``."""
    h, w = mask.shape
    tx, ty = target
    edges = [(tx, 0.0), (tx, float(h)), (0.0, ty), (float(w), ty)]
    sx, sy = min(edges, key=lambda e: math.hypot(e[0] - tx, e[1] - ty))
    angle = math.atan2(ty - sy, tx - sx)
    ux, uy = math.cos(angle), math.sin(angle)
    palm = (tx - ux * reach * 0.9, ty - uy * reach * 0.9)
    arm = np.array([(sx - ux * reach, sy - uy * reach), palm], np.float32)
    cv2.line(mask, tuple(int(v) for v in arm[0]), tuple(int(v) for v in arm[1]), 255, int(reach * 0.9))
    cv2.ellipse(
        mask,
        (int(palm[0]), int(palm[1])),
        (int(reach * 0.55), int(reach * 0.45)),
        math.degrees(angle),
        0,
        360,
        255,
        -1,
    )
    for k in range(4):
        spread = (k - 1.5) * 0.22
        fa = angle + spread
        base = (palm[0] + math.cos(fa) * reach * 0.35, palm[1] + math.sin(fa) * reach * 0.35)
        length = reach * rng.uniform(0.55, 0.8)
        tip = (base[0] + math.cos(fa) * length, base[1] + math.sin(fa) * length)
        cv2.line(
            mask, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 255, max(3, int(reach * 0.16))
        )


def render_zatre_board(
    placements: Sequence[Placement],
    rng: np.random.Generator | None = None,
    *,
    seed: int = 0,
    size: tuple[int, int] = (1920, 1080),
    pitch: float | None = None,
    angle: float | None = None,
    tilt: float | None = None,
    blur: float | None = None,
    warm: float | None = None,
    hands: int | None = None,
    nudges: Mapping[int, tuple[float, float]] | None = None,
    photo: bool | None = None,
    noise: float = 3.0,
) -> tuple[np.ndarray, ZatreTruth]:
    """A BGR frame of the cards laid at ``placements`` and its exact truth.

    ``pitch``: the half-cell in frame pixels (random, smaller for wide boards); ``angle``: the board's
    turn in degrees (random small); ``tilt``: the camera's tilt off vertical in degrees (random 0–12);
    ``blur``: Gaussian sigma in pixels (random 0–1.3); ``warm``: tungsten light 0–1; ``hands``: how
    many hands reach over the board (random: none in most scenes); ``nudges``: card index -> offset in
    half-cells (a card pushed off its cell); ``photo``: a real-photo table (default when photos are
    found). Raises ``ValueError`` when the board does not fit the frame.
    """
    rng = rng if rng is not None else np.random.default_rng(seed)
    w, h = size
    nudges = dict(nudges or {})
    cells = [cell for p in placements for cell, _ in p.cells]
    if not cells:
        cells = [(0, 0)]
    min_x, max_x = min(c[0] for c in cells), max(c[0] for c in cells)
    min_y, max_y = min(c[1] for c in cells), max(c[1] for c in cells)
    span_x, span_y = max_x - min_x + 3, max_y - min_y + 3
    turn = math.radians(float(angle if angle is not None else rng.uniform(-12, 12)))
    tilt_deg = float(tilt if tilt is not None else rng.uniform(0, 12))
    ac, as_ = abs(math.cos(turn)), abs(math.sin(turn))
    fit = min(w / (span_x * ac + span_y * as_), h / (span_x * as_ + span_y * ac)) * (0.86 - tilt_deg / 100)
    step = float(pitch if pitch is not None else min(rng.uniform(0.045, 0.07) * h, fit))
    if step > fit * 1.001 or step < 12:
        raise ValueError(
            f"a board of {span_x}×{span_y} half-cells does not fit a {w}×{h} frame at {step:.0f} px"
        )
    # The flat board, a cell of margin all round.
    origin = (min_x - 1, min_y - 1)
    canvas = np.zeros((span_y * PLANE, span_x * PLANE, 4), np.uint8)
    cream = float(rng.uniform(215, 245))
    for index, placement in enumerate(placements):
        if index in nudges:
            layer = np.zeros_like(canvas)
            draw_card(layer, placement, origin, rng, cream)
            dx, dy = nudges[index]
            shift = np.array([[1, 0, dx * PLANE], [0, 1, dy * PLANE]], np.float32)
            moved = cv2.warpAffine(layer, shift, (canvas.shape[1], canvas.shape[0]))
            alpha = moved[..., 3:4].astype(np.float32) / 255
            canvas[:] = (canvas * (1 - alpha) + moved * alpha).astype(np.uint8)
        else:
            draw_card(canvas, placement, origin, rng, cream)
    # Board plane (half-cells from grid (0, 0)) -> frame: turn, scale, place, then the camera's tilt.
    cx = w / 2 + rng.uniform(-0.02, 0.02) * w
    cy = h / 2 + rng.uniform(-0.02, 0.02) * h
    mid = ((min_x + max_x + 1) / 2, (min_y + max_y + 1) / 2)
    c, s = math.cos(turn), math.sin(turn)
    similar = np.array(
        [
            [step * c, -step * s, cx - step * (c * mid[0] - s * mid[1])],
            [step * s, step * c, cy - step * (s * mid[0] + c * mid[1])],
            [0, 0, 1],
        ]
    )
    direction = rng.uniform(0, 2 * math.pi)
    # A tilted camera: the far side of the table shrinks; a projective term along a random direction.
    k = math.tan(math.radians(tilt_deg)) / max(w, h) * 1.2
    centre = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]])
    back = np.array([[1, 0, w / 2], [0, 1, h / 2], [0, 0, 1]])
    project = (
        back
        @ np.array([[1, 0, 0], [0, 1, 0], [k * math.cos(direction), k * math.sin(direction), 1]])
        @ centre
    )
    frame_from_board = project @ similar
    plane_to_board = np.array([[1 / PLANE, 0, origin[0]], [0, 1 / PLANE, origin[1]], [0, 0, 1]])
    frame_from_plane = frame_from_board @ plane_to_board
    # Check the board stays in the frame.
    corners = np.array(
        [[min_x - 1, min_y - 1], [max_x + 2, min_y - 1], [max_x + 2, max_y + 2], [min_x - 1, max_y + 2]],
        np.float32,
    )
    seen = cv2.perspectiveTransform(corners[None], frame_from_board)[0]
    if (seen < 0).any() or (seen[:, 0] >= w).any() or (seen[:, 1] >= h).any():
        raise ValueError("the board does not fit the frame at this turn and tilt")
    use_photo = photo if photo is not None else True
    table = _photo_table(size, rng) if use_photo else None
    if table is None:
        table = table_background(size, str(rng.choice(("wood", "marble", "fabric"))), rng)
    warped = cv2.warpPerspective(
        canvas, frame_from_plane, (w, h), flags=cv2.INTER_AREA, borderValue=(0, 0, 0, 0)
    )
    alpha = warped[..., 3].astype(np.float32) / 255
    shadow = cv2.GaussianBlur(np.roll(alpha, (int(step * 0.05) + 1,) * 2, axis=(0, 1)), (0, 0), step * 0.06)
    frame = table.astype(np.float32) * (1 - 0.35 * shadow[..., None])
    frame = frame * (1 - alpha[..., None]) + warped[..., :3].astype(np.float32) * alpha[..., None]
    # Uneven light across the table.
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 0.88 + 0.18 * (xs / w * rng.uniform(-1, 1) + ys / h * rng.uniform(-1, 1))
    frame = frame * light[..., None]
    # Hands reaching over the board.
    count = int(hands if hands is not None else (rng.integers(1, 3) if rng.random() < 0.25 else 0))
    hand_mask = np.zeros((h, w), np.uint8)
    for _ in range(count):
        target_cell = cells[int(rng.integers(len(cells)))]
        target = cv2.perspectiveTransform(
            np.array([[[target_cell[0] + 0.5, target_cell[1] + 0.5]]], np.float32), frame_from_board
        )[0, 0]
        _hand(hand_mask, (float(target[0]), float(target[1])), step * rng.uniform(2.2, 3.2), rng)
    if count:
        skin = np.array(
            rng.choice([(120, 160, 215), (90, 130, 190), (60, 90, 140), (140, 175, 225)]), np.float32
        )
        soft = cv2.GaussianBlur(hand_mask.astype(np.float32) / 255, (0, 0), 2.0)
        shade = 0.8 + 0.2 * cv2.GaussianBlur(
            rng.normal(0, 1, (h // 16 + 1, w // 16 + 1)).astype(np.float32), (0, 0), 2
        )
        shade_full = cv2.resize(shade, (w, h))
        frame = frame * (1 - soft[..., None]) + (skin[None, None] * shade_full[..., None]) * soft[..., None]
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    light_warm = float(warm if warm is not None else (rng.uniform(0, 1) if rng.random() < 0.4 else 0.0))
    if light_warm > 0:
        frame = warm_light(frame, light_warm)
    sigma = float(blur if blur is not None else rng.uniform(0, 1.3))
    if sigma > 0.05:
        frame = cv2.GaussianBlur(frame, (0, 0), sigma)
    if noise > 0:
        grain = rng.normal(0, noise, frame.shape).astype(np.float32)
        frame = np.clip(frame.astype(np.float32) + grain, 0, 255).astype(np.uint8)
    halves: list[SyntheticHalf] = []
    for index, placement in enumerate(placements):
        dx, dy = nudges.get(index, (0.0, 0.0))
        for (x, y), value in placement.cells:
            square = np.array(
                [[[x + dx, y + dy], [x + dx + 1, y + dy], [x + dx + 1, y + dy + 1], [x + dx, y + dy + 1]]],
                np.float32,
            )
            quad = cv2.perspectiveTransform(square, frame_from_board)[0]
            centre_pt = quad.mean(axis=0)
            side = float(np.mean([np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]))
            covered = False
            if count:
                x0, y0 = np.floor(quad.min(axis=0)).astype(int)
                x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
                poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
                cv2.fillConvexPoly(poly, (quad - (x0, y0)).astype(np.int32), 255)
                covered = bool(np.any(hand_mask[y0:y1, x0:x1][poly > 0]))
            halves.append(
                SyntheticHalf(index, value, (x, y), (float(centre_pt[0]), float(centre_pt[1])), side, covered)
            )
    return frame, ZatreTruth(tuple(placements), tuple(halves), frame_from_board, tuple(sorted(nudges)), count)


SLOT = 2.7  # half-cells: the square each loose card is laid in (a card turned any way fits, with a gap)
SKIN = ((120, 160, 215), (90, 130, 190), (60, 90, 140), (140, 175, 225))


@dataclass(frozen=True)
class LooseTruth:
    """What a synthetic batch of loose cards shows: each card, its centre, long side and outline (four
    corners) in the frame, and which cards a finger covers part of."""

    cards: tuple[Card, ...]
    centers: tuple[tuple[float, float], ...]
    sizes: tuple[float, ...]
    corners: tuple[tuple[tuple[float, float], ...], ...]
    covered: tuple[int, ...] = ()


def render_loose_cards(
    cards: Sequence[Card],
    rng: np.random.Generator | None = None,
    *,
    seed: int = 0,
    size: tuple[int, int] = (1920, 1080),
    covered: Sequence[int] = (),
    pitch: float | None = None,
    tilt: float | None = None,
    blur: float | None = None,
    warm: float | None = None,
    photo: bool | None = None,
    noise: float = 3.0,
) -> tuple[np.ndarray, LooseTruth]:
    """A BGR frame of ``cards`` lying loose and face up on a table, each in its own slot of a grid at a
    random turn and place in the slot, and its exact truth. ``covered``: the indices of cards with a
    finger over one half. ``pitch``: a half-cell in frame pixels (random, as on a board: 5–7 % of the
    frame's height; smaller when the cards would not fit); ``tilt``: the camera's tilt in degrees
    (random 0–8); ``blur``: Gaussian sigma (random 0–1); ``warm``: tungsten light 0–1; ``photo``: a
    real-photo table (default when found). Raises ``ValueError`` for more cards than fit the frame
    (about 60 at 1920×1080)."""
    rng = rng if rng is not None else np.random.default_rng(seed)
    w, h = size
    n = len(cards)
    tilt_deg = float(tilt if tilt is not None else rng.uniform(0, 8))
    # The camera stands over the table as for a game: a half-cell is as big as on a board.
    step = float(pitch if pitch is not None else rng.uniform(0.05, 0.07) * h)
    room_w, room_h = w * (0.92 - tilt_deg / 100), h * (0.92 - tilt_deg / 100)
    columns = max(1, min(math.ceil(math.sqrt(n * w / h)), int(room_w // (SLOT * step))))
    rows = max(1, math.ceil(n / columns))
    if rows * SLOT * step > room_h:
        step = min(room_w / (columns * SLOT), room_h / (rows * SLOT))
    if step < 24:
        raise ValueError(f"{n} loose cards do not fit a {w}×{h} frame ({step:.0f} px a half-cell)")
    span_x, span_y = columns * SLOT, rows * SLOT
    plane = np.zeros((round(span_y * PLANE), round(span_x * PLANE), 4), np.uint8)
    cream = float(rng.uniform(215, 245))
    slots = rng.permutation(columns * rows)[:n]
    turns = rng.uniform(0, 360, n)
    centres_plane: list[tuple[float, float]] = []
    outlines_plane: list[np.ndarray] = []
    tile = np.zeros((3 * PLANE, 4 * PLANE, 4), np.uint8)  # a card drawn at cells (1, 1)–(2, 1)
    for index, card in enumerate(cards):
        tile[:] = 0
        draw_card(tile, Placement(card, 1, 1, "H"), (0, 0), rng, cream)
        row, column = divmod(int(slots[index]), columns)
        room = (SLOT - 2.3) / 2  # how far the card may lie off its slot's centre
        cx = (column + 0.5) * SLOT + rng.uniform(-room, room)
        cy = (row + 0.5) * SLOT + rng.uniform(-room, room)
        turn = math.radians(float(turns[index]))
        c, s = math.cos(turn), math.sin(turn)
        # Tile pixel -> plane pixel: about the card's centre (tile cell (2, 1.5)), turned, moved.
        move = np.array(
            [
                [c, -s, (cx - (c * 2 - s * 1.5)) * PLANE],
                [s, c, (cy - (s * 2 + c * 1.5)) * PLANE],
            ],
            np.float32,
        )
        layer = cv2.warpAffine(tile, move, (plane.shape[1], plane.shape[0]), flags=cv2.INTER_LINEAR)
        alpha = layer[..., 3:4].astype(np.float32) / 255
        plane[:] = (plane * (1 - alpha) + layer * alpha).astype(np.uint8)
        half_w, half_h = 1.0 - GAP / 2, 0.5 - GAP / 2
        box = np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]])
        centres_plane.append((cx, cy))
        outlines_plane.append(box @ np.array([[c, -s], [s, c]]).T + (cx, cy))
    # Plane (half-cells) -> frame: scaled and centred, then the camera's tilt.
    ox = w / 2 - step * span_x / 2 + rng.uniform(-0.01, 0.01) * w
    oy = h / 2 - step * span_y / 2 + rng.uniform(-0.01, 0.01) * h
    similar = np.array([[step, 0, ox], [0, step, oy], [0, 0, 1]], np.float64)
    direction = rng.uniform(0, 2 * math.pi)
    k = math.tan(math.radians(tilt_deg)) / max(w, h) * 1.2
    centre = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]])
    back = np.array([[1, 0, w / 2], [0, 1, h / 2], [0, 0, 1]])
    lean = np.array([[1, 0, 0], [0, 1, 0], [k * math.cos(direction), k * math.sin(direction), 1]])
    frame_from_cells = back @ lean @ centre @ similar
    frame_from_plane = frame_from_cells @ np.diag((1 / PLANE, 1 / PLANE, 1.0))
    use_photo = photo if photo is not None else True
    table = _photo_table(size, rng) if use_photo else None
    if table is None:
        table = table_background(size, str(rng.choice(("wood", "marble", "fabric"))), rng)
    warped = cv2.warpPerspective(
        plane, frame_from_plane, (w, h), flags=cv2.INTER_AREA, borderValue=(0, 0, 0, 0)
    )
    alpha = warped[..., 3].astype(np.float32) / 255
    shadow = cv2.GaussianBlur(np.roll(alpha, (int(step * 0.05) + 1,) * 2, axis=(0, 1)), (0, 0), step * 0.06)
    frame = table.astype(np.float32) * (1 - 0.35 * shadow[..., None])
    frame = frame * (1 - alpha[..., None]) + warped[..., :3].astype(np.float32) * alpha[..., None]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 0.9 + 0.14 * (xs / w * rng.uniform(-1, 1) + ys / h * rng.uniform(-1, 1))
    frame = frame * light[..., None]
    # A finger over one half of each covered card: the tip on the half, the finger reaching sideways.
    finger = np.zeros((h, w), np.uint8)
    for index in covered:
        cx, cy = centres_plane[index]
        turn = math.radians(float(turns[index]))
        along = np.array((math.cos(turn), math.sin(turn)))
        across = np.array((-along[1], along[0]))
        tip = np.array((cx, cy)) + along * rng.choice((-0.5, 0.5)) + across * rng.uniform(-0.15, 0.15)
        base = tip + across * 0.9 * rng.choice((-1.0, 1.0))
        ends = cv2.perspectiveTransform(np.array([[tip, base]], np.float64), frame_from_cells)[0]
        width = max(3, round(step * 0.6))
        start = (int(ends[0][0]), int(ends[0][1]))
        cv2.line(finger, start, (int(ends[1][0]), int(ends[1][1])), 255, width)
        cv2.circle(finger, start, width // 2, 255, -1)
    if len(covered):
        skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float32)
        soft = cv2.GaussianBlur(finger.astype(np.float32) / 255, (0, 0), 1.5)
        frame = frame * (1 - soft[..., None]) + skin[None, None] * soft[..., None]
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    light_warm = float(warm if warm is not None else (rng.uniform(0, 1) if rng.random() < 0.4 else 0.0))
    if light_warm > 0:
        frame = warm_light(frame, light_warm)
    sigma = float(blur if blur is not None else rng.uniform(0, 1.0))
    if sigma > 0.05:
        frame = cv2.GaussianBlur(frame, (0, 0), sigma)
    if noise > 0:
        grain = rng.normal(0, noise, frame.shape).astype(np.float32)
        frame = np.clip(frame.astype(np.float32) + grain, 0, 255).astype(np.uint8)
    if not n:
        return frame, LooseTruth((), (), (), (), ())
    centers = cv2.perspectiveTransform(np.array([centres_plane], np.float64), frame_from_cells)[0]
    corners = [
        cv2.perspectiveTransform(o[None].astype(np.float64), frame_from_cells)[0] for o in outlines_plane
    ]
    return frame, LooseTruth(
        tuple(cards),
        tuple((float(x), float(y)) for x, y in centers),
        tuple(float(np.linalg.norm(q[1] - q[0])) for q in corners),
        tuple(tuple((float(x), float(y)) for x, y in q) for q in corners),
        tuple(sorted(set(covered))),
    )
