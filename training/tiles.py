"""Train the tile reader's two small networks and export them to ONNX.

    pip install -e '.[train]'
    nice python -m training.tiles --data ../shared/datasets --out vision/models

1. **Detector**: the shared stride-4 CenterNet (``training.common.Detector``) with seven channels:
   heat, log long side, dx, dy, log short side, cos 2θ, sin 2θ (θ the tile's turn, known modulo a half
   turn). The image is scaled so its long side is ``NET_LONG`` px.
2. **Classifier**: a small CNN on a straightened ``CROP_W``×``CROP_H`` portrait crop (``MARGIN`` × the
   tile) with 54 classes: 52 numbered tiles, the joker, and "not a tile". Crops are shown upright and
   upside down alike, so the network must read the maker's mark at the tile's foot to tell 6 from 9;
   the reader averages the two half turns where one is not clear.
3. **Calibration**: the softmax temperature is fitted by likelihood on the ``calib`` photos (scenes the
   training never saw) and on the rendered calibration tables, the softer of the two (a reader that
   reads every calib tile right would get a temperature near 0 from the photos alone). The confidence
   threshold is the lowest at which at most 1 in 200 confident tiles is wrong, through the real reader,
   both on the ``calib`` photos and on rendered 1920×1080 tables (``--calibration-tables`` of each kind
   of ``vision.synth.bench_table``). Then the twin margin (``fit_twin_margin``; ``--stage twin-margin``
   fits it alone): the lead a reading needs over its confusable twin (``vision.tiles.TWINS``) to be
   confident, grown while it costs at most 1 % of the confident right readings on the same photos and
   tables.

Data: the ``fit`` split of ``rummikub-tiles`` (polygon labels: each tile's four corners) plus tables
rendered by ``vision.synth`` (with face-down tiles as negatives) and the fit photos' own tiles laid edge
to edge in runs on plain light (or rendered) table tops (``lay_runs``: 30 % of the detector's samples,
15 % of the classifier's), which the fit tables (dark wood, striped fabric, mostly loose tiles) lack;
without them the detector took a tight run on a light table for one large tile. With ``--edge-cut S`` a
share ``S`` of the classifier's samples is cut by a photo's edge across the crop (``training.frame_edge``),
as the reader's crop of a tile the photo's edge cuts runs past the picture; with ``--edge-cut-digit`` the
edge cuts down to 0.3 of the tile and a tile keeps its label only while its digit stays whole in the picture
(``training.frame_edge.digit_left``), else it is "not a tile" (with ``--leave-out-partly-cut`` only when
less than half of its digit is left; a tile cut into its digit short of that is left out; with
``--digit-named-from F`` it keeps its label while at least ``F`` of its digit is left). With
``--rack-ends S`` a share ``S`` of the classifier's samples comes from a rendered rack of real fit tiles
(``training.rack_ends``): its dark blank ends and gaps as "not a tile", now and then one of its tiles. With
``--motion-blur S`` a share ``S`` of the classifier's crops is smeared along a line as by a hand-held phone
(``training.motion_blur``, the card index classifier's). All are off by default. ``calib`` sets
temperature and threshold; ``val`` is never touched. Seeds are fixed; torch runs on ``--threads``
threads.
"""

from __future__ import annotations

import json
import math
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

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
from training.frame_edge import (
    DIGIT_GONE,
    DIGIT_VISIBLE,
    FACE,
    VISIBLE,
    cut_by_frame_edge,
    digit_left,
    digit_strokes,
)
from training.motion_blur import share, smeared
from training.rack_ends import lay_rack
from vision.dataset import LabelledImage, load_folder
from vision.nets import cut
from vision.tiles import face_white

NET_LONG = 512
STRIDE = 4
CROP_W, CROP_H = 48, 72  # the whole digit area at a size that keeps its strokes (was 32 × 48)
MARGIN = 1.12
RECHECK_BELOW = 0.9
CHANNELS = 7
DETECTOR_WIDTHS = (12, 16, 32, 48, 24)  # small: the detector trains in minutes on a shared CPU
DATASET = "rummikub-tiles"
CREDIT = """Tile reader models (tiles_detector.onnx, tiles_classifier.onnx, tiles_reader.json)

Trained by training/tiles.py on the "fit" split of a public photo set:
- rummikub-tiles: Roboflow Universe "Rummikub v1" (workspace rummikue,
  universe.roboflow.com/rummikue/rummikub-nvypk-8cwem), via github.com/conner-replogle/rummikub-detector,
  licence CC BY 4.0 (creativecommons.org/licenses/by/4.0/)
plus tables rendered by vision/synth.py and the fit photos' own tiles laid edge to edge in runs on
rendered table tops (training.tiles.lay_runs). The models are derived from those photographs; keep this
notice with them.
"""


def _labels() -> tuple[str, ...]:
    from vision.tiles import LABELS

    return LABELS


@dataclass(frozen=True)
class TileLabel:
    """A labelled tile: its four corners (image px) and its class index in ``vision.tiles.LABELS``."""

    corners: np.ndarray  # (4, 2)
    label: int


@dataclass
class Photo:
    image: np.ndarray
    tiles: list[TileLabel]


def geometry(corners: np.ndarray) -> tuple[float, float, float, float, float]:
    """Centre x, y, long side, short side and turn (degrees, modulo 180, 0 = long side vertical) of a
    quadrilateral."""
    rect = cv2.minAreaRect(corners.astype(np.float32))
    (cx, cy), box = rect[0], cv2.boxPoints(rect)
    edges = [box[(i + 1) % 4] - box[i] for i in range(2)]
    lengths = [float(np.hypot(*e)) for e in edges]
    k = int(np.argmax(lengths))
    ex, ey = edges[k]
    # The long edge points along the tile's "down" (-sin t, cos t): t = atan2(-ex, ey).
    turn = math.degrees(math.atan2(-ex, ey))
    turn = (turn + 90.0) % 180.0 - 90.0
    return float(cx), float(cy), max(lengths), min(lengths), turn


