"""Synthetic top-down photos of playing cards on a table, with exact ground truth: melds laid as people
lay rummy melds (fanned so that only the corner index of all but the last card shows, any turn), loose
cards, face-down cards (a stock), on wood, cloth, felt, white and patterned tables under warm or cold
light, seen a little slanted. For training the card reader (beside real photos), tests and the
simulator's camera; accuracy is measured on real photographs (``referee vision eval-cards``).

The faces are the public-domain "Vector Playing Cards" (Byron Knoll) as rendered by
github.com/hayeah/playing-cards-assets (MIT), packed once into ``vision/data/card_faces.jpg`` by
``python -m vision.cards_synth --atlas ../shared/datasets/card-faces/png``. One deck design only: the
renderer varies its look (paper, ink, margins, sharpness, size) so that a reader trained on it does not
learn that one deck.

>>> from rules.kalooki.cards import parse_cards
>>> frame, truth = render_card_table([parse_cards("7H 8H 9H"), parse_cards("QS QD JOKER")], seed=3)
>>> frame.shape, sorted(str(c.card) for c in truth.cards if c.card is not None)
((720, 960, 3), ['7H', '8H', '9H', 'JOKER', 'QD', 'QS'])
"""

from __future__ import annotations

import argparse
import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from rules.kalooki.cards import JOKER, RANK_NAMES, SUITS, Card

ATLAS = Path(__file__).parent / "data" / "card_faces.jpg"
CELL = (150, 218)  # one face in the atlas (width, height): the artwork's 222 × 323 at two thirds
CARD_ASPECT = 0.716  # a poker card's width over its height (63 × 88 mm)
_SUIT_FILES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RANK_FILES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
BACK = "back"
FACES: tuple[str, ...] = (
    *(f"{RANK_NAMES[r]}{s}" for s in SUITS for r in range(1, 14)),
    "JOKER",
    "JOKER-black",
    BACK,
)
BACKGROUNDS = ("wood", "cloth", "felt", "white", "pattern")
# The corner index (rank over suit) on a card of unit width and height, from its top-left corner.
INDEX_BOX = (0.02, 0.02, 0.19, 0.25)  # x0, y0, x1, y1
# The index in the artwork (share of its width and height from its top-left corner): copied to the other
# two corners for a four-index deck (as the photographed deck is).
ART_INDEX = (0.0, 0.0, 0.19, 0.25)


def _face_file(name: str) -> str:
    if name == "JOKER":
        return "red_joker.png"
    if name == "JOKER-black":
        return "black_joker.png"
    if name == BACK:
        return "back.png"
    card = Card.parse(name)
    rank = _RANK_FILES.get(card.rank, str(card.rank))
    return f"{rank}_of_{_SUIT_FILES[card.suit]}.png"


def build_atlas(source: Path, out: Path = ATLAS) -> None:
    """Pack the artwork's PNGs (alpha over white) into one JPEG of ``CELL``-sized faces in ``FACES``
    order, eight to a row."""
    cols = 8
    rows = math.ceil(len(FACES) / cols)
    sheet = np.full((rows * CELL[1], cols * CELL[0], 3), 255, np.uint8)
    for k, name in enumerate(FACES):
        image = cv2.imread(str(source / _face_file(name)), cv2.IMREAD_UNCHANGED)
        if image is None:
            raise FileNotFoundError(f"{source / _face_file(name)}: no such face")
        if image.shape[2] == 4:
            alpha = image[..., 3:].astype(np.float32) / 255.0
            image = (image[..., :3].astype(np.float32) * alpha + 255.0 * (1 - alpha)).astype(np.uint8)
        face = cv2.resize(image, CELL, interpolation=cv2.INTER_AREA)
        r, c = divmod(k, cols)
        sheet[r * CELL[1] : (r + 1) * CELL[1], c * CELL[0] : (c + 1) * CELL[0]] = face
    cv2.imwrite(str(out), sheet, [cv2.IMWRITE_JPEG_QUALITY, 93])


