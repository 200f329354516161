"""A simulated seat pod on a pseudo-terminal pair: the fake behind ``PodLink`` for tests and demos.

The host opens ``pod.port`` like a USB serial device. The pod answers ``HELLO`` and ``PING``, records the
LED and clock commands it receives, and sends button presses, raw bytes (garbage) on request. ``unplug()``
closes the pty, as pulling the USB cable does; ``plug()`` opens a new one behind the same ``port`` path
when the pod was made with a ``link`` path (a symlink, like the udev rule's ``/dev/referee-pods``)::

    with SimulatedPod(link=tmp / "referee-pods") as pod:
        link = PodLink(pod.port, post=events.put)
        link.start()
        pod.press(0)
"""

from __future__ import annotations

import os
import select
import threading
import tty
from collections.abc import Callable
from pathlib import Path

from drivers.errors import PodProtocolError
from drivers.lifecycle import Closeable
from drivers.pods import LineReader, frame_line, parse_line

__all__ = ["SimulatedPod"]


class SimulatedPod(Closeable):
    """``version`` is the protocol it answers ``HELLO`` with; ``answer_pings=False`` makes it fall silent."""

    what = "the simulated pod"

    def __init__(
        self,
        link: str | os.PathLike[str] | None = None,
        version: str = "1",
        firmware: str = "simpod-1.0",
        answer_pings: bool = True,
    ) -> None:
        self.version = version
        self.firmware = firmware
        self.answer_pings = answer_pings
        self.leds: dict[int, str] = {}  # 0-based seat -> OFF, ON, PULSE, BLINK
        self.clocks: dict[int, str] = {}  # 0-based seat -> seconds or OFF
        self.received: list[str] = []
        self.refused: list[str] = []
        self._link = Path(link) if link is not None else None
        self._changed = threading.Condition()
        # The test's raw writes and the pod's own answers: an answer never lands inside a half line.
        self._writing = threading.Condition()
        self._partial = False
        self._master = self._slave = -1
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.plug()

    @property
    def port(self) -> str:
        return str(self._link) if self._link is not None else os.ttyname(self._slave)

    @property
    def plugged(self) -> bool:
        return self._master >= 0

    def plug(self) -> None:
        if self.plugged:
            return
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: a serial line, not a terminal
        if self._link is not None:
            self._link.unlink(missing_ok=True)
            self._link.symlink_to(os.ttyname(self._slave))
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(self._master,), name="pod-sim", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """Pull the cable: the host's next read fails and the ``port`` path is gone."""
        if not self.plugged:
            return
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if self._link is not None:
            self._link.unlink(missing_ok=True)
        os.close(self._master)
        os.close(self._slave)
        self._master = self._slave = -1

    def press(self, seat: int, kind: str = "PRESS") -> None:
        self.send(f"P{seat + 1} {kind}")

    def send(self, body: str) -> None:
        self.send_raw(frame_line(body))

    def send_raw(self, data: bytes) -> None:
        with self._writing:
            os.write(self._master, data)
            self._partial = not data.endswith(b"\n")
            self._writing.notify_all()

    def _answer(self, master: int, body: str) -> None:
        """The pod's own line: as from a real pod, never inside a line it is still sending (a test
        may send half a line and its rest later)."""
        with self._writing:
            self._writing.wait_for(lambda: not self._partial, timeout=1.0)
            os.write(master, frame_line(body))

    def wait_for(self, condition: Callable[[], bool], timeout: float = 10.0) -> bool:
        """Block until ``condition()`` holds after a line arrives (or now); ``False`` on timeout."""
        with self._changed:
            return self._changed.wait_for(condition, timeout)

    def _release(self) -> None:
        self.unplug()

    def _run(self, master: int) -> None:
        reader = LineReader()
        while not self._stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(master, 1024)
            except OSError:  # the host closed its end; wait for it to reopen
                self._stop.wait(0.02)
                continue
            for raw in reader.feed(data):
                try:
                    self._handle(master, parse_line(raw))
                except PodProtocolError as exc:
                    self._answer(master, "ERR bad line")
                    with self._changed:
                        self.refused.append(str(exc))
                        self._changed.notify_all()

    def _handle(self, master: int, body: str) -> None:
        words = body.split()
        if words[0] == "HELLO":
            self._answer(master, f"HELLO {self.version} {self.firmware}")
        elif words[0] == "PING" and self.answer_pings:
            self._answer(master, "PONG")
        with self._changed:
            if (
                len(words) == 3
                and words[0][:1] == "P"
                and words[0][1:].isdigit()
                and words[1] in ("LED", "CLOCK")
            ):
                seat = int(words[0][1:]) - 1
                (self.leds if words[1] == "LED" else self.clocks)[seat] = words[2]
            self.received.append(body)
            self._changed.notify_all()
