"""The plumbing every learned reader shares: input normalisation, a heatmap detector, a crop classifier
with its own labels and turns, straightened crops, and the reader's settings file.

A reader (dice, tiles, later cards) is a JSON file in ``vision/models`` naming its two ONNX networks and
their settings, plus the little code that says what a detection and a class mean for that game. The
networks run through ``cv2.dnn``; training (``training/``) imports ``normalise`` from here, so the two
sides cannot drift apart.

>>> normalise(np.full((1, 2, 2, 3), 255, np.uint8))[0, :, 0, 0].tolist()
[2.0, 2.0, 2.0]
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

MODELS = Path(__file__).parent / "models"


def normalise(batch: np.ndarray) -> np.ndarray:
    """uint8 BGR images (N, H, W, 3) -> float32 (N, 3, H, W), grey at 0, a quarter of the range as 1."""
    return ((batch.astype(np.float32) * (1 / 255.0) - 0.5) * 4.0).transpose(0, 3, 1, 2)


def load_settings(name: str, folder: Path = MODELS) -> dict[str, Any]:
    """A reader's settings (``NAME_reader.json``); ``FileNotFoundError`` names the missing file."""
    path = folder / f"{name}_reader.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such reader settings (train it with training/{name}.py)")
    settings: dict[str, Any] = json.loads(path.read_text())
    return settings


@dataclass(frozen=True)
class Peak:
    """One detector peak in image pixels: centre, size (channel 1: the object's extent), heat score, and
    the values of any further channels (4 onwards) at the peak, for the reader to interpret."""

    x: float
    y: float
    size: float
    score: float
    extra: tuple[float, ...] = ()


class HeatmapDetector:
    """A fully-convolutional CenterNet: channel 0 is the centre heat logit, 1 the log size (network
    pixels), 2–3 the sub-cell offset of the centre; further channels are passed through per peak.

    The image is scaled so its long side is ``net_long`` px and padded to a multiple of 4 × ``stride``.
    """

    def __init__(self, path: Path, net_long: int, stride: int, heat_threshold: float) -> None:
        self.net = cv2.dnn.readNetFromONNX(str(path))
        self.net_long = int(net_long)
        self.stride = int(stride)
        self.heat_threshold = float(heat_threshold)
        # A cv2.dnn network keeps its input and output between calls: one caller at a time.
        self._lock = threading.Lock()

    def resize(self, image: np.ndarray, net_long: int | None = None) -> tuple[np.ndarray, float]:
        """The image scaled for the network (its long side ``net_long`` px, by default the detector's;
        padded with grey) and the scale used."""
        h, w = image.shape[:2]
        scale = (net_long or self.net_long) / max(h, w)
        nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
        if scale < 0.5:
            # Area averaging is slow at odd ratios: go most of the way linearly, halve the last step.
            image = cv2.resize(image, (2 * nw, 2 * nh), interpolation=cv2.INTER_LINEAR)
        small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
        unit = self.stride * 4
        pw, ph = -nw % unit, -nh % unit
        if pw or ph:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=(128, 128, 128))
        return small, scale

    def heat(self, image: np.ndarray, net_long: int | None = None) -> tuple[np.ndarray, float]:
        """The raw network output (channels, grid h, grid w) and the scale of the image it saw."""
        small, scale = self.resize(image, net_long)
        with self._lock:
            self.net.setInput(normalise(small[None]))
            out = self.net.forward()[0].copy()
        return out, scale

    def detect(
        self,
        image: np.ndarray,
        heat_threshold: float | None = None,
        overlap: float = 0.5,
        net_long: int | None = None,
    ) -> list[Peak]:
        """Peaks in ``image`` (BGR), strongest first. Of two peaks closer than ``overlap`` × the smaller
        size only the stronger is kept (two peaks on one object). ``net_long`` overrides the long side
        the image is scaled to (the further channels stay in network pixels at that scale)."""
        h, w = image.shape[:2]
        out, scale = self.heat(image, net_long)
        heat = 1.0 / (1.0 + np.exp(-out[0]))
        threshold = self.heat_threshold if heat_threshold is None else heat_threshold
        peaks = (heat >= threshold) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        ys, xs = np.nonzero(peaks)
        order = np.argsort(-heat[ys, xs])
        ys, xs = ys[order], xs[order]
        sizes = np.exp(out[1, ys, xs]) / scale
        px = (xs + out[2, ys, xs]) * self.stride / scale
        py = (ys + out[3, ys, xs]) * self.stride / scale
        # The strongest first, each kept unless a kept one lies too close: each peak kept marks the
        # peaks too close to it at once.
        outside = (px >= w) | (py >= h)
        suppressed = np.zeros(len(ys), bool)
        kept: list[int] = []
        for k in range(len(ys)):
            if outside[k] or suppressed[k]:
                continue
            kept.append(k)
            suppressed |= np.hypot(px - px[k], py - py[k]) < overlap * np.minimum(sizes, sizes[k])
        return [
            Peak(
                float(px[k]),
                float(py[k]),
                float(sizes[k]),
                float(heat[ys[k], xs[k]]),
                tuple(float(v) for v in out[4:, ys[k], xs[k]]),
            )
            for k in kept
        ]


