"""The settle tracker on synthetic video: rolling while the dice move, settled with the values at rest."""

from __future__ import annotations

import numpy as np

from vision import SettleTracker
from vision.synth import render_dice_scene


def _with_grain(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same scene as a camera sees it twice: fresh sensor noise on every frame."""
    return np.clip(frame + rng.normal(0, 2.0, frame.shape), 0, 255).astype(np.uint8)


def test_motion_then_rest_settles_with_the_right_values() -> None:
    rng = np.random.default_rng(1)
    tracker = SettleTracker(n_frames=3, stable_readings=2)
    values = (6, 2, 5, 1, 3)
    for step in range(6):  # the dice tumble: each frame shows them elsewhere
        moving, _ = render_dice_scene(values, seed=100 + step, noise=0)
        assert tracker.feed(_with_grain(moving, rng)).state == "rolling"
    rest, _ = render_dice_scene(values, seed=7, noise=0)
    states = [tracker.feed(_with_grain(rest, rng)) for _ in range(8)]
    first_settled = next(i for i, s in enumerate(states) if s.state == "settled")
    assert all(s.state == "rolling" and s.observation is None for s in states[:first_settled])
    # The first rest frame differs from the last moving frame; then n_frames quiet frames, two readings.
    assert first_settled == 4
    final = states[-1]
    assert final.state == "settled"
    assert final.observation is not None
    assert sorted(final.observation.values) == sorted(values)


def test_new_motion_starts_over() -> None:
    rng = np.random.default_rng(2)
    tracker = SettleTracker(n_frames=2, stable_readings=1)
    rest, _ = render_dice_scene((4, 4), seed=8, noise=0)
    statuses = [tracker.feed(_with_grain(rest, rng)).state for _ in range(4)]
    assert statuses[-1] == "settled"
    moved, _ = render_dice_scene((4, 4), seed=9, noise=0)
    assert tracker.feed(_with_grain(moved, rng)).state == "rolling"


def test_an_empty_tray_is_reported_empty() -> None:
    rng = np.random.default_rng(3)
    tracker = SettleTracker(n_frames=2, stable_readings=2)
    empty, _ = render_dice_scene((), seed=10, noise=0)
    statuses = [tracker.feed(_with_grain(empty, rng)) for _ in range(5)]
    assert statuses[-1].state == "empty"
    assert statuses[-1].observation is not None and statuses[-1].observation.dice == ()


def test_bad_settings_are_rejected() -> None:
    import pytest

    with pytest.raises(ValueError, match="n_frames"):
        SettleTracker(n_frames=0)
