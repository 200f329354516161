"""Zatre's simulated table.

**Referee mode** (the device's Zatre): a physical deck dealt to the simulated players
(``rules.zatre.table.PhysicalTable``, the same seeded shuffles as the engine's), the cards they lay
lying on a table the synthetic camera films (``vision.zatre_synth.render_zatre_board``, at the camera's
size: 1280×720 by default);
with ``--autoplay zatre`` each player lays a legal card on the table and presses his seat button, so
every turn goes through the camera path. Now and then a player makes a mistake — a card touching
nothing, a row of 13, a laid card nudged off its cell or pushed one cell over — sees the refusal, puts
it right and lays again. A player who cannot lay shows his hand on the number pad (*Show hand*).
Without a camera (``--no-camera``) the table answers each reading with what lies on it.

**Solo practice** (full information): nothing for a camera to film; each simulated player chooses a
legal turn (``zatre_plan.choose_turn``) and lays it through the Zatre table screen the way a person
does — one tap per frame at the centre of a drawn target (a half of a card, a cell, the arrows, *Take
back*), looking at the screen between taps — then presses his seat button or taps *Lay*.
:attr:`ZatreTable.taps` counts the taps of each turn for ``bench/card_taps.py``.
"""

from __future__ import annotations

import logging
import random

import numpy as np

from device.events import Seen
from device.session import GameSession
from device.sessions.simulated import SimulatedTable, TableHost, register_table
from device.sessions.zatre import ZatreSession
from device.sessions.zatre_plan import LAY, TAKE_BACK, choose_turn, next_tap
from drivers.events import ButtonEvent
from rules.errors import IllegalAction
from rules.zatre import Board, Card, Lay, Placement, can_lay, place_cards
from rules.zatre.table import PhysicalTable, referee_turn
from vision.zatre import SeenHalf, ZatreObservation

__all__ = ["MISTAKES", "ZatreTable", "laid_out"]

log = logging.getLogger(__name__)

MISTAKES = 0.15  # how often a simulated player lays a mistake first


def laid_out(placements: list[Placement], off: frozenset[int] | set[int] = frozenset()) -> ZatreObservation:
    """What lies on the table as a perfect reading (no camera): every half sure, cells from the
    top-left half; the cards in ``off`` lie off their cells (unsure)."""
    cells = [c for p in placements for c, _ in p.cells] or [(0, 0)]
    x0, y0 = min(c[0] for c in cells), min(c[1] for c in cells)
    halves: list[SeenHalf] = []
    for n, placement in enumerate(placements):
        for k, ((x, y), value) in enumerate(placement.cells):
            unsure = n in off
            halves.append(
                SeenHalf(
                    None if unsure else value,
                    (x - x0, y - y0),
                    (float(x), float(y)),
                    40.0,
                    2 * n + 1 - k,
                    0.0 if unsure else 1.0,
                    "off its cell" if unsure else "",
                    not unsure,
                )
            )
    uncertain = tuple(i for i, h in enumerate(halves) if h.reason)
    return ZatreObservation(tuple(halves), uncertain, 40.0, 0.0)


