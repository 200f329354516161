"""Measuring the Zatre reader: on synthetic boards (``referee vision eval-zatre --synthetic N --seed S``),
on a labelled photo folder (``referee vision eval-zatre DIR``), and the half reader alone on the real dice
photos' faces (``referee vision eval-zatre --pips DIR``), the stand-in for real halves.

The usual figures (``Evaluation``: precision, recall, f1, exact_image_rate, confident_precision,
coverage, ms_median, images) count **cards** (``3|4``, either way round) as multisets, and there are:

- ``half_accuracy``: the share of the true halves (those no hand covers) read *surely* with their true
  value — on a synthetic board also in their true cell (up to the board's shift); a half whose card's
  other half is under a hand is read but left unpaired, rightly;
- ``board_exact_rate``: the share of boards read exactly: every uncovered half right and sure, every
  card paired right, nothing read that is not there, no half under a hand given a wrong value;
- ``wrong_halves``: halves read surely with a wrong value or cell (a guess: the reader must say
  *unsure* instead), ``unsure_halves``: halves left unsure.

On a photo folder (``ground_truth.csv`` whose objects are the cards ``a|b``) halves are compared as
multisets of values, and a board is exact when the cards read surely are the true cards and nothing is
unsure. The pip figure reads every labelled die face of a dice folder as a half (cut as the dice
classifier frames a die) and reports ``half_accuracy`` (sure and right over all faces),
``confident_precision`` (right over sure) and ``coverage``.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from rules.zatre.board import Placement
from rules.zatre.cards import Card
from rules.zatre.game import auto_play
from rules.zatre.options import ZatreOptions
from vision.dataset import Split, load_folder
from vision.evaluate import Evaluation, _ratio, read_folder
from vision.nets import cut
from vision.zatre import ZatreObservation, read_halves, read_zatre
from vision.zatre_synth import ZatreTruth, render_zatre_board

__all__ = [
    "PipEvaluation",
    "ZatreEvaluation",
    "evaluate_pips",
    "evaluate_zatre",
    "evaluate_zatre_synthetic",
    "synthetic_boards",
]


@dataclass
class ZatreEvaluation(Evaluation):
    """The reader's totals over boards: the card figures of :class:`Evaluation` and the halves'."""

    true_halves: int = 0
    right_halves: int = 0
    wrong_halves: int = 0
    unsure_halves: int = 0
    exact_boards: int = 0
    wrong_pairs: int = 0

    def add_board(self, truth: ZatreTruth, observation: ZatreObservation) -> None:
        """One synthetic board: halves paired by position in the frame."""
        cards_true = [str(p.card.key) for p in truth.placements if not _covered(truth, p)]
        read = [str(p.card.key) for p in _all_cards(observation)]
        sure = [str(p.card.key) for p in observation.placements()]
        self.count(cards_true, read, sure)
        offsets: Counter[tuple[int, int]] = Counter()
        pairs: list[tuple[int, int | None]] = []
        used: set[int] = set()
        for t, half in enumerate(truth.halves):
            best = min(
                range(len(observation.halves)),
                key=lambda i: math.dist(observation.halves[i].center, half.center),
                default=None,
            )
            if best is not None and math.dist(observation.halves[best].center, half.center) < 0.4 * half.side:
                pairs.append((t, best))
                used.add(best)
                seen = observation.halves[best]
                if seen.cell is not None and seen.value_sure:
                    offsets[(seen.cell[0] - half.cell[0], seen.cell[1] - half.cell[1])] += 1
            else:
                pairs.append((t, None))
        shift = offsets.most_common(1)[0][0] if offsets else (0, 0)
        exact = True
        for t, index in pairs:
            half = truth.halves[t]
            if not half.covered:
                self.true_halves += 1
            found = observation.halves[index] if index is not None else None
            if found is None or not found.value_sure:
                self.unsure_halves += int(found is not None)
                exact = exact and half.covered
                continue
            seen = found
            assert seen.cell is not None
            right_cell = (seen.cell[0] - shift[0], seen.cell[1] - shift[1]) == half.cell
            if not (right_cell and seen.value == half.value):
                self.wrong_halves += 1
                exact = False
                continue
            self.right_halves += int(not half.covered)
            # The card: paired with the true other half; unpaired only when that one is covered.
            other = next((i for u, i in pairs if u != t and truth.halves[u].card == half.card), None)
            other_visible = any(
                truth.halves[u].card == half.card and not truth.halves[u].covered for u, _ in pairs if u != t
            )
            if seen.partner is None:
                exact = exact and not other_visible
            elif seen.partner != other:
                self.wrong_pairs += 1
                exact = False
        extra = [
            i for i in range(len(observation.halves)) if i not in used and observation.halves[i].value_sure
        ]
        self.wrong_halves += len(extra)
        self.exact_boards += int(exact and not extra)

    def add_photo(self, truth: Sequence[str], observation: ZatreObservation) -> None:
        """One labelled photo: its true cards (``a|b``), compared as multisets."""
        cards = [Card.parse(text).key for text in truth]
        read = [p.card.key for p in _all_cards(observation)]
        sure = [p.card.key for p in observation.placements()]
        self.count([str(c) for c in cards], [str(c) for c in read], [str(c) for c in sure])
        values = [v for c in cards for v in (c.first, c.second)]
        sure_values = [h.value for h in observation.halves if h.value_sure and h.value is not None]
        hits = sum((Counter(values) & Counter(sure_values)).values())
        self.true_halves += len(values)
        self.right_halves += hits
        self.wrong_halves += len(sure_values) - hits
        self.unsure_halves += len(observation.uncertain)
        self.exact_boards += int(Counter(cards) == Counter(sure) and observation.certain)

    def summary(self) -> dict[str, Any]:
        return {
            **self.scores(),
            "half_accuracy": round(_ratio(self.right_halves, self.true_halves), 4),
            "board_exact_rate": round(_ratio(self.exact_boards, self.images), 4),
            "true_halves": self.true_halves,
            "wrong_halves": self.wrong_halves,
            "unsure_halves": self.unsure_halves,
            "wrong_pairs": self.wrong_pairs,
        }

    def report(self) -> str:
        s = self.summary()
        return "\n".join(
            [
                *self.score_lines("cards"),
                f"half accuracy {s['half_accuracy']:.4f} ({self.right_halves} of {self.true_halves} halves), "
                f"wrong {self.wrong_halves}, unsure {self.unsure_halves}",
                f"boards exact {s['board_exact_rate']:.4f} ({self.exact_boards} of {self.images})",
            ]
        )


def _covered(truth: ZatreTruth, placement: Placement) -> bool:
    index = truth.placements.index(placement)
    return any(h.covered for h in truth.halves if h.card == index)


def _all_cards(observation: ZatreObservation) -> list[Placement]:
    """Every paired card whose two values were read (sure or not)."""
    cards = []
    for i, half in enumerate(observation.halves):
        j = half.partner
        if j is None or j < i:
            continue
        other = observation.halves[j]
        if half.value is None or other.value is None:
            continue
        cards.append(Placement(Card(half.value, other.value), 0, 0, "H"))
    return cards


def synthetic_boards(count: int, seed: int) -> list[tuple[Placement, ...]]:
    """``count`` boards of 2–25 cards from random full-information games (seeded)."""
    rng = random.Random(f"zatre-eval:{seed}")
    boards: list[tuple[Placement, ...]] = []
    while len(boards) < count:
        game = auto_play(ZatreOptions(players=rng.randint(2, 4), seed=rng.randrange(2**31)))
        for result in game.rounds_played:
            laid = result.board.placements
            boards.append(tuple(laid[: rng.randint(min(2, len(laid)), len(laid))]))
    return boards[:count]


def evaluate_zatre_synthetic(count: int, seed: int, size: tuple[int, int] = (1920, 1080)) -> ZatreEvaluation:
    """Render ``count`` boards (seeded) and read them."""
    evaluation = ZatreEvaluation()
    rng = np.random.default_rng(seed)
    for board in synthetic_boards(count, seed):
        frame, truth = _render(board, rng, size)
        start = time.perf_counter()
        observation = read_zatre(frame)
        evaluation.times_ms.append((time.perf_counter() - start) * 1000)
        evaluation.add_board(truth, observation)
    return evaluation


def _render(
    board: Sequence[Placement], rng: np.random.Generator, size: tuple[int, int]
) -> tuple[np.ndarray, ZatreTruth]:
    for _attempt in range(20):
        try:
            return render_zatre_board(board, rng, size=size)
        except ValueError:
            continue
    return render_zatre_board(board, rng, size=size, angle=0.0, tilt=0.0)


def evaluate_zatre(folder: str | Path, split: Split | None = None) -> ZatreEvaluation:
    """Read every photo of a labelled Zatre folder (objects: the cards ``a|b``)."""
    evaluation = ZatreEvaluation()
    for item, _frame, observation, ms in read_folder(folder, split, read_zatre):
        evaluation.times_ms.append(ms)
        evaluation.add_photo(item.objects, observation)
    return evaluation


@dataclass
class PipEvaluation:
    """The half reader on real die faces: right (sure and right), wrong (sure and wrong), unsure."""

    faces: int = 0
    right: int = 0
    wrong: int = 0
    images: int = 0

    def summary(self) -> dict[str, Any]:
        sure = self.right + self.wrong
        return {
            "half_accuracy": round(_ratio(self.right, self.faces), 4),
            "confident_precision": round(_ratio(self.right, sure), 4),
            "coverage": round(_ratio(sure, self.faces), 4),
            "faces": self.faces,
            "wrong": self.wrong,
            "unsure": self.faces - sure,
            "images": self.images,
        }

    def report(self) -> str:
        s = self.summary()
        return (
            f"images {s['images']}, die faces {s['faces']}\n"
            f"half accuracy {s['half_accuracy']:.4f} (sure and right over all faces)\n"
            f"confident precision {s['confident_precision']:.4f}  coverage {s['coverage']:.4f}  "
            f"wrong {s['wrong']}  unsure {s['unsure']}"
        )


def evaluate_pips(folder: str | Path, split: Split | None = None) -> PipEvaluation:
    """Read every labelled die face of a dice folder with the half reader (the face cut upright, as the
    dice classifier frames a die: 1.35 × the box's long side)."""
    evaluation = PipEvaluation()
    for item in load_folder(folder, split or "all"):
        frame = cv2.imread(str(item.path))
        if frame is None:
            raise FileNotFoundError(f"{item.path}: cannot read the image")
        evaluation.images += 1
        crops, truth = [], []
        for box in item.boxes:
            side = 1.35 * max(box.w, box.h)
            crops.append(cut(frame, (box.cx, box.cy), (side, side), 0.0, (64, 64)))
            truth.append(box.cls + 1)
        for reading, value in zip(read_halves(crops), truth, strict=True):
            evaluation.faces += 1
            if reading.value is None:
                continue
            if reading.value == value:
                evaluation.right += 1
            else:
                evaluation.wrong += 1
    return evaluation
