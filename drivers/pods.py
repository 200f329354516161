"""Serial seat pods: seat buttons, LEDs and a clock display far from the Pi, on one serial line.

The host side of the pod line protocol (version 1, full description in ``docs/pods.md``). Every line is
ASCII ``BODY*CS`` plus ``\\n``, where ``CS`` is two hex digits, the XOR of the body's bytes (as in NMEA
0183)::

    host -> pod   HELLO 1            handshake: the host speaks protocol 1 (repeated until answered)
    pod  -> host  HELLO 1 podfw-1.2  the pod speaks 1 too, and names its firmware
    pod  -> host  P1 PRESS           seat 1's button (also HOLD, RELEASE; the pod debounces)
    host -> pod   P1 LED PULSE       seat 1's LED: OFF, ON, PULSE, BLINK
    host -> pod   P2 CLOCK 42        seat 2's clock shows 0:42 (CLOCK OFF blanks it)
    host -> pod   PING               every 2 s; the pod answers PONG
    pod  -> host  ERR bad checksum   the pod refused a line; logged

``PodLink`` opens any pyserial URL (``/dev/referee-pods``, ``loop://``, a pty), runs the handshake and
then a read loop in its own thread. Garbage, partial lines and wrong checksums are logged and dropped;
a pod that is unplugged or silent for ``silence_seconds`` is ``PodLost``, and the link reconnects with
back-off, then sends the LEDs and clocks again. Button presses arrive as ``ButtonEvent(source="pod")``.

>>> frame_line("P1 PRESS")
b'P1 PRESS*06\\n'
>>> parse_line(b"P1 PRESS*06\\r\\n")
'P1 PRESS'
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from collections.abc import Callable
from functools import reduce
from typing import Literal

import serial

from drivers.errors import PodError, PodProtocolError
from drivers.events import ButtonEvent, PodConnected, PodLost, guarded
from drivers.lifecycle import Closeable
from drivers.seats import LedPattern

PodPost = Callable[[ButtonEvent | PodConnected | PodLost], None]  # the pods post their buttons and their link

__all__ = ["MAX_LINE", "PROTOCOL_VERSION", "PodLink", "checksum", "frame_line", "parse_line"]

log = logging.getLogger(__name__)

PROTOCOL_VERSION = "1"
MAX_LINE = 80  # bytes with "\r\n"; a longer run without "\n" is garbage, so a body has at most 75
MAX_SEATS = 8
BUTTON_KINDS: dict[str, Literal["press", "hold", "release"]] = {
    "PRESS": "press",
    "HOLD": "hold",
    "RELEASE": "release",
}


def checksum(body: str) -> int:
    """XOR of the body's bytes."""
    return reduce(lambda acc, byte: acc ^ byte, body.encode("ascii"), 0)


def frame_line(body: str) -> bytes:
    """The bytes on the wire for one message body."""
    if "*" in body or not body.isprintable() or not body.isascii() or len(body) + 5 > MAX_LINE:
        raise ValueError(f"{body!r} cannot be sent as a pod line")
    return f"{body}*{checksum(body):02X}\n".encode("ascii")


def parse_line(raw: bytes) -> str:
    """The body of one received line (its ``\\n`` optional); ``PodProtocolError`` says what is wrong."""
    try:
        text = raw.decode("ascii").rstrip("\r\n")
    except UnicodeDecodeError:
        raise PodProtocolError(f"not ASCII: {raw!r}") from None
    body, star, cs = text.rpartition("*")
    if not star or len(cs) != 2 or not body:
        raise PodProtocolError(f"no checksum: {text!r}")
    try:
        expected = int(cs, 16)
    except ValueError:
        raise PodProtocolError(f"bad checksum digits: {text!r}") from None
    if checksum(body) != expected:
        raise PodProtocolError(f"wrong checksum {cs} (expected {checksum(body):02X}): {text!r}")
    if not body.isprintable():
        raise PodProtocolError(f"control characters: {text!r}")
    if not body.strip():
        raise PodProtocolError(f"an empty message: {text!r}")
    return body


