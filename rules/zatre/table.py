"""The physical deck at a refereed table: who holds which card, as the players deal and exchange them.

In referee mode the engine keeps counts only. :class:`PhysicalTable` is the other side: the real
cards in the players' hands and piles, dealt from the same seeded shuffles as a full-information game
(round 2 plays the 25 set aside in round 1), laid, drawn and exchanged exactly as the rules say. The
simulated table and the tests use it to play referee-mode games whose cards are real;
:func:`referee_auto_play` plays a whole such game, and :func:`full_information_pads` scores the same
placements with the full-information engine.

>>> from rules.zatre.options import ZatreOptions
>>> game = referee_auto_play(ZatreOptions(players=2, seed=3, information="referee"))
>>> game.state.outcome is not None, game.state.hand_counts == (0, 0) or game.state.turn is None
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from rules.actions import Action
from rules.zatre.board import Board
from rules.zatre.cards import Card
from rules.zatre.game import random_lay
from rules.zatre.moves import can_lay
from rules.zatre.options import ZatreOptions
from rules.zatre.sheet import Sheet
from rules.zatre.state import EXCHANGE, Lay, Show, ZatreState, deal, new_game, round_cards

__all__ = ["PhysicalTable", "RefereeGame", "full_information_pads", "referee_auto_play", "referee_turn"]


@dataclass
class PhysicalTable:
    """The real cards of one round: each player's hand (any order) and face-down pile (top first)."""

    options: ZatreOptions
    round: int = -1
    hands: list[list[Card]] = field(default_factory=list)
    piles: list[list[Card]] = field(default_factory=list)
    set_aside: tuple[Card, ...] = ()

    def deal(self, number: int, start: int) -> None:
        """Deal round ``number`` (0-based) with ``start`` taking 4 cards."""
        cards, aside = round_cards(self.options, number, self.set_aside)
        hands, piles = deal(cards, self.options.players, start)
        self.round, self.set_aside = number, aside
        self.hands = [list(h) for h in hands]
        self.piles = [list(p) for p in piles]

    @classmethod
    def replayed(cls, options: ZatreOptions, actions: Sequence[Action]) -> PhysicalTable:
        """The real cards after ``actions`` of a referee-mode game (a game resumed from its journal):
        each round dealt as it began, the lays and shown hands of its turns applied."""
        table = cls(options)
        state = new_game(options)
        for act in actions:
            table.follow(state)
            seat = state.turn
            if seat is not None and state.round == table.round:
                if isinstance(act, Lay):
                    table.lay(seat, [p.card for p in act.placements])
                elif isinstance(act, Show):
                    table.show(seat)
            state = state.apply(act)
        table.follow(state)
        return table

    def follow(self, state: ZatreState) -> None:
        """Deal the state's round if the table still holds an earlier one."""
        if state.turn is not None and state.round != self.round:
            self.deal(state.round, state.start)

    def lay(self, seat: int, cards: Sequence[Card]) -> None:
        """``seat`` lays ``cards`` (either way round) and draws the top of his pile."""
        for card in cards:
            held = next(i for i, c in enumerate(self.hands[seat]) if c.same_card(card))
            self.hands[seat].pop(held)
        if self.piles[seat]:
            self.hands[seat].append(self.piles[seat].pop(0))

    def show(self, seat: int) -> tuple[Card, ...]:
        """``seat`` shows his hand, puts it under his pile and takes the top 3; returns the shown cards."""
        shown = tuple(self.hands[seat])
        queue = self.piles[seat] + list(shown)
        self.hands[seat], self.piles[seat] = queue[:EXCHANGE], queue[EXCHANGE:]
        return shown


def referee_turn(state: ZatreState, table: PhysicalTable, rng: random.Random) -> Action:
    """What a player holding real cards does on his turn: lay a random legal card (two on the
    round's first turn), or show an unplayable hand."""
    seat = state.turn
    assert seat is not None, "the game is over"
    hand = table.hands[seat]
    if not can_lay(state.board, hand):
        return Show(tuple(sorted(hand)))
    full = replace(state, hands=_put(state.hands, seat, tuple(sorted(hand))))
    return random_lay(full, rng)


@dataclass
class RefereeGame:
    """A referee-mode game played with real cards: the state, its actions, and each lay's seat and
    the real hand it was laid from (for :func:`full_information_pads`)."""

    state: ZatreState
    actions: list[Action]
    lays: list[tuple[int, int, tuple[Card, ...], Lay]]


def referee_auto_play(options: ZatreOptions, seed: int | None = None) -> RefereeGame:
    """A whole referee-mode game of random legal lays by players holding the real deck."""
    rng = random.Random(f"zatre-referee:{options.seed if seed is None else seed}")
    state = new_game(options)
    table = PhysicalTable(options)
    actions: list[Action] = []
    lays: list[tuple[int, int, tuple[Card, ...], Lay]] = []
    while state.turn is not None:
        table.follow(state)
        seat = state.turn
        act = referee_turn(state, table, rng)
        if isinstance(act, Lay):
            lays.append((state.round, seat, tuple(sorted(table.hands[seat])), act))
            table.lay(seat, [p.card for p in act.placements])
        else:
            table.show(seat)
        state = state.apply(act)
        actions.append(act)
    return RefereeGame(state, actions, lays)


def full_information_pads(options: ZatreOptions, game: RefereeGame) -> tuple[tuple[Sheet, ...], list[Board]]:
    """The same placements laid through the full-information engine, each from the real hand it was
    laid from: the pads and every round's table. (The other seats hold the whole deck there, so the
    engine never ends a round on its own: the rounds change where the referee game's did.)"""
    full = replace(options, information="full")
    everything = tuple(sorted(full.cards()))
    sheets = tuple(Sheet(full.row_bonus) for _ in range(full.players))
    boards: list[Board] = []
    board = Board()
    current = 0
    for number, seat, hand, lay in game.lays:
        if number != current:
            boards.append(board)
            board, current = Board(), number
        hands = tuple(hand if s == seat else everything for s in range(full.players))
        state = ZatreState(
            options=full,
            round=number,
            start=seat,
            turn=seat,
            board=board,
            hands=hands,
            piles=((),) * full.players,
            set_aside=(),
            sheets=sheets,
        )
        after = state.apply(lay)
        sheets, board = after.sheets, after.board
    boards.append(board)
    return sheets, boards


def _put(
    items: tuple[tuple[Card, ...], ...], index: int, value: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*items[:index], value, *items[index + 1 :])
