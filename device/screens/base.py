"""The screen interface and the registry of screens by name.

A screen is a state of the appliance (pibooth style): :meth:`Screen.enter` when it is shown,
:meth:`Screen.handle` for each event the loop gives it, :meth:`Screen.draw` once per frame. Screens
register under a name with :func:`screen`; a game's table screen is named by its session
(``GameSession.table_screen``), so a new game adds a session module and a screen module, nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import pygame

from device.events import Event, Key
from device.i18n import Translator
from device.ui.canvas import Canvas
from device.ui.theme import ACCENT, PANEL

if TYPE_CHECKING:
    from device.camera_view import GameReader
    from device.host import Host
    from vision.observation import Observation

__all__ = ["SCREENS", "Screen", "screen"]


class Screen:
    name: ClassVar[str] = ""
    # A screen that reads the table itself (the owner's Zatre deck count): the camera reads with this
    # while the screen shows, and its readings (``Seen``) come to :meth:`handle`, not to the game.
    reader: ClassVar[GameReader[Observation] | None] = None

    def __init__(self, host: Host) -> None:
        self.host = host

    @property
    def tr(self) -> Translator:
        return self.host.tr

    def _(self, msgid: str, **values: object) -> str:
        """The text in the current language (``values`` are formatted in)."""
        return self.host.tr.format(msgid, **values)

    def enter(self, **kwargs: Any) -> None:  # Any: each screen's own keywords (Host.show passes them)
        """Called each time the screen is shown."""

    def handle(self, event: Event) -> None:
        """Seat buttons, dice seen, keys: whatever the screen cares about. Taps are routed by the loop."""
        if isinstance(event, Key) and event.key == pygame.K_ESCAPE:
            self.back()

    def back(self) -> None:
        self.host.show("home")

    def draw(self, canvas: Canvas) -> None:
        raise NotImplementedError

    # --- shared drawing ------------------------------------------------------------------------------

    def header(self, canvas: Canvas, title: str, *, back: bool = True) -> pygame.Rect:
        """The top bar with the title and a back button; returns the area below it."""
        bar = pygame.Rect(0, 0, canvas.width, canvas.px(56))
        canvas.shape(bar, PANEL)
        left = canvas.px(8)
        if back:
            canvas.button(
                (left, canvas.px(8), canvas.px(96), canvas.px(48)), self._("Back"), self.back, size=20
            )
            left += canvas.px(112)
        canvas.text(
            title,
            (left, 0, canvas.width - left - canvas.px(8), bar.height),
            size=30,
            colour=ACCENT,
            bold=True,
        )
        return pygame.Rect(0, bar.bottom, canvas.width, canvas.height - bar.bottom)


SCREENS: dict[str, type[Screen]] = {}
S = TypeVar("S", bound=type[Screen])


def screen(name: str) -> Callable[[S], S]:
    def register(cls: S) -> S:
        cls.name = name
        SCREENS[name] = cls
        return cls

    return register
