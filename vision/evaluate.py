"""Measuring a reader on a folder of labelled photographs (``referee vision eval-dice``, ``eval-tiles``).

Per image the true labels and the labels read are compared as multisets (of any hashable label: pips,
tile names): true positives are the size of their intersection. Precision, recall and F1 are summed over
all objects; the exact-image rate counts images read exactly. Counting only the objects read with
confidence (not uncertain): ``confident_precision`` is their multiset precision, and ``coverage`` is the
share of the true objects they read correctly. ``Evaluation`` keeps those totals for any reader; the
dice add a value confusion matrix that pairs dice by position with the labelled boxes (row = true,
column = read; "none" for a missed or an extra die); the tiles add number-only and colour-only accuracy
of the tiles paired by position, joker recall and the same figures per group of images.

>>> counts = multiset_hits([1, 2, 2, 6], [2, 2, 5])
>>> counts
2
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

import cv2
import numpy as np

from vision.dataset import LabelledBox, LabelledImage, Split, load_folder
from vision.dice import DiceObservation, read_dice

LABELS = ("1", "2", "3", "4", "5", "6", "none")


def multiset_hits(truth: Sequence[Hashable], read: Sequence[Hashable]) -> int:
    """Size of the multiset intersection of two lists of labels."""
    return sum((Counter(truth) & Counter(read)).values())


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


@dataclass
class Evaluation:
    """Running totals over the images of one evaluation, for any label type."""

    images: int = 0
    exact_images: int = 0
    true_objects: int = 0
    read_objects: int = 0
    hits: int = 0
    confident_objects: int = 0
    confident_hits: int = 0
    times_ms: list[float] = field(default_factory=list)

    def count(
        self, truth: Sequence[Hashable], read: Sequence[Hashable], confident: Sequence[Hashable]
    ) -> None:
        """Add one image: its true labels, all labels read, and those read with confidence."""
        self.images += 1
        self.exact_images += int(Counter(truth) == Counter(read))
        self.true_objects += len(truth)
        self.read_objects += len(read)
        self.hits += multiset_hits(truth, read)
        self.confident_objects += len(confident)
        self.confident_hits += multiset_hits(truth, confident)

    _ratio = staticmethod(_ratio)

    def scores(self) -> dict[str, Any]:
        """The figures every reader reports (rounded to four places)."""
        precision = _ratio(self.hits, self.read_objects)
        recall = _ratio(self.hits, self.true_objects)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return {
            "precision": round(precision, 4),
            "recall": round(recall, 4),
            "f1": round(f1, 4),
            "exact_image_rate": round(_ratio(self.exact_images, self.images), 4),
            "confident_precision": round(_ratio(self.confident_hits, self.confident_objects), 4),
            "coverage": round(_ratio(self.confident_hits, self.true_objects), 4),
            "ms_median": round(median(self.times_ms), 2) if self.times_ms else 0.0,
            "images": self.images,
        }

    def score_lines(self, noun: str) -> list[str]:
        s = self.scores()
        return [
            f"images {s['images']}, true {noun} {self.true_objects}, read {noun} {self.read_objects}",
            f"precision {s['precision']:.4f}  recall {s['recall']:.4f}  f1 {s['f1']:.4f}",
            f"exact images {s['exact_image_rate']:.4f}",
            f"confident precision {s['confident_precision']:.4f}  coverage {s['coverage']:.4f}",
            f"median time per image {s['ms_median']:.1f} ms",
        ]


@dataclass
class DiceEvaluation(Evaluation):
    """The totals of the dice reader, with its value confusion matrix."""

    confusion: np.ndarray = field(default_factory=lambda: np.zeros((7, 7), np.int64))

    def add(self, truth: Sequence[int], observation: DiceObservation, pairs: list[tuple[int, int]]) -> None:
        confident = [d.value for i, d in enumerate(observation.dice) if i not in observation.uncertain]
        self.count(truth, observation.values, confident)
        for row, col in pairs:
            self.confusion[row, col] += 1

    @property
    def true_dice(self) -> int:
        return self.true_objects

    @property
    def read_dice(self) -> int:
        return self.read_objects

    def summary(self) -> dict[str, Any]:
        return {
            **self.scores(),
            "true_dice": self.true_objects,
            "read_dice": self.read_objects,
            "confusion": {"labels": list(LABELS), "rows_true_columns_read": self.confusion.tolist()},
        }

    def report(self) -> str:
        lines = [
            *self.score_lines("dice"),
            "confusion (rows true, columns read):",
            "       " + " ".join(f"{label:>5}" for label in LABELS),
        ]
        for label, row in zip(LABELS, self.confusion, strict=True):
            lines.append(f"{label:>6} " + " ".join(f"{int(v):>5}" for v in row))
        return "\n".join(lines)


def pair_by_position(item: LabelledImage, observation: DiceObservation) -> list[tuple[int, int]]:
    """(true, read) index pairs for the confusion matrix; index 6 is "none" (missed or extra)."""
    matches, unused = dice_matches(item, observation)
    pairs = [(box.cls, 6 if best is None else observation.dice[best].value - 1) for box, best in matches]
    pairs.extend((6, observation.dice[i].value - 1) for i in sorted(unused))
    return pairs


def dice_matches(
    item: LabelledImage, observation: DiceObservation
) -> tuple[list[tuple[LabelledBox, int | None]], set[int]]:
    """Each labelled die with the index of the die read nearest it (within half its size, at least
    12 px, or 0.4 of the read die's size), or None; and the indices of the dice read that no label took."""
    unused = set(range(len(observation.dice)))
    matches: list[tuple[LabelledBox, int | None]] = []
    for box in item.boxes:
        reach = max(0.5 * max(box.w, box.h), 12.0)

        def away(i: int, box: LabelledBox = box) -> float:
            return math.hypot(observation.dice[i].center[0] - box.cx, observation.dice[i].center[1] - box.cy)

        best = min(
            (i for i in unused if away(i) < max(reach, 0.4 * observation.dice[i].size)),
            key=away,
            default=None,
        )
        if best is not None:
            unused.remove(best)
        matches.append((box, best))
    return matches, unused


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
    for item, frame, observation, ms in read_folder(folder, split, reader, show):
        truth = [int(v) for v in item.objects]
        evaluation.times_ms.append(ms)
        evaluation.add(truth, observation, pair_by_position(item, observation))
        if show is not None:
            cv2.imwrite(str(show / item.path.name), annotate(frame, observation, truth))
    return evaluation


def read_folder(
    folder: str | Path, split: Split | None, reader: Callable[[np.ndarray], Any], show: Path | None = None
) -> Iterator[tuple[LabelledImage, np.ndarray, Any, float]]:
    """``(item, frame, observation, ms)`` for each labelled image of a folder (optionally one split), the
    reading timed; creates ``show`` when given. ``FileNotFoundError`` names an unreadable image."""
    if show is not None:
        show.mkdir(parents=True, exist_ok=True)
    for item in load_folder(folder, split or "all"):
        frame = cv2.imread(str(item.path))
        if frame is None:
            raise FileNotFoundError(f"{item.path}: cannot read the image")
        start = time.perf_counter()
        observation = reader(frame)
        yield item, frame, observation, (time.perf_counter() - start) * 1000


# ---------------------------------------------------------------- tiles


def tile_name(name: str) -> str:
    """A dataset class name (``black_7``, ``joker``) or tile text as the tile's text (``K7``, ``J``)."""
    from vision.tiles import LABELS, label_of_name

    return LABELS[label_of_name(name)]


def read_groups(path: str | Path) -> dict[str, tuple[str, ...]]:
    """Image file name -> its groups, from a CSV ``image,background,setting`` (e.g. ``x.jpg,wood,table``).

    Raises ``FileNotFoundError`` for a missing file and ``ValueError`` naming a malformed line.
    """
    import csv

    groups: dict[str, tuple[str, ...]] = {}
    with Path(path).open(newline="") as handle:
        for number, row in enumerate(csv.DictReader(handle), 2):
            if not row.get("image") or not row.get("background") or not row.get("setting"):
                raise ValueError(f"{path}:{number}: needs image, background and setting")
            groups[Path(row["image"]).name] = (f"background {row['background']}", f"setting {row['setting']}")
    return groups


def _number(name: str) -> str:
    return name[1:] if name != "J" else "J"


def _colour(name: str) -> str:
    return name[0]


@dataclass
class TileEvaluation(Evaluation):
    """The totals of the tile reader: per-tile multisets of names, position-paired number and colour
    accuracy, joker recall, the red/orange and black/blue mix-ups, and the same figures per group."""

    matched: int = 0
    number_right: int = 0
    colour_right: int = 0
    true_jokers: int = 0
    joker_hits: int = 0
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)
    groups: dict[str, TileEvaluation] = field(default_factory=dict)

    def add(
        self,
        truth: Sequence[str],
        read: Sequence[str],
        confident: Sequence[str],
        pairs: Sequence[tuple[str, str]],
        groups: Sequence[str] = (),
    ) -> None:
        self.count(truth, read, confident)
        for true, seen in pairs:
            self.matched += 1
            self.number_right += int(_number(true) == _number(seen))
            self.colour_right += int(_colour(true) == _colour(seen))
            self.pairs[(true, seen)] += 1
        jokers = sum(1 for t in truth if t == "J")
        self.true_jokers += jokers
        self.joker_hits += min(jokers, sum(1 for t in read if t == "J"))
        for name in groups:
            self.groups.setdefault(name, TileEvaluation()).add(truth, read, confident, pairs)

    def _mixups(self, a: str, b: str) -> dict[str, int]:
        both = [(t, s) for (t, s), n in self.pairs.items() for _ in range(n) if _colour(t) in (a, b)]
        swapped = sum(1 for t, s in both if {_colour(t), _colour(s)} == {a, b})
        return {"tiles": len(both), "swapped": swapped}

    def summary(self) -> dict[str, Any]:
        out = {
            **self.scores(),
            "true_tiles": self.true_objects,
            "read_tiles": self.read_objects,
            "number_accuracy": round(_ratio(self.number_right, self.matched), 4),
            "colour_accuracy": round(_ratio(self.colour_right, self.matched), 4),
            "joker_recall": round(_ratio(self.joker_hits, self.true_jokers), 4),
            "red_orange": self._mixups("R", "O"),
            "black_blue": self._mixups("K", "B"),
        }
        if self.groups:
            out["groups"] = {name: g.summary() for name, g in sorted(self.groups.items())}
        return out

    def report(self) -> str:
        s = self.summary()
        lines = [
            *self.score_lines("tiles"),
            f"matched tiles: number {s['number_accuracy']:.4f}  colour {s['colour_accuracy']:.4f}  "
            f"joker recall {s['joker_recall']:.4f} ({self.true_jokers} jokers)",
            f"red/orange swapped {s['red_orange']['swapped']} of {s['red_orange']['tiles']}, "
            f"black/blue swapped {s['black_blue']['swapped']} of {s['black_blue']['tiles']}",
        ]
        for name, g in sorted(self.groups.items()):
            gs = g.scores()
            lines.append(
                f"  {name:<22} images {gs['images']:>3}  tiles {g.true_objects:>4}  f1 {gs['f1']:.4f}  "
                f"confident precision {gs['confident_precision']:.4f}  coverage {gs['coverage']:.4f}"
            )
        errors = [(n, t, s) for (t, s), n in self.pairs.most_common() if t != s][:8]
        if errors:
            lines.append("most frequent misreadings: " + ", ".join(f"{t}->{s} ×{n}" for n, t, s in errors))
        return "\n".join(lines)


