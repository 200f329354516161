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

The loose-card reader of the owner's deck count (``read_loose_cards``) is measured on synthetic
batches of loose cards (:func:`evaluate_loose_synthetic`, ``bench/zatre_loose.py``): cards matched by
place, ``card_accuracy`` over the uncovered cards, ``wrong`` (a sure card with other values: must be
0), ``batch_exact_rate``.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from rules.zatre.board import Placement
from rules.zatre.cards import Card
from rules.zatre.deck import default_deck
from rules.zatre.game import auto_play
from rules.zatre.options import ZatreOptions
from vision.dataset import Split, load_folder
from vision.evaluate import Evaluation, _ratio, read_folder
from vision.nets import cut
from vision.zatre import LooseCards, ZatreObservation, read_halves, read_loose_cards, read_zatre
from vision.zatre_synth import LooseTruth, ZatreTruth, render_loose_cards, render_zatre_board

__all__ = [
    "LooseEvaluation",
    "PipEvaluation",
    "ZatreEvaluation",
    "evaluate_loose_synthetic",
    "evaluate_pips",
    "evaluate_zatre",
    "evaluate_zatre_synthetic",
    "loose_batches",
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


# --- loose cards: the owner's deck count ---------------------------------------------------------------


@dataclass
class LooseEvaluation:
    """The loose-card reader (``read_loose_cards``) over synthetic batches, cards matched by place:

    ``right``: cards read surely with their true values; ``wrong``: read surely with other values (a
    guess: must be 0); ``unsure``: true cards inside an unsure card's outline; ``missed``: true cards
    with nothing read there; ``extra``: sure cards read where none lies; ``covered_sure``: cards under
    a finger read surely anyway (right: the finger left enough; a wrong one counts in ``wrong``);
    ``batches_exact``: batches whose every uncovered card is right and every covered one unsure."""

    cards: int = 0
    covered: int = 0
    right: int = 0
    wrong: int = 0
    unsure: int = 0
    missed: int = 0
    extra: int = 0
    covered_sure: int = 0
    batches: int = 0
    batches_exact: int = 0
    times_ms: list[float] = field(default_factory=list)

    def add(self, truth: LooseTruth, reading: LooseCards, ms: float | None = None) -> None:
        self.batches += 1
        if ms is not None:
            self.times_ms.append(ms)
        claimed: set[int] = set()
        exact = True
        for t, card in enumerate(truth.cards):
            covered = t in truth.covered
            self.cards += 1
            self.covered += covered
            found = _card_at(reading, truth.centers[t], truth.sizes[t])
            if found is None:
                self.missed += 1
                exact = False
                continue
            claimed.add(found)
            seen = reading.cards[found]
            if seen.card is None:
                self.unsure += 1
                exact = exact and covered
            elif seen.card.key == card.key:
                self.right += 1
                self.covered_sure += covered
                exact = exact and not covered
            else:
                self.wrong += 1
                exact = False
        stray = [i for i, seen in enumerate(reading.cards) if i not in claimed and seen.sure]
        self.extra += len(stray)
        self.batches_exact += exact and not stray

    def summary(self) -> dict[str, float | int]:
        uncovered = self.cards - self.covered
        times = sorted(self.times_ms)
        return {
            "batches": self.batches,
            "cards": self.cards,
            "covered": self.covered,
            "card_accuracy": _ratio(self.right - self.covered_sure, uncovered),
            "wrong": self.wrong,
            "unsure": self.unsure,
            "missed": self.missed,
            "extra": self.extra,
            "batch_exact_rate": _ratio(self.batches_exact, self.batches),
            "ms_median": round(times[len(times) // 2], 1) if times else 0.0,
        }


def _card_at(reading: LooseCards, center: tuple[float, float], size: float) -> int | None:
    """The card read at ``center``: the nearest one whose centre lies within half a card of it, or an
    unsure card whose outline holds it."""
    best: tuple[float, int] | None = None
    for i, seen in enumerate(reading.cards):
        distance = math.dist(seen.center, center)
        inside = cv2.pointPolygonTest(np.array(seen.corners, np.float32), center, False) >= 0
        near = distance < size / 2 or (inside and not seen.sure)
        if near and (best is None or distance < best[0]):
            best = (distance, i)
    return None if best is None else best[1]


def loose_batches(
    count: int, seed: int, cards: int = 12, covered: float = 0.3
) -> Iterator[tuple[LooseTruth, np.ndarray]]:
    """``count`` synthetic batches of ``cards`` loose cards from the assumed deck (either way round),
    a finger over one card in about ``covered`` of them."""
    rng = np.random.default_rng(seed)
    deck = list(default_deck())
    for _ in range(count):
        chosen = [deck[int(i)] for i in rng.choice(len(deck), cards, replace=False)]
        batch = [card.turned() if rng.random() < 0.5 else card for card in chosen]
        hidden = [int(rng.integers(cards))] if rng.random() < covered else []
        frame, truth = render_loose_cards(batch, rng, covered=hidden)
        yield truth, frame


def evaluate_loose_synthetic(count: int, seed: int, cards: int = 12) -> LooseEvaluation:
    """The loose-card reader on ``count`` synthetic batches (:func:`loose_batches`)."""
    evaluation = LooseEvaluation()
    for truth, frame in loose_batches(count, seed, cards):
        start = time.perf_counter()
        reading = read_loose_cards(frame)
        evaluation.add(truth, reading, (time.perf_counter() - start) * 1000)
    return evaluation