class WarningLimit:
    """Warnings about bad input, rate-limited per kind: the first ``burst`` of each ``window`` seconds
    are logged as they come; the rest are counted and summed up in one line when the window is over
    ("pods on X: 500 more bad lines in the last minute"), so a noisy line cannot flood the log.

    >>> import logging
    >>> limit = WarningLimit(logging.getLogger("demo"), "pods", burst=1, window=60, clock=lambda: 0.0)
    >>> limit.warn("bad line", "dropped a line: %s", "x"), limit.warn("bad line", "dropped a line: %s", "y")
    (True, False)
    >>> limit.suppressed
    {'bad line': 1}
    """

    def __init__(
        self,
        logger: logging.Logger,
        name: str,
        *,
        burst: int = 5,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log = logger
        self._name = name
        self._burst = burst
        self._window = window
        self._clock = clock
        self._started: dict[str, float] = {}
        self._logged: dict[str, int] = {}
        self.suppressed: dict[str, int] = {}
        self.total: dict[str, int] = {}  # every warning of each kind since the start, logged or not

    def warn(self, kind: str, message: str, *args: object) -> bool:
        """Log (or count) one warning of ``kind``; ``True`` if it was logged."""
        now = self._clock()
        self.total[kind] = self.total.get(kind, 0) + 1
        self._roll(kind, now)
        if self._logged.get(kind, 0) < self._burst:
            self._logged[kind] = self._logged.get(kind, 0) + 1
            self._log.warning("%s: " + message, self._name, *args)
            return True
        self.suppressed[kind] = self.suppressed.get(kind, 0) + 1
        return False

    def flush(self) -> None:
        """Sum up every kind whose window is over (the link thread calls this each turn)."""
        now = self._clock()
        for kind in list(self._started):
            self._roll(kind, now)

    def _roll(self, kind: str, now: float) -> None:
        started = self._started.get(kind)
        if started is not None and now - started < self._window:
            return
        count = self.suppressed.pop(kind, 0)
        if count:
            self._log.warning(
                "%s: … %d more %s in the last %s", self._name, count, _plural(kind), _span(self._window)
            )
        self._started[kind] = now
        self._logged[kind] = 0


def _plural(kind: str) -> str:
    return kind if kind.endswith("s") else kind + "s"


def _span(seconds: float) -> str:
    return "minute" if seconds == 60 else f"{seconds:g} s"


class LineReader:
    """Splits a byte stream into lines; a run longer than ``MAX_LINE`` without a line end is dropped."""

    def __init__(self, limit: WarningLimit | None = None) -> None:
        self._buffer = b""
        self._limit = limit or WarningLimit(log, "pods")

    def feed(self, data: bytes) -> list[bytes]:
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        if len(self._buffer) > MAX_LINE:
            lines.append(self._buffer)
            self._buffer = b""
        kept = []
        for line in lines:
            if len(line) >= MAX_LINE:
                self._limit.warn("garbage run", "dropped %d bytes of garbage without a line end", len(line))
            elif line.strip():
                kept.append(line)
        return kept


class PodLink(Closeable):
    """The serial line to the seat pods; see the module docstring for the protocol.

    ``set_led`` and ``show_clock`` never block: they record what each seat should show and the link
    thread sends it (again after every reconnect). ``retry_seconds`` is the back-off (first, longest).
    It is a ``drivers.seats.Seats`` (the ``pods`` seat backend): ``seats`` pods, no buzzer.
    """

    what = "the pod link"

    def __init__(
        self,
        url: str,
        post: PodPost,
        baudrate: int = 115200,
        retry_seconds: tuple[float, float] = (0.5, 10.0),
        handshake_seconds: float = 3.0,
        ping_seconds: float = 2.0,
        silence_seconds: float = 6.0,
        seats: int = MAX_SEATS,
    ) -> None:
        if not 1 <= seats <= MAX_SEATS:
            raise ValueError(f"{seats} seats: the pod line has 1–{MAX_SEATS}")
        self.url = url
        self.close_timeout = 2.0  # how long close() waits for the link thread
        self._seats = seats
        self.baudrate = baudrate
        self.version: str | None = None
        self._post = guarded(post)
        self._retry_min, self._retry_max = retry_seconds
        self._handshake_seconds = handshake_seconds
        self._ping_seconds = ping_seconds
        self._silence_seconds = silence_seconds
        self._lock = threading.Lock()
        self._wanted: dict[str, str] = {}  # "P1 LED" -> "P1 LED PULSE": the last command per seat and kind
        self._outbox: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._connected = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.warnings = WarningLimit(log, f"pods on {url}")

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def seats(self) -> int:
        return self._seats

    def start(self) -> None:
        self._check_open()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="pods", daemon=True)
            self._thread.start()

    def set_led(self, seat: int, pattern: LedPattern) -> None:
        self._want(seat, "LED", pattern.name)

    def led_pattern(self, seat: int) -> LedPattern:
        """The pattern the seat's LED was last set to (sent once the pod is connected)."""
        command = self._wanted.get(f"P{seat + 1} LED")
        return LedPattern[command.rsplit(" ", 1)[1]] if command else LedPattern.OFF

    def beep(self, count: int = 1, on_time: float = 0.1, off_time: float = 0.1) -> None:
        """The pods have no buzzer (protocol 1): silent."""
        self._check_open()

    def show_clock(self, seat: int, seconds_left: float | None) -> None:
        """Show whole seconds left (rounded up, at most 99:59) on the seat's clock; ``None`` blanks it."""
        value = "OFF" if seconds_left is None else str(min(5999, max(0, math.ceil(seconds_left))))
        self._want(seat, "CLOCK", value)

    def _release(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self.close_timeout)

    def _want(self, seat: int, what: str, value: str) -> None:
        self._check_open()
        if not 0 <= seat < self._seats:
            raise ValueError(f"seat {seat} is out of range 0–{self._seats - 1}")
        key = f"P{seat + 1} {what}"
        command = f"{key} {value}"
        with self._lock:
            if self._wanted.get(key) == command:
                return
            self._wanted[key] = command
            if self._connected:
                self._outbox.put(command)

    def _run(self) -> None:
        delay = self._retry_min
        reported = False  # a PodLost has been posted for the current outage
        while not self._stop.is_set():
            try:
                port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0.05, write_timeout=1)
            except (serial.SerialException, OSError, ValueError) as exc:
                if not reported:
                    reported = True
                    self._post(PodLost(self.url, f"cannot open: {exc}"))
                self._stop.wait(delay)
                delay = min(delay * 2, self._retry_max)
                continue
            reader = LineReader(self.warnings)
            try:
                self.version = self._handshake(port, reader)
                delay = self._retry_min
                reported = False
                self._connect(port)
                self._post(PodConnected(self.url, self.version))
                self._serve(port, reader)
            except Exception as exc:
                # A failed port (PodError, SerialException, OSError) is expected; anything else is
                # logged in full, and the link still retries rather than leaving the seats dead.
                if isinstance(exc, PodError | serial.SerialException | OSError):
                    log.warning("pods on %s: %s", self.url, exc)
                else:
                    log.exception("pods on %s: unexpected failure", self.url)
                if not reported:
                    reported = True
                    self._post(PodLost(self.url, str(exc)))
            finally:
                with self._lock:
                    self._connected = False
                port.close()
            self._stop.wait(delay)
            delay = min(delay * 2, self._retry_max)

    def _connect(self, port: serial.Serial) -> None:
        """Mark the link up and send every seat's LED and clock (the pod may have restarted)."""
        with self._lock:
            self._connected = True
            while not self._outbox.empty():
                self._outbox.get_nowait()
            for command in self._wanted.values():
                self._outbox.put(command)
        self._flush(port)

    def _flush(self, port: serial.Serial) -> None:
        while not self._outbox.empty():
            port.write(frame_line(self._outbox.get_nowait()))

    def _lines(self, port: serial.Serial, reader: LineReader) -> list[str]:
        bodies = []
        for raw in reader.feed(port.read(port.in_waiting or 1)):
            try:
                bodies.append(parse_line(raw))
            except PodProtocolError as exc:
                self.warnings.warn("bad line", "dropped a line: %s", exc)
        return bodies

    def _handshake(self, port: serial.Serial, reader: LineReader) -> str:
        now = time.monotonic()
        deadline, next_hello = now + self._handshake_seconds, now
        while not self._stop.is_set() and now < deadline:
            if now >= next_hello:
                port.write(frame_line(f"HELLO {PROTOCOL_VERSION}"))
                next_hello = now + min(1.0, self._handshake_seconds / 3)
            for body in self._lines(port, reader):
                words = body.split()
                if words[0] == "HELLO" and len(words) >= 2:
                    if words[1] != PROTOCOL_VERSION:
                        raise PodProtocolError(
                            f"the pod speaks protocol {words[1]}; this host speaks {PROTOCOL_VERSION}"
                        )
                    return " ".join(words[1:])
                log.info("pods on %s: ignored %r before the handshake", self.url, body)
            now = time.monotonic()
        raise PodError(f"no HELLO answer within {self._handshake_seconds:g} s")

    def _serve(self, port: serial.Serial, reader: LineReader) -> None:
        heard = next_ping = time.monotonic()
        while not self._stop.is_set():
            self._flush(port)
            self.warnings.flush()
            bodies = self._lines(port, reader)
            now = time.monotonic()
            if bodies:
                heard = now
            for body in bodies:
                self._handle(port, body)
            if now >= next_ping:
                port.write(frame_line("PING"))
                next_ping = now + self._ping_seconds
            if now - heard > self._silence_seconds:
                raise PodError(f"the pod has been silent for {self._silence_seconds:g} s")

    def _handle(self, port: serial.Serial, body: str) -> None:
        words = body.split()
        seat = _seat(words[0])
        if seat is not None and len(words) == 2 and words[1] in BUTTON_KINDS:
            self._post(ButtonEvent(seat, BUTTON_KINDS[words[1]], "pod"))
        elif words[0] in ("PONG", "PING") or (seat is not None and words[1:2] in (["LED"], ["CLOCK"])):
            pass  # PONG answers our PING; on a loop-back line (loop://) our own commands come back
        elif words[0] == "HELLO":
            log.info("pods on %s: the pod restarted; sending the seats again", self.url)
            self._connect(port)
        elif words[0] == "ERR":
            self.warnings.warn("refused line", "the pod refused a line: %s", body[4:])
        else:
            self.warnings.warn("unknown message", "unknown message %r", body)


def _seat(word: str) -> int | None:
    """``P1``..``P8`` -> 0..7."""
    if len(word) == 2 and word[0] == "P" and word[1].isdigit() and 1 <= int(word[1]) <= MAX_SEATS:
        return int(word[1]) - 1
    return None