@functools.cache
def _atlas() -> np.ndarray:
    sheet = cv2.imread(str(ATLAS))
    if sheet is None:
        raise FileNotFoundError(f"{ATLAS}: no card faces (python -m vision.cards_synth --atlas DIR)")
    return sheet


def face_image(name: str) -> np.ndarray:
    """The artwork of one face (``FACES``: ``"7H"``, ``"JOKER"``, ``"JOKER-black"``, ``"back"``)."""
    r, c = divmod(FACES.index(name), 8)
    return _atlas()[r * CELL[1] : (r + 1) * CELL[1], c * CELL[0] : (c + 1) * CELL[0]]


@dataclass(frozen=True)
class DeckLook:
    """How one deck looks: paper colour, ink darkness and red hue, the white margin around the artwork
    (share of the height), the corner radius and the sharpness of the print."""

    paper: tuple[float, float, float]
    ink: float
    red_shift: float
    margin: float
    radius: float
    blur: float
    back_tint: tuple[float, float, float]
    four_index: bool = False  # the index in all four corners (else top-left and bottom-right only)

    @classmethod
    def random(cls, rng: np.random.Generator) -> DeckLook:
        cream = rng.uniform(0, 14)
        four = bool(rng.random() < 0.5)
        return cls(
            paper=(float(245 - cream * 1.2), float(248 - cream * 0.4), float(250)),
            ink=float(rng.uniform(0.75, 1.0)),
            red_shift=float(rng.uniform(-8, 8)),
            margin=float(rng.uniform(0.015, 0.045)),
            radius=float(rng.uniform(0.03, 0.07)),
            blur=float(rng.uniform(0.0, 0.8)),
            back_tint=tuple(float(v) for v in rng.uniform(0.4, 1.1, 3)),  # type: ignore[arg-type]
            four_index=four,
        )


