"""What a screen may ask of the appliance: the narrow :class:`Host` interface (``device.app.App`` is
the one implementation; tests may give a screen another). Screens draw the host's session and turn
taps into calls on the session or on the host — they never reach into the loop, the queue or the
drivers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from device.camera_view import CameraFeed
    from device.config import Config
    from device.i18n import Translator
    from device.journal import Journal
    from device.session import GameSession
    from device.settings import Settings
    from device.voice.speaker import Speaker
    from rules import Options

__all__ = ["Host"]


class Host(Protocol):
    @property
    def config(self) -> Config: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def tr(self) -> Translator: ...

    @property
    def journal(self) -> Journal:
        """History, statistics, the set-aside file, the owner's settings: read on change, not per frame."""

    @property
    def session(self) -> GameSession | None: ...

    @property
    def camera(self) -> CameraFeed | None: ...

    @property
    def voice(self) -> Speaker | None:
        """The referee's voice (``device.voice``), when it speaks: ``voice.speak(kind, **params)``."""

    @property
    def camera_status(self) -> str | None:
        """Why the camera is gone, in the players' language, while it is."""

    @property
    def failure(self) -> str | None:
        """The unexpected error the failsafe screen shows."""

    @property
    def journal_failed(self) -> bool:
        """Whether the failure came from the journal (the failsafe screen then does not ask it)."""

    def clock(self) -> float: ...

    def game_seed(self) -> int:
        """The seed of a game a person starts: from the clock (a scripted simulator run: ``--seed``'s)."""

    def show(self, name: str, **kwargs: Any) -> None: ...  # Any: the screen's own keywords (Screen.enter)

    def show_game(self) -> None:
        """Back to the game: the screen its phase needs, the end screen, or home without a game."""

    def start_game(self, options: Options, names: list[str]) -> GameSession: ...

    def end_session(self) -> None: ...

    def replay_with_same_players(self) -> None:
        """From the end screen: the players screen for a new game of the same game and variant."""

    def resume_unfinished(self) -> None: ...

    def set_aside_unfinished(self) -> None: ...

    def dismiss_failure(self) -> None:
        """Continue after a failure: the game resumes from the journal."""

    def set_language(self, language: str) -> None: ...

    def set_move_seconds(self, game: str, seconds: int) -> None:
        """The owner's move time limit for ``game``; the game being played follows at once."""
