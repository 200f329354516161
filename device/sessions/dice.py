"""The dice games at the table (Generał, triple Generał, Kości): what the camera and the buttons mean.

- A settled camera reading is a roll only when the dice were thrown (``device.sessions.dice_rolls``
  defines it): holding, nudging, a hand over the tray and the first reading after a resume are not.
  Where the device cannot tell it asks the players (:attr:`DiceSession.question`).
- Dice lying in the hold zone are the held dice, matched to the previous roll by position and value
  (each die of the table keeps the slot it had). Dice the players enter by hand carry no positions and
  are matched by value alone. A held die whose value matches no position is given a free position
  anyway, so the rules refuse the roll with ``held_die_changed`` and the screen says why.
- A roll the camera is unsure of waits for the players to correct it on the correction screen
  (:class:`Correcting`, which owns the dice being set: :class:`DieStepped`, :class:`HoldToggled`,
  then :class:`DiceEntered`).
- The player picks a box on the screen (:class:`BoxPicked`); the seat button (or the *Enter* touch)
  enters it.
- When the move timer runs out the best-scoring box is entered; if the player has not rolled yet, the
  best box is entered as soon as the roll is seen. Either way :attr:`DiceSession.timeout_entry` says
  which box was entered for whom, for the screen's notice.

The phases are states (``device.states``; :attr:`DiceSession.stage`, named by
:attr:`DiceSession.phase`), each owning what it needs: :class:`Rolling` (no roll yet this turn; whether
the time ran out before it), :class:`Choosing` (a box to pick: the box picked), :class:`Asking` (was
that a roll? the reading asked about), :class:`Correcting` (the players fix a reading on the correction
screen: the roll waiting for them, if any, and the dice they are setting — values, held, unsure) and
:class:`Over`. A question and a correction keep the turn's state they came from, which *Cancel* and
the answer go back to. The camera's readings arrive as ``Seen`` (``vision.DiceObservation``), the
simulator's as :class:`device.sessions.dice_events.DiceSeen`; both go the same way.

The screens' touches are events for the current state (``session.send``), frozen like the others:
:class:`Touch` (*Enter*, *Fix the dice*, *Cancel*), :class:`BoxPicked`, :class:`Answered` (*Were the
dice rolled?*), and on the correction screen :class:`DieStepped` (a die tapped), :class:`HoldToggled`
(*Held* / *Rolled*), :class:`DiceEntered` (*Use these dice*) and :class:`RollAmended` (*Correct this
roll*), the last two entering the correction's own dice. A state takes the touches it has a use for
and lets the others go: only a question takes an answer, only a correction takes a die stepped or the
dice entered; a question or a correction hands a box picked to the turn's state it keeps.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal, cast, get_args

from device.camera_view import GameReader
from device.coach import Coaching
from device.events import Seen, TimerSignal
from device.journal import ReadingFix
from device.session import GameSession, SessionArgs, register_session
from device.sessions.dice_events import DiceSeen, SeenDie
from device.sessions.dice_rolls import Scene, Verdict, as_roll, judge, roll_of
from device.states import State
from drivers.events import ButtonEvent
from rules import Action
from rules.dice import AmendRoll, Choose, Roll, RollDice
from rules.dice_game import DiceGame, Sheet
from vision.calibration import HOLD
from vision.dice import DiceObservation, read_dice

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "DICE_READER",
    "Answered",
    "Asking",
    "BoxPicked",
    "Choosing",
    "Correcting",
    "DiceEntered",
    "DicePhase",
    "DiceSession",
    "DiceStage",
    "DieStepped",
    "HoldToggled",
    "Over",
    "PokerDiceSession",
    "RollAmended",
    "Rolling",
    "TimeoutEntry",
    "Touch",
    "TouchName",
    "YahtzeeSession",
    "dice_fixes",
    "roll_from_seen",
    "seen_from_observation",
]

DicePhase = Literal["rolling", "choosing", "asking", "correcting", "over"]
DICE_READER = GameReader(read_dice, zones=(HOLD,))

log = logging.getLogger(__name__)

DICE = 5


@dataclass(frozen=True)
class TimeoutEntry:
    """The box the move timer entered: for which seat, which box, its points, and when (timer clock)."""

    seat: int
    box: str
    points: int
    at: float
    unrolled: bool  # the player had not rolled when the time ran out (entered on his roll)


def seen_from_observation(observation: DiceObservation, *, gap: bool = False) -> DiceSeen:
    """The camera's ``vision.DiceObservation`` as the session's :class:`DiceSeen` (dice in the reader's
    order, with their places, so the session can tell a throw from a hold)."""
    uncertain = set(observation.uncertain)
    dice = tuple(
        SeenDie(
            value=die.value,
            held=die.held,
            uncertain=i in uncertain or die.value is None,
            center=(float(die.center[0]), float(die.center[1])),
            size=float(die.size),
        )
        for i, die in enumerate(observation.dice)
    )
    return DiceSeen(dice, gap=gap)


def dice_fixes(source: DiceSeen | None, values: Sequence[int]) -> tuple[ReadingFix, ...]:
    """What the players corrected of the camera's reading ``source`` (dice in the order the correction
    screen shows them) by entering ``values``: each die they changed, and each unsure one.

    >>> fixes = dice_fixes(DiceSeen((SeenDie(4), SeenDie(5), SeenDie(None, uncertain=True))), [4, 6, 2])
    >>> [(f.item, f.read, f.entered, f.sure) for f in fixes]
    [(1, '5', '6', True), (2, '', '2', False)]
    """
    if source is None or len(source.dice) != len(values):
        return ()
    out = []
    for i, (die, value) in enumerate(zip(source.dice, values, strict=True)):
        sure = not die.uncertain and die.value is not None
        if not sure or die.value != value:
            read = "" if die.value is None else str(die.value)
            out.append(ReadingFix(i, "die", read, str(value), None, sure))
    return tuple(out)


def roll_from_seen(dice: Sequence[SeenDie], previous: Roll | None) -> tuple[Roll, tuple[int, ...]]:
    """The roll and the held positions for dice read off the table.

    ``previous`` is the roll before this one in the same turn (``None`` for the first roll, where every
    die was thrown whatever lies in the hold zone).

    >>> seen = [SeenDie(4, held=True), SeenDie(6), SeenDie(4, held=True), SeenDie(2), SeenDie(1)]
    >>> roll, held = roll_from_seen(seen, Roll.parse("4 3 4 5 1"))
    >>> str(roll), held
    ('4 6 4 2 1', (0, 2))
    """
    values = [d.value for d in dice]
    if len(values) != DICE or any(v is None for v in values):
        raise ValueError(f"need {DICE} dice with values, got {' '.join(str(d) for d in dice)}")
    if previous is None:
        return Roll(tuple(int(v) for v in values if v is not None)), ()
    slots: list[int | None] = [None] * DICE
    free = list(range(DICE))
    unmatched: list[int] = []
    for die in dice:
        if not die.held:
            continue
        assert die.value is not None
        match = next((p for p in free if previous.values[p] == die.value), None)
        if match is None:
            unmatched.append(die.value)
        else:
            slots[match] = die.value
            free.remove(match)
    held_positions = [p for p in range(DICE) if slots[p] is not None]
    for value in unmatched:
        position = free.pop(0)
        slots[position] = value
        held_positions.append(position)
    rolled = [d.value for d in dice if not d.held]
    for position, rolled_value in zip(free, rolled, strict=True):
        slots[position] = rolled_value
    return Roll(tuple(int(v) for v in slots if v is not None)), tuple(sorted(held_positions))


# --- the touches: what the dice screens' targets send to the current state ----------------------------

TouchName = Literal[
    "enter",  # Enter (or the keyboard's Enter): the box picked, for the seat to move
    "fix_dice",  # Fix the dice (or a die tapped): the correction screen
    "cancel",  # Cancel on the correction screen: back without entering dice
]


@dataclass(frozen=True)
class Touch:
    """A touch without data (``enter``, ``fix_dice``, ``cancel``), as an event for the current state."""

    name: TouchName


@dataclass(frozen=True)
class BoxPicked:
    """A box tapped (or reached with the arrow keys): the box the seat button enters."""

    box: str


@dataclass(frozen=True)
class Answered:
    """The players' answer to *Were the dice rolled?*: a new roll (enter it) or the same roll."""

    rolled: bool