def render_card(name: str, height: int, look: DeckLook) -> tuple[np.ndarray, np.ndarray]:
    """One card ``height`` px high in a deck's look, upright: the BGR image and its mask (255 inside the
    rounded outline)."""
    width = round(height * CARD_ASPECT)
    margin = round(look.margin * height)
    face = cv2.resize(
        face_image(name), (width - 2 * margin, height - 2 * margin), interpolation=cv2.INTER_AREA
    )
    if look.four_index and name != BACK:
        face = _four_index(face)
    face = face.astype(np.float32)
    if name == BACK:
        face = face * np.array(look.back_tint, np.float32)
    else:
        # Ink darker or lighter towards the paper; the red a little towards orange or crimson.
        paper = np.array(look.paper, np.float32)
        face = paper - (paper - face) * look.ink
        reds = ((face[..., 2] - face[..., 1]) > 60).astype(np.float32)
        face = face + reds[..., None] * np.array((look.red_shift / 2, look.red_shift, 0.0), np.float32)
    card: np.ndarray = np.empty((height, width, 3), np.float32)
    card[:] = look.paper
    card[margin : height - margin, margin : width - margin] = face
    if look.blur > 0.2:
        card = cv2.GaussianBlur(card, (0, 0), look.blur)
    mask = np.zeros((height, width), np.uint8)
    r = max(2, round(look.radius * width))
    cv2.rectangle(mask, (r, 0), (width - 1 - r, height - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (width - 1, height - 1 - r), 255, -1)
    for x, y in ((r, r), (width - 1 - r, r), (r, height - 1 - r), (width - 1 - r, height - 1 - r)):
        cv2.circle(mask, (x, y), r, 255, -1, cv2.LINE_AA)
    return np.clip(card, 0, 255).astype(np.uint8), mask


def _four_index(face: np.ndarray) -> np.ndarray:
    """The face with its top-left index copied upright to the top-right corner and half turned to the
    bottom-left one (the artwork prints two)."""
    h, w = face.shape[:2]
    x1, y1 = round(ART_INDEX[2] * w), round(ART_INDEX[3] * h)
    index = face[:y1, :x1].copy()
    out = face.copy()
    out[:y1, w - x1 :] = index
    out[h - y1 :, :x1] = index[::-1, ::-1]
    return out


ART_INDEX_CENTRE = (0.085, 0.12)  # the top-left index's centre in the artwork (shares of its width, height)


def _art_to_card(ax: float, ay: float, height: float, margin: float) -> tuple[float, float]:
    """A point of the artwork (shares of its width and height) as shares of the card's, inside the
    deck's white margin (a share of the height)."""
    width = height * CARD_ASPECT
    m = margin * height
    return (m + ax * (width - 2 * m)) / width, (m + ay * (height - 2 * m)) / height


@dataclass(frozen=True)
class CardIndex:
    """One corner index of a card on the rendered table: its centre (frame px), the turn of its upright
    (degrees clockwise; the card's turn, or half a turn more for a bottom corner) and whether it is on
    top in the picture (most of it not covered by another card)."""

    center: tuple[float, float]
    angle: float
    visible: bool


@dataclass(frozen=True)
class SyntheticCard:
    """One card on the rendered table: what it is (``None`` for a face-down card), its centre, corners
    (frame px, clockwise from its top-left), turn (degrees clockwise; 0 = upright), height, the
    axis-aligned box of its visible part (``x0, y0, x1, y1``), the share of it visible, whether one of
    its corner indices can be read, and its meld (index into ``CardTableTruth.melds``) if any."""

    card: Card | None
    center: tuple[float, float]
    corners: tuple[tuple[float, float], ...]
    angle: float
    height: float
    box: tuple[float, float, float, float]
    visible: float
    index_visible: bool
    meld: int | None = None
    zone: str | None = None
    indices: tuple[CardIndex, ...] = ()

    @property
    def label(self) -> str:
        return BACK if self.card is None else str(self.card)

    @property
    def box_center(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)


@dataclass(frozen=True)
class CardTableTruth:
    """Every card of a rendered table (bottom to top) and the melds as tuples of card indices in order."""

    cards: tuple[SyntheticCard, ...]
    melds: tuple[tuple[int, ...], ...]

    def readable(self) -> list[SyntheticCard]:
        """The face-up cards a reader can be asked for: those with a corner index in sight."""
        return [c for c in self.cards if c.card is not None and c.index_visible]


def table_background(size: tuple[int, int], kind: str, rng: np.random.Generator) -> np.ndarray:
    """A table top of a kind in ``BACKGROUNDS``."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        base = np.array(rng.choice([(40, 75, 120), (60, 100, 150), (30, 55, 90), (90, 140, 185)]), np.float32)
        wobble = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (w, h)) * rng.uniform(10, 30)
        turn = rng.uniform(0, math.pi)
        along = xs * math.cos(turn) + ys * math.sin(turn)
        grain = (
            np.sin((along + wobble) / rng.uniform(4, 14) + rng.uniform(0, 6)) * rng.uniform(0.05, 0.12) + 1.0
        )
        img = base[None, None] * grain[..., None]
    elif kind == "cloth":
        base = rng.uniform(30, 200, 3).astype(np.float32)
        period = rng.uniform(0.8, 2.5)
        weave = (np.sin(xs * period) * np.sin(ys * period)) * rng.uniform(6, 20)
        folds = cv2.resize(rng.normal(0, 1, (5, 5)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        img = base[None, None] * (1 + 0.12 * folds[..., None]) + weave[..., None]
        img += rng.normal(0, 10, (h, w, 1))
    elif kind == "felt":
        base = np.array(rng.choice([(40, 110, 30), (60, 90, 20), (110, 60, 20), (40, 40, 120)]), np.float32)
        img = base[None, None] + rng.normal(0, 7, (h, w, 3))
        img = cv2.GaussianBlur(img.astype(np.float32), (0, 0), 0.8)
    elif kind == "white":
        img = np.full((h, w, 3), rng.uniform(190, 245), np.float32) + rng.normal(0, 3, (h, w, 1))
    elif kind == "pattern":
        a = rng.uniform(0, 255, 3).astype(np.float32)
        b = rng.uniform(0, 255, 3).astype(np.float32)
        period = rng.uniform(12, 60)
        style = int(rng.integers(3))
        if style == 0:  # stripes
            field = np.sin((xs * rng.uniform(-1, 1) + ys) / period * math.pi) > 0
        elif style == 1:  # checks
            field = ((xs // period).astype(int) + (ys // period).astype(int)) % 2 == 0
        else:  # leaves and blobs
            noise = cv2.resize(rng.normal(0, 1, (h // 40 + 2, w // 40 + 2)).astype(np.float32), (w, h))
            field = noise > 0.3
        img = np.where(field[..., None], a[None, None], b[None, None])
        img = cv2.GaussianBlur(img.astype(np.float32), (0, 0), 1.0)
    else:
        raise ValueError(f"unknown table {kind!r}; one of {', '.join(BACKGROUNDS)}")
    return np.clip(img, 0, 255).astype(np.float32)


def _corners(center: tuple[float, float], height: float, angle: float) -> tuple[tuple[float, float], ...]:
    t = math.radians(angle)
    ux, uy = math.cos(t), math.sin(t)  # the card's right
    vx, vy = -math.sin(t), math.cos(t)  # the card's down
    hw, hh = height * CARD_ASPECT / 2, height / 2
    return tuple(
        (center[0] + sx * hw * ux + sy * hh * vx, center[1] + sx * hw * uy + sy * hh * vy)
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    )


@dataclass
class _Laid:
    name: str  # a FACES name
    card: Card | None
    center: tuple[float, float]
    angle: float
    meld: int | None
    zone: str | None = None


def _lay_melds(
    melds: Sequence[Sequence[Card]],
    loose: Sequence[Card],
    backs: int,
    size: tuple[int, int],
    height: float,
    rng: np.random.Generator,
    spread: tuple[float, float],
    angle: float | None,
) -> list[_Laid] | None:
    """Where each card lies: every meld a fan in a random free place (each card ``spread`` card widths
    right of the one before, on top of it), then the loose cards and the stock; ``None`` if they do not
    fit."""
    w, h = size
    width = height * CARD_ASPECT
    occupied = np.zeros((h // 8 + 1, w // 8 + 1), bool)
    laid: list[_Laid] = []

    def free(points: list[tuple[float, float]], reach: float) -> bool:
        grid = np.zeros(occupied.shape, np.uint8)  # OpenCV 4.11 (the Pi's) draws on no bool image
        for x, y in points:
            if not (reach * 0.75 <= x < w - reach * 0.75 and reach * 0.75 <= y < h - reach * 0.75):
                return False
            cv2.circle(grid, (int(x / 8), int(y / 8)), int(reach / 8), 1, -1)
        return not (grid.astype(bool) & occupied).any()

    def claim(points: list[tuple[float, float]], reach: float) -> None:
        grid = occupied.astype(np.uint8)
        for x, y in points:
            cv2.circle(grid, (int(x / 8), int(y / 8)), int(reach / 8 + 1), 1, -1)
        occupied[:] = grid.astype(bool)

    groups: list[tuple[list[tuple[str, Card | None]], int | None]] = [
        ([(_name(c, rng), c) for c in meld], m) for m, meld in enumerate(melds)
    ]
    groups += [([(_name(c, rng), c)], None) for c in loose]
    if backs:
        groups.append(([(BACK, None)] * backs, -1))
    for cards, meld in groups:
        stock = meld == -1
        for _attempt in range(60):
            turn = float(angle if angle is not None else rng.uniform(-180, 180))
            if angle is not None and meld is None:
                turn = float(rng.uniform(-180, 180))
            step = float(rng.uniform(*spread)) * width
            if stock:
                step = 0.0
            t = math.radians(turn)
            span = step * (len(cards) - 1)
            c0 = (rng.uniform(0, w), rng.uniform(0, h))
            points = []
            for k in range(len(cards)):
                d = k * step - span / 2
                points.append((c0[0] + d * math.cos(t), c0[1] + d * math.sin(t)))
            if free(points, 0.62 * height):
                break
        else:
            return None
        claim(points, 0.62 * height)
        for k, ((name, card), point) in enumerate(zip(cards, points, strict=True)):
            jitter = rng.normal(0, 1.5 if not stock else 0.02 * width, 2)
            a = turn + float(rng.normal(0, 2.0 if not stock else 4.0))
            laid.append(
                _Laid(name, card, (point[0] + jitter[0], point[1] + jitter[1]), a, None if stock else meld)
            )
            del k
    return laid


def _name(card: Card, rng: np.random.Generator) -> str:
    if card.is_joker:
        return "JOKER" if rng.random() < 0.5 else "JOKER-black"
    return str(card)


def render_card_table(
    melds: Sequence[Sequence[Card]],
    loose: Sequence[Card] = (),
    rng: np.random.Generator | None = None,
    *,
    seed: int = 0,
    size: tuple[int, int] = (960, 720),
    card_height: float | None = None,
    spread: tuple[float, float] = (0.24, 0.45),
    angle: float | None = None,
    backs: int = 0,
    background: str | None = None,
    warm: float | None = None,
    slant: float | None = None,
    noise: float = 3.0,
    look: DeckLook | None = None,
) -> tuple[np.ndarray, CardTableTruth]:
    """A BGR photo of a card table seen from above and its exact ground truth.

    Each meld is a fan: every card ``spread`` (a range, drawn per meld) card widths right of the one
    before and on top of it, so the last card shows whole and the others their left strip with the
    corner index; the fan is turned ``angle`` degrees (random per meld if None). Loose cards lie apart at
    random turns; ``backs`` face-down cards lie as a stock. ``warm`` is the light's colour (-1 cold
    daylight … 1 tungsten; random if None), ``slant`` how far the camera leans (0 straight down … 1 about
    20°; random if None). Raises ``ValueError`` when the cards do not fit the frame.
    """
    rng = rng if rng is not None else np.random.default_rng(seed)
    w, h = size
    height = float(card_height if card_height is not None else rng.uniform(0.2, 0.34) * min(w, h))
    laid = None
    for _attempt in range(6):
        laid = _lay_melds(melds, loose, backs, size, height, rng, spread, angle)
        if laid is not None:
            break
    if laid is None:
        raise ValueError(f"the cards do not fit a {w}×{h} frame at a card height of {height:.0f} px")
    return _film(laid, len(melds), size, height, rng, background, warm, slant, noise, look)


def _film(
    laid: list[_Laid],
    melds: int,
    size: tuple[int, int],
    height: float,
    rng: np.random.Generator,
    background: str | None,
    warm: float | None,
    slant: float | None,
    noise: float,
    look: DeckLook | None,
) -> tuple[np.ndarray, CardTableTruth]:
    """The cards laid (bottom to top) on a table, lit and seen by the camera, and the truth."""
    w, h = size
    kind = background if background is not None else str(rng.choice(BACKGROUNDS))
    frame = table_background(size, kind, rng)
    owner = np.full((h, w), -1, np.int16)
    deck = look or DeckLook.random(rng)
    patches: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for k, card in enumerate(laid):
        if card.name not in patches:
            patches[card.name] = render_card(card.name, round(height), deck)
        _paste(frame, owner, k, *patches[card.name], card.center, card.angle, height)
    frame, owner, view = _camera(frame, owner, rng, slant)
    tone = float(warm if warm is not None else rng.uniform(-1, 1))
    gains = np.array((1 - 0.3 * tone, 1 - 0.05 * abs(tone), 1 + 0.12 * tone), np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    light = rng.uniform(0.7, 1.05) + 0.18 * (xs / w * rng.uniform(-1, 1) + ys / h * rng.uniform(-1, 1))
    frame = frame * gains[None, None] * light[..., None]
    if noise > 0:
        frame += rng.normal(0, noise, frame.shape).astype(np.float32)
    return np.clip(frame, 0, 255).astype(np.uint8), _truth(laid, owner, height, melds, view, deck)


FAN_SPREAD = 0.34  # how far a fanned card of a Kalooki meld lies from the one under it (card widths)
ZONES = {"stock": (0.07, 0.86), "discard": (0.2, 0.86)}  # zone centres (share of the frame's width, height)


def render_kalooki_table(
    melds: Sequence[Sequence[Card]],
    discard: Sequence[Card] = (),
    stock: int = 0,
    *,
    seed: int = 0,
    size: tuple[int, int] = (1920, 1080),
    card_height: float = 150.0,
    spread: float | Sequence[float] = FAN_SPREAD,
    background: str | None = "felt",
    warm: float | None = 0.0,
    slant: float | None = 0.0,
    look: DeckLook | None = None,
) -> tuple[np.ndarray, CardTableTruth]:
    """A Kalooki table as the session's camera films it: the melds as fans, upright, in rows across the
    upper part of the frame in the given order (the same melds lie in the same places from frame to
    frame: a meld built on grows to the right), the stock (``stock`` backs) and the discard pile
    (``discard``, its last card on top) in their zones (``ZONES``; ``SyntheticCard.zone``). The deck's
    look and the light come from ``seed`` and stay the same for a seed. ``spread``: how far each card of
    a fan lies from the one before it, in card widths (one for all melds, or one per meld: a meld laid
    straighter). Raises ``ValueError`` when the melds do not fit.
    """
    rng = np.random.default_rng(seed)
    deck = look or DeckLook.random(np.random.default_rng(seed + 7))
    w, h = size
    width = card_height * CARD_ASPECT
    laid: list[_Laid] = []
    x, y = 0.04 * w, 0.05 * h + card_height / 2
    spreads = [spread] * len(melds) if isinstance(spread, int | float) else list(spread)
    if len(spreads) != len(melds):
        raise ValueError(f"{len(spreads)} spreads for {len(melds)} melds")
    for m, meld in enumerate(melds):
        span = width * (1 + spreads[m] * (len(meld) - 1))
        if x + span > 0.96 * w:
            x, y = 0.04 * w, y + 1.2 * card_height
        if y + card_height / 2 > 0.74 * h:
            raise ValueError(f"{len(melds)} melds do not fit a {w}×{h} table at {card_height:.0f} px cards")
        for k, card in enumerate(meld):
            centre = (x + width / 2 + k * spreads[m] * width + rng.normal(0, 1.0), y + rng.normal(0, 1.0))
            laid.append(_Laid(_name(card, rng), card, centre, float(rng.normal(0, 1.5)), m))
        x += span + 0.45 * width
    piles: tuple[tuple[str, list[Card | None]], ...] = (("stock", [None] * stock), ("discard", list(discard)))
    for zone, pile in piles:
        zx, zy = ZONES[zone][0] * w, ZONES[zone][1] * h
        for lying in pile:
            name = BACK if lying is None else _name(lying, rng)
            centre = (zx + rng.normal(0, 0.03 * width), zy + rng.normal(0, 0.03 * width))
            laid.append(_Laid(name, lying, centre, float(rng.normal(0, 6.0)), None, zone))
    return _film(laid, len(melds), size, card_height, rng, background, warm, slant, 3.0, deck)


def _paste(
    frame: np.ndarray,
    owner: np.ndarray,
    k: int,
    image: np.ndarray,
    mask: np.ndarray,
    center: tuple[float, float],
    angle: float,
    height: float,
) -> None:
    """Lay card ``k`` (its image and outline mask) on the frame with a soft shadow, in the region it
    covers only, and mark the pixels it owns."""
    h, w = owner.shape
    ph, pw = image.shape[:2]
    reach = int(math.hypot(pw, ph) / 2 + height * 0.08)
    x0, y0 = max(0, int(center[0]) - reach), max(0, int(center[1]) - reach)
    x1, y1 = min(w, int(center[0]) + reach + 1), min(h, int(center[1]) + reach + 1)
    if x1 <= x0 or y1 <= y0:
        return
    m = cv2.getRotationMatrix2D((pw / 2, ph / 2), -angle, 1.0)
    m[:, 2] += (center[0] - pw / 2 - x0, center[1] - ph / 2 - y0)
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpAffine(image, m, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    alpha = cv2.warpAffine(mask, m, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255.0
    shift = np.array([[1, 0, height * 0.01], [0, 1, height * 0.015]], np.float32)
    shadow = cv2.warpAffine(cv2.GaussianBlur(alpha, (0, 0), height * 0.02), shift, size)
    region = frame[y0:y1, x0:x1]
    region *= (1 - 0.25 * shadow * (1 - alpha))[..., None]
    region[:] = region * (1 - alpha[..., None]) + warped * alpha[..., None]
    owner[y0:y1, x0:x1][alpha > 0.5] = k


def _camera(
    frame: np.ndarray, owner: np.ndarray, rng: np.random.Generator, slant: float | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The table seen by a camera leaning ``slant`` (0..1) off vertical (a mild perspective): the
    frame, the owner map and the homography from the table to the picture."""
    lean = float(slant if slant is not None else (rng.uniform(0, 1) if rng.random() < 0.6 else 0.0))
    if lean <= 0:
        return frame, owner, np.eye(3)
    h, w = owner.shape
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = src.copy()
    side = int(rng.integers(4))
    a, b = side, (side + 1) % 4  # the far edge is drawn in
    centre = src.mean(axis=0)
    dst[a] += (centre - src[a]) * 0.24 * lean
    dst[b] += (centre - src[b]) * 0.24 * lean
    m = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    owned = cv2.warpPerspective(owner, m, (w, h), flags=cv2.INTER_NEAREST, borderValue=-1)
    return out, owned, m


