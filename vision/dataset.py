"""Labelled photo folders in the shared dataset layout, and the fixed split used to develop the readers.

A folder holds ``ground_truth.csv`` (``split,image,width,height,n_objects,objects[,sum]``; ``image`` is
relative to the folder) and YOLO labels beside each ``images/`` folder (``.../labels/NAME.txt``, one
``class cx cy w h`` line per object, normalised; for dice ``class = pips - 1``).

The development split is decided by a hash of the image's file name alone, so it is the same on every
machine and never depends on the order of the CSV:

>>> split_of("train/images/dice_1.jpg") in ("fit", "calib", "val")
True
"""

from __future__ import annotations

import csv
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Split = Literal["fit", "calib", "val"]
SPLITS: tuple[Split, ...] = ("fit", "calib", "val")

# Percent of each dataset kept out of training: "val" is never trained or tuned on; "calib" fixes the
# classifier's temperature and the confidence threshold.
VAL_PERCENT = 24
CALIB_PERCENT = 15


def split_of(image: str) -> Split:
    """The development split of an image, from the MD5 of its file name (not its folder)."""
    bucket = int(hashlib.md5(Path(image).name.encode("utf-8")).hexdigest(), 16) % 100
    if bucket < VAL_PERCENT:
        return "val"
    if bucket < VAL_PERCENT + CALIB_PERCENT:
        return "calib"
    return "fit"


@dataclass(frozen=True)
class LabelledBox:
    """One labelled object: class index and its box in pixels (centre x, centre y, width, height)."""

    cls: int
    cx: float
    cy: float
    w: float
    h: float


@dataclass(frozen=True)
class LabelledImage:
    """One row of ``ground_truth.csv``: the image path, its true values and (when present) its boxes."""

    path: Path
    width: int
    height: int
    objects: tuple[str, ...]
    boxes: tuple[LabelledBox, ...]

    @property
    def split(self) -> Split:
        return split_of(self.path.name)


def _label_path(image: Path) -> Path:
    parts = list(image.parts)
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] == "images":
            parts[i] = "labels"
            break
    return Path(*parts).with_suffix(".txt")


def _read_boxes(image: Path, width: int, height: int) -> tuple[LabelledBox, ...]:
    label = _label_path(image)
    if not label.is_file():
        return ()
    boxes = []
    for line in label.read_text().splitlines():
        fields = line.split()
        if len(fields) != 5:
            continue
        cls, cx, cy, w, h = int(fields[0]), *(float(f) for f in fields[1:])
        boxes.append(LabelledBox(cls, cx * width, cy * height, w * width, h * height))
    return tuple(boxes)


def load_folder(folder: str | Path, split: Split | Literal["all"] = "all") -> list[LabelledImage]:
    """Every labelled image of a dataset folder, optionally only those of one development split.

    Raises ``FileNotFoundError`` naming the folder when it has no ``ground_truth.csv``.
    """
    root = Path(folder)
    table = root / "ground_truth.csv"
    if not table.is_file():
        raise FileNotFoundError(f"{root}: no ground_truth.csv")
    images = []
    with table.open(newline="") as handle:
        for row in csv.DictReader(handle):
            path = root / row["image"]
            width, height = int(row["width"]), int(row["height"])
            image = LabelledImage(
                path=path,
                width=width,
                height=height,
                objects=tuple(row["objects"].split()),
                boxes=_read_boxes(path, width, height),
            )
            if split == "all" or image.split == split:
                images.append(image)
    return images
