"""Train the dice reader's two small networks on the shared photo datasets and export them to ONNX.

    python -m training.dice --data ../shared/datasets --out vision/models

1. **Detector**: a tiny fully-convolutional CenterNet. The image is scaled so its long side is
   ``NET_LONG`` pixels; at stride 4 it predicts a heatmap of top-face centres, the face size (log pixels)
   and the sub-cell offset of the centre.
2. **Classifier**: a small CNN on a ``CROP``×``CROP`` crop around each detected centre (side
   ``MARGIN`` × size, cut from the full-resolution frame) with seven classes: pips 1–6 and "not a die".
3. **Calibration**: the exported pair runs through the real reader (``vision.dice``) on the ``calib``
   split; the softmax temperature is fitted by likelihood, and the confidence threshold (on the value's
   probability times the detector's score) is the lowest at which at most ``--wrong-share`` (1 in 200)
   of the confident calib dice are wrong.

The ``fit`` split is trained on, and with ``--learn fit,val`` the ``val`` split too (session 7 of issue 32:
the shipped nets may learn from both; ``training.learn_splits`` refuses ``calib``); ``calib`` sets
temperature and threshold and is the split reported as unseen (see ``vision.dataset``). Seeds are
fixed; torch runs on ``--threads`` threads.

Box conventions: ``dice-tray`` boxes are whole dice (top-down, so the box is the die's face);
``dice-webcam`` boxes cover only the pips of the top face, so the face size is estimated from the pip box
with a per-value ratio (the pips of a 1 span far less of the face than those of a 6).
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
from torch import nn

from training.common import (
    Detector,
    DetectorSample,
    arguments,
    cbr,
    credits,
    export,
    fit_classifier,
    fit_detector,
    fit_temperature,
    match_labels,
    photometric,
    prepare,
    write_config,
)
from training.learn_splits import learned_phrase, learned_splits
from training.motion_blur import share, smeared
from training.second_opinions import second_opinions
from vision.dataset import LabelledImage, load_folder
from vision.dice import fixed

NET_LONG = 384
STRIDE = 4
CROP = 44
MARGIN = 1.35
# The split by file name before issue 32 held out these first buckets of 100 (val 24, calib 15).
OLD_HELD_OUT = 39
NOT_A_DIE = 6
# The reader averages two quarter turns of each crop, and all four for crops whose two turns disagree
# or whose top probability is below this (see ``vision.dice``).
RECHECK_BELOW = 0.97
# ... and with it the mirrored crop at all four turns (``vision.dice.DiceModels.classify``).
MIRROR = True
# The share of each real set's dice, by pip contrast, that ``--hard`` oversamples (``faint_dice``).
HARD_QUANTILE = 0.25
# Face size / pip-box size for webcam labels, per value (1..6): medians over the set's dice.
WEBCAM_FACE_RATIO = (2.5, 1.8, 1.6, 1.55, 1.6, 1.35)
DATASETS = {"dice-tray": "face", "dice-webcam": "pips"}
CREDIT = """Dice reader models (dice_detector.onnx, dice_classifier.onnx, dice_reader.json)

Trained by training/dice.py on {learned} of two public photo sets:
- dice-tray: github.com/nell-byler/dice_detection, BSD-3-Clause, (c) 2019 Nell Byler
- dice-webcam: github.com/matteop65/Dice_Detection_Recognition, MIT, (c) 2021 Matteo Anthony Penlington
plus scenes rendered by vision/synth.py. The models are derived from those photographs; keep this
notice with them.
"""


@dataclass(frozen=True)
class Die:
    """A labelled die in original image pixels: face centre, face size, value 1..6."""

    x: float
    y: float
    size: float
    value: int


@dataclass
class Photo:
    image: np.ndarray
    dice: list[Die]


def labelled(data: Path, name: str, split: str) -> list[LabelledImage]:
    """A photo set's images of one split, with the corrected labels."""
    return [fixed(item) for item in load_folder(data / name, split)]  # type: ignore[arg-type]


def unseen_by_name(image: str) -> bool:
    """Whether the split by file name that the readers used before issue 32 (an MD5 of the name: the
    first 24 of 100 buckets val, the next 15 calib, the rest fit) kept the photo out of training."""
    return int(hashlib.md5(Path(image).name.encode("utf-8")).hexdigest(), 16) % 100 < OLD_HELD_OUT