def _project(view: np.ndarray, points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    if not len(points):
        return []
    out = cv2.perspectiveTransform(np.array(points, np.float64).reshape(-1, 1, 2), view).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in out]


def _truth(
    laid: list[_Laid], owner: np.ndarray, height: float, melds: int, view: np.ndarray, deck: DeckLook
) -> CardTableTruth:
    cards = []
    full = height * height * CARD_ASPECT
    for k, card in enumerate(laid):
        ys, xs = np.nonzero(owner == k)
        corners = _project(view, _corners(card.center, height, card.angle))
        center = _project(view, [card.center])[0]
        if len(xs) == 0:
            box = (center[0], center[1], center[0], center[1])
        else:
            box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
        top = (corners[1][0] - corners[0][0], corners[1][1] - corners[0][1])
        cards.append(
            SyntheticCard(
                card.card,
                center,
                tuple(corners),
                math.degrees(math.atan2(top[1], top[0])),
                float(math.dist(corners[0], corners[3])),
                box,
                min(1.0, len(xs) / full),
                _index_seen(owner, k, card, height, view),
                card.meld,
                card.zone,
                () if card.card is None else _indices(owner, k, card, height, view, deck),
            )
        )
    meld_index: list[tuple[int, ...]] = [() for _ in range(melds)]
    for k, card in enumerate(laid):
        if card.meld is not None:
            meld_index[card.meld] = (*meld_index[card.meld], k)
    return CardTableTruth(tuple(cards), tuple(meld_index))


