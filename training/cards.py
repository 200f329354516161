"""Train the card reader's two small networks and export them to ONNX.

    pip install -e '.[train]'
    nice -n 5 python -m training.cards --data ../shared/datasets --out vision/models --synthetic-classifier

(the shipped models: the detector and the classifier were trained as two parallel ``--stage`` runs,
then ``--stage calibrate``; about 20 and 10 minutes on the shared 2-core machine)

1. **Detector**: the shared stride-4 CenterNet (``training.common.Detector``) with six channels:
   heat, log short side, dx, dy, log width, log height of the axis-aligned box of each card's *visible*
   part (what the real photos' labels are). The short side keeps neighbours in a tight fan apart.
2. **Classifier**: a small CNN on a square ``CROP`` × ``CROP`` crop (``MARGIN`` × the box's long side,
   not turned: the card may lie any way, so crops are shown at every quarter turn) with two heads:
   the rank (A … K, joker, a face-down card, not a card) and the suit (S H D C, not asked of a joker,
   back or not-a-card).
3. **Calibration**: both heads' temperatures are fitted by likelihood on the ``calib`` photos (real
   sessions the training never saw), and the confidence threshold is the lowest at which at most 1 in
   200 confident cards read on those photos is wrong (``vision.evaluate.threshold_for``), if at least
   200 are confident there (fewer cannot show 1 in 200: then the threshold is 1.0 and every card is
   unsure). Rendered tables are never used to calibrate: the confidence is a statement about real photos.

Real and rendered cards teach the same thing because they are cut the same way: the same box (the
visible part's, from the labels or from the renderer's owner map), the same crop geometry, the same
straightening and augmentation. The detector learns from both (``REAL_SHARE`` real). The shipped
classifier learns from rendered tables only (``--synthetic-classifier``): every real session is one
run of one suit, and a classifier shown them learned those runs' pictures (A–4 red is hearts, 8H
stands for 9H and 10H) instead of the index; the real photos then only fit its temperatures and
threshold. The renderer adds what the photos lack (jokers, mixed melds, tight fans, backs, other
tables and light).

The corner-index reader (``--stage index-detector``, ``--stage index-classifier``, then ``calibrate``):

4. **Index detector**: the same CenterNet (six channels: heat, log card height, dx, dy, cos and sin of the
   index's upright turn) on rendered tables (``index_tables``: two- and four-index decks; the renderer
   knows where every printed index lies and whether it is on top), the frame scaled so that a card is
   about ``INDEX_NET`` px long. With ``--real-index MODELS`` also (``REAL_INDEX_DETECTOR_SHARE`` of the
   samples) the real ``fit`` photos, scaled as the reader looks at them (``INDEX_LOOK``), with the
   indices that folder's reader finds and reads as a card holding them (``training/real_indices.py``:
   the photos label whole cards, not indices); on a labelled card only those are taught, off the cards
   the table is taught as no index (session 11).
5. **Index classifier**: upright ``PATCH`` patches (``PATCH_EXTENT`` × the card's height) around each
   index -> rank (A … K, joker, not an index) and suit. Rendered patches with the detector's errors as
   jitter, and as "not an index": corners without a printed index, pips, pictures, backs, the table and
   indices a quarter or half turn off. With ``--real-index MODELS`` also real patches of the ``fit``
   photos (``REAL_INDEX_SHARE`` of each batch), found by that folder's index detector and labelled with
   the labelled card they lie on: *for the rank head only and in grey*; with ``--real-negatives`` a peak
   on a card whose two likeliest ranks are no card of the photo is "not an index"; with
   ``--motion-blur S`` a share ``S`` of all patches is smeared as by a hand-held phone
   (``training/motion_blur.py``; both shipped since session 13). With ``--self-train`` those
   patches are labelled by what that folder's reader reads where (``self_index_patches``: a peak read
   as the rank of a card holding it is that rank, a peak reading no card of the photo is "not an
   index", the rest left out); measured in session 6 and not shipped (docs/data.md). Each real
   session is one run of one suit photographed on its own afternoon hour, so a suit (or a colour)
   learned from them would be the session's look; the rank is shared across sessions (every suit's
   A–4, 5–8 and 9–K runs), and a patch of the index shows the card's paper and ink, hardly the table.

6. **Suit net** (``--stage suit``): the suit read apart from the rank, from the suit's rows of the index
   patch (``SUIT_ROWS``) scaled to the card's own paper (``vision.cards.paper_white``), on rendered
   patches and on the real ``fit`` patches (``REAL_SUIT_SHARE`` of each batch, a suit, then one of its
   sessions, then a patch; strong light changes): the real suits without the session's look.
7. **Side net** (``--stage side``): whether an index is printed at a left or a right corner (a
   four-index deck's top-left and top-right look alike), from a wider patch (``SIDE_EXTENT``) where the
   card's side edge shows; rendered tables only (the renderer knows each printed index).

    nice -n 10 python -m training.cards --stage index-detector --out DIR --index-detector-steps 12000 \
        --real-index OLD
    nice -n 10 python -m training.cards --stage index-classifier --out DIR --index-classifier-steps 8000 \
        --real-index OLD --real-negatives --motion-blur 0.25
    nice -n 10 python -m training.cards --stage suit --out DIR --suit-steps 1000
    nice -n 10 python -m training.cards --stage side --out DIR --suit-steps 600
    python -m training.cards --stage calibrate --out DIR

(the shipped ones: 16 and 22 minutes on one core; ``--real-index`` needs a folder whose index
reader is trained: for the index detector, the reader before it — the shipped one of session 11 harvested
with session 10's, be1069f's ``vision/models``; for the index classifier, the shipped folder before it —
session 13's found its real patches with 108b169's, session 11's index detector, and told its negatives with
the index classifier it replaced.)

Data: the ``fit`` split of ``playing-cards`` (with ``--learn fit,val`` the ``val`` split too: every stage
that learns from real photos — the detector's boxes, the index classifier's rank patches, the suit net, a
classifier shown real photos) plus tables rendered by ``vision.cards_synth`` (cached in ``--cache``).
``calib`` calibrates and is never learned from (``--learn`` refuses it). Which splits each net learned
from is kept in the settings (``learned_from``) and said in the notice. Seeds are fixed.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import random
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from training.common import (
    Detector,
    cbr,
    credits,
    export,
    fit_classifier,
    fit_temperature,
    focal,
    photometric,
)
from training.learn_splits import LEARNABLE, learned_phrase, learned_splits
from training.motion_blur import share, smeared
from training.real_indices import RealIndexPhoto, index_targets, photo_indices, real_index_photos
from training.real_indices import card_classes as _classes
from vision.cards import CardModels
from vision.dataset import load_folder
from vision.nets import cut, edge_angles, normalise

NET_LONG = 384  # the first look's long side; the second look scales a card to about CARD_NET px
CARD_NET = 64
STRIDE = 4
CROP = 128
MARGIN = 1.1
CHANNELS = 6
DETECTOR_WIDTHS = (12, 16, 32, 48, 24)
DATASET = "playing-cards"
REAL_SHARE = 0.3  # of the samples drawn from real photos (the rest rendered)
CREDIT = """Card reader models (cards_detector.onnx, cards_classifier.onnx, cards_index_detector.onnx,
cards_index.onnx, cards_suit.onnx, cards_side.onnx, cards_reader.json)

Trained by training/cards.py on {learned} of a public photo set{nets}:
- playing-cards: Roboflow 100 "poker cards" v2 (Team Roboflow, Augmented Startups;
  universe.roboflow.com/roboflow-100/poker-cards-cxcvz), via github.com/kom1323/CV_Object_Detection,
  licence CC BY 4.0 (creativecommons.org/licenses/by/4.0/); class names corrected
