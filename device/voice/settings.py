"""The voice as the owner set it: the config's ``[voice]`` under the owner's changes on the settings
screen (kept in the journal as the setting ``voice``; a value out of range there is ignored, the
config's stands).

>>> from device.config import VoiceConfig
>>> VoiceSettings.of(VoiceConfig(), {"volume": 150, "speed": 9999, "messages": ["turn", "rolls"]})
VoiceSettings(enabled=True, volume=150, speed=160, messages=('turn', 'rolls'))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import TypeGuard

from device.config import VoiceConfig
from device.voice.kinds import GROUPS
from device.voice.synth import SPEED_RANGE, VOLUME_RANGE

__all__ = ["SPEED_STEP", "VOLUME_STEP", "VoiceSettings"]

VOLUME_STEP = 20
SPEED_STEP = 20


@dataclass(frozen=True)
class VoiceSettings:
    enabled: bool
    volume: int
    speed: int
    messages: tuple[str, ...]

    @classmethod
    def of(cls, config: VoiceConfig, owner: Mapping[str, object] | None = None) -> VoiceSettings:
        s = cls(config.enabled, config.volume, config.speed, tuple(config.messages))
        owner = owner or {}
        enabled = owner.get("enabled")
        if isinstance(enabled, bool):
            s = replace(s, enabled=enabled)
        volume = owner.get("volume")
        if _int_in(volume, VOLUME_RANGE):
            s = replace(s, volume=volume)
        speed = owner.get("speed")
        if _int_in(speed, SPEED_RANGE):
            s = replace(s, speed=speed)
        messages = owner.get("messages")
        if isinstance(messages, list | tuple) and all(m in GROUPS for m in messages):
            s = replace(s, messages=tuple(g for g in GROUPS if g in messages))
        return s

    def says(self, group: str) -> bool:
        """Whether sentences of ``group`` are said (the test sentence always, when the voice is on)."""
        return self.enabled and (group == "test" or group in self.messages)

    def stepped(self, name: str, step: int) -> VoiceSettings:
        """Volume or speed one step up or down, within its range."""
        low, high = VOLUME_RANGE if name == "volume" else SPEED_RANGE
        size = VOLUME_STEP if name == "volume" else SPEED_STEP
        now = self.volume if name == "volume" else self.speed
        value = min(high, max(low, now + step * size))
        return replace(self, volume=value) if name == "volume" else replace(self, speed=value)

    def toggled(self, group: str) -> VoiceSettings:
        on = set(self.messages) ^ {group}
        return replace(self, messages=tuple(g for g in GROUPS if g in on))

    def stored(self) -> dict[str, object]:
        """As the journal keeps it."""
        data = asdict(self)
        data["messages"] = list(self.messages)
        return data


def _int_in(value: object, bounds: tuple[int, int]) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and bounds[0] <= value <= bounds[1]
