"""The synthesiser: ``espeak-ng`` run as a separate process (never linked), one per sentence.

``espeak-ng -v pl -s 160 -a 100 -b 1 --stdout`` reads the sentence (UTF-8) on stdin and writes a WAV
(22,050 Hz, 16-bit mono) on stdout; a short sentence takes about 10–40 ms here. Its streamed header
carries placeholder sizes, which :func:`fix_header` replaces with the real ones so that the ``wave``
module (and the tests) read the length.
"""

from __future__ import annotations

import io
import shutil
import struct
import subprocess
import wave

__all__ = [
    "LANGUAGE_VOICES",
    "SPEED_RANGE",
    "VOLUME_RANGE",
    "SynthesisError",
    "Synthesiser",
    "find_synthesiser",
    "fix_header",
    "wav_seconds",
]

# espeak-ng's voice for each of the appliance's languages.
LANGUAGE_VOICES = {"pl": "pl", "hu": "hu", "de": "de", "en": "en"}
SPEED_RANGE = (80, 400)  # words per minute (espeak-ng -s; its default is 175)
VOLUME_RANGE = (0, 200)  # espeak-ng's amplitude (-a; 100 is its normal loudness)
PROGRAMS = ("espeak-ng", "espeak")
NICE = shutil.which("nice")  # coreutils: espeak-ng runs at a lower priority than the appliance


class SynthesisError(RuntimeError):
    """The synthesiser is missing or failed; the message says which and why."""


def find_synthesiser() -> str | None:
    """The path of ``espeak-ng`` (or the older ``espeak``), ``None`` when neither is installed."""
    for name in PROGRAMS:
        path = shutil.which(name)
        if path is not None:
            return path
    return None


def fix_header(data: bytes) -> bytes:
    """A streamed WAV with its RIFF and data sizes set to what it holds (espeak-ng's ``--stdout``
    writes placeholders, as it does not know the length in advance).

    >>> streamed = b"RIFF" + struct.pack("<I", 0x7FFFF024) + b"WAVEfmt " + bytes(20) + b"data"
    >>> fixed = fix_header(streamed + struct.pack("<I", 0x7FFFF000) + bytes(8))
    >>> struct.unpack("<I", fixed[4:8])[0], struct.unpack("<I", fixed[40:44])[0]
    (44, 8)
    """
    if len(data) < 44 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise SynthesisError("the synthesiser's output is not a WAV")
    at = 12
    while at + 8 <= len(data):
        chunk, size = data[at : at + 4], struct.unpack("<I", data[at + 4 : at + 8])[0]
        if chunk == b"data":
            body = len(data) - at - 8
            out = bytearray(data)
            out[4:8] = struct.pack("<I", len(data) - 8)
            out[at + 4 : at + 8] = struct.pack("<I", body)
            return bytes(out)
        at += 8 + size + (size & 1)
    raise SynthesisError("the synthesiser's WAV has no data")


def wav_seconds(data: bytes) -> float:
    """How long a WAV plays, in seconds."""
    with wave.open(io.BytesIO(data)) as w:
        return w.getnframes() / float(w.getframerate())


class Synthesiser:
    """One ``espeak-ng`` process per sentence (the text on its stdin, so no name is taken for an option)."""

    def __init__(self, program: str | None = None, *, timeout: float = 10.0) -> None:
        self.program = program if program is not None else find_synthesiser()
        self.timeout = timeout

    @property
    def available(self) -> bool:
        return self.program is not None

    def wav(self, text: str, language: str, *, speed: int = 160, volume: int = 100) -> bytes:
        """The sentence as a WAV; :class:`SynthesisError` when espeak-ng is missing or fails."""
        if self.program is None:
            raise SynthesisError("espeak-ng is not installed (apt install espeak-ng)")
        voice = LANGUAGE_VOICES.get(language)
        if voice is None:
            raise SynthesisError(f"no voice for the language {language!r}")
        speed = min(max(int(speed), SPEED_RANGE[0]), SPEED_RANGE[1])
        volume = min(max(int(volume), VOLUME_RANGE[0]), VOLUME_RANGE[1])
        command = [self.program, "-v", voice, "-s", str(speed), "-a", str(volume), "-b", "1", "--stdout"]
        if NICE is not None:
            command = [NICE, "-n", "5", *command]  # the game's loop before the synthesiser
        try:
            done = subprocess.run(
                command, input=text.encode("utf-8"), capture_output=True, timeout=self.timeout, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SynthesisError(f"{self.program} failed: {exc}") from None
        if done.returncode != 0:
            error = done.stderr.decode("utf-8", "replace").strip().splitlines()
            why = error[-1] if error else f"exit status {done.returncode}"
            raise SynthesisError(f"{self.program} -v {voice} failed: {why}")
        return fix_header(done.stdout)