plus tables rendered by vision/cards_synth.py from the public-domain "Vector Playing Cards" (Byron Knoll)
as rendered by github.com/hayeah/playing-cards-assets (MIT). The models are derived from those
photographs and that artwork; keep this notice with them.
"""
# The nets that learn from real photos, as cards_reader.json's "learned_from" names them; the shipped
# ones before session 7 learned from "fit" only, the index detector (from session 11, with --real-index:
# the indices harvested on real photos) from rendered tables only before. The side net learns from
# rendered tables only, the whole-card classifier too (--synthetic-classifier); "calib" is never learned
# from.
REAL_NETS = {
    "detector": "cards_detector.onnx",
    "index_detector": "cards_index_detector.onnx",
    "index": "cards_index.onnx (ranks)",
    "suit": "cards_suit.onnx",
}
RENDERED_BEFORE_THE_RECORD = ("index_detector",)


def card_notice(learned: dict[str, list[str]]) -> str:
    """The card notice for MODELS.txt, saying which real splits each net learned from."""
    real = {net: splits for net, splits in learned.items() if splits}  # the others: rendered tables only
    every = tuple(s for s in LEARNABLE if any(s in v for v in real.values())) or ("fit",)
    nets = ""
    if len({tuple(v) for v in real.values()}) > 1:
        nets = " (" + "; ".join(f"{REAL_NETS.get(k, k)}: {', '.join(v)}" for k, v in real.items()) + ")"
    return CREDIT.format(learned=learned_phrase(every), nets=nets)


@dataclass(frozen=True)
class CardLabel:
    """A labelled card: the box of its visible part (x0, y0, x1, y1, image px) and its classes."""

    box: tuple[float, float, float, float]
    rank: int  # index into vision.cards.RANKS
    suit: int  # index into vision.cards.SUITS, or -1 (joker, back)


@dataclass
class Photo:
    image: np.ndarray
    cards: list[CardLabel]
    real: bool

    @property
    def card_size(self) -> float:
        """About a card's long side (image px): the median long side of the visible boxes (a strip of a
        fan is as long as its card)."""
        if not self.cards:
            return min(self.image.shape[:2]) / 4
        return float(np.median([max(c.box[2] - c.box[0], c.box[3] - c.box[1]) for c in self.cards]))


def _items(data: Path, splits: str | Sequence[str]) -> list[Any]:
    """The labelled photos of ``splits`` (one split's name, or several: ``--learn``'s)."""
    names = (splits,) if isinstance(splits, str) else tuple(splits)
    return [item for name in names for item in load_folder(data / DATASET, name)]  # type: ignore[arg-type]


def load_photos(data: Path, splits: str | Sequence[str]) -> list[Photo]:
    photos = []
    for item in _items(data, splits):
        cards = []
        for b in item.boxes:
            rank, suit = _classes(b.name)
            cards.append(
                CardLabel((b.cx - b.w / 2, b.cy - b.h / 2, b.cx + b.w / 2, b.cy + b.h / 2), rank, suit)
            )
        photos.append(Photo(cv2.imread(str(item.path)), cards, True))
    return photos


def synthetic_photos(count: int, seed: int, cache: Path) -> list[Photo]:
    """Rendered tables (cached in ``cache``): Kalooki melds fanned any way, loose cards, a stock."""
    path = cache / f"cards_synth_{count}_{seed}.pkl"
    if path.is_file():
        with path.open("rb") as handle:
            stored = pickle.load(handle)
        return [Photo(cv2.imdecode(img, cv2.IMREAD_COLOR), cards, False) for img, cards in stored]
    from vision.cards_synth import random_kalooki_melds, render_card_table

    rng = np.random.default_rng(seed + 17)
    picker = random.Random(seed)
    photos: list[Photo] = []
    stored = []
    while len(photos) < count:
        size = (int(rng.integers(800, 1281)), int(rng.integers(600, 801)))
        melds = random_kalooki_melds(picker, int(rng.integers(3, 16)))
        loose = (
            [m[0] for m in random_kalooki_melds(picker, int(rng.integers(0, 3)))]
            if rng.random() < 0.4
            else []
        )
        tight = rng.random() < 0.5
        try:
            frame, truth = render_card_table(
                melds,
                loose,
                rng,
                size=size,
                card_height=float(rng.uniform(0.13, 0.36) * min(size)),
                spread=(0.2, 0.4) if tight else (0.3, 1.05),
                backs=int(rng.integers(0, 4)) if rng.random() < 0.4 else 0,
            )
        except ValueError:
            continue
        cards = []
        for c in truth.cards:
            if c.card is not None and not c.index_visible:
                continue  # a card whose index is hidden: no label (the reader may call it unsure or miss it)
            rank, suit = _classes(c.label)
            cards.append(CardLabel(c.box, rank, suit))
        photos.append(Photo(frame, cards, False))
        stored.append((cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cards))
        if len(photos) % 50 == 0:
            print(f"rendered {len(photos)} tables", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        pickle.dump(stored, handle)
    return photos


def _pick(real: list[Photo], synthetic: list[Photo], rng: np.random.Generator) -> Photo:
    photos = real if real and (rng.random() < REAL_SHARE or not synthetic) else synthetic
    return photos[rng.integers(len(photos))]


# ---------------------------------------------------------------- detector


def _turn_box(box: tuple[float, float, float, float], m: np.ndarray) -> tuple[float, float, float, float]:
    pts = np.array([(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])], np.float64)
    out = pts @ m[:, :2].T + m[:, 2]
    return float(out[:, 0].min()), float(out[:, 1].min()), float(out[:, 0].max()), float(out[:, 1].max())


def _detector_sample(
    photo: Photo, rng: np.random.Generator, out: int
) -> tuple[np.ndarray, list[tuple[float, ...]]]:
    h, w = photo.image.shape[:2]
    # The reader scales each frame so that a card is about CARD_NET px long (vision.cards); train around it.
    scale = math.exp(rng.uniform(math.log(CARD_NET / 1.8), math.log(CARD_NET * 1.6))) / photo.card_size
    if photo.cards and rng.random() < 0.85:
        b = photo.cards[rng.integers(len(photo.cards))].box
        cx = (b[0] + b[2]) / 2 + rng.uniform(-0.4, 0.4) * out / scale
        cy = (b[1] + b[3]) / 2 + rng.uniform(-0.4, 0.4) * out / scale
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    # Quarter turns only: they keep an axis-aligned box axis-aligned.
    m = cv2.getRotationMatrix2D((cx, cy), 90.0 * int(rng.integers(4)), scale)
    m[:, 2] += (out / 2 - cx, out / 2 - cy)
    border = tuple(int(v) for v in rng.integers(0, 256, 3))
    img = cv2.warpAffine(photo.image, m, (out, out), flags=cv2.INTER_AREA, borderValue=border)
    return photometric(img, rng, hue=False), [_turn_box(c.box, m) for c in photo.cards]


def _detector_targets(boxes: list[tuple[float, ...]], out: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g = out // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((CHANNELS - 1, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for x0, y0, x1, y1 in boxes:
        bw, bh = max(2.0, x1 - x0), max(2.0, y1 - y0)
        x, y = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        if not (0 <= x < g and 0 <= y < g):
            continue
        sigma = max(0.6, min(bw, bh) / STRIDE * 0.15)
        heat = np.maximum(heat, np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * sigma**2)))
        ix, iy = int(x), int(y)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(min(bw, bh)), x - ix, y - iy, math.log(bw), math.log(bh))
        mask[iy, ix] = 1.0
    return heat, reg, mask


def train_detector(real: list[Photo], synthetic: list[Photo], steps: int, seed: int) -> Detector:
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    net = Detector(CHANNELS, DETECTOR_WIDTHS)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    out, batch = 192, 8
    start = time.monotonic()
    for step in range(steps):
        imgs, heats, regs, masks = [], [], [], []
        for _ in range(batch):
            img, boxes = _detector_sample(_pick(real, synthetic, rng), rng, out)
            heat, reg, mask = _detector_targets(boxes, out)
            imgs.append(img)
            heats.append(heat)
            regs.append(reg)
            masks.append(mask)
        pred = net(torch.from_numpy(normalise(np.stack(imgs))))
        heat_t, reg_t, mask_t = (torch.from_numpy(np.stack(a)) for a in (heats, regs, masks))
        n = mask_t.sum().clamp(min=1.0)
        reg_loss = (torch.abs(pred[:, 1:] - reg_t) * mask_t[:, None]).sum() / n
        loss = focal(pred[:, 0], heat_t) + reg_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            print(
                f"detector step {step} loss {loss.item():.3f} ({time.monotonic() - start:.0f} s)", flush=True
            )
    return net.eval()


# ---------------------------------------------------------------- classifier


class Classifier(nn.Module):
    """Square crops (3 × CROP × CROP) -> rank logits then suit logits."""

    def __init__(self, ranks: int, suits: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            cbr(3, 16, 2),
            cbr(16, 24),
            nn.MaxPool2d(2),
            cbr(24, 48),
            nn.MaxPool2d(2),
            cbr(48, 64),
            cbr(64, 64),
            nn.MaxPool2d(2),
            cbr(64, 96),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(96, ranks + suits),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def card_crop(image: np.ndarray, cx: float, cy: float, side: float, angle: float = 0.0) -> np.ndarray:
    return cut(image, (cx, cy), (side, side), angle, (_crop[0], _crop[0]))


_crop = [CROP]  # the crop size of this run (--crop)


def _negative(photo: Photo, rng: np.random.Generator) -> tuple[float, float, float] | None:
    """A crop centre and side that is no card's: off to a side of a card, between two, or the table."""
    h, w = photo.image.shape[:2]
    centres = [
        ((c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2, min(c.box[2] - c.box[0], c.box[3] - c.box[1]))
        for c in photo.cards
    ]
    for _ in range(20):
        if photo.cards and rng.random() < 0.6:
            b = photo.cards[rng.integers(len(photo.cards))].box
            side = max(b[2] - b[0], b[3] - b[1]) * math.exp(rng.uniform(-0.5, 0.2))
            x = rng.uniform(b[0] - 0.4 * side, b[2] + 0.4 * side)
            y = rng.uniform(b[1] - 0.4 * side, b[3] + 0.4 * side)
        else:
            side = min(h, w) * rng.uniform(0.15, 0.4)
            x, y = rng.uniform(0, w), rng.uniform(0, h)
        if all(math.hypot(x - cx, y - cy) > max(0.5 * short, 0.25 * side) for cx, cy, short in centres):
            return x, y, side
    return None


def _classifier_sample(
    real: list[Photo], synthetic: list[Photo], rng: np.random.Generator, none: int
) -> tuple[np.ndarray, int, int]:
    photo = _pick(real, synthetic, rng)
    if rng.random() < 0.14 or not photo.cards:
        found = _negative(photo, rng)
        if found is None:
            return _classifier_sample(real, synthetic, rng, none)
        x, y, side = found
        rank, suit = none, -1
    else:
        card = photo.cards[rng.integers(len(photo.cards))]
        x0, y0, x1, y1 = card.box
        bw, bh = x1 - x0, y1 - y0
        # The detector's centre and sides are off by about this much: cover it.
        x = (x0 + x1) / 2 + rng.normal(0, 0.07) * bw
        y = (y0 + y1) / 2 + rng.normal(0, 0.07) * bh
        side = MARGIN * max(bw, bh) * math.exp(rng.normal(0, 0.15))
        rank, suit = card.rank, card.suit
    # Straightened by the turn of the edges around it, as the reader does (a quarter turn is left over).
    angle = float(edge_angles(photo.image, [(x, y)], [side / MARGIN])[0]) + rng.normal(0, 3.0)
    crop = card_crop(photo.image, x, y, side, angle)
    crop = np.ascontiguousarray(np.rot90(crop, int(rng.integers(4))))
    crop = photometric(_light(crop, rng), rng, hue=False)
    return crop, rank, suit


def _light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Warm or cold light, dim light with its noise, now and then."""
    out = img.astype(np.float32)
    if rng.random() < 0.5:
        kelvin = rng.uniform(-1.0, 1.0)
        out *= np.array((1 + 0.3 * kelvin, 1 + rng.uniform(-0.06, 0.06), 1 - 0.25 * kelvin), np.float32)
    if rng.random() < 0.15:
        out = out * rng.uniform(0.35, 0.65) + rng.normal(0, rng.uniform(2, 6), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def train_classifier(real: list[Photo], synthetic: list[Photo], steps: int, seed: int) -> Classifier:
    from vision.cards import RANKS, SUITS

    rng = np.random.default_rng(seed + 1)
    torch.manual_seed(seed + 1)
    none = RANKS.index("none")
    net = Classifier(len(RANKS), len(SUITS))
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    batch = 48
    start = time.monotonic()
    for step in range(steps):
        samples = [_classifier_sample(real, synthetic, rng, none) for _ in range(batch)]
        x = torch.from_numpy(normalise(np.stack([s[0] for s in samples])))
        ranks = torch.tensor([s[1] for s in samples])
        suits = torch.tensor([s[2] for s in samples])
        out = net(x)
        loss = F.cross_entropy(out[:, : len(RANKS)], ranks, label_smoothing=0.02)
        if (suits >= 0).any():
            loss = loss + F.cross_entropy(out[:, len(RANKS) :], suits, ignore_index=-1, label_smoothing=0.02)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 50 == 0 or step == steps - 1:
            acc = (out[:, : len(RANKS)].argmax(1) == ranks).float().mean().item()
            print(
                f"classifier step {step} loss {loss.item():.3f} rank acc {acc:.3f} "
                f"({time.monotonic() - start:.0f} s)",
                flush=True,
            )
    return net.eval()


# ---------------------------------------------------------------- corner index

INDEX_NET = 80  # the index detector learns from frames scaled so that a card is about this many px long
# ... and looks at real photos scaled so that a card as the card detector's boxes tell its length is this
# many px long: at 94 rather than 80 it finds and reads more real cards (chosen on fit and calib, session
# 10: calib recall 0.948 -> 0.966, rank accuracy 0.980 -> 0.992; docs/data.md)
INDEX_LOOK = 94
# An index read unsure and found turned off the edges around it (in a window of this many card heights) is
# read again turned square to them, the two readings averaged (``vision.cards.edge_turns``, ``EDGE_OFF``,
# ``EDGE_UNSURE``; chosen on fit and calib, session 10)
EDGE_VIEW = 0.6
INDEX_OUT = 192  # its training crops (network px)
INDEX_CHANNELS = 6  # heat, log card height, dx, dy, cos and sin of the index's upright turn
INDEX_WIDTHS = (16, 24, 32, 48, 32)
PATCH = (32, 48)  # the index patch (width, height) the index classifier reads
PATCH_EXTENT = (0.2, 0.3)  # its extent around the index centre, as shares of the card's height
INDEX_NONE = 14  # the index classifier's rank classes: A … K, joker, not an index
REAL_INDEX_DETECTOR_SHARE = 0.35  # of the index detector's samples cut from real photos (with --real-index)


INDEX_CONFIG = {
    "detector": "cards_index_detector.onnx",
    "classifier": "cards_index.onnx",
    "stride": STRIDE,
    "card_net": INDEX_LOOK,
    "heat_threshold": 0.3,
    "overlap": 0.1,
    "patch": list(PATCH),
    "extent": list(PATCH_EXTENT),
    "rank_temperature": 1.0,
    "suit_temperature": 1.0,
    "edge_view": EDGE_VIEW,
}


@dataclass
class IndexCard:
    """A rendered card for the index reader: its classes (rank -1 for a back), height (px), corners
    (clockwise from its top-left) and its printed corner indices (centre x, y, upright turn, on top)."""

    rank: int
    suit: int
    height: float
    corners: list[tuple[float, float]]
    indices: list[tuple[float, float, float, bool]]


@dataclass
class IndexTable:
    image: np.ndarray
    cards: list[IndexCard]

    @property
    def card_height(self) -> float:
        return float(np.median([c.height for c in self.cards])) if self.cards else 100.0


def index_tables(count: int, seed: int, cache: Path) -> list[IndexTable]:
    """Rendered tables with each card's corner indices (cached in ``cache``): Kalooki melds fanned any
    way, tight and loose, loose cards, a stock; two- and four-index decks of varied look."""
    path = cache / f"cards_index_{count}_{seed}.pkl"
    if path.is_file():
        with path.open("rb") as handle:
            stored = pickle.load(handle)
        return [IndexTable(cv2.imdecode(img, cv2.IMREAD_COLOR), cards) for img, cards in stored]
    from vision.cards_synth import random_kalooki_melds, render_card_table

    rng = np.random.default_rng(seed + 29)
    picker = random.Random(seed + 3)
    tables: list[IndexTable] = []
    stored = []
    while len(tables) < count:
        size = (int(rng.integers(800, 1281)), int(rng.integers(600, 801)))
        melds = random_kalooki_melds(picker, int(rng.integers(3, 16)))
        loose = (
            [m[0] for m in random_kalooki_melds(picker, int(rng.integers(0, 4)))]
            if rng.random() < 0.5
            else []
        )
        tight = rng.random() < 0.5
        try:
            frame, truth = render_card_table(
                melds,
                loose,
                rng,
                size=size,
                card_height=float(rng.uniform(0.13, 0.4) * min(size)),
                spread=(0.18, 0.4) if tight else (0.3, 1.1),
                backs=int(rng.integers(0, 4)) if rng.random() < 0.3 else 0,
            )
        except ValueError:
            continue
        cards = []
        for c in truth.cards:
            rank, suit = _classes(c.label)
            if c.card is None:
                rank = -1
            cards.append(
                IndexCard(
                    rank,
                    suit,
                    c.height,
                    [tuple(p) for p in c.corners],  # type: ignore[misc]
                    [(i.center[0], i.center[1], i.angle, i.visible) for i in c.indices],
                )
            )
        tables.append(IndexTable(frame, cards))
        stored.append((cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cards))
        if len(tables) % 100 == 0:
            print(f"rendered {len(tables)} index tables", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        pickle.dump(stored, handle)
    return tables


def _index_crop(
    image: np.ndarray, centres: Sequence[tuple[float, float]], scale: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, float]:
    """An ``INDEX_OUT`` px training crop of ``image`` scaled by ``scale``: near one of ``centres`` (85 % of
    the time, where there are any) or anywhere, turned a random quarter turn, in random light, as
    ``(crop, the affine from image to crop px, the turn in degrees counter-clockwise)``."""
    out = INDEX_OUT
    h, w = image.shape[:2]
    if centres and rng.random() < 0.85:
        x, y = centres[rng.integers(len(centres))]
        cx, cy = x + rng.uniform(-0.4, 0.4) * out / scale, y + rng.uniform(-0.4, 0.4) * out / scale
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    turn = 90.0 * int(rng.integers(4))
    m = cv2.getRotationMatrix2D((cx, cy), turn, scale)
    m[:, 2] += (out / 2 - cx, out / 2 - cy)
    border = tuple(int(v) for v in rng.integers(0, 256, 3))
    img = cv2.warpAffine(image, m, (out, out), flags=cv2.INTER_AREA, borderValue=border)
    return photometric(_light(img, rng), rng, hue=False), m, turn


def _index_detector_sample(table: IndexTable, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    scale = math.exp(rng.uniform(math.log(INDEX_NET / 1.35), math.log(INDEX_NET * 1.35))) / table.card_height
    shown = [(x, y) for c in table.cards for x, y, _a, visible in c.indices if visible]
    img, m, turn = _index_crop(table.image, shown, scale, rng)
    g = INDEX_OUT // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((INDEX_CHANNELS - 1, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for card in table.cards:
        for x, y, angle, visible in card.indices:
            if not visible:
                continue
            px, py = m[0, 0] * x + m[0, 1] * y + m[0, 2], m[1, 0] * x + m[1, 1] * y + m[1, 2]
            gx, gy = px / STRIDE, py / STRIDE
            if not (0 <= gx < g and 0 <= gy < g):
                continue
            sigma = max(0.7, card.height * scale * 0.04 / STRIDE)
            heat = np.maximum(heat, np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma**2)))
            ix, iy = int(gx), int(gy)
            heat[iy, ix] = 1.0
            # getRotationMatrix2D turns counter-clockwise on screen: the upright turns clockwise by -turn.
            t = math.radians(angle - turn)
            reg[:, iy, ix] = (math.log(card.height * scale), gx - ix, gy - iy, math.cos(t), math.sin(t))
            mask[iy, ix] = 1.0
    return img, heat, reg, mask


def train_index_detector(
    tables: list[IndexTable], steps: int, seed: int, real: Sequence[RealIndexPhoto] = ()
) -> Detector:
    """The index detector, from rendered tables and (``real``) a share of real photos' harvested indices."""
    from training.common import fit_detector

    def sample(rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        if real and rng.random() < REAL_INDEX_DETECTOR_SHARE:
            return _real_index_detector_sample(real[rng.integers(len(real))], rng)
        return _index_detector_sample(tables[rng.integers(len(tables))], rng)

    return fit_detector(  # type: ignore[return-value]
        lambda: Detector(INDEX_CHANNELS, INDEX_WIDTHS), sample, steps, seed, batch=8
    )


class IndexClassifier(nn.Module):
    """Upright index patches (3 × 48 × 32) -> rank logits (A … K, joker, not an index), suit logits."""

    def __init__(self, ranks: int = INDEX_NONE + 1, suits: int = 4) -> None:
        super().__init__()
        self.body = nn.Sequential(
            cbr(3, 24),
            cbr(24, 24),
            nn.MaxPool2d(2),
            cbr(24, 48),
            cbr(48, 48),
            nn.MaxPool2d(2),
            cbr(48, 64),
            cbr(64, 64),
            nn.MaxPool2d(2),
            cbr(64, 96),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(96, ranks + suits),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def index_patch(image: np.ndarray, x: float, y: float, angle: float, card_height: float) -> np.ndarray:
    """The upright patch around an index centre (as ``vision.cards`` cuts it)."""
    return cut(image, (x, y), (PATCH_EXTENT[0] * card_height, PATCH_EXTENT[1] * card_height), angle, PATCH)


def _index_classifier_sample(
    table: IndexTable, rng: np.random.Generator, smear: float = 0.0
) -> tuple[np.ndarray, int, int]:
    faces = [c for c in table.cards if c.rank >= 0]
    shown = [(c, i) for c in faces for i in c.indices if i[3]]
    kind = rng.random()
    h = table.card_height
    if shown and kind < 0.7:
        card, (x, y, angle, _v) = shown[rng.integers(len(shown))]
        h = card.height * math.exp(rng.uniform(-0.3, 0.2))  # the height is regressed: cover its error
        x += rng.normal(0, 0.025) * card.height
        y += rng.normal(0, 0.025) * card.height
        angle += rng.normal(0, 4.0)
        rank, suit = card.rank, card.suit
        if rng.random() < 0.12:  # an index read a quarter or half turn off is no index
            angle += 90.0 * int(rng.integers(1, 4))
            rank, suit = INDEX_NONE, -1
    elif table.cards and kind < 0.88:
        # A corner without a printed index on top, or anywhere on a card (pips, pictures, a back).
        card = table.cards[rng.integers(len(table.cards))]
        c = np.array(card.corners)
        k = int(rng.integers(4))
        a, b = (
            (rng.uniform(0.05, 0.2), rng.uniform(0.06, 0.22)) if rng.random() < 0.6 else rng.uniform(0, 1, 2)
        )
        right, down = c[1] - c[0], c[3] - c[0]
        fa, fb = (a, b) if k in (0,) else (1 - a, b) if k == 1 else (1 - a, 1 - b) if k == 2 else (a, 1 - b)
        x, y = (c[0] + fa * right + fb * down).tolist()
        angle = math.degrees(math.atan2(right[1], right[0])) + (180.0 if k in (2, 3) else 0.0)
        angle += rng.normal(0, 10.0) if rng.random() < 0.7 else rng.uniform(-180, 180)
        h = card.height * math.exp(rng.normal(0, 0.1))
        if any(
            math.hypot(x - i[0], y - i[1]) < 0.07 * card.height for cc in faces for i in cc.indices if i[3]
        ):
            return _index_classifier_sample(table, rng, smear)
        rank, suit = INDEX_NONE, -1
    else:
        ih, iw = table.image.shape[:2]
        x, y, angle = rng.uniform(0, iw), rng.uniform(0, ih), rng.uniform(-180, 180)
        if any(math.hypot(x - i[0], y - i[1]) < 0.07 * h for cc in faces for i in cc.indices if i[3]):
            return _index_classifier_sample(table, rng, smear)
        rank, suit = INDEX_NONE, -1
    patch = index_patch(table.image, x, y, angle, h)
    return photometric(_light(smeared(patch, rng, smear), rng), rng, hue=False), rank, suit


def real_index_patches(
    data: Path, models_folder: Path, split: str | Sequence[str] = "fit", negatives: bool = False
) -> list[tuple[np.ndarray, int, int, str]]:
    """Index patches of real photos: every index the index detector of ``models_folder`` finds with some
    heat, cut as the reader cuts it, as ``(patch, rank, suit, session)``. One inside a labelled card's
    box (the nearest such card) is given that card's rank and suit; one on no card is "not an index"
    (suit -1). Each real session is one run of one suit, so the suit is right whichever card of the photo
    the patch belongs to, but a suit learned from whole patches would be learned from the session's
    ranks and look: the rank head sees them in grey, the suit net (``train_suit_classifier``) sees only
    the suit's rows, on their own paper, with the suits' sessions balanced.

    With ``negatives``, a peak on a card whose two likeliest ranks (as the folder's index classifier
    reads it) are no card of the photo is "not an index" instead (a pip, a picture, a pattern: nothing
    it could be an index of), at any heat."""
    out: list[tuple[np.ndarray, int, int, str]] = []
    photos = photo_indices(data / DATASET, CardModels.load(models_folder), split)
    for item, image, session, card_height, readings in photos:
        photo_ranks = {_classes(b.name)[0] for b in item.boxes}
        for r in readings:
            x, y, angle, height, score = r.x, r.y, r.angle, r.card_height, r.score
            if negatives:
                likeliest = np.argsort(r.rank_p[:INDEX_NONE])[::-1][:2]
                on_card = any(
                    abs(x - b.cx) <= b.w / 2 + 0.04 * max(b.w, b.h)
                    and abs(y - b.cy) <= b.h / 2 + 0.04 * max(b.w, b.h)
                    for b in item.boxes
                )
                if on_card and not photo_ranks & {int(k) for k in likeliest}:
                    out.append((index_patch(image, x, y, angle, height), INDEX_NONE, -1, session))
                    continue
            if score < 0.45:
                continue
            best = None
            for b in item.boxes:
                pad = 0.04 * max(b.w, b.h)
                inside = abs(x - b.cx) <= b.w / 2 + pad and abs(y - b.cy) <= b.h / 2 + pad
                dist = math.hypot(x - b.cx, y - b.cy)
                if inside and (best is None or dist < best[0]):
                    best = (dist, b)
            if best is None:
                far = all(
                    abs(x - b.cx) > b.w / 2 + 0.15 * card_height
                    or abs(y - b.cy) > b.h / 2 + 0.15 * card_height
                    for b in item.boxes
                )
                if far:
                    out.append((index_patch(image, x, y, angle, height), INDEX_NONE, -1, session))
                continue
            rank, suit = _classes(best[1].name)
            out.append((index_patch(image, x, y, angle, height), rank, suit, session))
    return out


SELF_FAR = 0.15  # an index on no labelled card this share of a card's height off every card is the table


def self_index_patches(
    data: Path, models_folder: Path, split: str | Sequence[str] = "fit"
) -> list[tuple[np.ndarray, int, int, str]]:
    """Index patches of real photos labelled by self-training, as ``(patch, rank, suit, session)``: every
    peak the index detector of ``models_folder`` finds, read by its index classifier, and kept

    - as its card's rank where a labelled card whose box holds it is of the rank it reads (an index at
      its card's corner, or a pip of that card read as its rank: either says that card);
    - as "not an index" where neither of its two likeliest ranks is a rank of a card of the photo (a
      pip, a picture or the table read as an index: nothing it could be an index of), or where it lies
      on no card, away from every card;
    - and not at all otherwise (an index of a card holding it read as another rank, a 6 as a 9, or an index
      of a neighbour on a card's box: which card it shows is not known).

    ``real_index_patches`` gave every peak inside a card's box that card's rank: the indices of the
    neighbours overlapping that box and the pips read as another card taught the wrong rank."""
    out: list[tuple[np.ndarray, int, int, str]] = []
    photos = photo_indices(data / DATASET, CardModels.load(models_folder), split)
    for item, image, session, card_height, readings in photos:
        labels = [(b, *_classes(b.name)) for b in item.boxes]
        photo_ranks = {rank for _, rank, _ in labels}
        for r in readings:
            holding = []
            for b, rank, suit in labels:
                pad = 0.04 * max(b.w, b.h)
                if abs(r.x - b.cx) <= b.w / 2 + pad and abs(r.y - b.cy) <= b.h / 2 + pad:
                    holding.append((rank, suit))
            order = np.argsort(r.rank_p[:INDEX_NONE])[::-1]
            first, second = int(order[0]), int(order[1])
            patch = index_patch(image, r.x, r.y, r.angle, r.card_height)
            agree = [(rank, suit) for rank, suit in holding if rank == first]
            if agree:
                out.append((patch, agree[0][0], agree[0][1], session))
            elif not holding:
                far = all(
                    abs(r.x - b.cx) > b.w / 2 + SELF_FAR * card_height
                    or abs(r.y - b.cy) > b.h / 2 + SELF_FAR * card_height
                    for b, _, _ in labels
                )
                if far:
                    out.append((patch, INDEX_NONE, -1, session))
            elif first not in photo_ranks and second not in photo_ranks:
                out.append((patch, INDEX_NONE, -1, session))
    return out


def _real_index_detector_sample(photo: RealIndexPhoto, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """A crop of a real photo for the index detector, as ``_index_detector_sample`` cuts a rendered one but
    scaled as the reader looks (``INDEX_LOOK`` px a card as its boxes tell it), with a fifth array, the
    heat's weight (``training.real_indices.index_targets``: on a labelled card only the harvested indices
    are taught)."""
    look = INDEX_LOOK / photo.card_height
    scale = math.exp(rng.uniform(math.log(look / 1.35), math.log(look * 1.35)))
    img, m, turn = _index_crop(photo.image, [(x, y) for x, y, _a, _h in photo.indices], scale, rng)
    return (img, *index_targets(photo, m, turn, INDEX_OUT // STRIDE, STRIDE))


def _grey(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def _jitter(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = patch.shape[:2]
    # a little of the reader's own jitter: shift, scale and turn about the centre
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.normal(0, 3.0), math.exp(rng.normal(0, 0.06)))
    m[:, 2] += rng.normal(0, 1.0, 2)
    return cv2.warpAffine(patch, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def _real_index_sample(
    patches: list[tuple[np.ndarray, int, int, str]], rng: np.random.Generator, smear: float = 0.0
) -> tuple[np.ndarray, int, int]:
    patch, rank, _suit, _session = patches[rng.integers(len(patches))]
    return _grey(photometric(smeared(_jitter(patch, rng), rng, smear), rng, hue=False)), rank, -1


REAL_INDEX_SHARE = 0.3


def train_index_classifier(
    tables: list[IndexTable],
    steps: int,
    seed: int,
    real: list[tuple[np.ndarray, int, int, str]] | None = None,
    smear: float = 0.0,
) -> IndexClassifier:
    """The index classifier, taught ``steps`` batches of rendered patches (and ``real`` ones, a share
    ``REAL_INDEX_SHARE``); a share ``smear`` of all of them smeared as by a phone (``--motion-blur``)."""
    rng = np.random.default_rng(seed + 5)
    torch.manual_seed(seed + 5)
    net = IndexClassifier()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    batch = 64
    start = time.monotonic()
    ranks_n = INDEX_NONE + 1
    for step in range(steps):
        samples = []
        for _ in range(batch):
            if real and rng.random() < REAL_INDEX_SHARE:
                samples.append(_real_index_sample(real, rng, smear))
                continue
            crop, rank, suit = _index_classifier_sample(tables[rng.integers(len(tables))], rng, smear)
            samples.append((_grey(crop) if real and rng.random() < 0.1 else crop, rank, suit))
        x = torch.from_numpy(normalise(np.stack([s[0] for s in samples])))
        ranks = torch.tensor([s[1] for s in samples])
        suits = torch.tensor([s[2] for s in samples])
        out = net(x)
        loss = F.cross_entropy(out[:, :ranks_n], ranks, label_smoothing=0.02)
        if (suits >= 0).any():
            loss = loss + F.cross_entropy(out[:, ranks_n:], suits, ignore_index=-1, label_smoothing=0.02)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            acc = (out[:, :ranks_n].argmax(1) == ranks).float().mean().item()
            print(
                f"index classifier step {step} loss {loss.item():.3f} rank acc {acc:.3f} "
                f"({time.monotonic() - start:.0f} s)",
                flush=True,
            )
    return net.eval()


SUIT_ROWS = (18, 48)  # the rows of the index patch the suit net reads (the suit under the rank)
REAL_SUIT_SHARE = 0.5
TWIN_SUIT = (3, 2, 1, 0)  # the other suit of each suit's colour (S H D C: clubs, diamonds, hearts, spades)
SUITS_TEXT = "SHDC"
BALANCE_RANKS = True


class SuitClassifier(nn.Module):
    """The suit rows of an index patch, on its own paper (3 × 30 × 32) -> suit logits (S H D C)."""

    def __init__(self, suits: int = 4) -> None:
        super().__init__()
        self.body = nn.Sequential(
            cbr(3, 16),
            cbr(16, 16),
            nn.MaxPool2d(2),
            cbr(16, 32),
            cbr(32, 32),
            nn.MaxPool2d(2),
            cbr(32, 64),
            nn.MaxPool2d(2),
            cbr(64, 64),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(64, suits),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


def _washed(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Strong light changes for the suit net: the photometric ones, warm or cold or dim light, and the
    colour washed out now and then (the ink's hue must be read against the paper, not as a colour)."""
    out = photometric(_light(patch, rng), rng, hue=False)
    if rng.random() < 0.5:
        grey = out.mean(axis=2, keepdims=True)
        out = np.clip(grey + (out - grey) * rng.uniform(0.35, 1.3), 0, 255).astype(np.uint8)
    return out


def _suit_sample(
    tables: list[IndexTable],
    real: dict[int, dict[str, list[np.ndarray]]],
    rng: np.random.Generator,
) -> tuple[np.ndarray, int]:
    from vision.cards import suit_patches

    if real and rng.random() < REAL_SUIT_SHARE:
        # Balanced: a suit, then one of its sessions, then one of its patches.
        suit = list(real)[rng.integers(len(real))]
        sessions = list(real[suit].values())
        patches = sessions[rng.integers(len(sessions))]
        patch = _washed(_jitter(patches[rng.integers(len(patches))], rng), rng)
    else:
        while True:
            patch, rank, suit = _index_classifier_sample(tables[rng.integers(len(tables))], rng)
            if suit >= 0 and rank != INDEX_NONE:
                break
        if rng.random() < 0.5:
            patch = _washed(patch, rng)
    return suit_patches(patch[None], SUIT_ROWS)[0], suit


def train_suit_classifier(
    tables: list[IndexTable], steps: int, seed: int, real: list[tuple[np.ndarray, int, int, str]]
) -> SuitClassifier:
    """The suit net: rendered index patches (every suit at every rank) and the real ``fit`` patches
    read as an index, sessions balanced per suit, only the suit's rows, each on its own paper."""
    # A real patch teaches its suit only at a rank the other suit of its colour is photographed at too
    # (each session is one run: hearts A-4 beside no diamonds A-4 would teach "A-4 red is hearts").
    ranks = {suit: {r for _p, r, s, _ in real if s == suit} for suit in range(4)}
    by_suit: dict[int, dict[str, list[np.ndarray]]] = {}
    for patch, rank, suit, session in real:
        if suit >= 0 and rank != INDEX_NONE and (not BALANCE_RANKS or rank in ranks[TWIN_SUIT[suit]]):
            by_suit.setdefault(suit, {}).setdefault(session, []).append(patch)
    print({SUITS_TEXT[k]: {s: len(v) for s, v in d.items()} for k, d in by_suit.items()}, flush=True)
    # fit_classifier seeds its streams with seed + 1: seed + 9, as this net was trained with.
    net = fit_classifier(
        SuitClassifier, lambda r: _suit_sample(tables, by_suit, r), steps, seed + 8, 96, label_smoothing=0.02
    )
    assert isinstance(net, SuitClassifier)
    return net


SIDE_PATCH = (40, 30)  # the side net's patch (width, height) around an index centre
SIDE_EXTENT = (0.4, 0.3)  # as shares of the card's height: the card's side edge is in sight


def _side_sample(tables: list[IndexTable], rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """A rendered index on top and which corner it is printed at: 0 a left corner's (the first two a
    card has: top-left, bottom-right), 1 a right one's (a four-index deck's top-right, bottom-left);
    both equally often."""
    want = int(rng.integers(2))
    while True:
        table = tables[rng.integers(len(tables))]
        shown = [
            (c, i)
            for c in table.cards
            if c.rank >= 0
            for k, i in enumerate(c.indices)
            if i[3] and (k >= 2) == bool(want)
        ]
        if shown:
            break
    card, (x, y, angle, _v) = shown[rng.integers(len(shown))]
    h = card.height * math.exp(rng.uniform(-0.3, 0.2))
    x += rng.normal(0, 0.025) * card.height
    y += rng.normal(0, 0.025) * card.height
    angle += rng.normal(0, 4.0)
    patch = cut(table.image, (x, y), (SIDE_EXTENT[0] * h, SIDE_EXTENT[1] * h), angle, SIDE_PATCH)
    return _washed(patch, rng), want


def train_side_classifier(tables: list[IndexTable], steps: int, seed: int) -> SuitClassifier:
    # fit_classifier seeds its streams with seed + 1: seed + 11, as this net was trained with.
    net = fit_classifier(
        lambda: SuitClassifier(2),
        lambda r: _side_sample(tables, r),
        steps,
        seed + 10,
        96,
        label_smoothing=0.02,
    )
    assert isinstance(net, SuitClassifier)
    return net


def suit_accuracy(
    models_folder: Path, patches: list[tuple[np.ndarray, int, int, str]]
) -> list[tuple[str, int, int]]:
    """Per session, how many of the real patches read as an index get their card's suit from the reader
    of ``models_folder``: ``(session, right, indices)``."""
    from vision.cards import IndexReader, load_settings, suit_patches

    reader = IndexReader(models_folder, load_settings("cards", models_folder)["index"])
    totals: dict[str, list[int]] = {}
    shown = [p for p in patches if p[2] >= 0]
    for k in range(0, len(shown), 256):
        chunk = shown[k : k + 256]
        x = np.stack([p[0] for p in chunk])
        reader.classifier.setInput(normalise(x))
        logits = reader.classifier.forward()
        suits = logits[:, INDEX_NONE + 1 :]
        if reader.suit_net is not None:
            reader.suit_net.setInput(normalise(suit_patches(x, reader.suit_rows)))
            suits = reader.suit_net.forward()
        for (_p, _r, suit, session), z, s in zip(chunk, logits, suits, strict=True):
            if z[: INDEX_NONE + 1].argmax() == INDEX_NONE:
                continue
            t = totals.setdefault(session, [0, 0])
            t[0] += int(s.argmax() == suit)
            t[1] += 1
    return [(k, v[0], v[1]) for k, v in sorted(totals.items())]


# ---------------------------------------------------------------- calibration


def calibrate(data: Path, out: Path, wrong_share: float = 1 / 200) -> dict[str, float]:
    """Fit both heads' temperatures on the calib photos' detections (paired with the labelled card
    nearest), then the threshold through the real reader on the same photos."""
    from vision.cards import RANKS, read_cards
    from vision.evaluate import scored_cards, threshold_for

    models = CardModels.load(out)
    none = RANKS.index("none")
    rank_logits, rank_labels, suit_logits, suit_labels = [], [], [], []
    items = load_folder(data / DATASET, "calib")
    for item in items:
        image = cv2.imread(str(item.path))
        dets = models.detect(image)
        raw = models.logits(image, dets)
        for d, row in zip(dets, raw, strict=True):
            best = None
            for b in item.boxes:
                dist = math.hypot(d.x - b.cx, d.y - b.cy)
                if dist < 0.5 * min(b.w, b.h) and (best is None or dist < best[0]):
                    best = (dist, b)
            rank_logits.append(row[: len(RANKS)])
            if best is None:
                rank_labels.append(none)
            else:
                rank, suit = _classes(best[1].name)
                rank_labels.append(rank)
                suit_logits.append(row[len(RANKS) :])
                suit_labels.append(suit)
    temperatures = []
    for logits, labels in ((rank_logits, rank_labels), (suit_logits, suit_labels)):
        z = torch.tensor(np.array(logits), dtype=torch.float32)
        y = torch.tensor(labels)
        log_t = torch.zeros(1, requires_grad=True)
        opt = torch.optim.LBFGS([log_t], lr=0.1, max_iter=200)

        def closure(
            z: torch.Tensor = z,
            y: torch.Tensor = y,
            log_t: torch.Tensor = log_t,
            opt: torch.optim.LBFGS = opt,
        ) -> torch.Tensor:
            opt.zero_grad()
            loss = F.cross_entropy(z / log_t.exp(), y)
            loss.backward()
            return loss

        opt.step(closure)
        temperatures.append(float(log_t.exp().item()))
    models.rank_temperature, models.suit_temperature = temperatures
    index_temperatures = _index_temperatures(models, items) if models.index is not None else None
    models.confidence_threshold = 0.0
    scored: list[tuple[float, bool]] = []
    true = 0
    for item in items:
        s, t = scored_cards(item, read_cards(cv2.imread(str(item.path)), models=models))
        scored += s
        true += t
    threshold = threshold_for(scored, wrong_share)
    if sum(1 for conf, _ in scored if conf >= threshold) < 1 / wrong_share:
        # Too few confident readings to show 1 in 200 (two right of two says nothing): none is confident.
        threshold = 1.0
    sure = [right for conf, right in scored if conf >= threshold]
    print(
        f"calibration: temperatures rank {temperatures[0]:.3f} suit {temperatures[1]:.3f}, threshold "
        f"{threshold:.4f}: confident precision {sum(sure) / max(1, len(sure)):.4f}, coverage "
        f"{sum(sure) / max(1, true):.4f} ({len(sure) - sum(sure)} wrong of {len(sure)}) "
        f"on {len(items)} photos"
    )
    out: dict[str, Any] = {
        "rank_temperature": temperatures[0],
        "suit_temperature": temperatures[1],
        "confidence_threshold": round(threshold, 4),
    }
    if index_temperatures is not None:
        out["index"] = {
            **models.config["index"],
            "rank_temperature": round(index_temperatures[0], 4),
            "suit_temperature": round(index_temperatures[1], 4),
        }
    return out


def _index_temperatures(models: Any, items: list[Any]) -> tuple[float, float]:
    """The index classifier's rank and suit temperatures, fitted on the calib photos: each index found
    on a detected card paired with a labelled card is labelled with that card (its suit apart)."""
    from vision.cards import read_indices

    index = models.index
    rank_logits, rank_labels, suit_logits, suit_labels = [], [], [], []
    saved = (index.rank_temperature, index.suit_temperature)
    index.rank_temperature = index.suit_temperature = 1.0
    for item in items:
        image = cv2.imread(str(item.path))
        dets = models.detect(image)
        for d, seen in zip(dets, read_indices(image, dets, models), strict=True):
            best = None
            for b in item.boxes:
                dist = math.hypot(d.x - b.cx, d.y - b.cy)
                if dist < 0.5 * min(b.w, b.h) and (best is None or dist < best[0]):
                    best = (dist, b)
            if best is None:
                continue
            rank, suit = _classes(best[1].name)
            for r in seen:
                # back to logits (up to a constant per row) from the probabilities at temperature 1
                rank_logits.append(np.log(np.clip(r.rank_p, 1e-12, 1.0)))
                rank_labels.append(rank)
                suit_logits.append(np.log(np.clip(r.suit_p, 1e-12, 1.0)))
                suit_labels.append(suit)
    index.rank_temperature, index.suit_temperature = saved
    if not rank_labels:
        return saved
    fitted = (fit_temperature(rank_logits, rank_labels), fit_temperature(suit_logits, suit_labels))
    print(
        f"index temperatures on {len(rank_labels)} calib indices: rank {fitted[0]:.3f} suit {fitted[1]:.3f}"
    )
    index.rank_temperature, index.suit_temperature = fitted
    return fitted


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--out", type=Path, default=Path("vision/models"))
    parser.add_argument("--cache", type=Path, default=Path("/work/cache/cards"))
    parser.add_argument("--detector-steps", type=int, default=14000)
    parser.add_argument("--classifier-steps", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (the machine is shared)")
    parser.add_argument("--synthetic", type=int, default=400, help="rendered tables mixed into training")
    parser.add_argument("--index-tables", type=int, default=500, help="rendered tables for the index reader")
    parser.add_argument("--index-detector-steps", type=int, default=12000)
    parser.add_argument("--index-classifier-steps", type=int, default=3000)
    parser.add_argument("--suit-steps", type=int, default=1000, help="steps of the suit (or side) net")
    parser.add_argument(
        "--real-index",
        type=Path,
        default=None,
        help="a models folder whose index reader harvests the fit photos' indices: for the index detector "
        "(training/real_indices.py) or as the index classifier's patches (rank only)",
    )
    parser.add_argument(
        "--self-train",
        action="store_true",
        help="label --real-index's harvest by self-training (self_index_patches) instead of by box",
    )
    parser.add_argument(
        "--real-negatives",
        action="store_true",
        help="--real-index's peaks reading no card of their photo taught as 'not an index'",
    )
    parser.add_argument(
        "--motion-blur",
        type=share,
        default=0.0,
        help="the share of the index classifier's patches smeared as by a hand-held phone (motion_blur)",
    )
    parser.add_argument(
        "--learn",
        type=learned_splits,
        default=("fit",),
        help="the real splits every stage that learns from real photos learns from (the detector's boxes, "
        "the index classifier's rank patches, the suit net, a classifier shown real photos), "
        "comma-separated: fit (default) or fit,val; calib is refused (it calibrates)",
    )
    parser.add_argument("--crop", type=int, default=CROP, help="the classifier's crop side (px)")
    parser.add_argument(
        "--synthetic-classifier",
        action="store_true",
        help="train the classifier on rendered tables only (the real photos then only calibrate it)",
    )
    parser.add_argument(
        "--stage",
        choices=(
            "all",
            "detector",
            "classifier",
            "index-detector",
            "index-classifier",
            "suit",
            "side",
            "calibrate",
        ),
        default="all",
        help="all (default), or one stage reusing the others' files in --out",
    )
    args = parser.parse_args(argv)
    _crop[0] = args.crop
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    config_path = args.out / "cards_reader.json"
    config = {
        "detector": "cards_detector.onnx",
        "classifier": "cards_classifier.onnx",
        "net_long": NET_LONG,
        "card_net": CARD_NET,
        "stride": STRIDE,
        "crop": args.crop,
        "margin": MARGIN,
        "straighten": True,
        "heat_threshold": 0.3,
        "recheck_below": 0.95,
        "rank_temperature": 1.0,
        "suit_temperature": 1.0,
        "confidence_threshold": 0.5,
    }
    if config_path.is_file():
        kept = (
            "rank_temperature",
            "suit_temperature",
            "confidence_threshold",
            "heat_threshold",
            "index",
            "learned_from",
        )
        config.update({k: v for k, v in json.loads(config_path.read_text()).items() if k in kept})
    if args.stage == "side":
        tables = index_tables(args.index_tables, args.seed, args.cache)
        side_net = train_side_classifier(tables, args.suit_steps, args.seed)
        export(side_net, torch.zeros(1, 3, SIDE_PATCH[1], SIDE_PATCH[0]), args.out / "cards_side.onnx", False)
        config.setdefault("index", dict(INDEX_CONFIG))
        config["index"]["side"] = {
            "classifier": "cards_side.onnx",
            "patch": list(SIDE_PATCH),
            "extent": list(SIDE_EXTENT),
        }
        config_path.write_text(json.dumps(config, indent=2) + "\n")
        print(f"done in {time.monotonic() - start:.0f} s")
        return
    if args.stage == "suit":
        tables = index_tables(args.index_tables, args.seed, args.cache)
        found = args.real_index or args.out
        suit_net = train_suit_classifier(
            tables, args.suit_steps, args.seed, real_index_patches(args.data, found, args.learn)
        )
        _learned(config, "suit", args.learn)
        export(
            suit_net,
            torch.zeros(1, 3, SUIT_ROWS[1] - SUIT_ROWS[0], PATCH[0]),
            args.out / "cards_suit.onnx",
            False,
        )
        config.setdefault("index", dict(INDEX_CONFIG))
        config["index"]["suit"] = {"classifier": "cards_suit.onnx", "rows": list(SUIT_ROWS)}
        config_path.write_text(json.dumps(config, indent=2) + "\n")
        for session, right, total in suit_accuracy(args.out, real_index_patches(args.data, found, "calib")):
            print(f"calib {session}: suit {right / max(1, total):.3f} of {total} indices")
        print(f"done in {time.monotonic() - start:.0f} s")
        return
    if args.stage in ("index-detector", "index-classifier"):
        tables = index_tables(args.index_tables, args.seed, args.cache)
        print(f"{len(tables)} index tables ({time.monotonic() - start:.0f} s)", flush=True)
        if args.stage == "index-detector":
            real_photos = (
                real_index_photos(args.data / DATASET, args.real_index, args.learn, EDGE_VIEW)
                if args.real_index
                else []
            )
            _learned(config, "index_detector", args.learn if real_photos else ())
            if real_photos:
                print(
                    f"{sum(len(p.indices) for p in real_photos)} real indices harvested on "
                    f"{len(real_photos)} photos of {', '.join(args.learn)}",
                    flush=True,
                )
            net = train_index_detector(tables, args.index_detector_steps, args.seed, real_photos)
            export(net, torch.zeros(1, 3, 192, 256), args.out / "cards_index_detector.onnx", dynamic=True)
        else:
            real_patches = None
            if args.real_index and args.self_train:
                real_patches = self_index_patches(args.data, args.real_index, args.learn)
            elif args.real_index:
                real_patches = real_index_patches(
                    args.data, args.real_index, args.learn, negatives=args.real_negatives
                )
            _learned(config, "index", args.learn if real_patches else ())
            if real_patches:
                none = sum(1 for p in real_patches if p[1] == INDEX_NONE)
                print(
                    f"{len(real_patches)} real index patches (rank only, grey), {none} not an index",
                    flush=True,
                )
            net = train_index_classifier(
                tables, args.index_classifier_steps, args.seed, real_patches, args.motion_blur
            )
            export(net, torch.zeros(1, 3, PATCH[1], PATCH[0]), args.out / "cards_index.onnx", dynamic=False)
        config.setdefault("index", dict(INDEX_CONFIG))
        config_path.write_text(json.dumps(config, indent=2) + "\n")
        print(f"done in {time.monotonic() - start:.0f} s")
        return
    if args.stage != "calibrate":
        real = load_photos(args.data, args.learn)
        synthetic = synthetic_photos(args.synthetic, args.seed, args.cache)
        print(
            f"{len(real)} photos of {', '.join(args.learn)}, {len(synthetic)} tables "
            f"({time.monotonic() - start:.0f} s)",
            flush=True,
        )
    if args.stage in ("all", "detector"):
        detector = train_detector(real, synthetic, args.detector_steps, args.seed)
        export(detector, torch.zeros(1, 3, 192, 256), args.out / "cards_detector.onnx", dynamic=True)
        _learned(config, "detector", args.learn)
    if args.stage in ("all", "classifier"):
        from vision.cards import RANKS, SUITS

        shown = [] if args.synthetic_classifier else real
        _learned(config, "classifier", args.learn if shown else ())
        classifier = train_classifier(shown, synthetic, args.classifier_steps, args.seed)
        export(
            classifier,
            torch.zeros(1, 3, args.crop, args.crop),
            args.out / "cards_classifier.onnx",
            dynamic=False,
        )
        del RANKS, SUITS
    config_path.write_text(json.dumps(config, indent=2) + "\n")
    if args.stage in ("all", "calibrate"):
        config.update(calibrate(args.data, args.out))
        config_path.write_text(json.dumps(config, indent=2) + "\n")
        (args.out / "MODELS.txt").write_text(credits(args.out, card_notice(_learned_from(config))))
    shutil.rmtree(args.out / "__pycache__", ignore_errors=True)
    print(f"done in {time.monotonic() - start:.0f} s")


def _learned(config: dict[str, Any], net: str, splits: Sequence[str]) -> None:
    """Record in the settings which real splits ``net`` learned from (none: rendered tables only)."""
    config["learned_from"] = {**_learned_from(config), net: list(splits)}


def _learned_from(config: dict[str, Any]) -> dict[str, list[str]]:
    """The real splits each net learned from; the nets trained before the record learned from ``fit`` (the
    index detector from rendered tables only)."""
    before = {net: [] if net in RENDERED_BEFORE_THE_RECORD else ["fit"] for net in REAL_NETS}
    return {**before, **(config.get("learned_from") or {})}


if __name__ == "__main__":
    main()
