"""The owner's voice settings (from the settings screen, behind the PIN): the voice on or off, its
volume and speed, which groups of sentences it says, a test sentence; and whether it can be heard
here (a sound device, the synthesiser). Kept in the journal as the setting ``voice``
(``device.voice.settings``), over the config's ``[voice]``."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from device.screens.base import Screen, screen
from device.ui.canvas import Canvas
from device.ui.theme import GOOD, TEXT_DIM, WARNING
from device.voice.kinds import GROUPS
from device.voice.settings import VoiceSettings

# The groups of sentences as the owner reads them.
GROUP_WORDS = {
    "turn": "Whose move",
    "timer": "Timer",
    "refusals": "Refusals",
    "rolls": "Rolls read",
    "scores": "Scores",
    "results": "Winners",
}
# Why the voice is not heard, in words (``device.voice.worker.Voice.silent``).
SILENT_WORDS = {
    "mute": "Muted (--mute): the sentences are only logged.",
    "synthesiser": "No synthesiser (espeak-ng): the referee is silent.",
    "device": "No sound device: the referee is silent.",
    "failed": "The voice failed (see the log): the referee is silent.",
}


@screen("voice_settings")
class VoiceSettingsScreen(Screen):
    def enter(self, **_: object) -> None:
        pass

    def back(self) -> None:
        self.host.show("settings", unlocked=True)

    @property
    def current(self) -> VoiceSettings:
        return VoiceSettings.of(self.host.config.voice, self.host.settings.voice)

    def store(self, settings: VoiceSettings) -> None:
        self.host.settings.set("voice", settings.stored())

    def switch(self, enabled: bool) -> None:
        self.store(replace(self.current, enabled=enabled))

    def step(self, name: str, step: int) -> None:
        self.store(self.current.stepped(name, step))

    def toggle(self, group: str) -> None:
        self.store(self.current.toggled(group))

    def test(self) -> None:
        voice = self.host.voice
        if voice is not None:
            voice.speak("test")

    def status(self) -> tuple[str, bool]:
        """What the owner should know about the voice here, and whether it is good news."""
        voice = self.host.voice
        worker = voice.voice if voice is not None else None
        if worker is None:
            return self._("No sound device: the referee is silent."), False
        silent = worker.silent()
        if silent is not None:
            return self._(SILENT_WORDS[silent]), False
        return self._("The referee's voice is heard here."), True

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        area = self.header(canvas, self._("Voice"))
        s = self.current
        m, gap = canvas.px(16), canvas.px(8)
        label_w, row_h = canvas.px(180), canvas.px(52)
        x0 = m + label_w
        y = area.top + gap

        def label(text: str) -> None:
            canvas.text(text, (m, y, label_w - gap, row_h), size=22, colour=TEXT_DIM)

        label(self._("Voice"))
        w = canvas.px(120)
        canvas.button((x0, y, w, row_h), self._("On"), partial(self.switch, True), selected=s.enabled)
        canvas.button(
            (x0 + w + gap, y, w, row_h), self._("Off"), partial(self.switch, False), selected=not s.enabled
        )
        tx = x0 + 2 * (w + gap) + canvas.px(24)
        canvas.button((tx, y, canvas.width - tx - m, row_h), self._("Test sentence"), self.test, size=20)
        y += row_h + gap
        for name, shown in (("volume", f"{s.volume} %"), ("speed", self._("{n} words/min", n=s.speed))):
            label(self._("Volume") if name == "volume" else self._("Speed"))
            canvas.button((x0, y, canvas.px(64), row_h), "−", partial(self.step, name, -1), size=30)
            canvas.text(shown, (x0 + canvas.px(72), y, canvas.px(176), row_h), size=24, align="center")
            canvas.button(
                (x0 + canvas.px(256), y, canvas.px(64), row_h), "+", partial(self.step, name, 1), size=30
            )
            y += row_h + gap
        label(self._("Say"))
        per_row = 3
        bw = (canvas.width - x0 - m - (per_row - 1) * gap) // per_row
        for i, group in enumerate(GROUPS):
            row, col = divmod(i, per_row)
            canvas.button(
                (x0 + col * (bw + gap), y + row * (row_h + gap), bw, row_h),
                self._(GROUP_WORDS[group]),
                partial(self.toggle, group),
                selected=group in s.messages,
                size=20,
            )
        y += 2 * (row_h + gap)
        text, good = self.status()
        canvas.paragraph(text, (m, y, canvas.width - 2 * m, canvas.height - y - gap), size=20,
                         colour=GOOD if good else WARNING)  # fmt: skip
