"""One deal of Kalooki as an immutable state: stock, discard pile, hands, table melds, whose turn.

A turn is: draw (stock or discard top), then any lay-downs, builds and joker releases, then one
discard. ``Deal.apply`` returns the next state or raises ``IllegalAction`` with a stable code:
``draw_first``, ``already_drawn``, ``stock_empty``, ``not_in_hand``, ``invalid_meld``,
``opening_too_low``, ``not_opened``, ``unknown_meld``, ``invalid_build``, ``meld_closed``,
``joker_release``, ``no_release``, ``no_discard``, ``joker_not_laid``, ``wrong_phase``, ``wrong_seat``,
``hand_count``, ``too_many_copies``, ``impossible_points``, ``deal_over``.

Two modes (``options.mode``):

- ``full``: the engine holds every card (simulator, solo play, tests). Cards laid or discarded must
  come from the player's hand (``not_in_hand``).
- ``referee``: at a real table the device sees the table melds and the discards but only counts the
  cards in each hand; the stock is a count. A deal starts with :class:`TurnUp` (the turned-up card)
  and ends with :class:`RevealHand` for every hand left, from which the penalties are counted — or,
  for a player who would rather not show his cards, :class:`HandPoints`: the points he counted. What
  can be checked is checked: hand sizes (``hand_count``), that no card is seen more often than the
  deck holds it (``too_many_copies``), and that the points entered are a sum the hand's number of
  cards can make from the cards nobody has seen (``impossible_points``: never negative, never more
  than the unseen jokers, aces and tens would come to).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import permutations
from typing import Literal, TypeVar

from rules.actions import Action
from rules.errors import IllegalAction
from rules.kalooki.actions import (
    Build,
    Discard,
    DrawDiscard,
    DrawStock,
    HandPoints,
    LayDown,
    ReleaseJoker,
    RevealHand,
    TurnUp,
)
from rules.kalooki.cards import DECK, DECK_COUNTS, JOKER, Card, cards_text
from rules.kalooki.melds import ENDS, End, Meld, read_meld
from rules.kalooki.options import KalookiOptions
from rules.kalooki.payout import payouts
from rules.kalooki.scoring import hand_penalty, penalties_of_points, possible_points
from rules.outcome import Termination

__all__ = ["HAND_SIZE", "Deal", "DealResult", "Phase", "new_deal"]

HAND_SIZE = 13
T = TypeVar("T")

Phase = Literal["turn_up", "draw", "play", "reveal", "over"]


@dataclass(frozen=True)
class DealResult:
    """How a deal ended: the winner, whether he made Kalooki, every seat's penalty and payout (cents)."""

    winner: int
    termination: Termination
    kalooki: bool
    penalties: tuple[int, ...]
    payouts: tuple[int, ...]