def pair_tiles(item: LabelledImage, observation: Any) -> list[tuple[str, str]]:
    """(true, read) name pairs of the labelled tiles and the tiles read nearest their centres (within
    half the label's short side)."""
    matches, _ = tile_matches(item, observation)
    return [
        (tile_name(box.name or str(box.cls)), str(observation.tiles[best].tile))
        for box, best in matches
        if best is not None
    ]


def tile_matches(
    item: LabelledImage, observation: Any
) -> tuple[list[tuple[LabelledBox, int | None]], set[int]]:
    """Each labelled tile with the index of the tile read nearest its centre (within half the label's
    short side), or None; and the indices of the tiles read that no label took."""
    unused = set(range(len(observation.tiles)))
    matches: list[tuple[LabelledBox, int | None]] = []
    for box in item.boxes:
        reach = 0.5 * min(box.w, box.h)

        def away(i: int, box: LabelledBox = box) -> float:
            return math.dist(observation.tiles[i].center, (box.cx, box.cy))

        best = min((i for i in unused if away(i) < reach), key=away, default=None)
        if best is not None:
            unused.remove(best)
        matches.append((box, best))
    return matches, unused


def annotate_tiles(frame: np.ndarray, observation: Any, truth: Sequence[str]) -> np.ndarray:
    """The frame with each tile's outline and reading (green: confident, orange: uncertain, blue: decided
    by its meld), each meld's line, and the true and read multisets on top."""
    out = frame.copy()
    for meld in observation.melds:
        points = np.array([observation.tiles[i].center for i in meld], np.int32)
        cv2.polylines(out, [points], False, (255, 0, 255), 2)
    for i, tile in enumerate(observation.tiles):
        colour = (0, 140, 255) if i in observation.uncertain else (0, 200, 0)
        if tile.corrected:
            colour = (255, 120, 0)
        cv2.polylines(out, [np.array(tile.corners, np.int32)], True, colour, 2)
        x, y = tile.center
        label = f"{tile.tile} {tile.confidence:.2f}"
        cv2.putText(out, label, (round(x - 20), round(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 3)
        cv2.putText(out, label, (round(x - 20), round(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1)
    _write_tally(out, truth, [str(t.tile) for t in observation.tiles], 0.5)
    return out


def _write_tally(out: np.ndarray, truth: Sequence[str], read: Sequence[str], scale: float) -> None:
    """The annotated image's top line: how many were labelled and read, which were missed, which extra."""
    missing = Counter(truth) - Counter(read)
    extra = Counter(read) - Counter(truth)
    text = f"true {len(truth)} read {len(read)} | missed {' '.join(missing.elements())}"
    text += f" | extra {' '.join(extra.elements())}"
    y = round(36 * scale)
    cv2.putText(out, text, (5, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3)
    cv2.putText(out, text, (5, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 1)


def evaluate_tiles(
    folder: str | Path,
    split: Split | None = None,
    show: Path | None = None,
    reader: Callable[[np.ndarray], Any] | None = None,
    groups: dict[str, tuple[str, ...]] | None = None,
) -> TileEvaluation:
    """Read every image of a labelled tile folder (optionally one development split) and total the scores;
    ``groups`` (from ``read_groups``) adds the figures per background and setting.

    Raises ``FileNotFoundError`` for a folder without ``ground_truth.csv`` or an unreadable image.
    """
    if reader is None:
        from vision.tiles import read_tiles

        reader = read_tiles
    evaluation = TileEvaluation()
    for item, frame, observation, ms in read_folder(folder, split, reader, show):
        truth = [tile_name(v) for v in item.objects]
        read = [str(t.tile) for t in observation.tiles]
        confident = [str(t.tile) for i, t in enumerate(observation.tiles) if i not in observation.uncertain]
        evaluation.times_ms.append(ms)
        mine = (groups or {}).get(item.path.name, ())
        evaluation.add(truth, read, confident, pair_tiles(item, observation), mine)
        if show is not None:
            cv2.imwrite(str(show / item.path.name), annotate_tiles(frame, observation, truth))
    return evaluation


# ---------------------------------------------------------------- reliability


def scored_tiles(item: LabelledImage, observation: Any) -> tuple[list[tuple[float, bool]], int]:
    """``([(confidence, right)], true tiles)``: each tile read, paired by position with the labelled tile
    nearest its centre (within half the label's short side); a tile read where none is labelled is wrong.
    A tile ``corrected`` by its meld counts with the meld's confidence, as the reader reports it."""
    matches, unused = tile_matches(item, observation)
    scored = [
        (
            observation.tiles[best].confidence,
            str(observation.tiles[best].tile) == tile_name(box.name or str(box.cls)),
        )
        for box, best in matches
        if best is not None
    ]
    scored.extend((observation.tiles[i].confidence, False) for i in unused)
    return scored, len(item.boxes)


def scored_dice(item: LabelledImage, observation: DiceObservation) -> tuple[list[tuple[float, bool]], int]:
    """The same for dice: each die read, paired by position (as ``pair_by_position``) with a labelled die."""
    matches, unused = dice_matches(item, observation)
    scored = [
        (observation.dice[best].confidence, observation.dice[best].value - 1 == box.cls)
        for box, best in matches
        if best is not None
    ]
    scored.extend((observation.dice[i].confidence, False) for i in unused)
    return scored, len(item.boxes)


@dataclass(frozen=True)
class ReliabilityPoint:
    """At one threshold: how many readings are confident, how many of those are wrong, their precision
    and the coverage (confident right readings over the true objects)."""

    threshold: float
    confident: int
    wrong: int
    precision: float
    coverage: float


def reliability(
    scored: Sequence[tuple[float, bool]], true_objects: int, thresholds: Sequence[float]
) -> list[ReliabilityPoint]:
    """Confident precision against coverage at each threshold (a reading is confident at ``conf >= t``).

    >>> (point,) = reliability([(0.9, True), (0.6, False), (0.3, True)], 4, [0.5])
    >>> point.confident, point.wrong, point.coverage
    (2, 1, 0.25)
    """
    conf = np.array([c for c, _ in scored], np.float64)
    right = np.array([r for _, r in scored], bool)
    points = []
    for t in thresholds:
        sure = conf >= t
        n, good = int(sure.sum()), int((sure & right).sum())
        points.append(
            ReliabilityPoint(
                float(t), n, n - good, good / n if n else 1.0, good / true_objects if true_objects else 0.0
            )
        )
    return points


def threshold_for(scored: Sequence[tuple[float, bool]], wrong_share: float = 1 / 200) -> float:
    """The lowest threshold at which at most ``wrong_share`` of the confident readings are wrong (1 in 200
    by default): the largest confident set, grown from the surest reading down, that keeps the bound
    (``1.0`` when none does).

    >>> threshold_for([(0.99, True), (0.9, True), (0.8, False), (0.7, True)], wrong_share=0.2)
    0.9
    >>> threshold_for([(0.99, False), *[(0.9, True)] * 300, (0.5, False)])
    0.9
    """
    ordered = sorted(scored, key=lambda s: -s[0])
    threshold, wrong = 1.0, 0
    for k, (confidence, right) in enumerate(ordered, 1):
        wrong += not right
        # Only where the next reading is less sure can the threshold fall between them.
        if wrong <= wrong_share * k and (k == len(ordered) or ordered[k][0] < confidence):
            threshold = confidence
    return float(threshold)


def threshold_for_each(sets: list[list[tuple[float, bool]]], wrong_share: float = 1 / 200) -> float:
    """The lowest threshold at which, in every one of ``sets`` of (confidence, right) readings, at most
    ``wrong_share`` of the confident readings are wrong (``threshold_for`` for several
    sets at once; a set without a wrong reading bounds nothing); 1.0 when none is.

    >>> threshold_for_each([[(0.9, True), (0.8, False), (0.7, True)], [(0.95, True), (0.65, False)]], 0.4)
    0.7
    >>> threshold_for_each([[(0.9, False), (0.8, True)], [(0.7, True)]], 0.4)
    1.0
    """
    candidates = sorted({conf for scored in sets for conf, _ in scored}, reverse=True)
    threshold = 1.0
    for t in candidates:
        holds = True
        for scored in sets:
            sure = [right for conf, right in scored if conf >= t]
            holds &= len(sure) - sum(sure) <= wrong_share * len(sure)
        if holds:
            threshold = t
    return float(threshold)


# ---------------------------------------------------------------- cards


def card_name(name: str) -> str:
    """A dataset class name (``10H``, ``AS``; ``JOKER``) as the card's text (``Card.parse`` spelling).

    >>> card_name("th"), card_name("joker")
    ('10H', 'JOKER')
    """
    from rules.kalooki.cards import Card

    return str(Card.parse(name))


def _card_rank(name: str) -> str:
    return name if name == "JOKER" else name[:-1]


def _card_suit(name: str) -> str:
    return "" if name == "JOKER" else name[-1]


@dataclass
class CardEvaluation(Evaluation):
    """The totals of the card reader: per-card multisets of names, position-paired rank and suit accuracy
    apart, and the most frequent misreadings (a true card paired with another read in its place)."""

    matched: int = 0
    rank_right: int = 0
    suit_right: int = 0
    copy_errors: int = 0
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(
        self,
        truth: Sequence[str],
        read: Sequence[str],
        confident: Sequence[str],
        pairs: Sequence[tuple[str, str]],
    ) -> None:
        self.count(truth, read, confident)
        for true, seen in pairs:
            self.matched += 1
            self.rank_right += int(_card_rank(true) == _card_rank(seen))
            self.suit_right += int(_card_suit(true) == _card_suit(seen))
            self.pairs[(true, seen)] += 1

    def misreadings(self, count: int = 8) -> list[tuple[str, str, int]]:
        return [(t, s, n) for (t, s), n in self.pairs.most_common() if t != s][:count]

    def summary(self) -> dict[str, Any]:
        return {
            **self.scores(),
            "true_cards": self.true_objects,
            "read_cards": self.read_objects,
            "rank_accuracy": round(_ratio(self.rank_right, self.matched), 4),
            "suit_accuracy": round(_ratio(self.suit_right, self.matched), 4),
            "matched_cards": self.matched,
            "copy_errors": self.copy_errors,
            "misreadings": [{"true": t, "read": s, "count": n} for t, s, n in self.misreadings()],
        }

    def report(self) -> str:
        s = self.summary()
        lines = [
            *self.score_lines("cards"),
            f"matched cards {self.matched}: rank {s['rank_accuracy']:.4f}  suit {s['suit_accuracy']:.4f}",
            f"readings refused as a third copy of a card: {self.copy_errors}",
        ]
        errors = self.misreadings()
        if errors:
            lines.append("most frequent misreadings: " + ", ".join(f"{t}->{s} ×{n}" for t, s, n in errors))
        return "\n".join(lines)


def card_matches(
    item: LabelledImage, observation: Any
) -> tuple[list[tuple[LabelledBox, int | None]], set[int]]:
    """Each labelled card with the index of the card read in its place, or None; and the indices of the
    cards read that no label took. A card read is in a label's place when its centre lies within half
    the short side of the label's visible box from that box's centre. Labels take cards read *as
    themselves* in their place first, over the whole photo (as a detection benchmark pairs a detection
    only with a label of its class), then a label left takes the nearest card read in its place
    (:func:`pair_in_place`): a second, wrong reading of the same card lying nearer (a box over part of
    it) no longer takes the label from the right one, and stays an extra (wrong) card.

    >>> from types import SimpleNamespace as NS
    >>> item = NS(boxes=[LabelledBox(0, 100.0, 100.0, 60.0, 100.0, name="8S")])
    >>> seen = NS(cards=[NS(card="8C", center=(102.0, 100.0)), NS(card="8S", center=(110.0, 95.0))])
    >>> card_matches(item, seen)[0][0][1], card_matches(item, seen)[1]
    (1, {0})
    """
    boxes = sorted(item.boxes, key=lambda b: min(b.w, b.h))
    wanted = [(card_name(b.name or str(b.cls)), (b.cx, b.cy), 0.5 * min(b.w, b.h)) for b in boxes]
    cards = observation.cards
    best, unused = pair_in_place(wanted, [c.center for c in cards], [str(c.card) for c in cards])
    return list(zip(boxes, best, strict=True)), unused


def pair_in_place(
    wanted: Sequence[tuple[str, tuple[float, float], float]],
    centres: Sequence[tuple[float, float]],
    names: Sequence[str],
) -> tuple[list[int | None], set[int]]:
    """Each card ``wanted`` (its name, the centre of its place, the reach of that place) paired with a
    card read *as itself* in its place, else, in the order given, with the nearest card left that was
    read there (the cards read by ``centres`` and ``names``); and the cards read that none took. The
    pairs of cards read as themselves are made first over the whole picture, the nearest first (as a
    detection benchmark pairs each class apart): a label whose own card was missed no longer takes the
    neighbour's right reading lying in its reach, leaving that neighbour's label unpaired and the reading
    counted wrong. The pairing of :func:`card_matches` and of ``bench/cards_read.py``'s rendered tables.

    A missed QD whose place reaches over the 10D read beside it: the 10D stays the 10D's.

    >>> pair_in_place([("QD", (0.0, 0.0), 50.0), ("10D", (40.0, 0.0), 60.0)], [(30.0, 0.0)], ["10D"])
    ([None, 0], set())
    """
    unused = set(range(len(centres)))
    out: list[int | None] = [None] * len(wanted)
    own = sorted(
        (math.dist(centres[i], centre), k, i)
        for k, (name, centre, reach) in enumerate(wanted)
        for i in range(len(centres))
        if names[i] == name and math.dist(centres[i], centre) < reach
    )
    for _, k, i in own:
        if out[k] is None and i in unused:
            out[k] = i
            unused.remove(i)
    for k, (_, centre, reach) in enumerate(wanted):
        if out[k] is not None:
            continue

        def away(i: int, centre: tuple[float, float] = centre) -> float:
            return math.dist(centres[i], centre)

        best = min((i for i in unused if away(i) < reach), key=away, default=None)
        if best is not None:
            unused.remove(best)
        out[k] = best
    return out, unused


def scored_cards(item: LabelledImage, observation: Any) -> tuple[list[tuple[float, bool]], int]:
    """``([(confidence, right)], true cards)``: each card read, paired by position with a labelled card
    (``card_matches``); a card read where none is labelled is wrong."""
    matches, unused = card_matches(item, observation)
    scored = [
        (
            observation.cards[best].confidence,
            str(observation.cards[best].card) == card_name(box.name or str(box.cls)),
        )
        for box, best in matches
        if best is not None
    ]
    scored.extend((observation.cards[i].confidence, False) for i in unused)
    return scored, len(item.boxes)


def annotate_cards(frame: np.ndarray, observation: Any, truth: Sequence[str]) -> np.ndarray:
    """The frame with each card's visible box and reading (green: confident, orange: uncertain), each
    meld's line, the backs, and the true and read multisets on top."""
    out = frame.copy()
    for meld in observation.melds:
        points = np.array([observation.cards[i].center for i in meld], np.int32)
        cv2.polylines(out, [points], False, (255, 0, 255), 2)
    for i, card in enumerate(observation.cards):
        colour = (0, 140, 255) if i in observation.uncertain else (0, 200, 0)
        x0, y0, x1, y1 = (round(v) for v in card.box)
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, 2)
        x, y = card.center
        label = f"{card.card} {card.confidence:.2f}"
        cv2.putText(out, label, (round(x - 25), round(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 4)
        cv2.putText(out, label, (round(x - 25), round(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.55, colour, 1)
    for x, y in observation.backs:
        cv2.putText(out, "back", (round(x - 20), round(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 0), 2)
    _write_tally(out, truth, [str(c.card) for c in observation.cards], 0.6)
    return out


def evaluate_cards(
    folder: str | Path,
    split: Split | None = None,
    show: Path | None = None,
    reader: Callable[[np.ndarray], Any] | None = None,
) -> CardEvaluation:
    """Read every image of a labelled card folder (optionally one development split) and total the scores.

    Raises ``FileNotFoundError`` for a folder without ``ground_truth.csv`` or an unreadable image, and
    ``ValueError`` for a label that is not a card.
    """
    if reader is None:
        from vision.cards import read_cards

        reader = read_cards
    evaluation = CardEvaluation()
    for item, frame, observation, ms in read_folder(folder, split, reader, show):
        truth = [card_name(v) for v in item.objects]
        read = [str(c.card) for c in observation.cards]
        confident = [str(c.card) for i, c in enumerate(observation.cards) if i not in observation.uncertain]
        evaluation.times_ms.append(ms)
        evaluation.copy_errors += int(bool(observation.copy_error))
        matches, _ = card_matches(item, observation)
        pairs = [
            (card_name(box.name or str(box.cls)), str(observation.cards[best].card))
            for box, best in matches
            if best is not None
        ]
        evaluation.add(truth, read, confident, pairs)
        if show is not None:
            cv2.imwrite(str(show / item.path.name), annotate_cards(frame, observation, truth))
    return evaluation
