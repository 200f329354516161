"""What the screens know of the camera: the latest :class:`CameraView` (a small RGB preview and what
was recognised on it, for any game) and the :class:`CameraFeed` that gives it. No OpenCV here: the
vision worker (``device.vision_worker``) makes the views in its thread, the screens only draw them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

import numpy as np

from vision.observation import MarksUnsure, Observation
from vision.settle import Reader

__all__ = ["CameraFeed", "CameraView", "GameReader", "TrackState", "ViewItem", "ViewZone", "view_items"]

TrackState = Literal["rolling", "settled", "empty"]
O_co = TypeVar("O_co", bound=Observation, covariant=True)


@dataclass(frozen=True)
class GameReader(Generic[O_co]):
    """A game's reader (``GameSession.reader``): frame (+ calibration) -> its observation, the named
    calibration zones it uses (the dice: the hold zone), and how readings of several frames of a
    still scene are put to the vote (``vision.tile_vote.vote_tiles``; ``None``: the last one counts)."""

    read: Reader[O_co]
    zones: tuple[str, ...] = field(default=())
    # Any: the reader's own observations (a covariant type may not be a parameter's)
    vote: Callable[[Sequence[Any]], O_co] | None = None


@dataclass(frozen=True)
class ViewItem:
    """One recognised item as the camera panel draws it: its text, place (frame pixels), zone, and
    whether the reader was unsure of it."""

    label: str
    center: tuple[float, float]
    size: float
    zone: str | None = None
    uncertain: bool = False


@dataclass(frozen=True)
class ViewZone:
    """A named zone of the calibration (``hold``) and its corners in frame pixels."""

    name: str
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class CameraView:
    image: np.ndarray  # RGB preview
    frame_size: tuple[int, int]  # (width, height) of the camera frame the positions refer to
    items: tuple[ViewItem, ...]
    zones: tuple[ViewZone, ...]
    state: TrackState  # the settle tracker's
    seq: int
    moving: bool = False  # things are moving (not only waiting for quiet frames on an unchanged table)
    observation: Observation | None = None  # the reading the items come from


def view_items(observation: Observation | None) -> tuple[ViewItem, ...]:
    """Any observation's items as the panel draws them; unsure ones marked."""
    if observation is None:
        return ()
    marks = observation.unsure_items if isinstance(observation, MarksUnsure) else observation.uncertain
    uncertain = set(marks)
    return tuple(
        ViewItem(
            item.label,
            (float(item.center[0]), float(item.center[1])),
            float(item.size),
            item.zone,
            i in uncertain,
        )
        for i, item in enumerate(observation.items)
    )


class CameraFeed(Protocol):
    """The camera as the app and the screens use it."""

    def view(self) -> CameraView | None:
        """The latest view, or ``None`` before the first frame."""

    def request(self, frames: int = 1) -> None:
        """Read the table now, settled or not; the reading arrives as ``Seen(kind="requested")``.
        ``frames`` > 1: the next frames are read too and put to the game reader's vote."""
