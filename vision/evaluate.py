"""Measuring the dice reader on a folder of labelled photographs (``referee vision eval-dice``).

Per image the true values and the values read are compared as multisets: true positives are the size of
their intersection. Precision, recall and F1 are summed over all dice; the exact-image rate counts images
read exactly. Counting only the dice read with confidence (not uncertain): ``confident_precision`` is
their multiset precision, and ``coverage`` is the share of the true dice they read correctly. The value
confusion matrix pairs dice by position with the labelled boxes (row = true, column = read; "none" for a
missed or an extra die).

>>> counts = multiset_hits([1, 2, 2, 6], [2, 2, 5])
>>> counts
2
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

import cv2
import numpy as np

from vision.dataset import LabelledImage, Split, load_folder
from vision.dice import DiceObservation, read_dice

LABELS = ("1", "2", "3", "4", "5", "6", "none")


def multiset_hits(truth: Sequence[int], read: Sequence[int]) -> int:
    """Size of the multiset intersection of two lists of values."""
    return sum((Counter(truth) & Counter(read)).values())


@dataclass
class DiceEvaluation:
    """Running totals over the images of one evaluation."""

    images: int = 0
    exact_images: int = 0
    true_dice: int = 0
    read_dice: int = 0
    hits: int = 0
    confident_dice: int = 0
    confident_hits: int = 0
    times_ms: list[float] = field(default_factory=list)
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((7, 7), np.int64))

    def add(self, truth: Sequence[int], observation: DiceObservation, pairs: list[tuple[int, int]]) -> None:
        read = observation.values
        confident = [d.value for i, d in enumerate(observation.dice) if i not in observation.uncertain]
        self.images += 1
        self.exact_images += int(sorted(truth) == sorted(read))
        self.true_dice += len(truth)
        self.read_dice += len(read)
        self.hits += multiset_hits(truth, read)
        self.confident_dice += len(confident)
        self.confident_hits += multiset_hits(truth, confident)
        for row, col in pairs:
            self.confusion[row, col] += 1

    @staticmethod
    def _ratio(a: int, b: int) -> float:
        return a / b if b else 0.0

    def summary(self) -> dict[str, Any]:
        precision = self._ratio(self.hits, self.read_dice)
        recall = self._ratio(self.hits, self.true_dice)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return {
            "precision": round(precision, 4),
            "recall": round(recall, 4),
            "f1": round(f1, 4),
            "exact_image_rate": round(self._ratio(self.exact_images, self.images), 4),
            "confident_precision": round(self._ratio(self.confident_hits, self.confident_dice), 4),
            "coverage": round(self._ratio(self.confident_hits, self.true_dice), 4),
            "ms_median": round(median(self.times_ms), 2) if self.times_ms else 0.0,
            "images": self.images,
            "true_dice": self.true_dice,
            "read_dice": self.read_dice,
            "confusion": {"labels": list(LABELS), "rows_true_columns_read": self.confusion.tolist()},
        }

    def report(self) -> str:
        s = self.summary()
        lines = [
            f"images {s['images']}, true dice {s['true_dice']}, read dice {s['read_dice']}",
            f"precision {s['precision']:.4f}  recall {s['recall']:.4f}  f1 {s['f1']:.4f}",
            f"exact images {s['exact_image_rate']:.4f}",
            f"confident precision {s['confident_precision']:.4f}  coverage {s['coverage']:.4f}",
            f"median time per image {s['ms_median']:.1f} ms",
            "confusion (rows true, columns read):",
            "       " + " ".join(f"{label:>5}" for label in LABELS),
        ]
        for label, row in zip(LABELS, self.confusion, strict=True):
            lines.append(f"{label:>6} " + " ".join(f"{int(v):>5}" for v in row))
        return "\n".join(lines)


def pair_by_position(item: LabelledImage, observation: DiceObservation) -> list[tuple[int, int]]:
    """(true, read) index pairs for the confusion matrix; index 6 is "none" (missed or extra)."""
    unused = set(range(len(observation.dice)))
    pairs = []
    for box in item.boxes:
        reach = max(0.5 * max(box.w, box.h), 12.0)
        best = min(
            (
                i
                for i in unused
                if math.hypot(observation.dice[i].center[0] - box.cx, observation.dice[i].center[1] - box.cy)
                < max(reach, 0.4 * observation.dice[i].size)
            ),
            key=lambda i: math.hypot(
                observation.dice[i].center[0] - box.cx, observation.dice[i].center[1] - box.cy
            ),
            default=None,
        )
        if best is None:
            pairs.append((box.cls, 6))
        else:
            unused.remove(best)
            pairs.append((box.cls, observation.dice[best].value - 1))
    pairs.extend((6, observation.dice[i].value - 1) for i in sorted(unused))
    return pairs


def annotate(frame: np.ndarray, observation: DiceObservation, truth: Sequence[int]) -> np.ndarray:
    """The frame with each die read (green: confident, orange: uncertain) and the true values on top."""
    out = frame.copy()
    for i, die in enumerate(observation.dice):
        colour = (0, 140, 255) if i in observation.uncertain else (0, 200, 0)
        x, y = die.center
        half = die.size / 2
        cv2.rectangle(out, (round(x - half), round(y - half)), (round(x + half), round(y + half)), colour, 2)
        label = f"{die.value} {die.confidence:.2f}"
        cv2.putText(
            out, label, (round(x - half), round(y - half) - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1
        )
    read = " ".join(str(v) for v in sorted(observation.values))
    text = f"true {' '.join(str(v) for v in sorted(truth))} | read {read}"
    cv2.putText(out, text, (5, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3)
    cv2.putText(out, text, (5, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1)
    return out


def evaluate_dice(
    folder: str | Path,
    split: Split | None = None,
    show: Path | None = None,
    reader: Callable[[np.ndarray], DiceObservation] = read_dice,
) -> DiceEvaluation:
    """Read every image of a labelled folder (optionally one development split) and total the scores.

    Raises ``FileNotFoundError`` for a folder without ``ground_truth.csv`` or an unreadable image.
    """
    evaluation = DiceEvaluation()
    if show is not None:
        show.mkdir(parents=True, exist_ok=True)
    for item in load_folder(folder, split or "all"):
        frame = cv2.imread(str(item.path))
        if frame is None:
            raise FileNotFoundError(f"{item.path}: cannot read the image")
        truth = [int(v) for v in item.objects]
        start = time.perf_counter()
        observation = reader(frame)
        evaluation.times_ms.append((time.perf_counter() - start) * 1000)
        evaluation.add(truth, observation, pair_by_position(item, observation))
        if show is not None:
            cv2.imwrite(str(show / item.path.name), annotate(frame, observation, truth))
    return evaluation
