"""The referee's voice: spoken sentences from the game's events, offline, in pl/hu/de/en.

| module | what |
|---|---|
| ``kinds`` | every message kind, its group (the owner's switch) and its sentence from the catalogues |
| ``speaker`` | ``Speaker.speak(kind, **params)``: what the device (and the coach) calls |
| ``narrator`` | the game's events (actions, refusals, the move timer, phases) → kinds, once per frame |
| ``worker`` | ``Voice``: the speech thread, its short queue, cutting a move's sentence short, the voice log |
| ``synth`` | ``espeak-ng`` as a separate process → WAV |
| ``output`` | ``aplay`` as a separate process; whether there is a sound device |
| ``settings`` | the config's ``[voice]`` under the owner's changes |

:func:`start_voice` builds the worker for the appliance and the CLI; :func:`attach` wires it into the
app (the narrator runs as one of the app's frame hooks). See ``docs/voice.md``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from device.config import VoiceConfig
from device.voice.kinds import GROUPS, KINDS, Kind, register_kind, sentence
from device.voice.narrator import Narrator
from device.voice.output import open_output
from device.voice.settings import VoiceSettings
from device.voice.speaker import Speaker
from device.voice.synth import Synthesiser
from device.voice.worker import Message, Voice

if TYPE_CHECKING:
    from device.app import App

__all__ = [
    "GROUPS",
    "KINDS",
    "Kind",
    "Message",
    "Narrator",
    "Speaker",
    "Voice",
    "VoiceSettings",
    "VoiceSetup",
    "attach",
    "register_kind",
    "sentence",
    "start_voice",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class VoiceSetup:
    """The worker and a line for the log and the doctor about what can be heard."""

    voice: Voice
    synthesiser: str  # the program, or why there is none
    output: str  # the player, or why there is none

    @property
    def heard(self) -> bool:
        return self.voice.synthesiser is not None and self.voice.output is not None


def start_voice(config: VoiceConfig, *, mute: bool = False, log_path: str | Path | None = None) -> VoiceSetup:
    """The speech worker for this machine: espeak-ng and aplay where they are (and a sound device);
    ``mute``: neither (the sentences are still logged). What is missing is logged, never raised."""
    log_path = log_path or config.log or None
    if mute:
        voice = Voice(None, None, log_path=log_path, speed=config.speed, volume=config.volume, muted=True)
        log.info("voice: muted (--mute): the sentences are only logged")
        return VoiceSetup(voice, "muted (--mute)", "muted (--mute)")
    synth = Synthesiser()
    synth_line = synth.program or "espeak-ng is not installed (apt install espeak-ng)"
    output, output_line = open_output(config.device)
    voice = Voice(
        synth if synth.available else None,
        output,
        log_path=log_path,
        speed=config.speed,
        volume=config.volume,
    )
    if not synth.available:
        log.warning("voice: %s; the referee is silent", synth_line)
    elif output is None:
        log.warning("voice: %s; the referee is silent", output_line)
    else:
        log.info("voice: %s through %s", synth_line, output_line)
    return VoiceSetup(voice, synth_line, output_line)


def attach(app: App, voice: Voice | None) -> Narrator:
    """The app speaks: a :class:`Speaker` in the app's language with the owner's settings (``app.voice``)
    and the :class:`Narrator` of its games, polled once per frame."""
    speaker = Speaker(voice, app.tr, lambda: VoiceSettings.of(app.config.voice, app.settings.voice))
    narrator = Narrator(app, speaker)
    app.voice = speaker
    app.frame_hooks.append(narrator.poll)
    return narrator