@dataclass(frozen=True)
class Deal:
    """The state of one deal. ``turn`` is the seat to act; hands are kept sorted (full mode).

    ``kalooki_chance``: the player to act had not opened when his turn began and has not built on
    another player's meld yet, so going out this turn is a Kalooki. ``jokers_owed``: jokers released
    this turn that must still be laid before the discard.
    """

    options: KalookiOptions
    number: int
    turn: int
    phase: Phase
    stock: tuple[Card, ...]
    stock_count: int
    discards: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...] | None
    counts: tuple[int, ...]
    table: tuple[Meld, ...] = ()
    owners: tuple[int, ...] = ()
    opened: tuple[bool, ...] = ()
    kalooki_chance: bool = True
    jokers_owed: int = 0
    reshuffles: int = 0
    winner: int | None = None
    termination: Termination | None = None
    kalooki: bool = False
    revealed: tuple[tuple[Card, ...] | None, ...] = ()
    declared: tuple[int | None, ...] = ()

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def to_move(self) -> int | None:
        """The seat to draw or play; ``None`` while the deal waits for its turned-up card or for the
        hands to be revealed, and once it is over."""
        return self.turn if self.phase in ("draw", "play") else None

    @property
    def discard_top(self) -> Card | None:
        return self.discards[-1] if self.discards else None

    @property
    def full_information(self) -> bool:
        return self.hands is not None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards of ``seat`` (full mode; in referee mode only what was revealed at the end)."""
        if self.hands is not None:
            return self.hands[seat]
        return (self.revealed[seat] or ()) if self.revealed else ()

    def table_cards(self) -> list[Card]:
        return [card for meld in self.table for card in meld.cards]

    def hand_points(self, seat: int) -> int:
        """The penalty points of the cards ``seat`` holds: the points he entered instead of his hand
        (referee mode), else his (revealed) hand's."""
        declared = self.declared[seat] if self.declared else None
        return hand_penalty(self.hand(seat)) if declared is None else declared

    def to_reveal(self) -> tuple[int, ...]:
        """The seats whose hand (or its points) the end of the deal still waits for, in seat order."""
        if self.phase != "reveal":
            return ()
        return tuple(
            seat
            for seat in range(self.players)
            if self.revealed[seat] is None and (not self.declared or self.declared[seat] is None)
        )

    def unseen(self) -> Counter[Card]:
        """The cards of the two decks not seen so far: not on the table, in the discards or in a
        revealed hand (in referee mode, where the hands, the stock and the points declared are)."""
        seen = Counter(self.table_cards()) + Counter(self.discards)
        for hand in self.revealed:
            seen.update(hand or ())
        return DECK_COUNTS - seen

    @property
    def result(self) -> DealResult | None:
        """``None`` until the deal is over (in referee mode: until every hand is revealed)."""
        if self.phase != "over" or self.winner is None or self.termination is None:
            return None
        points = [self.hand_points(seat) for seat in range(self.players)]
        penalties = penalties_of_points(points, self.winner, self.kalooki)
        amounts = payouts(self.options.pool_cents, penalties, self.winner, self.options.payout)
        return DealResult(self.winner, self.termination, self.kalooki, penalties, tuple(amounts))

    def apply(self, action: Action) -> Deal:
        """The state after ``action``; ``IllegalAction`` leaves this state unchanged."""
        if self.phase == "over":
            raise IllegalAction("deal_over", "the deal is over")
        if isinstance(action, TurnUp):
            return self._turn_up(action.card)
        if isinstance(action, RevealHand):
            return self._reveal(action.seat, action.cards)
        if isinstance(action, HandPoints):
            return self._declare(action.seat, action.points)
        if self.phase in ("turn_up", "reveal"):
            what = "the turned-up card" if self.phase == "turn_up" else "the hands left"
            raise IllegalAction("wrong_phase", f"waiting for {what}, not {type(action).__name__}")
        if isinstance(action, DrawStock | DrawDiscard):
            return self._draw(from_stock=isinstance(action, DrawStock))
        if self.phase == "draw":
            raise IllegalAction("draw_first", f"player {self.turn} must draw a card first")
        if isinstance(action, LayDown):
            return self._lay_down(action.melds)
        if isinstance(action, Build):
            return self._build(action)
        if isinstance(action, ReleaseJoker):
            return self._release(action)
        if isinstance(action, Discard):
            return self._discard(action.card)
        raise IllegalAction("wrong_phase", f"{type(action).__name__} is not a Kalooki action")

    # --- the turn ---------------------------------------------------------------------------------

    def _draw(self, *, from_stock: bool) -> Deal:
        if self.phase != "draw":
            raise IllegalAction("already_drawn", f"player {self.turn} has already drawn this turn")
        if from_stock:
            if self.stock_count == 0:
                raise IllegalAction("stock_empty", "the stock is empty: take the discard top")
            state = replace(self, stock=self.stock[:-1], stock_count=self.stock_count - 1)
            drawn = self.stock[-1:]
        else:
            state = replace(self, discards=self.discards[:-1])
            drawn = self.discards[-1:]
        return replace(state._with_hand(self.turn, add=drawn, count=1), phase="play")

    def _lay_down(self, melds: Sequence[Sequence[Card]]) -> Deal:
        if not melds:
            raise IllegalAction("invalid_meld", "a lay-down needs at least one meld")
        read = [read_meld(cards) for cards in melds]
        laid = [card for cards in melds for card in cards]
        state = self._take(laid)
        value = sum(meld.value for meld in read)
        if not self.opened[self.turn] and value < self.options.initial_meld:
            shown = " + ".join(f"[{cards_text(cards)}]" for cards in melds)
            raise IllegalAction(
                "opening_too_low",
                f"the initial meld {shown} is worth {value}; at least {self.options.initial_meld} is needed",
                value=value,
                needed=self.options.initial_meld,
            )
        opened = tuple(o or seat == self.turn for seat, o in enumerate(self.opened))
        return (
            replace(
                state,
                table=self.table + tuple(read),
                owners=self.owners + (self.turn,) * len(read),
                opened=opened,
                jokers_owed=max(0, self.jokers_owed - laid.count(JOKER)),
            )
            ._checked(laid)
            ._owed_jokers_layable()
        )

    def _table_meld(self, index: int, what: str) -> Meld:
        if not 0 <= index < len(self.table):
            raise IllegalAction("unknown_meld", f"there is no meld number {index} on the table", meld=index)
        if not self.opened[self.turn]:
            raise IllegalAction(
                "not_opened", f"player {self.turn} must lay his initial meld before he may {what}"
            )
        return self.table[index]

    def _build(self, action: Build) -> Deal:
        meld = self._table_meld(action.meld, "build")
        state = self._take(action.cards)
        built = meld.build(action.cards, action.end)
        return (
            replace(
                state,
                table=_replace_at(self.table, action.meld, built),
                kalooki_chance=self.kalooki_chance and self.owners[action.meld] == self.turn,
                jokers_owed=max(0, self.jokers_owed - list(action.cards).count(JOKER)),
            )
            ._checked(action.cards)
            ._owed_jokers_layable()
        )

    def _release(self, action: ReleaseJoker) -> Deal:
        meld = self._table_meld(action.meld, "release a joker")
        freed = meld.release(action.cards)
        state = self._with_hand(self.turn, remove=action.cards, count=-len(action.cards))
        return (
            replace(
                state._with_hand(self.turn, add=(JOKER,), count=1),
                table=_replace_at(self.table, action.meld, freed),
                kalooki_chance=self.kalooki_chance and self.owners[action.meld] == self.turn,
                jokers_owed=self.jokers_owed + 1,
            )
            ._checked(action.cards)
            ._owed_jokers_layable()
        )

    def _discard(self, card: Card) -> Deal:
        if self.jokers_owed:
            raise IllegalAction(
                "joker_not_laid", "a released joker must be laid on the table before the discard"
            )
        state = self._with_hand(self.turn, remove=(card,), count=-1)
        state = replace(state, discards=(*self.discards, card))._checked([card])
        if state.counts[self.turn] == 0:
            return state._finish(self.turn, Termination.WENT_OUT, kalooki=self.kalooki_chance)
        return state._next_turn()

    def _next_turn(self) -> Deal:
        state = self
        if self.stock_count == 0:
            if self.reshuffles >= self.options.max_reshuffles:
                return self._finish(None, Termination.POOL_EXHAUSTED, kalooki=False)
            state = self._reshuffle()
        seat = (self.turn + 1) % self.players
        return replace(
            state,
            turn=seat,
            phase="draw",
            kalooki_chance=not self.opened[seat],
            jokers_owed=0,
        )

    def _reshuffle(self) -> Deal:
        """The discards except the top become the new stock (seeded shuffle in full mode)."""
        below = list(self.discards[:-1])
        stock: tuple[Card, ...] = ()
        if self.full_information:
            rng = random.Random(f"kalooki/{self.options.seed}/{self.number}/reshuffle/{self.reshuffles + 1}")
            rng.shuffle(below)
            stock = tuple(below)
        return replace(
            self,
            stock=stock,
            stock_count=len(below),
            discards=self.discards[-1:],
            reshuffles=self.reshuffles + 1,
        )

    # --- the end of the deal -----------------------------------------------------------------------

    def _finish(self, winner: int | None, termination: Termination, *, kalooki: bool) -> Deal:
        state = replace(self, winner=winner, termination=termination, kalooki=kalooki)
        if self.full_information:
            return replace(state, phase="over", winner=state._lowest_hand() if winner is None else winner)
        revealed = tuple(() if seat == winner else None for seat in range(self.players))
        return replace(state, phase="reveal", revealed=revealed, declared=(None,) * self.players)

    def _lowest_hand(self) -> int:
        """The seat with the lowest hand penalty (the earliest seat on equal hands)."""
        values = [self.hand_points(seat) for seat in range(self.players)]
        return values.index(min(values))

    def _turn_up(self, card: Card) -> Deal:
        if self.phase != "turn_up":
            raise IllegalAction("wrong_phase", "the turned-up card is given once, at the start of a deal")
        return replace(self, discards=(card,), phase="draw")

    def _revealing(self, seat: int) -> None:
        """Refuses a hand (or its points) out of place: not at the end of a deal in referee mode, or
        for a seat that has no hand left to reveal (the winner's, or one entered already)."""
        if self.phase != "reveal":
            raise IllegalAction("wrong_phase", "hands are revealed only at the end of a deal in referee mode")
        if seat not in self.to_reveal():
            raise IllegalAction("wrong_seat", f"seat {seat} has no hand left to reveal", seat=seat)

    def _declare(self, seat: int, points: int) -> Deal:
        self._revealing(seat)
        count = self.counts[seat]
        unseen = sorted(card.penalty for card in self.unseen().elements())
        low, high = sum(unseen[:count]), sum(unseen[-count:]) if count else 0
        if points < 0 or not possible_points(self.unseen().elements(), count) >> points & 1:
            raise IllegalAction(
                "impossible_points",
                f"player {seat}'s {count} cards cannot be worth {points} points"
                f" (the cards not seen make {low}–{high})",
                seat=seat,
                points=points,
                cards=count,
                low=low,
                high=high,
            )
        declared = _replace_at(self.declared, seat, points)
        return replace(self, declared=declared)._revealed()

    def _revealed(self) -> Deal:
        """The deal once a hand (or its points) is in: over when no hand is left to reveal."""
        if self.to_reveal():
            return self
        state = replace(self, phase="over")
        return state if state.winner is not None else replace(state, winner=state._lowest_hand())

    def _reveal(self, seat: int, cards: Sequence[Card]) -> Deal:
        self._revealing(seat)
        if len(cards) != self.counts[seat]:
            raise IllegalAction(
                "hand_count",
                f"player {seat} holds {self.counts[seat]} cards, not {len(cards)}: {cards_text(cards)}",
                seat=seat,
            )
        revealed = list(self.revealed)
        revealed[seat] = tuple(sorted(cards, key=Card.sort_key))
        return replace(self, revealed=tuple(revealed))._checked(cards)._revealed()

    # --- hands --------------------------------------------------------------------------------------

    def _take(self, cards: Sequence[Card]) -> Deal:
        """Remove laid cards from the player's hand, keeping at least one card for the discard."""
        state = self._with_hand(self.turn, remove=cards, count=-len(cards))
        if state.counts[self.turn] < 1:
            raise IllegalAction(
                "no_discard",
                f"laying {cards_text(cards)} leaves player {self.turn} no card to discard",
                cards=cards_text(cards),
            )
        return state

    def _with_hand(
        self, seat: int, *, add: Sequence[Card] = (), remove: Sequence[Card] = (), count: int
    ) -> Deal:
        counts = _replace_at(self.counts, seat, self.counts[seat] + count)
        if self.hands is None:
            if counts[seat] < 0:
                raise IllegalAction(
                    "hand_count",
                    f"player {seat} holds only {self.counts[seat]} cards, not {cards_text(remove)}",
                    seat=seat,
                )
            return replace(self, counts=counts)
        left = Counter(self.hands[seat])
        left.subtract(remove)
        if any(n < 0 for n in left.values()):
            raise IllegalAction(
                "not_in_hand",
                f"{cards_text(remove)} is not in the hand of player {seat} ({cards_text(self.hands[seat])})",
                seat=seat,
                cards=cards_text(remove),
            )
        hand = tuple(sorted([*left.elements(), *add], key=Card.sort_key))
        return replace(self, hands=_replace_at(self.hands, seat, hand), counts=counts)

    def _owed_jokers_layable(self) -> Deal:
        """This state, after checking that the jokers released this turn can still be laid again before
        the discard: an action that would strand one (the turn could never end) is refused."""
        if self.jokers_owed == 0:
            return self
        naturals = None if self.hands is None else [c for c in self.hands[self.turn] if not c.is_joker]
        if not _jokers_can_be_laid(self.table, naturals, self.counts[self.turn], self.jokers_owed):
            raise IllegalAction(
                "joker_not_laid",
                f"player {self.turn} could not lay the released joker again and still discard",
                seat=self.turn,
            )
        return self

    def _checked(self, new: Sequence[Card]) -> Deal:
        """This state, after checking (referee mode) that none of the ``new`` cards just seen is now
        seen more often than the two decks hold it."""
        if self.full_information:
            return self
        seen = Counter(self.table_cards()) + Counter(self.discards)
        for hand in self.revealed:
            seen.update(hand or ())
        for card in set(new):
            if seen[card] > DECK_COUNTS[card]:
                raise IllegalAction(
                    "too_many_copies",
                    f"{card} is seen {seen[card]} times; the deck holds it {DECK_COUNTS[card]} times",
                    card=str(card),
                )
        return self


