"""Labelled photo folders in the shared dataset layout, and the fixed split used to develop the readers.

A folder holds ``ground_truth.csv`` (``split,image,width,height,n_objects,objects[,sum]``; ``image`` is
relative to the folder) and YOLO labels beside each ``images/`` folder (``.../labels/NAME.txt``, one line
per object, normalised: a box ``class cx cy w h`` or a polygon ``class x1 y1 x2 y2 x3 y3 …``; for dice
``class = pips - 1``). A ``data.yaml`` beside the CSV may name the classes (``names:`` then one
``- name`` line per class, in class order): each box then carries its class name too. A label line of
any other shape is an error naming the file and line, never dropped.

The development split is decided by the photo's *scene* — the table it was taken at and the session it
belongs to — never by the single file: photos of one layout, one table or one session are all in one
split, so no ``val`` photo shares its layout or table with a photo a reader learned from (``scene_of``
reads the scene from the file name; ``SCENE_SPLITS`` says which split each scene is in). It is the same
on every machine and never depends on the order of the CSV:

>>> split_of("train/images/rummy3-12_jpeg.rf.0162f8cd.jpg"), scene_of("rummy4-88_jpeg.rf.1ce3.jpg")
('calib', 'rummikub-white-racks')
>>> scene_of("IMG_20220316_160713_0457a3c6.jpg"), split_of("IMG_20220316_162700_0457a3c6.jpg")
('cards-hearts-mid', 'val')
"""

from __future__ import annotations

import csv
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Split = Literal["fit", "calib", "val"]
SPLITS: tuple[Split, ...] = ("fit", "calib", "val")
TABLE_COLUMNS = ("image", "width", "height", "objects")  # what ground_truth.csv needs (split is ours)

# The scenes of the shared photo sets (looked at photo by photo; docs/data.md describes each) and their
# split. "val" is never trained or tuned on; "calib" fixes the classifier's temperature and the
# confidence threshold; both are scenes "fit" does not hold.
SCENE_SPLITS: dict[str, Split] = {
    # rummikub-tiles: five tables. rummy-N and rummy2-N are one walnut table (two sessions).
    "rummikub-walnut": "fit",
    "rummikub-fabric": "fit",  # rummy4-21..85: grey striped fabric, tables and single tiles
    "rummikub-backgrounds": "fit",  # rummyBackground-N: empty tables
    "rummikub-marble": "calib",  # rummy3-N: racks and loose tiles on white marble
    "rummikub-grey": "val",  # rummy4-2..20: loose melds on a plain grey-blue table
    "rummikub-white-racks": "val",  # rummy4-86..90: racks on a white table
    # dice-tray: two sessions a day apart, other dice on the second day; the second day is halved in
    # time (its white board is also in the first day's photos: the set has no second table).
    "dice-tray-day1": "fit",
    "dice-tray-day2-early": "calib",
    "dice-tray-day2-late": "val",
    # dice-webcam: one wooden table, six sessions (the file prefix, one per number of dice).
    "dice-webcam-dice": "fit",
    "dice-webcam-two": "fit",
    "dice-webcam-four": "fit",
    "dice-webcam-six": "fit",
    "dice-webcam-three": "calib",
    "dice-webcam-five": "val",
    # playing-cards: one day, thirteen sessions, each one same-suit run of cards photographed on many
    # surfaces (white table, cloth, quilt, keyboard, chair, glass) -- the surfaces recur in every session,
    # so the scene is the session: its hour of light and its cards. The held-out sessions' cards are
    # never seen in a fit photo; their ranks and suits are (in other sessions), and the renderer draws
    # every card.
    "cards-spades-low": "fit",
    "cards-spades-mid": "calib",
    "cards-spades-high": "fit",
    "cards-hearts-low": "fit",
    "cards-hearts-mid": "fit",
    "cards-hearts-high": "val",
    "cards-diamonds-low": "val",
    "cards-diamonds-mid": "fit",
    "cards-diamonds-high": "calib",
    "cards-clubs-low": "fit",
    "cards-clubs-mid": "val",
    "cards-clubs-high": "fit",
}
# playing-cards: the clock time (IMG_20220316_HHMMSS) each session starts at; the 5H-8H session was
# taken in two sittings (14:44 and 16:06), one scene.
CARD_SESSIONS: tuple[tuple[str, str], ...] = (
    ("134500", "cards-spades-low"),
    ("140200", "cards-spades-mid"),
    ("141400", "cards-spades-high"),
    ("142500", "cards-hearts-low"),
    ("144400", "cards-hearts-mid"),
    ("161000", "cards-hearts-high"),
    ("162600", "cards-diamonds-low"),
    ("163700", "cards-diamonds-mid"),
    ("165000", "cards-diamonds-high"),
    ("170500", "cards-clubs-low"),
    ("171500", "cards-clubs-mid"),
    ("172300", "cards-clubs-high"),
)

