"""A game at the table: the rule state, its journal, its move timer, and the one way actions are applied.

The app hands every domain event to :meth:`GameSession.handle` — a seat button (press, hold), a
reading of the table (settled, requested, or as it lies at the start), the move timer's warning and
timeout, the camera lost and back — whichever screen is showing. Every game's session derives from
:class:`GameSession` and says what *its* events mean (``on_press``, ``on_reading``, ``on_timeout``,
…); :meth:`GameSession.submit` is the only place an action reaches the rules, and it writes the journal
before the new state becomes visible. A session has an explicit :attr:`GameSession.phase` and names the
screen that phase needs (:attr:`GameSession.screen`); the seat to move is the rules' ``state.to_move``.

Games plug in through :data:`SESSIONS`: a game name maps to its session class (``device.sessions``
registers the dice games). A new game is a session (``@register_session``, naming its ``table_screen``
and, if it has one, its ``reader``), a screen (``@screen``) and a simulated table (``@register_table``
in ``device.sessions.simulated``) — nothing else in ``device/`` changes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NotRequired, TypedDict

import rules
from device.camera_view import GameReader
from device.events import CameraBack, CameraLost, Seen, TimerSignal
from device.journal import Journal, ReadingFix, StoredGame
from device.readings import HeldReadings, ReadingPort
from device.states import State, StateMachine
from device.timer import MoveTimer
from drivers.events import ButtonEvent
from rules import Action, GameSpec, GameState, IllegalAction, Options
from vision.observation import Observation

__all__ = [
    "SESSIONS",
    "GameSession",
    "Player",
    "Refusal",
    "SessionArgs",
    "SessionEvent",
    "register_session",
    "seat_text",
]

# What the app hands to a session; a game adds its own (the dice games: ``DiceSeen``) through ``on_event``.
SessionEvent = ButtonEvent | Seen | TimerSignal | CameraLost | CameraBack | object

log = logging.getLogger(__name__)


class SessionArgs(TypedDict):
    """What every session is made with (:class:`GameSession`'s keywords): a game's own session takes
    them on as ``**kwargs: Unpack[SessionArgs]`` and adds its own state."""

    spec: GameSpec
    options: Options
    players: tuple[Player, ...]
    journal: Journal
    game_id: int
    timer: MoveTimer
    state: GameState
    history: NotRequired[list[Action] | None]


@dataclass(frozen=True)
class Player:
    name: str
    seat: int  # 0-based: the seat button and the seat colour


@dataclass(frozen=True)
class Refusal:
    """An action the rules refused, kept for the screen for a few seconds: translated by ``key`` (its
    sentence in the catalogues, ``msgctxt "rule"``), which is the ``code`` unless the game's sentences
    are its own (:attr:`GameSession.own_rule_texts`: ``kalooki_invalid_meld``)."""

    code: str
    message: str
    details: dict[str, object]
    at: float
    key: str = ""

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", self.code)

    @classmethod
    def of(cls, error: IllegalAction, at: float, key: str = "") -> Refusal:
        return cls(error.code, error.message, dict(error.details), at, key)


class GameSession:
    """One game being played. Subclasses map their events to actions and call :meth:`submit`."""

    game: ClassVar[str] = ""
    table_screen: ClassVar[str] = ""  # the name of the screen that shows this game's table
    screens: ClassVar[tuple[str, ...]] = ()  # its other screens (the dice: correction); table first
    # What the camera reads for this game (a game's options may choose another: Rummikub's learning table).
    reader: GameReader[Observation] | None = None
    # Refusal codes whose sentences are this game's own, in the catalogues as ``<game>_<code>``: the
    # rules' codes are short words several games use (Rummikub's and Kalooki's ``invalid_meld``), and a
    # sentence about tiles must not speak of cards.
    own_rule_texts: ClassVar[frozenset[str]] = frozenset()
    # The end screen's caption of the chart of :meth:`score_progress` (a msgid): what is counted, over
    # what (Kalooki's penalty points over the deals, Rummikub's score over the hands).
    progress_caption: ClassVar[str] = "Score over the turns"

    def __init__(
        self,
        *,
        spec: GameSpec,
        options: Options,
        players: tuple[Player, ...],
        journal: Journal,
        game_id: int,
        timer: MoveTimer,
        state: GameState,
        history: list[Action] | None = None,
    ) -> None:
        self.spec = spec
        self.options = options
        self.players = players
        self.journal = journal
        self.game_id = game_id
        self.timer = timer
        self.state = state
        self.history: list[Action] = list(history or [])
        self.refusal: Refusal | None = None
        self.listeners: list[Callable[[GameSession, Action], None]] = []
        self.camera_lost: str | None = None  # why the camera is gone, while it is
        # The camera port (``device.readings``): the app gives each game it attaches its own.
        self.readings: ReadingPort = HeldReadings()
        # The session's phases as states (``device.states``), for the games that declare them
        # (:meth:`initial_stage`); the others keep their ``on_press``, ``on_reading``, … hooks.
        # Any: each game's states take its own session type (State[RummikubSession]), which a
        # StateMachine[GameSession] could not hold soundly (a state's methods take the session).
        first = self.initial_stage()
        self.machine: StateMachine[Any] | None = None if first is None else StateMachine(self, first)

    # --- starting and resuming -----------------------------------------------------------------------

    @classmethod
    def start(cls, journal: Journal, options: Options, names: list[str], timer: MoveTimer) -> GameSession:
        spec = rules.game_of(options)
        game_id = journal.start_game(spec.name, options.to_dict(), names)
        players = tuple(Player(name, seat) for seat, name in enumerate(names))
        session = cls(
            spec=spec,
            options=options,
            players=players,
            journal=journal,
            game_id=game_id,
            timer=timer,
            state=spec.new_game(options),
        )
        session.begin_move()
        return session

    @classmethod
    def stored_options(cls, stored: StoredGame) -> Options:
        """The options a stored game is played with."""
        return rules.get_game(stored.game).options_type.from_dict(stored.options)

    @classmethod
    def resume(cls, journal: Journal, stored: StoredGame, timer: MoveTimer) -> GameSession:
        """The unfinished game exactly as the journal has it: its actions replayed in order.

        An action that no longer applies (the journal of an older rule version) ends the replay there;
        it is logged, and the game goes on from the last action that applies.
        """
        spec = rules.get_game(stored.game)
        options = cls.stored_options(stored)
        items = journal.actions(stored.id)
        done = rules.replay_prefix(options, [item.action for item in items])
        if done.stopped is not None:
            failed = items[len(done.actions)].seq
            log.error(
                "journal game %s action %s does not replay (%s); resuming before it",
                stored.id,
                failed,
                done.stopped,
            )
        state, history = done.state, list(done.actions)
        used: dict[int, float] = {}
        for item in items[: len(done.actions)]:
            if item.seat is not None:
                used[item.seat] = used.get(item.seat, 0.0) + item.seconds
        timer.restore(used)
        players = tuple(Player(name, seat) for seat, name in enumerate(stored.players))
        session = cls(
            spec=spec,
            options=options,
            players=players,
            journal=journal,
            game_id=stored.id,
            timer=timer,
            state=state,
            history=history,
        )
        session.begin_move()
        return session

    # --- the one path of an action -------------------------------------------------------------------

    @property
    def seq(self) -> int:
        """How many actions the game has (the journal's last sequence number)."""
        return len(self.history)

    @property
    def current_seat(self) -> int | None:
        player = self.state.to_move
        return None if player is None else self.players[player].seat

    @property
    def finished(self) -> bool:
        return self.state.outcome is not None

    def submit(self, act: Action, corrections: Sequence[ReadingFix] = ()) -> bool:
        """Apply ``act``: journal it durably, then make the new state current. Returns ``False`` (and
        keeps the reason in :attr:`refusal`) when the rules refuse it. ``corrections``: the items of the
        camera's reading the players corrected to make ``act``, journaled beside it."""
        try:
            new_state = self.state.apply(act)
        except IllegalAction as exc:
            self.refusal = Refusal.of(exc, self.timer.now(), self.rule_key(exc.code, exc.details))
            log.info("refused %s: %s", act, exc)
            return False
        seat = self.current_seat
        seconds = self.timer.lap() if seat is not None else 0.0
        outcome = new_state.outcome
        # The action that ends the game and the game's result are one transaction.
        finish = None if outcome is None else (tuple(outcome.scores), tuple(outcome.places))
        self.journal.append(
            self.game_id,
            self.seq + 1,
            rules.action_to_json(act),
            seat=seat,
            seconds=seconds,
            finish=finish,
            corrections=corrections,
        )
        before = self.current_seat
        self.state = new_state
        self.history.append(act)
        self.refusal = None
        if outcome is not None:
            self.timer.stop()
        elif self.current_seat != before:
            self.begin_move()
        self.acted(act)
        for listener in self.listeners:
            listener(self, act)
        return True

    def begin_move(self) -> None:
        seat = self.current_seat
        if seat is not None:
            self.timer.start(seat)

    def refuse(self, code: str, message: str, **details: object) -> None:
        """A device-level refusal (not the rules': a seat button pressed out of turn, no box chosen)."""
        self.refusal = Refusal(code, message, details, self.timer.now(), self.rule_key(code, details))

    @classmethod
    def rule_key(cls, code: str, details: Mapping[str, object] | None = None) -> str:
        """The catalogue key of a refusal's sentence: ``<game>_<code>`` for the game's own codes, and
        ``<game>_<code>_<why>`` where the rules say why (Rummikub's ``invalid_meld``: ``too_few``, …).

        >>> GameSession.rule_key("game_over")
        'game_over'
        """
        if code not in cls.own_rule_texts:
            return code
        why = (details or {}).get("why")
        return f"{cls.game}_{code}_{why}" if isinstance(why, str) else f"{cls.game}_{code}"

    def score_progress(self) -> list[list[int]]:
        """Each player's total after each of his turns, for the end-of-game chart; games override it."""
        return [[] for _ in self.players]

    def end_notes(self) -> list[tuple[str, dict[str, object]]]:
        """What the end screen adds below the ranking: sentences (msgids) and their values (Kalooki:
        each player's winnings; a puzzle: the tiles laid against the optimum). Nothing by default."""
        return []

    def end_button(self) -> tuple[str, str] | None:
        """The end screen's button beside *New game*, if the game has one: its label (a msgid) and the
        screen it shows (the Rummikub learning table's *Review*). None by default."""
        return None

    @classmethod
    def exported(cls, state: GameState) -> dict[str, object]:
        """What the export adds to a finished game of this kind (``device.export``), from its final
        state: a ``payouts`` list (one amount in cents per seat) becomes the CSV's ``payout_cents``
        column. Games without anything to add keep this: nothing."""
        return {}

    @classmethod
    def reviewed(cls, options: Options, history: list[Action], names: list[str]) -> dict[str, object]:
        """What the export adds to a finished game from its actions (Rummikub's learning table: the
        review); nothing by default."""
        return {}

    def abandon(self) -> None:
        """The players leave the game: it is kept in the journal with the scores so far (the history
        lists it as left), never resumed."""
        self.timer.stop()
        self.journal.abandon(self.game_id, self.scores_so_far())

    def scores_so_far(self) -> tuple[int, ...]:
        """Each player's score now: the last of his :meth:`score_progress` (0 before his first)."""
        return tuple(totals[-1] if totals else 0 for totals in self.score_progress())

    def time_used(self) -> list[float]:
        return [self.timer.used(p.seat) for p in self.players]

    # --- events ---------------------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """Where the game stands; each game names its own phases (dice: rolling, choosing, …): its
        current state's name, for a game with states."""
        if self.machine is not None:
            return self.machine.state.phase
        return "over" if self.finished else "playing"

    @property
    def stage(self) -> State[Any] | None:
        """The current state of a game with states (``device.states``); ``None`` for the others."""
        return None if self.machine is None else self.machine.state

    def initial_stage(self) -> State[Any] | None:
        """The state a game with states starts (or resumes) in, from the rules' state and the
        history; ``None`` (the default): the game has no states, its hooks take the events."""
        return None

    def acted(self, act: Action) -> None:
        """An action was taken (the journal and the rules' state have it), before the listeners hear
        of it: a game with states goes to the state the new rules' state calls for."""

    def send(self, event: object) -> None:
        """An event for the current state (a touch the screen turned into one); nothing without states."""
        if self.machine is not None:
            self.machine.handle(event)

    @property
    def screen(self) -> str:
        """The screen the phase needs (its table screen unless a game says otherwise)."""
        return self.table_screen

    def handle(self, event: SessionEvent) -> None:
        """Every domain event of the game, whatever screen is showing: the camera lost and back are
        every game's; the rest goes to the current state of a game with states, else to the hooks."""
        if isinstance(event, CameraLost):
            self.camera_lost = event.reason
        elif isinstance(event, CameraBack):
            self.camera_lost = None
        elif self.machine is not None:
            self.machine.handle(event)
        elif isinstance(event, ButtonEvent):
            if self.finished:
                return
            if event.kind == "press":
                self.on_press(event.seat)
            elif event.kind == "hold":
                self.on_hold(event.seat)
        elif isinstance(event, Seen):
            if not self.finished:
                self.on_reading(event)
        elif isinstance(event, TimerSignal):
            if not self.finished and event.kind == "timeout":
                self.on_timeout()
            elif not self.finished:
                self.on_warning()
        else:
            self.on_event(event)

    def request_reading(self, frames: int = 1) -> bool:
        """Ask the camera for a reading now (the Rummikub seat press) through the camera port
        (:attr:`readings`): it comes back as ``Seen(kind="requested")``; ``frames`` > 1: the vote of
        that many frames (``device.vision_worker``). Without a camera to answer, refused
        (``no_camera``) and ``False``."""
        if self.readings.request(frames):
            return True
        self.refuse("no_camera", "no camera to read the table")
        return False

    def pressed_out_of_turn(self, seat: int) -> bool:
        """Refuse a seat button pressed by a seat that is not to move (``not_your_turn``)."""
        current = self.current_seat
        if seat == current:
            return False
        # The sentence counts seats from 1, as the players do, both of them; the details keep the
        # 0-based seats of every other seat number in the device (Player.seat, ButtonEvent.seat).
        shown = "nobody's" if current is None else f"{seat_text(current)}'s"
        self.refuse(
            "not_your_turn", f"{seat_text(seat)} pressed during {shown} turn", seat=seat, to_move=current
        )
        return True

    # --- hooks for the subclasses --------------------------------------------------------------------

    def on_press(self, seat: int) -> None:
        """A seat button was pressed (each game: the dice enter the chosen box)."""

    def on_hold(self, seat: int) -> None:
        """A seat button was held down (a long press)."""

    def on_reading(self, seen: Seen) -> None:
        """A reading of the table by this game's reader."""

    def on_warning(self) -> None:
        """The move timer's last seconds began (the app blinks the LED and beeps)."""

    def on_timeout(self) -> None:
        """The move timer ran out; each game decides what that means (dice: the best box)."""

    def on_event(self, event: object) -> None:
        """A game's own event (the dice games: ``DiceSeen``)."""


def seat_text(seat: int) -> str:
    """A 0-based seat as the players count it.

    >>> seat_text(0)
    'seat 1'
    """
    return f"seat {seat + 1}"


SESSIONS: dict[str, type[GameSession]] = {}


def register_session(cls: type[GameSession]) -> type[GameSession]:
    """Class decorator: the session of ``cls.game``."""
    SESSIONS[cls.game] = cls
    return cls
