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
(:meth:`ZatreSession.settled`).
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
    "Checking",
    "Laying",
    "Over",
    "Pending",
    "Showing",
    "TimeoutLay",
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


class ZatreStage(State["ZatreSession"]):
    """A phase of a Zatre turn: every one takes the seat button, the move timer and the camera's
    readings the same way (the session's methods decide by the state); the touches are the
    session's methods, which change the current state's data or go to another state."""

    def handle(self, session: ZatreSession, event: object) -> ZatreStage | None:
        if isinstance(event, ButtonEvent) and event.kind == "press":
            session.on_press(event.seat)
        elif isinstance(event, TimerSignal) and event.kind == "timeout":
            session.on_timeout()
        elif isinstance(event, Seen):
            session.on_reading(event)
        return None


@dataclass(eq=False)
class Arranging(ZatreStage):
    """Solo practice: the card picked from the hand (its anchored half) and the cards lying pending."""

    picked: tuple[int, int] | None = None  # (hand index, anchored half)
    pending: list[Pending] = field(default_factory=list)

    @property
    def phase(self) -> str:
        return "placing" if self.pending else "laying"


@dataclass(eq=False)
class Laying(ZatreStage):
    """Referee mode: the player lays his cards on the table; the cell the number pad is for, the halves
    entered on it, and the last reading of the turn against the board (its outlines)."""

    selected: tuple[int, int] | None = None
    manual: list[tuple[tuple[int, int], int]] = field(default_factory=list)
    diff: BoardDiff | None = None

    @property
    def phase(self) -> str:
        return "placing" if self.manual else "laying"


@dataclass(eq=False)
class Checking(ZatreStage):
    """Referee mode: the camera's reading asked for (on enter), for the press (``lay``) or the timeout."""

    name: ClassVar[str] = "checking"
    what: Literal["lay", "timeout"]
    back: Laying

    def enter(self, session: ZatreSession) -> None:
        session.asked += 1
        session.request_reading()

    def label(self) -> str:
        return f"Checking({self.what})"