def cut(
    image: np.ndarray,
    center: tuple[float, float],
    extent: tuple[float, float],
    angle: float,
    out: tuple[int, int],
) -> np.ndarray:
    """A straightened crop: the ``extent`` (width, height in image px) rectangle around ``center``, turned
    ``angle`` degrees clockwise on screen, resampled upright to ``out`` (width, height) pixels."""
    ow, oh = out
    sx, sy = ow / extent[0], oh / extent[1]
    t = math.radians(angle)
    c, s = math.cos(t), math.sin(t)
    # Output pixel (u, v) -> image point: centre + R(angle) · ((u - ow/2)/sx, (v - oh/2)/sy).
    inverse = np.array(
        [
            [c / sx, -s / sy, center[0] - c * ow / (2 * sx) + s * oh / (2 * sy)],
            [s / sx, c / sy, center[1] - s * ow / (2 * sx) - c * oh / (2 * sy)],
        ]
    )
    return cv2.warpAffine(
        image,
        inverse,
        (ow, oh),
        flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


class CropClassifier:
    """A classifier over straightened crops with its own ``labels`` and the quarter ``turns`` it is
    invariant to.

    Each crop is read at the ``first`` turns and the logits averaged; where those disagree or the top
    probability is below ``recheck_below`` the remaining turns are read too and all averaged, so the
    doubtful crops get the better reading and the clear ones cost nothing more.
    """

    def __init__(
        self,
        path: Path,
        labels: Sequence[str],
        crop: tuple[int, int],
        first: Sequence[int],
        rest: Sequence[int],
        recheck_below: float,
        temperature: float,
    ) -> None:
        if crop[0] != crop[1] and any(k % 2 for k in (*first, *rest)):
            raise ValueError(f"a {crop[0]}×{crop[1]} crop cannot be read at a quarter turn")
        self.net = cv2.dnn.readNetFromONNX(str(path))
        self.labels = tuple(labels)
        self.crop = (int(crop[0]), int(crop[1]))
        self.first = tuple(first)
        self.rest = tuple(rest)
        self.recheck_below = float(recheck_below)
        self.temperature = float(temperature)
        self._lock = threading.Lock()

    def turn_logits(self, crops: np.ndarray, turns: Sequence[int]) -> np.ndarray:
        """Raw logits (turns, n, labels) of the crops read at each quarter turn in ``turns``."""
        if len(crops) == 0:
            return np.zeros((len(turns), 0, len(self.labels)), np.float32)
        return self._logits(crops, tuple(turns))

    def _logits(self, crops: np.ndarray, turns: tuple[int, ...]) -> np.ndarray:
        batch = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in turns])
        with self._lock:
            self.net.setInput(normalise(np.ascontiguousarray(batch)))
            out = self.net.forward()
        return out.reshape(len(turns), len(crops), len(self.labels)).copy()

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """Raw logits (n, labels) for uint8 BGR crops (n, height, width, 3)."""
        if len(crops) == 0:
            return np.zeros((0, len(self.labels)), np.float32)
        first = self._logits(crops, self.first)
        logits = first.mean(axis=0)
        if not self.rest:
            return logits
        votes = first.argmax(axis=2)
        doubtful = (votes != votes[0]).any(axis=0) | (
            self.probabilities(logits).max(axis=1) < self.recheck_below
        )
        if doubtful.any():
            more = self._logits(crops[doubtful], self.rest)
            logits[doubtful] = (first[:, doubtful].sum(axis=0) + more.sum(axis=0)) / (
                len(self.first) + len(self.rest)
            )
        return logits

    def probabilities(self, logits: np.ndarray) -> np.ndarray:
        """Softmax of the logits divided by the fitted temperature."""
        z = logits / self.temperature
        probs = np.exp(z - z.max(axis=1, keepdims=True))
        return probs / probs.sum(axis=1, keepdims=True)


ANGLE_CROP = 48
_ANGLE_WINDOW = (np.hypot(*np.mgrid[-1 : 1 : ANGLE_CROP * 1j, -1 : 1 : ANGLE_CROP * 1j]) < 0.95).astype(
    np.float32
)


def edge_angles(
    image: np.ndarray,
    centers: Sequence[tuple[float, float]],
    extents: Sequence[float],
    window: np.ndarray = _ANGLE_WINDOW,
) -> np.ndarray:
    """The turn of the straight edges around each centre in degrees in [-45, 45), from the fourfold
    symmetry of the gradients in a round window ``extent`` px across (a die's face, a tile's outline);
    ``window``: the weights of the ``ANGLE_CROP`` × ``ANGLE_CROP`` crop's pixels (a ring for a tile's
    outline without its number: ``vision.tiles.outline_angles``).

    With z = gx + i·gy the gradient, z⁴ / |z|² = |z|² · e^{4iθ}: the gradient energy voting for 4θ,
    without a trigonometric call per pixel.
    """
    if len(centers) == 0:
        return np.zeros(0)
    grey = np.empty((len(centers), ANGLE_CROP, ANGLE_CROP), np.float32)
    for k, (center, extent) in enumerate(zip(centers, extents, strict=True)):
        crop = cut(image, center, (extent, extent), 0.0, (ANGLE_CROP, ANGLE_CROP))
        grey[k] = cv2.GaussianBlur(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    # Scharr: the most rotation-invariant 3×3 gradient, so the estimate is not pulled towards the axes.
    flat = grey.reshape(-1, ANGLE_CROP)
    gx = cv2.Scharr(flat, cv2.CV_32F, 1, 0).reshape(grey.shape)
    gy = np.stack([cv2.Scharr(g, cv2.CV_32F, 0, 1) for g in grey])
    re2, im2 = gx * gx - gy * gy, 2 * gx * gy
    energy = gx * gx + gy * gy + 1e-6
    c = ((re2 * re2 - im2 * im2) / energy * window).sum(axis=(1, 2))
    s4 = (2 * re2 * im2 / energy * window).sum(axis=(1, 2))
    angles = np.degrees(np.arctan2(s4, c) / 4)
    return (angles + 45.0) % 90.0 - 45.0


def edge_angle(image: np.ndarray, center: tuple[float, float], extent: float) -> float:
    """``edge_angles`` for one centre."""
    return float(edge_angles(image, [center], [extent])[0])
