"""The turn machine shared by the dice games: roll up to three times, hold, choose a box; next seat.

A game state holds one score sheet per seat; the sheet (Generał, triple Generał or Kości) knows its
boxes, which boxes the current dice may enter and with how many points, and its bonuses. The state
only sequences the turns:

- a turn starts with no dice; the first :class:`~rules.dice.RollDice` must hold nothing
  (``nothing_to_hold``); each later roll may hold positions of the previous one, whose values must
  stay the same (``held_die_changed``); a fourth roll is refused (``too_many_rolls``);
- :class:`~rules.dice.Choose` enters the current dice in a box (refused before any roll: ``no_roll``)
  and passes the dice to the next seat (seat numbers increase clockwise); stopping after one or two
  rolls is simply choosing early;
- the game ends when every sheet is full (``Termination.SHEETS_FULL``); equal totals share a place.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Generic, Protocol, Self, TypeVar

from rules.actions import Action
from rules.dice import DICE, AmendRoll, Choose, Roll, RollDice, random_roll
from rules.errors import IllegalAction
from rules.options import Options
from rules.outcome import Outcome, Termination, seat_label

__all__ = [
    "MAX_ROLLS",
    "DiceGame",
    "OneColumnSheet",
    "Sheet",
    "auto_play",
    "format_table",
    "ranking_lines",
    "seat_label",
]

MAX_ROLLS = 3


class Sheet(Protocol):
    """One player's score sheet (immutable; ``fill`` returns a new sheet)."""

    @property
    def boxes(self) -> tuple[str, ...]:
        """Box ids in sheet order."""
        ...

    @property
    def filled(self) -> int:
        """How many boxes are filled (= turns played by this sheet's player)."""
        ...

    @property
    def is_full(self) -> bool: ...

    def get(self, box: str) -> int | None:
        """The points in ``box``, ``None`` while it is open."""
        ...

    def options(self, dice: Roll | Sequence[int]) -> dict[str, int]:
        """Every box the dice may enter now, with its points (bonuses not included)."""
        ...

    def fill(self, box: str, dice: Roll | Sequence[int]) -> Self:
        """The sheet with ``dice`` entered in ``box``; ``IllegalAction`` if not allowed."""
        ...

    def total(self) -> int:
        """Boxes plus bonuses."""
        ...

    def bonuses(self) -> dict[str, int]:
        """Every bonus (and penalty) line of the sheet with its current points."""
        ...


class OneColumnSheet(abc.ABC):
    """Bookkeeping shared by the one-column sheets (Generał classic, Kości): ``entries`` in ``BOXES``
    order, ``None`` for an open box. Subclasses are frozen dataclasses with an ``entries`` field."""

    BOXES: ClassVar[tuple[str, ...]]
    entries: tuple[int | None, ...]

    @property
    def boxes(self) -> tuple[str, ...]:
        return self.BOXES

    @property
    def filled(self) -> int:
        return sum(v is not None for v in self.entries)

    @property
    def is_full(self) -> bool:
        return self.filled == len(self.BOXES)

    def get(self, box: str) -> int | None:
        if box not in self.BOXES:
            raise IllegalAction("unknown_box", f"no box {box!r}; boxes: {', '.join(self.BOXES)}", box=box)
        return self.entries[self.BOXES.index(box)]

    @abc.abstractmethod
    def options(self, dice: Roll | Sequence[int]) -> dict[str, int]:
        """Every box the dice may enter now, with its points (each game's joker and zero rules)."""

    def _entered(
        self, box: str, roll: Roll, refusal: Callable[[dict[str, int]], IllegalAction]
    ) -> tuple[int | None, ...]:
        """The entries with ``roll`` in ``box``: ``box_filled`` if it is taken, ``refusal(allowed)`` if
        the rules send this roll elsewhere (each game names its own rule)."""
        if self.get(box) is not None:
            raise IllegalAction("box_filled", f"box {box!r} is already filled", box=box)
        allowed = self.options(roll)
        if box not in allowed:
            raise refusal(allowed)
        return tuple(allowed[box] if b == box else v for b, v in zip(self.BOXES, self.entries, strict=True))


S = TypeVar("S", bound=Sheet)


