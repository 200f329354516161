"""Zatre – the card game at the table.

**Referee mode** (``information = "referee"``, home's *Zatre – the card game*, the device's default):
the players hold the box's 50 cards and lay them on the table; the camera reads the grid
(``vision.read_zatre``) and the device keeps the pad. A turn: lay your card(s), press your seat button.
The press asks the camera for a reading; the reading is laid over the accepted board (the engine's,
``device.sessions.zatre_camera.board_diff``): a laid card moved or taken away is refused
(``card_moved``, the cards named and outlined on the screen), the new cards are the turn (``Lay``,
checked by the engine as always). Unsure halves are never guessed: the reading is refused
(``card_unsure``) and the player straightens the card and presses again, or taps the cell and picks
its value on the number pad (the fallback while the camera is lost too). A player who cannot lay
shows his hand on the number pad (*Show hand*, ``Show``); the engine checks it against the board. The
move timer's timeout reads the table: the new cards are entered if they make a legal turn, else the
turn is passed (``Pass``) and the screen says so.

**Solo practice** (``information = "full"``, *Zatre – solo practice*): the engine deals and holds every
card and shows the hand of the player on turn, the exchange of an unplayable hand and the passes
happen on their own (``ZatreState.events``), and the sheets fill themselves.

A turn on the screen in solo practice:

- tap one half of a card in the hand: the card is picked with that half as its *anchor*;
- tap a cell of the board: the anchor goes there and the other half to the first neighbour (right,
  below, left, above) where the card is legal. The placement is checked at once by the engine's
  ``place_cards``; a refused one keeps the rule's code (``overlap``, ``not_touching``,
  ``row_too_high``) for the screen. A legal one lies on the board as *pending*, with what it would
  score; tapping it again turns it to the next legal neighbour, *Take back* returns it to the hand;
- the seat button (or the *Lay* touch) enters the pending cards as one ``Lay`` — two on the round's
  first turn (the engine refuses one with ``wrong_card_count``), one later.

Nothing pending is journaled: like the dice games' chosen box, it is the player's choice until the seat
button enters it. When the move timer runs out the device lays for him: the pending card if it makes a
whole turn, else the best-scoring legal turn (:attr:`ZatreSession.timeout_entry` says so).

The phases are states (``device.states``; :attr:`ZatreSession.stage`), each owning what it needs:
:class:`Arranging` (solo practice: the card picked, the cards pending; phase ``laying``, or
``placing`` with cards pending), :class:`Laying` (referee: the cell the pad is for, the halves entered,
the last reading against the board; ``laying`` / ``placing``), :class:`Checking` (referee: the
camera's reading asked for on enter, for the press or the timeout), :class:`Showing` (referee: a hand
being shown on the pad) and :class:`Over`. Every action starts the next turn's state
(:meth:`ZatreSession.settled`); every other transition is a state's answer to an event — a seat
button, a reading, the timer, or a touch the table screen sends as an event: :class:`HalfPicked`,
:class:`CellTapped`, :class:`ValuePicked` and :class:`Touch` (*Lay* / *Read the board*, *Take back*,
*Show hand*, the pad's cross). The screen draws the state it is given
(``device.screens.zatre_panels``) and reads the session's views of it (``pending``, ``selected``, …).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal, cast, get_args

from device.camera_view import GameReader
from device.events import Seen, TimerSignal
from device.journal import Journal
from device.session import GameSession, SessionArgs, register_session
from device.sessions.zatre_camera import BoardDiff, board_diff, seen_at
from device.states import State
from device.timer import MoveTimer
from drivers.events import ButtonEvent
from rules import Action, Options
from rules.errors import IllegalAction
from rules.zatre import (
    Board,
    Card,
    Lay,
    Pass,
    Placement,
    Scoring,
    Show,
    ZatreState,
    legal_placements,
    place_cards,
)
from vision.zatre import ZatreObservation, read_zatre

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "ROTATIONS",
    "ZATRE_READER",
    "Arranging",
    "CellTapped",
    "Checking",
    "HalfPicked",
    "Laying",
    "Over",
    "Pending",
    "Showing",
    "TimeoutLay",
    "Touch",
    "ValuePicked",
    "ZatreSession",
    "ZatreStage",
    "anchored",
    "best_turn",
]

log = logging.getLogger(__name__)

ZatrePhase = Literal["laying", "placing", "checking", "showing", "over"]
ZATRE_READER: GameReader[ZatreObservation] = GameReader(read_zatre)
ROTATIONS = ("right", "below", "left", "above")  # where the other half goes from the anchored one
# Which refusal names a cell where no turn of the card is legal: the most telling rule first.
REFUSAL_ORDER = ("row_too_high", "not_touching", "overlap")


def anchored(card: Card, anchor: int, cell: tuple[int, int], rotation: str) -> Placement:
    """The card with its half ``anchor`` (0: first, 1: second, as the hand shows it) on ``cell`` and
    the other half on the ``rotation`` side.

    >>> str(anchored(Card(3, 4), 0, (0, 0), "left")), str(anchored(Card(3, 4), 1, (2, 5), "below"))
    ('4|3@-1,0H', '4|3@2,5V')
    """
    near = card.first if anchor == 0 else card.second
    far = card.second if anchor == 0 else card.first
    x, y = cell
    if rotation == "right":
        return Placement(Card(near, far), x, y, "H")
    if rotation == "below":
        return Placement(Card(near, far), x, y, "V")
    if rotation == "left":
        return Placement(Card(far, near), x - 1, y, "H")
    if rotation == "above":
        return Placement(Card(far, near), x, y - 1, "V")
    raise ValueError(f"rotation {rotation!r} is not one of {ROTATIONS}")


@dataclass(frozen=True)
class Pending:
    """A card on the board that is not entered yet: which card of the hand, its anchored half and cell,
    and which rotation it lies in."""

    hand_index: int
    anchor: int
    cell: tuple[int, int]
    rotation: int
    placement: Placement


@dataclass(frozen=True)
class TimeoutLay:
    """The turn the move timer entered: for which seat, the cards (``None``: the turn was passed),
    what they scored, when."""

    seat: int
    lay: Lay | None
    points: int
    at: float


def best_turn(state: ZatreState) -> Lay | None:
    """The highest-scoring legal turn of the player on turn (the engine's placement order breaks ties):
    one card, or two touching cards on the round's first turn."""
    if state.turn is None:
        return None
    hand = state.hands[state.turn]
    best: tuple[int, Lay] | None = None
    if not state.first_turn:
        for placement in legal_placements(state.board, hand):
            _, scoring = place_cards(state.board, (placement,))
            if best is None or scoring.total > best[0]:
                best = (scoring.total, Lay((placement,)))
        return None if best is None else best[1]
    for i, first in enumerate(hand):
        rest = hand[:i] + hand[i + 1 :]
        for opening in legal_placements(Board(), [first]):
            board = Board((opening,))
            for follow in legal_placements(board, rest):
                _, scoring = place_cards(Board(), (opening, follow))
                if best is None or scoring.total > best[0]:
                    best = (scoring.total, Lay((opening, follow)))
    return None if best is None else best[1]


# --- the touches: what the table screen's targets send to the current state ------------------------

TouchName = Literal[
    "lay",  # Lay (solo practice) / Read the board (referee): the seat button of the player on turn
    "take_back",  # Take back: the last pending card back to the hand (solo practice)
    "show_hand",  # Show hand: the player cannot lay, he enters his hand on the pad (referee)
    "pad_cancel",  # the number pad's cross: the halves entered dropped, or the hand shown cancelled
]


@dataclass(frozen=True)
class Touch:
    """A touch without data (*Lay*, *Take back*, …), as an event for the current state."""

    name: TouchName


@dataclass(frozen=True)
class HalfPicked:
    """A half of a card in the hand tapped (solo practice): that card goes next, anchored by it."""

    index: int
    anchor: int  # 0: the card's first half, 1: its second


@dataclass(frozen=True)
class CellTapped:
    """A half-cell of the board tapped: the picked card laid there (or the pending one turned), or in
    referee mode the cell the number pad is for."""

    cell: tuple[int, int]


@dataclass(frozen=True)
class ValuePicked:
    """A value of the number pad (0 = blank): for the tapped cell, or the next half of a shown hand."""

    value: int


# --- the phases ------------------------------------------------------------------------------------


class ZatreStage(State["ZatreSession"]):
    """A phase of a Zatre turn. Every one takes the events the same way and hands them on by kind: a
    reading of the table (kept as the latest, :meth:`ZatreSession.seen`) to :meth:`reading`, the seat
    button of the player on turn — or the *Lay* touch — to :meth:`press`, the move timer's timeout to
    :meth:`timeout`, the other touches to :meth:`on`."""

    def handle(self, session: ZatreSession, event: object) -> ZatreStage | None:
        if isinstance(event, Seen):
            obs = session.seen(event)
            return None if obs is None else self.reading(session, obs, event.kind == "requested")
        if isinstance(event, ButtonEvent):
            if event.kind != "press" or session.finished or session.pressed_out_of_turn(event.seat):
                return None
            return self.press(session, event.seat)
        if isinstance(event, Touch) and event.name == "lay":
            seat = session.current_seat  # the Lay touch: the seat button of the player on turn
            return None if seat is None or session.finished else self.press(session, seat)
        if isinstance(event, TimerSignal):
            seat = session.current_seat
            return None if event.kind != "timeout" or seat is None else self.timeout(session, seat)
        return self.on(session, event)

    def reading(self, session: ZatreSession, obs: ZatreObservation, requested: bool) -> ZatreStage | None:
        return None

    def press(self, session: ZatreSession, seat: int) -> ZatreStage | None:
        return None

    def timeout(self, session: ZatreSession, seat: int) -> ZatreStage | None:
        return None

    def on(self, session: ZatreSession, event: object) -> ZatreStage | None:
        return None


@dataclass(eq=False)
class Arranging(ZatreStage):
    """Solo practice: the card picked from the hand (its anchored half) and the cards lying pending.
    A half tapped picks its card; a cell tapped lays the picked card there (the first legal side of its
    anchor) or turns the pending card lying there; the seat button (or *Lay*) enters the pending cards;
    the timeout lays the pending card if it makes a whole turn, else the best turn."""

    picked: tuple[int, int] | None = None  # (hand index, anchored half)
    pending: list[Pending] = field(default_factory=list)

    @property
    def phase(self) -> str:
        return "placing" if self.pending else "laying"

    def press(self, session: ZatreSession, seat: int) -> ZatreStage | None:
        if not self.pending:
            session.refuse("lay_card_first", "no card laid on the board yet")
            return None
        session.enter_lay(Lay(tuple(p.placement for p in self.pending)))
        return None

    def timeout(self, session: ZatreSession, seat: int) -> ZatreStage | None:
        if len(self.pending) == session.cards_wanted:
            lay: Lay | None = Lay(tuple(p.placement for p in self.pending))
        else:
            lay = best_turn(session.zatre)
        if lay is not None:
            session.timeout_lay(seat, lay)
        return None

    def on(self, session: ZatreSession, event: object) -> ZatreStage | None:
        if isinstance(event, HalfPicked):
            if event.index in session.available() and event.anchor in (0, 1):
                self.picked = (event.index, event.anchor)
        elif isinstance(event, CellTapped):
            self.tap(session, event.cell)
        elif isinstance(event, Touch) and event.name == "take_back" and self.pending:
            last = self.pending.pop()
            self.picked = (last.hand_index, last.anchor)
        return None

    def tap(self, session: ZatreSession, cell: tuple[int, int]) -> None:
        """Turn the pending card lying on ``cell``, or lay the picked card with its anchor on it; a
        refusal names the rule."""
        pending = self.pending
        for n, lying in enumerate(pending):
            if cell in (c for c, _ in lying.placement.cells):
                if n == len(pending) - 1:
                    self.turn_last(session)
                else:
                    del pending[n:]  # an earlier card taken back takes the ones laid against it too
                return
        if self.picked is None:
            if cell in session.zatre.board.cells:
                placements = [p.placement for p in pending]
                session.check([*placements, anchored(Card(0, 0), 0, cell, "right")])
                return
            session.refuse("pick_card_first", "pick a card of the hand first")
            return
        if len(pending) >= session.cards_wanted:
            session.refuse("turn_complete", "this turn's cards are laid: press the seat button")
            return
        index, anchor = self.picked
        self.lay_at(session, index, anchor, cell, start=0)

    def lay_at(
        self, session: ZatreSession, index: int, anchor: int, cell: tuple[int, int], start: int
    ) -> bool:
        """The card with its anchor on ``cell`` in the first legal rotation from ``start`` on; when
        none is legal the most telling refusal is kept."""
        card = session.hand[index]
        before = [p.placement for p in self.pending]
        refusals: list[IllegalAction] = []
        for step in range(len(ROTATIONS)):
            rotation = (start + step) % len(ROTATIONS)
            placement = anchored(card, anchor, cell, ROTATIONS[rotation])
            try:
                place_cards(session.zatre.board, [*before, placement])
            except IllegalAction as exc:
                refusals.append(exc)
                continue
            self.pending.append(Pending(index, anchor, cell, rotation, placement))
            self.picked = None
            session.refusal = None
            return True
        worst = min(refusals, key=lambda e: REFUSAL_ORDER.index(e.code) if e.code in REFUSAL_ORDER else 9)
        session.refuse(worst.code, worst.message, **worst.details)
        return False

    def turn_last(self, session: ZatreSession) -> bool:
        """The last pending card turned to the next legal side of its anchor (it stays if none)."""
        last, picked = self.pending.pop(), self.picked
        turned = self.lay_at(session, last.hand_index, last.anchor, last.cell, start=last.rotation + 1)
        if not turned:
            self.pending.append(last)
        self.picked = picked  # a card picked for the next cell stays picked
        return turned


@dataclass(eq=False)
class Laying(ZatreStage):
    """Referee mode: the player lays his cards on the table; the cell the number pad is for, the halves
    entered on it, and the last reading of the turn against the board (its outlines). The seat button
    (or *Read the board*) enters the halves entered when there are any, else asks the camera for a
    reading (:class:`Checking`); *Show hand* goes to :class:`Showing`."""

    selected: tuple[int, int] | None = None
    manual: list[tuple[tuple[int, int], int]] = field(default_factory=list)
    diff: BoardDiff | None = None

    @property
    def phase(self) -> str:
        return "placing" if self.manual else "laying"

    def press(self, session: ZatreSession, seat: int) -> ZatreStage | None:
        if self.manual:
            cards = session.manual_cards()
            if cards is None:
                session.refuse("not_adjacent", "a card's second half goes on a cell beside its first")
                return None
            session.enter_lay(Lay(tuple(cards)))
            return None
        if session.camera_lost is not None:
            session.refuse("camera_lost_tap", "the camera is lost: tap the cells and pick the values")
            return None
        return Checking("lay", self)

    def timeout(self, session: ZatreSession, seat: int) -> ZatreStage | None:
        """The halves entered make the turn if they are one; else the camera reads the board (without
        a camera: the turn is passed)."""
        cards = session.manual_cards() if self.manual else None
        if cards:
            try:
                place_cards(session.zatre.board, cards)
            except IllegalAction:
                cards = None
        if cards and len(cards) == session.cards_wanted:
            session.timeout_lay(seat, Lay(tuple(cards)))
        elif session.camera_lost is not None:
            session.timeout_pass(seat)
        else:
            return Checking("timeout", self)
        return None

    def on(self, session: ZatreSession, event: object) -> ZatreStage | None:
        if isinstance(event, CellTapped):
            if event.cell in session.zatre.board.cells:
                session.refuse("overlap", "a card lies there already")
                return None
            self.manual = [(c, v) for c, v in self.manual if c != event.cell]  # a half there taken back
            self.selected = event.cell
        elif isinstance(event, ValuePicked):
            if 0 <= event.value <= 6 and self.selected is not None:
                self.manual.append((self.selected, event.value))
                self.selected = None
                session.refusal = None
        elif isinstance(event, Touch) and event.name == "pad_cancel":
            self.manual, self.selected = [], None
        elif isinstance(event, Touch) and event.name == "show_hand" and session.current_seat is not None:
            self.selected = None
            return Showing(self)
        return None


@dataclass(eq=False)
class Checking(ZatreStage):
    """Referee mode: the camera's reading asked for (on enter), for the press (``lay``) or the timeout;
    the reading laid over the board decides. Every other event is the turn's (:attr:`back`)."""

    name: ClassVar[str] = "checking"
    what: Literal["lay", "timeout"]
    back: Laying

    def enter(self, session: ZatreSession) -> None:
        session.asked += 1
        session.request_reading()

    def reading(self, session: ZatreSession, obs: ZatreObservation, requested: bool) -> ZatreStage | None:
        if not requested:
            return None
        laying = self.back
        diff = board_diff(session.zatre.board, obs, session.known)
        laying.diff = diff
        session.go(laying, "Seen")  # before the turn is entered: entering it starts the next turn's state
        if self.what == "timeout":
            self.timed_out(session, diff)
            return None
        if diff.moved:
            cards = " ".join(str(p.card) for p in diff.moved)
            session.refuse("card_moved", f"a laid card was moved or taken away: {cards}", cards=cards)
        elif diff.unsure:
            session.refuse(
                "card_unsure",
                "the camera is not sure of a card: straighten it and press again, or tap its cells",
                cells=len(diff.unsure),
            )
        elif not diff.new:
            session.refuse("lay_card_first", "no new card on the board")
        elif session.enter_lay(Lay(diff.new)):
            session.known = seen_at(diff, obs)
        return None

    def timed_out(self, session: ZatreSession, diff: BoardDiff) -> None:
        """The timeout's reading: the new cards make the turn if they are a legal one, else a pass."""
        seat = session.current_seat
        if seat is None:
            return
        if diff.clean and len(diff.new) == session.cards_wanted:
            try:
                place_cards(session.zatre.board, diff.new)
            except IllegalAction:
                pass
            else:
                session.timeout_lay(seat, Lay(diff.new))
                return
        session.timeout_pass(seat)

    def press(self, session: ZatreSession, seat: int) -> ZatreStage | None:
        return self.back.press(session, seat)

    def timeout(self, session: ZatreSession, seat: int) -> ZatreStage | None:
        return self.back.timeout(session, seat)

    def on(self, session: ZatreSession, event: object) -> ZatreStage | None:
        return self.back.on(session, event)

    def label(self) -> str:
        return f"Checking({self.what})"


@dataclass(eq=False)
class Showing(ZatreStage):
    """Referee mode: a player who cannot lay enters his hand on the number pad, half by half; the last
    half entered shows it (``Show``); the pad's cross goes back to the turn (:attr:`back`)."""

    name: ClassVar[str] = "showing"
    back: Laying
    shown: list[int] = field(default_factory=list)

    def press(self, session: ZatreSession, seat: int) -> ZatreStage | None:
        session.refuse("show_first", "finish showing the hand first")
        return None

    def timeout(self, session: ZatreSession, seat: int) -> ZatreStage | None:
        return self.back.timeout(session, seat)

    def on(self, session: ZatreSession, event: object) -> ZatreStage | None:
        if isinstance(event, ValuePicked) and 0 <= event.value <= 6:
            self.shown.append(event.value)
            if len(self.shown) == 2 * session.zatre.hand_size(session.current_seat or 0):
                self.show(session)
        elif isinstance(event, Touch) and event.name == "pad_cancel":
            return self.back
        elif isinstance(event, Touch) and event.name == "show_hand":
            return Showing(self.back)  # from the first half again
        return None

    def show(self, session: ZatreSession) -> None:
        values = self.shown
        cards = tuple(Card(values[k], values[k + 1]) for k in range(0, len(values), 2))
        session.go(self.back, "Show")
        seat = session.current_seat
        if session.submit(Show(cards)) and session.current_seat == seat:
            session.begin_move()


class Over(ZatreStage):
    name: ClassVar[str] = "over"

    def handle(self, session: ZatreSession, event: object) -> ZatreStage | None:
        return None


@register_session
class ZatreSession(GameSession):
    game = "zatre"
    table_screen = "zatre_table"
    reader = ZATRE_READER  # referee mode reads the board; solo practice never asks
    own_rule_texts = frozenset(
        {"card_moved", "card_unsure", "card_fits", "card_not_in_deck", "camera_lost_tap", "not_adjacent"}
    )

    def __init__(self, **kwargs: Unpack[SessionArgs]) -> None:
        super().__init__(**kwargs)
        self.asked = 0  # readings asked for so far (the simulated table answers each)
        self.live: ZatreObservation | None = None  # the camera's latest reading
        self.known: dict[tuple[int, int], tuple[float, float]] = {}  # where the camera saw each laid cell
        self.timeout_entry: TimeoutLay | None = None
        self.last_turn: tuple[int, Lay, Scoring] | None = None  # the seat, its lay and what it scored
        self._progress: tuple[int, list[list[int]]] | None = None

    @classmethod
    def start(cls, journal: Journal, options: Options, names: list[str], timer: MoveTimer) -> GameSession:
        session = super().start(journal, options, names, timer)
        counted = bool(options.to_dict().get("deck"))
        log.info(
            "zatre: dealt from %s",
            "the counted deck (a manifest's 50 cards)" if counted else "the assumed deck",
        )
        return session

    # --- the states ----------------------------------------------------------------------------------

    def initial_stage(self) -> ZatreStage:
        return self.settled()

    def settled(self) -> ZatreStage:
        """The state a turn starts in: the next player's (or the same player's after the others
        passed), a new or resumed game's."""
        if self.finished:
            return Over()
        return Laying() if self.referee else Arranging()

    def acted(self, act: Action) -> None:
        self.go(self.settled(), type(act).__name__)

    def go(self, stage: ZatreStage, cause: str) -> None:
        assert self.machine is not None
        self.machine.go(stage, cause=cause)

    def arranging(self) -> Arranging | None:
        """Solo practice's turn state, when it is current."""
        stage = self.stage
        return stage if isinstance(stage, Arranging) else None

    def laying(self) -> Laying | None:
        """Referee mode's turn state: current, or under the reading asked for or the hand shown."""
        stage = self.stage
        if isinstance(stage, Checking | Showing):
            return stage.back
        return stage if isinstance(stage, Laying) else None

    # --- what the screen shows (each a view of the current state) ------------------------------------

    @property
    def zatre(self) -> ZatreState:
        state = self.state
        assert isinstance(state, ZatreState)
        return state

    @property
    def referee(self) -> bool:
        """Whether the players hold the cards and the camera reads the board."""
        return not self.zatre.full_information

    @property
    def deck_counted(self) -> bool:
        """Whether the game is dealt from a counted deck (a manifest: the owner's count on the device
        or the config's ``deck_manifest``; its 50 cards are in the options) or the assumed one."""
        return bool(self.options.to_dict().get("deck"))

    @property
    def phase(self) -> ZatrePhase:
        phase = super().phase
        assert phase in get_args(ZatrePhase)
        return cast(ZatrePhase, phase)

    @property
    def awaiting(self) -> Literal["lay", "timeout"] | None:
        """What the reading asked for is for (:class:`Checking`)."""
        stage = self.stage
        return stage.what if isinstance(stage, Checking) else None

    @property
    def picked(self) -> tuple[int, int] | None:
        arranging = self.arranging()
        return None if arranging is None else arranging.picked

    @property
    def pending(self) -> list[Pending]:
        arranging = self.arranging()
        return [] if arranging is None else arranging.pending

    @property
    def selected(self) -> tuple[int, int] | None:
        laying = self.laying()
        return None if laying is None or isinstance(self.stage, Showing) else laying.selected

    @property
    def manual(self) -> list[tuple[tuple[int, int], int]]:
        laying = self.laying()
        return [] if laying is None else laying.manual

    @property
    def diff(self) -> BoardDiff | None:
        laying = self.laying()
        return None if laying is None else laying.diff

    @property
    def shown(self) -> list[int] | None:
        stage = self.stage
        return stage.shown if isinstance(stage, Showing) else None

    @property
    def hand(self) -> tuple[Card, ...]:
        """The hand of the player on turn (empty once the game is over)."""
        state = self.zatre
        return () if state.turn is None else state.hands[state.turn]

    @property
    def cards_wanted(self) -> int:
        """How many cards this turn lays (2 on the round's first turn)."""
        return 2 if self.zatre.first_turn else 1

    def available(self) -> list[int]:
        """The indices of the hand's cards not lying pending on the board."""
        used = {p.hand_index for p in self.pending}
        return [i for i in range(len(self.hand)) if i not in used]

    def preview(self) -> Scoring | None:
        """What the pending cards would score (``None`` with nothing pending)."""
        if not self.pending:
            return None
        _, scoring = place_cards(self.zatre.board, [p.placement for p in self.pending])
        return scoring

    def pending_cells(self) -> dict[tuple[int, int], int]:
        """The half-cells the pending cards cover, with their values."""
        return {cell: value for p in self.pending for cell, value in p.placement.cells}

    # --- what the states do with the session ---------------------------------------------------------

    def seen(self, seen: Seen) -> ZatreObservation | None:
        """A reading of the table, as every state takes it: kept as the latest (:attr:`live`); ``None``
        when it is not a Zatre reading or the game is solo practice (nothing to read)."""
        obs = seen.observation
        if not isinstance(obs, ZatreObservation) or not self.referee:
            return None
        self.live = obs
        return obs

    def manual_cards(self) -> list[Placement] | None:
        """The halves entered on the pad as cards (each two in a row make one); ``None`` when two of
        them are not side by side, ``[]`` while a card's second half is missing."""
        manual = self.manual
        if len(manual) % 2:
            return []
        cards = []
        for k in range(0, len(manual), 2):
            (a, va), (b, vb) = sorted(manual[k : k + 2])
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                return None
            cards.append(Placement(Card(va, vb), a[0], a[1], "H" if a[1] == b[1] else "V"))
        return cards

    def check(self, placements: list[Placement]) -> bool:
        """Whether the engine takes these placements; a refusal is kept for the screen."""
        try:
            place_cards(self.zatre.board, placements)
        except IllegalAction as exc:
            self.refuse(exc.code, exc.message, **exc.details)
            return False
        return True

    def enter_lay(self, lay: Lay) -> bool:
        """Enter the turn ``lay`` (the engine checks it); whether it was taken."""
        seat = self.current_seat
        board = self.zatre.board
        if not self.submit(lay):
            return False
        if not self.finished and self.current_seat == seat:
            self.begin_move()  # the others passed: the same player's next turn is a new move
        scoring = self.zatre.last_scoring
        assert scoring is not None and seat is not None
        self.last_turn = (seat, lay, scoring)
        log.info("zatre lay %s on %d cards: %s", lay, len(board.placements), scoring)
        return True

    def timeout_lay(self, seat: int, lay: Lay) -> None:
        """The move timer ran out: ``lay`` entered for ``seat`` (the screen says so)."""
        _, scoring = place_cards(self.zatre.board, lay.placements)
        if self.enter_lay(lay):
            self.timeout_entry = TimeoutLay(seat, lay, scoring.total, self.timer.now())

    def timeout_pass(self, seat: int) -> None:
        """The move timer ran out and nothing laid makes a turn: ``seat`` passes."""
        if self.submit(Pass()):
            self.timeout_entry = TimeoutLay(seat, None, 0, self.timer.now())
            if self.current_seat == seat:
                self.begin_move()

    def score_progress(self) -> list[list[int]]:
        """Each player's total after each of his turns (replayed; kept until the next action)."""
        if self._progress is not None and self._progress[0] == self.seq:
            return self._progress[1]
        state = self.spec.new_game(self.options)
        progress: list[list[int]] = [[] for _ in self.players]
        for act in self.history:
            assert isinstance(state, ZatreState)
            player = state.turn
            state = state.apply(act)
            assert isinstance(state, ZatreState)
            if player is not None and isinstance(act, Lay):
                progress[player].append(state.sheets[player].total)
        self._progress = (self.seq, progress)
        return progress