def calibration_items(data: Path, name: str, by_name: bool = False) -> list[LabelledImage]:
    """The photos a set's calibration is fitted on (corrected labels): the calib split; or, ``by_name``,
    for nets trained on the split by file name, every photo outside val that split never trained on."""
    if not by_name:
        return labelled(data, name, "calib")
    return [
        item for item in labelled(data, name, "all") if item.split != "val" and unseen_by_name(item.path.name)
    ]


def photo_of(item: LabelledImage, name: str) -> Photo:
    return Photo(cv2.imread(str(item.path)), list(_dice_of(item, DATASETS[name])))


def load_photos(data: Path, split: str, *more: str) -> dict[str, list[Photo]]:
    """Each photo set's photos of ``split`` (and of the ``more`` splits after them)."""
    return {
        name: [photo_of(item, name) for part in (split, *more) for item in labelled(data, name, part)]
        for name in DATASETS
    }


def synthetic_photos(count: int, seed: int) -> list[Photo]:
    """Rendered scenes (``vision.synth``): the simulator's camera shows these, so the reader must too."""
    from vision.synth import render_dice_scene

    rng = np.random.default_rng(seed + 7)
    photos = []
    for _ in range(count):
        size = (int(rng.integers(640, 1281)), int(rng.integers(400, 721)))
        die = float(rng.uniform(0.06, 0.16) * min(size))
        values = rng.integers(1, 7, int(rng.integers(0, 9))).tolist()
        positions = angles = None
        if values and rng.random() < 0.4:
            # A cluster of touching dice: a rough grid with gaps of 0-4 px and small turns.
            columns = int(rng.integers(1, 4))
            x0, y0 = rng.uniform(die, size[0] - 4 * die), rng.uniform(die, size[1] - 3.5 * die)
            pitch = die + rng.uniform(0, 4)
            positions = [
                (x0 + (i % columns) * pitch, y0 + (i // columns) * pitch) for i in range(len(values))
            ]
            positions = [p for p in positions if p[0] < size[0] - die and p[1] < size[1] - die]
            values = values[: len(positions)]
            angles = rng.uniform(-6, 6, len(values)).tolist()
        try:
            frame, truth = render_dice_scene(
                values,
                rng,
                size=size,
                die_size=die,
                positions=positions,
                angles=angles,
                markers=positions is None and rng.random() < 0.3,
            )
        except ValueError:  # no room for that many dice of that size: draw another scene
            continue
        # Like the tray labels, a die's size is its axis-aligned extent.
        dice = [
            Die(
                d.center[0],
                d.center[1],
                d.size * (abs(math.cos(math.radians(d.angle))) + abs(math.sin(math.radians(d.angle)))),
                d.value,
            )
            for d in truth.dice
        ]
        photos.append(Photo(frame, dice))
    return photos


def _dice_of(item: LabelledImage, convention: str) -> list[Die]:
    dice = []
    for box in item.boxes:
        size = max(box.w, box.h)
        if convention == "pips":
            size *= WEBCAM_FACE_RATIO[box.cls]
        dice.append(Die(box.cx, box.cy, size, box.cls + 1))
    return dice


# ---------------------------------------------------------------- augmentation


def _affine(cx: float, cy: float, scale: float, angle: float, flip: bool, out_size: int) -> np.ndarray:
    """2×3 matrix taking (cx, cy) of the source to the centre of an ``out_size`` square output."""
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[:, 2] += (out_size / 2 - cx, out_size / 2 - cy)
    if flip:
        m = np.array([[-1, 0, out_size], [0, 1, 0]], np.float64) @ np.vstack([m, [0, 0, 1]])
    return m


# ---------------------------------------------------------------- networks


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            cbr(3, 16),
            cbr(16, 32, 2),
            cbr(32, 32),
            nn.MaxPool2d(2),
            cbr(32, 64),
            cbr(64, 64),
            nn.MaxPool2d(2),
            cbr(64, 96),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(96, 7),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


# ---------------------------------------------------------------- detector training


def _detector_sample(photo: Photo, rng: np.random.Generator, out: int) -> tuple[np.ndarray, list[Die]]:
    h, w = photo.image.shape[:2]
    scale = NET_LONG / max(h, w) * math.exp(rng.uniform(math.log(0.55), math.log(1.7)))
    if photo.dice and rng.random() < 0.7:
        d = photo.dice[rng.integers(len(photo.dice))]
        cx, cy = d.x + rng.uniform(-0.4, 0.4) * out / scale, d.y + rng.uniform(-0.4, 0.4) * out / scale
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    angle = rng.uniform(0, 360) if rng.random() < 0.8 else 0.0
    m = _affine(cx, cy, scale, angle, bool(rng.random() < 0.5), out)
    border = tuple(int(v) for v in rng.integers(0, 256, 3))
    img = cv2.warpAffine(photo.image, m, (out, out), flags=cv2.INTER_AREA, borderValue=border)
    dice = []
    for d in photo.dice:
        x, y = m @ np.array([d.x, d.y, 1.0])
        if 0 <= x < out and 0 <= y < out:
            dice.append(Die(float(x), float(y), d.size * scale, d.value))
    return photometric(img, rng), dice


def _detector_targets(dice: list[Die], out: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g = out // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((3, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for d in dice:
        x, y = d.x / STRIDE, d.y / STRIDE
        sigma = max(0.7, d.size / STRIDE * 0.18)
        heat = np.maximum(heat, np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * sigma**2)))
        ix, iy = min(int(x), g - 1), min(int(y), g - 1)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(d.size), x - ix, y - iy)
        mask[iy, ix] = 1.0
    return heat, reg, mask