def _index_seen(owner: np.ndarray, k: int, card: _Laid, height: float, view: np.ndarray) -> bool:
    """Whether most of one of the card's two corner indices is on top in the camera's picture."""
    width = height * CARD_ASPECT
    t = math.radians(card.angle)
    ux, uy, vx, vy = math.cos(t), math.sin(t), -math.sin(t), math.cos(t)
    x0, y0, x1, y1 = INDEX_BOX
    h, w = owner.shape
    for flip in (1, -1):  # the top-left index and the bottom-right one (half a turn)
        points = []
        for fx in np.linspace(x0, x1, 5):
            for fy in np.linspace(y0, y1, 6):
                dx, dy = (fx - 0.5) * width * flip, (fy - 0.5) * height * flip
                points.append((card.center[0] + dx * ux + dy * vx, card.center[1] + dx * uy + dy * vy))
        seen = sum(
            1 for x, y in _project(view, points) if 0 <= x < w and 0 <= y < h and owner[int(y), int(x)] == k
        )
        if seen >= 0.85 * len(points):
            return True
    return False


def _indices(
    owner: np.ndarray, k: int, card: _Laid, height: float, view: np.ndarray, deck: DeckLook
) -> tuple[CardIndex, ...]:
    """The card's printed corner indices (top-left and bottom-right, and for a four-index deck top-right
    and bottom-left) as the camera sees them."""
    width = height * CARD_ASPECT
    t = math.radians(card.angle)
    ux, uy, vx, vy = math.cos(t), math.sin(t), -math.sin(t), math.cos(t)
    ix, iy = ART_INDEX_CENTRE
    copy = ART_INDEX[2] - ix  # the copied block's centre from its outer edge
    art = [(ix, iy, 1), (1 - ix, 1 - iy, -1)]  # (centre in the artwork, its up: 1 the card's, -1 turned)
    if deck.four_index:
        art += [(1 - copy, iy, 1), (copy, 1 - iy, -1)]
    h, w = owner.shape
    out = []
    for ax, ay, up in art:
        a0, b0 = _art_to_card(ax, ay, height, deck.margin)
        points = []
        for px in np.linspace(-0.06, 0.06, 4):  # the index's extent in its own frame (card shares)
            for py in np.linspace(-0.09, 0.09, 5):
                dx, dy = (a0 + up * px - 0.5) * width, (b0 + up * py - 0.5) * height
                points.append((card.center[0] + dx * ux + dy * vx, card.center[1] + dx * uy + dy * vy))
        dx, dy = (a0 - 0.5) * width, (b0 - 0.5) * height
        centre = _project(view, [(card.center[0] + dx * ux + dy * vx, card.center[1] + dx * uy + dy * vy)])[0]
        seen = _project(view, points)
        covered = sum(1 for x, y in seen if 0 <= x < w and 0 <= y < h and owner[int(y), int(x)] == k)
        out.append(CardIndex(centre, card.angle + (0.0 if up > 0 else 180.0), covered >= 0.85 * len(points)))
    return tuple(out)


