"""Reading a Rummikub table from a camera frame: every face-up tile, its number and colour, and the melds.

Both networks are small ONNX files in ``vision/models`` run by ``cv2.dnn`` through the shared detector and
crop classifier of ``vision.nets`` (trained by ``training/tiles.py``; ``vision/models/MODELS.txt``
credits the photo set they come from).

1. The detector finds tile centres with each tile's long and short side and its turn (modulo a half
   turn; which end is up the classifier knows).
2. Each tile is cut from the full-resolution image as a straightened portrait crop and classified into
   one of the 53 tile kinds or "not a tile" (a face-down tile, clutter, the gap between two tiles). The
   classifier reads the maker's mark at the tile's foot, so a 6 and an upside-down 9 differ; a crop
   that is not clear is read at the other half turn too and the two averaged.
3. The confidence is the kind's probability (softmax divided by a fitted temperature) times the
   detector's score, held below ``confidence_threshold`` where the reading's confusable twin (``TWINS``:
   black and blue of one number, 6 and 9, 7 and 1, 10 or 11 and 1, 12 and 13, 8 and 3) comes within
   ``twin_margin`` of it; tiles below the threshold are listed as uncertain, never guessed silently, the
   twin offered first among the other readings.
4. Tiles lying edge to edge in a line form a meld (``vision.melds``); a doubtful tile inside a meld
   that only one reading makes valid is resolved by the meld, and the tile says so (``corrected``).

>>> from rules.rummikub.tiles import parse_tiles, tiles_text
>>> from vision.synth import render_table
>>> frame, truth = render_table([parse_tiles("R3 R4 R5"), parse_tiles("K7 B7 O7")], seed=2, angle=10)
>>> sorted(tiles_text(m) for m in read_tiles(frame).table())
['K7 B7 O7', 'R3 R4 R5']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from rules.rummikub.melds import Meld
from rules.rummikub.tiles import COLOURS, JOKER, NUMBERS, Tile
from vision.calibration import Calibration
from vision.frame import check_frame
from vision.melds import (
    HALF_TURN_TWIN,
    TWIN_COLOURS,
    TWIN_NUMBERS,
    correct_melds,
    doubt_misfits,
    group_melds,
    line_way_up,
)
from vision.nets import ANGLE_CROP, MODELS, CropClassifier, HeatmapDetector, cut, edge_angles, load_settings

# The classifier's classes: the 52 numbered tiles (colour order R B K O), the joker, "not a tile".
LABELS: tuple[str, ...] = (*(f"{c}{n}" for c in COLOURS for n in NUMBERS), "J", "none")
NOT_A_TILE = len(LABELS) - 1
_DATASET_COLOURS = {"red": "R", "blue": "B", "black": "K", "orange": "O"}


def label_of_name(name: str) -> int:
    """The class index of a dataset class name (``black_7``, ``orange_13``, ``joker``) or a tile text.

    >>> LABELS[label_of_name("black_7")], LABELS[label_of_name("joker")], LABELS[label_of_name("O13")]
    ('K7', 'J', 'O13')
    """
    if name == "joker":
        return LABELS.index("J")
    colour, _, number = name.partition("_")
    text = f"{_DATASET_COLOURS[colour]}{number}" if colour in _DATASET_COLOURS else name.upper()
    if text not in LABELS[:NOT_A_TILE]:
        raise ValueError(f"not a tile class: {name!r}")
    return LABELS.index(text)


def tile_of_label(label: int) -> Tile:
    return Tile.parse(LABELS[label])


def _twin_labels() -> tuple[tuple[int, ...], ...]:
    """For each class, the classes it is confused with (none for the joker and "not a tile")."""
    out: list[tuple[int, ...]] = []
    for name in LABELS:
        if name in ("J", "none"):
            out.append(())
            continue
        colour, number = name[0], int(name[1:])
        twins = [f"{colour}{n}" for n in TWIN_NUMBERS.get(number, ())]
        if colour in TWIN_COLOURS:
            twins.append(f"{TWIN_COLOURS[colour]}{number}")
        out.append(tuple(LABELS.index(t) for t in twins))
    return tuple(out)


TWINS = _twin_labels()


def twin_lead(probs: np.ndarray, label: int) -> tuple[float, int]:
    """How far the class ``label``'s probability leads that of its likeliest twin, and that twin
    (``(1.0, -1)`` for a class without twins).

    >>> p = np.zeros(len(LABELS)); p[LABELS.index("K7")] = 0.6; p[LABELS.index("K1")] = 0.3
    >>> lead, twin = twin_lead(p, LABELS.index("K7")); round(lead, 2), LABELS[twin]
    (0.3, 'K1')
    """
    twins = TWINS[label]
    if not twins:
        return 1.0, -1
    twin = max(twins, key=lambda k: probs[k])
    return float(probs[label] - probs[twin]), int(twin)


@dataclass(frozen=True)
class TileDetection:
    """A detector peak read as a tile's place: centre, long and short side (image px), turn in degrees
    in [-90, 90) (0: long side vertical; the true turn may be half a turn more) and heat score; where
    the outline's turn lies more than ``EDGE_TRUST`` from the detector's, the detector's is
    ``other_angle`` and the reader reads the tile at both."""

    x: float
    y: float
    long_side: float
    short_side: float
    angle: float
    score: float
    other_angle: float | None = None  # the detector's own turn where the outline's lies far from it


@dataclass(frozen=True)
class SeenTile:
    """One face-up tile as seen: what it is, its centre, four corners (frame px), long and short side,
    turn (degrees in [-90, 90), 0 = upright or upside down) and confidence.

    ``corrected`` is true where the classifier was not sure and the meld decided the reading (``read_as``
    keeps the classifier's first choice, which the meld may have confirmed or changed; the confidence is
    then the decided reading's share of the meld's valid readings); ``candidates`` are the likeliest
    readings with their probabilities.
    """

    tile: Tile
    center: tuple[float, float]
    corners: tuple[tuple[float, float], ...]
    long_side: float
    short_side: float
    angle: float
    confidence: float
    candidates: tuple[tuple[Tile, float], ...] = ()
    corrected: bool = False
    read_as: Tile | None = None
    zone: str | None = None  # the calibration's zone it lies in (``vision.tile_zones``: a rack shown)

    @property
    def label(self) -> str:
        return str(self.tile)

    @property
    def size(self) -> float:
        """Its extent for drawing (``vision.observation.Item``): the long side."""
        return self.long_side

    def __str__(self) -> str:
        x, y = self.center
        note = f" (meld; read {self.read_as})" if self.corrected else ""
        return f"{self.tile}@({x:.0f},{y:.0f}) p={self.confidence:.2f}{note}"


@dataclass(frozen=True)
class TableObservation:
    """Every face-up tile of the table in one frame, the melds they form and the loose ones.

    ``melds`` are tuples of tile indices in table order along their line; ``loose`` indexes tiles that
    touch no neighbour; ``uncertain`` indexes tiles whose confidence is below threshold (after the melds
    resolved what they could). ``shown``: the tiles lying in a zone of the calibration the reader was
    asked to keep apart (``vision.tile_zones``: a rack laid face up in the rack zone at a learning
    table), read as such, every one loose and none of them the table's; ``None`` where no zone was asked
    for. The table's judgments (a play, a draw, a restore) use ``tiles``; a rack read uses
    :meth:`whole`.
    """

    tiles: tuple[SeenTile, ...]
    melds: tuple[tuple[int, ...], ...] = ()
    loose: tuple[int, ...] = ()
    uncertain: tuple[int, ...] = ()
    corrected: tuple[int, ...] = field(default=())
    shown: TableObservation | None = None

    @property
    def items(self) -> tuple[SeenTile, ...]:
        """What the camera panel draws: the table's tiles, then the tiles of the zones."""
        return self.tiles if self.shown is None else (*self.tiles, *self.shown.tiles)

    @property
    def unsure_items(self) -> tuple[int, ...]:
        """The unsure ones of :attr:`items` (``vision.observation.MarksUnsure``: ``uncertain`` indexes
        the table's tiles only)."""
        if self.shown is None:
            return self.uncertain
        return (*self.uncertain, *(len(self.tiles) + i for i in self.shown.uncertain))

    def whole(self) -> TableObservation:
        """The reading with the zones' tiles as tiles lying beside the melds (loose, after the table's):
        what a rack read takes the rack from (the tiles that are not the table's)."""
        shown = self.shown
        if shown is None:
            return self
        n = len(self.tiles)
        return replace(
            self,
            tiles=(*self.tiles, *shown.tiles),
            loose=(*self.loose, *(n + i for i in range(len(shown.tiles)))),
            uncertain=(*self.uncertain, *(n + i for i in shown.uncertain)),
            shown=None,
        )

    @property
    def values(self) -> tuple[Tile, ...]:
        return tuple(t.tile for t in self.tiles)

    @property
    def certain(self) -> bool:
        return not self.uncertain

    @property
    def empty(self) -> bool:
        """Nothing seen: no tile on the table, none in a zone."""
        return not self.items

    def meld_tiles(self) -> list[list[Tile]]:
        """The tiles of each meld, in table order."""
        return [[self.tiles[i].tile for i in meld] for meld in self.melds]

    def table(self) -> list[list[Tile]]:
        """The table as ``rules.rummikub.check_turn`` takes it: one tile sequence per meld, and each
        loose tile as a sequence of its own (the engine then refuses it as an invalid meld)."""
        return [*self.meld_tiles(), *([self.tiles[i].tile] for i in self.loose)]

    def same_as(self, other: TableObservation) -> bool:
        """The same tiles in the same melds (order along a line aside), and the same tiles in the
        zones, for settling."""
        return (
            sorted(map(str, self.values)) == sorted(map(str, other.values))
            and sorted(" ".join(map(str, m)) for m in _canonical(self))
            == sorted(" ".join(map(str, m)) for m in _canonical(other))
            and _shown(self) == _shown(other)
        )

    def __str__(self) -> str:
        melds = " | ".join(" ".join(str(t) for t in m) for m in self.meld_tiles())
        loose = " ".join(str(self.tiles[i].tile) for i in self.loose)
        shown = "" if self.shown is None else " shown [" + " ".join(self.shown.labels()) + "]"
        return (
            f"melds [{melds}] loose [{loose}]"
            + (f" uncertain {len(self.uncertain)}" if self.uncertain else "")
            + shown
        )

    def labels(self) -> list[str]:
        return [t.label for t in self.tiles]


