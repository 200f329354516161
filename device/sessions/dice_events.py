"""The dice games' own events: the dice on the table as the session sees them.

The vision worker's dice reading (``vision.dice.DiceObservation``) becomes a :class:`DiceSeen` in the
dice session (``device.sessions.dice.seen_from_observation``); the simulated dice table without a
camera, the correction screen and the tests hand the session a :class:`DiceSeen` directly (a
:class:`device.events.GameEvent`: the app passes it to the session's ``on_event``).
"""

from __future__ import annotations

from dataclasses import dataclass

from device.events import GameEvent

__all__ = ["DiceSeen", "SeenDie"]


@dataclass(frozen=True)
class SeenDie:
    """One die as the camera read it; ``value`` is ``None`` when the reader could not tell.

    ``center`` and ``size`` (camera frame pixels) say where it lies, so that a reading can be compared
    with the one before (``device.sessions.dice_rolls``); ``None`` for dice entered by hand."""

    value: int | None
    held: bool = False
    uncertain: bool = False
    center: tuple[float, float] | None = None
    size: float = 0.0

    def __str__(self) -> str:
        text = "?" if self.value is None else str(self.value)
        return f"[{text}]" if self.held else text


@dataclass(frozen=True)
class DiceSeen(GameEvent):
    """The dice on the table after they settled, in reading order (whether they were thrown is the
    session's question). ``gap``: the camera lost frames since the previous settled reading."""

    dice: tuple[SeenDie, ...]
    gap: bool = False

    @property
    def certain(self) -> bool:
        return all(d.value is not None and not d.uncertain for d in self.dice)
