"""Reading playing cards from a camera frame: every face-up card (rank and suit, or joker), the face-down
ones, and the melds as they lie.

Both networks are small ONNX files in ``vision/models`` run by ``cv2.dnn`` through the shared detector and
crop classifier of ``vision.nets`` (trained by ``training/cards.py``; ``vision/models/MODELS.txt``
credits the photo set and the artwork they come from).

1. The detector finds the *visible part* of each card — the whole card, or the strip of a card under
   others in a fan, where its corner index (rank over suit) shows — as an axis-aligned box.
2. The corner indices decide (``IndexReader``, when the models have one): a second detector finds every
   corner index in sight with the turn of its upright and its card's height; each is read from an
   upright patch (rank A … K, joker or not an index; suit) and given to the card whose box holds it and
   whose centre lies where that index's card can lie. A card's indices are combined into one reading
   (``combine_indices``): corners that disagree leave it unsure. A box over several strips of a tight
   fan is split into their cards (``split_cards``); indices on no box make cards of their own
   (``lone_cards``); one card seen twice is merged (``merge_twins``); an index of a neighbour read on a
   card's box is left to that neighbour (``explain_away``); a sure index of another rank on a card's
   box, of a card read nowhere, is a card the detector missed (``stray_indices``).
3. Where no index is in sight, the box is cut as a square crop and a whole-card classifier says whether
   it is a back or no card (a face read that way is never confident). Its confidence, like the
   indices', uses temperatures fitted on real photos; a card below ``confidence_threshold`` is listed as
   uncertain, never guessed silently. A card read at a place its indices cannot be at (``misplaced``)
   is never confident: the session compares places.
4. Cards whose boxes touch or overlap form a meld (a fan or a row), in order along it; a card apart from
   all others is loose.
5. Kalooki is played with two decks: two equal cards are two cards, but a third copy of a card (or a
   third joker) read with confidence makes the reading an error naming the card (``copy_error``;
   ``cards_on_table`` raises ``CardCopyError``), never a table state.

>>> from rules.kalooki.cards import parse_cards
>>> from vision.cards_synth import render_card_table
>>> meld = parse_cards("7H 8H 9H")
>>> frame, _ = render_card_table([meld], seed=4, spread=(0.9, 0.95), angle=8, card_height=190)
>>> observation = read_cards(frame)
>>> len(observation.cards), [len(m) for m in observation.melds], observation.loose
(3, [3], ())
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from rules.kalooki.cards import JOKER, Card
from rules.kalooki.cards import SUITS as CARD_SUITS
from vision.calibration import Calibration
from vision.frame import check_frame
from vision.melds import connected
from vision.nets import MODELS, CropClassifier, HeatmapDetector, cut, edge_angles, load_settings, normalise

# The rank head's classes: the thirteen ranks as the cards print them, the joker, a face-down card and
# "not a card"; the suit head's: the four suits. A joker, a back or not-a-card has no suit.
RANKS: tuple[str, ...] = (
    "A",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "JOKER",
    "back",
    "none",
)
SUITS: tuple[str, ...] = tuple(CARD_SUITS)
BACK_CLASS = RANKS.index("back")
NONE_CLASS = RANKS.index("none")
JOKER_CLASS = RANKS.index("JOKER")
COPIES = 2  # two decks: at most two of each card (and two jokers)


class CardCopyError(ValueError):
    """A reading shows more copies of a card than two decks hold; the message names the card."""


@cache
def card_of(rank: int, suit: int) -> Card:
    """The card of a rank class (not back or none) and a suit class.

    >>> card_of(9, 1), card_of(RANKS.index("JOKER"), 0)
    (Card.parse('10H'), Card.parse('JOKER'))
    """
    if rank == JOKER_CLASS:
        return JOKER
    return Card.parse(RANKS[rank] + SUITS[suit])


@dataclass(frozen=True)
class CardDetection:
    """A detector peak read as the visible part of a card: centre, the box's width and height (image px)
    and the heat score."""

    x: float
    y: float
    width: float
    height: float
    score: float

    @property
    def box(self) -> tuple[float, float, float, float]:
        return (
            self.x - self.width / 2,
            self.y - self.height / 2,
            self.x + self.width / 2,
            self.y + self.height / 2,
        )


@dataclass(frozen=True)
class SeenCard:
    """One face-up card as seen: what it is, the centre and axis-aligned box of its visible part (frame
    px), the turn of its edges (degrees in [-45, 45): known modulo a quarter turn), its confidence, and
    the likeliest readings with their probabilities."""

    card: Card
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    angle: float
    confidence: float
    candidates: tuple[tuple[Card, float], ...] = ()

    @property
    def label(self) -> str:
        return str(self.card)

    @property
    def size(self) -> float:
        """Its extent for drawing (``vision.observation.Item``): the visible box's long side."""
        x0, y0, x1, y1 = self.box
        return max(x1 - x0, y1 - y0)

    @property
    def zone(self) -> str | None:
        """Zones (stock, discard pile) are the session's to name from a calibration."""
        return None

    def __str__(self) -> str:
        x, y = self.center
        return f"{self.card}@({x:.0f},{y:.0f}) p={self.confidence:.2f}"


@dataclass(frozen=True)
class CardObservation:
    """Every face-up card in one frame, the melds they form and the loose ones, and the face-down cards.

    ``melds`` are tuples of card indices in order along their line; ``loose`` indexes cards apart from
    all others; ``uncertain`` indexes cards read below the confidence threshold; ``backs`` are the
    centres of face-down cards (a stock). ``copy_error`` names a card read with confidence more often
    than two decks hold (empty when there is none).
    """

    cards: tuple[SeenCard, ...]
    melds: tuple[tuple[int, ...], ...] = ()
    loose: tuple[int, ...] = ()
    uncertain: tuple[int, ...] = ()
    backs: tuple[tuple[float, float], ...] = ()

    @property
    def items(self) -> tuple[SeenCard, ...]:
        return self.cards

    @property
    def empty(self) -> bool:
        return not self.cards

    @property
    def certain(self) -> bool:
        return not self.uncertain

    @property
    def copy_error(self) -> str:
        """``""``, or what is wrong: the card read (with confidence) more than twice."""
        counts = Counter(c.card for i, c in enumerate(self.cards) if i not in self.uncertain)
        over = sorted(card for card, n in counts.items() if n > COPIES)
        if not over:
            return ""
        names = ", ".join(f"{counts[c]} × {c}" for c in over)
        return f"{names} on the table: two decks hold only {COPIES} of each card (misread or a third deck?)"

    def cards_on_table(self) -> list[list[Card]]:
        """The table: one card sequence per meld, then each loose card on its own. Raises
        ``CardCopyError`` naming the card when the reading shows a third copy of one."""
        error = self.copy_error
        if error:
            raise CardCopyError(error)
        return [
            *([self.cards[i].card for i in m] for m in self.melds),
            *([self.cards[i].card] for i in self.loose),
        ]

    def same_as(self, other: CardObservation) -> bool:
        """The same cards in the same melds (order along a line aside), for settling."""
        return sorted(c.label for c in self.cards) == sorted(c.label for c in other.cards) and _canonical(
            self
        ) == _canonical(other)

    def __str__(self) -> str:
        melds = " | ".join(" ".join(str(self.cards[i].card) for i in m) for m in self.melds)
        loose = " ".join(str(self.cards[i].card) for i in self.loose)
        return f"melds [{melds}] loose [{loose}]" + (
            f" uncertain {len(self.uncertain)}" if self.uncertain else ""
        )


def _canonical(observation: CardObservation) -> list[str]:
    out = []
    for meld in observation.melds:
        words = [observation.cards[i].label for i in meld]
        out.append(" ".join(min(words, words[::-1])))
    return sorted(out)