@dataclass(frozen=True)
class DiceGame(Generic[S]):
    """The state of a dice game: options, one sheet per seat, whose turn it is and the dice so far.

    ``turn_seat`` is the seat whose turn it is (after the last turn: the seat that would be next);
    :attr:`to_move` is the same seat while the game is on and ``None`` once it is over.
    :attr:`round_number` counts the rounds (one turn per seat), 1-based.
    """

    options: Options
    sheets: tuple[S, ...]
    first_player: int = 0
    turn_seat: int = 0
    rolls_used: int = 0
    dice: Roll | None = None
    outcome: Outcome | None = None
    held: tuple[int, ...] = ()  # the positions the latest roll kept from the one before

    @classmethod
    def start(cls, options: Options, sheet: S, first_player: int = 0) -> DiceGame[S]:
        """A new game: every seat gets a copy of the empty ``sheet``; ``first_player`` rolls first."""
        return cls(options, (sheet,) * options.players, first_player, first_player)

    @property
    def to_move(self) -> int | None:
        """The seat to roll or choose; ``None`` once every sheet is full."""
        return None if self.outcome is not None else self.turn_seat

    @property
    def round_number(self) -> int:
        """The round of the turn in play, 1-based: the turn seat's own turn count (the last round's
        number once the game is over)."""
        sheet = self.sheets[self.turn_seat]
        return min(sheet.filled + 1, len(sheet.boxes))

    def choices(self) -> dict[str, int]:
        """The boxes the current dice may enter, with their points; empty before the first roll."""
        if self.dice is None or self.outcome is not None:
            return {}
        return self.sheets[self.turn_seat].options(self.dice)

    def best_choice(self) -> str:
        """The highest-scoring legal box (ties: the first in sheet order), e.g. for a move timer."""
        if self.outcome is not None:
            raise IllegalAction("game_over", "the game is over: every sheet is full")
        choices = self.choices()
        if not choices:
            raise IllegalAction("no_roll", "no dice have been rolled this turn")
        return max(choices, key=lambda box: choices[box])

    def apply(self, action: Action) -> DiceGame[S]:
        """The state after ``action``; ``IllegalAction`` (this state is unchanged) if it is refused."""
        if self.outcome is not None:
            raise IllegalAction("game_over", "the game is over: every sheet is full")
        if isinstance(action, RollDice):
            return self._roll(action)
        if isinstance(action, Choose):
            return self._choose(action.box)
        if isinstance(action, AmendRoll):
            return self._amend(action.dice)
        raise IllegalAction("unknown_action", f"a dice game takes no {type(action).__name__} action")

    def _roll(self, roll: RollDice) -> DiceGame[S]:
        if self.rolls_used >= MAX_ROLLS:
            raise IllegalAction(
                "too_many_rolls", f"a turn has at most {MAX_ROLLS} rolls", dice=str(roll.dice)
            )
        held = roll.held
        if len(set(held)) != len(held) or any(p not in range(DICE) for p in held):
            raise IllegalAction(
                "invalid_hold", f"held positions must be distinct, 0–{DICE - 1}: {held}", held=held
            )
        if self.dice is None:
            if held:
                raise IllegalAction(
                    "nothing_to_hold", "the first roll of a turn is made with all five dice", held=held
                )
        else:
            changed = tuple(p for p in sorted(held) if roll.dice[p] != self.dice[p])
            if changed:
                raise IllegalAction(
                    "held_die_changed",
                    f"held dice changed at positions {changed}: {self.dice} -> {roll.dice}",
                    positions=changed,
                    previous=str(self.dice),
                    dice=str(roll.dice),
                )
        return replace(self, dice=roll.dice, rolls_used=self.rolls_used + 1, held=tuple(sorted(held)))

    def _amend(self, dice: Roll) -> DiceGame[S]:
        if self.dice is None:
            raise IllegalAction("no_roll", f"no roll this turn to correct ({dice})", dice=str(dice))
        changed = tuple(p for p in self.held if dice[p] != self.dice[p])
        if changed:
            raise IllegalAction(
                "held_die_changed",
                f"held dice changed at positions {changed}: {self.dice} -> {dice}",
                positions=changed,
                previous=str(self.dice),
                dice=str(dice),
            )
        return replace(self, dice=dice)

    def _choose(self, box: str) -> DiceGame[S]:
        if self.dice is None:
            raise IllegalAction("no_roll", f"roll the dice before choosing a box ({box!r})", box=box)
        sheet = self.sheets[self.turn_seat].fill(box, self.dice)
        sheets = tuple(sheet if seat == self.turn_seat else s for seat, s in enumerate(self.sheets))
        outcome = None
        if all(s.is_full for s in sheets):
            outcome = Outcome.from_scores(Termination.SHEETS_FULL, [s.total() for s in sheets])
        return replace(
            self,
            sheets=sheets,
            turn_seat=(self.turn_seat + 1) % len(sheets),
            rolls_used=0,
            dice=None,
            outcome=outcome,
            held=(),
        )


def auto_play(state: DiceGame[S], rng: random.Random) -> DiceGame[S]:
    """Play to the end with random legal moves: random holds and number of rolls; the box is the best
    one half of the time (so that bonuses and jokers occur) and a random legal one otherwise."""
    while state.outcome is None:
        state = state.apply(RollDice(random_roll(rng, None)))
        while state.rolls_used < MAX_ROLLS and rng.random() < 0.6:
            held = tuple(p for p in range(DICE) if rng.random() < 0.5)
            state = state.apply(RollDice(random_roll(rng, state.dice, held), held))
        box = state.best_choice() if rng.random() < 0.5 else rng.choice(sorted(state.choices()))
        state = state.apply(Choose(box))
    return state


def box_words(box: str) -> str:
    """How the text output names a box, as the screen does: ``three_of_a_kind`` -> ``Three of a kind``."""
    return box.replace("_", " ").capitalize()


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table: the first column left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first, *rest = cells
        return "  ".join(
            [first.ljust(widths[0]), *(c.rjust(w) for c, w in zip(rest, widths[1:], strict=True))]
        )

    return "\n".join([line(header), "-" * len(line(header)), *(line(r) for r in rows)])


def ranking_lines(state: DiceGame[S]) -> list[str]:
    """``1. P2  250`` per seat, best first; shared places on equal totals; or who is to play."""
    if state.outcome is None:
        return [f"game on: {seat_label(state.turn_seat)} to play, turn {state.round_number}"]
    outcome = state.outcome
    order = sorted(range(len(outcome.scores)), key=lambda seat: (outcome.places[seat], seat))
    return ["ranking:"] + [f"{outcome.places[s]}. {seat_label(s)}  {outcome.scores[s]}" for s in order]