def _die(index: int) -> None:
    if not 0 <= index < DICE:
        raise ValueError(f"die {index}: the correction's dice are 0 to {DICE - 1}")


@dataclass(frozen=True)
class DieStepped:
    """A die tapped on the correction screen (``index``: 0–4, as the screen shows them): its value steps
    on (1…6, then 1 again; an unknown die becomes 1) and it is no longer marked unsure."""

    index: int

    def __post_init__(self) -> None:
        _die(self.index)


@dataclass(frozen=True)
class HoldToggled:
    """The *Held* / *Rolled* button under a die of a later roll: whether it was kept from the previous
    roll."""

    index: int

    def __post_init__(self) -> None:
        _die(self.index)


@dataclass(frozen=True)
class DiceEntered:
    """*Use these dice*: the correction's dice (:class:`Correcting`), as the players set them, are the
    roll."""


@dataclass(frozen=True)
class RollAmended:
    """*Correct this roll*: the turn's latest roll, entered with a die the camera misread with
    confidence, is the correction's dice as the players set them (:meth:`DiceSession.amend_roll`)."""


# --- the phases --------------------------------------------------------------------------------------


class DiceStage(State["DiceSession"]):
    """A phase of a dice game's turn. Every state takes the dice seen (the camera's, the players'
    entered by hand) the same way (:meth:`DiceSession.on_dice`), the seat button, the move timer, the
    *Enter* touch (the seat button of the seat to move) and *Fix the dice*."""

    def handle(self, session: DiceSession, event: object) -> DiceStage | None:
        if isinstance(event, ButtonEvent):
            if event.kind == "press":
                session.confirm(event.seat)
        elif isinstance(event, TimerSignal):
            if event.kind == "timeout":
                session.on_timeout()
        elif isinstance(event, Seen):
            session.on_reading(event)
        elif isinstance(event, DiceSeen):
            session.on_dice(event)
        elif isinstance(event, Touch) and event.name == "enter":
            seat = session.current_seat
            if seat is not None:
                session.confirm(seat)
        elif isinstance(event, Touch) and event.name == "fix_dice":
            return Correcting.opened(None, self.base(), session.current_roll)  # the players set the dice
        return None

    def base(self) -> Rolling | Choosing:
        """The turn's own state under a question or a correction: what a *Cancel* goes back to."""
        raise NotImplementedError


