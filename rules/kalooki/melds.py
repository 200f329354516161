"""Melds: sets and runs, how a laid-down meld is read, its value, building on it and releasing jokers.

A *set* is 3–4 cards of one rank in different suits; a joker takes a missing suit. A *run* is at least
three consecutive cards of one suit. In a run the ace is low (position 1, before the 2) or high
(position 14, after the king); both ends may hold an ace (A-2-…-K-A) but a run never wraps (K-A-2).

A meld on the table is stored in one reading: a laid-down card sequence that reads several ways (a
joker may stand for more than one card) takes the reading of greatest value (RULES.md §4). The reading
is then fixed: melds are never rearranged.

>>> from rules.kalooki.cards import parse_cards
>>> read_meld(parse_cards("QH KH AH")).value, read_meld(parse_cards("AH 2H 3H")).value
(31, 6)
>>> str(read_meld(parse_cards("JOKER JOKER 9H")))  # J-10-9 (29) beats 7-8-9 (24) and three 9s (27)
'9H JOKER JOKER'
>>> read_meld(parse_cards("JOKER JOKER 9H")).stands_for
(Card.parse('9H'), Card.parse('10H'), Card.parse('JH'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Literal

from rules.errors import IllegalAction
from rules.kalooki.cards import JOKER, SUITS, Card, cards_text

__all__ = ["ENDS", "End", "Meld", "RunMeld", "SetMeld", "meld_value", "read_meld"]

ACE_HIGH = 14  # the position of a high ace in a run; position 1 is the low ace

End = Literal["low", "high"]
ENDS: tuple[End, End] = ("low", "high")


def _rank_at(position: int) -> int:
    return 1 if position == ACE_HIGH else position


def _value_at(position: int) -> int:
    """Meld value of the card at a run position: low ace 1, high ace 11, J/Q/K 10."""
    if position == ACE_HIGH:
        return 11
    return min(position, 10)


def _rank_value(rank: int) -> int:
    """Meld value of a card of ``rank`` in a set: an ace in a set of aces counts 11."""
    return 11 if rank == 1 else min(rank, 10)


@dataclass(frozen=True)
class SetMeld:
    """A set: natural cards of ``rank`` in the distinct ``suits`` plus ``jokers`` for missing suits.

    ``closed`` marks a set whose joker is fixed forever: it takes no more cards and releases nothing.
    Every 4-card set is complete; a 3-card set becomes closed when a joker is released from it while
    another joker stays (RULES.md: the two-joker case).
    """

    rank: int
    suits: tuple[str, ...]
    jokers: int = 0
    closed: bool = False

    kind: ClassVar[str] = "set"

    @property
    def cards(self) -> tuple[Card, ...]:
        return (*(Card(self.rank, s) for s in self.suits), *([JOKER] * self.jokers))

    @property
    def value(self) -> int:
        return _rank_value(self.rank) * len(self.cards)

    def missing_suits(self) -> tuple[str, ...]:
        return tuple(s for s in SUITS if s not in self.suits)

    def build(self, cards: Sequence[Card], end: End = "high") -> SetMeld:
        """Add one card of a missing suit, or a joker, to a 3-card set (``end`` does not matter)."""
        if self.closed:
            raise IllegalAction(
                "meld_closed", f"the set {self} is closed: it takes no more cards", meld=str(self)
            )
        if len(self.cards) >= 4:
            raise IllegalAction("invalid_build", f"the set {self} already has four cards", meld=str(self))
        if len(cards) != 1:
            raise IllegalAction(
                "invalid_build", f"a set takes one card at a time, not {cards_text(cards)}", meld=str(self)
            )
        card = cards[0]
        if card.is_joker:
            return replace(self, jokers=self.jokers + 1)
        if card.rank != self.rank or card.suit in self.suits:
            raise IllegalAction(
                "invalid_build", f"{card} does not fit the set {self}", meld=str(self), card=str(card)
            )
        if self.jokers == 2:
            raise IllegalAction(
                "joker_release",
                f"{card} on the set {self} frees one of its jokers: release the joker instead of building",
                meld=str(self),
                card=str(card),
            )
        return replace(self, suits=(*self.suits, card.suit))

    def release(self, cards: Sequence[Card]) -> SetMeld:
        """Free one joker of a 3-card set (the two set cases of RULES.md); the new set is returned.

        One joker: both missing suits must be added; the joker leaves and the set is four naturals.
        Two jokers: one natural of a missing suit frees one joker and closes the set.
        """
        if self.jokers == 0:
            raise IllegalAction("no_release", f"the set {self} holds no joker", meld=str(self))
        if self.closed or len(self.cards) == 4:
            raise IllegalAction(
                "no_release", f"the joker of the closed set {self} is fixed forever", meld=str(self)
            )
        naturals = [c for c in cards if not c.is_joker and c.rank == self.rank]
        new_suits = {c.suit for c in naturals}
        fits = len(naturals) == len(cards) and len(new_suits) == len(cards)
        if self.jokers == 1:
            if not (fits and new_suits == set(self.missing_suits())):
                missing = " and ".join(str(Card(self.rank, s)) for s in self.missing_suits())
                raise IllegalAction(
                    "no_release",
                    f"the joker of {self} is released only by both {missing}, not by {cards_text(cards)}",
                    meld=str(self),
                )
            return replace(self, suits=(*self.suits, *(c.suit for c in cards)), jokers=0)
        if not (fits and len(cards) == 1 and cards[0].suit not in self.suits):
            raise IllegalAction(
                "no_release",
                f"a joker of {self} is released by one card of a missing suit, not by {cards_text(cards)}",
                meld=str(self),
            )
        return replace(self, suits=(*self.suits, cards[0].suit), jokers=1, closed=True)

    def __str__(self) -> str:
        return cards_text(self.cards)


@dataclass(frozen=True)
class RunMeld:
    """A run of ``suit`` from position ``low`` upwards; ``jokers`` flags, per position, a joker."""

    suit: str
    low: int
    jokers: tuple[bool, ...]

    kind: ClassVar[str] = "run"

    @property
    def high(self) -> int:
        return self.low + len(self.jokers) - 1

    @property
    def positions(self) -> range:
        return range(self.low, self.high + 1)

    @property
    def stands_for(self) -> tuple[Card, ...]:
        """The natural card each position stands for, low to high."""
        return tuple(Card(_rank_at(p), self.suit) for p in self.positions)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards on the table, low to high."""
        return tuple(JOKER if j else c for j, c in zip(self.jokers, self.stands_for, strict=True))

    @property
    def value(self) -> int:
        return sum(_value_at(p) for p in self.positions)

    def build(self, cards: Sequence[Card], end: End = "high") -> RunMeld:
        """Extend the run at ``end`` by ``cards``, given low to high (jokers take the positions they fill)."""
        if not cards:
            raise IllegalAction("invalid_build", "no cards to build with", meld=str(self))
        low = self.low - len(cards) if end == "low" else self.high + 1
        positions = range(low, low + len(cards))
        fits = positions.start >= 1 and positions.stop - 1 <= ACE_HIGH
        fits = fits and all(
            c.is_joker or c == Card(_rank_at(p), self.suit) for c, p in zip(cards, positions, strict=True)
        )
        if not fits:
            raise IllegalAction(
                "invalid_build",
                f"{cards_text(cards)} does not extend the run {self} at its {end} end",
                meld=str(self),
                end=end,
            )
        added = tuple(c.is_joker for c in cards)
        if end == "low":
            return replace(self, low=low, jokers=added + self.jokers)
        return replace(self, jokers=self.jokers + added)

    def release(self, cards: Sequence[Card]) -> RunMeld:
        """Put the exact card a joker stands for in its place (the lowest such joker, for A-…-A)."""
        for i, (is_joker, stands_for) in enumerate(zip(self.jokers, self.stands_for, strict=True)):
            if is_joker and list(cards) == [stands_for]:
                return replace(self, jokers=(*self.jokers[:i], False, *self.jokers[i + 1 :]))
        raise IllegalAction(
            "no_release",
            f"no joker of the run {self} stands for {cards_text(cards)}",
            meld=str(self),
        )

    def __str__(self) -> str:
        return cards_text(self.cards)


