"""The rule options of Zatre – the card game: the deck and the row-bonus table of the score sheet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

from rules.errors import OptionError
from rules.options import Options, Range
from rules.zatre.cards import Card
from rules.zatre.deck import DeckError, check_deck, default_deck
from rules.zatre.sheet import DEFAULT_ROW_BONUS

__all__ = ["ZatreOptions"]


@dataclass(frozen=True)
class ZatreOptions(Options):
    """``deck``: the 50 cards as texts (empty: the assumed deck, ``rules.zatre.deck.DEFAULT_COUNTS``);
    ``row_bonus``: the bonus of each sheet row, top-down (the default is an assumption);
    ``information``: ``full`` when the engine deals and holds every card (solo practice, tests),
    ``referee`` when the players hold the physical deck and the engine keeps hands and piles as
    counts, learning each card when it is laid or shown.

    The deck is part of the options, not a path, so that a journal replays exactly even if the
    manifest file changes later (the device reads the manifest: ``device.zatre_deck``).

    >>> ZatreOptions(players=3, deck=("3|4",))
    Traceback (most recent call last):
    ...
    rules.errors.OptionError: deck: deck: 1 cards; a Zatre deck has exactly 50
    """

    deck: tuple[str, ...] = ()
    row_bonus: tuple[Annotated[int, Range(0, 1000)], ...] = DEFAULT_ROW_BONUS
    information: Literal["full", "referee"] = "full"

    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.deck:
            try:
                check_deck(self.deck)
            except DeckError as exc:
                raise OptionError("deck", str(exc)) from None

    def cards(self) -> tuple[Card, ...]:
        """The deck, sorted, each card in its ``key`` form."""
        return check_deck(self.deck) if self.deck else default_deck()