def load_photos(data: Path, split: str) -> list[Photo]:
    from vision.tiles import label_of_name

    photos = []
    for item in load_folder(data / DATASET, split):  # type: ignore[arg-type]
        photos.append(Photo(cv2.imread(str(item.path)), list(_tiles_of(item, label_of_name))))
    return photos


def _tiles_of(item: LabelledImage, label_of_name: object) -> list[TileLabel]:
    tiles = []
    for box in item.boxes:
        if box.polygon:
            rect = cv2.minAreaRect(np.array(box.polygon, np.float32))
            corners = cv2.boxPoints(rect)
        else:
            corners = np.array(
                [
                    (box.cx - box.w / 2, box.cy - box.h / 2),
                    (box.cx + box.w / 2, box.cy - box.h / 2),
                    (box.cx + box.w / 2, box.cy + box.h / 2),
                    (box.cx - box.w / 2, box.cy + box.h / 2),
                ],
                np.float32,
            )
        tiles.append(TileLabel(corners, label_of_name(box.name)))  # type: ignore[operator]
    return tiles


def synthetic_photos(count: int, seed: int) -> list[Photo]:
    """Rendered tables: melds, loose tiles, face-down tiles (not labelled: the reader must ignore them)."""
    from rules.rummikub.tiles import full_set
    from vision.synth import render_table
    from vision.tiles import LABELS

    rng = np.random.default_rng(seed + 11)
    pool = full_set()
    photos = []
    while len(photos) < count:
        size = (int(rng.integers(800, 1281)), int(rng.integers(600, 801)))
        order = rng.permutation(len(pool))
        melds, k = [], 0
        for _ in range(int(rng.integers(1, 8))):
            n = int(rng.integers(3, 6))
            melds.append([pool[i] for i in order[k : k + n]])
            k += n
        loose = [pool[i] for i in order[k : k + int(rng.integers(0, 4))]]
        try:
            frame, truth = render_table(
                melds,
                loose,
                rng,
                size=size,
                tile_size=float(rng.uniform(0.07, 0.14) * min(size)),
                face_down=int(rng.integers(0, 3)),
            )
        except ValueError:
            continue
        tiles = [TileLabel(np.array(t.corners, np.float32), LABELS.index(str(t.tile))) for t in truth.tiles]
        photos.append(Photo(frame, tiles))
    return photos


# ---------------------------------------------------------------- real tiles laid in tight runs

BANK_W, BANK_H = 54, 72  # a real tile's face, cut upright from a fit photo (its labelled quadrilateral)
RUN_SHARE = 0.3  # of the detector's samples: real tiles laid edge to edge on a light plain table
RUN_CROP_SHARE = 0.15  # of the classifier's tile samples: a tile of such a run
EDGE_CUT_SHARE = 0.0  # of the classifier's samples, cut by a photo's edge (0.15: tried, not shipped)
RACK_END_SHARE = 0.0  # of the classifier's samples, from a rendered rack (training.rack_ends)


@dataclass
class TileBank:
    """The labelled tiles of the fit photos, each cut upright as it lies (its face, no margin): the stuff
    of ``lay_runs``. Only the fit photos: ``calib`` and ``val`` are never cut."""

    faces: np.ndarray  # (n, BANK_H, BANK_W, 3)
    labels: np.ndarray  # (n,)


def tile_bank(real: list[Photo]) -> TileBank:
    faces, labels = [], []
    for photo in real:
        for tile in photo.tiles:
            cx, cy, long_side, short_side, turn = geometry(tile.corners)
            if short_side < 12:
                continue
            faces.append(cut(photo.image, (cx, cy), (short_side, long_side), turn, (BANK_W, BANK_H)))
            labels.append(tile.label)
    return TileBank(np.array(faces), np.array(labels))


