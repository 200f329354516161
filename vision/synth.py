"""Synthetic top-down scenes of dice and of Rummikub tables with exact ground truth, for tests and the
simulator's camera.

Scenes are plumbing aids: accuracy is measured on real photographs (``referee vision eval-dice``,
``eval-tiles``).

>>> frame, truth = render_dice_scene((6, 6, 1), seed=7)
>>> frame.shape, truth.values
((720, 1280, 3), (6, 6, 1))
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from rules.rummikub.tiles import JOKER, Tile
from vision.calibration import CORNER_IDS, marker_image

# Pip positions on a unit face (-1..1), per value.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
# (body, pips) in BGR: white/black, red/white, green/white, blue/white, black/white, ivory/red.
STYLES = (
    ((235, 238, 240), (25, 25, 25)),
    ((40, 40, 200), (245, 245, 245)),
    ((60, 150, 40), (245, 245, 245)),
    ((150, 60, 20), (240, 240, 240)),
    ((35, 35, 35), (235, 235, 235)),
    ((200, 235, 245), (40, 40, 190)),
)
HOLD_FRACTION = 0.8  # the hold zone is the play area's bottom fifth, as in Calibration.from_markers
MARKER_SIDE = 90
MARKER_INSET = 40


@dataclass(frozen=True)
class SyntheticDie:
    value: int
    center: tuple[float, float]
    size: float
    angle: float
    held: bool


@dataclass(frozen=True)
class SceneTruth:
    """What a scene shows: each die, and (with markers) the play area's corners in the frame."""

    dice: tuple[SyntheticDie, ...]
    play_corners: tuple[tuple[float, float], ...] | None

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.dice)


