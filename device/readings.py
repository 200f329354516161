"""The camera port: how a session asks for a reading of the table, and how the reading comes back.

A session never holds the camera. It is given a :class:`ReadingPort` (``GameSession.readings``: the app
gives each game it starts or resumes its own, :class:`device.app.AppReadings`) and calls
:meth:`ReadingPort.request` when a phase needs the table read now (the Rummikub seat press, Zatre's
turn, a puzzle's check). The reading comes back later, as every reading does, as an event through the
app's queue: ``Seen(kind="requested")`` (``device.events``), handed to ``GameSession.handle`` and so to
the session's current state. Nothing is polled: the request goes out while the event that caused it is
handled.

A session that no app drives (a test's, a bench's) keeps :class:`HeldReadings`: the requests are
written down, and whoever drives the session answers them by posting the reading itself.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["HeldReadings", "ReadingPort"]


class ReadingPort(Protocol):
    def request(self, frames: int = 1) -> bool:
        """Read the table now (settled or not; ``frames`` > 1: that many frames put to the game
        reader's vote); the reading arrives as ``Seen(kind="requested")``. Returns ``False`` when
        nothing will answer (no camera): the session says so to the players."""
        ...


class HeldReadings:
    """The port of a session outside the app: each request kept (the frames asked for), none answered
    but by whoever drives the session."""

    def __init__(self) -> None:
        self.requests: list[int] = []

    def request(self, frames: int = 1) -> bool:
        self.requests.append(frames)
        return True
