"""Reading dice from a camera frame: a learned detector finds the top faces, a learned classifier reads them.

Both networks are small ONNX files in ``vision/models`` run by ``cv2.dnn`` (trained by
``vision/train/dice.py``; see ``vision/models/MODELS.txt`` for the photo sets they come from).

1. The frame (or, with a calibration, the top-down view of the play area) is scaled so its long side is
   ``net_long`` pixels; the detector gives a stride-4 heatmap of die-face centres with face size and
   sub-cell offset. Local maxima above ``heat_threshold`` are candidates.
2. Each candidate is cut from the full-resolution image (a square of ``margin`` × face size) and
   classified into pips 1–6 or "not a die", averaged over two quarter turns of the crop. Only where the
   two turns disagree or the top probability is below ``recheck_below`` are the other two turns read
   too and all four averaged: the doubtful dice get the better reading, the clear ones cost nothing.
3. The softmax is divided by a temperature fitted on held-out photos; a die's confidence is its value's
   probability times the detector's score for that face, so die-sized clutter and side faces the
   detector hardly believes in are not read with confidence. Dice below ``confidence_threshold`` are
   listed as uncertain.

>>> from vision.synth import render_dice_scene
>>> frame, truth = render_dice_scene((1, 2, 3, 4, 5), seed=3)
>>> sorted(read_dice(frame).values)
[1, 2, 3, 4, 5]
"""

from __future__ import annotations

import json
import math
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.frame import check_frame

MODELS = Path(__file__).parent / "models"
NOT_A_DIE = 6


@dataclass(frozen=True)
class Die:
    """One die as seen: its value, face centre and size (frame pixels), face angle and confidence.

    ``size`` is the die's extent (the side of its axis-aligned box, so a die turned 45° measures about
    1.4 × its edge); ``angle`` is the turn of the face's edges in degrees, in [-45, 45); ``held`` is
    true when the centre lies in the calibration's hold zone.
    """

    value: int
    center: tuple[float, float]
    size: float
    angle: float
    confidence: float
    held: bool = False

    def __str__(self) -> str:
        x, y = self.center
        return f"{self.value}@({x:.0f},{y:.0f}) p={self.confidence:.2f}{' held' if self.held else ''}"


@dataclass(frozen=True)
class DiceObservation:
    """Every die found in one frame; ``uncertain`` indexes the dice whose confidence is below threshold."""

    dice: tuple[Die, ...]
    uncertain: tuple[int, ...] = ()

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.dice)

    @property
    def rolled(self) -> tuple[Die, ...]:
        return tuple(d for d in self.dice if not d.held)

    @property
    def held(self) -> tuple[Die, ...]:
        return tuple(d for d in self.dice if d.held)

    @property
    def certain(self) -> bool:
        return not self.uncertain

    def __str__(self) -> str:
        return "[" + ", ".join(str(d) for d in self.dice) + "]"


Detection = tuple[float, float, float, float]  # centre x, centre y, face size (image px), heat score


class DiceModels:
    """The detector and classifier networks with their settings (``dice_reader.json``)."""

    def __init__(self, folder: Path, config: dict[str, Any]) -> None:
        self.config = config
        self.detector = cv2.dnn.readNetFromONNX(str(folder / config["detector"]))
        self.classifier = cv2.dnn.readNetFromONNX(str(folder / config["classifier"]))
        self.net_long = int(config["net_long"])
        self.stride = int(config["stride"])
        self.crop = int(config["crop"])
        self.margin = float(config["margin"])
        self.heat_threshold = float(config["heat_threshold"])
        self.recheck_below = float(config["recheck_below"])
        self.temperature = float(config["temperature"])
        self.confidence_threshold = float(config["confidence_threshold"])
        # A cv2.dnn network keeps its input and output between calls: one caller at a time.
        self._lock = threading.Lock()

    @classmethod
    def load(cls, folder: Path = MODELS) -> DiceModels:
        config = json.loads((folder / "dice_reader.json").read_text())
        return cls(folder, config)

    @staticmethod
    def _blob(images: np.ndarray) -> np.ndarray:
        return ((images.astype(np.float32) * (1 / 255.0) - 0.5) * 4.0).transpose(0, 3, 1, 2)

    def detect(self, image: np.ndarray, heat_threshold: float | None = None) -> list[Detection]:
        """Candidate die faces in ``image`` (BGR), strongest first."""
        h, w = image.shape[:2]
        scale = self.net_long / max(h, w)
        nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
        if scale < 0.5:
            # Area averaging is slow at odd ratios: go most of the way linearly, halve the last step.
            image = cv2.resize(image, (2 * nw, 2 * nh), interpolation=cv2.INTER_LINEAR)
        small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
        threshold = self.heat_threshold if heat_threshold is None else heat_threshold
        unit = self.stride * 4
        pw, ph = -nw % unit, -nh % unit
        if pw or ph:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=(128, 128, 128))
        with self._lock:
            self.detector.setInput(self._blob(small[None]))
            out = self.detector.forward()[0]
        heat = 1.0 / (1.0 + np.exp(-out[0]))
        peaks = (heat >= threshold) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        ys, xs = np.nonzero(peaks)
        order = np.argsort(-heat[ys, xs])
        found: list[Detection] = []
        for iy, ix in zip(ys[order], xs[order], strict=True):
            size = math.exp(float(out[1, iy, ix])) / scale
            x = (ix + float(out[2, iy, ix])) * self.stride / scale
            y = (iy + float(out[3, iy, ix])) * self.stride / scale
            if x >= w or y >= h:
                continue
            # Two peaks on one die: keep the stronger one.
            if any(math.hypot(x - fx, y - fy) < 0.5 * min(size, fs) for fx, fy, fs, _ in found):
                continue
            found.append((x, y, size, float(heat[iy, ix])))
        return found

    def crops(self, image: np.ndarray, detections: list[Detection]) -> np.ndarray:
        crops = np.empty((len(detections), self.crop, self.crop, 3), np.uint8)
        for i, (x, y, size, _) in enumerate(detections):
            s = self.crop / (self.margin * size)
            m = np.array([[s, 0, self.crop / 2 - s * x], [0, s, self.crop / 2 - s * y]])
            crops[i] = cv2.warpAffine(
                image, m, (self.crop, self.crop), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
            )
        return crops

    def _logits(self, crops: np.ndarray, turns: tuple[int, ...]) -> np.ndarray:
        batch = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in turns])
        with self._lock:
            self.classifier.setInput(self._blob(batch))
            return self.classifier.forward().reshape(len(turns), len(crops), 7).copy()

    def classify(self, image: np.ndarray, detections: list[Detection]) -> np.ndarray:
        """Raw logits (n, 7) for the detections: the mean over two quarter turns of each crop, or over
        all four for the crops whose two turns disagree or whose top probability is below
        ``recheck_below``."""
        if not detections:
            return np.zeros((0, 7), np.float32)
        crops = self.crops(image, detections)
        first = self._logits(crops, (0, 1))
        logits = first.mean(axis=0)
        doubtful = (first[0].argmax(axis=1) != first[1].argmax(axis=1)) | (
            self.probabilities(logits).max(axis=1) < self.recheck_below
        )
        if doubtful.any():
            rest = self._logits(crops[doubtful], (2, 3))
            logits[doubtful] = (first[:, doubtful].sum(axis=0) + rest.sum(axis=0)) / 4
        return logits

    def probabilities(self, logits: np.ndarray) -> np.ndarray:
        """Softmax of the logits divided by the fitted temperature."""
        z = logits / self.temperature
        probs = np.exp(z - z.max(axis=1, keepdims=True))
        return probs / probs.sum(axis=1, keepdims=True)