def random_kalooki_melds(rng: random.Random, cards: int) -> list[list[Card]]:
    """Kalooki melds (runs of one suit, sets of one rank, now and then a joker in them) until the table
    holds about ``cards`` cards; no card more than twice (two decks)."""
    melds: list[list[Card]] = []
    used: dict[Card, int] = {}
    jokers = 0
    while sum(map(len, melds)) < cards:
        if rng.random() < 0.5:
            suit, first = rng.choice(SUITS), rng.randint(1, 10)
            length = rng.randint(3, min(6, 14 - first))
            meld = [Card(r, suit) for r in range(first, first + length)]
        else:
            rank = rng.randint(1, 13)
            meld = [Card(rank, s) for s in rng.sample(SUITS, rng.choice((3, 4)))]
        if jokers < 2 and rng.random() < 0.25:
            meld[rng.randrange(len(meld))] = JOKER
            jokers += 1
        if any(used.get(c, 0) >= 2 for c in meld if not c.is_joker):
            continue
        for c in meld:
            used[c] = used.get(c, 0) + 1
        melds.append(meld)
    return melds


def bench_card_table(n: int, seed: int = 1000) -> tuple[np.ndarray, CardTableTruth]:
    """Table ``n`` of the benchmark: 1920×1080, about 40 cards in fanned melds and a stock, 150 px cards,
    any background and light. The same for the same arguments."""
    picker = random.Random(seed * 7919 + n)
    count = 40
    while True:
        melds = random_kalooki_melds(picker, count)
        try:
            return render_card_table(
                melds, seed=seed + n, size=(1920, 1080), card_height=150.0, backs=3, spread=(0.26, 0.4)
            )
        except ValueError:
            count -= 3


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Pack the card artwork into vision/data/card_faces.jpg")
    parser.add_argument("--atlas", type=Path, required=True, help="the folder of the artwork's PNGs")
    args = parser.parse_args(argv)
    build_atlas(args.atlas)
    print(f"wrote {ATLAS}")


if __name__ == "__main__":
    main()