@dataclass(eq=False)
class Rolling(DiceStage):
    """No roll yet this turn. ``best_on_roll``: the move timer ran out before the roll; the best box
    is entered as soon as the roll is seen."""

    name: ClassVar[str] = "rolling"
    best_on_roll: bool = False

    def base(self) -> Rolling:
        return self


@dataclass(eq=False)
class Choosing(DiceStage):
    """A box to pick (``selected``: a box open for these dice), entered by the seat button; or a roll
    more."""

    name: ClassVar[str] = "choosing"
    selected: str | None = None

    def handle(self, session: DiceSession, event: object) -> DiceStage | None:
        if isinstance(event, BoxPicked):
            if event.box in session.choices():
                self.selected = event.box
            return None
        return super().handle(session, event)

    def base(self) -> Choosing:
        return self


@dataclass(eq=False)
class Asking(DiceStage):
    """A reading the device cannot judge: the players are asked whether it was a roll."""

    name: ClassVar[str] = "asking"
    question: Verdict
    back: Rolling | Choosing

    def handle(self, session: DiceSession, event: object) -> DiceStage | None:
        if isinstance(event, Answered):
            if not event.rolled:
                return self.back
            session.go(self.back, "Answered")
            throw = as_roll(self.question, later=session.current_roll is not None)
            assert throw.scene is not None
            session.enter_roll(throw, DiceSeen(tuple(p.die for p in throw.scene.dice)))
            return None
        if isinstance(event, BoxPicked):
            return self.back.handle(session, event)  # the turn's box, picked under the question
        return super().handle(session, event)

    def base(self) -> Rolling | Choosing:
        return self.back


