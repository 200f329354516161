"""The Rummikub game state machine, in full-information and referee mode.

*Full information* (simulator, solo play, tests): the engine deals from a seeded shuffle and knows
every rack and the pool order, so it also checks that played tiles came from the player's rack.
*Referee mode*: the device sees only the table, the buttons and the clock; the state holds each
rack's tile count and the pool count, and the racks are revealed (``Reveal``) to score the end.

The table in the state is always the table at the start of the current move, so a timeout restores
it exactly.

A game is one hand or several (``options.hands``, ``options.target_score``): a scored hand that does
not end the game leaves the state *between hands* (``hand_scores`` holds every scored hand) until
``NextHand`` deals the next one; the game's outcome is the sum of the hands.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from rules.actions import Action
from rules.errors import IllegalAction
from rules.outcome import Outcome, Termination
from rules.rummikub.actions import (
    Announce,
    Draw,
    Extend,
    NextHand,
    Open,
    Play,
    Redeal,
    Reveal,
    RevealRack,
    ShowRack,
    Start,
    TakeHint,
    Timeout,
)
from rules.rummikub.check import check_turn
from rules.rummikub.melds import Meld
from rules.rummikub.options import RummikubOptions
from rules.rummikub.scoring import score_game
from rules.rummikub.tiles import Tile, full_set, tiles_text

__all__ = ["RACK_SIZE", "RummikubState", "identical_pairs", "new_game", "starting_draw"]

RACK_SIZE = 14
REDEAL_PAIRS = 3
T = TypeVar("T")


def identical_pairs(rack: Sequence[Tile]) -> int:
    """How many tiles appear twice (same colour and number); jokers do not count."""
    return sum(1 for t, k in Counter(rack).items() if k >= 2 and not t.is_joker)


def starting_draw(rng: random.Random, players: int) -> tuple[int, tuple[tuple[Tile, ...], ...]]:
    """Each player draws a tile, the highest number starts, tied players draw again (a joker counts
    as no number). Returns the starting seat and the tiles drawn, round by round."""
    tiles = full_set()
    rng.shuffle(tiles)
    contenders = list(range(players))
    rounds = []
    while True:
        drawn = {seat: tiles.pop() for seat in contenders}
        rounds.append(tuple(drawn[seat] for seat in contenders))
        top = max(t.number for t in drawn.values())
        contenders = [seat for seat in contenders if drawn[seat].number == top]
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)


@dataclass(frozen=True)
class RummikubState:
    """An immutable game position. ``racks`` and ``pool`` are ``None`` in referee mode."""

    options: RummikubOptions
    table: tuple[Meld, ...]
    rack_counts: tuple[int, ...]
    pool_count: int
    opened: tuple[bool, ...]
    announced: tuple[bool, ...]
    racks: tuple[tuple[Tile, ...], ...] | None
    pool: tuple[Tile, ...] | None
    turn: int | None  # seat to move; None in referee mode until ``Start``
    deals: int = 1
    turns_taken: int = 0
    passes: int = 0  # consecutive turns without a tile played while the pool was empty
    ended: Termination | None = None
    outcome: Outcome | None = None
    final_racks: tuple[tuple[Tile, ...], ...] | None = None
    starting_draws: tuple[tuple[Tile, ...], ...] = ()
    hand: int = 1  # which hand of the game (1-based)
    hand_scores: tuple[tuple[int, ...], ...] = ()  # each scored hand's scores, in seat order
    between_hands: bool = False  # a hand is scored and the next is still to be dealt
    revealed: tuple[tuple[Tile, ...] | None, ...] = ()  # referee mode: the racks shown so far
    extensions_used: tuple[int, ...] = ()  # time extensions taken per seat, over the whole game

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's running total over the scored hands."""
        return tuple(sum(hand[seat] for hand in self.hand_scores) for seat in range(self.players))

    def extensions_left(self, seat: int) -> int:
        used = self.extensions_used[seat] if self.extensions_used else 0
        return max(0, self.options.extensions - used)

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def to_move(self) -> int | None:
        """The seat to move; ``None`` before ``Start`` (referee mode) and once the game has ended
        (the racks still to be revealed are nobody's move)."""
        return None if self.ended is not None else self.turn

    @property
    def full_information(self) -> bool:
        return self.racks is not None

    def apply(self, action: Action) -> RummikubState:
        """The state after ``action``; ``IllegalAction`` (the state unchanged) if the rules forbid it."""
        if self.outcome is not None:
            raise IllegalAction("game_over", "the game is over")
        if self.between_hands:
            if not isinstance(action, NextHand):
                raise IllegalAction("hand_over", f"hand {self.hand} is scored: deal the next hand")
            return self._next_hand()
        if isinstance(action, NextHand):
            raise IllegalAction("hand_not_over", f"hand {self.hand} is still being played")
        if isinstance(action, Extend):
            return self._extend(action.seat)
        if self.ended is not None:
            if isinstance(action, RevealRack):
                return self._reveal_rack(action)
            if not isinstance(action, Reveal):
                raise IllegalAction("awaiting_reveal", "the game has ended: reveal the racks to score it")
            return self._reveal(action)
        if isinstance(action, RevealRack):
            raise IllegalAction("game_not_over", "racks are revealed only at the end of the game")
        if isinstance(action, Start):
            return self._start(action.seat)
        if isinstance(action, Announce):
            return self._announce(action.seat)
        if isinstance(action, Redeal):
            return self._redeal(action.seat)
        if isinstance(action, ShowRack):
            return self._show_rack(action)
        if isinstance(action, TakeHint):
            return self._hint(action)
        if isinstance(action, Reveal):
            raise IllegalAction("game_not_over", "racks are revealed only at the end of the game")
        if self.turn is None:
            raise IllegalAction("not_started", "the starting player has not been set yet")
        if isinstance(action, Open):
            return self._lay((*self.table, *action.melds))
        if isinstance(action, Play):
            return self._lay(action.table)
        if isinstance(action, Draw):
            return self._draw(1)
        if isinstance(action, Timeout):
            return self._draw(self.options.timeout_draw if action.manipulated else 1)
        raise IllegalAction("unknown_action", f"{type(action).__name__} is not a Rummikub action")

    # -- set-up -------------------------------------------------------------------------------

    def _seat(self, seat: int) -> None:
        if not 0 <= seat < self.players:
            raise IllegalAction("unknown_seat", f"seat {seat} does not exist ({self.players} players)")

    def _start(self, seat: int) -> RummikubState:
        self._seat(seat)
        if self.turn is not None:
            raise IllegalAction("already_started", f"seat {self.turn} already starts")
        return dataclasses.replace(self, turn=seat)

    def _redeal(self, seat: int) -> RummikubState:
        self._seat(seat)
        if not self.options.redeal_on_pairs:
            raise IllegalAction("redeal_not_allowed", "these rules have no redeal")
        if self.turns_taken:
            raise IllegalAction("redeal_not_allowed", "a redeal is allowed only before the first turn")
        if self.racks is not None:
            pairs = identical_pairs(self.racks[seat])
            if pairs < REDEAL_PAIRS:
                raise IllegalAction(
                    "redeal_not_allowed",
                    f"seat {seat} holds {pairs} identical pairs, a redeal needs {REDEAL_PAIRS}",
                )
        fresh = new_game(self.options, deal=self.deals + 1, hand=self.hand)
        return dataclasses.replace(
            fresh,
            turn=self.turn if self.racks is None else fresh.turn,
            hand_scores=self.hand_scores,
            extensions_used=self.extensions_used,
        )

    def _extend(self, seat: int) -> RummikubState:
        self._seat(seat)
        if self.to_move != seat:
            raise IllegalAction("not_your_turn", f"seat {seat} is not to move", seat=seat)
        if self.extensions_left(seat) <= 0:
            raise IllegalAction(
                "no_extension_left",
                f"seat {seat} has no time extension left ({self.options.extensions} per game)",
                seat=seat,
            )
        used = self.extensions_used or (0,) * self.players
        return dataclasses.replace(self, extensions_used=_set(used, seat, used[seat] + 1))

    def _next_hand(self) -> RummikubState:
        fresh = new_game(self.options, hand=self.hand + 1)
        return dataclasses.replace(fresh, hand_scores=self.hand_scores, extensions_used=self.extensions_used)

    def _hint(self, action: TakeHint) -> RummikubState:
        """The learning table: a hint asked by the mover (stage 1 or 2); the game is unchanged."""
        self._seat(action.seat)
        if not self.options.learning:
            raise IllegalAction("not_learning", "hints are given only at a learning table")
        if self.turn is None or self.turn != action.seat:
            raise IllegalAction("not_your_turn", f"seat {action.seat} is not to move", seat=action.seat)
        if action.stage not in (1, 2):
            raise IllegalAction("unknown_action", f"a hint has stages 1 and 2, not {action.stage}")
        return self

    def _show_rack(self, action: ShowRack) -> RummikubState:
        """The learning table: the mover's rack, checked for its size and against the set; the game
        is unchanged (the coach reads it from the actions)."""
        seat = action.seat
        self._seat(seat)
        if not self.options.learning:
            raise IllegalAction("not_learning", "racks are shown only at a learning table")
        if self.turn is None or self.turn != seat:
            raise IllegalAction("not_your_turn", f"seat {seat} is not to move", seat=seat)
        count = self.rack_counts[seat]
        if len(action.rack) != count:
            raise IllegalAction(
                "rack_mismatch",
                f"seat {seat} showed {len(action.rack)} tiles ({tiles_text(action.rack)}) but holds {count}",
                seat=seat,
                shown=len(action.rack),
                count=count,
            )
        extra = Counter([*(t for m in self.table for t in m.tiles), *action.rack]) - Counter(full_set())
        if extra:
            text = tiles_text(sorted(extra.elements(), key=Tile.sort_key))
            raise IllegalAction(
                "rack_mismatch",
                f"{text}: more copies on the rack and the table than the set holds",
                seat=seat,
                tiles=text,
            )
        if self.racks is not None and Counter(self.racks[seat]) != Counter(action.rack):
            raise IllegalAction(
                "rack_mismatch", f"seat {seat} does not hold {tiles_text(action.rack)}", seat=seat
            )
        return self

    def _announce(self, seat: int) -> RummikubState:
        self._seat(seat)
        if self.opened[seat]:
            raise IllegalAction("already_opened", f"seat {seat} has already opened")
        return dataclasses.replace(self, announced=_set(self.announced, seat, True))

    # -- turns --------------------------------------------------------------------------------

    def _lay(self, after: Sequence[Meld]) -> RummikubState:
        seat = self.turn
        assert seat is not None
        played = check_turn(self.table, after, opened=self.opened[seat])
        rack_counts = _set(self.rack_counts, seat, self.rack_counts[seat] - len(played))
        racks = self.racks
        if racks is not None:
            left = Counter(racks[seat])
            left.subtract(played)
            missing = [t for t, k in left.items() if k < 0 for _ in range(-k)]
            if missing:
                raise IllegalAction(
                    "not_on_rack",
                    f"{tiles_text(missing)} {'is' if len(missing) == 1 else 'are'} not on the player's rack",
                    tiles=[str(t) for t in missing],
                )
            rest = list(racks[seat])
            for t in played:
                rest.remove(t)
            racks = _set(racks, seat, tuple(rest))
        elif len(played) > self.rack_counts[seat]:
            raise IllegalAction(
                "not_on_rack", f"{len(played)} tiles laid but the rack holds {self.rack_counts[seat]}"
            )
        state = dataclasses.replace(
            self,
            table=tuple(after),
            rack_counts=rack_counts,
            racks=racks,
            opened=_set(self.opened, seat, True),
            announced=_set(self.announced, seat, False),
            passes=0,
        )
        if rack_counts[seat] == 0:
            return state._end(Termination.RACK_EMPTY)
        return state._next()

    def _draw(self, count: int) -> RummikubState:
        seat = self.turn
        assert seat is not None
        count = min(count, self.pool_count)
        passes = self.passes + 1 if self.pool_count == 0 else 0
        racks, pool = self.racks, self.pool
        if racks is not None and pool is not None:
            racks = _set(racks, seat, (*racks[seat], *pool[:count]))
            pool = pool[count:]
        state = dataclasses.replace(
            self,
            rack_counts=_set(self.rack_counts, seat, self.rack_counts[seat] + count),
            pool_count=self.pool_count - count,
            racks=racks,
            pool=pool,
            announced=_set(self.announced, seat, False),
            passes=passes,
        )
        if passes >= self.players:
            return state._end(Termination.POOL_EXHAUSTED)
        return state._next()

    def _next(self) -> RummikubState:
        assert self.turn is not None
        return dataclasses.replace(
            self, turn=(self.turn + 1) % self.players, turns_taken=self.turns_taken + 1
        )

    # -- the end ------------------------------------------------------------------------------

    def _end(self, why: Termination) -> RummikubState:
        state = dataclasses.replace(self, ended=why, turns_taken=self.turns_taken + 1)
        if state.racks is None:
            return state
        return state._score(state.racks)

    def _reveal(self, action: Reveal) -> RummikubState:
        if self.racks is not None:
            raise IllegalAction("game_over", "the game is over")
        if len(action.racks) != self.players:
            raise IllegalAction("reveal_mismatch", f"{len(action.racks)} racks for {self.players} players")
        for seat, (rack, count) in enumerate(zip(action.racks, self.rack_counts, strict=True)):
            if len(rack) != count:
                raise IllegalAction(
                    "reveal_mismatch",
                    f"seat {seat} revealed {len(rack)} tiles ({tiles_text(rack)}) but holds {count}",
                    seat=seat,
                )
        seen = Counter(
            [*(t for m in self.table for t in m.tiles), *(t for rack in action.racks for t in rack)]
        )
        extra = seen - Counter(full_set())
        if extra:
            text = tiles_text(sorted(extra.elements(), key=Tile.sort_key))
            raise IllegalAction(
                "reveal_mismatch", f"{text}: more copies on the racks and the table than the set holds"
            )
        return self._score(action.racks)

    def _reveal_rack(self, action: RevealRack) -> RummikubState:
        if self.racks is not None:
            raise IllegalAction("game_over", "the game is over")
        seat = action.seat
        self._seat(seat)
        # An emptied rack is known from the start: nothing to show.
        revealed = self.revealed or tuple(() if n == 0 else None for n in self.rack_counts)
        if revealed[seat] is not None:
            raise IllegalAction("already_revealed", f"seat {seat}'s rack is already known", seat=seat)
        count = self.rack_counts[seat]
        if len(action.rack) != count:
            raise IllegalAction(
                "reveal_mismatch",
                f"seat {seat} revealed {len(action.rack)} tiles ({tiles_text(action.rack)})"
                f" but holds {count}",
                seat=seat,
                shown=len(action.rack),
                count=count,
            )
        known = [*(t for m in self.table for t in m.tiles), *(t for r in revealed if r for t in r)]
        extra = Counter([*known, *action.rack]) - Counter(full_set())
        if extra:
            text = tiles_text(sorted(extra.elements(), key=Tile.sort_key))
            raise IllegalAction(
                "reveal_mismatch",
                f"{text}: more copies on the racks and the table than the set holds",
                seat=seat,
                tiles=text,
            )
        revealed = _set(revealed, seat, tuple(action.rack))
        if all(r is not None for r in revealed):
            return dataclasses.replace(self, revealed=revealed)._score(
                tuple(r for r in revealed if r is not None)
            )
        return dataclasses.replace(self, revealed=revealed)

    def rack_known(self, seat: int) -> bool:
        """Referee mode, at the end of a hand: whether ``seat``'s final rack has been shown (an
        emptied rack is known)."""
        if self.rack_counts[seat] == 0:
            return True
        return bool(self.revealed) and self.revealed[seat] is not None

    def _score(self, racks: tuple[tuple[Tile, ...], ...]) -> RummikubState:
        scores = score_game(racks, self.opened, self.announced, joker_penalty=self.options.joker_penalty)
        assert self.ended is not None
        hands = (*self.hand_scores, tuple(scores))
        state = dataclasses.replace(self, final_racks=racks, hand_scores=hands)
        totals = state.totals
        target = self.options.target_score
        if self.hand >= self.options.hands or (target > 0 and max(totals) >= target):
            return dataclasses.replace(state, outcome=Outcome.from_scores(self.ended, totals))
        return dataclasses.replace(state, between_hands=True)


