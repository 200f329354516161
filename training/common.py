"""What the readers' trainers share, written once: augmentation, the detector network and its loss,
the two training loops, the temperature fit, the pairing of detections with labels, the command line's
common options, the reader's settings file, the models' notice and ONNX export.

Inputs are normalised by ``vision.nets.normalise``, the same function the run-time readers use.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.nets import normalise

# One training sample of the detector: the image and its heat, regression and mask targets, and optionally
# the weight of each cell's heat (0 where the heat is not known: a real photo's indices nobody labelled).
DetectorSample = tuple[np.ndarray, ...]


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


def focal(logit: torch.Tensor, heat: torch.Tensor, weight: torch.Tensor | None = None) -> torch.Tensor:
    """CenterNet's focal loss of the heat; with ``weight``, each cell's share of it (0: not taught)."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1.0).float()
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p**2 * (1 - heat) ** 4 * (1 - pos)
    if weight is not None:
        pos_loss, neg_loss = pos_loss * weight, neg_loss * weight
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


def _optimiser(net: nn.Module, steps: int, weight_decay: float) -> tuple[Any, Any]:
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    return opt, sched


def _step(opt: Any, sched: Any, loss: torch.Tensor) -> None:
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()


def fit_detector(
    make_net: Callable[[], nn.Module],
    sample: Callable[[np.random.Generator], DetectorSample],
    steps: int,
    seed: int,
    batch: int,
) -> nn.Module:
    """Train a detector made by ``make_net`` (after the seeds are set) on batches of ``sample(rng)``:
    focal loss on the heat (weighted by the samples' fifth array, where they have one), L1 on the
    regression channels at the labelled centres."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    net = make_net()
    opt, sched = _optimiser(net, steps, weight_decay=1e-4)
    start = time.monotonic()
    for step in range(steps):
        samples = [sample(rng) for _ in range(batch)]
        imgs, heats, regs, masks = (np.stack([s[k] for s in samples]) for k in range(4))
        pred = net(torch.from_numpy(normalise(imgs)))
        heat_t, reg_t, mask_t = (torch.from_numpy(a) for a in (heats, regs, masks))
        weight_t = None
        if any(len(s) > 4 for s in samples):
            weights = [s[4] if len(s) > 4 else np.ones_like(s[1]) for s in samples]
            weight_t = torch.from_numpy(np.stack(weights))
        n = mask_t.sum().clamp(min=1.0)
        reg_loss = (torch.abs(pred[:, 1:] - reg_t) * mask_t[:, None]).sum() / n
        loss = focal(pred[:, 0], heat_t, weight_t) + reg_loss
        _step(opt, sched, loss)
        if step % 100 == 0 or step == steps - 1:
            print(
                f"detector step {step} loss {loss.item():.3f} ({time.monotonic() - start:.0f} s)", flush=True
            )
    return net.eval()


def fit_classifier(
    make_net: Callable[[], nn.Module],
    sample: Callable[[np.random.Generator], tuple[np.ndarray, int]],
    steps: int,
    seed: int,
    batch: int,
    label_smoothing: float = 0.0,
) -> nn.Module:
    """Train a crop classifier made by ``make_net`` on batches of ``sample(rng)`` (crop, label); its own
    random streams (``seed + 1``), apart from the detector's."""
    rng = np.random.default_rng(seed + 1)
    torch.manual_seed(seed + 1)
    net = make_net()
    opt, sched = _optimiser(net, steps, weight_decay=5e-4)
    start = time.monotonic()
    for step in range(steps):
        pairs = [sample(rng) for _ in range(batch)]
        x = torch.from_numpy(normalise(np.stack([p[0] for p in pairs])))
        y = torch.tensor([p[1] for p in pairs])
        logits = net(x)
        loss = F.cross_entropy(logits, y, label_smoothing=label_smoothing)
        _step(opt, sched, loss)
        if step % 100 == 0 or step == steps - 1:
            acc = (logits.argmax(1) == y).float().mean().item()
            print(
                f"classifier step {step} loss {loss.item():.3f} acc {acc:.3f} "
                f"({time.monotonic() - start:.0f} s)",
                flush=True,
            )
    return net.eval()


def fit_temperature(logits: Sequence[np.ndarray], labels: Sequence[int]) -> float:
    """The softmax temperature that makes the classifier's ``logits`` most likely for ``labels``."""
    z = torch.tensor(np.array(logits), dtype=torch.float32)
    y = torch.tensor(list(labels))
    log_t = torch.zeros(1, requires_grad=True)
    opt = torch.optim.LBFGS([log_t], lr=0.1, max_iter=200)

    def closure() -> torch.Tensor:
        opt.zero_grad()
        loss = F.cross_entropy(z / log_t.exp(), y)
        loss.backward()
        return loss

    opt.step(closure)
    return float(log_t.exp().item())


def match_labels(
    found: Sequence[tuple[float, float]], labelled: Sequence[tuple[float, float, float]]
) -> list[int | None]:
    """For each detection ``(x, y)`` in order, the labelled object ``(x, y, size)`` it found: the nearest
    not yet taken within half its size, else ``None`` (a detection of nothing)."""
    taken: set[int] = set()
    out: list[int | None] = []
    for x, y in found:
        best: tuple[float, int] | None = None
        for j, (lx, ly, size) in enumerate(labelled):
            dist = math.hypot(x - lx, y - ly)
            if j not in taken and dist < 0.5 * size and (best is None or dist < best[0]):
                best = (dist, j)
        if best is not None:
            taken.add(best[1])
        out.append(None if best is None else best[1])
    return out


def arguments(
    doc: str | None, *, detector_steps: int, classifier_steps: int, seed: int, synthetic: int, rendered: str
) -> argparse.ArgumentParser:
    """The options every trainer takes (its own defaults); a trainer adds its own."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--out", type=Path, default=Path("vision/models"))
    parser.add_argument("--detector-steps", type=int, default=detector_steps)
    parser.add_argument("--classifier-steps", type=int, default=classifier_steps)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (the machine is shared)")
    parser.add_argument("--synthetic", type=int, default=synthetic, help=f"{rendered} mixed into training")
    return parser


def prepare(args: argparse.Namespace) -> float:
    """Threads, seeds and the output folder of a training run; the run's start (``time.monotonic``)."""
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    np.random.seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    return time.monotonic()


def write_config(path: Path, config: dict[str, Any]) -> None:
    """The reader's settings file (``vision/models/*_reader.json``)."""
    path.write_text(json.dumps(config, indent=2) + "\n")


def credits(out: Path, notice: str) -> str:
    """MODELS.txt with ``notice`` in place of this reader's earlier one (from its first line to its last),
    the other readers' notices kept as they are; appended when there was none."""
    path = out / "MODELS.txt"
    text = path.read_text() if path.is_file() else ""
    lines = notice.rstrip("\n").splitlines()
    start = text.find(lines[0])
    if start < 0:
        return (text.rstrip("\n") + "\n\n" if text.strip() else "") + notice
    stop = text.find(lines[-1], start)
    stop = len(text) if stop < 0 else stop + len(lines[-1])
    return text[:start] + notice.rstrip("\n") + (text[stop:] or "\n")