@register_table
class ZatreTable(SimulatedTable):
    games = ("zatre",)

    def __init__(self, host: TableHost, rng: random.Random, *, camera: bool) -> None:
        super().__init__(host, rng, camera=camera)
        self.deck: PhysicalTable | None = None  # referee mode: the real cards in the players' hands
        self.laid: list[Placement] = []  # the cards lying on the table (engine cells)
        self.nudged: dict[int, tuple[float, float]] = {}  # laid cards pushed off their cells
        self.mistake: list[int] = []  # indices in ``laid`` of a mistaken lay still on the table
        self.pressed: tuple[int, int] | None = None  # (seq, asked) when the seat button was pressed
        self.answered = 0
        self.mistakes = 0  # mistakes made (the tests count them)
        self.layout = 0
        self._frame: tuple[object, np.ndarray] | None = None
        self.plan: tuple[int, Lay] | None = None  # (the game's action count when chosen, the turn)
        self.turn_taps = 0
        self.taps: list[int] = []  # screen taps of each turn laid, the seat press not counted
        self._waiting = -1  # the frame of the last tap: wait until the screen has drawn its effect

    @classmethod
    def autoplay_options(cls, game: str, rng: random.Random) -> dict[str, object]:
        return {}

    # --- referee mode: the physical table --------------------------------------------------------------

    def follow(self, session: ZatreSession) -> None:
        """Keep the real cards in step with the game: a new round is dealt on a cleared table."""
        state = session.zatre
        if self.deck is None:
            # A game started or resumed: the cards the journal's turns leave in each hand.
            self.deck = PhysicalTable.replayed(state.options, session.history)
            log.info(
                "Zatre's simulated table: the players hold %s",
                "the counted deck (the manifest's 50 cards)" if session.deck_counted else "the assumed deck",
            )
            self.laid = list(state.board.placements)
        if state.turn is not None and state.round != self.deck.round:
            self.deck.deal(state.round, state.start)
            self.laid, self.nudged, self.mistake = list(state.board.placements), {}, []
        elif not self.laid and state.board:
            self.laid = list(state.board.placements)  # resumed: the cards lie as the journal says

    def scene_key(self) -> object:
        return (tuple(self.laid), tuple(sorted(self.nudged.items())))

    def camera_frame(self) -> np.ndarray | None:
        session = self.host.session
        if not isinstance(session, ZatreSession) or not session.referee or not self.laid:
            return None
        key = self.scene_key()
        if self._frame is not None and self._frame[0] == key:
            return self._frame[1]
        from vision.zatre_synth import render_zatre_board

        # The camera's size: the simulator's calibration takes the frame as the play area of that size
        # (a larger frame would be read cut to its top-left corner).
        size = self.host.camera_size
        frame = None
        for attempt in range(20):
            try:
                frame, _ = render_zatre_board(
                    self.laid, seed=self.layout + attempt, size=size, hands=0, nudges=self.nudged, tilt=4.0
                )
                break
            except ValueError:
                continue
        if frame is None:
            frame, _ = render_zatre_board(
                self.laid, seed=0, size=size, hands=0, nudges=self.nudged, angle=0.0, tilt=0.0
            )
        self.layout += 1
        self._frame = (key, frame)
        return frame

    def observation(self) -> ZatreObservation:
        off = {i for i, (dx, dy) in self.nudged.items() if abs(dx) < 0.9 and abs(dy) < 0.9}
        moved = [
            Placement(
                p.card,
                p.x + round(self.nudged.get(i, (0, 0))[0]),
                p.y + round(self.nudged.get(i, (0, 0))[1]),
                p.orientation,
            )
            for i, p in enumerate(self.laid)
        ]
        return laid_out(moved, off)

    def poll(self, session: GameSession) -> None:
        if not isinstance(session, ZatreSession) or not session.referee:
            return
        self.follow(session)
        if self.camera:
            return
        if session.awaiting is not None and self.answered != session.asked:
            self.answered = session.asked
            self.host.post(Seen(self.observation(), kind="requested"))

    def play_referee(self, session: ZatreSession) -> None:
        """One step of the simulated players at a refereed table (see the module docstring)."""
        host = self.host
        seat = session.current_seat
        if seat is None or self.deck is None or session.phase == "checking":
            return
        if host.frames <= self._waiting + 1:
            return
        if self.pressed is not None:
            seq, round_ = self.pressed
            self.pressed = None
            if session.seq != seq:
                self._accepted(session, round_)
                self.follow(session)
            else:
                self._put_right()
                return
        if session.shown is not None:
            self._show_next(session)
            return
        hand = self.deck.hands[seat]
        if not can_lay(session.zatre.board, hand):
            self._tap(host.text("Show hand"))
            return
        if session.zatre.board and self.rng.random() < MISTAKES and self._make_mistake(session, seat):
            self.mistakes += 1
        else:
            act = referee_turn(session.zatre, self.deck, self.rng)
            assert isinstance(act, Lay)
            self.laid.extend(act.placements)
            self.mistake = list(range(len(self.laid) - len(act.placements), len(self.laid)))
        self.pressed = (session.seq, session.zatre.round)
        host.post(ButtonEvent(seat, "press", "autoplay"))
        self._waiting = host.frames

    def _accepted(self, session: ZatreSession, round_: int) -> None:
        """The turn was entered: the cards laid leave the hand, the top of the pile is drawn (unless
        the round ended with it: the next one is dealt on a cleared table)."""
        assert self.deck is not None
        self.mistake = []
        last = session.last_turn
        if last is None or self.deck.round != round_:
            return
        seat, lay, _ = last
        self.deck.lay(seat, [p.card for p in lay.placements])
        if session.zatre.round != round_:
            self.deck.round = -1  # ``follow`` deals the next round
        else:
            # The same cards, counted in the engine's cells (the camera counts from what it sees).
            self.laid, self.nudged = list(session.zatre.board.placements), {}

    def _put_right(self) -> None:
        """A refused lay: the cards laid are taken back (a mistake, or a turn the referee refused), a
        nudged card straightened."""
        for i in sorted(self.mistake, reverse=True):
            del self.laid[i]
        self.mistake = []
        self.nudged.clear()

    def _make_mistake(self, session: ZatreSession, seat: int) -> bool:
        """Lay a mistake on the table: a card touching nothing, a row of 13, or nudge a laid card."""
        assert self.deck is not None
        board = session.zatre.board
        hand = self.deck.hands[seat]
        kind = self.rng.choice(("far", "row", "nudge", "push"))
        if kind == "far":
            xs = [x for x, _ in board.cells]
            ys = [y for _, y in board.cells]
            card = self.rng.choice(hand)
            self.laid.append(Placement(card, max(xs) + 3, min(ys), "H"))
            self.mistake = [len(self.laid) - 1]
            return True
        if kind == "row":
            for placement in _high_rows(board, hand):
                self.laid.append(placement)
                self.mistake = [len(self.laid) - 1]
                return True
            return False
        index = self.rng.randrange(len(self.laid))
        if kind == "nudge":
            self.nudged[index] = (0.45 * self.rng.choice((1, -1)), 0.0)
            return True
        placement = self.laid[index]
        cells = {c for p in self.laid for c, _ in p.cells}
        for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            moved = {(x + dx, y + dy) for (x, y), _ in placement.cells}
            own = {c for c, _ in placement.cells}
            if not (moved - own) & cells:
                self.nudged[index] = (float(dx), float(dy))
                return True
        return False

    def _show_next(self, session: ZatreSession) -> None:
        """Tap the next value of the hand being shown on the number pad."""
        assert self.deck is not None and session.current_seat is not None and session.shown is not None
        values = [
            v for card in sorted(self.deck.hands[session.current_seat]) for v in (card.first, card.second)
        ]
        done = len(session.shown)
        if done >= len(values):
            return
        if done == len(values) - 1:
            self.deck.show(session.current_seat)  # the hand goes under the pile as the last value is picked
        self._tap(str(values[done]))

    def _tap(self, label: str) -> None:
        if self.host.tap(label):
            self._waiting = self.host.frames

    def play(self, session: GameSession) -> None:
        host = self.host
        if not isinstance(session, ZatreSession) or session.current_seat is None:
            return
        if session.referee:
            if host.screen != session.table_screen:
                host.show_game()
                return
            self.play_referee(session)
            return
        if host.screen != session.table_screen:
            host.show_game()  # a player walks back to the table screen (after a banner, a menu)
            return
        if host.frames <= self._waiting + 1:
            return  # the tap posted last frame is handled this frame; look again after the next draw
        if self.plan is None or self.plan[0] != session.seq:
            self.plan = (session.seq, choose_turn(session.zatre, self.rng))
            self.turn_taps = 0
        label = next_tap(session, self.plan[1], host.labels())
        if label == LAY:
            self.taps.append(self.turn_taps)
            self.plan = None
            seat = session.current_seat
            if self.rng.random() < 0.5:
                host.post(ButtonEvent(seat, "press", "autoplay"))
                self._waiting = host.frames
                return
            label = host.text("Lay")
        elif label == TAKE_BACK:
            label = host.text("Take back")
        else:
            self.turn_taps += 1
        if host.tap(label):
            self._waiting = host.frames
        # else: not drawn yet; the next frame


def _high_rows(board: Board, hand: list[Card]) -> list[Placement]:
    """Placements of ``hand`` that touch the board but make a row of 13 or more (a mistake)."""
    found = []
    cells = board.cells
    for fx, fy in sorted(board.frontier()):
        for card in hand:
            for form in (card, card.turned()):
                for orientation in ("H", "V"):
                    placement = Placement(form, fx, fy, orientation)
                    if any(c in cells for c, _ in placement.cells):
                        continue
                    try:
                        place_cards(board, [placement])
                    except IllegalAction as exc:
                        if exc.code == "row_too_high":
                            found.append(placement)
    return found