@cache
def default_models() -> DiceModels:
    """The shipped models, loaded once per process."""
    return DiceModels.load()


ANGLE_CROP = 48
_ANGLE_WINDOW = (np.hypot(*np.mgrid[-1 : 1 : ANGLE_CROP * 1j, -1 : 1 : ANGLE_CROP * 1j]) < 0.95).astype(
    np.float32
)


def _face_angle(image: np.ndarray, x: float, y: float, size: float) -> float:
    """Turn of the face's edges in degrees in [-45, 45), from the fourfold symmetry of the gradients.

    Measured in a round window just larger than the die, so the background's corners do not count.
    """
    s = ANGLE_CROP / (1.15 * size)
    m = np.array([[s, 0, ANGLE_CROP / 2 - s * x], [0, s, ANGLE_CROP / 2 - s * y]])
    crop = cv2.warpAffine(
        image, m, (ANGLE_CROP, ANGLE_CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    grey = cv2.GaussianBlur(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    # Scharr: the most rotation-invariant 3×3 gradient, so the estimate is not pulled towards the axes.
    gx = cv2.Scharr(grey, cv2.CV_32F, 1, 0)
    gy = cv2.Scharr(grey, cv2.CV_32F, 0, 1)
    theta = np.arctan2(gy, gx)
    weight = (gx * gx + gy * gy) * _ANGLE_WINDOW
    c = float((weight * np.cos(4 * theta)).sum())
    s4 = float((weight * np.sin(4 * theta)).sum())
    angle = math.degrees(math.atan2(s4, c) / 4)
    return (angle + 45.0) % 90.0 - 45.0


def read_dice(
    frame: np.ndarray, calibration: Calibration | None = None, models: DiceModels | None = None
) -> DiceObservation:
    """Every die in a BGR frame with value, centre, size, angle and calibrated confidence.

    With a calibration only the play area is read (in its top-down view); centres and sizes are still
    given in frame pixels, and dice whose centre is in the hold zone are marked ``held``.
    Raises ``FrameError`` (a ``ValueError``) for anything that is not a readable BGR image.
    """
    check_frame(frame)
    models = models or default_models()
    image = calibration.rectify(frame) if calibration is not None else frame
    detections = models.detect(image)
    probs = models.probabilities(models.classify(image, detections))
    dice: list[Die] = []
    uncertain: list[int] = []
    for i, (x, y, size, score) in enumerate(detections):
        if int(probs[i].argmax()) == NOT_A_DIE:
            continue
        value = int(probs[i, :NOT_A_DIE].argmax()) + 1
        confidence = float(probs[i, value - 1]) * score
        angle = _face_angle(image, x, y, size)
        held = False
        center = (x, y)
        if calibration is not None:
            held = calibration.in_hold_zone((x, y))
            center, size = calibration.to_frame((x, y), size)
        if confidence < models.confidence_threshold:
            uncertain.append(len(dice))
        dice.append(Die(value, (float(center[0]), float(center[1])), float(size), angle, confidence, held))
    return DiceObservation(tuple(dice), tuple(uncertain))
