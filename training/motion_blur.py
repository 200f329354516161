"""A hand-held phone's smear, for the card index classifier (issue 30, session 13); torch-free, for the
tests.

The `val` session the card reader read worst (5–8♣, F1 0.93 where the others read 0.98) is photographed
by hand, close, and many of its photos are smeared along one direction by the phone's movement: a 5's
index read as a 4, an 8's as a 9, two indices of one card read as two cards. The augmentation the index
classifier learned from (``training.common.photometric``) blurs round (a Gaussian of at most 1.4 px), never
along a line. ``motion_blur`` smears a patch along a straight line of ``LENGTH`` px at any turn, as a phone
moved during the exposure does; ``training.cards --motion-blur S`` smears a share ``S`` of the index
classifier's patches, rendered and real alike, before their light and noise.
"""

from __future__ import annotations

import argparse
import math

import cv2
import numpy as np

# The smear's length in px of a 32×48 index patch (0.3 × 0.2 of a card's height): 2–8 px of 48 is about
# 1.5–5 % of a card's height, 3–10 px of a 200 px card in a 960×720 photo.
LENGTH = (2.0, 8.0)


def motion_kernel(length: float, turn: float) -> np.ndarray:
    """A normalised line kernel ``length`` px long (at least 1) turned ``turn`` degrees: the average of the
    pixels along that line, as a camera moving so far during the exposure sees them."""
    size = max(1, math.ceil(length)) | 1  # odd, so the line is centred
    line = np.zeros((size, size), np.float32)
    line[size // 2, :] = 1.0
    centre = (size / 2 - 0.5, size / 2 - 0.5)
    kernel = cv2.warpAffine(line, cv2.getRotationMatrix2D(centre, turn, length / size), (size, size))
    total = float(kernel.sum())
    if total <= 0.0:  # a line shorter than a pixel: no smear
        kernel = np.zeros((size, size), np.float32)
        kernel[size // 2, size // 2] = 1.0
        return kernel
    return kernel / total


def smear_along(image: np.ndarray, length: float, turn: float) -> np.ndarray:
    """``image`` smeared along a line ``length`` px long turned ``turn`` degrees (its edges repeated)."""
    return cv2.filter2D(image, -1, motion_kernel(length, turn), borderType=cv2.BORDER_REPLICATE)


def motion_blur(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``patch`` smeared along a line of ``LENGTH`` px at a turn drawn at random (its edges repeated)."""
    return smear_along(patch, float(rng.uniform(*LENGTH)), float(rng.uniform(0.0, 180.0)))


def smeared(patch: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """``patch`` smeared as by a hand-held phone (``motion_blur``) with probability ``share``: the trainers'
    ``--motion-blur S`` (the card indices', the tiles' and the dice classifiers')."""
    return motion_blur(patch, rng) if share and rng.random() < share else patch


def share(text: str) -> float:
    """The trainers' ``--motion-blur`` value: a share from 0 to below 1 (an argparse type).

    >>> share("0.2")
    0.2
    """
    value = float(text)
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError("a share from 0 to below 1")
    return value
