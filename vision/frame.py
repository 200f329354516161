"""Checking camera frames before a reader touches them: one clear error, never a crash deep in OpenCV."""

from __future__ import annotations

import numpy as np

MIN_SIDE = 16


class FrameError(ValueError):
    """The frame cannot be read: the message says what is wrong with it.

    >>> check_frame(np.zeros((4, 4), np.uint8))
    Traceback (most recent call last):
    ...
    vision.frame.FrameError: frame must be a colour BGR image of shape (height, width, 3); got shape (4, 4)
    """


def check_frame(frame: object) -> np.ndarray:
    """Return ``frame`` if it is a readable BGR ``uint8`` image, else raise ``FrameError`` naming the flaw."""
    if frame is None:
        raise FrameError("frame is None: the camera returned no image")
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"frame must be a numpy array; got {type(frame).__name__}")
    if frame.size == 0:
        raise FrameError(f"frame is empty (shape {frame.shape})")
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise FrameError(
            f"frame must be a colour BGR image of shape (height, width, 3); got shape {frame.shape}"
        )
    if frame.dtype != np.uint8:
        raise FrameError(f"frame must have dtype uint8; got {frame.dtype}")
    if min(frame.shape[:2]) < MIN_SIDE:
        raise FrameError(f"frame is too small to read ({frame.shape[1]}×{frame.shape[0]} px)")
    return frame
