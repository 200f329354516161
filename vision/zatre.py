"""Reading a Zatre board from a camera frame: every half's value, which halves make one card, and each
half's cell in the board's grid of half-cells — the grid estimated from the cards themselves.

The board is laid by hand, so there is no printed grid: spacing, turn and origin come from what lies
there.

1. **Halves.** Each half of a card is printed as a square frame (a dark line) on a light card, so the
   inside of a half is a light region closed by dark lines. The frame is thresholded against its local
   mean (dark lines and pips); the closed light regions of about the same size, nearly square and
   nearly filling their turned bounding box, are the halves. Light regions of a half's size that are
   not square (a finger over a half, a half cut by the frame's edge) are *unsure halves*: they are
   reported without a value, never guessed.
2. **The grid.** The halves' edges give the grid's turn (the circular mean of their angles, mod 90°);
   neighbouring halves give the local spacing. Starting from the middle of the board, halves one or two
   cells apart along the grid's axes (within a quarter of a cell) are given integer cells, so the
   spacing may change across the frame (a tilted camera). A homography fitted from those cells to the
   frame places the halves not linked to the rest (a card lying apart) and measures how far each half
   lies from its cell: more than a quarter of a cell (a card nudged off its cell) makes it unsure.
   The grid's x axis is the one nearest the frame's x axis; cells are counted from the board's
   top-left half.
3. **Cards.** Two halves of one card are framed by one shared line; two halves of two cards by two
   lines with the cards' margins and the gap between them, so the space between the two light regions
   is wider: on the synthetic cards 0.08–0.18 of a half's light side against 0.22–0.34. Each half is
   paired with its neighbour at a single line's distance; a half with no such neighbour, or with two,
   is unsure.
4. **Pips** are counted as the dark round blobs in the middle of a half: the count is *clean* when no
   blob is odd (too big, long), the pips are of one size and lie about the middle as on a die; a
   light half without contrast is blank (0). Where the count is not clean, the crop goes to the dice
   reader's classifier (``vision/dice.py``, trained on real dice photos, read at one turn and at all
   four where in doubt), framed as it frames a die, and its value is taken only at probability ≥ 0.9;
   else the half is unsure. :func:`read_halves` is this half reader on its own (checked on the real dice
   photos' faces too: ``referee vision eval-zatre --pips DIR``).

**Loose cards** (:func:`read_loose_cards`, the owner's deck count): cards laid face up anywhere, each at
its own turn, not on a board. The halves are found as above; two halves are one card when they lie one
half apart along their own axes, turned alike, with a single line between them; the pips are read in
each half's own turn. A card with a half hidden, cut, unpaired or unclear is reported as an *unsure
card* with its outline, never guessed.

>>> from rules.zatre import Placement
>>> from vision.zatre_synth import render_zatre_board
>>> frame, _ = render_zatre_board([Placement.parse("5|6@0,0H"), Placement.parse("0|4@0,1H")], seed=2, hands=0)
>>> sorted(str(p) for p in read_zatre(frame).placements())
['0|4@0,1H', '5|6@0,0H']
"""

from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import dataclass, field, replace
from functools import cache

import cv2
import numpy as np

from rules.zatre.board import Orientation, Placement
from rules.zatre.cards import Card
from vision.calibration import Calibration
from vision.dice import LABELS, NOT_A_DIE
from vision.dice import default_models as dice_models
from vision.frame import check_frame
from vision.nets import MODELS, CropClassifier, cut

__all__ = [
    "HalfReading",
    "LooseCards",
    "SeenCard",
    "SeenHalf",
    "ZatreObservation",
    "read_half",
    "read_halves",
    "read_loose_cards",
    "read_zatre",
]

WORK_LONG = 1920  # frames larger than this are read at this long side
LINK_TOLERANCE = 0.27  # of a cell: how far off an integer offset two linked halves may lie
OFF_GRID = 0.27  # of a cell: a half further than this from its cell is unsure (a nudged card)
SINGLE_LINE = 0.2  # of a half's side: light regions closer than this are the two halves of one card
BLACK_HAT = 18  # grey levels darker than the closing: a printed line
KERNEL = 0.0047  # of the long side: the closing that removes lines (not the cards' margins)
CLASSIFIER_SURE = 0.9  # the dice classifier's probability taken as a reading where the count is unclear
PIP_AREA = math.pi * 0.075**2  # of a cell's area, as printed


