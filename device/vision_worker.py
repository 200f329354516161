"""The vision worker: a thread that reads camera frames, tells when the scene has settled, and posts
each settled reading (an empty table too) to the event queue as :class:`device.events.Seen`; a reading
asked for on demand (:meth:`VisionWorker.request`) is posted as ``Seen(kind="requested")`` — asked for
over several frames, the game reader's vote of them (``GameReader.vote``: the table decides what one
photo cannot).

It is generic over the game's observation: the tracker's reader (``read_dice``, ``read_tiles``, …) is
the session's (:class:`GameReader`, ``GameSession.reader``), and :class:`Vision` — the appliance's
camera — starts a worker for the reader of each game that begins. It also keeps the latest
:class:`device.camera_view.CameraView` for the screens to draw; the loop reads it without waiting, so a
slow reader never slows the screen. The camera is anything with ``latest() -> (frame, seq) | None``
(``drivers.camera.CameraChain``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

import cv2
import numpy as np

from device.camera_view import CameraView, GameReader, ViewZone, view_items
from device.events import Seen
from vision.calibration import Calibration
from vision.observation import Observation
from vision.settle import SettleTracker, TrackerStatus

__all__ = [
    "GAP_SECONDS",
    "PREVIEW_WIDTH",
    "FrameFeed",
    "GameReader",
    "SceneTracker",
    "Vision",
    "VisionWorker",
    "zones_of",
]

log = logging.getLogger(__name__)

PREVIEW_WIDTH = 480  # px: enough for the camera panel at 1920×1080, cheap to convert each frame
GAP_SECONDS = 1.0  # no new frame for this long: the camera lost frames, whatever moved is unknown
REQUEST_WAIT_SECONDS = 3.0  # a reading asked for while things move waits this long for a still scene
# Stopping waits for the frame being read: a process that exits while OpenCV works in this thread
# aborts ("terminate called without an active exception"), as it did on aarch64 under emulation, where
# one reading takes longer than the 2 s this used to wait; a slow Pi could meet the same.
STOP_WAIT_SECONDS = 60.0
O = TypeVar("O", bound=Observation)  # noqa: E741


class FrameFeed(Protocol):
    def latest(self) -> tuple[np.ndarray, int] | None: ...


class SceneTracker(Protocol[O]):
    """What the worker asks of its tracker (``vision.settle.SettleTracker``; a test's stand-in): what
    each frame shows (rolling, settled with the reading, empty), and a reading of one frame now."""

    def feed(self, frame: np.ndarray) -> TrackerStatus[O]: ...

    def read(self, frame: np.ndarray) -> O: ...


def zones_of(calibration: Calibration | None, names: tuple[str, ...]) -> tuple[ViewZone, ...]:
    """The named zones the calibration has, in frame pixels (where the camera panel draws them)."""
    if calibration is None:
        return ()
    zones = []
    for name in names:
        corners = calibration.zone_corners(name)
        if corners is not None:
            zones.append(ViewZone(name, corners))
    return tuple(zones)


class VisionWorker(Generic[O]):
    def __init__(
        self,
        camera: FrameFeed,
        tracker: SceneTracker[O],
        post: Callable[[Seen], None],
        *,
        calibration: Calibration | None = None,
        zones: tuple[str, ...] | None = None,
        interval: float = 0.02,
        clock: Callable[[], float] = time.monotonic,
        vote: Callable[[Sequence[O]], O] | None = None,
    ) -> None:
        """``zones``: the names of the calibration's zones to draw (``None``: every zone it has);
        ``vote``: how the readings of several frames are put to the vote (a request for more than one
        frame; ``None``: the last reading counts)."""
        self.camera = camera
        self.tracker = tracker
        self.post = post
        names = tuple(calibration.zones) if zones is None and calibration is not None else zones or ()
        self.zones = zones_of(calibration, names)
        self.interval = interval
        self._view: CameraView | None = None
        self._stop = threading.Event()
        self._requested = threading.Event()
        self._thread = threading.Thread(target=self._run, name="vision", daemon=True)
        self.clock = clock
        self._last_seq = -1
        self._last_state = "empty"
        self._last_frame_at: float | None = None
        self._gap = False  # frames were lost since the last settled reading
        self._moving = False
        self._request_since: float | None = None  # a request waiting for the scene to be still
        self._frames_wanted = 1  # how many frames the request reads (more than one: a vote)
        self._ballot: list[O] | None = None  # the readings of a vote so far
        self._ballot_seq = -1  # the frame its last reading came from
        self.vote: Callable[[Sequence[O]], O] | None = vote

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=STOP_WAIT_SECONDS)
            if self._thread.is_alive():
                log.warning("vision worker: still reading %g s after stop", STOP_WAIT_SECONDS)

    def view(self) -> CameraView | None:
        return self._view

    def settled_since(self, seq: int) -> bool:
        """Whether a frame newer than ``seq`` has been read to a settled (or empty) scene, its reading
        posted: the table as it lay when the camera took frame ``seq`` is known to the app."""
        view = self._view
        return view is not None and view.seq > seq and view.state in ("settled", "empty")

    def request(self, frames: int = 1) -> None:
        """Read the table and post it as a requested reading: at once when the scene is still (or
        empty), else as soon as it settles, or after :data:`REQUEST_WAIT_SECONDS` as it then is.
        ``frames`` > 1: that frame and the next ``frames - 1`` new ones are read and the reading posted
        is their vote (the table decides what one photo cannot)."""
        self._frames_wanted = max(1, frames)
        self._requested.set()

    def _collect(self, frame: np.ndarray, seq: int) -> None:
        """One frame's reading for the request; once it has them all, the requested reading posted."""
        if self._ballot is None:
            self._ballot = []
        self._ballot.append(self.tracker.read(frame))
        self._ballot_seq = seq
        if len(self._ballot) < self._frames_wanted:
            return
        ballot, self._ballot = self._ballot, None
        reading = self.vote(ballot) if self.vote is not None and len(ballot) > 1 else ballot[-1]
        self.post(Seen(reading, kind="requested"))

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
        if self._requested.is_set():
            now = self.clock()
            if self._request_since is None:
                self._request_since = now
            if self._last_state != "rolling" or now - self._request_since > REQUEST_WAIT_SECONDS:
                self._requested.clear()
                self._request_since = None
                self._ballot = None
                self._collect(frame, seq)
        elif self._ballot is not None and seq != self._ballot_seq:
            self._collect(frame, seq)  # the next frame of a vote
        if seq == self._last_seq:
            return False
        # The time from the end of the previous frame's work to this frame: the camera's stall, not ours.
        if self._last_frame_at is not None and self.clock() - self._last_frame_at > GAP_SECONDS:
            self._gap = True
        first = self._last_seq < 0
        self._last_seq = seq
        status = self.tracker.feed(frame)
        state = status.state
        if state != "rolling":
            self._moving = False
        elif not first and self._last_state != "rolling":
            # Motion after a settled (or empty) table; the quiet frames after it still count as moving.
            self._moving = True
        observation = status.observation
        height, width = frame.shape[:2]
        scale = PREVIEW_WIDTH / width
        preview = cv2.resize(
            frame, (PREVIEW_WIDTH, max(1, round(height * scale))), interpolation=cv2.INTER_AREA
        )
        view = CameraView(
            image=cv2.cvtColor(preview, cv2.COLOR_BGR2RGB),
            frame_size=(width, height),
            items=view_items(observation),
            zones=self.zones,
            state=state,
            seq=seq,
            moving=self._moving,
            observation=observation,
        )
        if state in ("settled", "empty") and state != self._last_state and observation is not None:
            self.post(Seen(observation, gap=self._gap))
            self._gap = False
            if self._requested.is_set():  # the reading asked for while things moved: the still scene
                self._requested.clear()
                self._request_since = None
                if self._frames_wanted > 1:
                    self._ballot = [observation]
                    self._ballot_seq = seq
                else:
                    self.post(Seen(observation, kind="requested"))
        # The view after the reading it shows is posted: whoever sees it settled (a script's wait) knows
        # that the reading is already in the queue.
        self._view = view
        self._last_state = state
        self._last_frame_at = self.clock()
        return True


class Vision:
    """The appliance's camera: one frame feed, and a worker for the reader of the game being played
    (:meth:`use`, called by the app when a game starts or resumes)."""

    def __init__(
        self,
        camera: FrameFeed,
        post: Callable[[Seen], None],
        *,
        calibration: Calibration | None = None,
        reader: GameReader[Observation] | None = None,
        threaded: bool = True,
    ) -> None:
        """``threaded`` false: no thread reads the frames; whoever owns the camera calls
        :meth:`process_latest` (a test's loop, frame by frame, the same work in the same order)."""
        self.camera = camera
        self.post = post
        self.calibration = calibration
        self.threaded = threaded
        self.reader: object = None
        self._worker: VisionWorker[Observation] | None = None
        if reader is not None:
            self.use(reader)

    def use(self, reader: GameReader[O] | None) -> None:
        """Read with ``reader`` from now on (``None``: the game has no reader; the preview goes on). A
        new reader starts from a fresh tracker: until it settles there is no view."""
        if reader is self.reader and self._worker is not None:
            return
        self.stop()
        self.reader = reader
        chosen: GameReader[Observation] = reader if reader is not None else GameReader(_no_reading)
        tracker = SettleTracker(calibration=self.calibration, reader=chosen.read)
        self._worker = VisionWorker(
            self.camera,
            tracker,
            self.post,
            calibration=self.calibration,
            zones=chosen.zones,
            vote=chosen.vote,
        )
        if self.threaded:
            self._worker.start()

    def process_latest(self) -> bool:
        """Read the newest frame now (a camera without a thread); whether there was a new one."""
        return self._worker is not None and self._worker.process_latest()

    def view(self) -> CameraView | None:
        return self._worker.view() if self._worker is not None else None

    def newest_seq(self) -> int:
        """The sequence number of the camera's newest frame (0 before the first)."""
        latest = self.camera.latest()
        return 0 if latest is None else latest[1]

    def settled_since(self, seq: int) -> bool:
        """Whether the current reader has settled on a frame newer than ``seq`` (see the worker's)."""
        return self._worker is not None and self._worker.settled_since(seq)

    def request(self, frames: int = 1) -> None:
        if self._worker is not None:
            self._worker.request(frames)

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.stop()
            self._worker = None


@dataclass(frozen=True)
class _Nothing:
    """The observation of a game without a reader: never any items."""

    items: tuple[()] = ()
    uncertain: tuple[int, ...] = ()
    empty: bool = True

    def same_as(self, other: _Nothing) -> bool:
        return True


def _no_reading(frame: np.ndarray, calibration: Calibration | None) -> _Nothing:
    return _Nothing()
