"""The phone's smear the card index classifier learns from (``training/motion_blur.py``, issue 30, session
13): torch-free, so it is checked wherever the tests run."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from training.motion_blur import LENGTH, motion_blur, motion_kernel


@pytest.mark.parametrize("length", [1.0, 2.0, 4.5, 8.0])
@pytest.mark.parametrize("turn", [0.0, 30.0, 90.0, 135.0])
def test_the_kernel_averages_a_line_of_its_length_at_its_turn(length: float, turn: float) -> None:
    kernel = motion_kernel(length, turn)
    assert kernel.shape[0] == kernel.shape[1] and kernel.shape[0] % 2 == 1
    assert kernel.sum() == pytest.approx(1.0, abs=1e-5)
    assert (kernel >= 0).all()
    # Its weight lies along the line through the centre at the turn (image rows grow downwards, so a
    # turn of t degrees anticlockwise on the screen runs along (cos t, -sin t)), and spreads about as far
    # as the line is long.
    c = kernel.shape[0] // 2
    ys, xs = np.nonzero(kernel > 1e-4)
    along = (xs - c) * np.cos(np.radians(turn)) - (ys - c) * np.sin(np.radians(turn))
    across = (xs - c) * np.sin(np.radians(turn)) + (ys - c) * np.cos(np.radians(turn))
    assert np.abs(across).max() <= 1.0
    assert np.abs(along).max() <= length / 2 + 1.0
    if length >= 4:
        assert np.abs(along).max() >= length / 2 - 1.5


def test_a_smear_blurs_across_its_direction_only() -> None:
    """A horizontal smear leaves a horizontal edge (dark above, light below) as it was and spreads a vertical
    one over several pixels."""
    flat = np.zeros((48, 32, 3), np.uint8)
    flat[24:] = 200
    kernel = motion_kernel(7.0, 0.0)
    smeared = cv2.filter2D(flat, -1, kernel, borderType=cv2.BORDER_REPLICATE)
    assert np.array_equal(smeared, flat)
    upright = np.ascontiguousarray(flat.transpose(1, 0, 2))  # the same edge, vertical
    smeared = cv2.filter2D(upright, -1, kernel, borderType=cv2.BORDER_REPLICATE)
    row = smeared[10, :, 0].astype(int)
    assert ((row > 20) & (row < 180)).sum() >= 4  # the step spread over the smear's length


def test_motion_blur_draws_a_smear_within_its_lengths_and_keeps_the_light() -> None:
    rng = np.random.default_rng(5)
    patch = np.random.default_rng(1).integers(0, 256, (48, 32, 3), dtype=np.uint8)
    outs = [motion_blur(patch, rng) for _ in range(20)]
    for out in outs:
        assert out.shape == patch.shape and out.dtype == patch.dtype
        assert abs(float(out.mean()) - float(patch.mean())) < 4.0
        assert out.std() < patch.std()  # noise smeared is smoother
    assert LENGTH[0] >= 1.0 and LENGTH[1] > LENGTH[0]
    assert len({out.tobytes() for out in outs}) == len(outs)  # a new length and turn each time