@dataclass(frozen=True)
class SeenHalf:
    """One half as seen: value 0–6 (``None`` when unsure), cell in the board grid (``None`` when it
    cannot be placed), centre and side in frame pixels, the index of the other half of its card
    (``None`` when unpaired), and a confidence 0–1."""

    value: int | None
    cell: tuple[int, int] | None
    center: tuple[float, float]
    size: float
    partner: int | None
    confidence: float
    reason: str = ""
    placed: bool = True  # the cell is sure (not off its cell, not shared)

    @property
    def value_sure(self) -> bool:
        """The value and the cell are sure (the card it belongs to may not be)."""
        return self.value is not None and self.cell is not None and self.placed

    @property
    def label(self) -> str:
        return "?" if self.value is None else str(self.value)

    @property
    def zone(self) -> str | None:
        return None

    @property
    def sure(self) -> bool:
        return self.value_sure and self.partner is not None and not self.reason


@dataclass(frozen=True)
class ZatreObservation:
    """Every half on the table. ``uncertain`` indexes the halves that are not sure (value, cell or
    card unknown); :meth:`placements` gives the cards whose two halves are sure."""

    halves: tuple[SeenHalf, ...]
    uncertain: tuple[int, ...] = ()
    pitch: float = 0.0
    angle: float = 0.0

    @property
    def items(self) -> tuple[SeenHalf, ...]:
        return self.halves

    @property
    def empty(self) -> bool:
        return not self.halves

    @property
    def certain(self) -> bool:
        return not self.uncertain

    def placements(self) -> list[Placement]:
        """The sure cards as placements in the observation's grid (sorted)."""
        found = []
        for i, half in enumerate(self.halves):
            j = half.partner
            if j is None or j < i or not (half.sure and self.halves[j].sure):
                continue
            ends = sorted(((half.cell, half.value), (self.halves[j].cell, self.halves[j].value)), key=str)
            (first, a), (second, b) = ends
            if first is None or second is None or a is None or b is None:
                continue
            if first > second:
                first, second, a, b = second, first, b, a
            orientation: Orientation = "H" if first[1] == second[1] else "V"
            found.append(Placement(Card(a, b), first[0], first[1], orientation))
        return sorted(found)

    def cells(self) -> dict[tuple[int, int], int | None]:
        """Every placed half's cell and value (``None``: unsure)."""
        return {h.cell: h.value for h in self.halves if h.cell is not None}

    def same_as(self, other: ZatreObservation) -> bool:
        """The same halves with the same values in the same cells, for settling."""
        return self.cells() == other.cells() and len(self.halves) == len(other.halves)

    def __str__(self) -> str:
        cards = " ".join(str(p) for p in self.placements())
        return f"[{cards}]" + (f" {len(self.uncertain)} unsure" if self.uncertain else "")


@dataclass
class _Region:
    center: np.ndarray
    width: float  # along the region's own first axis
    height: float
    angle: float  # degrees, the region's first axis
    contour: np.ndarray
    square: bool
    cell: tuple[int, int] | None = None
    residual: float = 0.0
    partner: int | None = None
    why: list[str] = field(default_factory=list)
    off_cell: bool = False


@dataclass(frozen=True)
class HalfReading:
    """A half's value from its pips: the holes counted, the classifier's value (-1: not asked) and
    probability, and whether the count was unclear (the classifier decided)."""

    value: int | None
    holes: int
    classified: int
    probability: float
    unclear: bool


@cache
def _classifier() -> CropClassifier:
    """The dice reader's pip classifier, read at one turn (the others only where it is in doubt)."""
    models = dice_models()
    config = models.config
    return CropClassifier(
        MODELS / config["classifier"],
        LABELS,
        (models.crop, models.crop),
        first=(0,),
        rest=(1, 2, 3),
        recheck_below=config["recheck_below"],
        temperature=config["temperature"],
    )


