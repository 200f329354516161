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

In **referee mode** (``ZatreOptions.information = "referee"``) the players deal and hold the physical
deck; the state keeps each hand and pile as a count (``hand_counts``, ``pile_counts``) and learns a card
when it is laid (each laid card must still be in the round's cards, ``card_not_in_deck``). A player
whose hand cannot be laid shows it (:class:`Show`): the shown cards are checked against the table
(``card_fits`` names a card and a place that fits), then the hand goes under the pile and 3 cards are
taken from its top, as the counts say. Once a player has shown as many cards as he holds (hand and
pile) since the table last changed, none of them fits: he passes. The round ends when every card is
laid (the counts are all zero) or every player still holding cards has passed since the last card was
laid. A :class:`Pass` (the move timer ran out with nothing that makes a turn) ends a turn without a card
in either mode.

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
    "Pass",
    "RoundResult",
    "Show",
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


@action("zatre.show")
@dataclass(frozen=True)
class Show(Action):
    """Referee mode: the player on turn shows his whole hand, which cannot be laid, to exchange it.

    >>> str(Show.parse("1|2 4|4 5|6"))
    '1|2 4|4 5|6'
    """

    cards: tuple[Card, ...]

    @classmethod
    def parse(cls, text: str) -> Show:
        return cls(tuple(Card.parse(item) for item in text.split()))

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)


@action("zatre.pass")
@dataclass(frozen=True)
class Pass(Action):
    """The player on turn lays nothing this turn (the move timer ran out without a whole turn laid);
    he keeps his cards and draws none."""


@dataclass(frozen=True)
class Event:
    """Something the state did on its own after an action, for the screens and the log."""

    kind: Literal["exchange", "pass", "timeout", "round_end"]
    player: int | None = None
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        shown = " ".join(str(c) for c in self.cards)
        if self.kind == "exchange":
            return f"player {self.player} cannot lay {shown}: puts them under the pile and takes 3"
        if self.kind == "pass":
            return f"player {self.player} cannot lay any card and passes"
        if self.kind == "timeout":
            return f"player {self.player} lays nothing this turn"
        return "the round ends" + (f"; left out: {shown}" if shown else "")


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its table, and the cards nobody could lay (empty when all 25 were laid; in
    referee mode the engine never sees them, and ``left_count`` says how many there were)."""

    board: Board
    left_out: tuple[Card, ...]
    left_count: int | None = None

    @property
    def left(self) -> int:
        """How many of the round's cards were left out."""
        return len(self.left_out) if self.left_count is None else self.left_count