Meld = SetMeld | RunMeld


def _set_reading(cards: Sequence[Card]) -> SetMeld | None:
    naturals = [c for c in cards if not c.is_joker]
    suits = tuple(c.suit for c in naturals)
    if not 3 <= len(cards) <= 4 or not naturals or len(set(suits)) != len(suits):
        return None
    if any(c.rank != naturals[0].rank for c in naturals):
        return None
    return SetMeld(naturals[0].rank, suits, len(cards) - len(naturals))


def _run_readings(cards: Sequence[Card]) -> list[RunMeld]:
    naturals = [c for c in cards if not c.is_joker]
    if len(cards) < 3 or not naturals or any(c.suit != naturals[0].suit for c in naturals):
        return []
    suit, n = naturals[0].suit, len(cards)
    readings = []
    for low in range(1, ACE_HIGH - n + 2):
        positions = range(low, low + n)
        for order in (positions, positions[::-1]):
            if all(c.is_joker or c.rank == _rank_at(p) for c, p in zip(cards, order, strict=True)):
                readings.append(RunMeld(suit, low, tuple(c.is_joker for c in _low_to_high(cards, order))))
    return readings


def _low_to_high(cards: Sequence[Card], order: range) -> Sequence[Card]:
    """``cards`` low to high: reversed when they were laid in descending ``order``."""
    return cards[::-1] if order.step < 0 else cards


def read_meld(cards: Sequence[Card]) -> Meld:
    """The reading of greatest value of ``cards`` (in table order) as a set or a run.

    On equal value a set is preferred to a run, then the lower run. ``IllegalAction("invalid_meld")``
    when the cards form no meld.
    """
    readings: list[Meld] = [*_run_readings(cards)]
    as_set = _set_reading(cards)
    if as_set is not None:
        readings.append(as_set)
    if not readings:
        raise IllegalAction(
            "invalid_meld",
            f"{cards_text(cards) or 'no cards'} is neither a set nor a run",
            cards=cards_text(cards),
        )
    return max(readings, key=lambda m: (m.value, m.kind == "set", -getattr(m, "low", 0)))


def meld_value(cards: Sequence[Card]) -> int:
    """The initial-meld value of one meld (greatest reading); ``IllegalAction`` if it is no meld.

    >>> from rules.kalooki.cards import parse_cards
    >>> meld_value(parse_cards("10S 10H JOKER")), meld_value(parse_cards("AS 2S 3S"))
    (30, 6)
    """
    return read_meld(cards).value