def plain_table(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A plain light table top (white, grey, grey-blue or beige) lit unevenly, with a little grain: the
    kind of table the fit photos lack (their tables are dark wood and striped fabric)."""
    w, h = size
    base = rng.uniform(150, 245) + rng.uniform(-18, 18, 3)
    if rng.random() < 0.5:
        base = base + np.array((14, 4, -10)) * rng.uniform(0, 1.5)  # grey-blue
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1.0 + 0.25 * (xs / w * rng.uniform(-1, 1) + ys / h * rng.uniform(-1, 1))
    img = base.astype(np.float32)[None, None] * light[..., None]
    img += rng.normal(0, rng.uniform(1, 5), (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def lay_runs(
    bank: TileBank, rng: np.random.Generator, size: tuple[int, int], long_side: float
) -> tuple[np.ndarray, list[TileLabel]]:
    """Real tiles from ``bank`` laid edge to edge in runs (2–7 tiles, a hairline apart, each row at its own
    turn) on a plain light table (or the renderer's tables now and then), each tile with a side and a soft
    shadow: what the fit photos do not show and the detector merged into one large tile."""
    from vision.synth import BACKGROUNDS, table_background

    w, h = size
    if rng.random() < 0.75:
        canvas = plain_table(size, rng).astype(np.float32)
    else:
        canvas = table_background(size, str(rng.choice(BACKGROUNDS)), rng).astype(np.float32)
    short_side = long_side * rng.uniform(0.68, 0.8)
    side = rng.uniform(0.02, 0.08) * long_side  # the tile's thickness seen a little from the side
    side_turn = rng.uniform(0, 2 * math.pi)
    tiles: list[TileLabel] = []
    shadow = np.zeros((h, w), np.float32)
    faces, rows = [], []
    clear = (1.05 * long_side, 0.9 * short_side)  # centre to centre: another row's tile, this row's
    for row in range(int(rng.integers(1, 4))):
        count = int(rng.integers(2, 8))
        turn = rng.uniform(-180, 180) if rng.random() < 0.8 else float(rng.choice([0.0, 90.0, 180.0]))
        t = math.radians(turn)
        along = np.array((math.cos(t), math.sin(t)))  # the tile's right
        down = np.array((-math.sin(t), math.cos(t)))
        step = short_side * rng.uniform(1.0, 1.06)
        start = np.array((rng.uniform(0, w), rng.uniform(0, h))) - along * step * (count - 1) / 2
        for k in range(count):
            centre = start + along * step * k + down * rng.normal(0, 0.02 * long_side)
            own = t + math.radians(rng.normal(0, 2.0))
            a, d = np.array((math.cos(own), math.sin(own))), np.array((-math.sin(own), math.cos(own)))
            corners = np.array(
                [
                    centre + sx * short_side / 2 * a + sy * long_side / 2 * d
                    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
                ],
                np.float32,
            )
            inset = 0.25 * short_side
            inside = inset <= centre[0] < w - inset and inset <= centre[1] < h - inset
            # Tiles of other rows keep clear of this one (tiles do not lie on each other).
            if not inside or any(
                math.dist(o.corners.mean(axis=0), centre) < clear[r == row]
                for o, r in zip(tiles, rows, strict=True)
            ):
                continue
            i = int(rng.integers(len(bank.labels)))
            face = bank.faces[i] if rng.random() < 0.5 else bank.faces[i][::-1, ::-1]
            tiles.append(TileLabel(corners, int(bank.labels[i])))
            faces.append(face)
            rows.append(row)
    offset = side * np.array((math.cos(side_turn), math.sin(side_turn)), np.float32)
    src = np.array([(0, 0), (BANK_W - 1, 0), (BANK_W - 1, BANK_H - 1)], np.float32)
    for tile in tiles:
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.round(tile.corners + offset * 1.6).astype(np.int32), 255)
        shadow = np.maximum(shadow, mask.astype(np.float32) / 255)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.06 * long_side))
    canvas *= 1 - rng.uniform(0.15, 0.4) * shadow[..., None]
    for tile, face in zip(tiles, faces, strict=True):
        m = cv2.getAffineTransform(src, tile.corners[:3])
        for shift, dim in ((offset, rng.uniform(0.6, 0.85)), (np.zeros(2, np.float32), 1.0)):
            mm = m.copy()
            mm[:, 2] += shift
            warped = cv2.warpAffine(face, mm, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
            alpha = cv2.warpAffine(np.full((BANK_H, BANK_W), 1.0, np.float32), mm, (w, h))[..., None]
            canvas = canvas * (1 - alpha) + warped * dim * alpha
    return np.clip(canvas, 0, 255).astype(np.uint8), tiles


# ---------------------------------------------------------------- detector


def _pick(real: list[Photo], synthetic: list[Photo], rng: np.random.Generator, share: float) -> Photo:
    photos = synthetic if synthetic and rng.random() < share else real
    return photos[rng.integers(len(photos))]


def _warp(photo: Photo, m: np.ndarray) -> list[np.ndarray]:
    return [(m[:, :2] @ t.corners.T).T + m[:, 2] for t in photo.tiles]


def _detector_sample(photo: Photo, rng: np.random.Generator, out: int) -> tuple[np.ndarray, list[np.ndarray]]:
    h, w = photo.image.shape[:2]
    scale = NET_LONG / max(h, w) * math.exp(rng.uniform(math.log(0.5), math.log(1.6)))
    if photo.tiles and rng.random() < 0.8:
        c = photo.tiles[rng.integers(len(photo.tiles))].corners.mean(axis=0)
        cx, cy = c[0] + rng.uniform(-0.4, 0.4) * out / scale, c[1] + rng.uniform(-0.4, 0.4) * out / scale
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    angle = rng.uniform(0, 360) if rng.random() < 0.7 else 0.0
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[:, 2] += (out / 2 - cx, out / 2 - cy)
    border = tuple(int(v) for v in rng.integers(0, 256, 3))
    img = cv2.warpAffine(photo.image, m, (out, out), flags=cv2.INTER_AREA, borderValue=border)
    return photometric(img, rng, hue=False), _warp(photo, m)


def _detector_targets(tiles: list[np.ndarray], out: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g = out // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((CHANNELS - 1, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for corners in tiles:
        cx, cy, long_side, short_side, turn = geometry(corners)
        x, y = cx / STRIDE, cy / STRIDE
        if not (0 <= x < g and 0 <= y < g):
            continue
        sigma = max(0.6, short_side / STRIDE * 0.18)
        heat = np.maximum(heat, np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * sigma**2)))
        ix, iy = int(x), int(y)
        heat[iy, ix] = 1.0
        t2 = math.radians(2 * turn)
        reg[:, iy, ix] = (
            math.log(long_side),
            x - ix,
            y - iy,
            math.log(short_side),
            math.cos(t2),
            math.sin(t2),
        )
        mask[iy, ix] = 1.0
    return heat, reg, mask


def train_detector(
    real: list[Photo], synthetic: list[Photo], steps: int, seed: int, bank: TileBank | None = None
) -> nn.Module:
    out = 192

    def sample(rng: np.random.Generator) -> DetectorSample:
        if bank is not None and rng.random() < RUN_SHARE:
            img, laid = lay_runs(bank, rng, (out, out), rng.uniform(18, 64))
            img = photometric(light(img, rng), rng, hue=False)
            return (img, *_detector_targets([t.corners for t in laid], out))
        img, tiles = _detector_sample(_pick(real, synthetic, rng, 0.2), rng, out)
        return (img, *_detector_targets(tiles, out))

    return fit_detector(lambda: Detector(CHANNELS, DETECTOR_WIDTHS), sample, steps, seed, batch=10)


# ---------------------------------------------------------------- classifier


class Classifier(nn.Module):
    """Portrait crops (3 × CROP_H × CROP_W) -> 54 logits; the last pooling keeps a 3 × 2 layout so the
    network knows where on the tile the number and the foot mark are."""

    def __init__(self, classes: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            cbr(3, 16, 2),
            cbr(16, 32),
            nn.MaxPool2d(2),
            cbr(32, 48),
            cbr(48, 48),
            nn.MaxPool2d(2),
            cbr(48, 64),
            nn.AdaptiveAvgPool2d((3, 2)),
            nn.Flatten(),
            nn.Dropout(0.25),
            nn.Linear(64 * 6, classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def tile_crop(
    image: np.ndarray, cx: float, cy: float, long_side: float, short_side: float, turn: float
) -> np.ndarray:
    return cut(image, (cx, cy), (MARGIN * short_side, MARGIN * long_side), turn, (CROP_W, CROP_H))


def _tint(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Warm (tungsten) or cool light: the known hard cases are red/orange and black/blue under it."""
    warm = rng.uniform(-0.4, 1.0)
    gains = np.array((1 - 0.3 * warm, 1 - 0.06 * warm, 1 + 0.1 * warm), np.float32)
    return np.clip(img.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def _negative(photo: Photo, rng: np.random.Generator) -> tuple[float, float, float, float, float] | None:
    h, w = photo.image.shape[:2]
    if photo.tiles:
        cx, cy, long_side, short_side, turn = geometry(photo.tiles[rng.integers(len(photo.tiles))].corners)
    else:
        long_side = max(h, w) / 12
        short_side, turn, cx, cy = 0.72 * long_side, rng.uniform(-90, 90), w / 2, h / 2
    centres = [t.corners.mean(axis=0) for t in photo.tiles]
    for _ in range(20):
        if photo.tiles and rng.random() < 0.5:
            # Straddling two neighbours or half off a tile: what a detector's stray peak would see.
            t = math.radians(turn)
            d = rng.choice([-1, 1]) * rng.uniform(0.45, 0.6)
            x, y = cx + d * short_side * math.cos(t), cy + d * short_side * math.sin(t)
            if rng.random() < 0.5:
                x, y = cx + d * long_side * -math.sin(t), cy + d * long_side * math.cos(t)
        else:
            x, y = rng.uniform(0, w), rng.uniform(0, h)
        if all(math.hypot(x - c[0], y - c[1]) > 0.4 * short_side for c in centres):
            return x, y, long_side, short_side, turn + rng.uniform(-20, 20)
    return None


def _classifier_sample(
    real: list[Photo],
    synthetic: list[Photo],
    hard: list[tuple[Photo, float, float, float, float, float]],
    none: int,
    rng: np.random.Generator,
    bank: TileBank | None = None,
    edge_cut: float = 0.0,
    edge_cut_digit: bool = False,
    rack_ends: float = 0.0,
    leave_out_partly_cut: bool = False,
    digit_named_from: float = 1.0,
    smear: float = 0.0,
) -> tuple[np.ndarray, int]:
    again = (edge_cut, edge_cut_digit)
    leave, named = leave_out_partly_cut, digit_named_from
    rack_ends = rack_ends if bank is not None else 0.0

    def drawn_again(
        real: list[Photo] = real, synthetic: list[Photo] = synthetic, hard: list = hard
    ) -> tuple[np.ndarray, int]:
        """Another sample drawn with the same options (without the runs' bank: no rack, no run)."""
        return _classifier_sample(
            real,
            synthetic,
            hard,
            none,
            rng,
            None,
            *again,
            leave_out_partly_cut=leave,
            digit_named_from=named,
            smear=smear,
        )

    if bank is not None and rng.random() < RUN_CROP_SHARE:
        canvas, laid = lay_runs(bank, rng, (256, 256), rng.uniform(40, 90))
        if laid:
            # A tile of a tight run, or (a fifth of the time) a crop straddling two of its tiles.
            return drawn_again([Photo(canvas, laid)], [], [])
    tile_geometry = None  # the true tile's centre, sides and turn, when the crop is of a tile
    r = rng.random()
    if bank is not None and r < rack_ends:
        # A rack: one of its dark blank ends or gaps (not a tile), or now and then one of its tiles.
        size = (256, 256)
        table = plain_table(size, rng) if rng.random() < 0.6 else _table_top(size, rng)
        image, rack = lay_rack(table, bank.faces, bank.labels, rng, rng.uniform(40, 90))
        photo = Photo(image, [TileLabel(c, label) for c, label in rack.tiles])
        if rack.blanks and (rng.random() < 0.75 or not rack.tiles):
            x, y = rack.blanks[rng.integers(len(rack.blanks))]
            long_side, short_side, turn = rack.long_side, rack.short_side, rack.turn
            x += rng.uniform(-0.15, 0.15) * short_side
            y += rng.uniform(-0.15, 0.15) * short_side
            long_side *= math.exp(rng.uniform(-0.18, 0.18))
            short_side *= math.exp(rng.uniform(-0.18, 0.18))
            turn += rng.normal(0, 4.0)
            label = none
        elif rack.tiles:
            x, y, long_side, short_side, turn, label, tile_geometry = _tile_crop_place(photo, rng)
        else:
            return _classifier_sample(
                real, synthetic, hard, none, rng, bank, *again, rack_ends, leave, named, smear
            )
    elif (r := (r - rack_ends) / (1 - rack_ends)) < 0.06:  # as drawn without racks when there are none
        # A tile cut a quarter turn off, as the reader's second look may cut it: not a tile.
        photo = _pick(real, synthetic, rng, 0.3)
        if not photo.tiles:
            return drawn_again()
        x, y, long_side, short_side, turn = geometry(photo.tiles[rng.integers(len(photo.tiles))].corners)
        turn += 90.0 + rng.normal(0, 4.0)
        label = none
    elif r < 0.12 and hard:
        photo, x, y, long_side, short_side, turn = hard[rng.integers(len(hard))]
        label = none
    elif r < 0.22:
        photo = _pick(real, synthetic, rng, 0.3)
        found = _negative(photo, rng)
        if found is None:
            return drawn_again()
        x, y, long_side, short_side, turn = found
        label = none
    else:
        photo = _pick(real, synthetic, rng, 0.35)
        if not photo.tiles:
            return drawn_again()
        x, y, long_side, short_side, turn, label, tile_geometry = _tile_crop_place(photo, rng)
    image = photo.image
    if edge_cut > 0 and rng.random() < edge_cut:
        # The photo's edge cuts it (tile or not): the crop runs past the picture, as the reader's would.
        visible = DIGIT_VISIBLE if edge_cut_digit else VISIBLE
        cut_image, edge = cut_by_frame_edge(image, (x, y), long_side, short_side, turn, rng, visible)
        if edge_cut_digit and tile_geometry is not None:
            # The tile keeps its label only while its digit is whole in the picture (or, with
            # ``digit_named_from``, while that share of it is).
            cx, cy, true_long, true_short, true_turn = tile_geometry
            face = cut(image, (cx, cy), (true_short, true_long), true_turn, FACE)
            left = digit_left(edge, (cx, cy), true_long, true_short, true_turn, digit_strokes(face))
            if leave_out_partly_cut and DIGIT_GONE < left < 1.0:
                return _classifier_sample(
                    real, synthetic, hard, none, rng, bank, *again, rack_ends, leave, named, smear
                )
            if left < digit_named_from:
                label = none
        image, (x, y) = cut_image, edge.centre
    turn += 180.0 * int(rng.integers(2))
    crop = tile_crop(image, x, y, long_side, short_side, turn)
    crop = smeared(crop, rng, smear)  # a hand-held phone's smear, before the light and the noise
    if rng.random() < 0.5:
        crop = _tint(crop, rng)
    crop = photometric(light(crop, rng), rng, hue=False)
    return face_white(crop[None])[0], label


def _tile_crop_place(
    photo: Photo, rng: np.random.Generator
) -> tuple[float, float, float, float, float, int, tuple[float, float, float, float, float]]:
    """One of ``photo``'s tiles, placed as the detector places it: the crop's centre, sides and turn, the
    tile's label, and its true centre, sides and turn."""
    tile = photo.tiles[rng.integers(len(photo.tiles))]
    true = geometry(tile.corners)
    cx, cy, long_side, short_side, turn = true
    # The detector's centre, sides and (edge-refined) turn are off by about this much: cover it.
    x = cx + rng.uniform(-0.1, 0.1) * short_side
    y = cy + rng.uniform(-0.1, 0.1) * short_side
    long_side *= math.exp(rng.uniform(-0.18, 0.18))
    short_side *= math.exp(rng.uniform(-0.18, 0.18))
    turn += rng.normal(0, 4.0)
    return x, y, long_side, short_side, turn, tile.label, true


def _table_top(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    from vision.synth import BACKGROUNDS, table_background

    return table_background(size, str(rng.choice(BACKGROUNDS)), rng)


def light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The light of other rooms and phones: a colour cast (a phone's white balance, 2700–7500 K), dim
    light with its noise, and glare (a bright patch that washes the colours out), each now and then."""
    out = img.astype(np.float32)
    if rng.random() < 0.5:
        kelvin = rng.uniform(-1.0, 1.0)  # -1 warm, +1 cool, then a green/magenta tint
        tint = rng.uniform(-0.08, 0.08)
        out *= np.array((1 + 0.35 * kelvin, 1 + tint, 1 - 0.3 * kelvin), np.float32)
    if rng.random() < 0.2:
        out = out * rng.uniform(0.3, 0.6) + rng.normal(0, rng.uniform(2, 7), out.shape).astype(np.float32)
    if rng.random() < 0.15:
        h, w = img.shape[:2]
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        cy, cx, r = rng.uniform(0, h), rng.uniform(0, w), rng.uniform(0.2, 0.7) * h
        spot = np.exp(-((ys - cy) ** 2 + (xs - cx) ** 2) / (2 * r * r))
        out += rng.uniform(60, 160) * spot[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def train_classifier(
    real: list[Photo],
    synthetic: list[Photo],
    hard: list[tuple[Photo, float, float, float, float, float]],
    steps: int,
    seed: int,
    bank: TileBank | None = None,
    edge_cut: float = 0.0,
    edge_cut_digit: bool = False,
    rack_ends: float = 0.0,
    leave_out_partly_cut: bool = False,
    digit_named_from: float = 1.0,
    smear: float = 0.0,
) -> nn.Module:
    classes = len(_labels())
    return fit_classifier(
        lambda: Classifier(classes),
        lambda rng: _classifier_sample(
            real,
            synthetic,
            hard,
            classes - 1,
            rng,
            bank,
            edge_cut,
            edge_cut_digit,
            rack_ends,
            leave_out_partly_cut,
            digit_named_from,
            smear,
        ),
        steps,
        seed,
        batch=64,
        label_smoothing=0.02,
    )


# ---------------------------------------------------------------- hard negatives and calibration


def hard_negatives(photos: list[Photo], out: Path) -> list[tuple[Photo, float, float, float, float, float]]:
    """Detector peaks on the fit photos that are no tile: the clutter the classifier must reject."""
    from vision.tiles import TileModels

    models = TileModels.load(out)
    found = []
    for photo in photos:
        centres = [geometry(t.corners) for t in photo.tiles]
        for d in models.detect(photo.image, heat_threshold=0.15):
            if all(math.hypot(d.x - c[0], d.y - c[1]) > 0.4 * c[3] for c in centres):
                found.append((photo, d.x, d.y, d.long_side, d.short_side, d.angle))
    return found


def calibrate(
    data: Path, out: Path, tables: int, wrong_share: float = 1 / 200, twin_margin: float | None = None
) -> dict[str, float]:
    """Fit the temperature on the calib photos, then the confidence threshold through the real reader,
    then the twin margin (``fit_twin_margin``; ``twin_margin`` holds it instead).

    The temperature is fitted by likelihood on the classifier's logits (both half turns averaged, as the
    reader reads) of the detections on the ``calib`` photos. The threshold is the lowest at which at most
    ``wrong_share`` of the confident tiles are wrong (``vision.evaluate.threshold_for``) both on the calib
    photos and on ``tables`` rendered tables of each kind (``vision.synth.bench_table``, seeds the bench
    does not use), read by ``vision.tiles.read_tiles`` with the melds' say: the higher of the two."""
    from vision.evaluate import scored_tiles, threshold_for
    from vision.synth import TABLE_KINDS, bench_table
    from vision.tiles import LABELS, TileModels, read_tiles

    models = TileModels.load(out)
    none = len(models.classifier.labels) - 1
    turns = (0, 2) if models.half_turns else (0,)

    def logits_of(image: np.ndarray, tiles: list[TileLabel]) -> tuple[list[np.ndarray], list[int]]:
        dets = models.detect(image)
        raw = models.classifier.turn_logits(models.crops(image, dets), turns).mean(axis=0)
        centres = [geometry(t.corners) for t in tiles]
        found = match_labels([(d.x, d.y) for d in dets], [(c[0], c[1], c[3]) for c in centres])
        return list(raw), [none if j is None else tiles[j].label for j in found]

    logits, labels = [], []
    for photo in load_photos(data, "calib"):
        rows, kinds = logits_of(photo.image, photo.tiles)
        logits += rows
        labels += kinds
    if not logits:
        raise SystemExit("calibration: the detector found nothing on the calib photos; train it longer")
    table_logits, table_labels = [], []
    for kind in TABLE_KINDS:
        for n in range(tables):
            frame, truth = bench_table(kind, n, CALIBRATION_SEED)
            laid = [TileLabel(np.float32(t.corners), LABELS.index(str(t.tile))) for t in truth.tiles]
            rows, kinds = logits_of(frame, laid)
            table_logits += rows
            table_labels += kinds
    # The softer of the two fits: a reader that reads every calib tile right (as the detector of issue 32's
    # second retrain does) would otherwise be given a temperature near 0 (every probability 0 or 1).
    fitted = [fit_temperature(logits, labels)]
    if table_logits:
        fitted.append(fit_temperature(table_logits, table_labels))
    temperature = max(fitted)
    print(
        "calibration: temperature on the calib photos / rendered tables: "
        + " / ".join(f"{t:.3f}" for t in fitted),
        flush=True,
    )
    models.classifier.temperature = temperature
    # The melds' say depends on the threshold (a doubtful tile may be decided by its meld): read with a
    # provisional one, fit, and read again with the fitted one. The threshold is fitted without the twin
    # margin, which is fitted after it.
    models.confidence_threshold = 0.5
    models.twin_margin = 0.0
    for _ in range(2):
        real: list[tuple[float, bool]] = []
        real_true = 0
        for item in load_folder(data / DATASET, "calib"):
            scored, true = scored_tiles(item, read_tiles(cv2.imread(str(item.path)), models=models))
            real += scored
            real_true += true
        rendered: list[tuple[float, bool]] = []
        rendered_true = 0
        for kind in TABLE_KINDS:
            for n in range(tables):
                frame, truth = bench_table(kind, n, CALIBRATION_SEED)
                observation = read_tiles(frame, models=models)
                rendered += _scored_rendered(observation, truth)
                rendered_true += len(truth.tiles)
        threshold = max(threshold_for(real, wrong_share), threshold_for(rendered, wrong_share))
        print(f"calibration: threshold {models.confidence_threshold:.3f} -> {threshold:.3f}", flush=True)
        models.confidence_threshold = threshold
    for name, scored, true in (
        ("calib photos", real, real_true),
        ("rendered tables", rendered, rendered_true),
    ):
        sure = [right for conf, right in scored if conf >= threshold]
        print(
            f"calibration on {name}: confident precision {sum(sure) / max(1, len(sure)):.4f}, "
            f"coverage {sum(sure) / max(1, true):.4f} ({len(sure) - sum(sure)} wrong of {len(sure)})"
        )
    print(f"calibration: temperature {temperature:.3f}, threshold {threshold:.3f}")
    if twin_margin is None:
        margin = fit_twin_margin(calibration_reads(data, models, tables), threshold)
    else:
        margin = twin_margin  # held (--twin-margin): a net that reads no twin wrongly would be fitted 0
    print(f"calibration: twin margin {margin:.2f}")
    return {"temperature": temperature, "confidence_threshold": round(threshold, 4), "twin_margin": margin}


CALIBRATION_SEED = 5000  # rendered tables for the threshold; bench/tiles_tables.py uses 1000
TWIN_MARGINS = tuple(round(0.02 * k, 2) for k in range(51))  # the twin margins tried: 0, 0.02 … 1
TWIN_LOSS = 0.01  # the share of confident right readings the twin margin may make unsure


@dataclass
class CalibrationRead:
    """The classifier's say on one calib photo or rendered table (``TileModels.read``) and the truth: the
    expensive part of reading, kept so each twin margin is tried on the same reads."""

    truth: object  # a LabelledImage (photo) or a TableTruth (rendered table)
    photo: bool
    detections: list
    probs: np.ndarray
    sure: np.ndarray
    leads: np.ndarray


def calibration_reads(data: Path, models: object, tables: int) -> list[CalibrationRead]:
    """The calib photos and ``tables`` rendered tables of each kind (seed ``CALIBRATION_SEED``), read."""
    from vision.synth import TABLE_KINDS, bench_table

    reads = []
    for item in load_folder(data / DATASET, "calib"):
        image = cv2.imread(str(item.path))
        found, probs, sure, leads = models.read(image, models.detect(image))  # type: ignore[attr-defined]
        reads.append(CalibrationRead(item, True, found, probs, sure, leads))
    for kind in TABLE_KINDS:
        for n in range(tables):
            frame, truth = bench_table(kind, n, CALIBRATION_SEED)
            found, probs, sure, leads = models.read(frame, models.detect(frame))  # type: ignore[attr-defined]
            reads.append(CalibrationRead(truth, False, found, probs, sure, leads))
    return reads


def twin_misreads(reads: list[CalibrationRead], threshold: float, margin: float) -> tuple[int, int, int]:
    """``(confident readings wrong as the true tile's twin, confident readings wrong, confident right)``
    over ``reads`` with the given threshold and twin margin (``vision.tiles.observe``: the melds' say
    included; a tile is confident when the reader does not list it as uncertain)."""
    from vision.evaluate import tile_matches, tile_name
    from vision.tiles import LABELS, TWINS, observe

    twin_wrong = wrong = right = 0
    for read in reads:
        observation = observe(read.detections, read.probs, read.sure, read.leads, threshold, margin)
        if read.photo:
            matches, unused = tile_matches(read.truth, observation)  # type: ignore[arg-type]
            pairs = [(tile_name(box.name or str(box.cls)), best) for box, best in matches if best is not None]
        else:
            pairs, unused = _rendered_pairs(observation, read.truth)
        for truth, i in pairs:
            if i in observation.uncertain:
                continue
            seen = str(observation.tiles[i].tile)
            if seen == truth:
                right += 1
                continue
            wrong += 1
            if truth != "J" and LABELS.index(truth) in TWINS[LABELS.index(seen)] + TWINS[LABELS.index(truth)]:
                twin_wrong += 1
        wrong += sum(i not in observation.uncertain for i in unused)
    return twin_wrong, wrong, right


def _rendered_pairs(observation: object, truth: object) -> tuple[list[tuple[str, int]], set[int]]:
    """Each tile of a rendered table (its text) with the tile read nearest it, as ``bench/tiles_tables.py``
    pairs them; and the tiles read that no tile took."""
    tiles = observation.tiles  # type: ignore[attr-defined]
    unused = set(range(len(tiles)))
    pairs = []
    for t in truth.tiles:  # type: ignore[attr-defined]
        best = min(
            (i for i in unused if math.dist(tiles[i].center, t.center) < 0.36 * t.size),
            key=lambda i: math.dist(tiles[i].center, t.center),
            default=None,
        )
        if best is not None:
            unused.remove(best)
            pairs.append((str(t.tile), best))
    return pairs, unused


def fit_twin_margin(reads: list[CalibrationRead], threshold: float, loss: float = TWIN_LOSS) -> float:
    """The twin margin: grown over ``TWIN_MARGINS`` while the confident right readings it makes unsure
    (after the melds' say) stay within ``loss`` of those without a margin, on the calib photos and on the
    rendered tables each; it stops at the first margin that leaves no confident reading that is the true
    tile's twin."""
    photos = [r for r in reads if r.photo]
    tables = [r for r in reads if not r.photo]
    base = [twin_misreads(part, threshold, 0.0)[2] for part in (photos, tables)]
    fitted = 0.0
    for margin in TWIN_MARGINS:
        counts = [twin_misreads(part, threshold, margin) for part in (photos, tables)]
        lost = [1 - c[2] / max(1, b) for c, b in zip(counts, base, strict=True)]
        print(
            f"twin margin {margin:.2f}: confident twin misreads {counts[0][0]} (photos) {counts[1][0]} "
            f"(tables), right readings lost {lost[0]:.2%} / {lost[1]:.2%}",
            flush=True,
        )
        if max(lost) > loss:
            break
        fitted = margin
        if counts[0][0] + counts[1][0] == 0:
            break
    return fitted


def _scored_rendered(observation: object, truth: object) -> list[tuple[float, bool]]:
    """``(confidence, right)`` of each tile read on a rendered table, paired with the tile nearest it."""
    tiles = truth.tiles  # type: ignore[attr-defined]
    out = []
    for seen in observation.tiles:  # type: ignore[attr-defined]
        near = min(tiles, key=lambda t: math.dist(t.center, seen.center), default=None)
        right = (
            near is not None
            and math.dist(near.center, seen.center) < 0.36 * near.size
            and near.tile == seen.tile
        )
        out.append((seen.confidence, right))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = arguments(
        __doc__,
        detector_steps=4500,
        classifier_steps=5000,
        seed=13,
        synthetic=160,
        rendered="rendered tables",
    )
    parser.add_argument(
        "--calibration-tables", type=int, default=12, help="rendered tables of each kind for the threshold"
    )
    parser.add_argument(
        "--stage",
        choices=("all", "detector", "classifier", "calibrate", "twin-margin"),
        default="all",
        help="all (default), or one stage reusing the others' files in --out (twin-margin: the twin margin "
        "alone, for the temperature and threshold in the settings)",
    )
    parser.add_argument(
        "--no-hard-negatives", action="store_true", help="train the classifier without the detector's misses"
    )
    parser.add_argument(
        "--no-runs",
        action="store_true",
        help="train without real fit tiles laid in tight runs on plain light tables (lay_runs)",
    )
    parser.add_argument(
        "--edge-cut",
        type=float,
        default=EDGE_CUT_SHARE,
        help="the share of the classifier's samples cut by a photo's edge across the crop "
        "(training.frame_edge; 0: none)",
    )
    parser.add_argument(
        "--edge-cut-digit",
        action="store_true",
        help="with --edge-cut: cut down to 0.3 of the tile, and label a tile whose digit the edge cuts "
        "'not a tile' (training.frame_edge.digit_left)",
    )
    parser.add_argument(
        "--leave-out-partly-cut",
        action="store_true",
        help="with --edge-cut-digit: a tile whose digit the edge cuts but leaves more than half of "
        "(training.frame_edge.DIGIT_GONE) is left out, neither named nor 'not a tile'",
    )
    parser.add_argument(
        "--digit-named-from",
        type=float,
        default=1.0,
        help="with --edge-cut-digit: a tile the edge cuts keeps its label while at least this share of its "
        "digit is in the picture, else it is 'not a tile' (1: only a whole digit is named)",
    )
    parser.add_argument(
        "--rack-ends",
        type=float,
        default=RACK_END_SHARE,
        help="the share of the classifier's samples cut from a rendered rack of real fit tiles: its dark "
        "blank ends and gaps as 'not a tile', now and then its tiles (training.rack_ends; 0: none)",
    )
    parser.add_argument(
        "--motion-blur",
        type=share,
        default=0.0,
        help="the share of the classifier's crops smeared along a line as by a hand-held phone "
        "(training.motion_blur; 0: none)",
    )
    parser.add_argument(
        "--twin-margin",
        type=float,
        default=None,
        metavar="M",
        help="with the calibrate stage: hold the twin margin at M instead of fitting it (a net that reads "
        "no calib twin wrongly is fitted 0, and its confidence would no longer drop when a twin is close)",
    )
    args = parser.parse_args(argv)
    if args.twin_margin is not None and not 0.0 <= args.twin_margin <= 1.0:
        parser.error("--twin-margin: from 0 to 1")
    if args.twin_margin is not None and args.stage not in ("all", "calibrate"):
        parser.error("--twin-margin: only with --stage calibrate or all (the stages that calibrate)")
    if not 0.0 <= args.edge_cut <= 1.0:
        parser.error("--edge-cut: a share from 0 to 1")
    if not 0.0 <= args.rack_ends < 1.0:
        parser.error("--rack-ends: a share from 0 to below 1")
    if args.edge_cut_digit and not args.edge_cut:
        parser.error("--edge-cut-digit needs --edge-cut")
    if args.leave_out_partly_cut and not args.edge_cut_digit:
        parser.error("--leave-out-partly-cut needs --edge-cut-digit")
    if not 0.0 < args.digit_named_from <= 1.0:
        parser.error("--digit-named-from: a share above 0, at most 1")
    if args.digit_named_from < 1.0 and (not args.edge_cut_digit or args.leave_out_partly_cut):
        parser.error("--digit-named-from needs --edge-cut-digit, and not --leave-out-partly-cut")
    if args.rack_ends and args.no_runs:
        parser.error("--rack-ends lays the fit tiles of the runs' bank: not with --no-runs")
    start = prepare(args)
    config_path = args.out / "tiles_reader.json"
    config = {
        "detector": "tiles_detector.onnx",
        "classifier": "tiles_classifier.onnx",
        "net_long": NET_LONG,
        "stride": STRIDE,
        "crop": [CROP_W, CROP_H],
        "margin": MARGIN,
        "heat_threshold": 0.25,
        "recheck_below": RECHECK_BELOW,
        "read_both_half_turns": True,
        "white_reference": True,
        "temperature": 1.0,
        "confidence_threshold": 0.5,
        "twin_margin": 0.0,
    }
    if config_path.is_file():
        # Only what the stages fit is kept from an earlier run; the crop and the reading are this code's.
        kept = ("temperature", "confidence_threshold", "heat_threshold", "twin_margin")
        config.update({k: v for k, v in json.loads(config_path.read_text()).items() if k in kept})
    if args.stage == "twin-margin":
        from vision.tiles import TileModels

        write_config(config_path, config)
        models = TileModels.load(args.out)
        reads = calibration_reads(args.data, models, args.calibration_tables)
        config["twin_margin"] = fit_twin_margin(reads, models.confidence_threshold)
        write_config(config_path, config)
        print(f"twin margin {config['twin_margin']} ({time.monotonic() - start:.0f} s)")
        return
    if args.stage != "calibrate":
        real = load_photos(args.data, "fit")
        synthetic = synthetic_photos(args.synthetic, args.seed)
        bank = None if args.no_runs else tile_bank(real)
        print(f"{len(real)} photos, {len(synthetic)} tables ({time.monotonic() - start:.0f} s)", flush=True)
    if args.stage in ("all", "detector"):
        detector = train_detector(real, synthetic, args.detector_steps, args.seed, bank)
        export(detector, torch.zeros(1, 3, 192, 256), args.out / "tiles_detector.onnx", dynamic=True)
    if args.stage in ("all", "classifier"):
        labels = _labels()
        hard: list[tuple[Photo, float, float, float, float, float]] = []
        if not args.no_hard_negatives:
            if not (args.out / "tiles_classifier.onnx").is_file():
                placeholder = Classifier(len(labels)).eval()
                export(
                    placeholder, torch.zeros(1, 3, CROP_H, CROP_W), args.out / "tiles_classifier.onnx", False
                )
            write_config(config_path, config)
            hard = hard_negatives(real + synthetic, args.out)
            print(
                f"{len(hard)} hard negatives from the detector ({time.monotonic() - start:.0f} s)", flush=True
            )
        classifier = train_classifier(
            real,
            synthetic,
            hard,
            args.classifier_steps,
            args.seed,
            bank,
            args.edge_cut,
            args.edge_cut_digit,
            args.rack_ends,
            args.leave_out_partly_cut,
            args.digit_named_from,
            args.motion_blur,
        )
        export(
            classifier, torch.zeros(1, 3, CROP_H, CROP_W), args.out / "tiles_classifier.onnx", dynamic=False
        )
    write_config(config_path, config)
    if args.stage in ("all", "calibrate"):
        config.update(calibrate(args.data, args.out, args.calibration_tables, twin_margin=args.twin_margin))
        write_config(config_path, config)
        (args.out / "MODELS.txt").write_text(credits(args.out, CREDIT))
    shutil.rmtree(args.out / "__pycache__", ignore_errors=True)
    print(f"done in {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
