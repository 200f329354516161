"""The corner indices of real photos, harvested by self-training for the index detector (issue 30,
session 11): torch-free, so that the tests check it where PyTorch is not installed.

The photos label whole cards (the box of each card's visible part), not their corner indices, so until
session 11 the index detector learned from rendered tables only, and it found real indices turned off
their card or cut short (docs/data.md). Here a reader's own index detector and classifier label them: an
index found on a labelled card is read twice, turned as the detector found it and turned square to the
straight edges around it (``vision.cards.edge_turns``), and kept, at the turn read surer, where that
reading is the rank of a card holding it at least ``HARVEST_SURE``. On those photos the detector is taught
the harvested indices, and the table (everywhere off the labelled cards) as no index; what else lies on a
card is not taught either way (an index the reader missed there is not known).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.cards import RANKS, SUITS, CardModels, IndexReader, IndexReading, edge_turns
from vision.dataset import load_folder, scene_of

HARVEST_SURE = 0.6  # an index is harvested where it is read this sure of the rank of a card holding it
BOX_PAD = 0.04  # an index this share of a box's long side outside it is still on that card


@dataclass
class RealIndexPhoto:
    """A real photo for the index detector: its image, the card height the reader looks at its indices
    with (from the card detector's boxes), the indices harvested on it as ``(x, y, upright turn, card
    height)`` and its labelled cards' boxes ``(x0, y0, x1, y1)``."""

    image: np.ndarray
    card_height: float
    indices: list[tuple[float, float, float, float]]
    boxes: list[tuple[float, float, float, float]]


def card_classes(name: str) -> tuple[int, int]:
    """The rank and suit classes of a label's name ("10C"; "JOKER" and "back" have suit -1).

    >>> card_classes("10C") == (RANKS.index("10"), SUITS.index("C")), card_classes("JOKER")[1]
    (True, -1)
    """
    if name in ("back", "JOKER"):
        return RANKS.index(name), -1
    return RANKS.index(name[:-1]), SUITS.index(name[-1])


def _holding(x: float, y: float, boxes: Sequence[tuple[float, float, float, float]]) -> list[int]:
    """The boxes (by position) holding the point (x, y), each padded by ``BOX_PAD`` of its long side."""
    out = []
    for k, (x0, y0, x1, y1) in enumerate(boxes):
        pad = BOX_PAD * max(x1 - x0, y1 - y0)
        if x0 - pad <= x <= x1 + pad and y0 - pad <= y <= y1 + pad:
            out.append(k)
    return out


def photo_indices(
    folder: Path, models: CardModels, splits: str | Sequence[str], limit: int | None = None
) -> Iterator[tuple[Any, np.ndarray, str, float, list[IndexReading]]]:
    """For each labelled photo of ``splits`` in ``folder`` (the shared layout; with ``limit``, the first so
    many of each split) on which the card detector of ``models`` finds a card: the photo's item, its image,
    its session, the card height the reader reads its indices at (from the detector's boxes, as the reader
    does) and the indices its index reader finds and reads there."""
    if models.index is None:
        raise ValueError("the card models have no index reader")
    for split in (splits,) if isinstance(splits, str) else splits:
        for item in load_folder(folder, split)[:limit]:  # type: ignore[arg-type]
            image = cv2.imread(str(item.path))
            dets = models.detect(image)
            if not dets:
                continue
            session = scene_of(item.path.name) or item.path.name
            card_height = float(np.median([max(d.width, d.height) for d in dets])) / 1.1
            yield item, image, session, card_height, models.index.read(image, card_height)


def real_index_photos(
    folder: Path, models_folder: Path, splits: str | Sequence[str], window: float, limit: int | None = None
) -> list[RealIndexPhoto]:
    """The labelled photos of ``photo_indices`` with the indices harvested on them by the reader of
    ``models_folder`` (``window``: the edges' window, as ``edge_turns`` takes it)."""
    models = CardModels.load(models_folder)
    out = []
    for item, image, _session, card_height, readings in photo_indices(folder, models, splits, limit):
        assert models.index is not None  # photo_indices raises first
        boxes = [(b.cx - b.w / 2, b.cy - b.h / 2, b.cx + b.w / 2, b.cy + b.h / 2) for b in item.boxes]
        ranks = [card_classes(b.name)[0] for b in item.boxes]
        found = [(r.x, r.y, r.angle, r.card_height, r.score) for r in readings]
        indices = harvest(image, models.index, found, boxes, ranks, window)
        out.append(RealIndexPhoto(image, card_height, indices, boxes))
    return out