class CardModels:
    """The card reader: the shared detector (six channels) and a crop classifier with two heads, with
    the card settings (``cards_reader.json``)."""

    def __init__(self, folder: Path, config: dict[str, Any]) -> None:
        self.config = config
        self.detector = HeatmapDetector(
            folder / config["detector"], config["net_long"], config["stride"], config["heat_threshold"]
        )
        self.card_net = float(config["card_net"])
        self.crop = int(config["crop"])
        self.margin = float(config["margin"])
        self.straighten = bool(config.get("straighten", False))
        self.classifier = CropClassifier(
            folder / config["classifier"],
            (*RANKS, *SUITS),
            (self.crop, self.crop),
            first=(0,),
            rest=(1, 2, 3),
            recheck_below=config["recheck_below"],
            temperature=1.0,
        )
        self.rank_temperature = float(config["rank_temperature"])
        self.suit_temperature = float(config["suit_temperature"])
        self.confidence_threshold = float(config["confidence_threshold"])
        self.index: IndexReader | None = IndexReader(folder, config["index"]) if config.get("index") else None

    @classmethod
    def load(cls, folder: Path = MODELS) -> CardModels:
        return cls(folder, load_settings("cards", folder))

    def detect(self, image: np.ndarray, heat_threshold: float | None = None) -> list[CardDetection]:
        """Candidate cards (visible parts) in ``image`` (BGR), strongest first.

        Cards come at any size (a close photo, a whole table from above), so the detector looks twice:
        first to learn how long a card is (the median long side of the boxes found: a strip of a fan is
        as long as its card); then, unless that already showed a card at about ``card_net`` network
        pixels, again with the frame scaled so that it does.

        The first look is two: at ``net_long`` (a table's cards) and a close one at ``CLOSE_LOOK``. The
        detector learned cards of about 0.55 to 1.6 times ``card_net``; a card much longer is seen as
        small boxes and strips, so the look at ``net_long`` alone read a close photo's four cards as one
        small box (the second look then never came). The close look is believed where the cards it
        finds are of a size it was taught (``CLOSE_CARDS`` network pixels or longer) and it finds at
        least ``CLOSE_SHARE`` as many as the other look; on a table it finds only a few stray peaks."""
        h, w = image.shape[:2]
        first, net_long = self._detect(image, heat_threshold, self.detector.net_long), self.detector.net_long
        close = self._detect(image, heat_threshold, CLOSE_LOOK)
        long_sides = [max(d.width, d.height) for d in close] or [0.0]
        close_long = float(np.median(long_sides)) * CLOSE_LOOK / max(h, w)
        if close_long >= CLOSE_CARDS and len(close) >= CLOSE_SHARE * len(first):
            first, net_long = close, CLOSE_LOOK
        sizes = [max(d.width, d.height) for d in first]
        if not sizes:
            return first
        wanted = max(h, w) * self.card_net / float(np.median(sizes))
        second = int(np.clip(round(wanted / 16) * 16, MIN_NET_LONG, MAX_NET_LONG))
        if abs(math.log(second / net_long)) < math.log(1.2):
            return first
        return self._detect(image, heat_threshold, second)

    def _detect(self, image: np.ndarray, heat_threshold: float | None, net_long: int) -> list[CardDetection]:
        # Channel 1 is the box's short side: two strips of a tight fan lie about one short side apart.
        peaks = self.detector.detect(image, heat_threshold, overlap=0.5, net_long=net_long)
        scale = net_long / max(image.shape[:2])
        return [
            CardDetection(p.x, p.y, math.exp(p.extra[0]) / scale, math.exp(p.extra[1]) / scale, p.score)
            for p in peaks
        ]

    def turns(self, image: np.ndarray, detections: Sequence[CardDetection]) -> np.ndarray:
        """The turn of the edges around each detection (degrees in [-45, 45): a card's edges, known
        modulo a quarter turn)."""
        return edge_angles(
            image, [(d.x, d.y) for d in detections], [max(d.width, d.height) for d in detections]
        )

    def crops(
        self, image: np.ndarray, detections: Sequence[CardDetection], turns: np.ndarray | None = None
    ) -> np.ndarray:
        """Square crops of the detections, straightened by ``turns`` (with ``straighten``) so that the
        card lies square to the crop, upright or a quarter or half turn off."""
        out = np.empty((len(detections), self.crop, self.crop, 3), np.uint8)
        if turns is None:
            turns = self.turns(image, detections) if self.straighten else np.zeros(len(detections))
        for i, d in enumerate(detections):
            side = self.margin * max(d.width, d.height)
            out[i] = cut(image, (d.x, d.y), (side, side), float(turns[i]), (self.crop, self.crop))
        return out

    def logits(
        self, image: np.ndarray, detections: Sequence[CardDetection], turns: np.ndarray | None = None
    ) -> np.ndarray:
        """Raw logits (n, ranks + suits): the first look, and all four quarter turns averaged where the
        first look is not sure of the rank or the suit."""
        crops = self.crops(image, detections, turns)
        if len(crops) == 0:
            return np.zeros((0, len(RANKS) + len(SUITS)), np.float32)
        logits = self.classifier.turn_logits(crops, (0,))[0]
        rank_p, suit_p = self.probabilities(logits)
        sure = rank_p.max(axis=1) * np.where(_suited(rank_p.argmax(axis=1)), suit_p.max(axis=1), 1.0)
        doubtful = sure < self.classifier.recheck_below
        if doubtful.any():
            more = self.classifier.turn_logits(crops[doubtful], (1, 2, 3))
            logits[doubtful] = (logits[doubtful] + more.sum(axis=0)) / 4
        return logits

    def probabilities(self, logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rank and the suit probabilities (softmax over each head divided by its temperature)."""
        return (
            _softmax(logits[:, : len(RANKS)] / self.rank_temperature),
            _softmax(logits[:, len(RANKS) :] / self.suit_temperature),
        )


@dataclass(frozen=True)
class IndexReading:
    """One corner index found and read: its centre (image px), the turn of its upright (degrees
    clockwise), the card height it implies (px), the detector's heat, and the probabilities of the
    rank classes (A … K, joker, not an index) and of the suits."""

    x: float
    y: float
    angle: float
    card_height: float
    score: float
    rank_p: np.ndarray
    suit_p: np.ndarray
    side: float = 0.0  # +1 a left corner's index, -1 a right corner's (a four-index deck), 0 not told

    @property
    def is_index(self) -> float:
        """The probability that this is an index at all."""
        return float(1.0 - self.rank_p[INDEX_NONE])

    def card_p(self, rank: int, suit: int) -> float:
        """The probability of one card (``rank`` a class of ``RANKS`` up to the joker)."""
        return float(self.rank_p[rank] * (1.0 if rank == JOKER_CLASS else self.suit_p[suit]))

    @cached_property
    def classes(self) -> tuple[int, int]:
        """What this index reads on its own, as (rank, suit) classes (suit 0 for the joker); worked out
        once (placing and combining ask it hundreds of times a table)."""
        rank = int(np.argmax(self.rank_p[:INDEX_NONE]))
        return rank, (0 if rank == JOKER_CLASS else int(np.argmax(self.suit_p)))


INDEX_NONE = JOKER_CLASS + 1  # the index classifier's "not an index" class, after A … K and the joker


class IndexReader:
    """The corner-index reader: a CenterNet finding every corner index (rank over suit) in sight with the
    turn of its upright and the height of its card, and a small classifier reading each index from an
    upright patch around it (``patch`` px; ``extent`` × the card's height)."""

    def __init__(self, folder: Path, config: dict[str, Any]) -> None:
        self.config = config
        self.detector = HeatmapDetector(
            folder / config["detector"], 384, config["stride"], config["heat_threshold"]
        )
        self.card_net = float(config["card_net"])
        self.patch = (int(config["patch"][0]), int(config["patch"][1]))
        self.extent = (float(config["extent"][0]), float(config["extent"][1]))
        self.classifier = cv2.dnn.readNetFromONNX(str(folder / config["classifier"]))
        self.rank_temperature = float(config.get("rank_temperature", 1.0))
        self.suit_temperature = float(config.get("suit_temperature", 1.0))
        self.overlap = float(config.get("overlap", 0.1))
        self.lone_cards = bool(config.get("lone_cards", True))
        self.split = bool(config.get("split", True))
        self.lone_confidence = float(config.get("lone_confidence", 0.0))
        self.fragments = bool(config.get("fragments", True))
        # With ``edge_view`` an index read unsure and found turned off the straight edges around it (a
        # window of ``edge_view`` card heights: its card's corner) is read again turned as they say, the
        # two readings' logits averaged (``read``).
        self.edge_view = float(config.get("edge_view", 0.0))
        # The suit is read by its own net from the lower part of the patch (the suit under the rank),
        # each patch scaled to its own paper's white first (``paper_white``), when the models have one.
        suit = config.get("suit")
        self.suit_net = cv2.dnn.readNetFromONNX(str(folder / suit["classifier"])) if suit else None
        self.suit_rows = (int(suit["rows"][0]), int(suit["rows"][1])) if suit else (0, self.patch[1])
        # Which corner an index is printed at (a four-index deck's top-left and top-right look alike),
        # from a wider patch where the card's side edge is in sight, when the models have a side net.
        side = config.get("side")
        self.side_net = cv2.dnn.readNetFromONNX(str(folder / side["classifier"])) if side else None
        self.side_patch = (int(side["patch"][0]), int(side["patch"][1])) if side else (0, 0)
        self.side_extent = (float(side["extent"][0]), float(side["extent"][1])) if side else (0.0, 0.0)

    def find(self, image: np.ndarray, card_height: float) -> list[tuple[float, float, float, float, float]]:
        """Index centres (x, y), upright turn, card height and heat in ``image`` whose cards are about
        ``card_height`` px long."""
        h, w = image.shape[:2]
        net_long = int(np.clip(round(max(h, w) * self.card_net / card_height / 16) * 16, 128, 2048))
        peaks = self.detector.detect(image, overlap=self.overlap, net_long=net_long)
        return [(p.x, p.y, math.degrees(math.atan2(p.extra[1], p.extra[0])), p.size, p.score) for p in peaks]

    def read(self, image: np.ndarray, card_height: float) -> list[IndexReading]:
        """Every corner index found in ``image`` and read; with ``edge_view``, one read unsure and found
        turned off the edges around it is read again turned square to them (``edge_turns``)."""
        found = self.find(image, card_height)
        if not found:
            return []
        logits, suit_logits = self._classify(image, found, [angle for _, _, angle, _, _ in found])
        rank_p = self._rank_p(logits)
        if self.edge_view > 0:
            unsure = [k for k in range(len(found)) if rank_p[k].max() < EDGE_UNSURE]
            turns = edge_turns(image, [found[k] for k in unsure], self.edge_view)
            again = [
                (k, turn)
                for k, turn in zip(unsure, turns, strict=True)
                if abs(turn - found[k][2]) >= EDGE_OFF
            ]
            if again:
                rows = [k for k, _ in again]
                more, more_suit = self._classify(image, [found[k] for k in rows], [turn for _, turn in again])
                logits[rows] = (logits[rows] + more) / 2
                suit_logits[rows] = (suit_logits[rows] + more_suit) / 2
                rank_p[rows] = self._rank_p(logits[rows])
        suit_p = _softmax(suit_logits / self.suit_temperature)
        return [
            IndexReading(x, y, angle, ch, score, rp, sp)
            for (x, y, angle, ch, score), rp, sp in zip(found, rank_p, suit_p, strict=True)
        ]

    def rank_probabilities(
        self,
        image: np.ndarray,
        found: Sequence[tuple[float, float, float, float, float]],
        turns: Sequence[float],
    ) -> np.ndarray:
        """The rank probabilities (A … K, joker, not an index) of the patches cut around ``found`` turned
        by ``turns``, read once (as ``read`` reads an index before it reads it again)."""
        return self._rank_p(self._classify(image, found, turns)[0])

    def _rank_p(self, logits: np.ndarray) -> np.ndarray:
        """The rank probabilities of the classifier's logits (its rank columns, at its temperature)."""
        return _softmax(logits[:, : INDEX_NONE + 1] / self.rank_temperature)

    def _classify(
        self,
        image: np.ndarray,
        found: Sequence[tuple[float, float, float, float, float]],
        turns: Sequence[float],
    ) -> tuple[np.ndarray, np.ndarray]:
        """The rank and suit logits of the patches cut around ``found`` turned by ``turns``."""
        patches = np.stack(
            [
                cut(image, (x, y), (self.extent[0] * ch, self.extent[1] * ch), turn, self.patch)
                for (x, y, _, ch, _), turn in zip(found, turns, strict=True)
            ]
        )
        self.classifier.setInput(normalise(patches))
        logits = self.classifier.forward()
        if self.suit_net is None:
            return logits, logits[:, INDEX_NONE + 1 :].copy()
        self.suit_net.setInput(normalise(suit_patches(patches, self.suit_rows)))
        return logits, self.suit_net.forward()

    def tell_sides(self, image: np.ndarray, readings: Sequence[IndexReading]) -> list[IndexReading]:
        """The readings with the corner each index is printed at (``IndexReading.side``), where the side
        net is sure, in one batch; asked only of the index a card is placed from (``strip_detection``'s
        surest), the only one whose side counts."""
        if self.side_net is None or not readings:
            return list(readings)
        wide = np.stack(
            [
                cut(
                    image,
                    (r.x, r.y),
                    (self.side_extent[0] * r.card_height, self.side_extent[1] * r.card_height),
                    r.angle,
                    self.side_patch,
                )
                for r in readings
            ]
        )
        self.side_net.setInput(normalise(wide))
        left = _softmax(self.side_net.forward())[:, 0]
        sides = np.where(left >= SIDE_SURE, 1.0, np.where(left <= 1.0 - SIDE_SURE, -1.0, 0.0))
        return [replace(r, side=float(side)) for r, side in zip(readings, sides, strict=True)]


PAPER = 224.0  # the level a patch's paper is scaled to
INK = 24.0  # and its darkest ink


def edge_turns(
    image: np.ndarray, found: Sequence[tuple[float, float, float, float, float]], window: float
) -> list[float]:
    """Each found index's upright turned to the straight edges around it (``edge_angles`` in a window of
    ``window`` × its card height: the corner of its card): the index detector turns some real indices
    10–40° off their card (session 10's, taught on rendered tables only, a median 10.6°), and an index is
    printed square to its card's edges. The turn nearest the detector's of the four the edges allow (they
    are known modulo a quarter turn, the detector's turn says which way is up).

    >>> image = np.full((200, 200, 3), 255, np.uint8)
    >>> _ = cv2.rectangle(image, (60, 60), (140, 140), (0, 0, 0), -1)
    >>> [round(t) for t in edge_turns(image, [(60.0, 60.0, 100.0, 160.0, 1.0)], 0.6)]
    [90]
    """
    edges = edge_angles(image, [(x, y) for x, y, *_ in found], [window * ch for *_, ch, _ in found])
    turns = []
    for (_, _, angle, _, _), edge in zip(found, edges, strict=True):
        turns.append(float(angle - ((angle - edge + 45.0) % 90.0 - 45.0)))
    return turns


def paper_white(patches: np.ndarray) -> np.ndarray:
    """uint8 patches (N, H, W, 3) scaled each to its own card's paper: per channel so that the brightest
    fifth of its pixels (the paper around the index) is ``PAPER`` grey, then stretched so that its
    darkest pixels are ``INK``. The light's colour and strength go; red ink stays red against the paper.

    >>> p = np.full((1, 4, 4, 3), (120, 160, 200), np.uint8); p[0, :2] = (60, 80, 100)
    >>> paper_white(p)[0, 3, 3].tolist(), paper_white(p)[0, 0, 0].tolist()
    ([224, 224, 224], [24, 24, 24])
    """
    x = patches.astype(np.float32)
    n = len(x)
    lum = _grey(x).reshape(n, -1)
    bright = lum >= np.percentile(lum, 80, axis=1, keepdims=True)
    flat = x.reshape(n, -1, 3)
    white = (flat * bright[..., None]).sum(axis=1) / bright.sum(axis=1, keepdims=True)
    x *= (PAPER / np.maximum(white, 8.0))[:, None, None, :]
    dark = np.percentile(_grey(x).reshape(n, -1), 2, axis=1)[:, None, None, None]
    x = INK + (x - dark) * (PAPER - INK) / np.maximum(PAPER - dark, 32.0)
    return np.clip(x, 0, 255).astype(np.uint8)


def _grey(x: np.ndarray) -> np.ndarray:
    """The mean of the three channels of float32 pixels: equal to ``x.mean(axis=-1)`` (which adds them in
    this order and divides by 3) in a third of its time."""
    return (x[..., 0] + x[..., 1] + x[..., 2]) / 3


def suit_patches(patches: np.ndarray, rows: tuple[int, int]) -> np.ndarray:
    """What the suit net reads: the rows of the index patches where the suit lies, on their paper."""
    return paper_white(patches[:, rows[0] : rows[1]])


SIDE_SURE = 0.8  # the side net tells a corner when it is this sure


def _suited(ranks: np.ndarray) -> np.ndarray:
    return ranks < JOKER_CLASS


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@cache
def default_models() -> CardModels:
    """The shipped models, loaded once per process."""
    return CardModels.load()


CANDIDATES = 3
MIN_NET_LONG, MAX_NET_LONG = 192, 1280  # the detector's second look: a long side in this range
CLOSE_LOOK = 192  # the detector's close first look: its long side (px)
CLOSE_CARDS = 40.0  # ... believed where its cards are this long (network px) or longer
CLOSE_SHARE = 0.5  # ... and it finds at least this share of the cards the look at net_long finds
TOUCH = 0.08  # boxes this share of the median short side apart still touch (a meld's cards overlap)


def read_cards(
    frame: np.ndarray, calibration: Calibration | None = None, models: CardModels | None = None
) -> CardObservation:
    """Every face-up card in a BGR frame with its value, place and confidence, grouped into melds, and
    the face-down cards.

    With a calibration only the play area is read (in its top-down view); centres and boxes are given in
    that view's pixels mapped back to the frame. Raises ``FrameError`` (a ``ValueError``) for anything
    that is not a readable BGR image.
    """
    check_frame(frame)
    models = models or default_models()
    image = calibration.rectify(frame) if calibration is not None else frame
    detections = models.detect(image)
    indices, left = _read_indices(image, detections, models)
    splits = []
    for k in range(len(detections) if models.index is not None and models.index.split else 0):
        parts = split_cards(indices[k]) if indices[k] else []
        if len(parts) > 1:
            splits.append((k, parts))
    lone = lone_cards(left) if models.index is not None and models.index.lone_cards else []
    if models.index is not None and (splits or lone):
        # A card placed by its indices (``strip_detection``) is placed from its surest index, and only
        # that index's side counts: the side net is asked of those alone, all in one batch. (Splitting
        # and finding the lone cards do not look at the sides; lone cards are found again with them.)
        placed_from = [_surest(part) for _, parts in splits for part in parts] + [_surest(s) for _, s in lone]
        sided = dict(zip(map(id, placed_from), models.index.tell_sides(image, placed_from), strict=True))
        splits = [(k, [[sided.get(id(r), r) for r in part] for part in parts]) for k, parts in splits]
        if lone:
            lone = lone_cards([sided.get(id(r), r) for r in left])
    placed: set[int] = set()  # the cards placed by their indices alone (``strip_detection``), by id
    for k, parts in splits:
        indices[k] = parts[0]
        everyone = [r for part in parts for r in part]
        for part in parts[1:]:
            detections.append(strip_detection(part, everyone))
            placed.add(id(detections[-1]))
            indices.append(part)
        # The box held several strips: each card is placed by its own indices.
        detections[k] = strip_detection(parts[0], everyone)
        placed.add(id(detections[k]))
    if models.index is not None and models.index.lone_cards:
        known = [(d, _card_read(seen)) for d, seen in zip(detections, indices, strict=True) if seen]
        for d, seen in lone:
            reading = _card_read(seen)
            # A card found by its indices alone must read as one card with some confidence (lone indices
            # are mostly the detector's guesses on a patterned table); and an index of a card already
            # read, whose box missed it, is no new card.
            if combine_indices(seen)[1] < models.index.lone_confidence:
                continue
            if any(
                k == reading and math.hypot(o.x - d.x, o.y - d.y) < 1.5 * seen[0].card_height
                for o, k in known
            ):
                continue
            detections.append(d)
            placed.add(id(d))
            indices.append(seen)
    detections, indices, doubtful = merge_twins(detections, indices)
    reads = [_card_read(seen) if seen else None for seen in indices]
    indices, reads = _reread(indices, explain_away(detections, indices, reads), reads)
    shed, stray = stray_indices(indices, reads)
    indices, reads = _reread(indices, shed, reads)
    # A sure index of another card on a card's box, that card read nowhere: a card the detector missed,
    # found by that index alone. Where it lies is guessed from one index: never confident (nor a card
    # merged into a box not clearly its own: ``merge_twins``).
    known = [(d, k) for d, k in zip(detections, reads, strict=True) if k is not None]
    for d, seen in lone_cards(stray):
        reading = _card_read(seen)
        if any(
            k == reading and math.hypot(o.x - d.x, o.y - d.y) < 1.5 * seen[0].card_height for o, k in known
        ):
            continue
        doubtful.add(len(detections))
        detections.append(d)
        placed.add(id(d))
        indices.append(seen)
    turns = models.turns(image, detections)
    # The whole card's look decides only where no index is in sight (a back, not a card, or unsure).
    blind = [k for k, seen in enumerate(indices) if not seen]
    rank_p = np.zeros((len(detections), len(RANKS)))
    suit_p = np.full((len(detections), len(SUITS)), 1 / len(SUITS))
    if blind:
        blind_turns = turns[blind] if models.straighten else None
        rank_p[blind], suit_p[blind] = models.probabilities(
            models.logits(image, [detections[k] for k in blind], blind_turns)
        )
    faces: list[tuple[CardDetection, Card, float, tuple[tuple[Card, float], ...], float]] = []
    backs: list[tuple[float, float]] = []
    read = [max(seen, key=lambda r: r.score) for seen in indices if seen]
    for k, (d, rp, sp, turn, seen) in enumerate(zip(detections, rank_p, suit_p, turns, indices, strict=True)):
        rank = int(rp.argmax())
        if seen:
            card, confidence, cands = combine_indices(seen)
            if id(d) in placed and a_pip_alone(seen, confidence):
                continue
            if misplaced(d, seen, card) or k in doubtful:
                # Read, but where it lies is in doubt: the session compares places, so never sure.
                confidence = min(confidence, 0.5 * models.confidence_threshold)
            faces.append((d, card, confidence, cands, float(turn)))
            continue
        if rank == NONE_CLASS:
            continue
        if rank == BACK_CLASS:
            backs.append((d.x, d.y))
            continue
        if models.index is not None and models.index.fragments and any(on_card(r, d.x, d.y) for r in read):
            continue  # a face without an index in sight, on a card read by its index: a piece of that card
        suit = int(sp.argmax())
        # Without an index in sight the whole card's look is all there is: never confident.
        confidence = float(rp[rank] * (1.0 if rank == JOKER_CLASS else sp[suit]))
        if models.index is not None:
            confidence = min(confidence, 0.5 * models.confidence_threshold)
        faces.append((d, card_of(rank, suit), confidence, _candidates(rp, sp), float(turn)))
    shared = boxes_read_twice([d.box for d, *_ in faces], [card for _, card, *_ in faces])
    cap = 0.5 * models.confidence_threshold
    faces = [
        (d, card, min(conf, cap) if k in shared else conf, cands, turn)
        for k, (d, card, conf, cands, turn) in enumerate(faces)
    ]
    cards = [SeenCard(card, (d.x, d.y), d.box, turn, conf, cands) for d, card, conf, cands, turn in faces]
    if calibration is not None:
        cards = [_to_frame(c, calibration) for c in cards]
        backs = [tuple(float(v) for v in calibration.to_frame(b, 1.0)[0]) for b in backs]  # type: ignore[misc]
    melds, loose = group_cards(cards)
    uncertain = tuple(i for i, c in enumerate(cards) if c.confidence < models.confidence_threshold)
    return CardObservation(tuple(cards), tuple(melds), tuple(loose), uncertain, tuple(backs))


ONE_INDEX_FLOOR = 0.6  # a card found by one index alone, read less surely than this, is no card


def a_pip_alone(seen: Sequence[IndexReading], confidence: float) -> bool:
    """Whether a card the detector did not give (placed by its indices alone: a strip of a fan, a lone
    index, a stray) is no card: one index, read below ``ONE_INDEX_FLOOR``. On the real photos these are
    mostly pips, pictures or patterns read as an index (on ``calib`` 25 of 34 such cards that are no
    card, against 5 of 78 right ones, below 0.45; from 0.45 to 0.6, on ``fit`` and ``calib``, 9 more
    cards that are none against 2 right ones, session 12); a rendered tight fan's strips show one index
    each, read surely. A strip that would be no card splits no box (``split_cards``)."""
    return len(seen) == 1 and confidence < ONE_INDEX_FLOOR


def boxes_read_twice(boxes: Sequence[tuple[float, ...]], cards: Sequence[Card]) -> set[int]:
    """The cards (by position) whose box is another card's too, read as another card: one box holds one
    card where it lies, so neither is sure (on calib a card whose indices lay on its neighbour's box
    was read there, its own box missed)."""
    reads: dict[tuple[float, ...], set[str]] = {}
    for box, card in zip(boxes, cards, strict=True):
        reads.setdefault(tuple(box), set()).add(str(card))
    return {k for k, box in enumerate(boxes) if len(reads[tuple(box)]) > 1}


def _surest(seen: Sequence[IndexReading]) -> IndexReading:
    """The index a card found by its indices is placed from (``strip_detection``'s)."""
    return max(seen, key=lambda i: i.score)


EDGE_OFF = 5.0  # an index turned this many degrees off the edges around it is read again turned to them ...
EDGE_UNSURE = 0.8  # ... where its first reading is less sure than this (``IndexReader.read``; fit and calib)
INDEX_SURE = 0.5  # a patch read as an index with at least this probability counts for its card


def read_indices(
    image: np.ndarray, detections: Sequence[CardDetection], models: CardModels
) -> list[list[IndexReading]]:
    """The corner indices read on each detected card: every index found whose centre lies in the card's
    visible box (grown a little), given to the nearest such card."""
    return _read_indices(image, detections, models)[0]


def _read_indices(
    image: np.ndarray, detections: Sequence[CardDetection], models: CardModels
) -> tuple[list[list[IndexReading]], list[IndexReading]]:
    """``read_indices`` and the indices found on no detected card."""
    out: list[list[IndexReading]] = [[] for _ in detections]
    left: list[IndexReading] = []
    if models.index is None or not detections:
        return out, left
    card_height = float(np.median([max(d.width, d.height) for d in detections])) / 1.1
    boxes = np.array([d.box for d in detections], np.float64)
    centres = np.array([(d.x, d.y) for d in detections], np.float64)
    pad = 0.06 * card_height
    for reading in models.index.read(image, card_height):
        if reading.is_index < INDEX_SURE:
            continue
        inside = (
            (boxes[:, 0] - pad <= reading.x)
            & (reading.x <= boxes[:, 2] + pad)
            & (boxes[:, 1] - pad <= reading.y)
            & (reading.y <= boxes[:, 3] + pad)
        )
        if not inside.any():
            left.append(reading)
            continue
        out[int(np.argmin(np.where(inside, _away(reading, centres), np.inf)))].append(reading)
    return out, left


def _away(reading: IndexReading, centres: np.ndarray) -> np.ndarray:
    """How far each centre of a visible part lies from where an index's card can be: below the index
    (towards the card's far end), from straight below it (a strip of a fan) to the centre of a whole
    card on either side (an index printed at the left or, on a four-index deck, the right corner)."""
    t = math.radians(reading.angle)
    right = np.array((math.cos(t), math.sin(t)))
    down = np.array((-math.sin(t), math.cos(t)))
    h = reading.card_height
    start = np.array((reading.x, reading.y)) + down * 0.38 * h
    best = np.full(len(centres), np.inf)
    for side in (1.0, -1.0):
        along = right * side * 0.42 * h * 0.716
        u = np.clip((centres - start) @ along / float(along @ along), 0.0, 1.0)
        best = np.minimum(best, np.hypot(*(centres - start - u[:, None] * along).T))
    return best


LONE_SURE = 0.8  # an index on no detected card makes a card of its own when it is this sure an index


def _reading_of(r: IndexReading) -> tuple[int, int]:
    return r.classes


def _card_read(seen: Sequence[IndexReading]) -> tuple[int, int]:
    """The card a card's indices read together (``combine_indices``), as (rank, suit)."""
    name = str(combine_indices(seen)[0])
    return (JOKER_CLASS, 0) if name == str(JOKER) else (RANKS.index(name[:-1]), SUITS.index(name[-1]))


NEAR = 0.42  # neighbouring strips of a fan: their indices at most this share of a card's height apart
ONE_CARD = 1.4  # one card's indices lie at most this many card heights apart (its far corners, and the
# heights the index reader gives a card vary by a quarter); farther apart they are two cards


def split_cards(seen: Sequence[IndexReading]) -> list[list[IndexReading]]:
    """The indices found on one detected card, as the cards they belong to: a box over several strips of
    a tight fan holds the indices of several cards, each a card's width or less from the next; indices
    that read differently from a card's far corners are one card's disagreement (left together, so that
    card is unsure), never two cards. Indices farther apart than one card can hold (``ONE_CARD``) are
    never one card, even read alike: two decks hold two copies of each card, and an index read on a
    card beyond joins no card there."""
    if not seen:
        return []

    def apart(p: IndexReading, q: IndexReading) -> float:
        return math.hypot(p.x - q.x, p.y - q.y) / max(p.card_height, q.card_height)

    n = len(seen)
    roots = connected(
        n,
        (
            (i, j)
            for i in range(n)
            for j in range(i)
            if _reading_of(seen[i]) == _reading_of(seen[j]) and apart(seen[i], seen[j]) < ONE_CARD
        ),
    )
    by_root: dict[int, list[IndexReading]] = {}
    for r, root in zip(seen, roots, strict=True):
        by_root.setdefault(root, []).append(r)
    groups = list(by_root.values())
    if len(groups) < 2:
        return [list(seen)]
    height = float(np.median([r.card_height for r in seen]))

    def neighbours(p: IndexReading, q: IndexReading) -> bool:
        # Two strips of a fan: indices turned alike, side by side across the card (a strip's width
        # apart), level along it.
        t = math.radians(p.angle)
        dx, dy = q.x - p.x, q.y - p.y
        across = abs(dx * math.cos(t) + dy * math.sin(t))
        along = abs(-dx * math.sin(t) + dy * math.cos(t))
        turned = abs((q.angle - p.angle + 180.0) % 360.0 - 180.0)
        return 0.08 * height < across < NEAR * height and along < 0.12 * height and turned < 15.0

    def gap(a: int, b: int) -> float:
        return min(apart(p, q) for p in groups[a] for q in groups[b])

    # A strip that would be no card (``a_pip_alone``: one index read weakly, a pip beside a card's own
    # corner) is no strip: it splits nothing, and the card keeps the detector's box.
    pips = {k for k, g in enumerate(groups) if len(g) == 1 and a_pip_alone(g, combine_indices(g)[1])}

    def near(a: int, b: int) -> bool:
        return (
            a not in pips
            and b not in pips
            and _reading_of(groups[a][0]) != _reading_of(groups[b][0])
            and any(neighbours(p, q) for p in groups[a] for q in groups[b])
        )

    strips = [k for k in range(len(groups)) if any(near(k, o) for o in range(len(groups)) if o != k)]
    cards = {k: list(groups[k]) for k in strips}
    rest = []
    for k in range(len(groups)):
        if k in cards:
            continue
        # A far corner reading otherwise (one index) is the nearest strip's disagreement, if one card
        # can hold both; two indices or more reading alike are a card of their own (the top card of a
        # fan, its box missed, beside another fan's strips).
        closest = min(strips, key=lambda a: gap(k, a), default=None)
        if closest is not None and gap(k, closest) < ONE_CARD and len(groups[k]) == 1:
            cards[closest] += groups[k]
        else:
            rest.append(k)
    # The others: indices that one card can hold together are that card's (disagreeing) indices.
    joined = connected(
        len(rest), ((i, j) for i in range(len(rest)) for j in range(i) if gap(rest[i], rest[j]) < ONE_CARD)
    )
    for k, root in zip(rest, joined, strict=True):
        cards.setdefault(-1 - rest[root], []).extend(groups[k])
    return list(cards.values())


TWIN_OVERLAP = 0.2  # two boxes read the same, the smaller this much covered by the other: one card


def _overlap(a: CardDetection, b: CardDetection) -> float:
    """The share of the smaller of two boxes that the other covers."""
    ax0, ay0, ax1, ay1 = a.box
    bx0, by0, bx1, by1 = b.box
    inter = max(0.0, min(ax1, bx1) - max(ax0, bx0)) * max(0.0, min(ay1, by1) - max(ay0, by0))
    return inter / max(1e-9, min(a.width * a.height, b.width * b.height))


def merge_twins(
    detections: Sequence[CardDetection], indices: Sequence[list[IndexReading]]
) -> tuple[list[CardDetection], list[list[IndexReading]], set[int]]:
    """One card seen twice (two boxes on one card, or a box and indices it missed) is one card: two cards
    read the same by all their indices, with indices within a card's height of each other or boxes
    overlapping (``TWIN_OVERLAP``: a card the detector cut into a top and a bottom box, its indices a
    card's length apart), are merged into the larger box. (A Kalooki meld never holds one card twice,
    and two decks' twins lying that close in two melds would be the same card read twice.)

    Also the merged cards (by position in what is returned) whose place is in doubt: the box kept held
    fewer of the indices reading the card than a box merged into it, or as many while that box's centre
    lies outside it (on ``calib`` a box over the card beside it, holding an index misread as the card,
    took the card to its own place; which box is the card's, one index against one cannot tell)."""
    keep = [True] * len(detections)
    merged = [list(s) for s in indices]
    reads = [_card_read(s) if s else None for s in merged]
    doubt = [False] * len(detections)
    order = sorted(range(len(detections)), key=lambda k: -detections[k].width * detections[k].height)
    for a_pos, a in enumerate(order):
        if not keep[a] or reads[a] is None:
            continue
        for b in order[a_pos + 1 :]:
            if not keep[b] or reads[b] != reads[a]:
                continue
            reach = max(r.card_height for r in (*merged[a], *merged[b]))
            near = min(math.hypot(p.x - q.x, p.y - q.y) for p in merged[a] for q in merged[b]) < reach
            if near or _overlap(detections[a], detections[b]) > TWIN_OVERLAP:
                agree_a, agree_b = (sum(_reading_of(r) == reads[a] for r in merged[k]) for k in (a, b))
                other_place = not _holds(detections[a], detections[b].x, detections[b].y, pad=0.0)
                doubt[a] = doubt[a] or agree_b > agree_a or (agree_b == agree_a and other_place)
                merged[a] += merged[b]
                keep[b] = False
    kept = [k for k in range(len(detections)) if keep[k]]
    return (
        [detections[k] for k in kept],
        [merged[k] for k in kept],
        {pos for pos, k in enumerate(kept) if doubt[k]},
    )


def _reread(
    old: Sequence[list[IndexReading]],
    new: list[list[IndexReading]],
    reads: Sequence[tuple[int, int] | None],
) -> tuple[list[list[IndexReading]], list[tuple[int, int] | None]]:
    """The cards' indices after some were taken off (``new``), with what each card reads: read again
    only where its indices changed."""
    return new, [
        k if len(n) == len(o) else (_card_read(n) if n else None)
        for o, n, k in zip(old, new, reads, strict=True)
    ]


def explain_away(
    detections: Sequence[CardDetection],
    indices: Sequence[list[IndexReading]],
    reads: Sequence[tuple[int, int] | None] | None = None,
) -> list[list[IndexReading]]:
    """A card's indices without those of its neighbours: an index that reads otherwise than its card
    but as another card read nearby (whose visible box, grown a little, holds it) is that card's,
    seen through the overlap, and no disagreement of this one's corners. (``reads``: what each card's
    indices read together, when known.)"""
    if reads is None:
        reads = [_card_read(s) if s else None for s in indices]
    out = []
    for k, seen in enumerate(indices):
        if not seen or all(_reading_of(r) == reads[k] for r in seen):
            out.append(list(seen))
            continue
        keep = []
        for r in seen:
            mine = _reading_of(r) == reads[k]
            theirs = [
                j
                for j, d in enumerate(detections)
                if j != k and reads[j] == _reading_of(r) and _holds(d, r.x, r.y)
            ]
            if mine or not theirs:
                keep.append(r)
        out.append(keep if any(_reading_of(r) == reads[k] for r in keep) else list(seen))
    return out


STRAY = 0.8  # an index this sure of a card of another rank than its card's is a stray


def stray_indices(
    indices: Sequence[list[IndexReading]], reads: Sequence[tuple[int, int] | None] | None = None
) -> tuple[list[list[IndexReading]], list[IndexReading]]:
    """Each card's indices without the strays, and the strays: an index sure (``STRAY``) of a card of
    another rank than the one its card's indices read together, on a box it shares with that card's own
    indices, is another card's (one the detector missed, its index on a neighbour's box), no
    disagreement of this card's corners — unless more of them read one other card than read this one
    (then the reading itself is in doubt: none is shed). A 6 against a 9 is kept: the same index turned
    about. (``reads``: what each card's indices read together, when known.)"""
    out: list[list[IndexReading]] = []
    stray: list[IndexReading] = []
    for k, seen in enumerate(indices):
        if not seen:
            out.append([])
            continue
        known = reads[k] if reads is not None else None
        read = known if known is not None else _card_read(seen)
        rank = read[0]

        def strays(r: IndexReading, rank: int = rank) -> bool:
            other = r.classes[0]
            return (
                other != rank
                and r.card_p(*r.classes) >= STRAY
                and r.is_index >= 0.9
                and {RANKS[other], RANKS[rank]} != {"6", "9"}
            )

        flags = [strays(r) for r in seen]
        keep = [r for r, f in zip(seen, flags, strict=True) if not f]
        shed = [r for r, f in zip(seen, flags, strict=True) if f]
        others = Counter(r.classes for r in shed)
        own = sum(r.classes == read for r in keep)
        # Strays are a few indices beside the card's own: where more of them read one other card than
        # read the card, its reading is in doubt (the product of many disagreeing corners can favour a
        # lone index), and all stay its disagreement.
        if own and (not others or max(others.values()) <= own):
            out.append(keep)
            stray += shed
        else:
            out.append(list(seen))
    return out, stray


def _holds(d: CardDetection, x: float, y: float, pad: float = 0.25) -> bool:
    """Whether a card's visible box, grown by ``pad`` of its long side, holds a point (an index)."""
    x0, y0, x1, y1 = d.box
    g = pad * max(d.width, d.height)
    return x0 - g <= x <= x1 + g and y0 - g <= y <= y1 + g


PLACE_DOUBT = 0.4  # a card's place lies this share of its height from where its indices' card can be


def misplaced(d: CardDetection, seen: Sequence[IndexReading], card: Card | None = None) -> bool:
    """Whether a card's place (the centre of its visible part) is in doubt: farther than
    ``PLACE_DOUBT`` of its height from wherever the card of each of its indices can lie (``_away``:
    from a fan's strip below the index to a whole card on either side). A box much larger than the
    card, or over another card, holding an index at one edge reads the right card at a wrong place.
    Given the ``card`` read, only the indices that read its rank place it (``OWN_PLACE``): a dissent outvoted
    (``outvoted_many``), another card's index on the box, says nothing of where this card lies."""
    if card is not None and OWN_PLACE:
        name = str(card)
        rank = JOKER_CLASS if name == str(JOKER) else RANKS.index(name[:-1])
        own = [r for r in seen if r.classes[0] == rank]
        seen = own or seen
    return all(_away_from(r, d.x, d.y) > PLACE_DOUBT * r.card_height for r in seen)


OWN_PLACE = True  # a card is placed by the indices that read it (``misplaced``)


def _away_from(r: IndexReading, x: float, y: float) -> float:
    """``_away`` for one point, without arrays."""
    t = math.radians(r.angle)
    c, s = math.cos(t), math.sin(t)
    h = r.card_height
    sx, sy = r.x - s * 0.38 * h, r.y + c * 0.38 * h
    best = math.inf
    for side in (1.0, -1.0):
        ax, ay = c * side * 0.42 * h * 0.716, s * side * 0.42 * h * 0.716
        u = min(1.0, max(0.0, ((x - sx) * ax + (y - sy) * ay) / (ax * ax + ay * ay)))
        best = min(best, math.hypot(x - sx - u * ax, y - sy - u * ay))
    return best


def strip_detection(seen: Sequence[IndexReading], others: Sequence[IndexReading] = ()) -> CardDetection:
    """Where the visible part of a card found by its indices lies, from its surest index (taken as a
    left corner's): a strip reaching to the next card's index of the fan (``others``, the indices of
    the other cards around it), or the whole card when none lies to its right; between its own two
    top indices when both are seen; the whole card between its surest index and one of its far end
    (turned about) when one is seen."""
    r = max(seen, key=lambda i: i.score)
    h = r.card_height
    width = 0.716 * h
    t = math.radians(r.angle)
    right, down = (math.cos(t), math.sin(t)), (-math.sin(t), math.cos(t))

    def level(q: IndexReading) -> float | None:
        """q's offset across the card from r when it lies level with r and turned alike, else None."""
        dx, dy = q.x - r.x, q.y - r.y
        turned = abs((q.angle - r.angle + 180.0) % 360.0 - 180.0)
        if turned > 15.0 or abs(dx * down[0] + dy * down[1]) > 0.12 * h:
            return None
        return dx * right[0] + dy * right[1]

    own = [o for q in seen if q is not r and (o := level(q)) is not None and abs(o) > 0.3 * h]
    ahead = [o for q in others if (o := level(q)) is not None and 0.05 * h < o < NEAR * h]
    if own:
        across, strip = own[0] / 2, width
    elif ahead:
        across, strip = min(ahead) / 2 - 0.085 * width, min(ahead)
    else:
        across, strip = (-0.415 if r.side < 0 else 0.415) * width, width
    x = r.x + right[0] * across + down[0] * 0.38 * h
    y = r.y + right[1] * across + down[1] * 0.38 * h
    if not own and not ahead:
        # A whole card: an index of its far end (turned about) says which of r's sides the card lies on
        # (r may be a right corner's index, on a four-index deck); the card lies between the two.
        # Two indices up one side of a four-index card fit a card on either side: the closer fit decides.
        fits = []
        for q in seen:
            if abs((q.angle - r.angle + 180.0) % 360.0 - 180.0) < 150.0:
                continue
            for which, a in enumerate(_centres(r)):
                if r.side and (which == 0) != (r.side > 0):
                    continue  # r's side is told: only that side's card
                for b in _centres(q):
                    gap = math.hypot(a[0] - b[0], a[1] - b[1])
                    if gap < 0.3 * h:
                        fits.append((gap, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        if fits:
            x, y = min(fits)[1:]
    c, s = abs(right[0]), abs(right[1])
    return CardDetection(x, y, strip * c + h * s, strip * s + h * c, r.score)


def on_card(r: IndexReading, x: float, y: float) -> bool:
    """Whether (x, y) lies on the whole card whose corner index ``r`` is (the index at its left corner or,
    on a four-index deck, its right one)."""
    t = math.radians(r.angle)
    dx, dy = x - r.x, y - r.y
    across = dx * math.cos(t) + dy * math.sin(t)
    along = -dx * math.sin(t) + dy * math.cos(t)
    h = r.card_height
    return -0.12 * h <= along <= 0.88 * h and abs(across) <= 0.716 * h - 0.08 * h


def _centres(r: IndexReading) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where the centre of r's card lies if r is its left corner's index, and if its right one's."""
    t = math.radians(r.angle)
    right, down = (math.cos(t), math.sin(t)), (-math.sin(t), math.cos(t))
    across = 0.415 * 0.716 * r.card_height
    bx, by = r.x + down[0] * 0.38 * r.card_height, r.y + down[1] * 0.38 * r.card_height
    return (bx + right[0] * across, by + right[1] * across), (bx - right[0] * across, by - right[1] * across)


def lone_cards(left: Sequence[IndexReading]) -> list[tuple[CardDetection, list[IndexReading]]]:
    """Cards the detector missed (a narrow strip of a tight fan, a card it did not see) found by their
    indices alone: indices sure to be indices, taken together while within a card's length of each
    other, then told apart as ``split_cards`` does (neighbouring strips reading differently are two
    cards; far corners reading differently are one unsure card), each placed below its surest index."""
    sure = [r for r in left if r.is_index >= LONE_SURE]
    parent = list(range(len(sure)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, a in enumerate(sure):
        for j in range(i):
            b = sure[j]
            if math.hypot(a.x - b.x, a.y - b.y) < 1.25 * max(a.card_height, b.card_height):
                parent[root(i)] = root(j)
    clusters: dict[int, list[IndexReading]] = {}
    for i, r in enumerate(sure):
        clusters.setdefault(root(i), []).append(r)
    groups = [part for cluster in clusters.values() for part in split_cards(cluster)]
    out = [(strip_detection(g, sure), g) for g in groups]
    return out


OUTVOTE = 0.8  # corners this sure of their card outvote fewer corners less sure of another
OUTVOTERS = 2  # at least this many of them
DISSENT = 0.4  # an index giving its own reading less than this is no dissent from its card's


def combine_indices(seen: Sequence[IndexReading]) -> tuple[Card, float, tuple[tuple[Card, float], ...]]:
    """One card's reading from its corner indices: the card the indices' probabilities together favour
    (the product over the indices). Where every index reads that card, its confidence is the product's
    posterior (times the surest index's probability of being an index), at most the probability that
    at least one of them reads it right (``ANY_CORNER``); where they disagree, the
    probability the least sure index gives that card, so that disagreeing corners leave the card unsure.
    Corners agree when they read the same rank (on the suit the product decides, as sure as its
    posterior); an index that gives its own reading less than ``DISSENT`` (a glimpse under another card,
    a pip read as an index) does not count as disagreeing."""
    joint = np.zeros((JOKER_CLASS + 1, len(SUITS)))
    for r in seen:
        ranks = np.clip(r.rank_p[: JOKER_CLASS + 1], 1e-9, 1.0)
        card = ranks[:JOKER_CLASS, None] * np.clip(r.suit_p, 1e-9, 1.0)[None, :]
        joint[:JOKER_CLASS] += np.log(card)
        joint[JOKER_CLASS] += math.log(float(ranks[JOKER_CLASS]))
    joint[JOKER_CLASS, 1:] = -np.inf  # the joker once
    flat = joint.ravel()
    order = np.argsort(-flat)[:CANDIDATES]
    probs = np.exp(flat - flat.max())
    probs /= probs.sum()
    cands = tuple((card_of(int(k) // len(SUITS), int(k) % len(SUITS)), float(probs[k])) for k in order)
    rank, suit = divmod(int(order[0]), len(SUITS))
    chosen = (rank, 0 if rank == JOKER_CLASS else suit)
    # An index unsure of its own reading (a glimpse under another card, a pip) says little against it.
    voting = [r for r in seen if _reading_of(r) == chosen or r.card_p(*_reading_of(r)) >= DISSENT]
    # Agreeing on the rank is agreeing: where corners differ on the suit alone, the product's posterior
    # (the suit net's calibrated probabilities multiplied) says how sure the suit is.
    agree = bool(voting) and all(_reading_of(r)[0] == rank for r in voting)
    if not agree and OUTVOTE < 1.0:
        # Several corners sure of the card against fewer, unsure of another and cut askew (the detector's
        # turn wrong: a corner read at a slant): the sure ones decide (the product's posterior still
        # holds the others'). A dissent turned as the card is (a neighbour's index, a box over two
        # cards) still leaves the card unsure.
        sure = sorted(
            (r for r in voting if _reading_of(r) == chosen and r.card_p(*chosen) >= OUTVOTE),
            key=lambda r: -r.card_p(*chosen),
        )
        against = [r for r in voting if _reading_of(r)[0] != rank]
        if (
            len(sure) >= OUTVOTERS
            and len(sure) > len(against)
            and all(r.card_p(*_reading_of(r)) < OUTVOTE and _misturned(r, sure[0]) for r in against)
        ) or outvoted_many(sure, against):
            voting = [r for r in voting if _reading_of(r)[0] == rank]
            agree = True
    if agree:
        # Corners that agree: the posterior of their product, as sure as the surest is an index (a weak
        # index that agrees, perhaps a pip, takes nothing from the card its sure corners read).
        confidence = float(probs[order[0]]) * (1 - min(float(r.rank_p[INDEX_NONE]) for r in voting))
        if ANY_CORNER:
            # No surer than that at least one corner reads it right: weak corners that agree (a hidden
            # card's glimpses) multiply into a posterior surer than any of them.
            confidence = min(confidence, 1.0 - math.prod(1.0 - r.card_p(rank, suit) for r in voting))
    else:
        # Corners that disagree: as sure as the corner least sure of the card chosen.
        confidence = min(r.card_p(rank, suit) for r in seen)
    return card_of(rank, suit), float(confidence), cands


ANY_CORNER = True  # a card's confidence is at most that one of its agreeing corners reads it right

MANY = 3  # this many corners sure of their card (``OUTVOTE``), each of them ...
MANY_AGAINST = 3  # ... against a dissent less sure (below ``OUTVOTE``), however turned, decide


def outvoted_many(sure: Sequence[IndexReading], against: Sequence[IndexReading]) -> bool:
    """Whether many corners sure of a card outvote a few dissenting ones however they are turned: at
    least ``MANY`` sure corners, ``MANY_AGAINST`` times as many as those against, each dissent less sure
    than ``OUTVOTE`` (a neighbour's index seen on the card's box, in a run the card next to it). On
    ``calib`` these are right cards left unsure by one corner of the next card of their run."""
    return (
        len(sure) >= MANY
        and len(sure) >= MANY_AGAINST * len(against)
        and all(r.card_p(*_reading_of(r)) < OUTVOTE for r in against)
    )


TURN_OFF = 20.0  # an index turned this many degrees from its card's (either end) was cut at a wrong turn


def _misturned(r: IndexReading, ref: IndexReading) -> bool:
    """Whether an index is turned unlike a card's own index ``ref`` (neither alike nor about: a corner's
    index of either end is turned as ``ref`` or half a turn from it), by more than ``TURN_OFF``: its
    patch was cut askew (the detector's turn wrong), and what it reads says little."""
    diff = abs((r.angle - ref.angle + 180.0) % 360.0 - 180.0)
    return min(diff, 180.0 - diff) > TURN_OFF


def _candidates(rank_p: np.ndarray, suit_p: np.ndarray) -> tuple[tuple[Card, float], ...]:
    joint = [(float(rank_p[JOKER_CLASS]), JOKER)]
    for r in range(JOKER_CLASS):
        for s in range(len(SUITS)):
            joint.append((float(rank_p[r] * suit_p[s]), card_of(r, s)))
    joint.sort(key=lambda pair: -pair[0])
    return tuple((card, p) for p, card in joint[:CANDIDATES])


def group_cards(cards: Sequence[SeenCard]) -> tuple[list[tuple[int, ...]], list[int]]:
    """Melds (cards whose visible boxes touch or overlap, chained; in order along the chain's long
    direction) and loose cards (touching none).

    >>> from rules.kalooki.cards import Card
    >>> def at(x, y): return SeenCard(Card.parse("AS"), (x, y), (x - 20, y - 60, x + 20, y + 60), 0.0, 1.0)
    >>> group_cards([at(100, 100), at(135, 100), at(170, 100), at(400, 100)])
    ([(0, 1, 2)], [3])
    """
    n = len(cards)
    if n == 0:
        return [], []
    boxes = np.array([c.box for c in cards], np.float64)
    short = float(np.median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    pad = TOUCH * short

    def touch(a: np.ndarray, b: np.ndarray) -> bool:
        return bool(a[0] - pad <= b[2] and b[0] - pad <= a[2] and a[1] - pad <= b[3] and b[1] - pad <= a[3])

    pairs = ((i, j) for i in range(n) for j in range(i + 1, n) if touch(boxes[i], boxes[j]))
    return lines_of([c.center for c in cards], connected(n, pairs))


def lines_of(
    centers: Sequence[tuple[float, float]], groups: Sequence[int]
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Cards grouped (``groups[i]``: the group of card ``i``) into melds, each ordered along its line (the
    first principal axis of its cards' ``centers``, left to right, else top to bottom), and loose cards
    (alone in their group): ``group_cards`` and ``vision.card_vote`` group them so.

    >>> lines_of([(50.0, 0.0), (0.0, 1.0), (25.0, 0.0), (300.0, 300.0)], [0, 0, 0, 1])
    ([(1, 2, 0)], [3])
    """
    members_of: dict[int, list[int]] = {}
    for i, g in enumerate(groups):
        members_of.setdefault(g, []).append(i)
    melds, loose = [], []
    for members in sorted(members_of.values()):
        if len(members) == 1:
            loose.append(members[0])
            continue
        points = np.array([centers[i] for i in members], np.float64)
        centred = points - points.mean(axis=0)
        direction = np.linalg.svd(centred, full_matrices=False)[2][0]
        if direction[0] < 0 or (abs(direction[0]) < 1e-9 and direction[1] < 0):
            direction = -direction
        order = np.argsort(centred @ direction, kind="stable")
        melds.append(tuple(members[k] for k in order))
    return melds, loose


def _to_frame(card: SeenCard, calibration: Calibration) -> SeenCard:
    x0, y0, x1, y1 = card.box
    corners = [calibration.to_frame(p, 1.0)[0] for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    xs, ys = [float(p[0]) for p in corners], [float(p[1]) for p in corners]
    center = calibration.to_frame(card.center, 1.0)[0]
    return SeenCard(
        card.card,
        (float(center[0]), float(center[1])),
        (min(xs), min(ys), max(xs), max(ys)),
        card.angle,
        card.confidence,
        card.candidates,
    )


__all__ = [
    "RANKS",
    "SUITS",
    "CardCopyError",
    "CardDetection",
    "CardModels",
    "CardObservation",
    "SeenCard",
    "card_of",
    "group_cards",
    "read_cards",
]