@dataclass(eq=False)
class Showing(ZatreStage):
    """Referee mode: a player who cannot lay enters his hand on the number pad, half by half."""

    name: ClassVar[str] = "showing"
    back: Laying
    shown: list[int] = field(default_factory=list)


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

    # --- the screen's input --------------------------------------------------------------------------

    def pick(self, index: int, anchor: int) -> None:
        """A half of a card in the hand was tapped: that card, anchored by that half, goes next."""
        arranging = self.arranging()
        if arranging is None or index not in self.available() or anchor not in (0, 1):
            return
        arranging.picked = (index, anchor)

    def tap_cell(self, cell: tuple[int, int]) -> bool:
        """A cell of the board was tapped: turn the pending card lying there, or lay the picked card
        with its anchor on it. Returns whether the board changed; a refusal names the rule."""
        if self.finished:
            return False
        if self.referee:
            self.select_cell(cell)
            return False
        arranging = self.arranging()
        if arranging is None:
            return False
        pending = arranging.pending
        for n, lying in enumerate(pending):
            if cell in (c for c, _ in lying.placement.cells):
                if n == len(pending) - 1:
                    return self._turn_last(arranging)
                del pending[n:]  # an earlier card taken back takes the ones laid against it too
                return True
        if arranging.picked is None:
            if cell in self.zatre.board.cells:
                self._check([*self._placements(), anchored(Card(0, 0), 0, cell, "right")])
                return False
            self.refuse("pick_card_first", "pick a card of the hand first")
            return False
        if len(pending) >= self.cards_wanted:
            self.refuse("turn_complete", "this turn's cards are laid: press the seat button")
            return False
        index, anchor = arranging.picked
        return self._lay_at(arranging, index, anchor, cell, start=0)

    def take_back(self) -> None:
        """The last pending card goes back to the hand."""
        arranging = self.arranging()
        if arranging is not None and arranging.pending:
            last = arranging.pending.pop()
            arranging.picked = (last.hand_index, last.anchor)

    def confirm(self, seat: int) -> bool:
        """The seat button (or the Lay touch of the seat on turn): enter the pending cards."""
        if self.finished or self.pressed_out_of_turn(seat):
            return False
        if not self.pending:
            self.refuse("lay_card_first", "no card laid on the board yet")
            return False
        return self._enter(Lay(tuple(p.placement for p in self.pending)))

    def on_press(self, seat: int) -> None:
        if self.referee:
            self.read_turn(seat)
        else:
            self.confirm(seat)

    def on_timeout(self) -> None:
        seat = self.current_seat
        if seat is None:
            return
        if self.referee:
            self._referee_timeout(seat)
            return
        lay: Lay | None = None
        if len(self.pending) == self.cards_wanted:
            lay = Lay(tuple(p.placement for p in self.pending))
        else:
            lay = best_turn(self.zatre)
        if lay is None:
            return
        _, scoring = place_cards(self.zatre.board, lay.placements)
        if self._enter(lay):
            self.timeout_entry = TimeoutLay(seat, lay, scoring.total, self.timer.now())

    # --- referee mode: the camera, the number pad, the shown hand ------------------------------------

    def read_turn(self, seat: int) -> None:
        """The seat button in referee mode: the halves entered on the pad make the turn when there are
        any; else the camera reads the board (``checking``), the new cards are the turn."""
        if self.finished or self.pressed_out_of_turn(seat):
            return
        laying = self.laying()
        if laying is None:
            return
        if isinstance(self.stage, Showing):
            self.refuse("show_first", "finish showing the hand first")
            return
        if laying.manual:
            cards = self.manual_cards()
            if cards is None:
                self.refuse("not_adjacent", "a card's second half goes on a cell beside its first")
                return
            self._enter(Lay(tuple(cards)))
            return
        if self.camera_lost is not None:
            self.refuse("camera_lost_tap", "the camera is lost: tap the cells and pick the values")
            return
        self.go(Checking("lay", laying), "ButtonEvent")

    def on_reading(self, seen: Seen) -> None:
        obs = seen.observation
        if not isinstance(obs, ZatreObservation) or not self.referee:
            return
        self.live = obs
        stage = self.stage
        if seen.kind != "requested" or not isinstance(stage, Checking):
            return
        laying = stage.back
        diff = board_diff(self.zatre.board, obs, self.known)
        laying.diff = diff
        self.go(laying, "Seen")
        if stage.what == "timeout":
            self._timeout_reading(diff)
            return
        if diff.moved:
            cards = " ".join(str(p.card) for p in diff.moved)
            self.refuse("card_moved", f"a laid card was moved or taken away: {cards}", cards=cards)
            return
        if diff.unsure:
            self.refuse(
                "card_unsure",
                "the camera is not sure of a card: straighten it and press again, or tap its cells",
                cells=len(diff.unsure),
            )
            return
        if not diff.new:
            self.refuse("lay_card_first", "no new card on the board")
            return
        if self._enter(Lay(diff.new)):
            self.known = seen_at(diff, obs)

    def _referee_timeout(self, seat: int) -> None:
        laying = self.laying()
        if laying is None:
            return
        cards = self.manual_cards() if laying.manual else None
        if cards:
            try:
                place_cards(self.zatre.board, cards)
            except IllegalAction:
                cards = None
        if cards and len(cards) == self.cards_wanted:
            self._timeout_lay(seat, Lay(tuple(cards)))
        elif self.camera_lost is not None:
            self._timeout_pass(seat)
        else:
            self.go(Checking("timeout", laying), "TimerSignal")

    def _timeout_reading(self, diff: BoardDiff) -> None:
        seat = self.current_seat
        if seat is None:
            return
        if diff.clean and len(diff.new) == self.cards_wanted:
            try:
                place_cards(self.zatre.board, diff.new)
            except IllegalAction:
                pass
            else:
                self._timeout_lay(seat, Lay(diff.new))
                return
        self._timeout_pass(seat)

    def _timeout_lay(self, seat: int, lay: Lay) -> None:
        _, scoring = place_cards(self.zatre.board, lay.placements)
        if self._enter(lay):
            self.timeout_entry = TimeoutLay(seat, lay, scoring.total, self.timer.now())

    def _timeout_pass(self, seat: int) -> None:
        if self.submit(Pass()):
            self.timeout_entry = TimeoutLay(seat, None, 0, self.timer.now())
            if self.current_seat == seat:
                self.begin_move()

    def select_cell(self, cell: tuple[int, int]) -> None:
        """Referee mode: a cell tapped — the number pad is for it (a half entered there is taken back)."""
        laying = self.laying()
        if self.finished or laying is None or isinstance(self.stage, Showing):
            return
        if cell in self.zatre.board.cells:
            self.refuse("overlap", "a card lies there already")
            return
        laying.manual = [(c, v) for c, v in laying.manual if c != cell]
        laying.selected = cell

    def pick_value(self, value: int) -> None:
        """The number pad: ``value`` (0 = blank) for the selected cell, or the next half of the shown hand."""
        if not 0 <= value <= 6:
            return
        stage = self.stage
        if isinstance(stage, Showing):
            stage.shown.append(value)
            if len(stage.shown) == 2 * self.zatre.hand_size(self.current_seat or 0):
                self._show(stage)
            return
        laying = self.laying()
        if laying is None or laying.selected is None:
            return
        laying.manual.append((laying.selected, value))
        laying.selected = None
        self.refusal = None

    def clear_manual(self) -> None:
        laying = self.laying()
        if laying is not None:
            laying.manual, laying.selected = [], None

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

    def begin_show(self) -> None:
        """*Show hand*: the player cannot lay any card; he enters his hand on the pad, half by half."""
        laying = self.laying()
        if self.referee and not self.finished and self.current_seat is not None and laying is not None:
            laying.selected = None
            self.go(Showing(laying), "begin_show")

    def cancel_show(self) -> None:
        stage = self.stage
        if isinstance(stage, Showing):
            self.go(stage.back, "cancel_show")

    def _show(self, showing: Showing) -> None:
        values = showing.shown
        cards = tuple(Card(values[k], values[k + 1]) for k in range(0, len(values), 2))
        self.go(showing.back, "shown")
        seat = self.current_seat
        if self.submit(Show(cards)) and self.current_seat == seat:
            self.begin_move()

    # --- inside --------------------------------------------------------------------------------------

    def _placements(self) -> list[Placement]:
        return [p.placement for p in self.pending]

    def _check(self, placements: list[Placement]) -> bool:
        """Whether the engine takes these placements; a refusal is kept for the screen."""
        try:
            place_cards(self.zatre.board, placements)
        except IllegalAction as exc:
            self.refuse(exc.code, exc.message, **exc.details)
            return False
        return True

    def _lay_at(
        self, arranging: Arranging, index: int, anchor: int, cell: tuple[int, int], start: int
    ) -> bool:
        """The card with its anchor on ``cell`` in the first legal rotation from ``start`` on; when
        none is legal the most telling refusal is kept."""
        card = self.hand[index]
        before = self._placements()
        refusals: list[IllegalAction] = []
        for step in range(len(ROTATIONS)):
            rotation = (start + step) % len(ROTATIONS)
            placement = anchored(card, anchor, cell, ROTATIONS[rotation])
            try:
                place_cards(self.zatre.board, [*before, placement])
            except IllegalAction as exc:
                refusals.append(exc)
                continue
            arranging.pending.append(Pending(index, anchor, cell, rotation, placement))
            arranging.picked = None
            self.refusal = None
            return True
        worst = min(refusals, key=lambda e: REFUSAL_ORDER.index(e.code) if e.code in REFUSAL_ORDER else 9)
        self.refuse(worst.code, worst.message, **worst.details)
        return False

    def _turn_last(self, arranging: Arranging) -> bool:
        """The last pending card turned to the next legal side of its anchor (it stays if none)."""
        last, picked = arranging.pending.pop(), arranging.picked
        turned = self._lay_at(arranging, last.hand_index, last.anchor, last.cell, start=last.rotation + 1)
        if not turned:
            arranging.pending.append(last)
        arranging.picked = picked  # a card picked for the next cell stays picked
        return turned

    def _enter(self, lay: Lay) -> bool:
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