def dice_bank(photos: list[Photo]) -> list[tuple[np.ndarray, int]]:
    """The fit tray photos' dice cut out square (the labelled box is the die's extent seen from above),
    with their values: what ``lay_dice`` lays side by side."""
    bank = []
    for photo in photos:
        h, w = photo.image.shape[:2]
        for d in photo.dice:
            r = d.size / 2
            x0, y0, x1, y1 = round(d.x - r), round(d.y - r), round(d.x + r), round(d.y + r)
            if x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h and x1 - x0 >= 8:
                bank.append((photo.image[y0:y1, x0:x1].copy(), d.value))
    return bank


def _wall(canvas: np.ndarray, side: int, at: float, die: float, rng: np.random.Generator) -> None:
    """A tray's wall drawn in place along one side of ``canvas`` (0 top, 1 right, 2 bottom, 3 left),
    its inner edge at ``at`` pixels from that side: a slanted inner face (a shaded band about a die
    wide), then the rim (a dark band) out to the edge."""
    h, w = canvas.shape[:2]
    length = h if side in (1, 3) else w
    depth = round(at)
    inner = round(min(at, rng.uniform(0.5, 1.6) * die))
    band = np.zeros((depth, length, 3), np.float32)
    floor = canvas.reshape(-1, 3).mean(axis=0)
    face = floor * rng.uniform(0.7, 1.1) + rng.uniform(-15, 15, 3)
    shade = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(0.9, 1.15), inner, dtype=np.float32)
    band[depth - inner :] = face[None, None, :] * shade[::-1, None, None]
    band[: depth - inner] = rng.uniform(10, 70) + rng.uniform(-8, 8, 3)
    band += rng.normal(0, 3, band.shape).astype(np.float32)
    band = np.clip(band, 0, 255).astype(np.uint8)
    if side == 0:
        canvas[:depth] = band
    elif side == 2:
        canvas[h - depth :] = band[::-1]
    elif side == 3:
        canvas[:, :depth] = band.transpose(1, 0, 2)
    else:
        canvas[:, w - depth :] = band.transpose(1, 0, 2)[:, ::-1]


