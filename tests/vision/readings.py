"""The readers' output on a fixed set of photos, as committed from x86-64 and compared on another CPU.

OpenCV's DNN module may pick other kernels on ARM (NEON instead of AVX) and sum in another order, so a
confidence or a centre may differ in its last digits; what the readers say must not. Every reader that
runs a net is read here, on photos committed or in the shared photo sets:

- the dice reader (``read_dice``): :data:`DICE_PHOTOS` from the shared photo sets;
- the tile reader (``read_tiles``): :data:`TILE_PHOTOS`, committed in ``tests/vision/data/melds``;
- the card reader (``read_cards``) and, on its own, its corner-index reader (``IndexReader.read``, at
  the card height ``read_cards`` gives it): :data:`CARD_PHOTOS` (real photos of the shared set's ``val``
  split, committed in ``tests/vision/data/cards``) and a rendered 1920x1080 Kalooki table;
- the Zatre board reader (``read_zatre``) and the loose-card reader (``read_loose_cards``): their only
  net is the dice reader's classifier, asked only where a half's pip count is unclear; a rendered board
  never is, so :data:`RENDERED` draws pen strokes across some halves of a rendered board and of rendered
  loose cards so that the classifier reads them.

The rendered frames are committed in ``tests/vision/data/rendered`` (JPEG; rendered once on x86-64 by
``bench/arch_reference.py --write`` when absent, so the renderers' own arithmetic is not compared).
The readings are kept in :data:`EXPECTED` with the digests of the nets that made them; :func:`differences`
compares two sets of readings within :data:`TOLERANCE`:

- exactly: how many items, each item's value (pips, tile, card, index, half), the melds, loose tiles
  and cards, which tiles the melds corrected, the halves' cells and cards, why an item is unsure (but for
  the holes a contour search counted in a half crossed by a stroke, which is not a net's), and
  which items are uncertain (unless the confidence lies within the confidence tolerance of the reader's
  threshold, where either side of it is the same reading);
- within the tolerance: centres, sizes, sides and boxes (px), angles (degrees, modulo the item's
  symmetry), confidences and detector heat.

Items are paired by their centres, not by their order. ``bench/arch_reference.py --write`` writes
:data:`EXPECTED` again (on x86-64, after the nets changed); ``make test-arm64`` compares on aarch64.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
DATASETS = Path(os.environ.get("REFEREE_DATASETS", REPO.parent / "shared" / "datasets"))
MELDS = Path(__file__).parent / "data" / "melds"
CARDS = Path(__file__).parent / "data" / "cards"
RENDERED_DIR = Path(__file__).parent / "data" / "rendered"
EXPECTED = Path(__file__).parent / "data" / "readings.json"
MODELS = REPO / "vision" / "models"
MODEL_FILES = (
    "dice_detector.onnx",
    "dice_classifier.onnx",
    "dice_classifier_2.onnx",
    "dice_reader.json",
    "tiles_detector.onnx",
    "tiles_classifier.onnx",
    "tiles_reader.json",
    "cards_detector.onnx",
    "cards_classifier.onnx",
    "cards_index_detector.onnx",
    "cards_index.onnx",
    "cards_suit.onnx",
    "cards_side.onnx",
    "cards_reader.json",
)
REGENERATE = ".venv/bin/python bench/arch_reference.py --write"

# Stated in docs/pi.md too: positions and sizes within 1 px, angles within 1°, confidences (and the
# detectors' heat) within 0.01; everything else exactly.
# "index confidence": a corner index's own reading, before any card is read from it ("pi" columns): its
# patch is cut by OpenCV's affine warp, whose ARM kernels round a pixel otherwise, and a patch read at
# middling certainty moves more than a card's confidence does (aarch64, session 8: a patch that is no
# index 0.784 -> 0.796, a 3D read at 0.62, at the same card height and place).
TOLERANCE = {"px": 1.0, "degrees": 1.0, "confidence": 0.01, "index confidence": 0.05}

# (shared photo set, image): two of each kind of dice photo, several dice to a photo.
DICE_PHOTOS = (
    ("dice-tray", "train/images/IMG_20191208_111904.jpg"),
    ("dice-tray", "train/images/IMG_20191209_095447.jpg"),
    ("dice-tray", "train/images/IMG_20191208_112251.jpg"),
    ("dice-webcam", "train/images/six_31.jpg"),
    ("dice-webcam", "train/images/five_35.jpg"),
    ("dice-webcam", "train/images/four_48.jpg"),
)
TILE_PHOTOS = ("melds-00.jpg", "melds-03.jpg", "melds-04.jpg", "melds-09.jpg", "melds-14.jpg", "melds-20.jpg")
# Real card photos of the val split: a run of five as a meld and a loose card, a run of four, and a run
# of four with a card misread (4H for 4D), 960x720.
CARD_PHOTOS = (
    "IMG_20220316_161235_f2102e21.jpg",
    "IMG_20220316_162747_816eaa3d.jpg",
    "IMG_20220316_162831_8ea3f786.jpg",
)

# What each reader's item holds, column by column: "label" (exact), "px …", "deg<period> …" (modulo the
# period), "p …" (a probability, within the confidence tolerance; "p confidence" is the one compared
# with the reader's threshold), "pi …" (a corner index's own reading, within the index confidence
# tolerance), "same …" (exact) and "why …" (why an item is unsure, exact but for the holes a
# contour search counted in a half crossed by a pen stroke: one pixel rounded otherwise by OpenCV's ARM
# kernels changes that count — aarch64 found 0 where x86-64 found 1, the half unsure on both and the
# classifier's 3 the same — and it is not a net's answer).
COLUMNS: dict[str, tuple[str, ...]] = {
    "dice": ("label", "px x", "px y", "px size", "deg90 angle", "p confidence", "same held"),
    "tiles": ("label", "px x", "px y", "px long side", "px short side", "deg180 angle", "p confidence"),
    "cards": ("label", "px x", "px y", "px width", "px height", "deg90 angle", "p confidence"),
    "card indices": ("label", "px x", "px y", "px card height", "deg360 angle", "pi confidence", "p heat"),
    "zatre": ("label", "px x", "px y", "px size", "p confidence", "same cell", "same placed", "why reason"),
    "zatre loose": ("label", "px x", "px y", "px size", "p confidence", "why reason"),
}


def models_digest() -> dict[str, str]:
    return {name: hashlib.sha256((MODELS / name).read_bytes()).hexdigest() for name in MODEL_FILES}


def _photo(path: Path) -> tuple[np.ndarray, str]:
    data = path.read_bytes()
    frame = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        raise ValueError(f"{path}: not a readable image")
    return frame, hashlib.sha256(data).hexdigest()


def dice_photos_present() -> bool:
    return all((DATASETS / name / image).is_file() for name, image in DICE_PHOTOS)


# --- the rendered frames -------------------------------------------------------------------------------


def _pen_strokes(
    frame: np.ndarray, halves: list[tuple[tuple[float, float], float]], seed: int, n: int
) -> None:
    """Dark strokes across ``n`` of the halves (centre, side): the pip count there is unclear, so the
    dice classifier reads the half."""
    rng = np.random.default_rng(seed)
    for k in rng.choice(len(halves), n, replace=False):
        (x, y), side = halves[k]
        turn = rng.uniform(0, np.pi)
        dx, dy = np.cos(turn) * side * 0.3, np.sin(turn) * side * 0.3
        width = max(2, round(side * 0.08))
        cv2.line(frame, (round(x - dx), round(y - dy)), (round(x + dx), round(y + dy)), (40, 40, 40), width)


def render_card_table() -> np.ndarray:
    """The card reader's benchmark table 0 (``bench_card_table``: 1920x1080, about 40 cards in fanned
    melds and a stock, seed 1000)."""
    from vision.cards_synth import bench_card_table

    return bench_card_table(0)[0]


def render_zatre_board() -> np.ndarray:
    """A round's 25-card board (the first of ``auto_play``'s game with seed 5000), 1280x720, seed 2,
    with strokes across 10 of its halves."""
    from rules.zatre import ZatreOptions, auto_play
    from vision.zatre import read_zatre
    from vision.zatre_synth import render_zatre_board as render

    state = auto_play(ZatreOptions(players=2, seed=5000))
    board = next(r.board.placements for r in state.rounds_played if len(r.board.placements) == 25)
    frame, _ = render(board, seed=2, hands=0, size=(1280, 720))
    _pen_strokes(frame, [(h.center, h.size) for h in read_zatre(frame).halves], 2, 10)
    return frame


def render_loose_cards() -> np.ndarray:
    """16 Zatre cards lying loose (0|0 … 2|3), 1280x720, seed 10, with strokes across 6 of them."""
    from rules.zatre.cards import Card
    from vision.zatre import read_loose_cards
    from vision.zatre_synth import render_loose_cards as render

    cards = [Card(a, b) for a in range(7) for b in range(a, 7)][:16]
    frame, _ = render(cards, seed=10, size=(1280, 720))
    _pen_strokes(frame, [(c.center, c.size / 2) for c in read_loose_cards(frame).cards], 10, 6)
    return frame


# name in tests/vision/data/rendered -> (reader, how it is rendered)
RENDERED: dict[str, tuple[str, Callable[[], np.ndarray]]] = {
    "cards-table.jpg": ("cards", render_card_table),
    "zatre-board.jpg": ("zatre", render_zatre_board),
    "zatre-loose.jpg": ("zatre loose", render_loose_cards),
}


def render_missing() -> list[Path]:
    """Render the frames of :data:`RENDERED` not yet in ``tests/vision/data/rendered`` (JPEG quality 85);
    the paths written."""
    written = []
    RENDERED_DIR.mkdir(parents=True, exist_ok=True)
    for name, (_, render) in RENDERED.items():
        path = RENDERED_DIR / name
        if not path.exists():
            ok, data = cv2.imencode(".jpg", render(), [cv2.IMWRITE_JPEG_QUALITY, 85])
            if not ok:
                raise ValueError(f"{name}: could not be encoded")
            path.write_bytes(data.tobytes())
            written.append(path)
    return written


# --- reading -------------------------------------------------------------------------------------------


def _read_cards(frame: np.ndarray) -> tuple[dict[str, Any], dict[str, Any]]:
    from vision.cards import RANKS, SUITS, default_models, read_cards

    seen = read_cards(frame)
    return {
        "reader": "cards",
        "items": [
            [
                c.label,
                c.center[0],
                c.center[1],
                c.box[2] - c.box[0],
                c.box[3] - c.box[1],
                c.angle,
                c.confidence,
            ]
            for c in seen.cards
        ],
        "uncertain": list(seen.uncertain),
        "melds": [list(m) for m in seen.melds],
        "loose": list(seen.loose),
        "backs": [list(b) for b in seen.backs],
    }, _read_indices(frame, default_models(), RANKS, SUITS)


def _read_indices(
    frame: np.ndarray, models: Any, ranks: tuple[str, ...], suits: tuple[str, ...]
) -> dict[str, Any]:
    """The corner-index reader on its own: every index it finds and reads, at the card height
    ``read_cards`` gives it (the median long side of the detected cards / 1.1)."""
    from vision.cards import JOKER_CLASS

    detections = models.detect(frame)
    items = []
    if models.index is not None and detections:
        card_height = float(np.median([max(d.width, d.height) for d in detections])) / 1.1
        for r in models.index.read(frame, card_height):
            rank = int(r.rank_p.argmax())
            suit = int(r.suit_p.argmax())
            name = ranks[rank] if rank <= JOKER_CLASS else "none"
            label = name + suits[suit] if rank < JOKER_CLASS else name
            p = float(r.rank_p[rank] * (r.suit_p[suit] if rank < JOKER_CLASS else 1.0))
            items.append([label, r.x, r.y, r.card_height, r.angle, p, r.score])
    return {"reader": "card indices", "items": items, "uncertain": []}


def _read_zatre(frame: np.ndarray) -> dict[str, Any]:
    from vision.zatre import read_zatre

    seen = read_zatre(frame)
    return {
        "reader": "zatre",
        "items": [
            [
                h.value,
                h.center[0],
                h.center[1],
                h.size,
                h.confidence,
                h.cell and list(h.cell),
                h.placed,
                h.reason,
            ]
            for h in seen.halves
        ],
        "uncertain": list(seen.uncertain),
        "partners": [[i, h.partner] for i, h in enumerate(seen.halves) if h.partner is not None],
        "grid": [seen.pitch, seen.angle],
    }


def _read_loose(frame: np.ndarray) -> dict[str, Any]:
    from vision.zatre import read_loose_cards

    seen = read_loose_cards(frame)
    return {
        "reader": "zatre loose",
        "items": [[c.label, c.center[0], c.center[1], c.size, c.confidence, c.reason] for c in seen.cards],
        "uncertain": list(seen.uncertain),
    }


def read_photos() -> dict[str, Any]:
    """This machine's readings of every photo, as JSON-ready data."""
    from vision import read_dice, read_tiles

    photos: dict[str, Any] = {}
    for name, image in DICE_PHOTOS:
        frame, digest = _photo(DATASETS / name / image)
        seen = read_dice(frame)
        photos[f"{name}/{image}"] = {
            "sha256": digest,
            "reader": "dice",
            "items": [
                [d.value, d.center[0], d.center[1], d.size, d.angle, d.confidence, d.held] for d in seen.dice
            ],
            "uncertain": list(seen.uncertain),
        }
    for image in TILE_PHOTOS:
        frame, digest = _photo(MELDS / image)
        table = read_tiles(frame)
        photos[f"melds/{image}"] = {
            "sha256": digest,
            "reader": "tiles",
            "items": [
                [str(t.tile), t.center[0], t.center[1], t.long_side, t.short_side, t.angle, t.confidence]
                for t in table.tiles
            ],
            "uncertain": list(table.uncertain),
            "melds": [list(m) for m in table.melds],
            "loose": list(table.loose),
            "corrected": list(table.corrected),
        }
    card_frames = [(f"cards/{image}", CARDS / image) for image in CARD_PHOTOS]
    card_frames += [
        (f"rendered/{n}", RENDERED_DIR / n) for n, (reader, _) in RENDERED.items() if reader == "cards"
    ]
    for key, path in card_frames:
        frame, digest = _photo(path)
        cards, indices = _read_cards(frame)
        photos[key] = {"sha256": digest, **cards}
        photos[f"{key} (indices)"] = {"sha256": digest, **indices}
    for name, (reader, _) in RENDERED.items():
        if reader != "cards":
            frame, digest = _photo(RENDERED_DIR / name)
            photos[f"rendered/{name}"] = {
                "sha256": digest,
                **(_read_zatre(frame) if reader == "zatre" else _read_loose(frame)),
            }
    return photos


