"""The trainers' ``--motion-blur S`` wiring, spied on alike for each trainer (``training.tiles``,
``training.dice``): which crops their samples had ``training.motion_blur.smeared`` smear."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest


def smeared_shapes(
    monkeypatch: pytest.MonkeyPatch, sample: Callable[[], object], draws: int = 80
) -> list[tuple[int, ...]]:
    """The shapes of the crops ``training.motion_blur.motion_blur`` was handed (and handed back unchanged)
    while ``sample`` drew ``draws`` classifier samples."""
    smeared: list[tuple[int, ...]] = []

    def motion_blur(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        smeared.append(crop.shape)
        return crop

    monkeypatch.setattr("training.motion_blur.motion_blur", motion_blur)
    for _ in range(draws):
        sample()
    return smeared
