"""What the readers' training scripts share: augmentation, the detector network, its loss, ONNX export.

Inputs are normalised by ``vision.nets.normalise``, the same function the run-time readers use.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


def photometric(img: np.ndarray, rng: np.random.Generator, hue: bool = True) -> np.ndarray:
    """Random light, contrast, gamma, blur and noise; with ``hue`` also a random hue turn and greyscale
    (for dice, whose colour says nothing; never for tiles, whose colour is half the reading)."""
    out = img.astype(np.float32)
    if hue and rng.random() < 0.3:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
    out *= rng.uniform(0.8, 1.2, size=3).astype(np.float32)
    out = (out - 128.0) * rng.uniform(0.7, 1.3) + 128.0 + rng.uniform(-35, 35)
    if hue and rng.random() < 0.1:
        out[:] = out.mean(axis=2, keepdims=True)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.4))
    if rng.random() < 0.5:
        out += rng.normal(0, rng.uniform(1, 8), out.shape).astype(np.float32)
    gamma = rng.uniform(0.7, 1.4)
    out = 255.0 * (np.clip(out, 0, 255) / 255.0) ** gamma
    return np.clip(out, 0, 255).astype(np.uint8)


def cbr(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


class Detector(nn.Module):
    """Stride-4 CenterNet head on a four-level conv pyramid: heat logit, log size, dx, dy, then any further
    channels the reader asks for (``vision.nets.HeatmapDetector``). ``widths``: the channels at strides
    2, 4, 8, 16 and of the merged pyramid."""

    def __init__(
        self, channels: int = 4, widths: tuple[int, int, int, int, int] = (16, 24, 48, 64, 32)
    ) -> None:
        super().__init__()
        w2, w4, w8, w16, wp = widths
        self.s2 = cbr(3, w2, 2)
        self.s4 = nn.Sequential(cbr(w2, w4, 2), cbr(w4, w4))
        self.s8 = nn.Sequential(cbr(w4, w8, 2), cbr(w8, w8))
        self.s16 = nn.Sequential(cbr(w8, w16, 2), cbr(w16, w16), cbr(w16, w16))
        self.l16 = nn.Conv2d(w16, wp, 1)
        self.l8 = nn.Conv2d(w8, wp, 1)
        self.l4 = nn.Conv2d(w4, wp, 1)
        self.m8 = cbr(wp, wp)
        self.m4 = cbr(wp, wp)
        self.head = nn.Conv2d(wp, channels, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -2.2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        p8 = self.m8(self.l8(f8) + F.interpolate(self.l16(f16), scale_factor=2.0, mode="nearest"))
        p4 = self.m4(self.l4(f4) + F.interpolate(p8, scale_factor=2.0, mode="nearest"))
        return self.head(p4)


def focal(logit: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1.0).float()
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p**2 * (1 - heat) ** 4 * (1 - pos)
    return (pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1.0)


def export(net: nn.Module, example: torch.Tensor, path: Path, dynamic: bool) -> None:
    axes = {"image": {0: "n", 2: "h", 3: "w"}, "out": {0: "n", 2: "gh", 3: "gw"}} if dynamic else None
    if not dynamic:
        axes = {"image": {0: "n"}, "out": {0: "n"}}
    torch.onnx.export(
        net,
        (example,),
        str(path),
        input_names=["image"],
        output_names=["out"],
        dynamic_axes=axes,
        opset_version=17,
        dynamo=False,
    )