def harvest(
    image: np.ndarray,
    index: IndexReader,
    found: Sequence[tuple[float, float, float, float, float]],
    boxes: Sequence[tuple[float, float, float, float]],
    ranks: Sequence[int],
    window: float,
) -> list[tuple[float, float, float, float]]:
    """Of the indices ``found`` in ``image`` (x, y, upright turn, card height, heat), those ``index`` reads
    at least ``HARVEST_SURE`` as the rank of a labelled card (``boxes``, ``ranks``) holding them, as the
    detector turned them or square to the edges around them, with the turn read surer: ``(x, y, turn,
    height)``."""
    if not found:
        return []
    square = edge_turns(image, found, window)
    as_found = index.rank_probabilities(image, found, [f[2] for f in found])
    squared = index.rank_probabilities(image, found, square)
    out = []
    for k, (x, y, angle, height, _heat) in enumerate(found):
        holding = {ranks[b] for b in _holding(x, y, boxes)}
        best: tuple[float, float] | None = None
        for turn, p in ((angle, as_found[k]), (square[k], squared[k])):
            rank = int(p.argmax())
            if rank in holding and p[rank] >= HARVEST_SURE and (best is None or p[rank] > best[0]):
                best = (float(p[rank]), turn)
        if best is not None:
            out.append((x, y, best[1], height))
    return out


def index_targets(
    photo: RealIndexPhoto, m: np.ndarray, turn: float, grid: int, stride: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The index detector's targets for a crop of ``photo`` cut by the affine ``m`` (image -> crop px;
    ``turn``: the quarter turns it turns by, degrees counter-clockwise; a ``grid`` × ``grid`` output of
    ``stride`` px cells): the heat, the regression (log card height, dx, dy, cos and sin of the upright
    turn), its mask, and the heat's weight — 0 on a labelled card's box, but around its harvested
    indices; 1 on the table.

    >>> photo = RealIndexPhoto(np.zeros((40, 40, 3), np.uint8), 20.0, [(8.0, 8.0, 0.0, 20.0)],
    ...                        [(4.0, 4.0, 18.0, 30.0)])
    >>> heat, reg, mask, weight = index_targets(photo, np.array([[1.0, 0, 0], [0, 1.0, 0]]), 0.0, 10, 4)
    >>> [float(v) for v in (heat[2, 2], mask.sum(), weight[2, 2], weight[6, 2], weight[8, 8])]
    [1.0, 1.0, 1.0, 0.0, 1.0]
    """
    heat = np.zeros((grid, grid), np.float32)
    reg = np.zeros((5, grid, grid), np.float32)
    mask = np.zeros((grid, grid), np.float32)
    weight = np.ones((grid, grid), np.float32)
    ys, xs = np.mgrid[0:grid, 0:grid].astype(np.float32)
    scale = float(math.hypot(m[0, 0], m[0, 1]))

    def to_grid(x: float, y: float) -> tuple[float, float]:
        return (
            (m[0, 0] * x + m[0, 1] * y + m[0, 2]) / stride,
            (m[1, 0] * x + m[1, 1] * y + m[1, 2]) / stride,
        )

    for x0, y0, x1, y1 in photo.boxes:
        pad = BOX_PAD * max(x1 - x0, y1 - y0)
        (ax, ay), (bx, by) = to_grid(x0 - pad, y0 - pad), to_grid(x1 + pad, y1 + pad)
        inside = (xs >= min(ax, bx)) & (xs <= max(ax, bx)) & (ys >= min(ay, by)) & (ys <= max(ay, by))
        weight[inside] = 0.0
    for x, y, angle, height in photo.indices:
        gx, gy = to_grid(x, y)
        if not (0 <= gx < grid and 0 <= gy < grid):
            continue
        sigma = max(0.7, height * scale * 0.04 / stride)
        near = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma**2)).astype(np.float32)
        heat = np.maximum(heat, near)
        weight[near > 0.1] = 1.0
        ix, iy = int(gx), int(gy)
        heat[iy, ix] = 1.0
        # the crop turns counter-clockwise on screen by ``turn``: the upright, clockwise, by -turn
        t = math.radians(angle - turn)
        reg[:, iy, ix] = (math.log(height * scale), gx - ix, gy - iy, math.cos(t), math.sin(t))
        mask[iy, ix] = 1.0
    return heat, reg, mask, weight
