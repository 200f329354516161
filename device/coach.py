"""The coach at the table: hints on the dice screen, the solo opponent, and every player's grade.

The owner's setting ``coach`` (settings screen) is ``off``, ``hints`` or ``solo``; a game keeps the
mode it started with (:meth:`Coaching.for_session`), so a game started with the coach off never
shows a hint or a grade.

- ``hints``: for the current roll the best hold (or, after the last roll, the best box), and for the
  player's previous decision what it cost against optimal play.
- ``solo`` (one player): no hints during the game; the player plays against the coach's expected
  score (the optimum from the start, "par") and against an opponent that plays optimally, simulated
  from the game's id so it is the same after a restart; its running total after as many turns is shown.
- both: the end screen's grade — points lost per decision (the proficiency figure), the total lost,
  and the biggest mistake with what was best.

The tables are read from the state directory (``referee coach build``); without them the coach says
so and the game goes on without it. Advice is computed from the game's actions, so it follows a
resumed game exactly.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol, cast

import numpy as np

from device.coach_tables import load_coach
from rules.coach.advice import Choice, Coach, advise, choice_loss
from rules.coach.games import coach_game
from rules.coach.simulate import play_optimally
from rules.coach.table import Table, TableError
from rules.dice import Choose, RollDice
from rules.dice_game import MAX_ROLLS, DiceGame, Sheet
from rules.options import Options
from rules.registry import Action, GameSpec, GameState
from rules.yahtzee.triple_solver import TripleCoach, play_turns

__all__ = ["MODES", "Coaching", "Decision", "Grade", "Hint", "Mode"]

log = logging.getLogger(__name__)


class CoachedGame(Protocol):
    """What the coach reads of its game (``device.sessions.dice.DiceSession``, whose own it is)."""

    @property
    def spec(self) -> GameSpec: ...

    @property
    def options(self) -> Options: ...

    @property
    def state(self) -> GameState: ...

    @property
    def history(self) -> Sequence[Action]: ...

    @property
    def players(self) -> Sequence[object]: ...

    @property
    def game_id(self) -> int: ...

    @property
    def seq(self) -> int: ...

    @property
    def finished(self) -> bool: ...


def _dice_game(state: GameState) -> DiceGame[Sheet]:
    """A dice game's state (the coach coaches nothing else)."""
    if not isinstance(state, DiceGame):
        raise TypeError(f"the coach coaches dice games, not {type(state).__name__}")
    return cast(DiceGame[Sheet], state)


Mode = Literal["off", "hints", "solo"]
MODES: tuple[Mode, ...] = ("off", "hints", "solo")


@dataclass(frozen=True)
class Decision:
    """One decision of a player: a hold (with rolls left) or a box, what was best, what it cost."""

    seat: int
    turn: int  # the player's turn number, 1-based
    rolls_left: int
    made: Choice
    best: Choice

    @property
    def loss(self) -> float:
        return self.made.loss


@dataclass(frozen=True)
class Grade:
    """A player's game against optimal play."""

    seat: int
    decisions: int
    lost: float  # expected points lost in all
    biggest: Decision | None

    @property
    def per_decision(self) -> float:
        """Points lost per decision: the proficiency figure (0 = optimal play)."""
        return self.lost / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class Hint:
    """What the coach suggests now: the best choice and the runner-up's loss."""

    best: Choice
    rolls_left: int
    margin: float  # how much worse the second-best choice is (0 if there is none)


