from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.watchdog import Watchdog


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield str(path), sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    out = []
    sock.setblocking(False)
    try:
        while True:
            out.append(sock.recv(4096).decode())
    except BlockingIOError:
        return out
    finally:
        sock.settimeout(2)


def test_disabled_without_notify_socket() -> None:
    wd = Watchdog.from_env({"WATCHDOG_USEC": "2000000"})
    assert not wd.enabled
    assert wd.interval is None
    wd.ready()
    wd.ping()
    wd.status("fine")
    wd.stopping()


def test_ready_status_stopping_reach_the_socket(notify_socket: tuple[str, socket.socket]) -> None:
    path, sock = notify_socket
    wd = Watchdog.from_env({"NOTIFY_SOCKET": path})
    assert wd.enabled and wd.interval is None
    wd.ready()
    wd.status("playing\nyahtzee")
    wd.ping()  # no watchdog asked for: nothing sent
    wd.stopping()
    wd.close()
    assert received(sock) == ["READY=1", "STATUS=playing yahtzee", "STOPPING=1"]


def test_ping_is_sent_at_most_every_half_interval(notify_socket: tuple[str, socket.socket]) -> None:
    path, sock = notify_socket
    now = [100.0]
    wd = Watchdog(path, interval=4.0, clock=lambda: now[0])
    for t in (100.0, 100.5, 101.9, 102.0, 102.1, 103.99, 104.0, 110.0):
        now[0] = t
        wd.ping()
    assert received(sock) == ["WATCHDOG=1"] * 4  # at 100, 102, 104 and 110


def test_interval_from_watchdog_usec_for_this_process_only(tmp_path: Path) -> None:
    env = {"NOTIFY_SOCKET": str(tmp_path / "n"), "WATCHDOG_USEC": "3000000"}
    assert Watchdog.from_env(env).interval == 3.0
    assert Watchdog.from_env({**env, "WATCHDOG_PID": str(os.getpid())}).interval == 3.0
    assert Watchdog.from_env({**env, "WATCHDOG_PID": str(os.getpid() + 1)}).interval is None
    assert Watchdog.from_env({**env, "WATCHDOG_USEC": "junk"}).interval is None


def test_abstract_namespace_socket() -> None:
    name = "referee-test-" + uuid.uuid4().hex
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        wd = Watchdog.from_env({"NOTIFY_SOCKET": "@" + name, "WATCHDOG_USEC": "1000000"})
        wd.ping()
        assert sock.recv(100) == b"WATCHDOG=1"
        wd.close()
    finally:
        sock.close()


def test_a_missing_socket_is_logged_not_raised(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    wd = Watchdog.from_env({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    wd.ready()
    assert "sd_notify READY=1" in caplog.text
