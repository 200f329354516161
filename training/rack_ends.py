"""A rack's dark ends beside real tiles, for the tile classifier (issue 32, session 9); torch-free.

On a rack the tiles stand in a row on a dark plastic body whose ends (and any gap a player leaves) are dark
blank rounded rectangles about a tile's size, lying beside the tiles as a tile would. The reader's detector
puts a peak there now and then (`calib`, rummy3: the ends of four black racks), and a classifier taught crops
cut past a tile's number read them as black tiles (session 8). The `fit` photos hold no rack, so
``lay_rack`` renders one: a row of real `fit` faces (``training.tiles.tile_bank``) on a dark body on a table
top, and says where its ends and gaps are, to be cut as "not a tile".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Rack:
    """A rendered rack: its tiles (corners, label) and its blanks (centres of the ends and gaps), all of
    one size (``long_side``, ``short_side``) and ``turn`` (degrees, 0 = long side vertical)."""

    tiles: list[tuple[np.ndarray, int]]
    blanks: list[tuple[float, float]]
    long_side: float
    short_side: float
    turn: float


def _corners(
    centre: np.ndarray, along: np.ndarray, down: np.ndarray, half: tuple[float, float]
) -> np.ndarray:
    return np.array(
        [
            centre + sx * half[0] * along + sy * half[1] * down
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ],
        np.float32,
    )


def _rounded(mask_size: tuple[int, int], corners: np.ndarray, radius: float) -> np.ndarray:
    """A soft mask (0–1) of the quadrilateral ``corners`` with rounded corners (``radius`` px)."""
    w, h = mask_size
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 255)
    if radius >= 1:
        k = max(1, round(radius))
        mask = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1)))
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1)))
    return cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 0.8)


def dark_plastic(rng: np.random.Generator) -> np.ndarray:
    """A rack's colour (BGR): black or dark grey plastic mostly, now and then dark brown or mid grey."""
    if rng.random() < 0.8:
        base = rng.uniform(10, 65)
        return np.clip(base + rng.uniform(-6, 6, 3), 0, 255).astype(np.float32)
    base = rng.uniform(55, 110)
    brown = np.array((-18, -6, 10), np.float32) * rng.uniform(0, 1.5)
    return np.clip(base + brown + rng.uniform(-6, 6, 3), 0, 255).astype(np.float32)


def lay_rack(
    canvas: np.ndarray,
    faces: np.ndarray,
    labels: np.ndarray,
    rng: np.random.Generator,
    long_side: float,
) -> tuple[np.ndarray, Rack]:
    """A rack on ``canvas`` (a table top, BGR): a row of 1–6 tiles (``faces``, upright BGR, with
    ``labels``), a hair apart, standing on a dark body that runs past the row's ends by most of a tile
    and a little above and below it; now and then a gap in the row, and an end cap (a dark rounded
    rectangle of a tile's size, a shade off the body) at an end. Returns the picture and the ``Rack``;
    its blanks are the ends' and gaps' centres that lie in the picture."""
    h, w = canvas.shape[:2]
    out = canvas.astype(np.float32)
    short_side = long_side * rng.uniform(0.68, 0.8)
    turn = rng.uniform(-180, 180) if rng.random() < 0.5 else float(rng.choice([0.0, 90.0, 180.0, -90.0]))
    turn += rng.normal(0, 3.0)
    t = math.radians(turn)
    along = np.array((math.cos(t), math.sin(t)))
    down = np.array((-math.sin(t), math.cos(t)))
    count = int(rng.integers(1, 7))
    pitch = short_side * rng.uniform(1.0, 1.08)
    slots = count + (1 if count >= 2 and rng.random() < 0.3 else 0)
    gap = int(rng.integers(1, slots - 1)) if slots > count and slots >= 3 else -1
    centre = np.array((rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h))
    first = centre - along * pitch * (slots - 1) / 2
    ends = (short_side * rng.uniform(0.7, 1.6), short_side * rng.uniform(0.7, 1.6))
    # The body: from past the first slot to past the last, a little above the tiles and a ledge below.
    lo = -(pitch / 2 + ends[0])
    hi = pitch * (slots - 1) + pitch / 2 + ends[1]
    up, below = long_side * rng.uniform(0.45, 0.62), long_side * rng.uniform(0.5, 0.95)
    mid_along = first + along * (lo + hi) / 2 + down * (below - up) / 2
    colour = dark_plastic(rng)
    body = _rounded(
        (w, h), _corners(mid_along, along, down, ((hi - lo) / 2, (up + below) / 2)), 0.08 * long_side
    )
    # Shading across the body (light from one side) and a little grain.
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    light_dir = rng.uniform(0, 2 * math.pi)
    shade = 1 + rng.uniform(0, 0.35) * (
        (xs - w / 2) * math.cos(light_dir) + (ys - h / 2) * math.sin(light_dir)
    ) / max(w, h)
    paint = colour[None, None] * shade[..., None] + rng.normal(0, rng.uniform(1, 4), (h, w, 1)).astype(
        np.float32
    )
    out = out * (1 - body[..., None]) + paint * body[..., None]
    blanks: list[np.ndarray] = [
        first - along * pitch * rng.uniform(0.95, 1.15),
        first + along * pitch * (slots - 1 + rng.uniform(0.95, 1.15)),
    ]
    for end in blanks:
        if rng.random() < 0.5:  # an end cap a shade off the body, a tile's size
            cap = _rounded(
                (w, h),
                _corners(
                    end,
                    along,
                    down,
                    (short_side * rng.uniform(0.4, 0.55), long_side * rng.uniform(0.45, 0.6)),
                ),
                0.1 * long_side,
            )
            tone = np.clip(colour * rng.uniform(0.7, 1.5) + rng.uniform(-8, 12), 0, 255)
            out = out * (1 - cap[..., None]) + tone[None, None] * shade[..., None] * cap[..., None]
    tiles: list[tuple[np.ndarray, int]] = []
    src = np.array([(0, 0), (faces.shape[2] - 1, 0), (faces.shape[2] - 1, faces.shape[1] - 1)], np.float32)
    for k in range(slots):
        slot = first + along * pitch * k + down * rng.normal(0, 0.02 * long_side)
        if k == gap:
            blanks.append(slot)
            continue
        own = t + math.radians(rng.normal(0, 1.5))
        a, d = np.array((math.cos(own), math.sin(own))), np.array((-math.sin(own), math.cos(own)))
        corners = _corners(slot, a, d, (short_side / 2, long_side / 2))
        i = int(rng.integers(len(labels)))
        face = faces[i] if rng.random() < 0.5 else faces[i][::-1, ::-1]
        m = cv2.getAffineTransform(src, corners[:3])
        warped = cv2.warpAffine(face, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
        alpha = cv2.warpAffine(np.ones(face.shape[:2], np.float32), m, (w, h))[..., None]
        out = out * (1 - alpha) + warped * alpha
        tiles.append((corners, int(labels[i])))
    inset = 0.3 * short_side
    inside = [
        (float(b[0]), float(b[1])) for b in blanks if inset <= b[0] < w - inset and inset <= b[1] < h - inset
    ]
    return np.clip(out, 0, 255).astype(np.uint8), Rack(tiles, inside, long_side, short_side, turn)
