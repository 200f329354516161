"""The one event queue of the appliance and the events that travel on it.

Everything that happens reaches the game thread through :class:`EventQueue`: seat buttons
(``drivers.events.ButtonEvent``, posted by the GPIO driver's threads or the simulator's keys), touches
and keys (converted from pygame events by :func:`from_pygame`), readings of the table by the vision
worker (:class:`Seen`), camera and pod status, :class:`Tick` once per frame for the move timer, and a
game's own events (a :class:`GameEvent`: the dice games' ``device.sessions.dice_events.DiceSeen``).
"""

from __future__ import annotations

import queue
from dataclasses import dataclass
from typing import Literal

import pygame

from drivers.events import ButtonEvent, CameraBack, CameraLost, PodConnected, PodLost
from vision.observation import Observation

__all__ = [
    "ButtonEvent",
    "CameraBack",
    "CameraLost",
    "Event",
    "EventQueue",
    "GameEvent",
    "Key",
    "PodConnected",
    "PodLost",
    "Quit",
    "Seen",
    "Tap",
    "Tick",
    "TimerSignal",
    "from_pygame",
]


@dataclass(frozen=True)
class Tap:
    """A touch or a mouse click at a screen position (pixels)."""

    pos: tuple[int, int]


@dataclass(frozen=True)
class Key:
    """A key pressed on a keyboard (the simulator, or a USB keyboard on the Pi)."""

    key: int
    text: str = ""
    down: bool = True  # key releases only matter to the simulator's seat keys (a long press is a hold)


@dataclass(frozen=True)
class Quit:
    pass


@dataclass(frozen=True)
class Tick:
    """Once per frame, with the monotonic time: drives the move timer."""

    now: float


@dataclass(frozen=True)
class GameEvent:
    """A game's own event, defined beside its session (the dice games' ``DiceSeen``): the app hands it
    to the session (``GameSession.on_event``) like every domain event."""


@dataclass(frozen=True)
class Seen:
    """A reading of the table by the game's reader (``device.vision_worker``), for the session:

    - ``settled``: the scene came to rest (``gap``: the camera lost frames since the previous one);
    - ``requested``: read on demand (``GameSession.request_reading``), settled or not;
    - ``start``: the table as it lies when a game starts (``None``: nothing settled — an empty table or
      things moving).
    """

    observation: Observation | None
    gap: bool = False
    kind: Literal["settled", "requested", "start"] = "settled"


@dataclass(frozen=True)
class TimerSignal:
    """The move timer's warning (10 s left) or timeout, for the session of the seat to move."""

    kind: Literal["warning", "timeout"]
    seat: int


Event = (
    ButtonEvent
    | CameraLost
    | CameraBack
    | PodConnected
    | PodLost
    | Tap
    | Key
    | Quit
    | Tick
    | Seen
    | TimerSignal
    | GameEvent
)


class EventQueue:
    """Thread-safe: drivers and the vision worker ``post`` from their threads, the loop ``drain``s."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Event] = queue.SimpleQueue()

    def post(self, event: Event) -> None:
        self._queue.put(event)

    def drain(self) -> list[Event]:
        events = []
        while True:
            try:
                events.append(self._queue.get_nowait())
            except queue.Empty:
                return events


def from_pygame(event: pygame.event.Event, size: tuple[int, int]) -> Event | None:
    """The device event for a pygame input event, or ``None`` for those we ignore."""
    if event.type == pygame.QUIT:
        return Quit()
    if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
        return Tap((int(event.pos[0]), int(event.pos[1])))
    if event.type == pygame.FINGERDOWN:
        # Touchscreens report fingers in 0..1 coordinates; SDL also sends a synthetic mouse event for
        # the same touch unless told not to, which the loop disables (SDL_TOUCH_MOUSE_EVENTS=0).
        return Tap((int(event.x * size[0]), int(event.y * size[1])))
    if event.type == pygame.KEYDOWN:
        return Key(event.key, event.unicode or "")
    if event.type == pygame.KEYUP:
        return Key(event.key, "", down=False)
    return None
