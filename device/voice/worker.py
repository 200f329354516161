"""The speech worker: a thread with a short queue that synthesises and plays one sentence at a time.

The game's loop only calls :meth:`Voice.say` (and :meth:`Voice.end_move`), which return at once:

- a newer message of a kind replaces an older one of the same kind not yet spoken (a second
  "ten seconds" is never queued behind a first), and the queue holds at most ``limit`` sentences (the
  oldest is dropped);
- a message may belong to a move (``move``: whose move it is, the timer's warning, a refusal):
  :meth:`Voice.end_move` cuts that move's sentence short while it plays and drops its waiting ones;
- each sentence taken to be spoken is appended to the voice log (``--voice-log FILE``): time,
  language, kind, text, tab-separated — also where nothing can be heard (no sound device, ``--mute``).

A missing or failing synthesiser or player is logged once (and said by ``referee doctor``); after
:data:`FAILURES_TO_GIVE_UP` failures in a row the worker stops trying it and the game goes on silent.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TextIO

from device.voice.output import Output, PlaybackError
from device.voice.synth import Synthesiser, SynthesisError

__all__ = ["FAILURES_TO_GIVE_UP", "Message", "Voice"]

log = logging.getLogger(__name__)

FAILURES_TO_GIVE_UP = 3
QUEUE_LIMIT = 4


class _Started(threading.Event):
    """Set by the player when the sound is handed to the device; remembers when (``clock``)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        super().__init__()
        self.clock = clock
        self.at: float | None = None

    def set(self) -> None:
        if self.at is None:
            self.at = self.clock()
        super().set()


@dataclass(frozen=True)
class Message:
    """A sentence to say: its kind, the text, the language, the move it belongs to (if any) and when
    the event that caused it reached the voice (``at``, monotonic)."""

    kind: str
    text: str
    language: str
    move: int | None = None
    at: float = field(default_factory=time.monotonic)


