"""The tile reader on real photographs.

* Grouping: on the 22 hand-labelled meld photos in ``tests/vision/data/melds`` (cropped and scaled
  copies from the CC BY 4.0 set, see its README) every labelled tile is found and the melds and loose
  tiles are exactly the labelled ones. Tiles are paired by position, so this checks the grouping, not
  the reading.
* Readings: each listed photo of the shared set (``REFEREE_DATASETS``, default ``../shared/datasets``;
  skipped without it) is read to exactly its labelled multiset; the ``val`` ones were never trained or
  tuned on.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import read_tiles
from vision.dataset import load_folder
from vision.evaluate import tile_name

REPO = Path(__file__).resolve().parents[2]
DATASETS = Path(os.environ.get("REFEREE_DATASETS", REPO.parent / "shared" / "datasets"))
MELDS = Path(__file__).parent / "data" / "melds"
RECORDS = json.loads((MELDS / "melds.json").read_text())


def _partition(groups: list[list[int]]) -> set[frozenset[int]]:
    return {frozenset(g) for g in groups}


# Where the reader misses a tile the grouping cannot be exact; each such photo is named here with why
# (the shipped models: 20 of the 22 photos are grouped exactly).
DETECTOR_MISSES = {
    "melds-02.jpg": "the joker is not read (classified as no tile)",
    "melds-11.jpg": "the joker is not read (classified as no tile)",
}


def _param(record: dict) -> object:
    reason = DETECTOR_MISSES.get(record["image"])
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(record, marks=marks, id=record["image"])


@pytest.mark.parametrize("record", [_param(r) for r in RECORDS])
def test_melds_on_hand_labelled_photos(record: dict) -> None:
    frame = cv2.imread(str(MELDS / record["image"]))
    observation = read_tiles(frame)
    labelled = [*record["melds"], *([t] for t in record["loose"])]
    # Pair each labelled tile with the tile read nearest its centre.
    index: dict[tuple[float, float], int] = {}
    for group in labelled:
        for t in group:
            i = min(
                range(len(observation.tiles)),
                key=lambda i: math.dist(observation.tiles[i].center, (t["x"], t["y"])),
            )
            assert math.dist(observation.tiles[i].center, (t["x"], t["y"])) < 12, f"{t['tile']} not found"
            index[(t["x"], t["y"])] = i
    assert len(set(index.values())) == len(index) == len(observation.tiles), str(observation)
    expected = _partition([[index[(t["x"], t["y"])] for t in group] for group in labelled])
    found = _partition([list(m) for m in observation.melds] + [[i] for i in observation.loose])
    assert found == expected, str(observation)


# Thirteen val photos (28 of the 48 val photos are read exactly; these are the larger layouts).
PHOTOS = [
    "train/images/rummy-23_jpeg.rf.821d41a9325159f7d5f2123df69e7f4b.jpg",
    "train/images/rummy-24_jpeg.rf.952b01af34991a324f4e49f1f031d556.jpg",
    "train/images/rummy-40_jpeg.rf.ed28b8aa69deb3cf06fb93223ebcdb32.jpg",
    "train/images/rummy2-1_jpeg.rf.872843be50d9b7962d0d85d5dc293f16.jpg",
    "train/images/rummy2-27_jpeg.rf.1c74d2307d8081c9e41c43dabb75cc78.jpg",
    "train/images/rummy2-30_jpeg.rf.7401a2f47e8b65af658bf1ce369e9935.jpg",
    "train/images/rummy2-3_jpeg.rf.eb71c041c26e3249f7f50b9c19304d1d.jpg",
    "train/images/rummy2-7_jpeg.rf.32ece4deb64715f4181d5a39334c41b6.jpg",
    "train/images/rummy3-2_jpeg.rf.581c65ee7e3758d6b85ad784c9ddc192.jpg",
    "train/images/rummy4-3_jpeg.rf.f0c71ed5439e1ff93236e3dda69bfad1.jpg",
    "train/images/rummy4-88_jpeg.rf.1ce359f5f08c82732db77700b597eb9f.jpg",
    "train/images/rummy4-33_jpeg.rf.9c17893a692579e828a5592239f5a6ab.jpg",
    "train/images/rummy4-37_jpeg.rf.4135814ba0aea1ec3636a7a58a1d4bb2.jpg",
]


@pytest.mark.parametrize("name", PHOTOS)
def test_real_photos_read_exactly(name: str) -> None:
    folder = DATASETS / "rummikub-tiles"
    if not folder.is_dir():
        pytest.skip("the shared photo set is not on this machine")
    (item,) = [i for i in load_folder(folder, "val") if i.path.name == Path(name).name]
    observation = read_tiles(cv2.imread(str(item.path)))
    assert sorted(str(t.tile) for t in observation.tiles) == sorted(tile_name(n) for n in item.objects)


def _turned(image: np.ndarray, angle: float) -> np.ndarray:
    """The photo turned ``angle`` degrees about its centre, on a canvas large enough to keep every tile."""
    h, w = image.shape[:2]
    d = int(math.hypot(h, w)) + 4
    top, left = (d - h) // 2, (d - w) // 2
    big = cv2.copyMakeBorder(image, top, d - h - top, left, d - w - left, cv2.BORDER_REFLECT)
    m = cv2.getRotationMatrix2D((d / 2, d / 2), angle, 1.0)
    return cv2.warpAffine(big, m, (d, d), borderMode=cv2.BORDER_REFLECT)


# Photos with sixes and nines, turned a quarter and a half turn: a 6 stays a 6 upside down (the maker's
# mark at its foot says so). At odd turns (37°, -120°) these small crops are read worse; see the README.
SIX_NINE = ["melds-00.jpg", "melds-06.jpg", "melds-14.jpg", "melds-19.jpg", "melds-21.jpg"]


@pytest.mark.parametrize("angle", [90.0, 180.0])
@pytest.mark.parametrize("image", SIX_NINE)
def test_six_and_nine_on_turned_photos(image: str, angle: float) -> None:
    (record,) = [r for r in RECORDS if r["image"] == image]
    names = [t["tile"] for group in [*record["melds"], *([t] for t in record["loose"])] for t in group]
    expected = sorted(n for n in names if n[1:] in ("6", "9"))
    observation = read_tiles(_turned(cv2.imread(str(MELDS / image)), angle))
    assert sorted(str(t.tile) for t in observation.tiles if str(t.tile)[1:] in ("6", "9")) == expected
