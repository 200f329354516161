"""The card reader on real photographs of sessions it never learned from nor was calibrated on.

* Committed photos: a few ``val`` photos of the shared CC BY 4.0 set, copied into
  ``tests/vision/data/cards`` (see its README), each with the reading the shipped models give it in
  ``cards.json``: the cards read with confidence (each one a labelled card: no confident misreading)
  and how many are unsure. ``python -m tests.vision.test_cards_real --write`` copies the photos and
  writes the readings again (after the models changed).
* With the shared set (``REFEREE_DATASETS``, default ``../shared/datasets``; skipped without it): the
  whole ``val`` split keeps the figures the shipped models were accepted with (docs/data.md).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import read_cards
from vision.evaluate import evaluate_cards

REPO = Path(__file__).resolve().parents[2]
DATASETS = Path(os.environ.get("REFEREE_DATASETS", REPO.parent / "shared" / "datasets"))
PHOTOS = Path(__file__).parent / "data" / "cards"
RECORDS = json.loads((PHOTOS / "cards.json").read_text()) if (PHOTOS / "cards.json").is_file() else []
# Six val photos: two sessions' cards on a white table, a cloth and a chair, from three held-out sessions;
# and four whole cards filling a close photo (162658), which the detector's look at 384 px saw as nothing
# (its close look finds them: ``CardModels.detect``).
SOURCES = (
    "IMG_20220316_161235_f2102e21.jpg",
    "IMG_20220316_161316_dbaa53fa.jpg",
    "IMG_20220316_162747_816eaa3d.jpg",
    "IMG_20220316_162831_8ea3f786.jpg",
    "IMG_20220316_171517_8482ab60.jpg",
    "IMG_20220316_162658_3d9772ec.jpg",
)


def _image(path: Path) -> np.ndarray:
    frame = cv2.imread(str(path))
    assert frame is not None, f"{path}: cannot read the image"
    return frame


@pytest.mark.parametrize("record", RECORDS, ids=[r["image"] for r in RECORDS])
def test_a_held_out_photo_reads_as_committed(record: dict) -> None:
    observation = read_cards(_image(PHOTOS / record["image"]))
    confident = sorted(str(c.card) for i, c in enumerate(observation.cards) if i not in observation.uncertain)
    assert confident == sorted(record["confident"]), str(observation)
    assert len(observation.uncertain) == record["unsure"], str(observation)
    # Whatever is read with confidence is on the photo: never a confident misreading.
    assert not Counter(confident) - Counter(record["labelled"])
    assert observation.copy_error == ""


def test_the_val_split_keeps_its_figures() -> None:
    folder = DATASETS / "playing-cards"
    if not folder.is_dir():
        pytest.skip("the shared photo sets are not on this machine")
    summary = evaluate_cards(folder, "val").summary()
    floors = json.loads((PHOTOS / "val_floors.json").read_text())
    for key, floor in floors.items():
        assert summary[key] >= floor, f"{key} {summary[key]} < {floor}"
    # The threshold was fitted on other sessions (calib) for at most 1 in 200 wrong: on val too, what is
    # read with confidence is right (or nothing is confident).
    assert summary["coverage"] == 0.0 or summary["confident_precision"] >= 0.98


def write() -> None:
    """Copy ``SOURCES`` from the shared set and write their readings as the shipped models give them."""
    from vision.dataset import load_folder

    items = {i.path.name: i for i in load_folder(DATASETS / "playing-cards", "val")}
    records = []
    for name in SOURCES:
        cv2.imwrite(str(PHOTOS / name), _image(items[name].path), [cv2.IMWRITE_JPEG_QUALITY, 85])
        observation = read_cards(_image(PHOTOS / name))
        records.append(
            {
                "image": name,
                "labelled": sorted(items[name].objects),
                "confident": sorted(
                    str(c.card) for i, c in enumerate(observation.cards) if i not in observation.uncertain
                ),
                "unsure": len(observation.uncertain),
            }
        )
    (PHOTOS / "cards.json").write_text(json.dumps(records, indent=1) + "\n")


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m tests.vision.test_cards_real --write")
    write()
