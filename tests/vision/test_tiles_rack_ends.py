"""`training.tiles --rack-ends`: a rack's dark blank ends and gaps beside real tiles, taught as "not a tile"
(`training.rack_ends`, no torch)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from training.rack_ends import Rack, lay_rack
from vision.nets import cut


def _bank(count: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Light tile faces (54 × 72) each with a coloured block for a number; labels 0 … count-1."""
    faces = np.full((count, 72, 54, 3), 232, np.uint8)
    for k in range(count):
        faces[k, 18:42, 18:36] = (30 * k % 255, 60, 200)
    return faces, np.arange(count)


def _table(rng: np.random.Generator) -> np.ndarray:
    return np.full((256, 256, 3), 190, np.uint8) + rng.integers(0, 10, (256, 256, 1)).astype(np.uint8)


@pytest.mark.parametrize("seed", range(4))
def test_the_blanks_are_dark_and_blank_and_lie_beside_the_tiles(seed: int) -> None:
    rng = np.random.default_rng(seed)
    faces, labels = _bank()
    racks = [lay_rack(_table(rng), faces, labels, rng, rng.uniform(40, 90)) for _ in range(8)]
    # A long rack of large tiles may leave both its ends out of the picture; most show one.
    assert sum(bool(rack.blanks) for _, rack in racks) >= 5
    for image, rack in racks:
        _check_rack(image, rack)


def _check_rack(image: np.ndarray, rack: Rack) -> None:
    assert image.shape == (256, 256, 3) and image.dtype == np.uint8
    assert 1 <= len(rack.tiles) <= 6
    assert 0.68 <= rack.short_side / rack.long_side <= 0.8
    centres = [corners.mean(axis=0) for corners, _ in rack.tiles]
    for x, y in rack.blanks:
        assert 0 <= x < 256 and 0 <= y < 256
        # No tile there: a blank is at least most of a tile's width from every tile's centre ...
        assert all(math.dist((x, y), c) > 0.9 * rack.short_side for c in centres)
        # ... and its middle is mostly the rack's dark plastic (an end may reach the table), no tile's face.
        patch = cut(image, (x, y), (0.5 * rack.short_side, 0.5 * rack.long_side), rack.turn, (12, 16))
        grey = patch.mean(axis=2)
        assert (grey < 150).mean() >= 0.5 and (grey > 215).mean() == 0
    # The blanks lie along the row: beside the tiles, at the tiles' turn.
    if len(centres) >= 2:
        t = math.radians(rack.turn)
        down = np.array((-math.sin(t), math.cos(t)))
        for x, y in rack.blanks:
            assert abs(float(np.dot(np.array((x, y)) - centres[0], down))) < 0.2 * rack.long_side


def test_the_tiles_show_their_faces_where_the_rack_says() -> None:
    rng = np.random.default_rng(3)
    faces, labels = _bank()
    for _ in range(10):
        image, rack = lay_rack(_table(rng), faces, labels, rng, 70.0)
        for corners, label in rack.tiles:
            centre = corners.mean(axis=0)
            if not (0 <= centre[0] < 256 and 0 <= centre[1] < 256):
                continue
            # The face's number block is in its middle either way up: its colour there, light around it.
            x, y = (round(float(v)) for v in centre)
            assert np.abs(image[y, x].astype(int) - faces[label][30, 27].astype(int)).max() < 40
