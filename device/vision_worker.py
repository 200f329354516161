"""The vision worker: a thread that reads camera frames, tells when the dice have settled, and posts
each settled reading (an empty tray too) to the event queue as :class:`device.events.DiceSeen`.

It also keeps the latest :class:`CameraView` (a small RGB preview plus what was recognised on it) for
the table screen to draw; the loop reads it without waiting, so a slow reader never slows the screen.
The camera is anything with ``latest() -> (frame, seq) | None`` (``drivers.camera.CameraChain``); the
tracker anything with ``feed(frame) -> status`` (``vision.SettleTracker``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from device.events import DiceSeen, SeenDie

__all__ = [
    "PREVIEW_WIDTH",
    "CameraView",
    "ViewDie",
    "VisionWorker",
    "reading_of_view",
    "seen_from_observation",
]

log = logging.getLogger(__name__)

PREVIEW_WIDTH = 480  # px: enough for the camera panel at 1920×1080, cheap to convert each frame
GAP_SECONDS = 1.0  # no new frame for this long: the camera lost frames, whatever moved is unknown


@dataclass(frozen=True)
class ViewDie:
    value: int | None
    center: tuple[float, float]  # frame pixels
    size: float
    held: bool
    uncertain: bool


@dataclass(frozen=True)
class CameraView:
    image: np.ndarray  # RGB preview, PREVIEW_WIDTH wide
    frame_size: tuple[int, int]  # (width, height) of the camera frame the dice positions refer to
    dice: tuple[ViewDie, ...]
    hold_zone: tuple[tuple[float, float], ...] | None  # its corners in frame pixels
    state: str  # the tracker's: rolling, settled, empty
    seq: int
    moving: bool = False  # the dice are moving (not only waiting for quiet frames on an unchanged tray)


def seen_from_observation(observation: Any, *, gap: bool = False) -> DiceSeen:
    """``vision.DiceObservation`` -> the device's :class:`DiceSeen` (dice in the reader's order, with
    their places, so the session can tell a throw from a hold)."""
    uncertain = set(getattr(observation, "uncertain", ()) or ())
    dice = tuple(
        SeenDie(
            value=None if die.value is None else int(die.value),
            held=bool(die.held),
            uncertain=i in uncertain or die.value is None,
            center=(float(die.center[0]), float(die.center[1])),
            size=float(die.size),
        )
        for i, die in enumerate(observation.dice)
    )
    return DiceSeen(dice, gap=gap)


def reading_of_view(view: CameraView) -> DiceSeen:
    """The table as the camera sees it now, as a reading: the settled dice with their places, or no dice
    when the tray is empty or the dice are moving. A new game takes it as the dice as they lie at its
    start (:meth:`device.app.App.start_game`), so that a throw right after Start is a roll."""
    if view.state != "settled":
        return DiceSeen(())
    return DiceSeen(
        tuple(
            SeenDie(
                d.value, held=d.held, uncertain=d.uncertain or d.value is None, center=d.center, size=d.size
            )
            for d in view.dice
        )
    )


def _view_dice(observation: Any) -> tuple[ViewDie, ...]:
    if observation is None:
        return ()
    uncertain = set(getattr(observation, "uncertain", ()) or ())
    return tuple(
        ViewDie(
            value=die.value,
            center=(float(die.center[0]), float(die.center[1])),
            size=float(die.size),
            held=bool(die.held),
            uncertain=i in uncertain,
        )
        for i, die in enumerate(observation.dice)
    )


def hold_zone_of(calibration: Any) -> tuple[tuple[float, float], ...] | None:
    """The corners of the calibration's hold zone (a rectangle of the top-down play area) in frame
    pixels, where the camera view draws it; ``None`` without a calibration or a hold zone."""
    zone = getattr(calibration, "hold_zone", None)
    if zone is None:
        return None
    corners = ((zone.x0, zone.y0), (zone.x1, zone.y0), (zone.x1, zone.y1), (zone.x0, zone.y1))
    return tuple(calibration.to_frame(corner)[0] for corner in corners)


class VisionWorker:
    def __init__(
        self,
        camera: Any,
        tracker: Any,
        post: Callable[[Any], None],
        *,
        calibration: Any = None,
        interval: float = 0.02,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.camera = camera
        self.tracker = tracker
        self.post = post
        self.hold_zone = hold_zone_of(calibration)
        self.interval = interval
        self._view: CameraView | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="vision", daemon=True)
        self.clock = clock
        self._last_seq = -1
        self._last_state = "empty"
        self._last_frame_at: float | None = None
        self._gap = False  # frames were lost since the last settled reading
        self._moving = False

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)

    def view(self) -> CameraView | None:
        return self._view

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if not self.process_latest():
                    self._stop.wait(self.interval)
            except Exception:  # a bad frame must not kill the worker
                log.exception("vision worker: frame skipped")
                self._stop.wait(self.interval)

    def process_latest(self) -> bool:
        """Read the newest frame if there is one; returns whether a frame was processed."""
        latest = self.camera.latest()
        if latest is None:
            return False
        frame, seq = latest
        if seq == self._last_seq:
            return False
        # The time from the end of the previous frame's work to this frame: the camera's stall, not ours.
        if self._last_frame_at is not None and self.clock() - self._last_frame_at > GAP_SECONDS:
            self._gap = True
        first = self._last_seq < 0
        self._last_seq = seq
        status = self.tracker.feed(frame)
        state = str(status.state)
        if state != "rolling":
            self._moving = False
        elif not first and self._last_state != "rolling":
            # Motion after a settled (or empty) tray; the quiet frames after it still count as moving.
            self._moving = True
        observation = getattr(status, "observation", None)
        height, width = frame.shape[:2]
        scale = PREVIEW_WIDTH / width
        preview = cv2.resize(
            frame, (PREVIEW_WIDTH, max(1, round(height * scale))), interpolation=cv2.INTER_AREA
        )
        self._view = CameraView(
            image=cv2.cvtColor(preview, cv2.COLOR_BGR2RGB),
            frame_size=(width, height),
            dice=_view_dice(observation),
            hold_zone=self.hold_zone,
            state=state,
            seq=seq,
            moving=self._moving,
        )
        if state in ("settled", "empty") and state != self._last_state and observation is not None:
            self.post(seen_from_observation(observation, gap=self._gap))
            self._gap = False
        self._last_state = state
        self._last_frame_at = self.clock()
        return True