def _regions(gray: np.ndarray, kernel: int | None = None) -> tuple[list[_Region], np.ndarray]:
    """The closed light regions of about a half's size, and the dark mask. ``kernel``: the closing's
    size in pixels (default: :data:`KERNEL` of the long side, for a board's cells)."""
    # Thin dark features (lines, pips) whatever the table around them: the black-hat transform.
    k = kernel if kernel is not None else max(5, round(max(gray.shape) * KERNEL) | 1)
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    hat = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, ellipse)
    dark = (hat > BLACK_HAT).astype(np.uint8) * 255
    contours, hierarchy = cv2.findContours(255 - dark, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return [], dark
    h, w = gray.shape
    candidates: list[_Region] = []
    for index, contour in enumerate(contours):
        if hierarchy[0][index][3] != -1:
            continue  # a hole (a pip) in a light region
        area = cv2.contourArea(contour)
        if area < 150 or area > 0.02 * h * w:
            continue
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
        if min(rw, rh) < 8:
            continue
        fill = area / max(1.0, rw * rh)
        aspect = max(rw, rh) / max(1.0, min(rw, rh))
        square = fill > 0.86 and aspect < 1.3
        candidates.append(_Region(np.array((cx, cy)), rw, rh, angle, contour, square))
    squares = [r for r in candidates if r.square]
    if not squares:
        return [], dark
    side = float(np.median([math.sqrt(r.width * r.height) for r in squares]))
    regions = []
    for r in candidates:
        s = math.sqrt(r.width * r.height)
        if r.square and 0.7 * side <= s <= 1.35 * side:
            regions.append(r)
        elif (
            not r.square
            and 0.25 * side * side <= cv2.contourArea(r.contour) <= 1.4 * side * side
            and max(r.width, r.height) <= 1.6 * side
        ):
            # Light, about a half's area, not square: a half partly hidden or cut — unsure.
            r.why.append("partly hidden")
            regions.append(r)
    return regions, dark


def _grid_angle(regions: list[_Region]) -> float:
    """The grid's turn in degrees, in [-45, 45): the circular mean of the squares' angles mod 90°."""
    angles = np.radians([r.angle for r in regions if r.square]) * 4
    mean = math.atan2(float(np.sin(angles).sum()), float(np.cos(angles).sum())) / 4
    degrees = math.degrees(mean)
    return (degrees + 45) % 90 - 45


def _link(regions: list[_Region], angle: float) -> float:
    """Give the squares integer cells by linking neighbours; returns the median pitch."""
    t = math.radians(angle)
    u = np.array((math.cos(t), math.sin(t)))
    v = np.array((-math.sin(t), math.cos(t)))
    squares = [i for i, r in enumerate(regions) if r.square]
    centres = np.array([regions[i].center for i in squares])
    sides = np.array([math.sqrt(regions[i].width * regions[i].height) for i in squares])
    # The pitch over the side, from each square's nearest neighbour (usually its card's other half).
    ratios = []
    for k in range(len(squares)):
        d = np.linalg.norm(centres - centres[k], axis=1)
        d[k] = np.inf
        nearest = int(np.argmin(d))
        if d[nearest] < 1.6 * sides[k]:
            ratios.append(d[nearest] / sides[k])
    ratio = float(np.median(ratios)) if ratios else 1.15
    pitches = sides * ratio
    start = int(np.argmin(np.linalg.norm(centres - centres.mean(axis=0), axis=1))) if len(squares) else 0
    cells: dict[int, tuple[int, int]] = {}
    if len(squares):
        cells[start] = (0, 0)
        queue = deque([start])
        while queue:
            k = queue.popleft()
            offsets = centres - centres[k]
            a = offsets @ u / pitches[k]
            b = offsets @ v / pitches[k]
            for near in np.nonzero((np.abs(a) < 2.5) & (np.abs(b) < 2.5))[0]:
                m = int(near)
                if m == k or m in cells:
                    continue
                ra, rb = round(float(a[m])), round(float(b[m]))
                if abs(a[m] - ra) < LINK_TOLERANCE and abs(b[m] - rb) < LINK_TOLERANCE and (ra or rb):
                    cells[m] = (cells[k][0] + ra, cells[k][1] + rb)
                    queue.append(m)
    for k, cell in cells.items():
        regions[squares[k]].cell = cell
    return float(np.median(pitches)) if len(pitches) else 0.0


def _place(regions: list[_Region], pitch: float) -> None:
    """Fit the grid's homography from the linked squares; place the others, measure every residual,
    and move the cells so the top-left half is at (0, 0)."""
    linked = [r for r in regions if r.cell is not None]
    if len(linked) < 4:
        for r in regions:
            if r.cell is None:
                r.why.append("no grid")
        return
    src = np.array([r.cell for r in linked], np.float32)
    dst = np.array([r.center for r in linked], np.float32)
    # Few or narrow boards: a similarity (turn, scale, shift); else a homography (the tilted camera).
    spread = min(np.ptp(src[:, 0]), np.ptp(src[:, 1]))
    if len(linked) >= 12 and spread >= 3:
        homography, _ = cv2.findHomography(src, dst, cv2.RANSAC, 0.25 * pitch)
    else:
        affine, _ = cv2.estimateAffinePartial2D(
            src, dst, method=cv2.RANSAC, ransacReprojThreshold=0.25 * pitch
        )
        homography = None if affine is None else np.vstack([affine, (0, 0, 1)])
    if homography is None:
        return
    inverse = np.linalg.inv(homography)
    for r in regions:
        at = cv2.perspectiveTransform(r.center.reshape(1, 1, 2).astype(np.float64), inverse)[0, 0]
        cell = (round(float(at[0])), round(float(at[1])))
        if r.cell is None:
            r.cell = cell
        back = cv2.perspectiveTransform(np.array([[r.cell]], np.float64), homography)[0, 0]
        r.residual = float(np.linalg.norm(back - r.center)) / pitch
        if r.cell != cell or r.residual > OFF_GRID:
            r.why.append("off its cell")
            r.off_cell = True
    placed = [r.cell for r in regions if r.cell is not None]
    taken: dict[tuple[int, int], int] = {}
    for r in regions:
        if r.cell is not None:
            taken[r.cell] = taken.get(r.cell, 0) + 1
    for r in regions:
        if r.cell is not None and taken[r.cell] > 1:
            r.why.append("two halves on one cell")
            r.off_cell = True
    if placed:
        x0 = min(c[0] for c in placed)
        y0 = min(c[1] for c in placed)
        for r in regions:
            if r.cell is not None:
                r.cell = (r.cell[0] - x0, r.cell[1] - y0)


def _pair(regions: list[_Region], angle: float, pitch: float) -> None:
    """Pair each half with the neighbour one shared line away."""
    t = math.radians(angle)
    axes = (np.array((math.cos(t), math.sin(t))), np.array((-math.sin(t), math.cos(t))))
    by_cell = {r.cell: i for i, r in enumerate(regions) if r.cell is not None and r.square}
    candidates: dict[int, list[int]] = {i: [] for i in by_cell.values()}
    for cell, i in by_cell.items():
        for dx, dy, axis in ((1, 0, 0), (0, 1, 1)):
            j = by_cell.get((cell[0] + dx, cell[1] + dy))
            if j is None:
                continue
            a, b = regions[i], regions[j]
            along = abs(float((b.center - a.center) @ axes[axis]))
            extent_a = _extent(a, axes[axis])
            extent_b = _extent(b, axes[axis])
            local = (math.sqrt(a.width * a.height) + math.sqrt(b.width * b.height)) / 2
            space = (along - extent_a / 2 - extent_b / 2) / local
            if space < SINGLE_LINE:
                candidates[i].append(j)
                candidates[j].append(i)
    for i, partners in candidates.items():
        if len(partners) == 1 and len(candidates[partners[0]]) == 1:
            regions[i].partner = partners[0]
        elif not partners:
            regions[i].why.append("no other half")
        else:
            regions[i].why.append("card unclear")


def _extent(region: _Region, axis: np.ndarray) -> float:
    """The region's width along ``axis`` (its turned box projected)."""
    t = math.radians(region.angle)
    own = np.array((math.cos(t), math.sin(t)))
    cos = abs(float(own @ axis))
    return region.width * cos + region.height * math.sqrt(max(0.0, 1 - cos * cos))


def read_half(crop: np.ndarray) -> HalfReading:
    """The value of one half from an upright BGR crop of it (the half filling the middle ~74 %: the dice
    classifier's framing) — holes counted and the dice classifier, a value only where they agree."""
    return read_halves([crop])[0]


def _count_holes(crop: np.ndarray) -> tuple[int, bool]:
    """Dark round blobs in the middle of an upright half crop (its frame and outside cut away), and
    whether the count is clean: no odd blob, pips of one size, laid out about the middle as on a die."""
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    n = gray.shape[0]
    lo, hi = int(n * 0.2), n - int(n * 0.2)
    inner = cv2.GaussianBlur(gray[lo:hi, lo:hi], (3, 3), 0)
    darkest, light, _, _ = cv2.minMaxLoc(inner)
    if light - darkest < 40:
        return 0, light > 90  # blank: clean when the half is light (not a shadow or a hand)
    mask = (inner < (light + darkest) / 2).astype(np.uint8)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    face = (n / 1.35) ** 2
    pip = PIP_AREA * face
    areas: list[int] = []
    points: list[np.ndarray] = []
    for k in range(1, count):
        area = stats[k, cv2.CC_STAT_AREA]
        bw, bh = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
        if area < 0.25 * pip:
            continue
        if area > 2.5 * pip or max(bw, bh) > 2.0 * min(bw, bh):
            return len(areas), False
        areas.append(area)
        points.append(centroids[k])
    if not areas or len(areas) > 6 or max(areas) > 2.2 * min(areas):
        return len(areas), False
    middle = (hi - lo - 1) / 2
    off = np.linalg.norm(np.mean(points, axis=0) - (middle, middle))
    return len(areas), bool(off < 0.06 * n)


def read_halves(crops: list[np.ndarray]) -> list[HalfReading]:
    """:func:`read_half` for many crops at once: pips counted; where the count is not clean, the dice
    reader's classifier (one batch) reads the crop, and its value is taken only when it is sure."""
    counts = [_count_holes(crop) for crop in crops]
    doubtful = [i for i, (_, clean) in enumerate(counts) if not clean]
    probs = np.zeros((len(crops), len(LABELS)), np.float32)
    if doubtful:
        classifier = _classifier()
        side = classifier.crop
        batch = np.stack([cv2.resize(crops[i], side, interpolation=cv2.INTER_AREA) for i in doubtful])
        probs[doubtful] = classifier.probabilities(classifier.logits(batch))
    readings = []
    for i, (holes, clean) in enumerate(counts):
        if clean:
            readings.append(HalfReading(holes, holes, -1, 1.0, False))
            continue
        top = int(probs[i].argmax())
        classified = 0 if top == NOT_A_DIE else top + 1
        sure = float(probs[i, top]) >= CLASSIFIER_SURE and classified > 0
        readings.append(
            HalfReading(classified if sure else None, holes, classified, float(probs[i, top]), True)
        )
    return readings


def read_zatre(frame: np.ndarray, calibration: Calibration | None = None) -> ZatreObservation:
    """Every card half in a BGR frame: value, cell in the board's grid, card and confidence.

    With a calibration only the play area is read (in its top-down view); centres and sizes are still
    given in frame pixels. Raises ``FrameError`` (a ``ValueError``) for anything that is not a
    readable BGR image.
    """
    check_frame(frame)
    if calibration is not None:
        seen = read_zatre(calibration.rectify(frame))
        placed = []
        for half in seen.halves:
            center, size = calibration.to_frame(half.center, half.size)
            placed.append(replace(half, center=(float(center[0]), float(center[1])), size=float(size)))
        return replace(seen, halves=tuple(placed))
    scale = min(1.0, WORK_LONG / max(frame.shape[:2]))
    image = (
        frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    regions, _dark = _regions(gray)
    if not any(r.square for r in regions):
        return ZatreObservation(
            tuple(
                SeenHalf(None, None, _frame_point(r.center, scale), 0.0, None, 0.0, "alone") for r in regions
            ),
            tuple(range(len(regions))),
        )
    angle = _grid_angle(regions)
    pitch = _link(regions, angle)
    _place(regions, pitch)
    _pair(regions, angle, pitch)
    crops = []
    for r in regions:
        side = math.sqrt(r.width * r.height) * 1.35
        crops.append(cut(image, (float(r.center[0]), float(r.center[1])), (side, side), angle, (64, 64)))
    readings = read_halves(crops)
    halves: list[SeenHalf] = []
    uncertain: list[int] = []
    for i, (r, reading) in enumerate(zip(regions, readings, strict=True)):
        why = list(r.why)
        value = reading.value if r.square else None
        if value is None and not why:
            why.append(f"pips unclear ({reading.holes} holes, classifier {reading.classified})")
        confidence = 0.0 if why else reading.probability if value else max(reading.probability, 0.5)
        halves.append(
            SeenHalf(
                value,
                r.cell,
                _frame_point(r.center, scale),
                math.sqrt(r.width * r.height) / scale,
                r.partner,
                confidence,
                "; ".join(why),
                not r.off_cell,
            )
        )
        if why:
            uncertain.append(i)
    return ZatreObservation(tuple(halves), tuple(uncertain), pitch / scale, angle)


def _frame_point(point: np.ndarray, scale: float) -> tuple[float, float]:
    return (float(point[0]) / scale, float(point[1]) / scale)


# --- loose cards: the owner's deck count ---------------------------------------------------------------

LOOSE_TURN = 12.0  # degrees: how far two halves of one card, and the line between them, may differ in turn
CARD_MARGIN = 0.16  # of a half's light side: the card's edge beyond the light region (line and margin)
LOOSE_KERNEL = 0.12  # of a half's light side: the narrowest closing that still takes its lines away


@dataclass(frozen=True)
class SeenCard:
    """One loose card as seen: its two values lower first (``None`` when unsure), centre, long side and
    outline (four corners) in frame pixels, a confidence 0–1 and, when unsure, why."""

    values: tuple[int, int] | None
    center: tuple[float, float]
    size: float
    corners: tuple[tuple[float, float], ...]
    confidence: float
    reason: str = ""

    @property
    def label(self) -> str:
        return "?" if self.values is None else f"{self.values[0]}|{self.values[1]}"

    @property
    def zone(self) -> str | None:
        return None

    @property
    def sure(self) -> bool:
        return self.values is not None and not self.reason

    @property
    def card(self) -> Card | None:
        return Card(*self.values) if self.sure and self.values is not None else None


@dataclass(frozen=True)
class LooseCards:
    """Every card lying loose on the table; ``uncertain`` indexes the cards that cannot be read."""

    cards: tuple[SeenCard, ...]
    uncertain: tuple[int, ...] = ()

    @property
    def items(self) -> tuple[SeenCard, ...]:
        return self.cards

    @property
    def empty(self) -> bool:
        return not self.cards

    @property
    def certain(self) -> bool:
        return not self.uncertain

    def counts(self) -> Counter[Card]:
        """How many of each sure card (``key`` form) lie there."""
        return Counter(card.card.key for card in self.cards if card.card is not None)

    def same_as(self, other: LooseCards) -> bool:
        """The same cards (values, and how many unsure), for settling."""
        return sorted(c.label for c in self.cards) == sorted(c.label for c in other.cards)

    def __str__(self) -> str:
        sure = " ".join(sorted(str(card) for card in self.counts().elements()))
        return f"[{sure}]" + (f" {len(self.uncertain)} unsure" if self.uncertain else "")


def _turn_apart(a: float, b: float) -> float:
    """How far two directions differ in degrees, modulo 90 (a square looks the same turned by 90°)."""
    return abs((a - b + 45) % 90 - 45)


def _loose_regions(gray: np.ndarray) -> list[_Region]:
    """The halves, found with a closing wide enough for their lines: the board's (cells of 5–7 % of
    the frame's height) first, then two and three times as wide (cards laid nearer the camera) while
    the closing is narrower than :data:`LOOSE_KERNEL` of the halves found (or none is found)."""
    base = max(5, round(max(gray.shape) * KERNEL) | 1)
    best: list[_Region] = []
    for kernel in (base, (2 * base) | 1, (3 * base) | 1):
        regions, _ = _regions(gray, kernel)
        sides = [math.sqrt(r.width * r.height) for r in regions if r.square]
        if len(sides) > sum(r.square for r in best):
            best = regions
        if sides and kernel >= LOOSE_KERNEL * float(np.median(sides)):
            return regions
    return best


def _loose_pairs(regions: list[_Region]) -> dict[int, int]:
    """Each square half's partner: the one square one half away along both halves' axes, turned alike,
    with a single line between the two light regions (and that square's only such neighbour)."""
    squares = [i for i, r in enumerate(regions) if r.square]
    near: dict[int, list[int]] = {i: [] for i in squares}
    for n, i in enumerate(squares):
        a = regions[i]
        side_a = math.sqrt(a.width * a.height)
        for j in squares[n + 1 :]:
            b = regions[j]
            side_b = math.sqrt(b.width * b.height)
            local = (side_a + side_b) / 2
            offset = b.center - a.center
            distance = float(np.linalg.norm(offset))
            if not 0.8 * local < distance < 1.6 * local:
                continue
            direction = math.degrees(math.atan2(float(offset[1]), float(offset[0])))
            if _turn_apart(a.angle, b.angle) > LOOSE_TURN or _turn_apart(direction, a.angle) > LOOSE_TURN:
                continue
            axis = offset / distance
            space = (distance - _extent(a, axis) / 2 - _extent(b, axis) / 2) / local
            if space < SINGLE_LINE:
                near[i].append(j)
                near[j].append(i)
    pairs: dict[int, int] = {}
    for i, found in near.items():
        if len(found) == 1 and near[found[0]] == [i]:
            pairs[i] = found[0]
        elif not found:
            regions[i].why.append("no other half")
        else:
            regions[i].why.append("card unclear")
    return pairs


def _outline(regions: list[_Region], indices: list[int], scale: float) -> tuple[tuple[float, float], ...]:
    """The card round these light regions: their turned box, grown by the card's line and margin."""
    points = np.vstack([regions[i].contour.reshape(-1, 2) for i in indices]).astype(np.float32)
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    side = float(np.median([math.sqrt(regions[i].width * regions[i].height) for i in indices]))
    grow = 2 * CARD_MARGIN * side
    box = cv2.boxPoints(((cx, cy), (w + grow, h + grow), angle))
    return tuple((float(x) / scale, float(y) / scale) for x, y in box)


def read_loose_cards(frame: np.ndarray, calibration: Calibration | None = None) -> LooseCards:
    """Every card lying loose and face up in a BGR frame: its two values, or why it cannot be read.

    Cards may lie anywhere, each at its own turn (not touching is best; touching end to end or side by
    side is read too). Unsure cards are never guessed: a half partly hidden or cut by the frame's edge,
    a half with no other half one line away, pips that neither the count nor the dice classifier is
    sure of. With a calibration only the play area is read (positions still in frame pixels). Raises
    ``FrameError`` (a ``ValueError``) for anything that is not a readable BGR image.
    """
    check_frame(frame)
    if calibration is not None:
        seen = read_loose_cards(calibration.rectify(frame))
        placed = []
        for card in seen.cards:
            center, size = calibration.to_frame(card.center, card.size)
            corners = tuple(
                (float(p[0]), float(p[1])) for p in (calibration.to_frame(c, 1.0)[0] for c in card.corners)
            )
            placed.append(
                replace(card, center=(float(center[0]), float(center[1])), size=float(size), corners=corners)
            )
        return replace(seen, cards=tuple(placed))
    scale = min(1.0, WORK_LONG / max(frame.shape[:2]))
    image = (
        frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    )
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    regions = _loose_regions(gray)
    pairs = _loose_pairs(regions)
    squares = [i for i, r in enumerate(regions) if r.square]
    crops = []
    for i in squares:
        r = regions[i]
        side = math.sqrt(r.width * r.height) * 1.35
        crops.append(cut(image, (float(r.center[0]), float(r.center[1])), (side, side), r.angle, (64, 64)))
    readings = dict(zip(squares, read_halves(crops), strict=True)) if crops else {}
    cards: list[SeenCard] = []
    used: set[int] = set()

    def add(indices: list[int], values: tuple[int, int] | None, confidence: float, reason: str) -> None:
        used.update(indices)
        points = np.array([regions[i].center for i in indices], np.float64)
        center = points.mean(axis=0) / scale
        corners = _outline(regions, indices, scale)
        long_side = max(
            float(np.linalg.norm(np.subtract(corners[k], corners[(k + 1) % 4]))) for k in range(4)
        )
        cards.append(
            SeenCard(values, (float(center[0]), float(center[1])), long_side, corners, confidence, reason)
        )

    for i, j in sorted(pairs.items()):
        if j < i:
            continue
        a, b = readings[i], readings[j]
        if a.value is None or b.value is None:
            unclear = a if a.value is None else b
            reason = f"pips unclear ({unclear.holes} holes, classifier {unclear.classified})"
            add([i, j], None, 0.0, reason)
        else:
            low, high = sorted((a.value, b.value))
            add([i, j], (low, high), min(a.probability, b.probability), "")
    # What is left cannot be read: a lone half, or a light region of a half's size that is not square
    # (a half partly hidden or cut) — each grouped with the neighbours of its card, outlined, unsure.
    rest = [i for i in range(len(regions)) if i not in used]
    while rest:
        group = [rest.pop(0)]
        side = math.sqrt(regions[group[0]].width * regions[group[0]].height)
        for k in list(rest):
            if float(np.linalg.norm(regions[k].center - regions[group[0]].center)) < 1.7 * side:
                group.append(k)
                rest.remove(k)
        reasons = sorted({why for i in group for why in regions[i].why} or {"no other half"})
        add(group, None, 0.0, "; ".join(reasons))
    uncertain = tuple(k for k, card in enumerate(cards) if not card.sure)
    return LooseCards(tuple(cards), uncertain)
