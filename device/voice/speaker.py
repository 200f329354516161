"""What the appliance talks through: :meth:`Speaker.speak` takes a message kind and its parameters,
says it in the players' language if the owner has its group on, and returns at once.

>>> from device.config import VoiceConfig
>>> from device.i18n import Translator
>>> speaker = Speaker(None, Translator("hu"), lambda: VoiceSettings.of(VoiceConfig()))
>>> speaker.speak("your_move", name="Ola")
'Ola, te jössz.'
>>> speaker.speak("roll", dice=(1, 2, 3, 4, 5)) is None  # the roll is read only when the owner asks
True

Anything in the device may speak through it (the session's narrator, the coach's advice: a kind
registered with :func:`device.voice.kinds.register_kind`); ``move`` ties a sentence to the move being
played, so that :meth:`end_move` cuts it short when that move ends.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from device.i18n import Translator
from device.voice.kinds import KINDS, VoiceParamError, sentence
from device.voice.settings import VoiceSettings
from device.voice.worker import Message, Voice

__all__ = ["Speaker"]

log = logging.getLogger(__name__)


class Speaker:
    def __init__(self, voice: Voice | None, tr: Translator, settings: Callable[[], VoiceSettings]) -> None:
        self.voice = voice  # None: sentences are made (and returned) but not said
        self.tr = tr
        self.settings = settings
        self._was_enabled = True

    def speak(self, kind: str, *, move: int | None = None, **params: object) -> str | None:
        """Say ``kind`` with ``params``; the sentence said, or ``None`` when its group is off."""
        found = KINDS.get(kind)
        if found is None:
            raise VoiceParamError(f"{kind!r} is not a message kind; kinds: {', '.join(KINDS)}")
        settings = self.settings()
        self._follow(settings)
        if not settings.says(found.group):
            return None
        text = sentence(self.tr, kind, **params)
        voice = self.voice
        if voice is not None:
            voice.speed, voice.volume = settings.speed, settings.volume
            voice.say(Message(kind, text, self.tr.language, move if found.move else None))
        return text

    def end_move(self, move: int) -> None:
        if self.voice is not None:
            self.voice.end_move(move)

    def _follow(self, settings: VoiceSettings) -> None:
        """The owner switched the voice off: what it was saying stops."""
        if self._was_enabled and not settings.enabled and self.voice is not None:
            self.voice.silence()
        self._was_enabled = settings.enabled

    def poll(self) -> None:
        """Once per frame: follow the owner's switch even when nothing is said."""
        self._follow(self.settings())
