"""The simulated tables: what lies on a game's table when the appliance runs as the simulator.

Each game that can be played in the simulator registers a :class:`SimulatedTable` here
(``@register_table``, beside its session: ``device.sessions.dice_sim`` for the dice games). The
simulator (``device.simulator.Simulator``) makes one table for each game that starts or resumes and
hands it the keys, the clicks, one poll per frame and, with ``--autoplay``, the simulated players'
turn; the synthetic camera films :meth:`SimulatedTable.camera_frame`. A table knows only its own game
and talks to the appliance the way the players and the camera do, through the narrow
:class:`TableHost` (``device.simulator`` gives it over the app): it posts events (seat presses,
readings), taps the targets drawn on the screen by their labels, or changes what the camera sees. It
never sees the app, its loop or its canvas (``tests/test_layering.py`` checks that no session module
imports ``device.app``).
"""

from __future__ import annotations

import random
from typing import ClassVar, Protocol, TypeVar

import numpy as np
import pygame

from device.events import Event, Key, Tap
from device.session import GameSession

__all__ = ["TABLES", "SimulatedTable", "TableHost", "register_table", "table_for"]


class TableHost(Protocol):
    """What a simulated table may do with the appliance: what its players and its camera can do."""

    @property
    def session(self) -> GameSession | None:
        """The game being played (the one the players look at on the screen)."""

    @property
    def screen(self) -> str:
        """The name of the screen showing."""

    @property
    def frames(self) -> int:
        """Frames drawn so far: a player taps once per frame, after the screen drew his last tap."""

    def clock(self) -> float: ...

    def post(self, event: Event) -> None:
        """An event on the appliance's queue (a seat press, a reading), as a driver posts it."""

    def text(self, msgid: str, **values: object) -> str:
        """A sentence in the players' language (``Translator.format``): the label of a drawn button."""

    def labels(self) -> list[str]:
        """The labels of the touch targets drawn now, in drawing order."""

    def tap(self, label: str) -> bool:
        """A tap at the centre of the first target drawn now with ``label``; ``False``: none is."""

    @property
    def camera_size(self) -> tuple[int, int]:
        """The synthetic camera's frame (width, height): the simulator's calibration takes a frame of
        this size as the play area, so a table films its scene at this size."""

    def image_rect(self, label: str) -> pygame.Rect | None:
        """Where the image labelled ``label`` was drawn this frame (Rummikub's camera panel)."""

    def show(self, screen: str) -> None:
        """Walk to a screen by name (a player back at the table screen after a correction)."""

    def show_game(self) -> None:
        """Back to the game's screen (a player back at the table after a banner or a menu)."""


class SimulatedTable:
    """One game's table in the simulator; subclasses override what their game needs.

    ``camera`` says whether the synthetic camera films the table (then :meth:`camera_frame` is what it
    sees, and the vision worker reads it) or not (then the table posts its readings itself).
    """

    games: ClassVar[tuple[str, ...]] = ()  # the game names this table simulates

    def __init__(self, host: TableHost, rng: random.Random, *, camera: bool) -> None:
        self.host = host
        self.rng = rng
        self.camera = camera

    def on_key(self, event: Key) -> bool:
        """A key while this table's game is on (the seat keys are the simulator's); ``True``: used."""
        return False

    def on_mouse(self, event: Tap) -> bool:
        """A click or touch, offered before the screens get it; ``True``: used here (not a screen tap)."""
        return False

    def poll(self, session: GameSession) -> None:
        """Once per frame while this table's game is on."""

    def play(self, session: GameSession) -> None:
        """Autoplay: one step of the simulated players (they press, tap and move things like people)."""

    def camera_frame(self) -> np.ndarray | None:
        """What the synthetic camera sees (BGR); ``None``: nothing on the table yet (the empty felt)."""
        return None

    @classmethod
    def autoplay_options(cls, game: str, rng: random.Random) -> dict[str, object]:
        """Option overrides for a game the simulated players start (beyond two players and a seed)."""
        return {}


TABLES: dict[str, type[SimulatedTable]] = {}
T = TypeVar("T", bound=type[SimulatedTable])


def register_table(cls: T) -> T:
    """Class decorator: ``cls`` is the simulated table of every game in ``cls.games``."""
    if not cls.games:
        raise ValueError(f"{cls.__name__} names no game")
    for game in cls.games:
        if game in TABLES and TABLES[game] is not cls:
            raise ValueError(f"game {game!r} has two simulated tables")
        TABLES[game] = cls
    return cls


def table_for(game: str) -> type[SimulatedTable] | None:
    """The simulated table of ``game``, if it has one."""
    return TABLES.get(game)
