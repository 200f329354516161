"""Camera frames behind one interface, from a priority chain of sources.

Sources, named as in the config's ``camera.sources``:

- ``picamera2``: the Pi camera module (``python3-picamera2``, imported only when this source opens);
- ``usb:0`` or ``usb:/dev/video2``: a webcam through ``cv2.VideoCapture``;
- ``folder:/path``: replays the images of a folder (sorted by name, each held ``seconds_per_image``);
- ``synthetic``: frames from an injected callable (the device passes vision's scene renderer), or colour
  bars without one.

``CameraChain`` runs a capture thread on the first source that opens. If that source fails while
running, it posts ``CameraLost``, falls down the chain and retries with back-off; it posts ``CameraBack``
when frames flow again, and climbs back to a better source once it opens. ``latest()`` never blocks::

    cam = CameraChain(("picamera2", "usb:0", "synthetic"), 1280, 720, post=events.put)
    cam.start()
    got = cam.latest()          # None until the first frame, then (frame, sequence number)

Frames are BGR ``uint8`` arrays of shape (height, width, 3), shared between readers: do not modify them.
During an outage ``latest()`` keeps returning the last frame with its old sequence number, so a reader
that waits for a new number sees no new frames.

A read that hangs longer than ``stall_seconds`` is a lost camera too: the chain leaves that capture
thread to finish (or not) on its own, and carries on down the chain in a fresh one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from drivers.errors import CameraError
from drivers.events import CameraBack, CameraLost, guarded
from drivers.lifecycle import Closeable

CameraPost = Callable[[CameraLost | CameraBack], None]  # the cameras post their status

__all__ = [
    "CameraChain",
    "CameraError",
    "FolderSource",
    "FrameSource",
    "Picamera2Source",
    "SyntheticSource",
    "UsbSource",
    "colour_bars",
    "open_source",
]

log = logging.getLogger(__name__)

Frame = np.ndarray
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


class FrameSource(Protocol):
    """One opened camera. ``read()`` returns a frame, or ``None`` when there is none yet, and raises
    ``CameraError`` when the source has failed (``DriverClosed`` once it is closed). ``interval`` is the
    pause the chain makes between reads (0 for cameras whose reads wait for the next frame themselves).
    Every source here is a :class:`~drivers.lifecycle.Closeable` (``close()`` once, ``closed``, ``with``);
    the chain needs only ``read`` and ``close``."""

    name: str
    interval: float

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def colour_bars(width: int, height: int) -> Frame:
    """Eight vertical colour bars (white, yellow, cyan, green, magenta, red, blue, black)."""
    white, yellow, cyan, green = [255, 255, 255], [0, 255, 255], [255, 255, 0], [0, 255, 0]
    magenta, red, blue, black = [255, 0, 255], [0, 0, 255], [255, 0, 0], [0, 0, 0]
    bars = np.array([white, yellow, cyan, green, magenta, red, blue, black], dtype=np.uint8)
    columns = np.minimum(np.arange(width) * 8 // width, 7)
    frame = np.ascontiguousarray(np.broadcast_to(bars[columns], (height, width, 3)))
    frame.flags.writeable = False
    return frame


class SyntheticSource(Closeable):
    """Frames from ``render()`` (``None``: no frame this time), or colour bars without a renderer."""

    what = "the synthetic camera"

    def __init__(
        self, width: int, height: int, render: Callable[[], Frame | None] | None = None, interval: float = 0.1
    ) -> None:
        self.name = "synthetic"
        self.interval = interval
        self._render = render
        self._pattern = colour_bars(width, height) if render is None else None

    def read(self) -> Frame | None:
        self._check_open()
        if self._pattern is not None:
            return self._pattern
        assert self._render is not None
        try:
            return self._render()
        except Exception as exc:
            raise CameraError(f"synthetic: the renderer failed: {exc!r}") from exc


class FolderSource(Closeable):
    """Replays a folder of images in name order, each for ``seconds_per_image``, looping.

    Each image is read from disk when its turn comes, so a corrupt file is skipped (and logged) and a
    folder that disappears is a lost camera.
    """

    what = "the folder camera"

    def __init__(self, folder: str | Path, interval: float = 0.1, seconds_per_image: float = 2.0) -> None:
        self.folder = Path(folder)
        self.name = f"folder:{folder}"
        self.interval = interval
        self._reads_per_image = max(1, round(seconds_per_image / interval)) if interval > 0 else 1
        if not self.folder.is_dir():
            raise CameraError(f"{self.name}: not a folder")
        self._paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._paths:
            raise CameraError(f"{self.name}: no images ({', '.join(IMAGE_SUFFIXES)})")
        self._reads = 0
        self._frame: Frame | None = None

    def read(self) -> Frame | None:
        self._check_open()
        if self._reads % self._reads_per_image == 0 or self._frame is None:
            self._frame = self._load((self._reads // self._reads_per_image) % len(self._paths))
        self._reads += 1
        return self._frame

    def _load(self, index: int) -> Frame:
        while self._paths:
            path = self._paths[index % len(self._paths)]
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is not None:
                frame.flags.writeable = False
                return frame
            if not self.folder.is_dir():
                raise CameraError(f"{self.name}: the folder is gone")
            log.warning("%s: skipping %s: not a readable image", self.name, path.name)
            self._paths.remove(path)
        raise CameraError(f"{self.name}: no readable images left")


class UsbSource(Closeable):
    """A webcam through ``cv2.VideoCapture`` (V4L2): ``usb:0`` by index, ``usb:/dev/video2`` by path."""

    what = "the webcam"

    def __init__(self, device: str, width: int, height: int) -> None:
        self.name = f"usb:{device}"
        self.interval = 0.0
        target: int | str = int(device) if device.isdigit() else device
        self._capture = cv2.VideoCapture(target, cv2.CAP_V4L2)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(f"{self.name}: cannot open the webcam")
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a queue of stale ones
        # Some /dev/video nodes open but are not capture devices: only a first frame proves the camera.
        self._first: Frame | None = self._grab()

    def _grab(self) -> Frame:
        ok, frame = self._capture.read()
        if not ok or frame is None:
            self._capture.release()
            raise CameraError(f"{self.name}: the webcam delivered no frame")
        return frame

    def read(self) -> Frame | None:
        self._check_open()
        first, self._first = self._first, None
        return first if first is not None else self._grab()

    def _release(self) -> None:
        self._capture.release()


class Picamera2Source(Closeable):
    """The Pi camera module through Picamera2; its ``RGB888`` format is BGR in memory, as OpenCV wants."""

    what = "the camera module"

    def __init__(self, width: int, height: int, timeout: float = 2.0) -> None:
        self.name = "picamera2"
        self.interval = 0.0
        self._timeout = timeout
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError("picamera2: not installed (apt install python3-picamera2)") from exc
        try:
            self._camera = Picamera2()
        except Exception as exc:
            raise CameraError(f"picamera2: no camera module found: {exc}") from exc
        try:
            config = self._camera.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"}
            )
            self._camera.configure(config)
            self._camera.start()
        except Exception as exc:
            self._camera.close()
            raise CameraError(f"picamera2: cannot start the camera: {exc}") from exc

    def read(self) -> Frame | None:
        self._check_open()
        try:
            frame: Frame = self._camera.capture_array("main", wait=self._timeout)
        except Exception as exc:
            raise CameraError(f"picamera2: capture failed: {exc!r}") from exc
        return frame

    def _release(self) -> None:
        try:
            self._camera.stop()
        finally:
            self._camera.close()


def open_source(
    spec: str,
    width: int,
    height: int,
    synthetic: Callable[[], Frame | None] | None = None,
    frame_interval: float = 0.1,
    seconds_per_image: float = 2.0,
) -> FrameSource:
    """Open the source named ``spec``; raises ``CameraError`` saying why it cannot.

    >>> open_source("synthetic", 64, 48).read().shape
    (48, 64, 3)
    """
    kind, _, arg = spec.partition(":")
    if kind == "picamera2":
        return Picamera2Source(width, height)
    if kind == "usb" and arg:
        return UsbSource(arg, width, height)
    if kind == "folder" and arg:
        return FolderSource(arg, interval=frame_interval, seconds_per_image=seconds_per_image)
    if kind == "synthetic":
        return SyntheticSource(width, height, synthetic, interval=frame_interval)
    raise CameraError(f"{spec!r} is not a camera source (picamera2, usb:N, folder:PATH, synthetic)")


class CameraChain(Closeable):
    """The first source of ``sources`` that opens, read by a capture thread; see the module docstring.

    ``retry_seconds`` is the back-off (first, longest) between attempts to reopen the chain after a loss,
    and between attempts to climb back to a better source; a read hanging for ``stall_seconds`` is a
    loss. ``opener(spec)`` opens one source (tests inject fakes). ``failures`` maps each source that
    failed to open to its latest reason.
    """

    def __init__(
        self,
        sources: Sequence[str],
        width: int = 1280,
        height: int = 720,
        post: CameraPost = lambda event: None,
        synthetic: Callable[[], Frame | None] | None = None,
        opener: Callable[[str], FrameSource] | None = None,
        retry_seconds: tuple[float, float] = (0.5, 10.0),
        stall_seconds: float = 5.0,
    ) -> None:
        if not sources:
            raise ValueError("a camera chain needs at least one source")
        self.close_timeout = 2.0  # how long close() waits for the capture thread
        self.sources = tuple(sources)
        self.width, self.height = width, height
        self.failures: dict[str, str] = {}
        self._post = guarded(post)
        self._opener = opener or (lambda spec: open_source(spec, width, height, synthetic))
        self._retry_min, self._retry_max = retry_seconds
        self._stall_seconds = stall_seconds
        self._latest: tuple[Frame, int] | None = None
        self._seq = 0
        self._active: str | None = None
        self._lock = threading.Lock()
        # Each capture thread owns a generation; one that hung is abandoned by moving to the next, and
        # when its read finally returns it sees that it is no longer current and leaves quietly.
        self._generation = 0
        self._outage = False  # a loss has been posted and no frame has flowed since
        self._reading: tuple[int, float, str] | None = None  # (generation, since, source) during a read
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    what = "the camera chain"

    def start(self) -> None:
        self._check_open()
        if self._thread is not None:
            return
        self._thread = self._spawn(self._generation)
        threading.Thread(target=self._supervise, name="camera-stall", daemon=True).start()

    def latest(self) -> tuple[Frame, int] | None:
        """The newest frame and its sequence number (1, 2, …), or ``None`` before the first one."""
        return self._latest

    @property
    def active_source(self) -> str | None:
        """The source frames come from, or ``None`` while no source is open."""
        return self._active

    def _release(self) -> None:
        """Stop the capture thread; a camera stuck in a read is left to its daemon thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self.close_timeout)

    def _spawn(self, generation: int) -> threading.Thread:
        thread = threading.Thread(target=self._run, args=(generation,), name="camera", daemon=True)
        thread.start()
        return thread

    def _supervise(self) -> None:
        while not self._stop.wait(min(1.0, self._stall_seconds / 4)):
            reading = self._reading
            if reading is None or time.monotonic() - reading[1] <= self._stall_seconds:
                continue
            with self._lock:
                if self._reading is not reading or reading[0] != self._generation:
                    continue  # the read returned meanwhile
                self._generation += 1
                self._active = None
                self._reading = None
                self._thread = self._spawn(self._generation)
            log.warning("camera %s hangs in a read; leaving it behind", reading[2])
            self._lose(reading[2], f"no frame for {self._stall_seconds:g} s: the camera hangs")

    def _done_reading(self, generation: int) -> None:
        with self._lock:
            if self._reading is not None and self._reading[0] == generation:
                self._reading = None

    def _current(self, generation: int) -> bool:
        return generation == self._generation and not self._stop.is_set()

    def _lose(self, source: str, reason: str) -> None:
        with self._lock:
            first = not self._outage
            self._outage = True
        if first:
            self._post(CameraLost(source, reason))

    def _deliver(self, generation: int, source: FrameSource, frame: Frame) -> None:
        with self._lock:
            if generation != self._generation:
                return
            self._seq += 1
            self._latest = (frame, self._seq)
            back, self._outage = self._outage, False
        if back:
            self._post(CameraBack(source.name))

    def _open_first(self, candidates: Sequence[str]) -> tuple[int, FrameSource] | None:
        for index, spec in enumerate(candidates):
            try:
                source = self._opener(spec)
            except Exception as exc:
                # Any failure of a camera library is a source that did not open, never a dead thread.
                self.failures[spec] = str(exc)
                log.info("camera %s did not open: %s", spec, exc)
                continue
            self.failures.pop(spec, None)
            return index, source
        return None

    def _run(self, generation: int) -> None:
        delay = self._retry_min
        while self._current(generation):
            opened = self._open_first(self.sources)
            if opened is None:
                reasons = "; ".join(f"{s}: {self.failures.get(s, '?')}" for s in self.sources)
                self._lose(self.sources[0], f"no camera source opened ({reasons})")
                self._stop.wait(delay)
                delay = min(delay * 2, self._retry_max)
                continue
            index, source = opened
            climb_delay = self._retry_min
            climb_at = time.monotonic() + climb_delay
            self._active = source.name
            flowed = False
            log.info("camera: reading %s", source.name)
            try:
                while self._current(generation):
                    self._reading = (generation, time.monotonic(), source.name)
                    frame = source.read()
                    self._done_reading(generation)
                    if frame is not None and self._current(generation):
                        flowed = True
                        delay = self._retry_min
                        self._deliver(generation, source, frame)
                    if index > 0 and time.monotonic() >= climb_at and self._current(generation):
                        better = self._open_first(self.sources[:index])
                        if better is not None:
                            log.info("camera: climbing back from %s to %s", source.name, better[1].name)
                            _close_quietly(source)
                            index, source = better
                            self._active = source.name
                        climb_delay = min(climb_delay * 2, self._retry_max)
                        climb_at = time.monotonic() + climb_delay
                    if source.interval:
                        self._stop.wait(source.interval)
            except Exception as exc:
                self._done_reading(generation)
                if generation == self._generation:
                    log.warning("camera %s lost: %s", source.name, exc)
                    self._lose(source.name, str(exc))
            finally:
                if generation == self._generation:
                    self._active = None
                _close_quietly(source)
            # A camera that was delivering is reopened at once (or the chain falls down); one that
            # opens but fails before its first frame is retried with back-off.
            if not flowed:
                self._stop.wait(delay)
                delay = min(delay * 2, self._retry_max)


def _close_quietly(source: FrameSource) -> None:
    try:
        source.close()
    except Exception as exc:
        log.warning("camera %s did not close cleanly: %s", source.name, exc)