class Voice:
    def __init__(
        self,
        synthesiser: Synthesiser | None,
        output: Output | None,
        *,
        log_path: str | Path | None = None,
        speed: int = 160,
        volume: int = 100,
        limit: int = QUEUE_LIMIT,
        clock: Callable[[], float] = time.monotonic,
        muted: bool = False,
    ) -> None:
        self.muted = muted  # ``--mute``: nothing synthesised or played, the sentences still logged
        self.synthesiser = synthesiser  # None: nothing is synthesised (``--mute``)
        self.output = output  # None: nothing is played (no sound device, ``--mute``)
        self.speed = speed
        self.volume = volume
        self.limit = limit
        self.clock = clock
        self.latencies: collections.deque[float] = collections.deque(maxlen=1000)  # say → sound, seconds
        self.sounds: collections.deque[tuple[Message, float]] = collections.deque(maxlen=1000)  # and when
        self.spoken = 0
        self.dropped = 0
        self.problem: str | None = None  # the last failure, for the doctor and the log
        self._pending: list[Message] = []
        self._current: Message | None = None
        self._cut = threading.Event()
        self._cond = threading.Condition()
        self._closing = False
        self._failures = {"synthesiser": 0, "player": 0}
        self._logged: set[str] = set()
        self._log: TextIO | None = None
        if log_path is not None:
            path = Path(log_path)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._log = path.open("a", encoding="utf-8", buffering=1)
            except OSError as exc:
                self._failed("log", f"voice log {path} cannot be written: {exc}")
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    # --- the loop's side -----------------------------------------------------------------------------

    def say(self, message: Message) -> None:
        """Queue ``message``; an unspoken one of the same kind gives way to it. Never blocks."""
        with self._cond:
            if self._closing:
                return
            kept = [m for m in self._pending if m.kind != message.kind]
            self.dropped += len(self._pending) - len(kept)
            kept.append(message)
            while len(kept) > self.limit:
                old = kept.pop(0)
                self.dropped += 1
                log.info("voice queue full: %s not said", old.kind)
            self._pending = kept
            self._cond.notify_all()

    def end_move(self, move: int) -> None:
        """The move ``move`` ended: its sentence playing now is cut short, its waiting ones dropped."""
        with self._cond:
            kept = [m for m in self._pending if m.move != move]
            self.dropped += len(self._pending) - len(kept)
            self._pending = kept
            if self._current is not None and self._current.move == move:
                self._cut.set()
            self._cond.notify_all()

    def silence(self) -> None:
        """Stop talking: the sentence playing is cut, the waiting ones dropped (the owner's *off*)."""
        with self._cond:
            self.dropped += len(self._pending)
            self._pending = []
            if self._current is not None:
                self._cut.set()
            self._cond.notify_all()

    def idle(self, timeout: float = 5.0) -> bool:
        """Wait until every queued sentence is spoken (tests, the doctor, the CLI); whether it is."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending or self._current is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def silent(self) -> str | None:
        """Why nothing is heard: ``mute``, ``synthesiser`` (none), ``device`` (no sound device or
        player), ``failed`` (given up after failures); ``None`` when the voice is heard."""
        if self.muted:
            return "mute"
        if (
            self._failures["synthesiser"] >= FAILURES_TO_GIVE_UP
            or self._failures["player"] >= FAILURES_TO_GIVE_UP
        ):
            return "failed"
        if self.synthesiser is None:
            return "synthesiser"
        if self.output is None:
            return "device"
        return None

    @property
    def speaking(self) -> Message | None:
        return self._current

    def close(self, timeout: float = 2.0) -> None:
        with self._cond:
            self._closing = True
            self._pending = []
            self._cut.set()
            self._cond.notify_all()
        self._thread.join(timeout)
        if self._log is not None:
            self._log.close()
            self._log = None

    # --- the worker's side ---------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closing:
                    self._cond.wait()
                if self._closing:
                    return
                message = self._pending.pop(0)
                self._current = message
                self._cut.clear()
            try:
                self._speak(message)
            except Exception as exc:  # never a traceback loop: logged once per distinct error
                self._failed("worker", f"{type(exc).__name__}: {exc}")
            finally:
                with self._cond:
                    self._current = None
                    self._cond.notify_all()

    def _speak(self, message: Message) -> None:
        wav = self._synthesise(message)
        if self._cut.is_set():
            return  # its move ended while it was being synthesised
        self._write_log(message)
        self.spoken += 1
        output = self.output
        if wav is None or output is None or self._failures["player"] >= FAILURES_TO_GIVE_UP:
            return
        started = _Started(self.clock)
        try:
            output.play(wav, self._cut, started)
        except PlaybackError as exc:
            self._failed("player", str(exc))
            return
        self._failures["player"] = 0
        if started.at is not None:
            self.latencies.append(started.at - message.at)
            self.sounds.append((message, started.at))

    def _synthesise(self, message: Message) -> bytes | None:
        synth = self.synthesiser
        if synth is None or self._failures["synthesiser"] >= FAILURES_TO_GIVE_UP:
            return None
        try:
            wav = synth.wav(message.text, message.language, speed=self.speed, volume=self.volume)
        except SynthesisError as exc:
            self._failed("synthesiser", str(exc))
            return None
        self._failures["synthesiser"] = 0
        return wav

    def _failed(self, part: str, problem: str) -> None:
        self.problem = problem
        if part in self._failures:
            self._failures[part] += 1
            if self._failures[part] == FAILURES_TO_GIVE_UP:
                log.error(
                    "voice: the %s failed %d times in a row; silent from now on", part, FAILURES_TO_GIVE_UP
                )
        if problem not in self._logged:
            self._logged.add(problem)
            log.error("voice: %s", problem)

    def _write_log(self, message: Message) -> None:
        if self._log is None:
            return
        text = " ".join(message.text.split())
        stamp = datetime.now().astimezone().isoformat(timespec="milliseconds")
        try:
            self._log.write(f"{stamp}\t{message.language}\t{message.kind}\t{text}\n")
        except OSError as exc:
            self._failed("log", f"voice log: {exc}")
