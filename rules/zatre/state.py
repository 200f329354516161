"""Rounds and turns of Zatre – the card game: dealing, laying, drawing, the unplayable-hand exchange.

A game has as many rounds as players, 25 cards each. Round 1 deals 25 of the shuffled 50 and sets the
other 25 aside; round 2 uses those; rounds 3 and 4 reshuffle all 50 (seeded). The round's start player
takes 4 cards in hand, the others 3, and the rest is shared out evenly as personal draw piles (2
players: 9 each; 3: 5; 4: 3). The start player rotates clockwise (seat 0 starts round 1).

A turn is one :class:`Lay` action: the round's first turn lays 2 cards whose halves touch, every later
turn 1 card. Then the player draws one card from his own pile while it lasts. Before each turn the
state looks after the next player automatically: a player whose whole hand cannot be laid shows it,
puts it under his pile and takes 3 cards from its top, as often as needed; a player none of whose
cards (hand or pile) can be laid passes. A round ends when all its cards are laid or nobody can lay
a card; the cards still held then are left out.

>>> from rules.zatre.options import ZatreOptions
>>> state = new_game(ZatreOptions(players=2, seed=1))
>>> [len(h) for h in state.hands], [len(p) for p in state.piles], len(state.set_aside)
([4, 3], [9, 9], 25)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

from rules.actions import Action, action
from rules.errors import IllegalAction
from rules.outcome import Outcome, Termination
from rules.zatre.board import Board, Placement, Scoring, place_cards
from rules.zatre.cards import Card
from rules.zatre.moves import can_lay, legal_placements
from rules.zatre.options import ZatreOptions
from rules.zatre.sheet import Sheet

__all__ = [
    "CARDS_PER_ROUND",
    "Event",
    "Lay",
    "RoundResult",
    "ZatreState",
    "deal",
    "new_game",
    "round_cards",
]

_T = TypeVar("_T")

CARDS_PER_ROUND = 25
START_HAND = 4
HAND = 3
EXCHANGE = 3


@action("zatre.lay")
@dataclass(frozen=True)
class Lay(Action):
    """The player on turn lays his card(s): 2 placements on the first turn of a round, else 1.

    >>> str(Lay.parse("5|6@0,0H 0|4@0,1H").placements[1])
    '0|4@0,1H'
    """

    placements: tuple[Placement, ...]

    @classmethod
    def parse(cls, text: str) -> Lay:
        return cls(tuple(Placement.parse(item) for item in text.split()))

    def __str__(self) -> str:
        return " ".join(str(p) for p in self.placements)


@dataclass(frozen=True)
class Event:
    """Something the state did on its own after an action, for the screens and the log."""

    kind: Literal["exchange", "pass", "round_end"]
    player: int | None = None
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        shown = " ".join(str(c) for c in self.cards)
        if self.kind == "exchange":
            return f"player {self.player} cannot lay {shown}: puts them under the pile and takes 3"
        if self.kind == "pass":
            return f"player {self.player} cannot lay any card and passes"
        return "the round ends" + (f"; left out: {shown}" if shown else "")


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its table, and the cards nobody could lay (empty when all 25 were laid)."""

    board: Board
    left_out: tuple[Card, ...]