def _die_patch(value: int, side: int, style: tuple[tuple[int, int, int], tuple[int, int, int]]) -> np.ndarray:
    """An upright die face, ``side`` px, with a soft edge, as BGRA (alpha = the rounded square)."""
    body, pip = style
    patch = np.zeros((side, side, 4), np.uint8)
    r = side // 7
    mask = np.zeros((side, side), np.uint8)
    cv2.rectangle(mask, (r, 0), (side - 1 - r, side - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (side - 1, side - 1 - r), 255, -1)
    for cx, cy in ((r, r), (side - 1 - r, r), (r, side - 1 - r), (side - 1 - r, side - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    patch[..., :3] = body
    # Edge shading: the bevel of a real die catches less light than its face.
    dist = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, 3)
    shade = np.clip(0.75 + 0.25 * dist / max(1.0, side * 0.08), 0.75, 1.0)
    patch[..., :3] = (patch[..., :3].astype(np.float32) * shade[..., None]).astype(np.uint8)
    spacing = side * 0.27
    radius = max(1, round(side * (0.11 if value == 1 else 0.085)))
    c = (side - 1) / 2
    for px, py in PIPS[value]:
        centre = (round((c + px * spacing) * 16), round((c + py * spacing) * 16))
        cv2.circle(patch, centre, radius * 16, (*pip, 255), -1, cv2.LINE_AA, shift=4)
    patch[..., 3] = mask
    return patch


def _paste(frame: np.ndarray, patch: np.ndarray, center: tuple[float, float], angle: float) -> None:
    side = patch.shape[0]
    m = cv2.getRotationMatrix2D(((side - 1) / 2, (side - 1) / 2), angle, 1.0)
    m[:, 2] += (center[0] - (side - 1) / 2, center[1] - (side - 1) / 2)
    h, w = frame.shape[:2]
    warped = cv2.warpAffine(patch, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3].astype(np.float32) / 255.0
    # A soft shadow down-right of the die.
    shadow = cv2.GaussianBlur(np.roll(alpha, (side // 12, side // 12), axis=(0, 1)), (0, 0), side / 14)
    frame[:] = (frame * (1 - 0.35 * shadow[..., None])).astype(np.uint8)
    frame[:] = (frame * (1 - alpha[..., None]) + warped[..., :3] * alpha[..., None]).astype(np.uint8)


def _background(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = size
    base = np.array(rng.choice([(95, 120, 150), (120, 120, 120), (70, 110, 60), (200, 200, 205)]), np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 0.85 + 0.25 * (xs / w * rng.uniform(-1, 1) + ys / h * rng.uniform(-1, 1))
    noise = cv2.GaussianBlur(rng.normal(0, 10, (h, w)).astype(np.float32), (0, 0), 3)
    frame = base[None, None, :] * light[..., None] + noise[..., None]
    return np.clip(frame, 0, 255).astype(np.uint8)


def _place(
    count: int, area: tuple[float, float, float, float], size: float, rng: np.random.Generator
) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = area
    placed: list[tuple[float, float]] = []
    for _ in range(count):
        for _attempt in range(500):
            p = (rng.uniform(x0 + size, x1 - size), rng.uniform(y0 + size, y1 - size))
            if all(math.hypot(p[0] - q[0], p[1] - q[1]) > 1.6 * size for q in placed):
                placed.append(p)
                break
        else:
            raise ValueError(f"no room for {count} dice of {size:.0f} px apart in the area {area}")
    return placed


def render_dice_scene(
    values: Sequence[int],
    rng: np.random.Generator | None = None,
    *,
    seed: int = 0,
    size: tuple[int, int] = (1280, 720),
    markers: bool = False,
    held: Sequence[bool] | None = None,
    die_size: float | None = None,
    positions: Sequence[tuple[float, float]] | None = None,
    angles: Sequence[float] | None = None,
    style: int | None = None,
    noise: float = 3.0,
) -> tuple[np.ndarray, SceneTruth]:
    """A top-down BGR frame of dice showing ``values`` and its exact ground truth.

    ``held[i]`` puts die *i* in the hold zone (the bottom fifth of the play area); ``markers`` draws the
    four ArUco corner markers (the play area is then the quadrilateral of their centres). Positions,
    angles, die size and colour style are random (from ``rng`` or ``seed``) unless given.
    """
    if any(v not in PIPS for v in values):
        raise ValueError(f"die values must be 1..6; got {list(values)}")
    rng = rng if rng is not None else np.random.default_rng(seed)
    w, h = size
    frame = _background(size, rng)
    side = float(die_size if die_size is not None else rng.uniform(0.095, 0.12) * min(w, h))
    inset = MARKER_INSET + MARKER_SIDE / 2 if markers else 0.0
    play = (inset, inset, w - inset, h - inset)
    hold_top = play[1] + HOLD_FRACTION * (play[3] - play[1])
    flags = list(held) if held is not None else [False] * len(values)
    if len(flags) != len(values):
        raise ValueError(f"held has {len(flags)} entries for {len(values)} dice")
    if positions is None:
        margin = MARKER_SIDE if markers else 0.0
        rolled_area = (play[0] + margin, play[1] + margin, play[2] - margin, hold_top - side * 0.2)
        hold_area = (play[0] + margin, hold_top - side * 0.6, play[2] - margin, play[3] + side * 0.6)
        free = iter(_place(flags.count(False), rolled_area, side, rng))
        kept = iter(_place(flags.count(True), hold_area, side, rng))
        positions = [next(kept) if f else next(free) for f in flags]
    dice = []
    for i, (value, centre) in enumerate(zip(values, positions, strict=True)):
        angle = float(angles[i]) if angles is not None else float(rng.uniform(-45, 45))
        colours = STYLES[style if style is not None else int(rng.integers(len(STYLES)))]
        _paste(frame, _die_patch(value, round(side), colours), centre, angle)
        in_hold = play[1] + HOLD_FRACTION * (play[3] - play[1]) <= centre[1] <= play[3]
        dice.append(SyntheticDie(value, (float(centre[0]), float(centre[1])), side, angle, in_hold))
    corners = None
    if markers:
        for marker_id, (cx, cy) in zip(CORNER_IDS, _marker_centres(size), strict=True):
            quiet = MARKER_SIDE // 6
            x0, y0 = round(cx - MARKER_SIDE / 2), round(cy - MARKER_SIDE / 2)
            cv2.rectangle(
                frame,
                (x0 - quiet, y0 - quiet),
                (x0 + MARKER_SIDE + quiet, y0 + MARKER_SIDE + quiet),
                (255, 255, 255),
                -1,
            )
            frame[y0 : y0 + MARKER_SIDE, x0 : x0 + MARKER_SIDE] = marker_image(marker_id, MARKER_SIDE)[
                ..., None
            ]
        corners = tuple(_marker_centres(size))
    if noise > 0:
        grain = rng.normal(0, noise, frame.shape).astype(np.float32)
        frame = np.clip(frame.astype(np.float32) + grain, 0, 255).astype(np.uint8)
    return frame, SceneTruth(tuple(dice), corners)


def _marker_centres(size: tuple[int, int]) -> list[tuple[float, float]]:
    w, h = size
    c = MARKER_INSET + MARKER_SIDE / 2
    return [(c, c), (w - c, c), (w - c, h - c), (c, h - c)]


# ---------------------------------------------------------------- Rummikub tiles and tables

TILE_ASPECT = 0.72  # a tile's short side / long side (the real ones are about 26 × 36 mm)
# The tile numbers' glyphs (written by ``python -m training.glyphs``): drawn from an atlas rather than
# by ``cv2.putText``, whose letters differ between OpenCV 4.x and 5.x, so a rendered table looks the same
# on both (the Pi runs 4.11).
GLYPHS = Path(__file__).parent / "data" / "tile_digits"
REF_LONG = 240  # px: the reference tile's long side the atlas was drawn on


@functools.cache
def _glyph_atlas() -> tuple[np.ndarray, dict[str, dict[str, list[int]]]]:
    atlas = cv2.imread(str(GLYPHS.with_suffix(".png")), cv2.IMREAD_GRAYSCALE)
    if atlas is None:
        raise FileNotFoundError(f"{GLYPHS.with_suffix('.png')}: the glyph atlas is missing")
    meta = json.loads(GLYPHS.with_suffix(".json").read_text())
    return atlas, meta["glyphs"]


def _paint_number(patch: np.ndarray, text: str, ink: tuple[int, int, int]) -> None:
    """Paint ``text`` (a tile number) in ``ink`` on an upright BGRA tile patch, from the glyph atlas."""
    atlas, boxes = _glyph_atlas()
    ax, ay, aw, ah = boxes[text]["atlas"]
    tx, ty, tw, th = boxes[text]["tile"]
    f = patch.shape[0] / REF_LONG
    x0, y0 = round(tx * f), round(ty * f)
    x1, y1 = min(patch.shape[1], max(x0 + 1, round((tx + tw) * f))), max(y0 + 1, round((ty + th) * f))
    mask = cv2.resize(atlas[ay : ay + ah, ax : ax + aw], (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    a = (mask.astype(np.float32) / 255.0)[..., None]
    region = patch[y0:y1, x0:x1, :3].astype(np.float32)
    patch[y0:y1, x0:x1, :3] = np.clip(region * (1 - a) + np.array(ink, np.float32) * a + 0.5, 0, 255).astype(
        np.uint8
    )


def _warp_affine(patch: np.ndarray, m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``cv2.warpAffine(patch, m, size, INTER_LINEAR)`` with a transparent border, in numpy floats:
    OpenCV 4.11 and 5.x round their fixed-point interpolation differently, this gives the same pixels on
    both."""
    w, h = size
    inv = cv2.invertAffineTransform(m)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    sx = inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]
    sy = inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]
    x0, y0 = np.floor(sx).astype(np.int64), np.floor(sy).astype(np.int64)
    fx, fy = (sx - x0)[..., None], (sy - y0)[..., None]
    ph, pw = patch.shape[:2]
    padded = np.zeros((ph + 2, pw + 2, patch.shape[2]), np.float64)
    padded[1:-1, 1:-1] = patch
    xi, yi = np.clip(x0 + 1, 0, pw + 1), np.clip(y0 + 1, 0, ph + 1)
    xj, yj = np.clip(x0 + 2, 0, pw + 1), np.clip(y0 + 2, 0, ph + 1)
    out = (padded[yi, xi] * (1 - fx) + padded[yi, xj] * fx) * (1 - fy)
    out += (padded[yj, xi] * (1 - fx) + padded[yj, xj] * fx) * fy
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


# Number colours in BGR, as printed: red, blue, black, orange (a yellow-orange).
TILE_INK = {"R": (40, 40, 205), "B": (190, 95, 20), "K": (35, 30, 30), "O": (40, 145, 245)}
BACKGROUNDS = ("wood", "white", "marble", "fabric")


@dataclass(frozen=True)
class SyntheticTile:
    """One rendered tile: what it is, its centre, long side (px), turn (degrees, 0 = upright) and corners.

    ``corners`` run top-left, top-right, bottom-right, bottom-left of the upright tile, in the frame.
    """

    tile: Tile
    center: tuple[float, float]
    size: float
    angle: float
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class TableTruth:
    """What a rendered table shows: every tile, the melds (tile indices in order along the line), the
    indices of the loose tiles and of the tiles of a rack laid face up in its area (``rack``)."""

    tiles: tuple[SyntheticTile, ...]
    melds: tuple[tuple[int, ...], ...]
    loose: tuple[int, ...]
    rack: tuple[int, ...] = ()

    @property
    def names(self) -> list[str]:
        return [str(t.tile) for t in self.tiles]

    def meld_tiles(self) -> list[list[Tile]]:
        return [[self.tiles[i].tile for i in meld] for meld in self.melds]


def render_tile(
    tile: Tile, long_side: int, rng: np.random.Generator | None = None, face_down: bool = False
) -> np.ndarray:
    """An upright tile face (portrait), ``long_side`` px tall, as BGRA with rounded corners.

    The number (or the joker's face) sits in the upper two thirds; a pale maker's mark at the foot tells
    which way is up, as on the real tiles (so a 6 and a 9 differ by more than their turn). A tile lying
    ``face_down`` shows its blank back.
    """
    rng = rng if rng is not None else np.random.default_rng(0)
    h = int(long_side)
    w = max(8, round(h * TILE_ASPECT))
    patch = np.zeros((h, w, 4), np.uint8)
    face = np.array((228, 238, 242), np.float32) + rng.uniform(-10, 8) + rng.uniform(-3, 3, 3)
    patch[..., :3] = np.clip(face, 0, 255).astype(np.uint8)
    mask = np.zeros((h, w), np.uint8)
    r = max(2, w // 9)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    dist = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, 3)
    shade = np.clip(0.8 + 0.2 * dist / max(1.0, w * 0.1), 0.8, 1.0)
    patch[..., :3] = (patch[..., :3].astype(np.float32) * shade[..., None]).astype(np.uint8)
    centre = (w / 2, h * 0.40)
    if face_down:
        patch[..., 3] = mask
        return patch
    if tile.is_joker:
        ink = TILE_INK["R"] if rng.random() < 0.5 else TILE_INK["K"]
        radius = w * 0.32
        c = (round(centre[0]), round(centre[1]))
        thick = max(1, round(w / 18))
        cv2.circle(patch, c, round(radius), (*ink, 255), thick, cv2.LINE_AA)
        for dx in (-0.35, 0.35):
            eye = (round(centre[0] + dx * radius), round(centre[1] - 0.25 * radius))
            cv2.circle(patch, eye, max(1, round(radius * 0.12)), (*ink, 255), -1, cv2.LINE_AA)
        cv2.ellipse(
            patch, (c[0], round(centre[1] + 0.1 * radius)), (round(radius * 0.5), round(radius * 0.4)),
            0, 20, 160, (*ink, 255), thick, cv2.LINE_AA,
        )  # fmt: skip
    else:
        _paint_number(patch, str(tile.number), TILE_INK[tile.colour])
    # The maker's mark: a pale tan word-like stroke and a ring above it, low on the face.
    mark = (170, 200, 225)
    foot = h * 0.80
    cv2.ellipse(
        patch, (round(w / 2), round(foot)), (round(w * 0.28), max(1, round(h * 0.035))), 0, 0, 360,
        (*mark, 255), max(1, round(h / 45)), cv2.LINE_AA,
    )  # fmt: skip
    patch[..., 3] = mask
    return patch


def _paste_tile(frame: np.ndarray, patch: np.ndarray, center: tuple[float, float], angle: float) -> None:
    """Paste ``patch`` (BGRA) centred at ``center``, turned ``angle`` degrees clockwise on screen."""
    ph, pw = patch.shape[:2]
    m = cv2.getRotationMatrix2D(((pw - 1) / 2, (ph - 1) / 2), -angle, 1.0)
    m[:, 2] += (center[0] - (pw - 1) / 2, center[1] - (ph - 1) / 2)
    h, w = frame.shape[:2]
    reach = int(max(ph, pw) * 0.8) + 4
    x0, y0 = max(0, int(center[0]) - reach), max(0, int(center[1]) - reach)
    x1, y1 = min(w, int(center[0]) + reach), min(h, int(center[1]) + reach)
    if x0 >= x1 or y0 >= y1:
        return
    m[:, 2] -= (x0, y0)
    warped = _warp_affine(patch, m, (x1 - x0, y1 - y0))
    alpha = warped[..., 3].astype(np.float32) / 255.0
    region = frame[y0:y1, x0:x1].astype(np.float32)
    shadow = cv2.GaussianBlur(np.roll(alpha, (ph // 25 + 1, ph // 25 + 1), axis=(0, 1)), (0, 0), ph / 30)
    region *= 1 - 0.3 * shadow[..., None]
    region = region * (1 - alpha[..., None]) + warped[..., :3].astype(np.float32) * alpha[..., None]
    frame[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)


def tile_corners(center: tuple[float, float], size: float, angle: float) -> tuple[tuple[float, float], ...]:
    """Corners (top-left, top-right, bottom-right, bottom-left of the upright tile) of a tile turned
    ``angle`` degrees clockwise on screen."""
    t = math.radians(angle)
    ux, uy = math.cos(t), math.sin(t)  # the tile's "right" direction on screen
    vx, vy = -math.sin(t), math.cos(t)  # its "down"
    hw, hh = size * TILE_ASPECT / 2, size / 2
    cx, cy = center
    return tuple(
        (cx + sx * hw * ux + sy * hh * vx, cy + sx * hw * uy + sy * hh * vy)
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    )


def table_background(size: tuple[int, int], kind: str, rng: np.random.Generator) -> np.ndarray:
    """A table top: ``wood`` grain, ``white``, ``marble`` veins or ``fabric`` weave, lit unevenly."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        base = np.array(rng.choice([(40, 75, 120), (60, 100, 150), (30, 55, 90)]), np.float32)
        phase = rng.uniform(0, 6)
        wobble = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (w, h)) * 18
        grain = np.sin((ys + wobble) / rng.uniform(5, 14) + phase) * 0.08 + 1.0
        img = base[None, None] * grain[..., None]
    elif kind == "white":
        img = np.full((h, w, 3), rng.uniform(215, 245), np.float32)
    elif kind == "marble":
        img = np.full((h, w, 3), rng.uniform(205, 235), np.float32)
        field = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        veins = np.exp(-np.abs(np.sin(field * 3 + xs / w * 4)) * 25)
        img -= (veins * rng.uniform(50, 110))[..., None]
    elif kind == "fabric":
        base = np.array(rng.choice([(150, 150, 150), (120, 90, 60), (80, 110, 90)]), np.float32)
        weave = (np.sin(xs * 1.3) * np.sin(ys * 1.3)) * 18
        img = base[None, None] + weave[..., None] + rng.normal(0, 14, (h, w, 1))
    else:
        raise ValueError(f"unknown background {kind!r}; one of {', '.join(BACKGROUNDS)}")
    light = 0.85 + 0.2 * (xs / w * rng.uniform(-1, 1) + ys / h * rng.uniform(-1, 1))
    img = img * light[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def warm_light(frame: np.ndarray, amount: float) -> np.ndarray:
    """Indoor (tungsten) light: blue down, red up by ``amount`` (0 = daylight)."""
    gains = np.array((1 - 0.35 * amount, 1 - 0.08 * amount, 1 + 0.1 * amount), np.float32)
    return np.clip(frame.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def render_table(
    melds: Sequence[Sequence[Tile]],
    loose: Sequence[Tile] = (),
    rng: np.random.Generator | None = None,
    *,
    seed: int = 0,
    size: tuple[int, int] = (1920, 1080),
    tile_size: float | None = None,
    rows: Sequence[Sequence[int]] | None = None,
    angle: float | None = None,
    gap: float = 0.6,
    row_gap: float = 0.25,
    background: str | None = None,
    warm: float | None = None,
    face_down: int = 0,
    noise: float = 3.0,
    tilts: Mapping[tuple[int, int], float] | None = None,
    rack: Sequence[Tile] = (),
    rack_area: tuple[float, float, float, float] | None = None,
) -> tuple[np.ndarray, TableTruth]:
    """A top-down BGR frame of a Rummikub table and its exact ground truth.

    Melds are laid in rows, tiles edge to edge, in the given order; ``rows`` lists the meld indices of
    each row (default: as many per row as fit). Between two melds of a row lie ``gap`` tile widths; rows
    are ``row_gap`` tile heights apart. The whole layout is turned by ``angle`` degrees (random if None;
    upside down is allowed) and the loose tiles lie apart from all melds at their own turns. ``face_down``
    tiles (blank backs, not part of the truth) lie apart too. Warm light is ``warm`` (0 daylight, 1
    tungsten; random if None). ``tilts`` turns single tiles of the melds further (``(meld, position)``
    -> degrees: a tile laid crooked). ``rack_area`` (x0, y0, x1, y1 px: a strip along the frame's
    bottom, ``vision.tile_zones.rack_area``) keeps the table above it, and ``rack`` lies there face up in
    rows, upright, a little apart (a rack shown at a learning table). Raises ``ValueError`` when the
    layout does not fit the frame.
    """
    rng = rng if rng is not None else np.random.default_rng(seed)
    w, h = size
    table_size = size if rack_area is None else (w, int(rack_area[1]))
    kind = background if background is not None else str(rng.choice(BACKGROUNDS))
    frame = table_background(size, kind, rng)
    long_side = float(tile_size if tile_size is not None else rng.uniform(0.075, 0.11) * min(w, h))
    tw = long_side * TILE_ASPECT
    if rows is None:
        rows = []
        current: list[int] = []
        width = 0.0
        limit = 0.8 * w / tw
        for i, meld in enumerate(melds):
            need = len(meld) + (gap if current else 0)
            if current and width + need > limit:
                rows.append(current)
                current, width = [], 0.0
                need = len(meld)
            current.append(i)
            width += need
        if current:
            rows.append(current)
    # Layout in pixels before the turn: rows centred on the origin, x along the rows, y down.
    slots: list[tuple[int, int, float, float]] = []  # meld, position in meld, x, y
    pitch_y = long_side * (1 + row_gap)
    row_widths = [sum(len(melds[i]) for i in row) * tw + gap * tw * (len(row) - 1) for row in rows]
    top = -pitch_y * (len(rows) - 1) / 2
    for r, row in enumerate(rows):
        x = -row_widths[r] / 2 + tw / 2
        for i in row:
            for k in range(len(melds[i])):
                slots.append((i, k, x, top + r * pitch_y))
                x += tw
            x += gap * tw
    placed: list[SyntheticTile] | None = None
    order: dict[tuple[int, int], int] = {}
    # A random turn is drawn again (up to 40 times) until the layout fits the frame.
    for _attempt in range(1 if angle is not None else 40):
        turn = float(angle if angle is not None else rng.uniform(-180, 180))
        placed, order = _lay_out(melds, loose, slots, turn, long_side, table_size, rng, tilts=tilts or {})
        if placed is not None:
            break
    if placed is None:
        raise ValueError(f"the table does not fit a {w}×{h} frame at tile size {long_side:.0f} px")
    shown = len(placed)
    if rack:
        if rack_area is None:
            raise ValueError("a rack needs its area (rack_area)")
        placed.extend(_lay_rack(rack, rack_area, long_side, rng))
    for tile in placed:
        _paste_tile(frame, render_tile(tile.tile, round(long_side), rng), tile.center, tile.angle)
    backs = _lay_out([], [JOKER] * face_down, [], 0.0, long_side, table_size, rng, avoid=placed)[0]
    for back in backs or []:
        _paste_tile(
            frame, render_tile(back.tile, round(long_side), rng, face_down=True), back.center, back.angle
        )
    light = float(warm if warm is not None else (rng.uniform(0, 1) if rng.random() < 0.4 else 0.0))
    if light > 0:
        frame = warm_light(frame, light)
    if noise > 0:
        grain = rng.normal(0, noise, frame.shape).astype(np.float32)
        frame = np.clip(frame.astype(np.float32) + grain, 0, 255).astype(np.uint8)
    meld_index = tuple(tuple(order[(i, k)] for k in range(len(melds[i]))) for i in range(len(melds)))
    n = len(slots)
    return frame, TableTruth(
        tuple(placed), meld_index, tuple(range(n, n + len(loose))), tuple(range(shown, len(placed)))
    )


def _lay_rack(
    rack: Sequence[Tile], area: tuple[float, float, float, float], long_side: float, rng: np.random.Generator
) -> list[SyntheticTile]:
    """A rack laid face up in ``area`` as it stands on a rack: rows of upright tiles side by side (a
    hair apart), centred, a little crooked as a hand lays them — a row whose way up the reader tells a 6
    from a 9 by (tiles a fifth of a tile apart left a lone 6 or 9 unsure). Raises ``ValueError`` when it
    does not fit."""
    x0, y0, x1, y1 = area
    tw = long_side * TILE_ASPECT
    pitch = tw * 1.03
    per_row = int((x1 - x0 - tw) // pitch) + 1 if x1 - x0 >= tw * 1.1 else 0
    rows = math.ceil(len(rack) / per_row) if per_row else 0
    pitch_y = long_side * 1.15
    if not per_row or rows * pitch_y > (y1 - y0) - 0.1 * long_side:
        raise ValueError(f"a rack of {len(rack)} tiles does not fit its area at tile size {long_side:.0f} px")
    out = []
    top = (y0 + y1) / 2 - pitch_y * (rows - 1) / 2
    for r in range(rows):
        row = rack[r * per_row : (r + 1) * per_row]
        left = (x0 + x1) / 2 - pitch * (len(row) - 1) / 2
        for k, tile in enumerate(row):
            jitter = rng.normal(0, 1.0, 2)
            center = (left + k * pitch + float(jitter[0]), top + r * pitch_y + float(jitter[1]))
            angle = float(rng.normal(0, 2.0))
            out.append(SyntheticTile(tile, center, long_side, angle, tile_corners(center, long_side, angle)))
    return out


def _lay_out(
    melds: Sequence[Sequence[Tile]],
    loose: Sequence[Tile],
    slots: list[tuple[int, int, float, float]],
    turn: float,
    long_side: float,
    size: tuple[int, int],
    rng: np.random.Generator,
    avoid: Sequence[SyntheticTile] = (),
    tilts: Mapping[tuple[int, int], float] | None = None,
) -> tuple[list[SyntheticTile] | None, dict[tuple[int, int], int]]:
    """The tiles of ``slots`` turned by ``turn`` about a point near the centre, and the loose ones apart
    from them; ``None`` when something would leave the frame."""
    w, h = size
    t = math.radians(turn)
    cx, cy = w / 2 + rng.uniform(-0.05, 0.05) * w, h / 2 + rng.uniform(-0.05, 0.05) * h
    placed: list[SyntheticTile] = []
    order: dict[tuple[int, int], int] = {}
    for i, k, x, y in slots:
        jitter = rng.normal(0, 0.6, 2)
        px = cx + x * math.cos(t) - y * math.sin(t) + jitter[0]
        py = cy + x * math.sin(t) + y * math.cos(t) + jitter[1]
        a = turn + float(rng.normal(0, 1.0)) + (tilts or {}).get((i, k), 0.0)
        order[(i, k)] = len(placed)
        placed.append(
            SyntheticTile(melds[i][k], (px, py), long_side, a, tile_corners((px, py), long_side, a))
        )
    for tile in loose:
        for _attempt in range(400):
            p = (rng.uniform(long_side, w - long_side), rng.uniform(long_side, h - long_side))
            if all(
                math.hypot(p[0] - q.center[0], p[1] - q.center[1]) > 1.9 * long_side
                for q in (*placed, *avoid)
            ):
                break
        else:
            return None, order
        a = float(rng.uniform(-180, 180))
        placed.append(SyntheticTile(tile, p, long_side, a, tile_corners(p, long_side, a)))
    margin = 2
    for seen in placed:
        if any(not (margin <= x < w - margin and margin <= y < h - margin) for x, y in seen.corners):
            return None, order
    return placed, order


TABLE_KINDS = ("square", "tilt", "warm", "backgrounds")


def random_melds(rng: random.Random, tiles: int) -> list[list[Tile]]:
    """Valid runs and groups until the table holds about ``tiles`` tiles (duplicates as in a set of two)."""
    melds: list[list[Tile]] = []
    while sum(map(len, melds)) < tiles:
        if rng.random() < 0.5:
            colour, first = rng.choice("RBKO"), rng.randint(1, 10)
            length = rng.randint(3, min(5, 14 - first))
            melds.append([Tile.parse(f"{colour}{n}") for n in range(first, first + length)])
        else:
            number = rng.randint(1, 13)
            melds.append([Tile.parse(f"{c}{number}") for c in rng.sample("RBKO", rng.choice((3, 4)))])
    return melds


def bench_table(kind: str, n: int, seed: int) -> tuple[np.ndarray, TableTruth]:
    """Table ``n`` of a kind of ``TABLE_KINDS`` at a real table's scale (1920×1080, 96 px tiles, a tile
    between melds, half a tile between rows; 20, 40, 60 or 90 tiles): ``square`` (square to the camera),
    ``tilt`` (turned up to 12°, one tile in five up to 8° crooked), ``warm`` (tungsten 0.7–1.0) or
    ``backgrounds`` (wood, white, marble, fabric in turn, turned up to 5°). The same for the same
    arguments; ``bench/tiles_tables.py`` scores the reader on them and the tile training calibrates on
    other seeds."""
    rng = random.Random(seed * 7919 + n * 31 + TABLE_KINDS.index(kind))
    size = (20, 40, 60, 90)[n % 4]
    while True:
        melds = random_melds(rng, size)
        options: dict[str, Any] = {"angle": 0.0}
        if kind == "tilt":
            tilts = {
                (m, p): rng.uniform(-8, 8)
                for m, meld in enumerate(melds)
                for p in range(len(meld))
                if rng.random() < 0.2
            }
            options = {"angle": rng.uniform(-12, 12), "tilts": tilts}
        elif kind == "warm":
            options = {"angle": 0.0, "warm": rng.uniform(0.7, 1.0)}
        elif kind == "backgrounds":
            options = {"angle": rng.uniform(-5, 5), "background": BACKGROUNDS[n % len(BACKGROUNDS)]}
        try:
            return render_table(
                melds,
                seed=seed + n * 4 + TABLE_KINDS.index(kind),
                size=(1920, 1080),
                tile_size=96,
                gap=1.0,
                row_gap=0.5,
                **options,
            )
        except ValueError:
            size = max(12, size - 6)  # the layout did not fit: a smaller table