def readings() -> dict[str, Any]:
    from vision.cards import default_models as card_models
    from vision.dice import default_models as dice_models
    from vision.tiles import default_models as tile_models

    return {
        "written_by": REGENERATE,
        "tolerance": TOLERANCE,
        "thresholds": {
            "dice": dice_models().confidence_threshold,
            "tiles": tile_models().confidence_threshold,
            "cards": card_models().confidence_threshold,
        },
        "models": models_digest(),
        "photos": read_photos(),
    }


def load_expected() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXPECTED.read_text(encoding="utf-8"))
    return data


# --- comparing -----------------------------------------------------------------------------------------


def _angle_gap(a: float, b: float, period: float) -> float:
    gap = abs(a - b) % period
    return min(gap, period - gap)


def _pairing(want: list[list[Any]], got: list[list[Any]]) -> list[int] | None:
    """For each expected item, the index of the found item nearest its centre (one-to-one), or None."""
    if len(want) != len(got):
        return None
    taken: set[int] = set()
    pairs = []
    for item in want:
        free = [j for j in range(len(got)) if j not in taken]
        j = min(free, key=lambda k: (got[k][1] - item[1]) ** 2 + (got[k][2] - item[2]) ** 2)
        taken.add(j)
        pairs.append(j)
    return pairs


