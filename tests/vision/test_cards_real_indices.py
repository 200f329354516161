"""The corner indices harvested on real photos for the index detector (``training/real_indices.py``, issue 30
session 11): torch-free, so checked here always. The photos label whole cards; an index found on a labelled
card and read as that card's rank is kept (at the turn read surer: the detector's or square to the edges),
and the detector is taught those indices and the table, nothing else on a card."""

from __future__ import annotations

import doctest
import json
import math
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

import training.real_indices as real_indices
from training.real_indices import HARVEST_SURE, RealIndexPhoto, index_targets, real_index_photos
from vision.cards import INDEX_NONE, MODELS, CardModels, IndexReader

REPO = Path(__file__).resolve().parents[2]
DATASETS = Path(os.environ.get("REFEREE_DATASETS", REPO.parent / "shared" / "datasets"))
CARDS = DATASETS / "playing-cards"


def test_the_modules_examples() -> None:
    assert doctest.testmod(real_indices).failed == 0


def test_the_shipped_index_detector_learned_from_fit_never_calib() -> None:
    learned = json.loads((MODELS / "cards_reader.json").read_text())["learned_from"]
    assert learned["index_detector"] == ["fit"]
    assert not any("calib" in splits for splits in learned.values())


def test_the_targets_teach_the_harvested_indices_and_the_table_not_the_rest_of_a_card() -> None:
    # A 200 x 300 card box; one index harvested at its top-left corner, upright turned 30 degrees.
    photo = RealIndexPhoto(
        np.zeros((400, 400, 3), np.uint8), 300.0, [(130.0, 70.0, 30.0, 300.0)], [(100.0, 40.0, 300.0, 340.0)]
    )
    for turn in (0.0, 90.0, 180.0):
        m = cv2.getRotationMatrix2D((200.0, 200.0), turn, 0.5)
        m[:, 2] += (96 - 200, 96 - 200)
        heat, reg, mask, weight = index_targets(photo, m, turn, 48, 4)
        ((iy, ix),) = np.argwhere(mask > 0)
        assert heat[iy, ix] == 1.0 and weight[iy, ix] == 1.0
        px, py = (m @ np.array([130.0, 70.0, 1.0])) / 4
        assert (ix, iy) == (int(px), int(py))
        assert math.isclose(reg[0, iy, ix], math.log(150.0), rel_tol=1e-5)  # the card's height in crop px
        upright = math.degrees(math.atan2(reg[4, iy, ix], reg[3, iy, ix]))
        assert abs((upright - (30.0 - turn) + 180) % 360 - 180) < 1e-3
        cx, cy = (m @ np.array([200.0, 190.0, 1.0])) / 4  # the card's middle: a pip, not taught
        assert weight[int(cy), int(cx)] == 0.0 and heat[int(cy), int(cx)] < 0.01
        tx, ty = (m @ np.array([50.0, 380.0, 1.0])) / 4  # the table beside it: taught as no index
        assert weight[int(ty), int(tx)] == 1.0 and heat[int(ty), int(tx)] == 0.0


def test_indices_harvested_on_real_photos_lie_on_their_cards_and_read_as_them() -> None:
    if not CARDS.is_dir():
        pytest.skip("the shared photo sets are not on this machine")
    folder = MODELS
    photos = real_index_photos(CARDS, folder, "fit", 0.6, limit=12)
    assert photos and sum(len(p.indices) for p in photos) >= 2 * sum(len(p.boxes) for p in photos)
    reader = CardModels.load(folder).index
    assert isinstance(reader, IndexReader)
    for photo in photos:
        for x, y, turn, height in photo.indices:
            assert any(x0 - 20 <= x <= x1 + 20 and y0 - 20 <= y <= y1 + 20 for x0, y0, x1, y1 in photo.boxes)
            # Read again at the turn harvested: a rank of one of the photo's cards, at least HARVEST_SURE.
            (p,) = reader.rank_probabilities(photo.image, [(x, y, turn, height, 1.0)], [turn])
            assert p.max() >= HARVEST_SURE - 1e-6 and p.argmax() < INDEX_NONE
