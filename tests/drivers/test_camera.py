from __future__ import annotations

import queue
import shutil
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from drivers.camera import (
    CameraChain,
    CameraError,
    FolderSource,
    Picamera2Source,
    UsbSource,
    colour_bars,
    open_source,
)
from drivers.events import CameraBack, CameraLost

FAST = {"frame_interval": 0.01, "seconds_per_image": 0.03}


def write_images(folder: Path, colours: list[int], size: tuple[int, int] = (40, 30)) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, grey in enumerate(colours):
        cv2.imwrite(str(folder / f"{i:02}.png"), np.full((size[1], size[0], 3), grey, np.uint8))


def fast_opener(width: int = 64, height: int = 48, **kw: Any) -> Callable[[str], Any]:
    return lambda spec: open_source(spec, width, height, **{**FAST, **kw})


def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Polls a condition the capture thread changes; the tests assert outcomes, never durations."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.005)


@pytest.fixture
def events() -> queue.Queue[Any]:
    return queue.Queue()


@pytest.fixture
def chain_factory(events: queue.Queue[Any]) -> Iterator[Callable[..., CameraChain]]:
    chains: list[CameraChain] = []

    def make(sources: tuple[str, ...], **kw: Any) -> CameraChain:
        args: dict[str, Any] = {"post": events.put, "opener": fast_opener(), "retry_seconds": (0.01, 0.05)}
        chain = CameraChain(sources, 64, 48, **{**args, **kw})
        chains.append(chain)
        chain.start()
        return chain

    yield make
    for chain in chains:
        chain.close()


def test_colour_bars() -> None:
    frame = colour_bars(80, 10)
    assert frame.shape == (10, 80, 3) and frame.dtype == np.uint8
    assert frame[0, 0].tolist() == [255, 255, 255] and frame[0, 79].tolist() == [0, 0, 0]
    assert not frame.flags.writeable


def test_open_source_refuses_unknown_and_missing(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="not a camera source"):
        open_source("webcam", 64, 48)
    with pytest.raises(CameraError, match="not a folder"):
        open_source(f"folder:{tmp_path / 'none'}", 64, 48)
    with pytest.raises(CameraError, match="no images"):
        open_source(f"folder:{tmp_path}", 64, 48)
    with pytest.raises(CameraError, match="cannot open"):
        open_source("usb:/dev/no-such-video", 64, 48)


def test_picamera2_is_imported_only_when_it_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # as on a machine without it
    with pytest.raises(CameraError, match="python3-picamera2") as info:
        open_source("picamera2", 64, 48)
    assert isinstance(info.value, OSError)


class FakePicamera2:
    instances: ClassVar[list[FakePicamera2]] = []

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.frames = 0
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        self.calls.append("start")

    def capture_array(self, name: str, wait: float) -> np.ndarray:
        self.frames += 1
        if self.frames > 2:
            raise TimeoutError("frontend timed out")
        w, h = self.config["main"]["size"]
        return np.zeros((h, w, 3), np.uint8)

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


def test_picamera2_source_reads_bgr_frames_and_reports_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    source = open_source("picamera2", 64, 48)
    assert isinstance(source, Picamera2Source)
    camera = FakePicamera2.instances[-1]
    assert camera.config == {"main": {"size": (64, 48), "format": "RGB888"}}
    assert source.read() is not None and source.read() is not None
    with pytest.raises(CameraError, match="timed out"):
        source.read()
    source.close()
    assert camera.calls == ["start", "stop", "close"]


class FakeCapture:
    def __init__(self, target: Any, api: int) -> None:
        self.target = target
        self.reads = 0
        self.released = False

    def isOpened(self) -> bool:
        return self.target == 0

    def set(self, prop: int, value: float) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.reads += 1
        return (self.reads <= 2, np.zeros((48, 64, 3), np.uint8) if self.reads <= 2 else None)

    def release(self) -> None:
        self.released = True


def test_usb_source_proves_itself_with_a_first_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "VideoCapture", FakeCapture)
    source = open_source("usb:0", 64, 48)
    assert isinstance(source, UsbSource)
    assert source.read() is not None  # the frame read while opening
    assert source.read() is not None
    with pytest.raises(CameraError, match="no frame"):
        source.read()
    with pytest.raises(CameraError, match="usb:3: cannot open"):
        open_source("usb:3", 64, 48)


def test_folder_replays_images_in_order_and_skips_corrupt_ones(tmp_path: Path) -> None:
    write_images(tmp_path, [10, 20, 30])
    (tmp_path / "01b.jpg").write_bytes(b"not an image")
    (tmp_path / "notes.txt").write_text("ignored")
    source = FolderSource(tmp_path, interval=0.1, seconds_per_image=0.2)
    greys = [int(frame[0, 0, 0]) for frame in (source.read() for _ in range(10)) if frame is not None]
    assert greys == [10, 10, 20, 20, 30, 30, 10, 10, 20, 20]


def test_chain_uses_the_first_source_that_opens(
    tmp_path: Path, chain_factory: Callable[..., CameraChain], events: queue.Queue[Any]
) -> None:
    write_images(tmp_path / "replay", [77])
    chain = chain_factory(("usb:/dev/no-such-video", f"folder:{tmp_path / 'replay'}", "synthetic"))
    wait_until(lambda: chain.latest() is not None)
    frame, seq = chain.latest() or (None, 0)
    assert chain.active_source == f"folder:{tmp_path / 'replay'}"
    assert frame is not None and frame[0, 0, 0] == 77 and seq >= 1
    assert "cannot open" in chain.failures["usb:/dev/no-such-video"]
    wait_until(lambda: (chain.latest() or (None, 0))[1] > seq)  # frames keep flowing
    assert events.empty()


