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

import numpy as np

from rules.rummikub.melds import Meld
from rules.rummikub.tiles import COLOURS, JOKER, NUMBERS, Tile
from vision.calibration import Calibration
from vision.frame import check_frame
from vision.melds import TWIN_COLOURS, TWIN_NUMBERS, correct_melds, doubt_misfits, group_melds
from vision.nets import MODELS, CropClassifier, HeatmapDetector, cut, edge_angles, load_settings

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
    in [-90, 90) (0: long side vertical; the true turn may be half a turn more) and heat score."""

    x: float
    y: float
    long_side: float
    short_side: float
    angle: float
    score: float


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

    @property
    def label(self) -> str:
        return str(self.tile)

    @property
    def size(self) -> float:
        """Its extent for drawing (``vision.observation.Item``): the long side."""
        return self.long_side

    @property
    def zone(self) -> str | None:
        """Tile tables have no named zones."""
        return None

    def __str__(self) -> str:
        x, y = self.center
        note = f" (meld; read {self.read_as})" if self.corrected else ""
        return f"{self.tile}@({x:.0f},{y:.0f}) p={self.confidence:.2f}{note}"


@dataclass(frozen=True)
class TableObservation:
    """Every face-up tile in one frame, the melds they form and the loose ones.

    ``melds`` are tuples of tile indices in table order along their line; ``loose`` indexes tiles that
    touch no neighbour; ``uncertain`` indexes tiles whose confidence is below threshold (after the melds
    resolved what they could).
    """

    tiles: tuple[SeenTile, ...]
    melds: tuple[tuple[int, ...], ...] = ()
    loose: tuple[int, ...] = ()
    uncertain: tuple[int, ...] = ()
    corrected: tuple[int, ...] = field(default=())

    @property
    def items(self) -> tuple[SeenTile, ...]:
        return self.tiles

    @property
    def values(self) -> tuple[Tile, ...]:
        return tuple(t.tile for t in self.tiles)

    @property
    def certain(self) -> bool:
        return not self.uncertain

    @property
    def empty(self) -> bool:
        return not self.tiles

    def meld_tiles(self) -> list[list[Tile]]:
        """The tiles of each meld, in table order."""
        return [[self.tiles[i].tile for i in meld] for meld in self.melds]

    def table(self) -> list[list[Tile]]:
        """The table as ``rules.rummikub.check_turn`` takes it: one tile sequence per meld, and each
        loose tile as a sequence of its own (the engine then refuses it as an invalid meld)."""
        return [*self.meld_tiles(), *([self.tiles[i].tile] for i in self.loose)]

    def same_as(self, other: TableObservation) -> bool:
        """The same tiles in the same melds (order along a line aside), for settling."""
        return sorted(map(str, self.values)) == sorted(map(str, other.values)) and sorted(
            " ".join(map(str, m)) for m in _canonical(self)
        ) == sorted(" ".join(map(str, m)) for m in _canonical(other))

    def __str__(self) -> str:
        melds = " | ".join(" ".join(str(t) for t in m) for m in self.meld_tiles())
        loose = " ".join(str(self.tiles[i].tile) for i in self.loose)
        return f"melds [{melds}] loose [{loose}]" + (
            f" uncertain {len(self.uncertain)}" if self.uncertain else ""
        )


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
        edges = edge_angles(image, [(p.x, p.y) for p in peaks], [EDGE_WINDOW * p.size for p in peaks])
        found = []
        for p, edge in zip(peaks, edges, strict=True):
            log_short, c2, s2 = p.extra[:3]
            # A tile's face is about 3:4; the detector's short side is kept to a plausible share.
            short_side = float(np.clip(math.exp(log_short) / scale, 0.62 * p.size, 0.9 * p.size))
            coarse = math.degrees(math.atan2(s2, c2)) / 2
            found.append(TileDetection(p.x, p.y, p.size, short_side, _refine(float(edge), coarse), p.score))
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
        """The detections, their class probabilities (n, 54), how sure each reading is (n,) and how far it
        leads its likeliest confusable twin (n,; ``twin_lead``, the least over the readings at each half
        turn and their mean).

        With ``half_turns`` (the settings' ``read_both_half_turns``) every tile is read upright and upside
        down: the probabilities are those of the two readings' mean logits, and a reading is only as sure
        as its probability in the *less* sure of the two. A tile whose way up the classifier cannot tell
        (a 6 that reads as a 9 upside down) is then unsure instead of guessed. Without it a tile is read
        upright, and upside down too only where that is not clear (the two averaged).

        A tile the classifier is not sure of is read a quarter turn over too (the detector's turn can be
        a quarter off where edges alone decide it), and the turn under which some tile kind is likelier
        is kept."""
        found = list(detections)
        probs, sure, lead = self._read(image, found)
        doubtful = [i for i in range(len(found)) if probs[i].max() < self.classifier.recheck_below]
        if doubtful:
            turned = [replace(found[i], angle=(found[i].angle + 180.0) % 180.0 - 90.0) for i in doubtful]
            other, other_sure, other_lead = self._read(image, turned)
            for k, i in enumerate(doubtful):
                if other[k, :NOT_A_TILE].max() > probs[i, :NOT_A_TILE].max():
                    found[i], probs[i], sure[i], lead[i] = turned[k], other[k], other_sure[k], other_lead[k]
        return found, probs, sure, lead

    def _read(
        self, image: np.ndarray, detections: Sequence[TileDetection]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        crops = self.crops(image, detections)
        if not self.half_turns:
            probs = self.probabilities(self.classifier.logits(crops))
            best = probs[:, :NOT_A_TILE].argmax(axis=1)
            lead = np.array([twin_lead(p, int(b))[0] for p, b in zip(probs, best, strict=True)])
            return probs, probs[:, :NOT_A_TILE].max(axis=1), lead.reshape(len(best))
        logits = self.classifier.turn_logits(crops, (0, 2))
        probs = self.probabilities(logits.mean(axis=0))
        best = probs[:, :NOT_A_TILE].argmax(axis=1)
        each = np.stack([self.probabilities(turn) for turn in logits])  # (2, n, 54)
        rows = np.arange(len(best))
        sure = np.minimum(probs[rows, best], each[:, rows, best].min(axis=0))
        lead = np.array(
            [min(twin_lead(p[i], int(b))[0] for p in (probs, *each)) for i, b in enumerate(best)]
        ).reshape(len(best))
        return probs, sure, lead


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


@cache
def default_models() -> TileModels:
    """The shipped models, loaded once per process."""
    return TileModels.load()


def _refine(edges: float, coarse: float) -> float:
    """The tile's turn from its ``edges`` (known modulo a quarter turn, and sharper than the detector's),
    taking of the two candidates the one nearer the detector's ``coarse`` turn; in [-90, 90). (On the
    ``val`` photos this beats keeping the detector's turn wherever the two disagree much: F1 0.914
    against 0.865.)"""
    best = min((edges, edges + 90.0), key=lambda a: abs((a - coarse + 90.0) % 180.0 - 90.0))
    return (best + 90.0) % 180.0 - 90.0


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
EDGE_WINDOW = 1.1  # the edge window's width in long sides: the tile and a rim of what surrounds it


def read_tiles(
    frame: np.ndarray, calibration: Calibration | None = None, models: TileModels | None = None
) -> TableObservation:
    """Every face-up tile in a BGR frame with its kind, place and confidence, grouped into melds.

    With a calibration only the play area is read (in its top-down view); centres, corners and sizes are
    still given in frame pixels. Raises ``FrameError`` (a ``ValueError``) for anything that is not a
    readable BGR image.
    """
    check_frame(frame)
    models = models or default_models()
    image = calibration.rectify(frame) if calibration is not None else frame
    detections, probs, sure, leads = models.read(image, models.detect(image))
    return observe(
        detections, probs, sure, leads, models.confidence_threshold, models.twin_margin, calibration
    )


def observe(
    detections: Sequence[TileDetection],
    probs: np.ndarray,
    sure: np.ndarray,
    leads: np.ndarray,
    threshold: float,
    twin_margin: float = 0.0,
    calibration: Calibration | None = None,
) -> TableObservation:
    """The table read from the classifier's say on each detection (``TileModels.read``): each tile's
    confidence (held below ``threshold`` in proportion where it leads its twin by less than
    ``twin_margin``), then the melds' say (``vision.melds``)."""
    tiles: list[SeenTile] = []
    for d, p, s, lead in zip(detections, probs, sure, leads, strict=True):
        if int(p.argmax()) == NOT_A_TILE:
            continue
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
    tiles = doubt_misfits(tiles, threshold)
    melds, loose = group_melds(tiles)
    resolved = correct_melds(tiles, melds, threshold)
    if any(t.corrected for t in resolved):
        melds, loose = group_melds(resolved)  # a decided tile may split a chain into its melds
    corrected = tuple(i for i, t in enumerate(resolved) if t.corrected)
    if calibration is not None:
        resolved = [_to_frame(t, calibration) for t in resolved]
    uncertain = tuple(i for i, t in enumerate(resolved) if t.confidence < threshold and not t.corrected)
    return TableObservation(tuple(resolved), tuple(melds), tuple(loose), uncertain, corrected)


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