def _set(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def new_game(options: RummikubOptions, deal: int = 1, hand: int = 1) -> RummikubState:
    """A new game (or its ``hand``-th hand): in full information the seeded starting draw and deal
    (``deal`` counts redeals); in referee mode 14 tiles per rack and the starter still to be set
    (``Start``)."""
    players = options.players
    pool_count = 106 - RACK_SIZE * players
    common: dict[str, Any] = {
        "options": options,
        "table": (),
        "rack_counts": (RACK_SIZE,) * players,
        "pool_count": pool_count,
        "opened": (False,) * players,
        "announced": (False,) * players,
        "deals": deal,
        "hand": hand,
    }
    if options.information == "referee":
        return RummikubState(racks=None, pool=None, turn=None, **common)
    rng = random.Random(f"rummikub:{options.seed}:{deal}" + (f":hand{hand}" if hand > 1 else ""))
    starter, draws = starting_draw(rng, players)
    tiles = full_set()
    rng.shuffle(tiles)
    racks = tuple(tuple(tiles[i * RACK_SIZE : (i + 1) * RACK_SIZE]) for i in range(players))
    pool = tuple(tiles[players * RACK_SIZE :])
    return RummikubState(
        racks=racks,
        pool=pool,
        turn=starter,
        starting_draws=draws,
        **common,
    )