@dataclass(eq=False)
class Correcting(DiceStage):
    """The correction screen: a roll the camera is unsure of waits for the players' dice
    (``pending``, in slot order), or the players opened it themselves (``pending`` ``None``).

    It owns the dice being set (:meth:`opened` fills them): ``values`` (``None``: not known yet),
    ``held`` (asked only on a later roll of the turn, ``later``) and ``unsure`` (the dice the camera
    was unsure of, marked until the players step them), and ``roll``, the turn's roll it was opened on
    by the players, which *Correct this roll* amends. :class:`DieStepped` and :class:`HoldToggled`
    change them; :class:`DiceEntered` and :class:`RollAmended` enter them; *Cancel* drops them."""

    name: ClassVar[str] = "correcting"
    pending: DiceSeen | None
    back: Rolling | Choosing
    values: list[int | None] = field(default_factory=lambda: [None] * DICE)
    held: list[bool] = field(default_factory=lambda: [False] * DICE)
    unsure: list[bool] = field(default_factory=lambda: [True] * DICE)
    later: bool = False
    roll: Roll | None = None

    @classmethod
    def opened(cls, pending: DiceSeen | None, back: Rolling | Choosing, turn: Roll | None) -> Correcting:
        """The correction of the reading ``pending`` (its dice, held as read on a later roll, its
        unsure dice marked), or, opened by the players (``pending`` ``None``), of the turn's roll so
        far ``turn`` (``None`` before its first roll: every die unknown)."""
        later = turn is not None
        if pending is not None and len(pending.dice) == DICE:
            dice = pending.dice
            values = [d.value for d in dice]
            held = [later and d.held for d in dice]
            unsure = [d.uncertain or d.value is None for d in dice]
        else:
            values = list(turn.values) if turn is not None else [None] * DICE
            held = [False] * DICE
            unsure = [v is None for v in values]
        roll = turn if pending is None else None
        return cls(pending, back, values, held, unsure, later=later, roll=roll)

    @property
    def complete(self) -> bool:
        """Whether every die has a value (*Use these dice* enters them)."""
        return all(v is not None for v in self.values)

    @property
    def amendable(self) -> bool:
        """Whether *Correct this roll* amends the turn's roll: opened by the players on it, every die
        set, and one of them changed."""
        return self.roll is not None and self.complete and list(self.roll.values) != self.values

    def entered(self) -> tuple[int, ...]:
        """The dice set, as the roll they enter (all of them set: :attr:`complete`)."""
        return tuple(v for v in self.values if v is not None)

    def touches(
        self, values: Sequence[int], held: Sequence[bool] | None = None
    ) -> tuple[DieStepped | HoldToggled, ...]:
        """The taps that set these dice to ``values`` and (on a later roll) the held marks to ``held``
        (``None``: as they are): what a player who knows his dice taps (the simulated table, the
        tests)."""
        if len(values) != DICE or any(not 1 <= v <= 6 for v in values):
            raise ValueError(f"need {DICE} dice of 1 to 6, got {list(values)}")
        taps: list[DieStepped | HoldToggled] = []
        for i, (now, want) in enumerate(zip(self.values, values, strict=True)):
            steps = want if now is None else (want - now) % 6
            taps.extend(DieStepped(i) for _ in range(steps))
        if self.later and held is not None:
            if len(held) != DICE:
                raise ValueError(f"need {DICE} held marks, got {list(held)}")
            taps.extend(HoldToggled(i) for i, h in enumerate(held) if h != self.held[i])
        return tuple(taps)

    def handle(self, session: DiceSession, event: object) -> DiceStage | None:
        if isinstance(event, DieStepped):
            value = self.values[event.index]
            self.values[event.index] = 1 if value is None or value == 6 else value + 1
            self.unsure[event.index] = False  # the players have looked at this die
            return None
        if isinstance(event, HoldToggled):
            if self.later:  # the first roll throws every die: no die is held
                self.held[event.index] = not self.held[event.index]
            return None
        if isinstance(event, Touch) and event.name == "cancel":
            return self.back  # the reading waiting for the players is dropped, and the dice set
        if isinstance(event, Touch) and event.name == "fix_dice":
            return None  # already open
        if isinstance(event, DiceEntered):
            if not self.complete:
                return None
            values = self.entered()
            # Of a reading the camera waits on, each die the players changed — the reader sure of it
            # or not — and each unsure die they confirmed is journaled beside the roll it enters.
            fixes = dice_fixes(self.pending, values)
            if self.pending is None:
                session.go(self.back, "DiceEntered")  # opened by the players: nothing waits on it
            dice = tuple(SeenDie(v, h) for v, h in zip(values, self.held, strict=True))
            session.on_dice(DiceSeen(dice), fixes)
            return None
        if isinstance(event, RollAmended):
            if not self.amendable:
                return None
            session.go(self.back, "RollAmended")
            session.amend_roll(self.entered())
            return None
        if isinstance(event, BoxPicked):
            return self.back.handle(session, event)
        return super().handle(session, event)

    def base(self) -> Rolling | Choosing:
        return self.back


