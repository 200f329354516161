"""Synthetic top-down scenes of dice with exact ground truth, for tests and the simulator's camera.

Scenes are plumbing aids: accuracy is measured on real photographs (``referee vision eval-dice``).

>>> frame, truth = render_dice_scene((6, 6, 1), seed=7)
>>> frame.shape, truth.values
((720, 1280, 3), (6, 6, 1))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

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
