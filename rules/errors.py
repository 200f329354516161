"""The rule engine's errors: one hierarchy, each also a builtin ``ValueError`` (as gpiozero's errors are).

- :class:`NotationError`: text (or JSON) that is not a tile, a card, a roll, a meld or an action at all
  (python-chess's *invalid* move);
- :class:`IllegalAction`: a well-formed move that the rules refuse in this position (an *illegal* move);
- :class:`OptionError`: a rule option, or config key, with a value the game does not accept.

Catch :class:`RulesError` for all three.

>>> from rules.rummikub import Tile
>>> try:
...     Tile.parse("Z9")
... except RulesError as err:
...     type(err).__name__, isinstance(err, ValueError)
('NotationError', True)
"""

from __future__ import annotations

__all__ = ["IllegalAction", "NotationError", "OptionError", "RulesError"]


class RulesError(ValueError):
    """Base of every error the rule engine raises about a game's input."""


class NotationError(RulesError):
    """Text that does not parse: ``message`` names the text and what was expected.

    >>> NotationError("not a roll of 5 dice 1–6: '1 2'").message
    "not a roll of 5 dice 1–6: '1 2'"
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class IllegalAction(RulesError):
    """A move or entry that the rules forbid.

    ``code`` is a stable snake_case word (tests, the journal and the screens key on it and it never
    changes once released); ``message`` is a human sentence in English that names the offending dice,
    tiles or cards; ``details`` carries machine-readable specifics (for translated messages on screen).

    >>> err = IllegalAction("box_filled", "box 'chance' is already filled", box="chance")
    >>> err.code, err.details["box"]
    ('box_filled', 'chance')
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"


class OptionError(RulesError):
    """A rule option (or config key) with a value the game does not accept; names the key."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message
