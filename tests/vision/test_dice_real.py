"""The reader on real photographs from the shared datasets: each listed photo is read exactly.

The photos come from all three development splits (since issue 32 the split is by scene, see
``vision.dataset``; the shipped dice models were trained on the split before it, by file name, so some
photos of today's ``val`` scenes were among their training photos); the values are the photos'
labels. The datasets live outside the repository
(``REFEREE_DATASETS``, default ``../shared/datasets`` beside the project root, where CI puts them);
without them these tests are skipped.
"""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import pytest

from vision import read_dice
from vision.dataset import split_of

REPO = Path(__file__).resolve().parents[2]
DATASETS = Path(os.environ.get("REFEREE_DATASETS", REPO.parent / "shared" / "datasets"))

PHOTOS = [
    ("dice-tray", "train/images/IMG_20191209_095336.jpg", (1, 2, 2, 3, 6, 6)),
    ("dice-tray", "train/images/IMG_20191208_111904.jpg", (1, 2, 3, 3, 3, 3, 4, 5, 5)),
    ("dice-tray", "train/images/IMG_20191209_095710.jpg", (1, 1, 2, 3)),
    ("dice-tray", "train/images/IMG_20191208_112902.jpg", (5,)),
    ("dice-tray", "train/images/IMG_20191209_095447.jpg", (1, 2, 2, 2, 2, 3, 4, 4, 5, 6, 6, 6)),
    ("dice-tray", "train/images/IMG_20191209_100645.jpg", (1, 2, 2, 3, 4, 5)),
    ("dice-tray", "train/images/IMG_20191208_112826.jpg", (1, 2, 3, 3, 4, 5, 6)),
    ("dice-tray", "train/images/IMG_20191209_100553.jpg", (1, 1, 3)),
    ("dice-tray", "train/images/IMG_20191208_112541.jpg", (2, 3, 3, 4, 5, 6, 6)),
    ("dice-tray", "train/images/IMG_20191208_112714.jpg", (1, 2)),
    ("dice-tray", "train/images/IMG_20191208_112251.jpg", (1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4)),
    ("dice-tray", "train/images/IMG_20191209_100300.jpg", (1, 5, 5, 6, 6, 6)),
    ("dice-tray", "train/images/IMG_20191209_100405.jpg", (1,)),
    ("dice-tray", "train/images/IMG_20191209_100728.jpg", (2, 3, 4, 4, 6)),
    ("dice-tray", "train/images/IMG_20191209_095609.jpg", (2, 2, 4, 5, 6)),
    ("dice-tray", "train/images/IMG_20191209_100232.jpg", (2, 4, 4, 5, 5, 5)),
    ("dice-webcam", "train/images/dice_10.jpg", (1,)),
    ("dice-webcam", "train/images/six_28.jpg", (6, 6, 6)),
    ("dice-webcam", "train/images/three_25.jpg", (3, 3, 3)),
    ("dice-webcam", "train/images/two_21.jpg", (2, 2, 2)),
    ("dice-webcam", "train/images/six_31.jpg", (6, 6, 6, 6)),
    ("dice-webcam", "train/images/six_14.jpg", (6, 6)),
    ("dice-webcam", "train/images/dice_34.jpg", (1, 1, 1, 1)),
    ("dice-webcam", "train/images/four_23.jpg", (4, 4, 4)),
    ("dice-webcam", "train/images/three_5.jpg", (3,)),
    ("dice-webcam", "train/images/five_35.jpg", (5, 5, 5, 5)),
    ("dice-webcam", "train/images/dice_30.jpg", (1, 1, 1)),
    ("dice-webcam", "train/images/two_17.jpg", (2, 2)),
    ("dice-webcam", "train/images/four_48.jpg", (4, 4, 4, 4, 4)),
    ("dice-webcam", "train/images/four_32.jpg", (4, 4, 4, 4)),
    ("dice-webcam", "train/images/two_7.jpg", (2,)),
    ("dice-webcam", "train/images/six_5.jpg", (6,)),
]


@pytest.mark.parametrize(("dataset", "image", "values"), PHOTOS, ids=[p[1].split("/")[-1] for p in PHOTOS])
def test_photo_is_read_exactly(dataset: str, image: str, values: tuple[int, ...]) -> None:
    path = DATASETS / dataset / image
    if not path.is_file():
        pytest.skip(f"{path} not available")
    frame = cv2.imread(str(path))
    assert frame is not None
    observation = read_dice(frame)
    assert sorted(observation.values) == list(values)
    assert observation.uncertain == ()


def test_the_photos_come_from_every_split() -> None:
    splits = [split_of(image) for _, image, _ in PHOTOS]
    assert (splits.count("val"), splits.count("calib"), splits.count("fit")) == (7, 6, 19)
