"""The one error type for a rule violation."""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """A move or entry that the rules forbid.

    ``code`` is a stable snake_case word (tests, the journal and the screens key on it and it never
    changes once released); ``message`` is a human sentence in English that names the offending dice,
    tiles or cards; ``details`` carries machine-readable specifics (for translated messages on screen).

    >>> err = IllegalAction("box_filled", "box 'chance' is already filled", box="chance")
    >>> err.code, err.details["box"]
    ('box_filled', 'chance')
    """

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"


class OptionError(ValueError):
    """A rule option (or config key) with a value the game does not accept; names the key."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message
