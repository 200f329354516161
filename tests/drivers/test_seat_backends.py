"""The seats' backend is chosen by the factory in ``drivers/seat_backends.py`` from the settings, and
every camera source has the one ``Closeable`` lifecycle."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from drivers.camera import FolderSource, SyntheticSource
from drivers.errors import DriverClosed, SeatError
from drivers.lifecycle import Closeable
from drivers.pods import PodLink
from drivers.seat_backends import BACKENDS, Line, Settings, open_pods, open_seats
from drivers.seats import KeyboardSeats, SeatPanel


def test_each_backend_by_its_name(pwm_factory: MockFactory) -> None:
    opened = [
        open_seats(Settings(backend="gpio", count=2), Line(), print, pin_factory=pwm_factory),
        open_seats(Settings(backend="keyboard", count=3), Line(), print),
        open_seats(Settings(backend="pods", count=4), Line(port="loop://"), print),
        open_seats(Settings(backend="gpio", count=2), Line(), print, backend="keyboard"),
    ]
    try:
        assert [type(s) for s in opened] == [SeatPanel, KeyboardSeats, PodLink, KeyboardSeats]
        assert [s.seats for s in opened] == [2, 3, 4, 2]
        assert pwm_factory.pin(17).state == 1  # the first seat's button, pulled up on the given pins
    finally:
        for seats in opened:
            seats.close()
    assert all(s.closed for s in opened)
    assert sorted(BACKENDS) == ["gpio", "keyboard", "pods"]


def test_a_name_no_backend_has_and_pods_without_a_line() -> None:
    with pytest.raises(SeatError, match="no seat backend 'morse'; the backends: gpio, keyboard, pods"):
        open_seats(Settings(backend="morse"), Line(), print)
    with pytest.raises(SeatError, match=r"serial port"):
        open_pods(Line(), print, seats=2)
    with pytest.raises(SeatError, match=r"serial port"):
        open_seats(Settings(backend="pods"), Line(), print)


def test_the_camera_sources_share_the_driver_lifecycle(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((8, 8, 3), np.uint8))
    for source in (SyntheticSource(16, 8), FolderSource(tmp_path)):
        assert isinstance(source, Closeable)
        with source as opened:
            assert opened.read() is not None and not opened.closed
        assert source.closed
        source.close()  # closing again does nothing
        with pytest.raises(DriverClosed, match="camera is closed"):
            source.read()
