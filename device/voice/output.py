"""Playing a sentence: ``aplay`` (ALSA) as a separate process, fed the WAV on its stdin.

A process of its own keeps pygame's loop free (nothing is mixed in the game's thread) and is cut
short by ending the process. Where there is no sound device (no ``/dev/snd`` playback device, or
``SDL_AUDIODRIVER=dummy``: headless runs and the tests) or no ``aplay``, :func:`open_output` gives
``None`` and the reason: the sentences are still produced (and logged), only not heard.
"""

from __future__ import annotations

import glob
import logging
import os
import shutil
import subprocess
import threading
from typing import Protocol

__all__ = ["Aplay", "Output", "PlaybackError", "open_output", "sound_device"]

log = logging.getLogger(__name__)


class PlaybackError(RuntimeError):
    """The player failed (a busy or missing device); the message says why."""


class Output(Protocol):
    def play(self, wav: bytes, cut: threading.Event, started: threading.Event | None = None) -> bool:
        """Play ``wav`` to its end, or until ``cut`` is set (then stop at once); ``started`` is set
        when the sound was handed to the device. Returns whether it played to the end."""
        ...


def sound_device(environ: dict[str, str] | None = None, pattern: str = "/dev/snd/pcmC*D*p") -> str | None:
    """Why there is no sound device to play on, or ``None`` when there is one.

    >>> sound_device({"SDL_AUDIODRIVER": "dummy"})
    'SDL_AUDIODRIVER=dummy: no sound output'
    """
    env = os.environ if environ is None else environ
    if env.get("SDL_AUDIODRIVER", "").lower() == "dummy":
        return "SDL_AUDIODRIVER=dummy: no sound output"
    if not glob.glob(pattern):
        return "no sound device (no ALSA playback device in /dev/snd)"
    return None


class Aplay:
    """``aplay -q [-D DEVICE] -`` per sentence."""

    def __init__(self, program: str, device: str = "") -> None:
        self.program = program
        self.device = device

    def command(self) -> list[str]:
        return [self.program, "-q", *(["-D", self.device] if self.device else []), "-"]

    def play(self, wav: bytes, cut: threading.Event, started: threading.Event | None = None) -> bool:
        try:
            proc = subprocess.Popen(
                self.command(), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        except OSError as exc:
            raise PlaybackError(f"{self.program}: {exc}") from None
        assert proc.stdin is not None
        writer = threading.Thread(target=_feed, args=(proc.stdin, wav, started), daemon=True)
        writer.start()
        while proc.poll() is None:
            if cut.wait(0.01):
                proc.kill()
                proc.wait()
                writer.join(timeout=1.0)
                return False
        writer.join(timeout=1.0)
        if proc.returncode != 0:
            error = proc.stderr.read().decode("utf-8", "replace").strip() if proc.stderr else ""
            raise PlaybackError(f"{self.program} failed: {error or f'exit status {proc.returncode}'}")
        if proc.stderr is not None:
            proc.stderr.close()
        return True


def _feed(pipe: object, wav: bytes, started: threading.Event | None) -> None:
    """Write the WAV into the player's stdin (in pieces: the first one starts the sound)."""
    try:
        first = True
        for at in range(0, len(wav), 8192):
            pipe.write(wav[at : at + 8192])  # type: ignore[attr-defined]
            if first:
                pipe.flush()  # type: ignore[attr-defined]
                if started is not None:
                    started.set()
                first = False
        pipe.close()  # type: ignore[attr-defined]
    except (BrokenPipeError, OSError, ValueError):
        pass  # the player was cut short or failed: its exit status says which


def open_output(device: str = "", environ: dict[str, str] | None = None) -> tuple[Output | None, str]:
    """The player for this machine and a line saying what it is (or why there is none)."""
    missing = sound_device(environ)
    if missing is not None:
        return None, missing
    program = shutil.which("aplay")
    if program is None:
        return None, "aplay is not installed (apt install alsa-utils)"
    return Aplay(program, device), f"aplay on {device or 'the default ALSA device'}"