# Photos of no known scene (a new folder) fall back to a hash of the file name, in these shares.
VAL_PERCENT = 24
CALIB_PERCENT = 15
DAY2_SPLIT_AT = "100200"  # dice-tray: the second day's shots before this time are "early"


def scene_of(image: str) -> str | None:
    """The scene of a shared photo from its file name, or ``None`` for a photo of no known set."""
    name = Path(image).name
    if match := re.match(r"rummy(\d*|Background)-(\d+)_", name):
        session, number = match.group(1), int(match.group(2))
        if session in ("", "2"):
            return "rummikub-walnut"
        if session == "3":
            return "rummikub-marble"
        if session == "Background":
            return "rummikub-backgrounds"
        if session == "4":
            if number <= 20:
                return "rummikub-grey"
            return "rummikub-fabric" if number <= 85 else "rummikub-white-racks"
        return None
    if match := re.match(r"IMG_20220316_(\d{6})_[0-9a-f]{8}\.", name):
        clock = match.group(1)
        if clock < CARD_SESSIONS[0][0]:
            return None
        return [scene for start, scene in CARD_SESSIONS if start <= clock][-1]
    if match := re.match(r"IMG_(\d{8})_(\d{6})\.", name):
        day, clock = match.groups()
        if day == "20191208":
            return "dice-tray-day1"
        if day == "20191209":
            return "dice-tray-day2-early" if clock < DAY2_SPLIT_AT else "dice-tray-day2-late"
        return None
    if match := re.match(r"(dice|two|three|four|five|six)_?\d+\.", name):
        return f"dice-webcam-{match.group(1)}"
    return None


def split_of(image: str) -> Split:
    """The development split of an image: its scene's split, or for a photo of no known scene the MD5
    of its file name (not its folder)."""
    scene = scene_of(image)
    if scene is not None:
        return SCENE_SPLITS[scene]
    bucket = int(hashlib.md5(Path(image).name.encode("utf-8")).hexdigest(), 16) % 100
    if bucket < VAL_PERCENT:
        return "val"
    if bucket < VAL_PERCENT + CALIB_PERCENT:
        return "calib"
    return "fit"


class LabelError(ValueError):
    """A label file line that is neither a box nor a polygon, or a class the class map does not name."""


@dataclass(frozen=True)
class LabelledBox:
    """One labelled object: class index, its axis-aligned box in pixels (centre x, centre y, width,
    height), the polygon it was drawn as (pixels; empty for a box label) and its class name when the
    folder names its classes."""

    cls: int
    cx: float
    cy: float
    w: float
    h: float
    polygon: tuple[tuple[float, float], ...] = ()
    name: str = ""


@dataclass(frozen=True)
class LabelledImage:
    """One row of ``ground_truth.csv``: the image path, its true values and (when present) its boxes."""

    path: Path
    width: int
    height: int
    objects: tuple[str, ...]
    boxes: tuple[LabelledBox, ...]

    @property
    def split(self) -> Split:
        return split_of(self.path.name)


def _label_path(image: Path) -> Path:
    parts = list(image.parts)
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] == "images":
            parts[i] = "labels"
            break
    return Path(*parts).with_suffix(".txt")