def _shown(observation: TableObservation) -> list[tuple[str | None, str]]:
    shown = observation.shown
    return [] if shown is None else sorted((t.zone, t.label) for t in shown.tiles)


def _canonical(observation: TableObservation) -> list[list[str]]:
    out = []
    for meld in observation.meld_tiles():
        words = [str(t) for t in meld]
        out.append(min(words, words[::-1]))
    return out


class TileModels:
    """The tile reader: the shared detector (seven channels) and crop classifier with the tile settings
    (``tiles_reader.json``). Crops are portrait; the classifier reads them upright and, where not
    clear, upside down too."""

    def __init__(self, folder: Path, config: dict[str, Any]) -> None:
        self.config = config
        self.detector = HeatmapDetector(
            folder / config["detector"], config["net_long"], config["stride"], config["heat_threshold"]
        )
        width, height = config["crop"]
        self.crop = (int(width), int(height))
        self.margin = float(config["margin"])
        self.classifier = CropClassifier(
            folder / config["classifier"],
            LABELS,
            self.crop,
            first=(0,),
            rest=(2,),
            recheck_below=config["recheck_below"],
            temperature=config["temperature"],
        )
        self.confidence_threshold = float(config["confidence_threshold"])
        # The lead a reading needs over its confusable twin to be confident (0: no such need).
        self.twin_margin = float(config.get("twin_margin", 0.0))
        self.half_turns = bool(config.get("read_both_half_turns", False))
        self.white_reference = bool(config.get("white_reference", False))

    @classmethod
    def load(cls, folder: Path = MODELS) -> TileModels:
        return cls(folder, load_settings("tiles", folder))

    def detect(self, image: np.ndarray, heat_threshold: float | None = None) -> list[TileDetection]:
        """Candidate tiles in ``image`` (BGR), strongest first."""
        # Neighbouring tiles in a meld lie a short side apart, about 0.7 of the long side.
        peaks = self.detector.detect(image, heat_threshold, overlap=0.45)
        scale = self.detector.net_long / max(image.shape[:2])
        edges = outline_angles(image, [(p.x, p.y) for p in peaks], [EDGE_WINDOW * p.size for p in peaks])
        found = []
        for p, edge in zip(peaks, edges, strict=True):
            log_short, c2, s2 = p.extra[:3]
            # A tile's face is about 3:4; the detector's short side is kept to a plausible share.
            short_side = float(np.clip(math.exp(log_short) / scale, 0.62 * p.size, 0.9 * p.size))
            coarse = math.degrees(math.atan2(s2, c2)) / 2
            angle, other = _refine(float(edge), coarse)
            found.append(TileDetection(p.x, p.y, p.size, short_side, angle, p.score, other))
        return found

    def crops(self, image: np.ndarray, detections: Sequence[TileDetection]) -> np.ndarray:
        out = np.empty((len(detections), self.crop[1], self.crop[0], 3), np.uint8)
        for i, d in enumerate(detections):
            extent = (self.margin * d.short_side, self.margin * d.long_side)
            out[i] = cut(image, (d.x, d.y), extent, d.angle, self.crop)
        return face_white(out) if self.white_reference else out

    def classify(self, image: np.ndarray, detections: Sequence[TileDetection]) -> np.ndarray:
        """Raw logits (n, 54) for the detections."""
        return self.classifier.logits(self.crops(image, detections))

    def probabilities(self, logits: np.ndarray) -> np.ndarray:
        return self.classifier.probabilities(logits)

    def read(
        self, image: np.ndarray, detections: Sequence[TileDetection]
    ) -> tuple[list[TileDetection], np.ndarray, np.ndarray, np.ndarray]:
        """``read_crops`` without the crops."""
        return self.read_crops(image, detections)[:4]

    def read_crops(
        self, image: np.ndarray, detections: Sequence[TileDetection]
    ) -> tuple[list[TileDetection], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The detections, their class probabilities (n, 54), how sure each reading is (n,) and how far it
        leads its likeliest confusable twin (n,; ``twin_lead``, the least over the readings at each half
        turn and their mean), and the crops read (the white-referenced crops, as cut: ``way_up`` reads
        the tiles' way up from them).

        With ``half_turns`` (the settings' ``read_both_half_turns``) every tile is read upright and upside
        down: the probabilities are those of the two readings' mean logits, and a reading is only as sure
        as its probability in the *less* sure of the two. A tile whose way up the classifier cannot tell
        (a 6 that reads as a 9 upside down) is then unsure instead of guessed. Without it a tile is read
        upright, and upside down too only where that is not clear (the two averaged).

        A tile whose outline's turn lies far from the detector's (``other_angle``) is read at both, and a
        tile the classifier is not sure of is read a quarter turn over too (the detector's turn can be a
        quarter off where edges alone decide it); the turn under which some tile kind is likelier is
        kept."""
        found = list(detections)
        probs, sure, lead, crops = self._read(image, found)
        # Where the outline's turn and the detector's disagree, the tile is read at the detector's too and
        # the surer reading of a tile kept.
        split = [(i, d.other_angle) for i, d in enumerate(found) if d.other_angle is not None]
        if split:
            turned = [replace(found[i], angle=a, other_angle=None) for i, a in split]
            other, other_sure, other_lead, other_crops = self._read(image, turned)
            for k, (i, _) in enumerate(split):
                if other[k, :NOT_A_TILE].max() > probs[i, :NOT_A_TILE].max():
                    found[i], probs[i], sure[i], lead[i] = turned[k], other[k], other_sure[k], other_lead[k]
                    crops[i] = other_crops[k]
        doubtful = [i for i in range(len(found)) if probs[i].max() < self.classifier.recheck_below]
        if doubtful:
            turned = [replace(found[i], angle=(found[i].angle + 180.0) % 180.0 - 90.0) for i in doubtful]
            other, other_sure, other_lead, other_crops = self._read(image, turned)
            for k, i in enumerate(doubtful):
                if other[k, :NOT_A_TILE].max() > probs[i, :NOT_A_TILE].max():
                    found[i], probs[i], sure[i], lead[i] = turned[k], other[k], other_sure[k], other_lead[k]
                    crops[i] = other_crops[k]
        self._second_look(image, found, probs, sure, lead, crops)
        return found, probs, sure, lead, crops

    def _second_look(
        self,
        image: np.ndarray,
        found: list[TileDetection],
        probs: np.ndarray,
        sure: np.ndarray,
        lead: np.ndarray,
        crops: np.ndarray,
    ) -> None:
        """Detections read as "not a tile" though some tile kind is ``SECOND_LOOK`` likely (at most
        ``SECOND_LOOK_MOST``, likeliest first) cut again at the tile size of the frame's other tiles, at
        their own turn and their neighbours', and a fifth of a side off each way (``LOOK_SHIFTS``): the
        detector's peak on a wide number (10–13) on a light table lay a fifth of a tile off, or its box
        was a fifth too large, and the crop was not a tile. Each cut is glanced at upright only; the one
        with the likeliest tile kind is read in full and kept (in place) if it reads as a tile, unless it
        lies on another tile read. A detection the image's edge cuts is looked at again whatever its tile
        kinds, also a quarter turn over and further along (``EDGE_LOOK``)."""
        tiles = [i for i in range(len(found)) if int(probs[i].argmax()) != NOT_A_TILE]
        height, width = image.shape[:2]
        at_edge = {
            i
            for i in range(len(found))
            if EDGE_LOOK and int(probs[i].argmax()) == NOT_A_TILE and _off_picture(found[i], (width, height))
        }
        lost = [
            i
            for i in range(len(found))
            if int(probs[i].argmax()) == NOT_A_TILE
            and (probs[i, :NOT_A_TILE].max() >= SECOND_LOOK or i in at_edge)
        ]
        if not lost:
            return
        lost = sorted(lost, key=lambda i: -float(probs[i, :NOT_A_TILE].max()))[:SECOND_LOOK_MOST]
        if len(tiles) >= 3:
            long_side = float(np.median([found[i].long_side for i in tiles]))
            short_side = float(np.median([found[i].short_side for i in tiles]))
        variants: list[TileDetection] = []
        owner: list[int] = []
        for i in lost:
            d = found[i]
            size = (long_side, short_side) if len(tiles) >= 3 else (d.long_side, d.short_side)
            near = [
                (found[j].angle - d.angle + 90.0) % 180.0 - 90.0
                for j in tiles
                if math.dist((found[j].x, found[j].y), (d.x, d.y)) < 1.6 * size[0]
            ]
            angles = [d.angle]
            if near and abs(float(np.median(near))) > 4.0:
                angles.append((d.angle + float(np.median(near)) + 90.0) % 180.0 - 90.0)
            shifts: tuple[tuple[float, float], ...] = LOOK_SHIFTS
            if i in at_edge:
                # The photo's edge cuts it: the detector's turn may be a quarter off (the visible part's
                # longer side is the tile's width), and the tile runs on past the picture.
                angles.append((d.angle + 180.0) % 180.0 - 90.0)
                shifts = LOOK_SHIFTS + EDGE_LOOK_SHIFTS
            for angle in angles:
                t = math.radians(angle)
                right, down = (math.cos(t), math.sin(t)), (-math.sin(t), math.cos(t))
                for across, along in shifts:
                    x = d.x + across * size[1] * right[0] + along * 0.6 * size[0] * down[0]
                    y = d.y + across * size[1] * right[1] + along * 0.6 * size[0] * down[1]
                    variants.append(replace(d, x=x, y=y, long_side=size[0], short_side=size[1], angle=angle))
                    owner.append(i)
        # A glance at each cut (upright only), then the likeliest cut of each tile read in full.
        glance = self.probabilities(self.classifier.logits(self.crops(image, variants)))[:, :NOT_A_TILE].max(
            axis=1
        )
        chosen = [
            max((k for k, o in enumerate(owner) if o == i), key=lambda k: float(glance[k])) for i in lost
        ]
        looks = [variants[k] for k in chosen]
        other, other_sure, other_lead, other_crops = self._read(image, looks)
        for k, (i, look) in enumerate(zip(lost, looks, strict=True)):
            if int(other[k].argmax()) == NOT_A_TILE or any(
                math.dist((found[j].x, found[j].y), (look.x, look.y)) < 0.5 * look.short_side for j in tiles
            ):
                continue
            found[i], probs[i], sure[i], lead[i], crops[i] = (
                look,
                other[k],
                other_sure[k],
                other_lead[k],
                other_crops[k],
            )
            tiles.append(i)

    def ink_look(self, crops: np.ndarray, probs: np.ndarray, inks: np.ndarray) -> np.ndarray:
        """The probabilities (n, 54) of the crops read as a black tile whose ink (``inks``: ``ink_colours``)
        is not clearly neutral — redness or blueness above ``INK_NEUTRAL`` but not so clear that
        ``ink_disagrees`` says its colour, or too little ink to measure — read again at both half turns
        with their colours strengthened (``strengthen``); NaN rows for the others."""
        out = np.full(probs.shape, math.nan)
        looked = [
            i
            for i in range(len(crops))
            if int(probs[i].argmax()) != NOT_A_TILE
            and BLACK_KINDS[int(probs[i, :NOT_A_TILE].argmax())]
            and (np.isnan(inks[i]).any() or INK_NEUTRAL < float(inks[i].max()) <= INK_CLEAR)
        ]
        if looked:
            logits = self.classifier.turn_logits(strengthen(crops[looked]), (0, 2)).mean(axis=0)
            out[looked] = self.probabilities(logits)
        return out

    def way_up(self, crops: np.ndarray, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each tile's way-up votes from its crop as read (``read_crops``; ``way_votes``: > 0 upright as
        cut) and, for those read as a 6 or a 9, where their digit's loop lies (``loop_side``; NaN for the
        others)."""
        loops = np.full(len(crops), math.nan)
        for i in range(len(crops)):
            if int(probs[i].argmax()) in SIX_NINE:
                loops[i] = loop_side(crops[i])
        return way_votes(crops), loops

    def _read(
        self, image: np.ndarray, detections: Sequence[TileDetection]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        crops = self.crops(image, detections)
        if not self.half_turns:
            probs = self.probabilities(self.classifier.logits(crops))
            best = probs[:, :NOT_A_TILE].argmax(axis=1)
            lead = np.array([twin_lead(p, int(b))[0] for p, b in zip(probs, best, strict=True)])
            return probs, probs[:, :NOT_A_TILE].max(axis=1), lead.reshape(len(best)), crops
        logits = self.classifier.turn_logits(crops, (0, 2))
        probs = self.probabilities(logits.mean(axis=0))
        best = probs[:, :NOT_A_TILE].argmax(axis=1)
        each = np.stack([self.probabilities(turn) for turn in logits])  # (2, n, 54)
        rows = np.arange(len(best))
        sure = np.minimum(probs[rows, best], each[:, rows, best].min(axis=0))
        lead = np.array(
            [min(twin_lead(p[i], int(b))[0] for p in (probs, *each)) for i, b in enumerate(best)]
        ).reshape(len(best))
        return probs, sure, lead, crops


FACE_WHITE = 225.0  # what a tile's face is scaled to in each channel
FACE_PERCENTILE = 85  # the face: the brightest sixth or so of a crop (the tile is most of the crop)


def face_white(crops: np.ndarray) -> np.ndarray:
    """The crops (n, h, w, 3 uint8) with each crop's colours scaled so its tile's face is white.

    The face of a tile is the table's own colour reference: under a warm lamp, a dim room or a phone's
    white balance it takes the cast the number takes, so dividing each channel by the face's brightness
    (the ``FACE_PERCENTILE``-th percentile of the crop's middle, clear of the table around the tile)
    takes the cast away before the classifier sees the colour. Gains are held to 0.6–4.

    >>> warm = np.zeros((1, 8, 6, 3), np.uint8); warm[...] = (150, 200, 240)  # a face under tungsten
    >>> face_white(warm)[0, 0, 0].tolist()
    [225, 225, 225]
    """
    if len(crops) == 0:
        return crops
    h, w = crops.shape[1:3]
    middle = crops[:, h // 6 : h - h // 6, w // 6 : w - w // 6].reshape(len(crops), -1, 3)
    face = np.percentile(middle, FACE_PERCENTILE, axis=1).astype(np.float32)  # (n, 3)
    gains = np.clip(FACE_WHITE / np.maximum(face, 1.0), 0.6, 4.0)
    out = crops.astype(np.float32) * gains[:, None, None, :]
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


# The way up (issue 32): a tile's number sits in the upper part of its face and the maker's mark at its
# foot, so the number's height on the face and the mark's side of it tell which half turn is upright; a
# 6 and a 9 are then told apart by where the loop of the digit lies, below (6) or above (9) its middle.
WAY_INK = 90.0  # darkness below the face's white (225) that is the number's ink
WAY_PALE = (15.0, 75.0)  # darkness of the maker's pale mark
WAY_HEIGHT = 0.05  # the number's height above the crop's middle (share of the crop) that counts one vote
WAY_HEIGHT_CLEAR = 0.08  # a number this high (or low) on the face decides alone (WAY_CAP votes)
WAY_CAP = 3.0
WAY_MARK = 0.3  # the share of the pale marks lying below the number rather than above it for one vote
WAY_MARK_CAP = 1.5
# A mark this clear against a clear number's height (tilt-21 of bench/tiles_tables.py: a row of four 6s
# read as 9s, two of them cut a tenth of a tile high) makes the number's height count as graded.
WAY_MARK_OPPOSED = 1.0
# A 6/9's loop is told only where it lies on the same side of the digit found on the crop as cut and on
# the crop smoothed by a 3 × 3 median (``loop_side``). The `calib` photos made dim (bench/tiles_stress.py:
# gamma 1.5, × 0.55, sensor noise σ 6) read three 6s and 9s the other way with confidence, two of them
# by a loop found on the wrong side; with the check those two are unsure (the third's loop lies on the
# wrong side both ways), and glare makes none (the median alone turned a 9 under glare into a 6); on `fit`
# made dim, blurred, compressed or glared, 6/9s read the other way with confidence 6 -> 1. As shot `fit`,
# `calib`, `val` and the 200 rendered tables read the same (one K9 of the committed meld photos is now
# decided by its meld). Session 14.
LOOP_DENOISE = True
LOOP_MARGIN = 0.05  # a loop this far (share of the digit's height) from the digit's middle is clear


def way_votes(crops: np.ndarray) -> np.ndarray:
    """How clearly each white-referenced crop (n, h, w, 3) is upright as cut (> 0) or upside down (< 0);
    0: no cue. The number sits high on the face: its ink's height above the crop's middle gives a vote
    per ``WAY_HEIGHT`` (up to ``WAY_CAP``), and decides alone where it is clear (``WAY_HEIGHT_CLEAR``, as
    on the real tiles). Where it is not (the rendered tiles' number sits nearer the middle, and the
    detector's centre is a little off), the pale maker's mark at the foot votes too: the pale marks
    across the face's middle, not along its edges, lying below the number rather than above it. A clear
    height the mark contradicts as clearly (``WAY_MARK_OPPOSED``: a crop cut off the tile's middle) is
    weighed with the mark as an unclear one.

    >>> crop = np.full((1, 72, 48, 3), 225, np.uint8); crop[0, 14:30, 18:30] = 20  # ink high on the face
    >>> float(way_votes(crop)[0]) > 1, float(way_votes(crop[:, ::-1])[0]) < -1
    (True, True)
    """
    n = len(crops)
    out = np.zeros(n, np.float64)
    if n == 0:
        return out
    h, w = crops.shape[1:3]
    dark = 225.0 - crops.min(axis=3).astype(np.float32)  # (n, h, w)
    ys = np.arange(h, dtype=np.float64) + 0.5
    # The number's height: its ink's centroid in the crop's inner part (clear of the table around it).
    y0, y1, x0, x1 = int(0.1 * h), int(0.9 * h), int(0.18 * w), int(0.82 * w)
    strength = np.clip(dark[:, y0:y1, x0:x1] - 60.0, 0, None).sum(axis=2)  # (n, rows)
    mass = strength.sum(axis=1)
    height = 0.5 - (strength * ys[y0:y1]).sum(axis=1) / np.maximum(mass, 1e-6) / h
    c0, c1 = int(0.3 * w), int(0.7 * w)
    edge = np.r_[int(0.14 * w) : int(0.22 * w), int(0.78 * w) : int(0.86 * w)]
    r0, r1 = int(0.06 * h), int(0.94 * h)
    rows = ys[r0:r1]
    clear = np.abs(height) >= WAY_HEIGHT_CLEAR
    graded = np.clip(height / WAY_HEIGHT, -WAY_CAP, WAY_CAP)
    out[:] = np.where(clear, np.copysign(WAY_CAP, height), graded)
    out[mass <= 0] = 0.0
    todo = np.flatnonzero(mass > 0)
    if len(todo) == 0:
        return out
    d = dark[todo]
    ink = d > WAY_INK
    # One dilation over the crops stacked (a bleed of two rows between crops lies outside r0:r1).
    near = cv2.dilate(ink.reshape(-1, w).astype(np.uint8), np.ones((5, 5), np.uint8)).reshape(ink.shape) > 0
    pale = (d > WAY_PALE[0]) & (d < WAY_PALE[1]) & ~near
    rows_pale = np.clip(
        pale[:, r0:r1, c0:c1].mean(axis=2) - (d[:, r0:r1][:, :, edge] > WAY_PALE[0]).mean(axis=2), 0, None
    )
    rows_ink = np.clip(ink[:, r0:r1, c0:c1].mean(axis=2) - ink[:, r0:r1][:, :, edge].mean(axis=2), 0, None)
    weight = rows_ink.sum(axis=1)
    middle = (rows_ink * rows).sum(axis=1) / np.maximum(weight, 1e-6)
    lower = rows[None, :] > middle[:, None]
    below = (rows_pale * lower).sum(axis=1)
    above = (rows_pale * (rows[None, :] < middle[:, None])).sum(axis=1)
    mark = np.clip((below - above) / (below + above + 1.0) / WAY_MARK, -WAY_MARK_CAP, WAY_MARK_CAP)
    mark = np.where(weight > 1e-3, mark, 0.0)
    # A number clearly high (or low) decides alone unless the mark says the other way as clearly: then the
    # crop was cut off the tile's middle (the detector's centre a tenth of a tile off moves the number
    # the same), and the two are weighed as for a number near the middle.
    opposed = clear[todo] & (mark * np.sign(height[todo]) <= -WAY_MARK_OPPOSED)
    add = ~clear[todo] | opposed
    out[todo] = np.where(add, graded[todo] + mark, out[todo])
    return out


def loop_side(crop: np.ndarray) -> float:
    """Where the loop (the enclosed hole) of the crop's digit lies: its offset from the digit's middle as
    a share of the digit's height, > 0 below, < 0 above (as cut); NaN where no loop is found. A 6 upright
    has its loop below, a 9 above.

    >>> six = np.full((72, 48, 3), 225, np.uint8)
    >>> _ = cv2.circle(six, (24, 38), 7, (20, 20, 20), 3)  # the loop, low
    >>> _ = cv2.line(six, (18, 36), (26, 16), (20, 20, 20), 3)  # the stroke up from it
    >>> loop_side(six) > 0, loop_side(six[::-1]) < 0
    (True, True)
    """
    side = _loop_side(crop)
    if not LOOP_DENOISE or math.isnan(side):
        return side
    # The loop found again on the crop smoothed by a 3 × 3 median must lie on the same side: in a dim,
    # noisy photo (or under glare) specks split the digit's ink or close false holes, and the two disagree.
    smooth = _loop_side(cv2.medianBlur(np.ascontiguousarray(crop), 3))
    if math.isnan(smooth) or (smooth > 0) != (side > 0):
        return math.nan
    return side if abs(side) <= abs(smooth) else smooth


def _loop_side(crop: np.ndarray) -> float:
    h, w = crop.shape[:2]
    dark = 225.0 - crop.astype(np.float32).min(axis=2)
    ink = dark > 100.0
    ink[: int(0.08 * h)] = False
    ink[int(0.92 * h) :] = False
    ink[:, : int(0.12 * w)] = False
    ink[:, int(0.88 * w) :] = False
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    if count <= 1:
        return math.nan
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, bw, bh = (int(v) for v in stats[k, :4])
    background = (labels[y : y + bh, x : x + bw] != k).astype(np.uint8)
    holes, _, hstats, hcentres = cv2.connectedComponentsWithStats(background, connectivity=4)
    best, area = -1, 0
    for j in range(1, holes):
        hx, hy, hw, hh, ha = (int(v) for v in hstats[j])
        if hx == 0 or hy == 0 or hx + hw == bw or hy + hh == bh:
            continue  # open to the box's edge: not enclosed
        if ha > area:
            best, area = j, ha
    if best < 0:
        return math.nan
    return float((hcentres[best][1] + 0.5 - bh / 2) / bh)


@cache
def default_models() -> TileModels:
    """The shipped models, loaded once per process."""
    return TileModels.load()


# The most the outline's turn may lie off the detector's and be taken alone (degrees): further off, the
# outline may have been something else (a neighbour's edge, the number) or the detector's turn wrong (a
# loose tile at a steep turn), and the tile is read at both turns, the surer reading kept. On the calib
# photos no tile is then turned more than 10° wrong; on 52 rendered tables 17 tiles were more than 20°
# wrong with the outline alone and 4 with the detector's turn wherever the two lay further apart.
EDGE_TRUST = 20.0


def _refine(edges: float, coarse: float) -> tuple[float, float | None]:
    """The tile's turn from its ``edges`` (known modulo a quarter turn, and sharper than the detector's),
    taking of the two candidates the one nearer the detector's ``coarse`` turn; in [-90, 90). With it the
    detector's own turn where the two lie more than ``EDGE_TRUST`` apart (else None).

    >>> _refine(2.0, 5.0), _refine(-43.0, 50.0), _refine(30.0, 2.0)
    ((2.0, None), (47.0, None), (30.0, 2.0))
    """
    best = min((edges, edges + 90.0), key=lambda a: abs((a - coarse + 90.0) % 180.0 - 90.0))
    other = coarse if abs((best - coarse + 90.0) % 180.0 - 90.0) > EDGE_TRUST else None
    return (best + 90.0) % 180.0 - 90.0, other


def _corners(d: TileDetection) -> tuple[tuple[float, float], ...]:
    t = math.radians(d.angle)
    ux, uy = math.cos(t), math.sin(t)
    vx, vy = -math.sin(t), math.cos(t)
    hw, hh = d.short_side / 2, d.long_side / 2
    return tuple(
        (d.x + sx * hw * ux + sy * hh * vx, d.y + sx * hw * uy + sy * hh * vy)
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    )


CANDIDATES = 4
SECOND_LOOK = 0.05  # a detection read as "not a tile" with a tile kind this likely is cut again
SECOND_LOOK_MOST = 8  # the most detections a frame cuts again
# The cuts again: (across in short sides, along in 0.6 long sides) from the detector's centre.
LOOK_SHIFTS = ((0.0, 0.0), (-0.2, 0.0), (0.2, 0.0), (0.0, -0.2), (0.0, 0.2))
# A detection whose box the image's edge cuts and that reads as "not a tile" is looked at again whatever its
# tile kinds (``_second_look``), also a quarter turn over and further along (0.24 of a long side each way):
# the detector's turn of a tile cut to a strip can be a quarter off (the strip's longer side is the tile's
# width), its centre is the visible part's, and the classifier then calls the crop "not a tile" surely. What
# it reads is held unsure where the edge cuts its middle (``cut_by_edge``). On the cut windows of
# `bench/tiles_tables.py --cut 0.6`, seeds 1000, 3000, 5000: cut tiles missed 59 -> 30, read right 1,171 ->
# 1,199 (2 more with confidence, 26 more unsure), read wrong and unsure 156 -> 195, wrong with confidence
# 0 -> 0; `calib` and `fit` unchanged. Found on the `val` photo rummy4-11 (an R3 cut by the edge, read at
# 1.00 a quarter turn over; session 14), so that photo no longer tells how the reader does unseen.
EDGE_LOOK = True
EDGE_LOOK_SHIFTS = ((0.0, -0.4), (0.0, 0.4))  # (across, along) as ``LOOK_SHIFTS``


def _off_picture(d: TileDetection, frame_size: tuple[int, int]) -> bool:
    """Whether some corner of a detection's box lies outside an image ``frame_size`` (width, height) px."""
    return _reaches_out((d.x, d.y), _corners(d), 1.0, frame_size)


def _reaches_out(
    center: tuple[float, float],
    corners: Sequence[tuple[float, float]],
    share: float,
    frame_size: tuple[int, int],
) -> bool:
    """Whether the outline ``corners`` shrunk to ``share`` of its size about ``center`` reaches outside an
    image ``frame_size`` (width, height) px."""
    w, h = frame_size
    cx, cy = center
    return any(
        not (0.0 <= cx + share * (x - cx) < w and 0.0 <= cy + share * (y - cy) < h) for x, y in corners
    )


EDGE_WINDOW = 1.1  # the edge window's width in long sides: the tile and a rim of what surrounds it
# The inner part of the edge window left out (share of its radius): the number in the tile's middle. With
# the whole window a black or blue number on a tile lying on a white table (whose outline hardly shows)
# outweighed the outline: 174 of 1965 tiles of 40 rendered tables turned more than 10° wrong, the crop
# read as "not a tile" (the most tables lost to one cause). With the ring: 12, and on the calib photos the
# 90th percentile of the error 3.3° -> 2.0° (none over 10° either way).
EDGE_RING = 0.5
_RING = np.hypot(*np.mgrid[-1 : 1 : ANGLE_CROP * 1j, -1 : 1 : ANGLE_CROP * 1j])
_RING_WINDOW = ((_RING < 0.95) & (_RING >= EDGE_RING)).astype(np.float32)


def outline_angles(
    image: np.ndarray, centers: Sequence[tuple[float, float]], extents: Sequence[float]
) -> np.ndarray:
    """The turn of each tile's outline in degrees in [-45, 45), as ``vision.nets.edge_angles`` finds
    straight edges (the fourfold symmetry of the gradients, z⁴ / |z|² with z = gx + i·gy), but in a ring
    ``extent`` px across that leaves out the tile's middle (``EDGE_RING``), where the number's strokes
    lie.

    >>> img = np.full((200, 200, 3), 235, np.uint8)
    >>> box = cv2.boxPoints(((100.0, 100.0), (50.0, 70.0), 20.0)).astype(np.int32)
    >>> _ = cv2.fillConvexPoly(img, box, (200, 200, 200))
    >>> _ = cv2.line(img, (90, 80), (112, 118), (20, 20, 20), 5)  # a stroke at another turn
    >>> round(float(outline_angles(img, [(100.0, 100.0)], [90.0])[0]))
    20
    """
    return edge_angles(image, centers, extents, _RING_WINDOW)


def read_tiles(
    frame: np.ndarray,
    calibration: Calibration | None = None,
    models: TileModels | None = None,
    *,
    zones: Sequence[str] = (),
) -> TableObservation:
    """Every face-up tile in a BGR frame with its kind, place and confidence, grouped into melds.

    With a calibration only the play area is read (in its top-down view); centres, corners and sizes are
    still given in frame pixels, and the tiles lying in its zones named in ``zones`` are kept apart from
    the table (``TableObservation.shown``; ``vision.tile_zones``). Raises ``FrameError`` (a
    ``ValueError``) for anything that is not a readable BGR image.
    """
    check_frame(frame)
    models = models or default_models()
    image = calibration.rectify(frame) if calibration is not None else frame
    detections, probs, sure, leads, crops = models.read_crops(image, models.detect(image))
    votes, loops = models.way_up(crops, probs)
    inks = _black_inks(crops, probs) if INK_CHECK else None
    return observe(
        detections,
        probs,
        sure,
        leads,
        models.confidence_threshold,
        models.twin_margin,
        calibration,
        ways=(votes, loops),
        frame_size=(image.shape[1], image.shape[0]),
        zones=zones,
        inks=inks,
        strengthened=models.ink_look(crops, probs, inks) if inks is not None and INK_LOOK else None,
    )


def _black_inks(crops: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """``ink_colours`` of the crops read as a black tile (the only ones ``ink_disagrees`` checks); NaN for
    the others."""
    out = np.full((len(crops), 2), math.nan)
    black = [i for i in range(len(crops)) if LABELS[int(probs[i, :NOT_A_TILE].argmax())].startswith("K")]
    if black:
        out[black] = ink_colours(crops[black])
    return out


def observe(
    detections: Sequence[TileDetection],
    probs: np.ndarray,
    sure: np.ndarray,
    leads: np.ndarray,
    threshold: float,
    twin_margin: float = 0.0,
    calibration: Calibration | None = None,
    ways: tuple[np.ndarray, np.ndarray] | None = None,
    frame_size: tuple[int, int] | None = None,
    zones: Sequence[str] = (),
    inks: np.ndarray | None = None,
    strengthened: np.ndarray | None = None,
) -> TableObservation:
    """The table read from the classifier's say on each detection (``TileModels.read``): each tile's
    confidence (held below ``threshold`` in proportion where it leads its twin by less than
    ``twin_margin``), with ``ways`` (``TileModels.way_up``: way-up votes and loop sides) each 6 or 9
    decided by its way up (``settle_six_nine``); with the image's ``frame_size`` (width, height) a tile
    whose middle the image's edge cuts is unsure (``cut_by_edge``); with ``inks`` (``ink_colours`` of the
    crops read) a tile whose number's ink is clearly of another colour than the one read is read in the
    ink's colour, unsure (``ink_disagrees``; its meld may decide it), and so is one whose crop read again
    with its colours strengthened (``strengthened``: ``TileModels.ink_look``) is clearly not black
    (``strengthened_colour``); the tiles lying in the
    calibration's zones named in ``zones`` apart (``shown``: each read alone, no meld decides it);
    then the melds' say on the others (``vision.melds``)."""
    tiles: list[SeenTile] = []
    kept: list[int] = []
    for index, (d, p, s, lead) in enumerate(zip(detections, probs, sure, leads, strict=True)):
        if int(p.argmax()) == NOT_A_TILE:
            continue
        kept.append(index)
        order = [int(k) for k in np.argsort(-p[:NOT_A_TILE])[:CANDIDATES]]
        best = order[0]
        confidence = float(s) * d.score
        twin = twin_lead(p, best)[1]
        if twin_margin > 0 and lead < twin_margin:
            # The twin is close: the reading is unsure (the closer, the less sure), and the picker offers
            # the twin first.
            confidence = min(confidence, threshold * max(lead, 0.0) / twin_margin)
            order = [best, twin, *(k for k in order[1:] if k != twin)][:CANDIDATES]
        candidates = tuple((tile_of_label(k), float(p[k])) for k in order)
        tiles.append(
            SeenTile(
                tile_of_label(best),
                (d.x, d.y),
                _corners(d),
                d.long_side,
                d.short_side,
                d.angle,
                confidence,
                candidates,
            )
        )
    if ways is not None:
        votes, loops = ways
        tiles = settle_six_nine(
            tiles,
            [probs[i] for i in kept],
            [detections[i].score for i in kept],
            votes[kept],
            loops[kept],
            threshold,
            twin_margin,
        )
    # The tiles no meld decides: those the image's edge cuts.
    held = {i for i, t in enumerate(tiles) if frame_size is not None and cut_by_edge(t, frame_size)}
    tiles = [
        replace(t, confidence=min(t.confidence, 0.5 * threshold)) if i in held else t
        for i, t in enumerate(tiles)
    ]
    if inks is not None:
        # A number whose ink is of another colour than the one read (a red run read black in a photo whose
        # compression washed out its red) is read in the ink's colour, unsure: its meld may decide it.
        for i, k in enumerate(kept):
            ink = ink_disagrees(tiles[i].tile, float(inks[k, 0]), float(inks[k, 1]))
            if ink is not None:
                tiles[i] = _held_for_ink(tiles[i], ink, probs[k], threshold)
            elif strengthened is not None and tiles[i].tile.colour == "K":
                # A washed-out photo: the ink too faint to measure as red or blue, but the crop with its
                # colours strengthened is not black.
                said = strengthened_colour(strengthened[k])
                if said is not None:
                    tiles[i] = _held_for_ink(tiles[i], said, strengthened[k], threshold)
    shown = None
    if calibration is not None and zones:
        # A tile in a zone kept apart (a rack shown face up) is not the table's: no meld of the table
        # takes it, nor decides it (a rack's tiles lie edge to edge without being a meld).
        zoned = [calibration.zone_at(t.center, zones) for t in tiles]
        apart = [replace(_to_frame(t, calibration), zone=z) for t, z in zip(tiles, zoned, strict=True) if z]
        kept_tiles = [i for i, z in enumerate(zoned) if z is None]
        held = {k for k, i in enumerate(kept_tiles) if i in held}
        tiles = [tiles[i] for i in kept_tiles]
        shown = TableObservation(
            tuple(apart),
            loose=tuple(range(len(apart))),
            uncertain=tuple(i for i, t in enumerate(apart) if t.confidence < threshold),
        )
    tiles = doubt_misfits(tiles, threshold)
    melds, loose = group_melds(tiles)
    resolved = correct_melds(tiles, melds, threshold)
    # Nor does its meld decide a tile the edge cuts: its neighbours may be read off their cut numbers alike
    # (a run O7 O8 O9 cut to their marks read as O5 O6 O7, a valid run).
    resolved = [tiles[i] if i in held else t for i, t in enumerate(resolved)]
    if any(t.corrected for t in resolved):
        melds, loose = group_melds(resolved)  # a decided tile may split a chain into its melds
    corrected = tuple(i for i, t in enumerate(resolved) if t.corrected)
    if calibration is not None:
        resolved = [_to_frame(t, calibration) for t in resolved]
    uncertain = tuple(i for i, t in enumerate(resolved) if t.confidence < threshold and not t.corrected)
    return TableObservation(tuple(resolved), tuple(melds), tuple(loose), uncertain, corrected, shown)


# The colour of a number's ink, measured on the white-referenced crop (``ink_colours``), against a black
# reading (``ink_disagrees``). Its redness is the ink's red above its green and blue, its blueness its blue
# above its red (grey levels, the face at 225). On the `fit`, `calib` and `val` photos, as shot and made
# harder (bench/tiles_stress.py: dim, mixed light, blur, JPEG 50, glare), black numbers lie within
# redness -26..39 and blueness -98..26; red ones at redness 25 and more (56 as shot), blue ones at
# blueness 9 and more (32 as shot) but for dim ones (down to -74: the tone curve takes the blue out of a
# dark ink), so only a black reading is checked. Under JPEG 50 `val`'s red run R9 R10 R11 was read black,
# R10 with confidence and its meld deciding the rest, at redness 56-83, and a B11 read K11 at blueness 60.
# Session 14.
INK_CHECK = True
INK_CLEAR = 45.0  # a black number's ink this red or this blue is not black
INK_LEAST = 15  # the fewest ink pixels that measure a colour


def ink_colours(crops: np.ndarray) -> np.ndarray:
    """Each white-referenced crop's (n, h, w, 3) number ink as (redness, blueness) (n, 2): the mean of the
    dark pixels in the face's middle (where the number lies), red above the larger of green and blue and
    blue above red; NaN where fewer than ``INK_LEAST`` pixels are ink.

    >>> crop = np.full((1, 72, 48, 3), 225, np.uint8); crop[0, 14:30, 18:30] = (30, 30, 200)  # red ink
    >>> [round(float(v)) for v in ink_colours(crop)[0]]
    [170, -170]
    """
    out = np.full((len(crops), 2), math.nan)
    if len(crops) == 0:
        return out
    c = crops.astype(np.float32)
    h, w = crops.shape[1:3]
    dark = 225.0 - c.min(axis=3)
    inner = np.zeros((h, w), bool)
    inner[int(0.1 * h) : int(0.75 * h), int(0.15 * w) : int(0.85 * w)] = True
    ink = (dark > 90.0) & inner
    count = ink.sum(axis=(1, 2))
    mean = (c * ink[..., None]).sum(axis=(1, 2)) / np.maximum(count, 1)[:, None]  # (n, 3): B, G, R
    b, g, r = mean[:, 0], mean[:, 1], mean[:, 2]
    out[:, 0] = r - np.maximum(g, b)
    out[:, 1] = b - r
    out[count < INK_LEAST] = math.nan
    return out


def ink_disagrees(tile: Tile, redness: float, blueness: float) -> str | None:
    """The colour a black tile's number's ink says where it is clearly not black (``"R"``: red or orange,
    ``"B"``: blue), else None (another colour read, a joker, too little ink).

    >>> ink_disagrees(Tile.parse("K10"), 70.0, -70.0), ink_disagrees(Tile.parse("K10"), 5.0, 3.0)
    ('R', None)
    >>> ink_disagrees(Tile.parse("K4"), -60.0, 60.0), ink_disagrees(Tile.parse("B4"), -20.0, 2.0)
    ('B', None)
    """
    if tile.is_joker or tile.colour != "K" or math.isnan(redness) or math.isnan(blueness):
        return None
    if redness > INK_CLEAR:
        return "R"
    return "B" if blueness > INK_CLEAR else None


# The colours a number's ink may be of where it says ``ink_disagrees``'s colour: red ink is red or orange.
INK_COLOURS = {"R": ("R", "O"), "B": ("B",)}

# A washed-out photo (a phone's low-light chroma smoothing, a hazy window: the colours' saturation × 0.55)
# leaves a red or blue number's ink too faint for ``INK_CLEAR`` (redness 14-44 where the photo as shot
# gives 100-130) and the classifier, taught vivid photos, reads it black with confidence: `val` at
# saturation × 0.55 held 12 such misreadings, × 0.45 45 (bench/tiles_stress.py ``pale``, ``paler``). So a
# number read black whose ink is not clearly neutral (redness or blueness above ``INK_NEUTRAL``, or too
# little ink to measure: black ink is dark) is read again at both half turns with its colours strengthened
# (``strengthen``: each pixel's distance from its own grey × ``INK_BOOST``, as a vivid photo would show it);
# where the black kinds then hold less than ``INK_NOT_BLACK`` together, the ink's colour is the reading's
# (``strengthened_colour``): the tile is held unsure in that colour, and its meld decides among that
# colour's tiles only (as for ``ink_disagrees``). A true black ink, neutral, stays black strengthened; the
# bluish K1 of a `calib` photo (blueness 25) is read blue strengthened under blur or a cool cast (black
# 0.06-0.10), so there it is read B1, unsure, never with confidence. Keeping the black reading as the last
# candidate gave that K1 back but let a washed-out red run read black throughout decide itself black
# (`val` × 0.45: 6 -> 14 confident misreadings); strengthening × 2.5 or × 3 read `val` × 0.45 without one
# but took 18-26 true black numbers for coloured ones in `calib`'s low-contrast stress. ``INK_NEUTRAL``
# chosen on `fit` washed out, ``INK_NOT_BLACK`` on `fit`, `calib` and `val` (0.05 left `val` × 0.45 15
# confident misreadings; session 16, docs/data.md).
INK_LOOK = True
INK_NEUTRAL = 10.0
INK_BOOST = 2.0
INK_NOT_BLACK = 0.15
BLACK_KINDS = np.array([label.startswith("K") for label in LABELS])


def strengthen(crops: np.ndarray, boost: float = INK_BOOST) -> np.ndarray:
    """The crops (n, h, w, 3 uint8) with each pixel's colour ``boost`` times as far from its grey (the mean
    of its channels): a saturation boost that keeps a neutral pixel as it is.

    >>> crop = np.array([[[[100, 120, 140], [90, 90, 90]]]], np.uint8)
    >>> strengthen(crop, 2.0)[0, 0].tolist()
    [[80, 120, 160], [90, 90, 90]]
    """
    c = crops.astype(np.float32)
    grey = c.mean(axis=3, keepdims=True)
    return np.clip(grey + boost * (c - grey) + 0.5, 0, 255).astype(np.uint8)


def strengthened_colour(probs: np.ndarray) -> str | None:
    """The colour (``"R"``: red or orange, ``"B"``: blue) a strengthened crop's probabilities (54,) say its
    ink is where they are clearly not black (the black kinds together below ``INK_NOT_BLACK``), else None
    (black, not looked at: NaN, a joker or not a tile likeliest).

    >>> p = np.zeros(len(LABELS)); p[LABELS.index("R7")], p[LABELS.index("K7")] = 0.95, 0.05
    >>> strengthened_colour(p), strengthened_colour(np.full(len(LABELS), np.nan))
    ('R', None)
    >>> p[LABELS.index("R7")], p[LABELS.index("K7")] = 0.7, 0.3
    >>> strengthened_colour(p)
    """
    if np.isnan(probs).any() or float(probs[BLACK_KINDS].sum()) >= INK_NOT_BLACK:
        return None
    best = LABELS[int(probs.argmax())]
    if best in ("J", "none"):
        return None
    return "R" if best[0] in "RO" else "B" if best[0] == "B" else None


def _held_for_ink(seen: SeenTile, colour: str, probs: np.ndarray, threshold: float) -> SeenTile:
    """``seen`` read again by its ink (``ink_disagrees`` or ``strengthened_colour`` said ``colour``; ``probs``
    the reading that weighs the ink's colours): unsure, its number in the ink's colours first (the likelier
    first) and its other candidates of those colours, none of the colour read — so a meld deciding it
    (``vision.melds.correct_melds``) chooses among what the ink allows."""
    allowed = INK_COLOURS[colour]
    own = [(Tile(c, seen.tile.number), float(probs[LABELS.index(f"{c}{seen.tile.number}")])) for c in allowed]
    own.sort(key=lambda c: -c[1])
    rest = tuple(
        c for c in seen.candidates if not c[0].is_joker and c[0].colour in allowed and c[0] not in dict(own)
    )
    candidates = (*own, *rest)[:CANDIDATES]
    return replace(
        seen, tile=candidates[0][0], confidence=min(seen.confidence, 0.5 * threshold), candidates=candidates
    )


# A tile cut by the image's edge is read with confidence only where the middle of its outline (this share
# of its length and width about its centre, where its number lies) is in the image, and its meld does not
# decide it: a 13 cut to its 1, a 9 to a 6 or a 7, a run cut to its marks were read with confidence
# (`bench/tiles_tables.py --cut 0.6`: 39 of 1,120 confident cut tiles wrong on 300 tables, seeds 1000,
# 3000, 5000; with the rule 0 of 494). Chosen on seeds 1000 and 3000 (the share 0.5: 1 wrong; 0.6 and 0.7:
# none, 0.7 keeping fewer), checked on 5000 (where 6s and 9s cut at all were misread: the 6/9 rule).
EDGE_MIDDLE = 0.6


def cut_by_edge(tile: SeenTile, frame_size: tuple[int, int]) -> bool:
    """Whether the edge of an image ``frame_size`` (width, height) px cuts the middle of a tile's outline
    (``EDGE_MIDDLE`` of its length and width about its centre) — or, for a 6 or a 9, any of it (its
    way-up cue is the number's height on the face: a 9 cut a fifth at its top was read as a 6).

    >>> from rules.rummikub.tiles import Tile
    >>> def tile(t: str) -> SeenTile:
    ...     square = ((90.0, 90.0), (110.0, 90.0), (110.0, 110.0), (90.0, 110.0))
    ...     return SeenTile(Tile.parse(t), (100.0, 100.0), square, 20.0, 20.0, 0.0, 0.9, ())
    >>> [cut_by_edge(tile("R5"), (w, 200)) for w in (200, 108, 105)], cut_by_edge(tile("R9"), (108, 200))
    ([False, False, True], True)
    """
    if not tile.corners:
        return False
    share = 1.0 if not tile.tile.is_joker and tile.tile.number in HALF_TURN_TWIN else EDGE_MIDDLE
    return _reaches_out(tile.center, tile.corners, share, frame_size)


# The way-up votes (of the tile's line, or its own) that tell a 6 from a 9: the least with the fewest
# confident 6/9 misreads and no right reading lost on the calib photos and 100 tables of seed 5000.
WAY_MARGIN = 1.5
# A tile's own way-up votes this clear decide its way alone; its line's only where they are not. A tile
# built on a meld from across the table lies the other way up from it, and tiles that touch by chance
# (photos of tiles strewn on a table) lie any way: the fit photos rummy2-18 and rummy2-34 read a 6 laid
# the other way from its neighbour as a 9 with confidence, and 25 clear 6s and 9s of the fit and calib
# photos whose line's votes cancelled out were left unsure (fit coverage 0.963 -> 0.980, calib 0.993 ->
# 1.000, the 400 rendered tables of bench/tiles_tables.py the same; session 7).
OWN_WAY = WAY_MARGIN
SIX_NINE = frozenset(LABELS.index(f"{c}{n}") for c in COLOURS for n in HALF_TURN_TWIN)


def settle_six_nine(
    tiles: Sequence[SeenTile],
    probs: Sequence[np.ndarray],
    scores: Sequence[float],
    votes: np.ndarray,
    loops: np.ndarray,
    threshold: float,
    twin_margin: float = 0.0,
) -> list[SeenTile]:
    """The tiles with every 6 or 9 decided by its way up, not by the classifier's guess (issue 32).

    A tile's way up is its own way-up vote where that is clear (reaches ``OWN_WAY`` either way), else its
    line's: the tiles of a line mostly lie the same way up, so a tile whose own cues are weak takes the
    sum of its line's votes (``vision.melds.line_way_up``; a loose tile has its own): upright where it
    reaches ``WAY_MARGIN``, upside down where it reaches ``-WAY_MARGIN``. Upright, a digit with its loop
    below its middle is a 6 and above it a 9 (``loop_side``). The colour stays the classifier's; the
    confidence is the pair's (6 or 9 of that colour) probability times the detector's score, held below
    the threshold where the colour's twin comes within ``twin_margin``. A 6 or 9 whose way up or loop
    cannot be told is unsure (its half-turn twin offered first), never guessed.
    """
    out = list(tiles)
    ways = line_way_up(tiles, [float(v) for v in votes])
    for i, seen in enumerate(tiles):
        if seen.tile.is_joker or seen.tile.number not in HALF_TURN_TWIN:
            continue
        p = probs[i]
        colour = seen.tile.colour
        other = Tile(colour, HALF_TURN_TWIN[seen.tile.number])
        loop = float(loops[i])
        way = float(votes[i]) if abs(float(votes[i])) >= OWN_WAY else ways[i]
        if abs(way) < WAY_MARGIN or not abs(loop) >= LOOP_MARGIN:
            # The way up or the loop cannot be told: unsure, the twin offered first.
            rest = tuple(c for c in seen.candidates if c[0] not in (seen.tile, other))
            twins = (
                (seen.tile, float(p[LABELS.index(str(seen.tile))])),
                (other, float(p[LABELS.index(str(other))])),
            )
            out[i] = replace(
                seen,
                confidence=min(seen.confidence, 0.5 * threshold),
                candidates=(*twins, *rest)[:CANDIDATES],
            )
            continue
        number = 6 if (loop > 0) == (way > 0) else 9
        tile = Tile(colour, number)
        pair = float(p[LABELS.index(f"{colour}6")] + p[LABELS.index(f"{colour}9")])
        confidence = min(1.0, pair) * float(scores[i])
        candidates = [(tile, pair)]
        if colour in TWIN_COLOURS:
            twin = TWIN_COLOURS[colour]
            twin_pair = float(p[LABELS.index(f"{twin}6")] + p[LABELS.index(f"{twin}9")])
            lead = pair - twin_pair
            if twin_margin > 0 and lead < twin_margin:
                confidence = min(confidence, threshold * max(lead, 0.0) / twin_margin)
            candidates.append((Tile(twin, number), twin_pair))
        rest = tuple(c for c in seen.candidates if c[0].is_joker or c[0].number not in HALF_TURN_TWIN)
        out[i] = replace(seen, tile=tile, confidence=confidence, candidates=(*candidates, *rest)[:CANDIDATES])
    return out


def _to_frame(tile: SeenTile, calibration: Calibration) -> SeenTile:
    center, long_side = calibration.to_frame(tile.center, tile.long_side)
    corners = tuple(calibration.to_frame(c, 1.0)[0] for c in tile.corners)
    scale = long_side / tile.long_side if tile.long_side else 1.0
    return replace(
        tile,
        center=(float(center[0]), float(center[1])),
        corners=tuple((float(x), float(y)) for x, y in corners),
        long_side=float(long_side),
        short_side=tile.short_side * scale,
    )


def table_melds(observation: TableObservation) -> list[Meld]:
    """The observed melds as engine melds (raises ``IllegalAction`` naming an invalid one)."""
    return [Meld.of(m) for m in observation.meld_tiles()]


__all__ = [
    "JOKER",
    "LABELS",
    "SeenTile",
    "TableObservation",
    "TileDetection",
    "TileModels",
    "label_of_name",
    "observe",
    "read_tiles",
]