def _why(reason: str | None) -> str | None:
    """Why an item is unsure, without the holes a contour search counted (``pips unclear (0 holes,
    classifier 3)`` → ``pips unclear (classifier 3)``): that count is classical image arithmetic on a
    half crossed by a stroke, not a net's answer, and one pixel rounded otherwise changes it."""
    return None if reason is None else re.sub(r"\d+ holes, ", "", reason)


def _item_differences(
    where: str, columns: tuple[str, ...], a: list[Any], b: list[Any], tolerance: dict[str, float]
) -> list[str]:
    out = []
    for k, column in enumerate(columns):
        kind, _, name = column.partition(" ")
        if kind == "label":
            if a[k] != b[k]:
                out.append(f"{where}: read as {b[k]}")
        elif kind == "px":
            if abs(a[k] - b[k]) > tolerance["px"]:
                out.append(f"{where}: {name} {b[k]:.2f} px, expected {a[k]:.2f}")
        elif kind.startswith("deg"):
            if _angle_gap(a[k], b[k], float(kind[3:])) > tolerance["degrees"]:
                out.append(f"{where}: {name} {b[k]:.2f}°, expected {a[k]:.2f}°")
        elif kind in ("p", "pi"):
            gap = tolerance["index confidence"] if kind == "pi" else tolerance["confidence"]
            if abs(a[k] - b[k]) > gap:
                out.append(f"{where}: {name} {b[k]:.4f}, expected {a[k]:.4f}")
        elif kind == "why":
            if _why(a[k]) != _why(b[k]):
                out.append(f"{where}: {name} {b[k]}, expected {a[k]}")
        elif a[k] != b[k]:
            out.append(f"{where}: {name} {b[k]}, expected {a[k]}")
    return out


