"""The readers' output on a fixed set of photos, as committed from x86-64 and compared on another CPU.

OpenCV's DNN module may pick other kernels on ARM (NEON instead of AVX) and sum in another order, so a
confidence or a centre may differ in its last digits; what the readers say must not. The readings of
:data:`DICE_PHOTOS` (from the shared photo sets) and :data:`TILE_PHOTOS` (committed in
``tests/vision/data/melds``) are kept in :data:`EXPECTED` with the digests of the nets that made them;
:func:`differences` compares two sets of readings within :data:`TOLERANCE`:

- exactly: how many items, each item's value (pips, tile), the melds and loose tiles, which tiles the
  melds corrected, and which items are uncertain (unless the confidence lies within the confidence
  tolerance of the reader's threshold, where either side of it is the same reading);
- within the tolerance: centres, sizes and sides (px), angles (degrees, modulo the item's symmetry),
  confidences.

Items are paired by their centres, not by their order. ``bench/arch_reference.py --write`` writes
:data:`EXPECTED` again (on x86-64, after the nets changed); ``make test-arm64`` compares on aarch64.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
DATASETS = Path(os.environ.get("REFEREE_DATASETS", REPO.parent / "shared" / "datasets"))
MELDS = Path(__file__).parent / "data" / "melds"
EXPECTED = Path(__file__).parent / "data" / "readings.json"
MODELS = REPO / "vision" / "models"
MODEL_FILES = (
    "dice_detector.onnx",
    "dice_classifier.onnx",
    "dice_reader.json",
    "tiles_detector.onnx",
    "tiles_classifier.onnx",
    "tiles_reader.json",
)
REGENERATE = ".venv/bin/python bench/arch_reference.py --write"

TOLERANCE = {"px": 1.0, "degrees": 1.0, "confidence": 0.01}

# (shared photo set, image): two of each kind of dice photo, several dice to a photo.
DICE_PHOTOS = (
    ("dice-tray", "train/images/IMG_20191208_111904.jpg"),
    ("dice-tray", "train/images/IMG_20191209_095447.jpg"),
    ("dice-tray", "train/images/IMG_20191208_112251.jpg"),
    ("dice-webcam", "train/images/six_31.jpg"),
    ("dice-webcam", "train/images/five_35.jpg"),
    ("dice-webcam", "train/images/four_48.jpg"),
)
TILE_PHOTOS = ("melds-00.jpg", "melds-03.jpg", "melds-04.jpg", "melds-09.jpg", "melds-14.jpg", "melds-20.jpg")


def models_digest() -> dict[str, str]:
    return {name: hashlib.sha256((MODELS / name).read_bytes()).hexdigest() for name in MODEL_FILES}


def _photo(path: Path) -> tuple[np.ndarray, str]:
    data = path.read_bytes()
    frame = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        raise ValueError(f"{path}: not a readable image")
    return frame, hashlib.sha256(data).hexdigest()


def dice_photos_present() -> bool:
    return all((DATASETS / name / image).is_file() for name, image in DICE_PHOTOS)


def read_photos() -> dict[str, Any]:
    """This machine's readings of every photo, as JSON-ready data."""
    from vision import read_dice, read_tiles

    photos: dict[str, Any] = {}
    for name, image in DICE_PHOTOS:
        frame, digest = _photo(DATASETS / name / image)
        seen = read_dice(frame)
        photos[f"{name}/{image}"] = {
            "sha256": digest,
            "reader": "dice",
            "items": [
                [d.value, d.center[0], d.center[1], d.size, d.angle, d.confidence, d.held] for d in seen.dice
            ],
            "uncertain": list(seen.uncertain),
        }
    for image in TILE_PHOTOS:
        frame, digest = _photo(MELDS / image)
        table = read_tiles(frame)
        photos[f"melds/{image}"] = {
            "sha256": digest,
            "reader": "tiles",
            "items": [
                [str(t.tile), t.center[0], t.center[1], t.long_side, t.short_side, t.angle, t.confidence]
                for t in table.tiles
            ],
            "uncertain": list(table.uncertain),
            "melds": [list(m) for m in table.melds],
            "loose": list(table.loose),
            "corrected": list(table.corrected),
        }
    return photos


