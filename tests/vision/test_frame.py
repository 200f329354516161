"""Bad frames give one clear FrameError (a ValueError) naming the flaw, from every entry point."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision import FrameError, SettleTracker, read_dice
from vision.calibration import find_markers

BAD_FRAMES: list[tuple[Any, str]] = [
    (None, "None"),
    (np.zeros((0, 0, 3), np.uint8), "empty"),
    (np.zeros((480, 640, 3), np.float32), "dtype"),
    (np.zeros((480, 640), np.uint8), "shape"),
    (np.zeros((1, 1, 3), np.uint8), "too small"),
    (np.zeros((480, 640, 4), np.uint8), "shape"),
    ([[1, 2, 3]], "numpy array"),
]


@pytest.mark.parametrize(("frame", "words"), BAD_FRAMES)
def test_read_dice_rejects_bad_frames(frame: Any, words: str) -> None:
    with pytest.raises(FrameError, match=words):
        read_dice(frame)


@pytest.mark.parametrize(("frame", "words"), BAD_FRAMES)
def test_tracker_and_markers_reject_bad_frames(frame: Any, words: str) -> None:
    with pytest.raises(FrameError, match=words):
        SettleTracker().feed(frame)
    with pytest.raises(ValueError, match=words):
        find_markers(frame)


def test_blank_frame_reads_no_dice() -> None:
    observation = read_dice(np.full((720, 1280, 3), 128, np.uint8))
    assert observation.dice == ()
    assert observation.uncertain == ()