def _jokers_built_on(table: Sequence[Meld], jokers: int) -> int:
    """How many of ``jokers`` can be built onto the table melds, one after another."""
    melds, placed = list(table), 0
    while placed < jokers:
        for index, meld in enumerate(melds):
            fits = [end for end in ENDS if _takes_joker(meld, end)]
            if fits:
                melds[index] = meld.build([JOKER], fits[0])
                placed += 1
                break
        else:
            return placed
    return placed


def _takes_joker(meld: Meld, end: End) -> bool:
    try:
        meld.build([JOKER], end)
    except IllegalAction:
        return False
    return True


def _pair_takes_joker(naturals: Sequence[Card]) -> bool:
    """Whether two of ``naturals`` and a joker make a meld."""
    for i, first in enumerate(naturals):
        for second in naturals[i + 1 :]:
            for cards in permutations((first, second, JOKER)):
                try:
                    read_meld(cards)
                except IllegalAction:
                    continue
                return True
    return False


def _jokers_can_be_laid(table: Sequence[Meld], naturals: Sequence[Card] | None, hand: int, owed: int) -> bool:
    """Whether ``owed`` jokers in a hand of ``hand`` cards can all be laid with a card left to discard:
    built onto the table, or in a new meld (two jokers and any natural card; one joker and a fitting
    pair). ``naturals`` is ``None`` in referee mode, where the hand is unknown and only counts matter."""
    left = owed - _jokers_built_on(table, owed)
    if left == 0:
        return hand >= owed + 1
    if left == 2:
        return hand >= owed + 2 and (naturals is None or len(naturals) >= 2)
    pair = naturals is None or _pair_takes_joker(naturals)
    return pair and hand >= owed + 3


def _replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def new_deal(options: KalookiOptions, number: int = 0) -> Deal:
    """Deal ``number`` (0-based) of a session: 13 cards each, one turned up; seat ``number % players``
    begins. Full mode shuffles with a seed derived from ``options.seed`` and ``number``."""
    n = options.players
    unseen = Deal(
        options=options,
        number=number,
        turn=number % n,
        phase="turn_up",
        stock=(),
        stock_count=len(DECK) - HAND_SIZE * n - 1,
        discards=(),
        hands=None,
        counts=(HAND_SIZE,) * n,
        opened=(False,) * n,
    )
    if options.mode == "referee":
        return unseen
    deck = list(DECK)
    random.Random(f"kalooki/{options.seed}/{number}").shuffle(deck)
    hands = tuple(
        tuple(sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE], key=Card.sort_key)) for i in range(n)
    )
    return replace(
        unseen,
        phase="draw",
        stock=tuple(deck[HAND_SIZE * n + 1 :]),
        discards=(deck[HAND_SIZE * n],),
        hands=hands,
    )