def differences(expected: dict[str, Any], found: dict[str, Any]) -> list[str]:
    """Every difference between two sets of readings beyond :data:`TOLERANCE`, in words."""
    out: list[str] = []
    tolerance = expected["tolerance"]
    for photo, want in expected["photos"].items():
        got = found["photos"].get(photo)
        if got is None:
            out.append(f"{photo}: not read")
            continue
        if got["sha256"] != want["sha256"]:
            out.append(f"{photo}: another file than the one the readings were written from")
            continue
        pairs = _pairing(want["items"], got["items"])
        if pairs is None:
            out.append(f"{photo}: {len(got['items'])} items read, expected {len(want['items'])}")
            continue
        columns = COLUMNS[want["reader"]]
        threshold = expected["thresholds"].get(want["reader"])
        confidence = next(k for k, c in enumerate(columns) if c.endswith(" confidence"))
        for i, j in enumerate(pairs):
            a, b = want["items"][i], got["items"][j]
            where = f"{photo} item {i} ({a[0]})"
            out += _item_differences(where, columns, a, b, tolerance)
            near = threshold is not None and abs(a[confidence] - threshold) <= tolerance["confidence"]
            if (i in want["uncertain"]) != (j in got["uncertain"]) and not near:
                out.append(f"{where}: uncertain {j in got['uncertain']}, expected {i in want['uncertain']}")
        for key in ("melds", "loose", "corrected", "partners"):
            if key not in want:
                continue
            if key in ("melds", "partners"):
                mapped = {frozenset(pairs[i] for i in group) for group in want[key]}
                same = mapped == {frozenset(group) for group in got[key]}
            else:
                same = {pairs[i] for i in want[key]} == set(got[key])
            if not same:
                out.append(f"{photo}: {key} {got[key]}, expected {want[key]} (items paired by centre)")
        if "backs" in want:
            backs = _pairing([[None, *b] for b in want["backs"]], [[None, *b] for b in got["backs"]])
            if backs is None:
                out.append(f"{photo}: {len(got['backs'])} face-down cards, expected {len(want['backs'])}")
            else:
                for i, j in enumerate(backs):
                    (ax, ay), (bx, by) = want["backs"][i], got["backs"][j]
                    if max(abs(ax - bx), abs(ay - by)) > tolerance["px"]:
                        out.append(
                            f"{photo}: face-down card at ({bx:.2f}, {by:.2f}), expected ({ax:.2f}, {ay:.2f})"
                        )
        if "grid" in want:
            (a_pitch, a_angle), (b_pitch, b_angle) = want["grid"], got["grid"]
            if (
                abs(a_pitch - b_pitch) > tolerance["px"]
                or _angle_gap(a_angle, b_angle, 90.0) > tolerance["degrees"]
            ):
                got_grid, want_grid = (
                    f"{b_pitch:.2f} px at {b_angle:.2f}°",
                    f"{a_pitch:.2f} px at {a_angle:.2f}°",
                )
                out.append(f"{photo}: grid {got_grid}, expected {want_grid}")
    return out
