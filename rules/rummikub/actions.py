"""The Rummikub actions; each round-trips through JSON (melds and tiles in their text form).

>>> from rules.actions import action_from_json, action_to_json
>>> act = Play((Meld.parse("R3 R4 R5"), Meld.parse("B7 K7 O7 J")))
>>> action_to_json(act)
{'kind': 'rummikub.play', 'table': ['R3 R4 R5', 'B7 K7 O7 J']}
>>> action_from_json(action_to_json(act)) == act
True
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.actions import Action, action
from rules.rummikub.melds import Meld
from rules.rummikub.tiles import Tile

__all__ = [
    "Announce",
    "Draw",
    "Extend",
    "NextHand",
    "Open",
    "Play",
    "Redeal",
    "Reveal",
    "RevealRack",
    "ShowRack",
    "Start",
    "TakeHint",
    "Timeout",
]


@action("rummikub.start")
@dataclass(frozen=True)
class Start(Action):
    """Referee mode: the seat that won the starting draw at the table."""

    seat: int


@action("rummikub.redeal")
@dataclass(frozen=True)
class Redeal(Action):
    """Before the first turn, ``seat`` (dealt ≥ 3 identical pairs) asks for a reshuffle and redeal."""

    seat: int


@action("rummikub.open")
@dataclass(frozen=True)
class Open(Action):
    """The player to move lays new melds from his rack without touching the table."""

    melds: tuple[Meld, ...]


@action("rummikub.play")
@dataclass(frozen=True)
class Play(Action):
    """The player to move ends his turn with this whole table (melds in table order)."""

    table: tuple[Meld, ...]


@action("rummikub.draw")
@dataclass(frozen=True)
class Draw(Action):
    """The player to move draws a tile (or passes when the pool is empty)."""


@action("rummikub.timeout")
@dataclass(frozen=True)
class Timeout(Action):
    """The move timer ran out; ``manipulated``: the table had been changed (restore and draw 3)."""

    manipulated: bool


@action("rummikub.announce")
@dataclass(frozen=True)
class Announce(Action):
    """``seat``, not yet opened, announces that he will open on his next turn (the −200 exemption)."""

    seat: int


@action("rummikub.reveal")
@dataclass(frozen=True)
class Reveal(Action):
    """Referee mode, at the end: every player's final rack, in seat order."""

    racks: tuple[tuple[Tile, ...], ...]


@action("rummikub.reveal_rack")
@dataclass(frozen=True)
class RevealRack(Action):
    """Referee mode, at the end of a hand: one player's final rack (the hand is scored once every
    rack is known; ``Reveal`` gives them all at once)."""

    seat: int
    rack: tuple[Tile, ...]


@action("rummikub.extend")
@dataclass(frozen=True)
class Extend(Action):
    """The player to move takes one of his time extensions (``extension_seconds`` more)."""

    seat: int


@action("rummikub.next_hand")
@dataclass(frozen=True)
class NextHand(Action):
    """After a scored hand that did not end the game: a new hand is dealt."""


@action("rummikub.show_rack")
@dataclass(frozen=True)
class ShowRack(Action):
    """The learning table (``options.learning``): the player to move shows his whole rack before his
    move, so that the coach can say what it allowed. Nothing of the game changes."""

    seat: int
    rack: tuple[Tile, ...]


@action("rummikub.hint")
@dataclass(frozen=True)
class TakeHint(Action):
    """The learning table: the player to move asks for a hint (``stage`` 1: how many tiles the best
    move lays; 2: the move itself). Counted, shown at the end; nothing of the game changes."""

    seat: int
    stage: int
