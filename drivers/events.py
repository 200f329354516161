"""Events that drivers post to the device's one event queue.

Drivers take a ``post`` callable (``queue.Queue.put`` or the device loop's poster) and call it with
these small frozen values from their own threads; they never touch the game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

__all__ = [
    "ButtonEvent",
    "CameraBack",
    "CameraLost",
    "DriverEvent",
    "PodConnected",
    "PodLost",
    "Post",
    "guarded",
]


@dataclass(frozen=True)
class ButtonEvent:
    """A seat button: ``press`` (after debounce), ``hold`` (long press, once) or ``release``.

    ``seat`` is 0-based; ``source`` says where it came from (``gpio``, ``pod``, ``keyboard``).
    """

    seat: int
    kind: Literal["press", "hold", "release"]
    source: str = "gpio"


@dataclass(frozen=True)
class CameraLost:
    source: str
    reason: str


@dataclass(frozen=True)
class CameraBack:
    source: str


@dataclass(frozen=True)
class PodConnected:
    port: str
    version: str


@dataclass(frozen=True)
class PodLost:
    port: str
    reason: str


DriverEvent = ButtonEvent | CameraLost | CameraBack | PodConnected | PodLost
# What a driver is given to post its events with (each driver takes one for the events it posts:
# ``drivers.seats.ButtonPost``, ``drivers.pods.PodPost``, ``drivers.camera.CameraPost``).
Post = Callable[[DriverEvent], None]
E = TypeVar("E")


def guarded(post: Callable[[E], None]) -> Callable[[E], None]:
    """``post`` for a driver's own thread: a failure to deliver is logged, and the thread lives on."""

    def deliver(event: E) -> None:
        try:
            post(event)
        except Exception:
            logging.getLogger(__name__).exception("could not post %r", event)

    return deliver