@dataclass
class Coaching:
    """The coach of one game session (see the module docstring): the dice session's own
    (``DiceSession.coaching``)."""

    mode: Mode
    coach: Coach | None
    problem: str = ""  # why there is no coach (no table yet), for the screen
    _decisions: list[Decision] = field(default_factory=list)
    _seen: int = 0  # actions of the history already graded
    _state: DiceGame[Sheet] | None = None  # the engine state after those actions
    _hint: tuple[int, Hint | None] | None = None
    _opponent: np.ndarray | None = None

    @classmethod
    def for_session(cls, session: CoachedGame, mode: str, state_dir: str | Path) -> Coaching:
        """The coaching of a dice session: ``off`` for other games, or when the mode is off."""
        try:
            coach_game(session.options)
        except ValueError:
            return cls("off", None)
        if mode not in ("hints", "solo"):
            return cls("off", None)
        try:
            coach = load_coach(session.options, state_dir)
        except TableError as error:
            log.warning("coach: %s", error)
            return cls(mode, None, problem=str(error))  # type: ignore[arg-type]
        return cls(mode, coach)  # type: ignore[arg-type]

    @property
    def active(self) -> bool:
        return self.coach is not None and self.mode != "off"

    @property
    def exact(self) -> bool:
        return self.coach is not None and self.coach.exact

    # --- decisions -----------------------------------------------------------------------------------

    def update(self, session: CoachedGame) -> None:
        """Grade the actions of the session's history not graded yet."""
        if not self.active:
            return
        history = session.history
        if self._state is None or len(history) < self._seen:
            self._state, self._seen = _dice_game(session.spec.new_game(session.options)), 0
            self._decisions = []
        assert self.coach is not None
        for act in history[self._seen :]:
            state = self._state
            seat = state.turn_seat
            sheet = state.sheets[seat]
            rolls_left = MAX_ROLLS - state.rolls_used
            turn = sheet.filled + 1
            if isinstance(act, RollDice) and state.dice is not None:
                _, best, made = choice_loss(self.coach, sheet, state.dice.values, rolls_left, held=act.held)
                self._decisions.append(Decision(seat, turn, rolls_left, made, best))
            elif isinstance(act, Choose) and state.dice is not None:
                _, best, made = choice_loss(self.coach, sheet, state.dice.values, rolls_left, box=act.box)
                self._decisions.append(Decision(seat, turn, rolls_left, made, best))
            self._state = state.apply(act)
            self._seen += 1

    def decisions(self, session: CoachedGame) -> list[Decision]:
        self.update(session)
        return list(self._decisions)

    def last_decision(self, session: CoachedGame) -> Decision | None:
        """The latest decision of the game (the hints' "after the fact")."""
        self.update(session)
        return self._decisions[-1] if self._decisions else None

    def grades(self, session: CoachedGame) -> list[Grade]:
        self.update(session)
        grades = []
        for seat in range(len(session.players)):
            mine = [d for d in self._decisions if d.seat == seat]
            biggest = max(mine, key=lambda d: d.loss, default=None)
            if biggest is not None and biggest.loss <= 0.005:
                biggest = None
            grades.append(Grade(seat, len(mine), sum(d.loss for d in mine), biggest))
        return grades

    # --- hints ---------------------------------------------------------------------------------------

    def hint(self, session: CoachedGame) -> Hint | None:
        """The best choice for the dice now (``hints`` mode only); cached until the next action."""
        if not self.active or self.mode != "hints" or session.finished:
            return None
        if self._hint is not None and self._hint[0] == session.seq:
            return self._hint[1]
        state = _dice_game(session.state)
        hint = None
        if state.dice is not None and state.rolls_used > 0:
            assert self.coach is not None
            rolls_left = MAX_ROLLS - state.rolls_used
            choices = advise(self.coach, state.sheets[state.turn_seat], state.dice.values, rolls_left)
            margin = choices[1].loss if len(choices) > 1 else 0.0
            hint = Hint(choices[0], rolls_left, margin)
        self._hint = (session.seq, hint)
        return hint

    # --- solo ----------------------------------------------------------------------------------------

    def par(self, session: CoachedGame) -> float | None:
        """The expected final score of optimal play from the empty sheet."""
        if not self.active or self.coach is None:
            return None
        return self.coach.expected_final(_dice_game(session.spec.new_game(session.options)).sheets[0])

    def opponent_turns(self, session: CoachedGame) -> np.ndarray | None:
        """The simulated optimal opponent's points turn by turn (seeded by the game's id)."""
        if not self.active or self.mode != "solo":
            return None
        if self._opponent is None:
            rng_seed = int(session.game_id) * 7919 + 16
            if isinstance(self.coach, TripleCoach):
                self._opponent = play_turns(self.coach.column_table.values, 1, seed=rng_seed, batch=1)[0]
            else:
                assert isinstance(self.coach, Table)
                empty = _dice_game(session.spec.new_game(session.options)).sheets[0]
                start = np.array([self.coach.model.state_of(empty)], dtype=np.int64)
                self._opponent = play_optimally(self.coach, start, np.random.default_rng(rng_seed))[0]
        return self._opponent

    def opponent_total(self, session: CoachedGame, turns: int) -> int | None:
        """The opponent's total after ``turns`` turns."""
        points = self.opponent_turns(session)
        return None if points is None else int(np.rint(points[:turns].sum()))