def test_nothing_opens_is_one_loss_then_back_when_it_appears(
    tmp_path: Path, chain_factory: Callable[..., CameraChain], events: queue.Queue[Any]
) -> None:
    folder = tmp_path / "replay"
    chain = chain_factory((f"folder:{folder}",))
    lost = events.get(timeout=10)
    assert isinstance(lost, CameraLost) and "not a folder" in lost.reason
    assert chain.latest() is None and chain.active_source is None
    write_images(folder, [5])
    assert events.get(timeout=10) == CameraBack(f"folder:{folder}")
    assert chain.latest() is not None


def test_loss_falls_down_the_chain_and_climbs_back(
    tmp_path: Path, chain_factory: Callable[..., CameraChain], events: queue.Queue[Any]
) -> None:
    folder = tmp_path / "replay"
    write_images(folder, [200])
    chain = chain_factory((f"folder:{folder}", "synthetic"))
    wait_until(lambda: chain.active_source == f"folder:{folder}")
    shutil.rmtree(folder)  # the camera is unplugged
    lost = events.get(timeout=10)
    assert isinstance(lost, CameraLost) and lost.source == f"folder:{folder}"
    assert "gone" in lost.reason
    assert events.get(timeout=10) == CameraBack("synthetic")
    assert chain.active_source == "synthetic"
    write_images(folder, [100])  # plugged back in: the chain climbs back without a new event
    wait_until(lambda: chain.active_source == f"folder:{folder}")
    wait_until(lambda: int((chain.latest() or (np.zeros((1, 1, 3)), 0))[0][0, 0, 0]) == 100)
    assert events.empty()


def test_synthetic_uses_the_injected_renderer_and_survives_its_failure(
    chain_factory: Callable[..., CameraChain], events: queue.Queue[Any]
) -> None:
    calls = {"n": 0}

    def render() -> np.ndarray | None:
        calls["n"] += 1
        if calls["n"] == 1:
            return None  # nothing to show yet
        if calls["n"] == 4:
            raise RuntimeError("renderer crashed")
        return np.full((48, 64, 3), calls["n"], np.uint8)

    chain = chain_factory(("synthetic",), opener=fast_opener(synthetic=render))
    lost = events.get(timeout=10)
    assert isinstance(lost, CameraLost) and "renderer crashed" in lost.reason
    assert events.get(timeout=10) == CameraBack("synthetic")
    frame, _ = chain.latest() or (None, 0)
    assert frame is not None and frame[0, 0, 0] >= 5


class StuckSource:
    """A camera whose read hangs until released."""

    name = "stuck"
    interval = 0.0

    def __init__(self) -> None:
        self.release = threading.Event()
        self.reading = threading.Event()
        self.closed = threading.Event()

    def read(self) -> np.ndarray | None:
        self.reading.set()
        self.release.wait(30)
        raise CameraError("stuck: gave up")

    def close(self) -> None:
        self.closed.set()


class SteadySource:
    name = "stuck"
    interval = 0.01

    def read(self) -> np.ndarray | None:
        return np.zeros((48, 64, 3), np.uint8)

    def close(self) -> None:
        pass


def test_a_hung_camera_never_blocks_latest(events: queue.Queue[Any]) -> None:
    stuck = StuckSource()
    chain = CameraChain(("stuck",), 64, 48, post=events.put, opener=lambda spec: stuck)
    chain.start()
    assert stuck.reading.wait(10)
    results: list[Any] = []
    caller = threading.Thread(target=lambda: results.append((chain.latest(), chain.active_source)))
    caller.start()
    caller.join(10)
    assert not caller.is_alive()
    assert results == [(None, "stuck")]
    stuck.release.set()
    chain.close()
    lost = events.get(timeout=10)
    assert lost == CameraLost("stuck", "stuck: gave up")


def test_chain_needs_a_source() -> None:
    with pytest.raises(ValueError):
        CameraChain(())


def test_a_camera_hanging_in_a_read_is_left_behind(events: queue.Queue[Any]) -> None:
    stuck = StuckSource()
    opens = {"stuck": 0}

    def opener(spec: str) -> Any:
        if spec == "synthetic":
            return fast_opener()(spec)
        opens["stuck"] += 1
        if opens["stuck"] == 1:
            return stuck
        if not stuck.closed.is_set():
            raise CameraError("stuck: device busy")
        return SteadySource()

    chain = CameraChain(
        ("stuck", "synthetic"),
        64,
        48,
        post=events.put,
        opener=opener,
        retry_seconds=(0.01, 0.05),
        stall_seconds=0.2,
    )
    chain.start()
    try:
        lost = events.get(timeout=10)
        assert isinstance(lost, CameraLost) and lost.source == "stuck" and "hangs" in lost.reason
        assert events.get(timeout=10) == CameraBack("synthetic")
        assert chain.active_source == "synthetic"
        stuck.release.set()  # the hung read finally fails: its thread closes the camera and leaves
        assert stuck.closed.wait(10)
        wait_until(lambda: chain.active_source == "stuck")  # and the chain climbs back to it
        assert events.empty()
    finally:
        chain.close()