@dataclass(frozen=True)
class ZatreState:
    """The whole game between two actions. ``turn`` is the seat to lay (``None`` once the game is
    over); hands are sorted, piles are listed top first. In referee mode ``hands``, ``piles`` and
    ``set_aside`` are empty and ``hand_counts``/``pile_counts`` hold the sizes; ``shown`` counts the
    cards each player has shown since the table last changed, ``passed`` who has passed since."""

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
    hand_counts: tuple[int, ...] = ()
    pile_counts: tuple[int, ...] = ()
    shown: tuple[int, ...] = ()
    passed: tuple[bool, ...] = ()

    @property
    def full_information(self) -> bool:
        """Whether the engine holds every card (else it keeps counts: referee mode)."""
        return self.options.information == "full"

    def hand_size(self, seat: int) -> int:
        return len(self.hands[seat]) if self.full_information else self.hand_counts[seat]

    def pile_size(self, seat: int) -> int:
        return len(self.piles[seat]) if self.full_information else self.pile_counts[seat]

    def unseen(self) -> Counter[Card]:
        """The cards (by ``key``) of the deck that may still be held this round: the round's cards
        less those laid. In round 2 the cards laid in round 1 are out as well (it plays the 25 set
        aside). Referee mode checks every laid and shown card against it."""
        left = Counter(self.options.cards())
        laid = list(self.board.cards)
        if self.round == 1 and self.rounds_played:
            laid += self.rounds_played[0].board.cards
        left.subtract(card.key for card in laid)
        return +left

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
        if isinstance(act, Pass):
            return replace(self, last_scoring=None, events=(Event("timeout", self.turn),))._after(self.turn)
        if isinstance(act, Show):
            return self._show(act)
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
        if not self.full_information:
            return self._lay_counted(act)
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

    def _after(self, last: int) -> ZatreState:
        return self._next_turn(last) if self.full_information else self._next_counted(last)

    # -- referee mode ---------------------------------------------------------------------------

    def _check_unseen(self, cards: Sequence[Card]) -> None:
        left = self.unseen()
        for card in cards:
            if left[card.key] == 0:
                had = Counter(c.key for c in self.options.cards())[card.key]
                detail = (
                    f"the deck holds {had} × {card.key}, all out this round"
                    if had
                    else "the deck has no such card"
                )
                raise IllegalAction("card_not_in_deck", f"{card} cannot be in play: {detail}", card=str(card))
            left[card.key] -= 1

    def _lay_counted(self, act: Lay) -> ZatreState:
        player = self.turn
        assert player is not None
        cards = [p.card for p in act.placements]
        if self.hand_counts[player] < len(cards):
            raise IllegalAction(
                "card_not_in_hand",
                f"player {player} holds {self.hand_counts[player]} cards, not {len(cards)}",
                card=str(cards[-1]),
            )
        self._check_unseen(cards)
        board, scoring = place_cards(self.board, act.placements)
        hand, pile = self.hand_counts[player] - len(cards), self.pile_counts[player]
        if pile:
            hand, pile = hand + 1, pile - 1
        players = self.options.players
        state = replace(
            self,
            board=board,
            hand_counts=_put(self.hand_counts, player, hand),
            pile_counts=_put(self.pile_counts, player, pile),
            sheets=_put(self.sheets, player, self.sheets[player].enter(scoring)),
            last_scoring=scoring,
            events=(),
            shown=(0,) * players,
            passed=(False,) * players,
        )
        return state._next_counted(player)

    def _show(self, act: Show) -> ZatreState:
        player = self.turn
        assert player is not None
        if self.full_information:
            raise IllegalAction("full_information", "the engine holds the cards and exchanges them itself")
        held = self.hand_counts[player]
        if len(act.cards) != held:
            raise IllegalAction(
                "wrong_card_count",
                f"player {player} holds {held} cards and shows {len(act.cards)}: show the whole hand",
                wanted=held,
            )
        self._check_unseen(act.cards)
        fits = legal_placements(self.board, act.cards)
        if fits:
            first = fits[0]
            raise IllegalAction(
                "card_fits",
                f"{first.card} can be laid at {first.x},{first.y}{first.orientation} ({first})",
                card=str(first.card),
                placement=str(first),
            )
        total = held + self.pile_counts[player]
        hand = min(EXCHANGE, total)
        shown = self.shown[player] + held
        events: tuple[Event, ...] = (Event("exchange", player, tuple(act.cards)),)
        state = replace(
            self,
            hand_counts=_put(self.hand_counts, player, hand),
            pile_counts=_put(self.pile_counts, player, total - hand),
            shown=_put(self.shown, player, shown),
            last_scoring=None,
            events=events,
        )
        if shown < total:
            return state
        # Every card he holds has been shown once, and none fits: he passes.
        state = replace(
            state, passed=_put(state.passed, player, True), events=(*events, Event("pass", player))
        )
        return state._next_counted(player)

    def _next_counted(self, last: int) -> ZatreState:
        """Referee mode: the next player clockwise who holds cards and has not passed since the
        table last changed; else the round ends (its left-out cards are counted, not seen)."""
        players = self.options.players
        for step in range(1, players + 1):
            seat = (last + step) % players
            if self.hand_counts[seat] + self.pile_counts[seat] and not self.passed[seat]:
                return replace(self, turn=seat)
        left = sum(self.hand_counts) + sum(self.pile_counts)
        events = (*self.events, Event("round_end"))
        result = RoundResult(self.board, (), left_count=left)
        return replace(self, events=events, rounds_played=(*self.rounds_played, result))._next_round()

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
        if not self.full_information:
            return _counts(replace(self, round=number, start=start, turn=start, board=Board()), start)
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


def _counts(state: ZatreState, start: int) -> ZatreState:
    """Referee mode: a round dealt as the players deal it, its hands and piles as counts."""
    players = state.options.players
    share = (CARDS_PER_ROUND - START_HAND - HAND * (players - 1)) // players
    return replace(
        state,
        hand_counts=tuple(START_HAND if seat == start else HAND for seat in range(players)),
        pile_counts=(share,) * players,
        shown=(0,) * players,
        passed=(False,) * players,
    )


def new_game(options: ZatreOptions) -> ZatreState:
    """The first round dealt, seat 0 to lay the first two cards. In referee mode the players deal
    the physical deck and the state keeps counts."""
    if options.information == "referee":
        empty: tuple[tuple[Card, ...], ...] = ((),) * options.players
        state = ZatreState(
            options=options,
            round=0,
            start=0,
            turn=0,
            board=Board(),
            hands=empty,
            piles=empty,
            set_aside=(),
            sheets=tuple(Sheet(options.row_bonus) for _ in range(options.players)),
        )
        return _counts(state, 0)
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
