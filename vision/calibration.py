"""The play area seen by the camera: four printed ArUco markers -> a homography -> a top-down view.

Markers come from ``DICTIONARY`` (OpenCV's 4×4_50 ArUco set); ids 0, 1, 2, 3 sit at the play area's
top-left, top-right, bottom-right and bottom-left corners, and the play area is the quadrilateral of the
four marker centres. The top-down view keeps roughly the camera's resolution: its size is the mean
length of the quadrilateral's opposite sides. The *hold zone* is a rectangle of the top-down view where
players put the dice they keep. Zones are named (``zones``: ``{"hold": …}`` for the dice games, none for
a Rummikub table, ``rack`` at a learning table, ``stock`` and ``discard`` for a card table:
``named_zones``, see ``vision.card_zones`` and ``vision.tile_zones``; :meth:`Calibration.with_zones` adds a
game's zones at their places where the calibration has none), so a game asks for the zones it uses and
the screen labels them.

>>> c = Calibration.identity((640, 480), hold_zone=HoldZone(0, 400, 640, 480))
>>> c.in_hold_zone((10, 420)), c.in_hold_zone((10, 10))
(True, False)
>>> list(c.zones), c.zone_at((10, 420)), c.zone_at((10, 10))
(['hold'], 'hold', None)
>>> Calibration.from_json(c.to_json()) == c
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.frame import check_frame

DICTIONARY = cv2.aruco.DICT_4X4_50
HOLD = "hold"  # the name of the dice games' hold zone
CORNER_IDS = (0, 1, 2, 3)

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]


@dataclass(frozen=True)
class HoldZone:
    """A rectangle of the play area (top-down pixels) where the players put the dice they keep.

    >>> zone = HoldZone.parse("0,400,640,480")
    >>> zone.contains((10, 420)), str(zone)
    (True, '0,400,640,480')
    """

    x0: float
    y0: float
    x1: float
    y1: float

    def __post_init__(self) -> None:
        if not (self.x0 < self.x1 and self.y0 < self.y1):
            raise ValueError(f"hold zone needs x0 < x1 and y0 < y1; got {self}")

    def contains(self, point: tuple[float, float]) -> bool:
        return self.x0 <= point[0] <= self.x1 and self.y0 <= point[1] <= self.y1

    def __str__(self) -> str:
        return ",".join(f"{v:g}" for v in (self.x0, self.y0, self.x1, self.y1))

    @classmethod
    def parse(cls, text: str) -> HoldZone:
        """``"x0,y0,x1,y1"``; raises ``ValueError`` naming the text when it is not four numbers."""
        try:
            x0, y0, x1, y1 = (float(v) for v in text.split(","))
        except ValueError as exc:
            raise ValueError(f"hold zone must be 'x0,y0,x1,y1'; got {text!r}") from exc
        return cls(x0, y0, x1, y1)


class CalibrationError(ValueError):
    """The markers could not be found or make no usable play area; the message says which."""


def _matrix(m: np.ndarray) -> Matrix:
    rows = [tuple(float(v) for v in row) for row in np.asarray(m, np.float64).reshape(3, 3)]
    return (rows[0], rows[1], rows[2])  # type: ignore[return-value]


@dataclass(frozen=True)
class Calibration:
    """Homography frame -> play area, the play area's size in pixels and the hold zone in it."""

    homography: Matrix
    play_size: tuple[int, int]
    hold_zone: HoldZone | None = None
    named_zones: tuple[tuple[str, HoldZone], ...] = ()  # other zones by name (a card table's piles)

    @classmethod
    def identity(cls, play_size: tuple[int, int], hold_zone: HoldZone | None = None) -> Calibration:
        """A calibration for a camera that already looks straight down at exactly the play area."""
        return cls(_matrix(np.eye(3)), play_size, hold_zone)

    @classmethod
    def from_markers(
        cls, frame: np.ndarray, hold_fraction: tuple[float, float, float, float] | None = (0.0, 0.8, 1.0, 1.0)
    ) -> Calibration:
        """Find the four markers in ``frame`` and build the calibration.

        ``hold_fraction`` is the hold zone as fractions of the play area's width and height (default:
        its bottom fifth); ``None`` for no hold zone. Raises ``CalibrationError`` naming missing markers.
        """
        centres = find_markers(frame)
        missing = [i for i in CORNER_IDS if i not in centres]
        if missing:
            raise CalibrationError(f"markers {missing} not found (need ids 0-3 at the play area's corners)")
        tl, tr, br, bl = (centres[i] for i in CORNER_IDS)
        width = round((np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2)
        height = round((np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2)
        if width < 32 or height < 32:
            raise CalibrationError(f"play area too small in the frame ({width}×{height} px)")
        target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        source = np.array([tl, tr, br, bl], np.float32)
        homography = cv2.getPerspectiveTransform(source, target)
        hold = None
        if hold_fraction is not None:
            fx0, fy0, fx1, fy1 = hold_fraction
            hold = HoldZone(fx0 * width, fy0 * height, fx1 * width, fy1 * height)
        return cls(_matrix(homography), (int(width), int(height)), hold)

    def rectify(self, frame: np.ndarray) -> np.ndarray:
        """The top-down view of the play area."""
        return cv2.warpPerspective(
            frame,
            np.array(self.homography),
            self.play_size,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )

    @property
    def zones(self) -> dict[str, HoldZone]:
        """The named zones of the play area (top-down pixels)."""
        zones = {} if self.hold_zone is None else {HOLD: self.hold_zone}
        return {**zones, **dict(self.named_zones)}

    def zone_at(self, point: tuple[float, float], names: Iterable[str] | None = None) -> str | None:
        """The name of the zone a play-area point lies in (of ``names`` only, in their order: a game's
        own zones — a dice table's hold zone may overlap a card table's piles), or ``None``."""
        zones = self.zones
        order = zones if names is None else [name for name in names if name in zones]
        return next((name for name in order if zones[name].contains(point)), None)

    def frame_zone(self, point: tuple[float, float], names: Iterable[str] | None = None) -> str | None:
        """:meth:`zone_at` for a point of the camera frame (through the homography)."""
        pts = np.array([[point]], np.float64)
        play = cv2.perspectiveTransform(pts, np.array(self.homography))[0][0]
        return self.zone_at((float(play[0]), float(play[1])), names)

    def with_zones(self, fractions: Mapping[str, tuple[float, float, float, float]]) -> Calibration:
        """This calibration with the zones of ``fractions`` (name -> ``(x0, y0, x1, y1)`` as shares of
        the play area's width and height) it does not have yet: its own where it has them.

        >>> c = Calibration.identity((1000, 500)).with_zones({"rack": (0.0, 0.8, 1.0, 1.0)})
        >>> str(c.zones["rack"]), c.with_zones({"rack": (0.0, 0.0, 0.5, 0.5)}) == c
        ('0,400,1000,500', True)
        """
        have = self.zones
        width, height = self.play_size
        added = tuple(
            (name, HoldZone(fx0 * width, fy0 * height, fx1 * width, fy1 * height))
            for name, (fx0, fy0, fx1, fy1) in fractions.items()
            if name not in have
        )
        return replace(self, named_zones=(*self.named_zones, *added)) if added else self

    def zone_corners(self, name: str) -> tuple[tuple[float, float], ...] | None:
        """The corners of the named zone in frame pixels (where the camera panel draws it)."""
        zone = self.zones.get(name)
        if zone is None:
            return None
        corners = ((zone.x0, zone.y0), (zone.x1, zone.y0), (zone.x1, zone.y1), (zone.x0, zone.y1))
        return tuple(self.to_frame(corner)[0] for corner in corners)

    def in_hold_zone(self, point: tuple[float, float]) -> bool:
        """Whether a point of the play area (top-down pixels) lies in the hold zone."""
        return self.hold_zone is not None and self.hold_zone.contains(point)

    def to_frame(self, point: tuple[float, float], size: float = 0.0) -> tuple[tuple[float, float], float]:
        """A play-area point (and a length there) in frame pixels."""
        inverse = np.linalg.inv(np.array(self.homography))
        pts = np.array([[point, (point[0] + size, point[1])]], np.float64)
        (p, q) = cv2.perspectiveTransform(pts, inverse)[0]
        return (float(p[0]), float(p[1])), float(np.linalg.norm(q - p))

    def to_json(self) -> str:
        zone = None if self.hold_zone is None else str(self.hold_zone)
        data: dict[str, object] = {
            "homography": self.homography,
            "play_size": self.play_size,
            "hold_zone": zone,
        }
        if self.named_zones:
            data["zones"] = {name: str(z) for name, z in self.named_zones}
        return json.dumps(data, indent=2)

    @classmethod
    def from_json(cls, text: str) -> Calibration:
        """Parse ``to_json``'s text; raises ``CalibrationError`` naming a missing or malformed field."""
        try:
            data = json.loads(text)
            homography = _matrix(np.array(data["homography"], np.float64))
            width, height = (int(v) for v in data["play_size"])
            hold = data.get("hold_zone")
            zone = None if hold is None else HoldZone.parse(str(hold))
            named = tuple((str(k), HoldZone.parse(str(v))) for k, v in dict(data.get("zones") or {}).items())
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"not a calibration: {exc}") from exc
        return cls(homography, (width, height), zone, named)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        return cls.from_json(Path(path).read_text())


def find_markers(frame: np.ndarray) -> dict[int, np.ndarray]:
    """Centre (x, y) of every corner marker found in the frame, by id."""
    check_frame(frame)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY))
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        if int(marker_id) in CORNER_IDS:
            found[int(marker_id)] = quad.reshape(4, 2).mean(axis=0).astype(np.float64)
    return found


def marker_image(marker_id: int, side: int) -> np.ndarray:
    """One marker as a ``side``×``side`` grey image (black on white, no quiet zone)."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    return cv2.aruco.generateImageMarker(dictionary, marker_id, side)
