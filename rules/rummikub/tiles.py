"""Rummikub tiles: the value object, the 106-tile set and rack sums.

>>> Tile.parse("R7"), str(Tile.parse("k13")), Tile.parse("J").is_joker
(Tile(colour='R', number=7), 'K13', True)
>>> [str(t) for t in parse_tiles("R7 R8 J")]
['R7', 'R8', 'J']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.errors import NotationError

__all__ = ["COLOURS", "COLOUR_NAMES", "JOKER", "NUMBERS", "Tile", "full_set", "parse_tiles", "tiles_text"]

COLOURS = ("R", "B", "K", "O")
COLOUR_NAMES = {"R": "red", "B": "blue", "K": "black", "O": "orange"}
NUMBERS = range(1, 14)
_JOKER_COLOUR = "J"


@dataclass(frozen=True)
class Tile:
    """One tile: a colour letter (R B K O) and a number 1–13, or the joker (colour ``J``, number 0)."""

    colour: str
    number: int

    def __post_init__(self) -> None:
        if self.colour == _JOKER_COLOUR:
            if self.number != 0:
                raise NotationError(f"a joker has no number, got {self.number}")
        elif self.colour not in COLOURS or self.number not in NUMBERS:
            raise NotationError(f"no such tile: colour {self.colour!r}, number {self.number}")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """``R7``, ``K13``, ``o1`` (case-insensitive) or ``J`` for the joker."""
        word = text.strip().upper()
        if word == _JOKER_COLOUR:
            return JOKER
        if len(word) >= 2 and word[0] in COLOURS and word[1:].isdigit():
            number = int(word[1:])
            if number in NUMBERS:
                return cls(word[0], number)
        raise NotationError(f"not a Rummikub tile: {text!r} (colour R/B/K/O + number 1–13, or J)")

    @property
    def is_joker(self) -> bool:
        return self.colour == _JOKER_COLOUR

    @property
    def colour_index(self) -> int:
        """0–3 in the order R B K O (the joker raises ``ValueError``)."""
        return COLOURS.index(self.colour)

    def sort_key(self) -> tuple[int, int]:
        """Colour order R B K O, then number; jokers last."""
        return (4, 0) if self.is_joker else (COLOURS.index(self.colour), self.number)

    def __str__(self) -> str:
        return _JOKER_COLOUR if self.is_joker else f"{self.colour}{self.number}"


JOKER = Tile(_JOKER_COLOUR, 0)


def parse_tiles(text: str | Iterable[str]) -> list[Tile]:
    """Tiles from space-separated text (or an iterable of tile texts), in the given order.

    Raises :class:`~rules.errors.NotationError` naming the word that is not a tile.
    """
    words = text.split() if isinstance(text, str) else list(text)
    tiles = []
    for word in words:
        try:
            tiles.append(Tile.parse(word))
        except ValueError as exc:
            raise NotationError(str(exc)) from None
    return tiles


def tiles_text(tiles: Iterable[Tile]) -> str:
    """The notation of a tile sequence: tiles space-separated, in order."""
    return " ".join(str(t) for t in tiles)


def full_set() -> list[Tile]:
    """The 106 tiles: 1–13 in four colours, twice each, plus two jokers (in a fixed order)."""
    naturals = [Tile(c, n) for c in COLOURS for n in NUMBERS]
    return [*naturals, *naturals, JOKER, JOKER]