def read_class_names(folder: str | Path) -> tuple[str, ...]:
    """The class names of ``data.yaml`` in ``folder`` (its ``names:`` list), or ``()`` without one."""
    path = Path(folder) / "data.yaml"
    if not path.is_file():
        return ()
    names: list[str] = []
    inside = False
    for line in path.read_text().splitlines():
        if line.startswith("names:"):
            inside = True
            rest = line[len("names:") :].strip()
            if rest.startswith("["):  # the flow form: names: [a, b, c]
                return tuple(n.strip().strip("'\"") for n in rest.strip("[]").split(",") if n.strip())
            continue
        if inside:
            item = line.strip()
            if item.startswith("- "):
                names.append(item[2:].strip().strip("'\""))
            elif item and not line.startswith((" ", "\t")):
                break
    return tuple(names)


def parse_label_line(
    line: str, width: int, height: int, names: tuple[str, ...] = (), where: str = "label"
) -> LabelledBox:
    """One YOLO label line (box or polygon, normalised) as a box in pixels; ``LabelError`` names ``where``."""
    fields = line.split()
    try:
        cls = int(fields[0])
        values = [float(f) for f in fields[1:]]
    except (ValueError, IndexError):
        raise LabelError(f"{where}: not a label line: {line!r}") from None
    if names and not 0 <= cls < len(names):
        raise LabelError(f"{where}: class {cls} is not one of the {len(names)} named classes")
    name = names[cls] if names else ""
    if len(values) == 4:
        cx, cy, w, h = values
        return LabelledBox(cls, cx * width, cy * height, w * width, h * height, name=name)
    if len(values) >= 6 and len(values) % 2 == 0:
        points = tuple((x * width, y * height) for x, y in zip(values[::2], values[1::2], strict=True))
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        return LabelledBox(cls, (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, points, name)
    raise LabelError(
        f"{where}: {len(values)} numbers after the class; a box has 4, a polygon an even number ≥ 6"
    )


def _read_boxes(image: Path, width: int, height: int, names: tuple[str, ...]) -> tuple[LabelledBox, ...]:
    label = _label_path(image)
    if not label.is_file():
        return ()
    boxes = []
    for number, line in enumerate(label.read_text().splitlines(), 1):
        if line.strip():
            boxes.append(parse_label_line(line, width, height, names, f"{label}:{number}"))
    return tuple(boxes)


def load_folder(folder: str | Path, split: Split | Literal["all"] = "all") -> list[LabelledImage]:
    """Every labelled image of a dataset folder, optionally only those of one development split.

    Raises ``FileNotFoundError`` naming the folder when it does not exist or has no
    ``ground_truth.csv``, and ``LabelError`` naming the file (and line) of a table without the columns
    it needs or a bad row, or of a label that is neither a box nor a polygon.
    """
    root = Path(folder)
    if not root.exists():
        raise FileNotFoundError(f"{root}: no such folder")
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: not a folder")
    table = root / "ground_truth.csv"
    if not table.is_file():
        raise FileNotFoundError(f"{root}: no ground_truth.csv")
    names = read_class_names(root)
    images = []
    with table.open(newline="", encoding="utf-8") as handle:
        rows = csv.DictReader(handle)
        missing = [c for c in TABLE_COLUMNS if c not in (rows.fieldnames or ())]
        if missing:
            raise LabelError(
                f"{table}: no column {', '.join(missing)} (the shared layout's columns: "
                "split,image,width,height,n_objects,objects)"
            )
        for number, row in enumerate(rows, 2):
            if not row["image"]:
                raise LabelError(f"{table}:{number}: no image")
            path = root / row["image"]
            try:
                width, height = int(row["width"]), int(row["height"])
            except (TypeError, ValueError):
                raise LabelError(
                    f"{table}:{number}: width and height must be whole numbers, got "
                    f"{row['width']!r} and {row['height']!r}"
                ) from None
            image = LabelledImage(
                path=path,
                width=width,
                height=height,
                objects=tuple((row["objects"] or "").split()),
                boxes=_read_boxes(path, width, height, names),
            )
            if split == "all" or image.split == split:
                images.append(image)
    return images