class Over(DiceStage):
    name: ClassVar[str] = "over"

    def handle(self, session: DiceSession, event: object) -> DiceStage | None:
        return None

    def base(self) -> Rolling:
        return Rolling()


class DiceSession(GameSession):
    table_screen = "dice_table"
    screens = ("correction",)
    reader = DICE_READER

    def __init__(self, **kwargs: Unpack[SessionArgs]) -> None:
        super().__init__(**kwargs)
        self.scene: Scene | None = None  # the dice as they last lay on the table (None: not seen yet)
        self.seen: Verdict | None = None  # the verdict on the latest reading (log, screen)
        self.seen_count = 0  # how many dice the latest reading has
        self.timeout_entry: TimeoutEntry | None = None
        # Slots of the turn's roll the players amended: (what the camera reads there, what lies there);
        # kept for the dice held since, which the camera goes on misreading where they lie.
        self.amended: dict[int, tuple[int, int]] = {}
        self._progress: tuple[int, list[list[int]]] | None = None
        self._coaching: Coaching | None = None

    def coaching(self, mode: str, state_dir: str | Path) -> Coaching:
        """The coach of this game (``device.coach``), made when a screen first asks, with the owner's
        setting of that moment (``mode``: off, hints or solo); the game keeps it to its end."""
        if self._coaching is None:
            self._coaching = Coaching.for_session(self, mode, state_dir)
        return self._coaching

    # --- the states ----------------------------------------------------------------------------------

    def initial_stage(self) -> DiceStage:
        return self.settled()

    def settled(self) -> DiceStage:
        """The state the rules' state calls for: a new turn rolls, a roll taken chooses."""
        if self.finished:
            return Over()
        return Rolling() if self.rolls_used == 0 else Choosing()

    def acted(self, act: Action) -> None:
        # A roll amended is the same roll: the box picked stays picked.
        target = self.base() if isinstance(act, AmendRoll) else self.settled()
        self.go(target, type(act).__name__)

    def go(self, stage: DiceStage, cause: str) -> None:
        assert self.machine is not None
        self.machine.go(stage, cause=cause)

    def base(self) -> Rolling | Choosing:
        stage = self.stage
        assert isinstance(stage, DiceStage)
        return stage.base()

    # --- what the screen shows -----------------------------------------------------------------------

    @property
    def game_state(self) -> DiceGame[Sheet]:
        state = self.state
        assert isinstance(state, DiceGame)
        return state

    @property
    def dice(self) -> Roll | None:
        return self.game_state.dice

    @property
    def rolls_used(self) -> int:
        return self.game_state.rolls_used

    @property
    def phase(self) -> DicePhase:
        phase = super().phase
        assert phase in get_args(DicePhase)
        return cast(DicePhase, phase)

    @property
    def selected(self) -> str | None:
        """The box picked (the turn's :class:`Choosing`)."""
        base = self.base()
        return base.selected if isinstance(base, Choosing) else None

    @property
    def question(self) -> Verdict | None:
        """The reading the players are asked about (:class:`Asking`)."""
        stage = self.stage
        return stage.question if isinstance(stage, Asking) else None

    @property
    def choose_best_on_roll(self) -> bool:
        """The time ran out before the roll: the best box is entered on the roll (:class:`Rolling`)."""
        base = self.base()
        return isinstance(base, Rolling) and base.best_on_roll

    @property
    def screen(self) -> str:
        return "correction" if self.phase == "correcting" else self.table_screen

    def choices(self) -> dict[str, int]:
        """Open boxes and their points for the current dice (empty before the first roll)."""
        if self.dice is None or self.finished:
            return {}
        return dict(self.game_state.choices())

    def best_choice(self) -> str | None:
        if self.dice is None or self.finished:
            return None
        return str(self.game_state.best_choice())

    # --- events --------------------------------------------------------------------------------------

    @property
    def current_roll(self) -> Roll | None:
        """The turn's roll so far (``None`` before its first roll)."""
        return self.dice if self.rolls_used > 0 else None

    def on_reading(self, seen: Seen) -> None:
        observation = seen.observation
        if seen.kind == "start":
            # The dice as they lie at Start are the new game's first reading (not a roll), so the first
            # throw after Start counts however soon it comes; nothing settled: an empty table. (Another
            # reader's view says nothing about dice: the first reading will be the dice as they lie.)
            if isinstance(observation, DiceObservation):
                self.on_dice(seen_from_observation(observation))
            elif observation is None:
                self.on_dice(DiceSeen(()))
        elif isinstance(observation, DiceObservation):
            self.on_dice(seen_from_observation(observation, gap=seen.gap))

    def on_dice(self, seen: DiceSeen, fixes: tuple[ReadingFix, ...] = ()) -> bool:
        """A settled reading: a roll is submitted (or kept for correction if the camera is unsure), a
        reading that is not a roll only updates the scene, one the device cannot judge becomes a
        question. ``fixes``: what the players corrected of the camera's reading, journaled beside the
        roll. Returns whether a roll was entered."""
        if self.finished:
            return False
        verdict = judge(self.scene, seen.dice, roll=self.current_roll, gap=seen.gap)
        self.seen = verdict
        self.seen_count = len(seen.dice)
        log.info("dice seen %s: %s", " ".join(str(d) for d in seen.dice), verdict)
        if verdict.kind == "incomplete":
            self.scene = verdict.scene
            return False
        if isinstance(self.stage, Asking):
            self.go(self.base(), "Seen")  # the question is settled by the next reading
        if verdict.kind != "roll":
            self.scene = verdict.scene
            if verdict.kind == "ask" and not isinstance(self.stage, Correcting):
                self.go(Asking(verdict, self.base()), "Seen")
            return False
        return self.enter_roll(verdict, seen, fixes)

    def enter_roll(self, verdict: Verdict, seen: DiceSeen, fixes: tuple[ReadingFix, ...] = ()) -> bool:
        """A reading taken as a roll (``verdict``, or the players' answer): submitted, or kept for the
        players' correction when the camera is unsure of a die. Returns whether a roll was entered."""
        previous = self.current_roll
        self.scene = verdict.scene
        if verdict.scene is None:
            dice: tuple[SeenDie, ...] = seen.dice
        else:
            in_slots = sorted(verdict.scene.dice, key=lambda p: DICE if p.slot is None else p.slot)
            dice = tuple(p.die for p in in_slots)
        base = self.base()
        if not seen.certain:
            self.go(Correcting.opened(DiceSeen(dice), base, previous), "Seen")
            return False
        if self.stage is not base:
            self.go(base, "Seen")
        if verdict.scene is None:
            roll, held = roll_from_seen(seen.dice, previous)
        else:
            roll, held = roll_of(verdict), verdict.held
            roll = self.as_amended(roll, held)
        if not self.submit(RollDice(roll, held), fixes):
            return False
        self.amended = {slot: fix for slot, fix in self.amended.items() if slot in held}
        if verdict.scene is None:
            self.scene = None  # the next reading with positions takes its slots from this roll
        if isinstance(base, Rolling) and base.best_on_roll:
            self.choose_best(unrolled=True)
        return True

    def as_amended(self, roll: Roll, held: Sequence[int]) -> Roll:
        """``roll`` with each held die the players amended taken as amended where the camera still
        reads it as it misread it."""
        values = list(roll.values)
        for slot in held:
            read, entered = self.amended.get(slot, (0, 0))
            if read and values[slot] == read:
                values[slot] = entered
        return Roll(tuple(values))

    def amend_roll(self, values: Sequence[int]) -> bool:
        """*Correct this roll* on the correction screen (:class:`RollAmended`): the turn's latest roll
        was entered with a die the camera misread with confidence; the players give the dice as they
        lie. The same roll (no roll used, ``AmendRoll``; a held die keeps its value), each die changed
        journaled beside it; a die they amended that stays held is taken as amended at the next rolls
        of the turn."""
        dice = self.dice
        if dice is None or self.rolls_used == 0 or len(values) != DICE:
            return False
        new = Roll(tuple(int(v) for v in values))
        changed = [i for i in range(DICE) if new.values[i] != dice.values[i]]
        if not changed:
            return True
        fixes = tuple(
            ReadingFix(i, "die", str(dice.values[i]), str(new.values[i]), None, True) for i in changed
        )
        if not self.submit(AmendRoll(new), fixes):
            return False
        for i in changed:
            read = self.amended.get(i, (dice.values[i], 0))[0]
            self.amended[i] = (read, new.values[i])
        return True

    def held_now(self) -> tuple[int, ...]:
        """The slots whose dice lie in the hold zone now (after the turn's first roll): the dice the
        next roll keeps, as the screen marks them."""
        if self.scene is None or self.current_roll is None:
            return ()
        return self.scene.held_slots()

    def confirm(self, seat: int) -> bool:
        """A seat button (or the *Enter* touch, for the seat to move): enter the selected box."""
        if self.finished:
            return False
        if self.pressed_out_of_turn(seat):
            return False
        if self.dice is None or self.rolls_used == 0:
            self.refuse("roll_first", "no dice rolled yet this turn")
            return False
        box = self.selected
        if box is None:
            self.refuse("choose_box_first", "no box chosen")
            return False
        return self.submit(Choose(box))

    def choose_best(self, *, timeout: bool = False, unrolled: bool = False) -> bool:
        box = self.best_choice()
        seat = self.current_seat
        if box is None or seat is None:
            return False
        points = self.choices()[box]
        if not self.submit(Choose(box)):
            return False
        if timeout or unrolled:
            self.timeout_entry = TimeoutEntry(seat, box, points, self.timer.now(), unrolled)
        return True

    def on_timeout(self) -> None:
        if self.dice is not None and self.rolls_used > 0:
            self.choose_best(timeout=True)
        else:
            base = self.base()
            if isinstance(base, Rolling):
                base.best_on_roll = True

    def begin_move(self) -> None:
        super().begin_move()
        self.amended = {}

    def score_progress(self) -> list[list[int]]:
        """Each player's total after each of his turns (replayed from the game's actions; kept until
        the next action, since the end screen asks every frame)."""
        if self._progress is not None and self._progress[0] == self.seq:
            return self._progress[1]
        state = self.spec.new_game(self.options)
        progress: list[list[int]] = [[] for _ in self.players]
        for act in self.history:
            assert isinstance(state, DiceGame)
            player = state.turn_seat
            state = state.apply(act)
            if isinstance(act, Choose):
                assert isinstance(state, DiceGame)
                progress[player].append(state.sheets[player].total())
        self._progress = (self.seq, progress)
        return progress


@register_session
class YahtzeeSession(DiceSession):
    game = "yahtzee"


@register_session
class PokerDiceSession(DiceSession):
    game = "poker_dice"