def lay_dice(bank: list[tuple[np.ndarray, int]], floors: list[Photo], rng: np.random.Generator) -> Photo:
    """Real fit dice from ``bank`` laid touching in a rough grid (2–7 dice, 0–6 % of a die apart, a
    little out of line) on a fit tray photo where it shows no die, and in half the scenes against a
    drawn tray wall: what the detector merged into one big weak box (issue 32). The photo's own dice
    keep their labels."""
    floor = floors[rng.integers(len(floors))]
    canvas = floor.image.copy()
    h, w = canvas.shape[:2]
    sizes = [d.size for d in floor.dice] or [bank[rng.integers(len(bank))][0].shape[0]]
    die = float(np.median(sizes)) * rng.uniform(0.8, 1.25)
    side = max(8, round(die))
    count = int(rng.integers(2, 8))
    columns = int(rng.integers(1, min(count, 4) + 1))
    rows = -(-count // columns)
    pitch = die * rng.uniform(1.0, 1.06)
    span_w, span_h = columns * pitch, rows * pitch
    wall = int(rng.integers(4)) if rng.random() < 0.5 else None
    dice = list(floor.dice)
    for _ in range(15):
        x0, y0 = rng.uniform(0, max(1.0, w - span_w)), rng.uniform(0, max(1.0, h - span_h))
        if wall is not None:
            at = rng.uniform(0.8, 2.5) * die
            lean = rng.uniform(0.0, 0.25) * die  # a die against the slanted face hides a little of it
            x0 = {3: at - lean, 1: w - at + lean - span_w}.get(wall, x0)
            y0 = {0: at - lean, 2: h - at + lean - span_h}.get(wall, y0)
        box = (x0 - die, y0 - die, x0 + span_w + die, y0 + span_h + die)
        clear = all(not (box[0] < d.x < box[2] and box[1] < d.y < box[3]) for d in floor.dice)
        if clear and min(x0, y0) >= 0 and x0 + span_w <= w and y0 + span_h <= h:
            break
    else:
        return floor
    if wall is not None:
        _wall(canvas, wall, at, die, rng)
        # The photo's dice under the drawn wall are gone.
        inside = {
            0: lambda d: d.y > at,
            1: lambda d: d.x < w - at,
            2: lambda d: d.y < h - at,
            3: lambda d: d.x > at,
        }
        dice = [d for d in dice if inside[wall](d)]
    ramp = np.minimum(np.arange(side) + 1, np.arange(side)[::-1] + 1) / max(1.0, 0.08 * side)
    alpha = np.clip(np.minimum(ramp[:, None], ramp[None, :]), 0, 1)[..., None].astype(np.float32)
    for k in range(count):
        cx = x0 + (k % columns + 0.5) * pitch + rng.normal(0, 0.03 * die)
        cy = y0 + (k // columns + 0.5) * pitch + rng.normal(0, 0.03 * die)
        face, value = bank[rng.integers(len(bank))]
        face = np.rot90(face, int(rng.integers(4)))
        face = face[:, ::-1] if rng.random() < 0.5 else face
        face = cv2.resize(face, (side, side), interpolation=cv2.INTER_AREA)
        xa, ya = round(cx - side / 2), round(cy - side / 2)
        if xa < 0 or ya < 0 or xa + side > w or ya + side > h:
            continue
        patch = canvas[ya : ya + side, xa : xa + side].astype(np.float32)
        canvas[ya : ya + side, xa : xa + side] = (alpha * face + (1 - alpha) * patch).astype(np.uint8)
        dice.append(Die(xa + side / 2, ya + side / 2, float(side), value))
    return Photo(canvas, dice)


# Share of training samples from each set: the real photos dominate.
MIX = {"dice-tray": 0.47, "dice-webcam": 0.41, "synthetic": 0.12}


def _pick(sets: dict[str, list[Photo]], rng: np.random.Generator) -> Photo:
    names = [n for n in MIX if sets.get(n)]
    weights = np.array([MIX[n] for n in names])
    photos = sets[names[rng.choice(len(names), p=weights / weights.sum())]]
    return photos[rng.integers(len(photos))]


def train_detector(sets: dict[str, list[Photo]], steps: int, seed: int, lay: float = 0.0) -> nn.Module:
    """The detector; ``lay``: the share of its samples whose photo is a fit tray photo with real dice
    laid touching on it (``lay_dice``), else a photo picked by ``MIX``."""
    out = 192
    floors = sets.get("dice-tray", [])
    bank = dice_bank(floors) if lay else []
    if bank:
        print(f"{len(bank)} tray dice to lay touching ({lay:.0%} of the detector's samples)", flush=True)

    def sample(rng: np.random.Generator) -> DetectorSample:
        photo = lay_dice(bank, floors, rng) if bank and rng.random() < lay else _pick(sets, rng)
        img, dice = _detector_sample(photo, rng, out)
        return (img, *_detector_targets(dice, out))

    return fit_detector(Detector, sample, steps, seed, batch=12)


# ---------------------------------------------------------------- classifier training


def _crop(image: np.ndarray, x: float, y: float, side: float, angle: float, flip: bool) -> np.ndarray:
    m = _affine(x, y, CROP / side, angle, flip, CROP)
    return cv2.warpAffine(image, m, (CROP, CROP), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _negative_point(photo: Photo, rng: np.random.Generator) -> tuple[float, float, float] | None:
    h, w = photo.image.shape[:2]
    sizes = [d.size for d in photo.dice] or [max(h, w) / 15]
    size = float(rng.choice(sizes)) * math.exp(rng.uniform(-0.4, 0.4))
    for _ in range(20):
        if photo.dice and rng.random() < 0.4:
            d = photo.dice[rng.integers(len(photo.dice))]
            r, t = rng.uniform(0.6, 1.1) * d.size, rng.uniform(0, 2 * math.pi)
            x, y = d.x + r * math.cos(t), d.y + r * math.sin(t)
        else:
            x, y = rng.uniform(0, w), rng.uniform(0, h)
        if all(math.hypot(x - d.x, y - d.y) > 0.55 * d.size for d in photo.dice):
            return x, y, size
    return None


def pip_contrast(photo: Photo, die: Die) -> float:
    """How far the pips stand out of a die's face: the larger of the grey level's distance from the
    face's median to its 3rd and to its 97th percentile, inside the middle three quarters of the face.
    Low on smoky and marbled dice, red pips on red or dark faces (and on a white 1's single pip)."""
    h, w = photo.image.shape[:2]
    r = 0.38 * die.size
    x0, x1 = int(max(0, die.x - r)), int(min(w, die.x + r))
    y0, y1 = int(max(0, die.y - r)), int(min(h, die.y + r))
    patch = cv2.cvtColor(photo.image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    if patch.size < 9:
        return 0.0
    median = float(np.median(patch))
    return max(median - float(np.percentile(patch, 3)), float(np.percentile(patch, 97)) - median)


def faint_dice(sets: dict[str, list[Photo]], share: float = HARD_QUANTILE) -> list[tuple[Photo, Die]]:
    """The dice of each real photo set whose pips stand out least (``pip_contrast``, the set's lowest
    ``share``): translucent, smoky, marbled and red dice, which the classifier oversamples (``--hard``)."""
    found: list[tuple[Photo, Die]] = []
    for name in DATASETS:
        dice = [(photo, d) for photo in sets.get(name, []) for d in photo.dice]
        if not dice:
            continue
        contrast = np.array([pip_contrast(photo, d) for photo, d in dice])
        limit = float(np.quantile(contrast, share))
        found += [pair for pair, c in zip(dice, contrast, strict=True) if c <= limit]
    return found


def seam_points(sets: dict[str, list[Photo]]) -> list[tuple[Photo, Die, Die]]:
    """Every pair of touching dice in the photos (centres closer than 1.4 × the larger die's size): the
    seam between them, where the detector now and then puts a weak peak and whose crop, half of each
    die, the classifier must call "not a die" (``--seams``; ``_negative_point`` keeps away from dice)."""
    pairs = []
    for photos in sets.values():
        for photo in photos:
            for i, a in enumerate(photo.dice):
                for b in photo.dice[i + 1 :]:
                    if math.hypot(a.x - b.x, a.y - b.y) < 1.4 * max(a.size, b.size):
                        pairs.append((photo, a, b))
    return pairs


def _seam_point(pair: tuple[Photo, Die, Die], rng: np.random.Generator) -> tuple[float, float, float]:
    """A point on the seam of two touching dice (0.4–0.6 of the way between their centres, a little
    off the line) with a face size like theirs."""
    _, a, b = pair
    t = rng.uniform(0.4, 0.6)
    size = 0.5 * (a.size + b.size) * math.exp(rng.uniform(-0.2, 0.2))
    return (
        a.x + t * (b.x - a.x) + rng.uniform(-0.1, 0.1) * size,
        a.y + t * (b.y - a.y) + rng.uniform(-0.1, 0.1) * size,
        size,
    )


def _classifier_sample(
    sets: dict[str, list[Photo]],
    hard: list[tuple[Photo, float, float, float]],
    rng: np.random.Generator,
    fade: float = 0.0,
    faint: list[tuple[Photo, Die]] | None = None,
    faint_share: float = 0.0,
    seams: list[tuple[Photo, Die, Die]] | None = None,
    seam_share: float = 0.0,
    smear: float = 0.0,
) -> tuple[np.ndarray, int]:
    angle, flip = rng.uniform(0, 360), bool(rng.random() < 0.5)
    r = rng.random()
    seam_share = seam_share if seams else 0.0
    if r < 0.12 and hard:
        photo, x, y, size = hard[rng.integers(len(hard))]
        label = NOT_A_DIE
    elif r < 0.12 + seam_share and seams:
        pair = seams[rng.integers(len(seams))]
        photo = pair[0]
        x, y, size = _seam_point(pair, rng)
        label = NOT_A_DIE
    elif r < 0.25 + seam_share:
        photo = _pick(sets, rng)
        point = _negative_point(photo, rng)
        if point is None:
            return _classifier_sample(sets, hard, rng, fade, faint, faint_share, seams, seam_share, smear)
        x, y, size = point
        label = NOT_A_DIE
    else:
        if faint and rng.random() < faint_share:
            photo, d = faint[rng.integers(len(faint))]
        else:
            photo = _pick(sets, rng)
            if not photo.dice:
                return _classifier_sample(sets, hard, rng, fade, faint, faint_share, seams, seam_share, smear)
            d = photo.dice[rng.integers(len(photo.dice))]
        x = d.x + rng.uniform(-0.12, 0.12) * d.size
        y = d.y + rng.uniform(-0.12, 0.12) * d.size
        # The detector's size is within about ±20 % (5th-95th percentile): cover that.
        size, label = d.size * math.exp(rng.uniform(-0.22, 0.22)), d.value - 1
    side = MARGIN * size * math.exp(rng.uniform(-0.1, 0.1))
    crop = _crop(photo.image, x, y, side, angle, flip)
    if fade and rng.random() < fade:
        crop = _fade(crop, rng)
    return photometric(smeared(crop, rng, smear), rng), label  # the smear before the light and the noise


def _fade(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The pips faded into the face, as on smoky, translucent and marbled dice: the crop blended with a
    blurred copy of itself (the face's colour without its pips) by up to a half (``--fade``; measured with
    ``--hard`` in session 5, not shipped: ``bench/RESULTS.md``, *Dice: the classifier retrained on the
    split by scene*)."""
    blurred = cv2.GaussianBlur(crop, (0, 0), CROP / 10)
    alpha = rng.uniform(0.5, 0.9)
    return cv2.addWeighted(crop, alpha, blurred, 1.0 - alpha, 0.0)


def train_classifier(
    sets: dict[str, list[Photo]],
    hard: list[tuple[Photo, float, float, float]],
    steps: int,
    seed: int,
    fade: float = 0.0,
    faint_share: float = 0.0,
    batch: int = 96,
    seam_share: float = 0.0,
    smear: float = 0.0,
) -> nn.Module:
    """The crop classifier; ``fade``: the share of samples whose pips are faded (``_fade``);
    ``faint_share``: the share of die samples drawn from the faint dice (``faint_dice``) instead of
    from a photo picked by ``MIX``; ``seam_share``: the share of samples cut on the seam of two
    touching dice, "not a die" (``seam_points``); ``smear``: the share of crops smeared along a line
    as by a hand-held phone (``training.motion_blur``)."""
    faint = faint_dice(sets) if faint_share else []
    if faint:
        print(f"{len(faint)} faint dice oversampled ({faint_share:.0%} of the die samples)", flush=True)
    seams = seam_points(sets) if seam_share else []
    if seams:
        print(f"{len(seams)} seams of touching dice ({seam_share:.0%} of the samples)", flush=True)
    return fit_classifier(
        Classifier,
        lambda rng: _classifier_sample(sets, hard, rng, fade, faint, faint_share, seams, seam_share, smear),
        steps,
        seed,
        batch=batch,
    )


# ---------------------------------------------------------------- export and calibration


def hard_negatives(sets: dict[str, list[Photo]], out: Path) -> list[tuple[Photo, float, float, float]]:
    """Detector false positives on the fit photos: the clutter the classifier must learn to reject."""
    from vision.dice import DiceModels

    models = DiceModels.load(out)
    found = []
    for photos in sets.values():
        for photo in photos:
            for x, y, size, _score in models.detect(photo.image, heat_threshold=0.15):
                if all(math.hypot(x - d.x, y - d.y) > 0.5 * d.size for d in photo.dice):
                    found.append((photo, x, y, size))
    return found


def calibrate(
    data: Path, out: Path, wrong_share: float = 1 / 200, by_name: bool = False, keep_temperature: bool = False
) -> dict[str, float]:
    """Fit the temperature on the calib split (corrected labels), then the threshold through the real
    reader: the lowest at which at most ``wrong_share`` of each photo set's confident calib dice are
    wrong (the tray's own dice, not diluted by the webcam's easy ones). ``by_name``: on the photos
    outside val that the split by file name kept out of training (``calibration_items``);
    ``keep_temperature``: the threshold only, at the temperature in ``out``'s settings."""
    from vision.dice import DiceModels, read_dice
    from vision.evaluate import scored_dice, threshold_for_each

    models = DiceModels.load(out)
    items = {name: calibration_items(data, name, by_name) for name in DATASETS}
    photos = [photo_of(item, name) for name in DATASETS for item in items[name]]
    # Which crops get all the views depends on the temperature (the recheck is on the tempered
    # probability): fit it, and fit it again with the crops read as the fitted one reads them.
    for _ in range(0 if keep_temperature else 2):
        logits, labels = [], []
        for photo in photos:
            dets = models.detect(photo.image)
            raw = models.classify(photo.image, dets)
            found = match_labels([(x, y) for x, y, _, _ in dets], [(d.x, d.y, d.size) for d in photo.dice])
            for row, j in zip(raw, found, strict=True):
                logits.append(row)
                labels.append(NOT_A_DIE if j is None else photo.dice[j].value - 1)
        models.classifier.temperature = fit_temperature(logits, labels)
    temperature = models.classifier.temperature
    lines = []
    for name in DATASETS:
        scored: list[tuple[float, bool]] = []
        total_true = 0
        for item in items[name]:
            found, true = scored_dice(item, read_dice(cv2.imread(str(item.path)), models=models))
            scored += found
            total_true += true
        lines.append((name, scored, total_true))
    threshold = threshold_for_each([scored for _, scored, _ in lines], wrong_share)
    for name, scored, total_true in lines:
        sure = [right for conf, right in scored if conf >= threshold]
        print(
            f"calibration {name}: confident precision {sum(sure) / max(1, len(sure)):.4f}, "
            f"coverage {sum(sure) / max(1, total_true):.4f}"
        )
    print(f"calibration: temperature {temperature:.3f}, threshold {threshold:.4f}")
    return {"temperature": temperature, "confidence_threshold": round(threshold, 4)}


BY_NAME = "the split by file name (before issue 32)"


def kept_learned(
    config_path: Path, learn: tuple[str, ...], skip_detector: bool, skip_classifier: bool
) -> dict[str, str]:
    """What each net learned from (``dice_reader.json``'s ``learned_from``): ``learn`` for a net trained
    now; for a net kept in ``--out``, what its settings said (nets older than the option: ``BY_NAME``)."""
    before = json.loads(config_path.read_text()).get("learned_from", {}) if config_path.is_file() else {}
    now = learned_phrase(learn)
    return {
        "detector": before.get("detector", BY_NAME) if skip_detector else now,
        "classifier": before.get("classifier", BY_NAME) if skip_classifier else now,
    }


def notice_phrase(learned: dict[str, str]) -> str:
    if learned["detector"] == learned["classifier"]:
        return learned["detector"]
    return f"{learned['detector']} (the detector) and {learned['classifier']} (the classifier)"


def dice_notice(config: dict[str, Any]) -> str:
    """The dice notice for MODELS.txt: the nets' files and what each learned from (``learned_from``;
    nets older than it: the split by file name), the second opinions' too."""
    learned = config.get("learned_from", {"detector": BY_NAME, "classifier": BY_NAME})
    opinions = config.get("second_opinions", [])
    phrase = notice_phrase(learned)
    for o in opinions:
        phrase += f", and {o['classifier']} (a second opinion) on {o['learned_from']},"
    lines = CREDIT.format(learned=phrase).split("\n")
    return "\n".join(textwrap.fill(line, 100) if line.startswith("Trained by") else line for line in lines)


def main(argv: list[str] | None = None) -> None:
    parser = arguments(
        __doc__, detector_steps=3000, classifier_steps=6000, seed=5, synthetic=200, rendered="rendered scenes"
    )
    parser.add_argument(
        "--wrong-share", type=float, default=1 / 200, help="confident calib dice that may be wrong"
    )
    parser.add_argument("--skip-detector", action="store_true", help="reuse the detector in --out")
    parser.add_argument(
        "--fade",
        type=float,
        default=0.0,
        help="share of classifier samples with their pips faded (e.g. 0.25)",
    )
    parser.add_argument(
        "--hard",
        type=float,
        default=0.0,
        help="share of the classifier's die samples drawn from the faint dice (the quarter of each real "
        "set's dice with the least pip contrast: smoky, marbled, red), e.g. 0.3",
    )
    parser.add_argument("--batch", type=int, default=96, help="the classifier's batch")
    parser.add_argument(
        "--lay",
        type=float,
        default=0.0,
        help="share of the detector's samples with real fit tray dice laid touching, half of them against "
        "a drawn tray wall (lay_dice), e.g. 0.25",
    )
    parser.add_argument(
        "--seams",
        type=float,
        default=0.0,
        help="share of classifier samples cut on the seam of two touching dice, as 'not a die' "
        "(seam_points), e.g. 0.06",
    )
    parser.add_argument(
        "--skip-classifier",
        action="store_true",
        help="train the detector only and keep the classifier in --out (then calibrate the pair)",
    )
    parser.add_argument(
        "--learn",
        type=learned_splits,
        default=("fit",),
        help="the splits the nets learn from, comma-separated: fit (default) or fit,val; calib is refused "
        "(it fits temperature and threshold); written into dice_reader.json and MODELS.txt",
    )
    parser.add_argument("--calibrate-only", action="store_true", help="refit temperature and threshold only")
    parser.add_argument(
        "--second-opinion",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a classifier trained into DIR (with its settings) asked about the doubtful dice too, its "
        "probabilities averaged with the classifier's; repeatable. The threshold is fitted with them",
    )
    parser.add_argument(
        "--by-name",
        action="store_true",
        help="calibrate on the photos outside val that the split by file name (before issue 32) held out: "
        "for nets trained on that split",
    )
    parser.add_argument(
        "--keep-temperature",
        action="store_true",
        help="with --calibrate-only: fit the threshold only (the Zatre reader reads the dice classifier at "
        "the temperature its own constants were chosen at)",
    )
    parser.add_argument(
        "--motion-blur",
        type=share,
        default=0.0,
        help="the share of the classifier's crops smeared along a line as by a hand-held phone "
        "(training.motion_blur; 0: none), e.g. 0.2",
    )
    args = parser.parse_args(argv)
    start = prepare(args)
    config_path = args.out / "dice_reader.json"
    if args.calibrate_only:
        config = json.loads(config_path.read_text())
        config["mirror"] = MIRROR
        if args.second_opinion:
            config["second_opinions"] = second_opinions(args.second_opinion, args.out, BY_NAME)
        write_config(config_path, config)  # the reader calibrated reads as the shipped one will
        config.update(calibrate(args.data, args.out, args.wrong_share, args.by_name, args.keep_temperature))
        write_config(config_path, config)
        (args.out / "MODELS.txt").write_text(credits(args.out, dice_notice(config)))
        return
    fit = load_photos(args.data, *args.learn)
    counts = ", ".join(f"{name} {len(photos)} photos" for name, photos in fit.items())
    print(f"learning from {', '.join(args.learn)}: {counts}", flush=True)
    learned = kept_learned(config_path, args.learn, args.skip_detector, args.skip_classifier)
    fit["synthetic"] = synthetic_photos(args.synthetic, args.seed)
    config = {
        "detector": "dice_detector.onnx",
        "classifier": "dice_classifier.onnx",
        "net_long": NET_LONG,
        "stride": STRIDE,
        "crop": CROP,
        "margin": MARGIN,
        "heat_threshold": 0.25,
        "recheck_below": RECHECK_BELOW,
        "mirror": MIRROR,
        "temperature": 1.0,
        "confidence_threshold": 0.5,
        "learned_from": learned,
    }
    if args.second_opinion:
        config["second_opinions"] = second_opinions(args.second_opinion, args.out, BY_NAME)
    if not args.skip_detector:
        detector = train_detector(fit, args.detector_steps, args.seed, args.lay)
        export(detector, torch.zeros(1, 3, 192, 256), args.out / "dice_detector.onnx", dynamic=True)
    if not args.skip_classifier:
        classifier = Classifier().eval()
        export(classifier, torch.zeros(1, 3, CROP, CROP), args.out / "dice_classifier.onnx", dynamic=False)
    write_config(config_path, config)
    if not args.skip_classifier:
        hard = hard_negatives(fit, args.out)
        print(f"{len(hard)} hard negatives from the detector ({time.monotonic() - start:.0f} s)", flush=True)
        classifier = train_classifier(
            fit,
            hard,
            args.classifier_steps,
            args.seed,
            args.fade,
            args.hard,
            args.batch,
            args.seams,
            args.motion_blur,
        )
        export(classifier, torch.zeros(1, 3, CROP, CROP), args.out / "dice_classifier.onnx", dynamic=False)
    config.update(calibrate(args.data, args.out, args.wrong_share, args.by_name))
    write_config(config_path, config)
    (args.out / "MODELS.txt").write_text(credits(args.out, dice_notice(config)))
    shutil.rmtree(args.out / "__pycache__", ignore_errors=True)
    print(f"done in {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