def readings() -> dict[str, Any]:
    from vision.dice import default_models as dice_models
    from vision.tiles import default_models as tile_models

    return {
        "written_by": REGENERATE,
        "tolerance": TOLERANCE,
        "thresholds": {
            "dice": dice_models().confidence_threshold,
            "tiles": tile_models().confidence_threshold,
        },
        "models": models_digest(),
        "photos": read_photos(),
    }


def load_expected() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXPECTED.read_text(encoding="utf-8"))
    return data


def _angle_gap(a: float, b: float, period: float) -> float:
    gap = abs(a - b) % period
    return min(gap, period - gap)


def _pairing(want: list[list[Any]], got: list[list[Any]]) -> list[int] | None:
    """For each expected item, the index of the found item nearest its centre (one-to-one), or None."""
    if len(want) != len(got):
        return None
    taken: set[int] = set()
    pairs = []
    for item in want:
        free = [j for j in range(len(got)) if j not in taken]
        j = min(free, key=lambda k: (got[k][1] - item[1]) ** 2 + (got[k][2] - item[2]) ** 2)
        taken.add(j)
        pairs.append(j)
    return pairs


def differences(expected: dict[str, Any], found: dict[str, Any]) -> list[str]:
    """Every difference between two sets of readings beyond :data:`TOLERANCE`, in words."""
    out: list[str] = []
    tolerance = expected["tolerance"]
    for photo, want in expected["photos"].items():
        got = found["photos"].get(photo)
        if got is None:
            out.append(f"{photo}: not read")
            continue
        if got["sha256"] != want["sha256"]:
            out.append(f"{photo}: another file than the one the readings were written from")
            continue
        pairs = _pairing(want["items"], got["items"])
        if pairs is None:
            out.append(f"{photo}: {len(got['items'])} items read, expected {len(want['items'])}")
            continue
        dice = want["reader"] == "dice"
        threshold = expected["thresholds"][want["reader"]]
        places = ("x", "y", "size") if dice else ("x", "y", "long side", "short side")
        for i, j in enumerate(pairs):
            a, b = want["items"][i], got["items"][j]
            where = f"{photo} item {i} ({a[0]})"
            if a[0] != b[0]:
                out.append(f"{where}: read as {b[0]}")
            for k, name in enumerate(places, start=1):
                if abs(a[k] - b[k]) > tolerance["px"]:
                    out.append(f"{where}: {name} {b[k]:.2f} px, expected {a[k]:.2f}")
            angle = len(places) + 1
            if _angle_gap(a[angle], b[angle], 90.0 if dice else 180.0) > tolerance["degrees"]:
                out.append(f"{where}: angle {b[angle]:.2f}°, expected {a[angle]:.2f}°")
            confidence = angle + 1
            if abs(a[confidence] - b[confidence]) > tolerance["confidence"]:
                out.append(f"{where}: confidence {b[confidence]:.4f}, expected {a[confidence]:.4f}")
            if dice and a[-1] != b[-1]:
                out.append(f"{where}: held {b[-1]}, expected {a[-1]}")
            near = abs(a[confidence] - threshold) <= tolerance["confidence"]
            if (i in want["uncertain"]) != (j in got["uncertain"]) and not near:
                out.append(f"{where}: uncertain {j in got['uncertain']}, expected {i in want['uncertain']}")
        if not dice:
            for key in ("melds", "loose", "corrected"):
                if key == "melds":
                    mapped = {frozenset(pairs[i] for i in meld) for meld in want["melds"]}
                    same = mapped == {frozenset(m) for m in got["melds"]}
                else:
                    same = {pairs[i] for i in want[key]} == set(got[key])
                if not same:
                    out.append(f"{photo}: {key} {got[key]}, expected {want[key]} (items paired by centre)")
    return out