@dataclass(frozen=True)
class ZatreState:
    """The whole game between two actions. ``turn`` is the seat to lay (``None`` once the game is
    over); hands are sorted, piles are listed top first."""

    options: ZatreOptions
    round: int
    start: int
    turn: int | None
    board: Board
    hands: tuple[tuple[Card, ...], ...]
    piles: tuple[tuple[Card, ...], ...]
    set_aside: tuple[Card, ...]
    sheets: tuple[Sheet, ...]
    rounds_played: tuple[RoundResult, ...] = ()
    last_scoring: Scoring | None = None
    events: tuple[Event, ...] = ()

    @property
    def outcome(self) -> Outcome | None:
        if self.turn is not None:
            return None
        return Outcome.from_scores(Termination.ROUNDS_PLAYED, [sheet.total for sheet in self.sheets])

    @property
    def to_move(self) -> int | None:
        """The seat to lay, ``None`` once the game is over."""
        return self.turn

    @property
    def rounds(self) -> int:
        return self.options.players

    @property
    def first_turn(self) -> bool:
        """Whether the next lay is the round's first turn (2 cards)."""
        return not self.board

    def legal_placements(self) -> list[Placement]:
        """Every legal placement of a card of the current hand, for hints. On the round's first turn
        (empty table) each card is offered at the origin; the second card must then touch it."""
        if self.turn is None:
            return []
        return legal_placements(self.board, self.hands[self.turn])

    def apply(self, act: Action) -> ZatreState:
        """The state after ``act``; ``IllegalAction`` (codes ``game_over``, ``unknown_action``,
        ``wrong_card_count``, ``card_not_in_hand``, ``overlap``, ``not_touching``, ``row_too_high``)
        leaves this state unchanged."""
        if self.turn is None:
            raise IllegalAction("game_over", "the game is over")
        if not isinstance(act, Lay):
            raise IllegalAction("unknown_action", f"Zatre has no action {type(act).__name__}")
        player = self.turn
        wanted = 2 if self.first_turn else 1
        if len(act.placements) != wanted:
            raise IllegalAction(
                "wrong_card_count",
                f"this turn lays {wanted} card{'s' if wanted > 1 else ''}, not {len(act.placements)}",
                wanted=wanted,
            )
        hand = _take(self.hands[player], [p.card for p in act.placements], player)
        board, scoring = place_cards(self.board, act.placements)
        pile = self.piles[player]
        if pile:
            hand, pile = tuple(sorted((*hand, pile[0]))), pile[1:]
        state = replace(
            self,
            board=board,
            hands=_put(self.hands, player, hand),
            piles=_put(self.piles, player, pile),
            sheets=_put(self.sheets, player, self.sheets[player].enter(scoring)),
            last_scoring=scoring,
            events=(),
        )
        return state._next_turn(player)

    def _next_turn(self, last: int) -> ZatreState:
        """Find the next player clockwise who can lay (exchanging an unplayable hand), or end the round."""
        players = self.options.players
        hands, piles, events = list(self.hands), list(self.piles), list(self.events)
        for step in range(1, players + 1):
            seat = (last + step) % players
            if not hands[seat] and not piles[seat]:
                continue
            if not can_lay(self.board, hands[seat] + piles[seat]):
                events.append(Event("pass", seat))
                continue
            # Each exchange puts the hand under the pile and takes the top 3, so the cards pass
            # through the hand in turn and the layable one arrives within len(hand + pile) steps.
            while not can_lay(self.board, hands[seat]):
                events.append(Event("exchange", seat, hands[seat]))
                queue = piles[seat] + hands[seat]
                hands[seat], piles[seat] = tuple(sorted(queue[:EXCHANGE])), queue[EXCHANGE:]
            return replace(self, turn=seat, hands=tuple(hands), piles=tuple(piles), events=tuple(events))
        left_out = tuple(sorted(card for held in (*hands, *piles) for card in held))
        events.append(Event("round_end", cards=left_out))
        finished = replace(
            self, events=tuple(events), rounds_played=(*self.rounds_played, RoundResult(self.board, left_out))
        )
        return finished._next_round()

    def _next_round(self) -> ZatreState:
        number = len(self.rounds_played)
        if number == self.rounds:
            return replace(self, turn=None)
        start = (self.start + 1) % self.options.players
        cards, set_aside = round_cards(self.options, number, self.set_aside)
        hands, piles = deal(cards, self.options.players, start)
        return replace(
            self,
            round=number,
            start=start,
            turn=start,
            board=Board(),
            hands=hands,
            piles=piles,
            set_aside=set_aside,
        )


def round_cards(
    options: ZatreOptions, number: int, set_aside: tuple[Card, ...]
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The cards of round ``number`` (0-based) in dealing order, and the cards set aside.

    Round 1 shuffles the deck and sets 25 aside; round 2 plays those; rounds 3 and 4 shuffle all 50
    again. Each shuffle is seeded by the options' seed and the round.
    """
    if number == 1:
        return set_aside, ()
    deck = list(options.cards())
    random.Random(f"zatre:{options.seed}:{number}").shuffle(deck)
    return tuple(deck[:CARDS_PER_ROUND]), tuple(deck[CARDS_PER_ROUND:])


def deal(
    cards: Sequence[Card], players: int, start: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]:
    """Hands (4 for ``start``, 3 for the others) and the even personal piles, from ``cards`` in order."""
    order = [(start + i) % players for i in range(players)]
    hands: list[tuple[Card, ...]] = [()] * players
    position = 0
    for seat in order:
        size = START_HAND if seat == start else HAND
        hands[seat] = tuple(sorted(cards[position : position + size]))
        position += size
    share, extra = divmod(len(cards) - position, players)
    if extra:
        raise ValueError(f"{len(cards)} cards do not share out evenly among {players} players")
    piles: list[tuple[Card, ...]] = [()] * players
    for seat in order:
        piles[seat] = tuple(cards[position : position + share])
        position += share
    return tuple(hands), tuple(piles)


def new_game(options: ZatreOptions) -> ZatreState:
    """The first round dealt, seat 0 to lay the first two cards."""
    cards, set_aside = round_cards(options, 0, ())
    hands, piles = deal(cards, options.players, 0)
    return ZatreState(
        options=options,
        round=0,
        start=0,
        turn=0,
        board=Board(),
        hands=hands,
        piles=piles,
        set_aside=set_aside,
        sheets=tuple(Sheet(options.row_bonus) for _ in range(options.players)),
    )


def _take(hand: tuple[Card, ...], cards: Sequence[Card], player: int) -> tuple[Card, ...]:
    """The hand without ``cards`` (either way round); ``card_not_in_hand`` when it lacks one."""
    left = Counter(hand)
    for card in cards:
        if left[card.key] == 0:
            shown = " ".join(str(c) for c in hand)
            raise IllegalAction(
                "card_not_in_hand",
                f"player {player} has no card {card} (hand: {shown})",
                card=str(card),
            )
        left[card.key] -= 1
    return tuple(sorted(left.elements()))


def _put(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*items[:index], value, *items[index + 1 :])
