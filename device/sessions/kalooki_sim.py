"""Kalooki's simulated table: simulated players who hold real hands, lay real cards on a table the camera
films, and fall back to the card picker where the camera cannot tell.

The device referees (hands are counts), so the table keeps the cards itself: a full-information shadow of
the same game (``mode="full"``, the same seed) deals and holds the hands, and the players choose their
turns on it with the engine's random legal player (``rules.kalooki.auto.random_turn``); whatever the
device recorded is played on the shadow too, so both see the same table. Where the device accepted a card
the player does not hold (the reader read a card as another with confidence and the rules could not
refuse it: an **accepted misread**), the game goes on from the device's record: the shadow gives the
player that card for the one he laid (or, for a card seen that is not there, one of his hand), the table
is laid again as the device has it, and :attr:`KalookiTable.misreads` counts it
(``bench/card_tables.py``).

**Through the camera** (:attr:`KalookiTable.mode` ``"camera"``, the default): what lies on the table
(:class:`Lying`: the melds as accepted and laid this turn, the discard pile, the stock) is filmed by the
synthetic camera (``vision.cards_synth.render_kalooki_table`` at the camera's size; each frame with fresh
sensor grain and a sub-pixel shake, :meth:`KalookiTable.filmed`, so that a vote of frames meets what a
real camera gives) and read by the game's reader. The turned-up card is laid on the discard pile (the
device reads it there); a player takes his draw (from the discard pile: the camera watches the pile's top
go; if it does not, he taps *Discard pile*), lays his melds, builds, discards, and presses his seat
button. Now and then (:data:`MISTAKES`) he first makes a mistake people make — a card taken from a meld
and not put back, an illegal opening (a meld worth too little, or no meld) — sees the refusal, puts it
right and presses again. Where the reader is unsure of cards the device opens the correction on them: he
picks each (the card the picker is on: one of the reader's likeliest readings offered in one tap, else
rank and suit, or the joker), and the reading is judged with them. Whatever the device refuses otherwise
he enters with the picker, tap by tap. A press that nothing answers as far as he sees — his turn not
over and no refusal showing (the press lost, or answered by the draw alone) — he presses again after
:data:`ANSWER_PATIENCE` frames. Without a camera
(``--no-camera``) the table answers each reading itself with what lies on it (:func:`laid_out`): every
card sure, or — with
:attr:`KalookiTable.unsure_share` above 0 — a **stand-in reader** unsure of that share of the cards
(:func:`stand_in`: not the card reader; for ``bench/card_tables.py``, to show what a turn costs once a
reader is mostly sure). A person at the simulated table (no autoplay) has the key ``m``: the player to
move lays a turn of his real hand on the table for the camera (:meth:`KalookiTable.on_key`), then presses
his seat button.

**By the picker** (``mode = "picker"``): every action is entered through the table screen — taps at the
centres of the drawn targets (``kalooki_plan.next_tap``), one per frame, the seat button for the
discard. The losers' hands at a deal's end come from the shadow in both modes (every other loser types
just his points on the number pad). :attr:`KalookiTable.taps` counts the screen taps of each turn
(from the draw to the discard, the seat presses not counted) for ``bench/card_tables.py``.
"""

from __future__ import annotations

import logging
import math
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import ClassVar, Literal

import cv2
import numpy as np
import pygame

from device.events import Key, Seen
from device.session import GameSession
from device.sessions.kalooki import Correcting, KalookiSession, ReadingTable
from device.sessions.kalooki_plan import BUTTONS, next_tap
from device.sessions.simulated import SimulatedTable, TableHost, register_table
from drivers.events import ButtonEvent
from rules import Action
from rules.errors import IllegalAction
from rules.kalooki import (
    Build,
    Deal,
    Discard,
    DrawDiscard,
    DrawStock,
    HandPoints,
    LayDown,
    ReleaseJoker,
    RevealHand,
    Session,
    TurnUp,
    hand_penalty,
    new_session,
)
from rules.kalooki.auto import candidate_melds, random_turn
from rules.kalooki.cards import JOKER, RANK_NAMES, Card
from rules.kalooki.melds import meld_value
from vision.card_zones import DISCARD, ZONE_FRACTIONS, CardTableReading, ZonedCard
from vision.cards import SeenCard

__all__ = ["MISTAKES", "KalookiTable", "Lying", "laid_out", "stand_in"]

log = logging.getLogger(__name__)

MISTAKES = 0.15  # how often a player makes a mistake before his press (camera mode)
DRAW_PATIENCE = 40  # frames a player waits for the camera to see his draw from the pile, then taps it
ANSWER_PATIENCE = 100  # frames a player waits for an answer he can see to his press, then presses again
PILE_SHOWN = 3  # the discard pile's last cards laid in the picture (the top last)
STOCK_SHOWN = 4  # face-down cards drawn for the stock
GRAIN = 2.0  # the synthetic camera's sensor noise (grey levels, one sigma): fresh in every frame
GRAINS = 4  # noise fields the frames cycle through
JITTER = 0.5  # the synthetic camera's shake (frame pixels at most, each way): fresh in every frame
SLOT_CARDS = 8  # no camera: the cards a meld's place on the table holds before it pushes the next ones
STRAIGHT = 0.45  # a fan's spread (card widths) once a player has straightened it: the corner indices in sight


@dataclass
class Lying:
    """What lies on the table: the melds (in the order the device accepted them, then the new ones), the
    discard pile (its top last) and the stock's count."""

    melds: list[list[Card]]
    discards: list[Card]
    stock: int

    @classmethod
    def of(cls, deal: Deal) -> Lying:
        return cls([list(m.cards) for m in deal.table], list(deal.discards), deal.stock_count)

    def key(self) -> object:
        return (tuple(tuple(m) for m in self.melds), tuple(self.discards[-PILE_SHOWN:]), self.stock > 0)


TWIN_SUIT = {"H": "D", "D": "H", "S": "C", "C": "S"}  # the suit of the same colour


def stand_in(card: Card, rng: random.Random) -> tuple[Card, float, tuple[tuple[Card, float], ...]]:
    """A stand-in reader's unsure reading of ``card``: its best guess (the card itself half the time,
    else the card of the same rank in the other suit of its colour, or a joker's stand-in), a confidence
    below any threshold, and its candidates — the card among them (20–40 %) nine times in ten."""
    twin = Card(7, "S") if card.is_joker else Card(card.rank, TWIN_SUIT[card.suit])
    other = JOKER if not card.is_joker and card.rank > 1 else Card(2, "C")
    confidence = round(rng.uniform(0.3, 0.8), 3)
    if rng.random() < 0.5:
        return card, confidence, ((card, confidence), (twin, round(1 - confidence, 3)))
    if rng.random() < 0.8:
        return twin, confidence, ((twin, confidence), (card, round(rng.uniform(0.2, 0.4), 3)))
    return twin, confidence, ((twin, confidence), (other, round(1 - confidence, 3)))


def _cards_named(act: object) -> tuple[Card, ...]:
    """The cards an action of the turn takes from the hand (a lay-down's, a build's, the naturals that
    release a joker, the discard)."""
    if isinstance(act, LayDown):
        return tuple(c for meld in act.melds for c in meld)
    if isinstance(act, Build | ReleaseJoker):
        return tuple(act.cards)
    if isinstance(act, Discard):
        return (act.card,)
    return ()


def turns_laid(history: Iterable[Action]) -> list[bool]:
    """For each turn of ``history`` ended by a discard, in order: whether it laid, built or released
    a joker (the turns whose taps the camera path must bring to at most one)."""
    turns: list[bool] = []
    laid = False
    for act in history:
        if isinstance(act, LayDown | Build | ReleaseJoker):
            laid = True
        elif isinstance(act, Discard):
            turns.append(laid)
            laid = False
    return turns


def laid_out(
    lying: Lying, size: tuple[int, int], unsure: float = 0.0, rng: random.Random | None = None
) -> CardTableReading:
    """What lies on the table as a perfect reading (no camera): every card sure, the melds in rows across
    the frame (each in a place of its own that it keeps while it grows, up to :data:`SLOT_CARDS`), the
    discard pile's top in its zone; with ``unsure`` above 0, each card is unsure with that
    probability and read by the stand-in reader (:func:`stand_in`)."""
    w, h = size
    step, height = w * 0.018, h * 0.14
    cards: list[ZonedCard] = []
    melds: list[tuple[int, ...]] = []
    x, y = 0.04 * w, 0.1 * h
    for meld in lying.melds:
        slot = max(len(meld), SLOT_CARDS) + 4  # a meld keeps its place while it grows (as at a table)
        if x + step * (slot - 1) > 0.96 * w:
            x, y = 0.04 * w, y + 1.2 * height
        first = len(cards)
        for k, card in enumerate(meld):
            centre = (x + k * step, y)
            cards.append(_seen(card, centre, step, height, None))
        melds.append(tuple(range(first, len(cards))))
        x += step * slot
    discard: tuple[int, ...] = ()
    if lying.discards:
        fx0, fy0, fx1, fy1 = ZONE_FRACTIONS[DISCARD]
        centre = ((fx0 + fx1) / 2 * w, (fy0 + fy1) / 2 * h)
        cards.append(_seen(lying.discards[-1], centre, height * 0.7, height, DISCARD))
        discard = (len(cards) - 1,)
    doubt: list[int] = []
    if unsure > 0:
        rng = rng or random.Random(0)
        for i, zoned in enumerate(cards):
            if rng.random() < unsure:
                guess, confidence, candidates = stand_in(zoned.card, rng)
                seen = SeenCard(guess, zoned.center, zoned.box, 0.0, confidence, candidates)
                cards[i] = ZonedCard(seen, zoned.zone)
                doubt.append(i)
    return CardTableReading(
        tuple(cards), tuple(melds), (), discard, tuple(doubt), min(lying.stock, STOCK_SHOWN)
    )


def _seen(
    card: Card, centre: tuple[float, float], width: float, height: float, zone: str | None
) -> ZonedCard:
    x, y = centre
    box = (x - width / 2, y - height / 2, x + width / 2, y + height / 2)
    return ZonedCard(SeenCard(card, centre, box, 0.0, 1.0), zone)


@dataclass
class Turn:
    """A turn being played by camera: the plan (draw … discard), the step reached, the mistake lying on
    the table (its kind and the picture without it), the press awaited."""

    seq: int  # the device's action count when the turn began
    seat: int
    plan: list[Action]
    start: Deal  # the shadow's deal at the turn's start
    step: Literal["draw", "drawn", "lay", "pressed", "picker"] = "draw"
    mistake: str | None = None
    since: int = 0  # the frame the step began
    pressed: tuple[int, object] | None = None  # (the action count, the refusal) at the press
    counted: int | None = None  # the turn's place in ``KalookiTable.taps``, once counted
    straightened: bool = False  # the player straightened the table after the camera's refusal


@register_table
class KalookiTable(SimulatedTable):
    games = ("kalooki",)
    mode: ClassVar[Literal["camera", "picker"]] = "camera"
    unsure_share: ClassVar[float] = 0.0  # no camera: the stand-in reader's share of unsure cards

    def __init__(self, host: TableHost, rng: random.Random, *, camera: bool) -> None:
        super().__init__(host, rng, camera=camera)
        self.shadow: Session | None = None
        self.synced = 0  # the device's actions played on the shadow
        self.ended: Deal | None = None  # the shadow's last finished deal (its hands are revealed)
        self.plan: list[Action] = []  # the rest of this turn's actions (entered by the picker)
        self.plan_seq = -1
        self.turn_taps = 0
        self.taps: list[int] = []
        self.mistakes = 0  # mistakes made (camera mode; the tests count them)
        self.misreads = 0  # accepted misreads: cards the device accepted as other than they are
        self.turn: Turn | None = None  # the turn being played by camera
        self.lying: Lying | None = None  # what lies on the table this turn (None: as the shadow's deal)
        self.look = rng.randrange(1000)  # the deck's look and the light in the pictures
        self._frame: tuple[object, np.ndarray] | None = None
        self._grain: list[np.ndarray] = []
        self._shake = np.random.default_rng(self.look)  # the camera's grain and jitter (not the game's)
        self._shot = 0  # frames filmed (each with its own grain and jitter)
        self._answered: object = None  # the reading request last answered (no camera)
        self._last_read: CardTableReading | None = None  # and its answer
        self._shown: object = None  # the table last shown to the device as settled (no camera)
        self._turnup: tuple[int, int, tuple[object] | None] | None = None  # the turned-up card's wait
        self._waiting = -1
        self._refusal: object = None  # the last refusal seen (the next one makes the player change plan)
        self._pending_check: tuple[int, int] | None = None
        # The last picture's readable cards on the table: where each is seen, what it is, how near to
        # that a reading must lie to be of it.
        self.truth: list[tuple[tuple[float, float], Card, float]] = []
        self.corrected = 0  # cards entered in corrections (the tests count them)
        self.straight: set[int] = set()  # the melds (in the order they lie) a player straightened
        self.straightened = 0  # presses again after straightening the table (the bench counts them)
        self.pressed_again = 0  # presses again after no answer to be seen (the bench counts them)
        self._reads = random.Random(self.look)  # the stand-in reader's doubts
        self._keyed: int | None = None  # a turn laid by the key ``m`` (the action count then)

    @classmethod
    def autoplay_options(cls, game: str, rng: random.Random) -> dict[str, object]:
        """Autoplay plays for money: two deals with a pool, either formula."""
        return {"deals": 2, "pool_cents": 1000, "payout": rng.choice(["slice", "proportional"])}

    def on_key(self, event: Key) -> bool:
        """A person at the simulated table: ``m`` — the player to move, who has not drawn yet, lays a
        turn on the table (from the stock, a legal lay-down or build of his real hand where he has one,
        else the longest meld he holds, too little to open, or three cards that make none: the rules
        refuse those; the discard) for the camera, without pressing; his seat button then asks for it."""
        session = self.host.session
        if not event.down or event.key != pygame.K_m or not isinstance(session, KalookiSession):
            return False
        self._sync(session)
        if self.shadow is None or session.finished or self.shadow.deal.phase != "draw":
            return True
        deal = self.shadow.deal
        plans = (random_turn(deal, random.Random(attempt)) for attempt in range(200))
        plan = next(
            (
                p
                for p in plans
                if isinstance(p[0], DrawStock) and any(isinstance(a, LayDown | Build) for a in p)
            ),
            None,
        )
        if plan is None:
            plan = [DrawStock()]
        after = deal
        for act in plan:
            after = after.apply(act)
        lying = Lying.of(after)
        if len(plan) == 1:  # nothing legal to lay: what he has, too little to open (the rules refuse it)
            hand = list(after.hand(deal.turn))
            melds = sorted(candidate_melds(hand), key=len, reverse=True)
            laid = list(melds[0]) if melds else [c for c in hand if not c.is_joker][:3]
            lying.melds.append(laid)
            for card in laid:
                hand.remove(card)
            lying.discards.append(self.rng.choice(hand))
        self.lying = lying
        self._keyed = session.seq
        log.info("simulated table: %s", " ".join(repr(a) for a in plan))
        return True

    def _sync(self, session: KalookiSession) -> None:
        if self.shadow is None or self.synced > session.seq:
            self.shadow = new_session(session.kalooki.options.replace(mode="full"))
            self.synced = 0
        for act in session.history[self.synced :]:
            self.synced += 1
            if isinstance(act, TurnUp | RevealHand | HandPoints):
                continue  # the shadow deals and knows its hands
            try:
                after = self.shadow.deal.apply(act)
            except IllegalAction as exc:
                if exc.code != "not_in_hand":
                    raise
                # The device accepted a card the player does not hold: an accepted misread.
                self.shadow = replace(self.shadow, deal=self._misread(self.shadow.deal, act))
                after = self.shadow.deal.apply(act)
            if after.result is not None:
                self.ended = after
                self.lying = None  # the deal is over: its cards are gathered, the next one dealt
            self.shadow = self.shadow.apply(act)

    def _misread(self, deal: Deal, act: Action) -> Deal:
        """The shadow's ``deal`` made to hold what the device accepted: ``act`` names cards the player
        to move does not hold (the reader read a card he laid as another, with confidence, and the
        rules could not refuse it: an **accepted misread**). The game goes on from the device's record,
        as at a table where nobody noticed: each card named and not held comes into his hand from where
        the shadow has it unseen (the stock or another player's hand), in exchange for the card he laid
        for it (the card of his plan's counterpart of ``act`` that ``act`` does not name: the one misread;
        where the plan has none — the reader saw a card that is not there — a card of his hand that
        neither ``act`` nor his plan names: the device counts one card fewer in his hand), and the
        table is laid again as the device has it. Counted in :attr:`misreads`."""
        seat = deal.turn
        assert deal.hands is not None
        hands = [list(h) for h in deal.hands]
        stock = list(deal.stock)
        named = Counter(_cards_named(act))
        # The cards he laid for ``act`` (its counterpart in his turn's plan) that it does not name.
        planned = [*(self.turn.plan if self.turn is not None and self.turn.seat == seat else ()), *self.plan]
        like = (
            p for p in planned if type(p) is type(act) and getattr(p, "meld", 0) == getattr(act, "meld", 0)
        )
        mine = next(like, None)
        laid = Counter(_cards_named(mine)) - named
        keep = Counter(c for p in planned for c in _cards_named(p))  # what his plan lays: not given
        for card in (named - Counter(hands[seat])).elements():
            spare = Counter(hands[seat]) - named
            pool = list((laid & spare) or (spare - keep) or spare)
            if not pool:
                raise IllegalAction("not_in_hand", f"{card}: player {seat} has no card to give for it")
            given = min(pool, key=lambda c: (c.rank != card.rank, c.suit != card.suit, c.sort_key()))
            if card in stock:
                stock[stock.index(card)] = given
            else:
                other = next((s for s, h in enumerate(hands) if s != seat and card in h), None)
                if other is None:
                    raise IllegalAction("not_in_hand", f"{card} is not unseen anywhere (the stock, a hand)")
                hands[other].remove(card)
                hands[other].append(given)
            hands[seat].remove(given)
            hands[seat].append(card)
            laid[given] -= 1
            self.misreads += 1
            log.warning(
                "simulated table: accepted misread: the device has %s where the player's %s is (%s; plan %s)",
                card,
                given,
                act,
                planned,
            )
        self.lying = None  # the table laid again as the device has it
        return replace(
            deal, hands=tuple(tuple(sorted(h, key=Card.sort_key)) for h in hands), stock=tuple(stock)
        )

    # --- what lies on the table ----------------------------------------------------------------------

    def showing(self) -> Lying | None:
        """What lies on the table now (``None``: no game yet)."""
        if self.lying is not None:
            return self.lying
        return None if self.shadow is None else Lying.of(self.shadow.deal)

    def camera_frame(self) -> np.ndarray | None:
        session = self.host.session
        if not isinstance(session, KalookiSession) or session.finished:
            return None
        self._sync(session)
        lying = self.showing()
        if lying is None:
            return None
        if not lying.melds:
            self.straight.clear()  # a new deal: nothing laid, nothing straightened
        key = (lying.key(), frozenset(self.straight))
        if self._frame is not None and self._frame[0] == key:
            return self.filmed(self._frame[1])
        truth = None
        from vision.cards_synth import FAN_SPREAD, render_kalooki_table

        size = self.host.camera_size
        frame = None
        for share in (0.14, 0.11, 0.09, 0.07):  # smaller cards when the melds fill the table
            try:
                frame, truth = render_kalooki_table(
                    lying.melds,
                    lying.discards[-PILE_SHOWN:],
                    stock=STOCK_SHOWN if lying.stock else 0,
                    seed=self.look,
                    size=size,
                    card_height=share * size[1],
                    spread=[STRAIGHT if m in self.straight else FAN_SPREAD for m in range(len(lying.melds))],
                )
                break
            except ValueError:
                continue
        if frame is None or truth is None:
            return None
        self._frame = (key, frame)
        self.truth = [
            (c.box_center, c.card, c.height / 3)
            for c in truth.cards
            if c.card is not None and c.zone is None and c.index_visible
        ]
        return self.filmed(frame)

    def filmed(self, frame: np.ndarray) -> np.ndarray:
        """The table's picture as the camera's next frame gives it: with the sensor's grain (a few
        fields, cycled) and a shake of the camera (a shift below :data:`JITTER` pixels), fresh in every
        frame, so that no two frames of a still table are alike (a vote of frames has something to
        outvote, as at a real table)."""
        height, width = frame.shape[:2]
        if not self._grain or self._grain[0].shape != frame.shape:
            self._grain = [
                np.clip(self._shake.normal(0, GRAIN, frame.shape), -8, 8).astype(np.int16)
                for _ in range(GRAINS)
            ]
        self._shot += 1
        dx, dy = self._shake.uniform(-JITTER, JITTER, 2)
        shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
        moved = cv2.warpAffine(frame, shift, (width, height), borderMode=cv2.BORDER_REPLICATE)
        return np.clip(moved.astype(np.int16) + self._grain[self._shot % GRAINS], 0, 255).astype(np.uint8)

    def poll(self, session: GameSession) -> None:
        """After an action was entered, the turn's plan moves on; without a camera, the table answers
        the device's readings with what lies on it."""
        if not isinstance(session, KalookiSession):
            return
        if self._keyed is not None and any(isinstance(a, Discard) for a in session.history[self._keyed :]):
            self._keyed = None  # the turn laid by key is the device's now
            self.lying = None
        if self.mode == "camera" and not self.camera and not session.finished:
            self._answer(session)
        check = self._pending_check
        if (
            check is not None
            and session.seq > check[0]
            and self.plan
            and session.phase in ("draw", "play", "turn_up", "reveal", "over")
        ):
            last = session.history[-1]
            if not isinstance(last, TurnUp | RevealHand | HandPoints):
                self.plan.pop(0)
            self._pending_check = None

    def _answer(self, session: KalookiSession) -> None:
        self._sync(session)
        lying = self.showing()
        if lying is None:
            return
        stage = session.stage
        if isinstance(stage, ReadingTable) and stage is not self._answered:
            self._answered = stage
            # Asked to read again and vote: the table's answer is the same (no frames to vote over).
            again = self._last_read if stage.voting and self._last_read is not None else None
            self._last_read = again or self._read(lying)
            self.host.post(Seen(self._last_read, kind="requested"))
            return
        key = (lying.key(), session.seq)
        if key != self._shown and session.phase in ("turn_up", "draw"):
            self._shown = key  # the table at rest, as a camera that settled on it would post it
            self.host.post(Seen(self._read(lying), kind="settled"))

    def _read(self, lying: Lying) -> CardTableReading:
        """What lies on the table, read without a camera (every card sure, or the stand-in reader's)."""
        size = self.host.camera_size
        self.truth = [(c.center, c.card, c.size / 3) for c in laid_out(lying, size).cards if c.zone is None]
        return laid_out(lying, size, self.unsure_share, self._reads)

    # --- the simulated players -----------------------------------------------------------------------

    def wanted(self, session: KalookiSession) -> Action | None:
        """The next action of the simulated players (entered by the picker)."""
        assert self.shadow is not None
        phase = session.phase
        if phase == "turn_up":
            return TurnUp(self.shadow.deal.discards[0])
        if phase == "reveal":
            seat = session.revealing()
            assert seat is not None and self.ended is not None
            hand = self.ended.hand(seat)
            if (session.deal.number + seat) % 2 == 1:
                return HandPoints(seat, hand_penalty(hand))
            return RevealHand(seat, hand)
        if (phase == "draw" and self.plan_seq != session.seq) or (phase == "play" and not self.plan):
            self.plan = self._plan(self.shadow.deal)
            self.turn_taps = 0
        self.plan_seq = session.seq
        return self.plan[0] if self.plan else None

    def play(self, session: GameSession) -> None:
        host = self.host
        if not isinstance(session, KalookiSession) or session.finished:
            return
        if host.screen != session.table_screen:
            host.show_game()
            return
        if host.frames <= self._waiting + 1:
            return
        self._sync(session)
        if self.straighten(session):
            return
        if isinstance(session.stage, Correcting):
            self.correct(session)
            return
        by_camera = self.mode == "camera" and session.camera_reads() and session.phase != "reveal"
        if by_camera and self.play_camera(session):
            return
        self.play_picker(session)

    def play_picker(self, session: KalookiSession) -> None:
        """One tap (or the seat press) of the action the players enter next with the picker."""
        host = self.host
        before = session.seq
        act = self.wanted(session)
        if act is None:
            return
        if session.refusal is not None and session.refusal is not self._refusal and self.plan:
            self._refusal = session.refusal
            # The device refused the shadow's plan (their tables differ): end the turn with a discard.
            assert self.shadow is not None
            log.info("simulated player: %s refused (%s); discarding", act, session.refusal.code)
            hand = self.shadow.deal.hand(self.shadow.deal.turn)
            self.plan = [Discard(self.rng.choice(hand))]
            self.lying = None  # what lies on the table is the device's again
            return
        label = next_tap(session, act)
        if label == "seat":
            seat = session.current_seat
            assert seat is not None
            self.count_turn()
            host.post(ButtonEvent(seat, "press", "autoplay"))
            self._after(session, before)
            return
        if label in BUTTONS:
            label = host.text(label)
        labels = host.labels()
        if label not in labels and label.startswith("meld "):
            pager = host.text("Melds {n} of {total}", n="", total="").split()[0]
            label = next((shown for shown in labels if shown.startswith(pager)), label)
        if label not in labels:
            return  # not drawn yet
        if session.phase in ("draw", "play"):
            self.turn_taps += 1
        host.tap(label)
        self._after(session, before)

    def _after(self, session: KalookiSession, before: int) -> None:
        self._waiting = self.host.frames
        self._pending_check = (before, len(self.plan))

    # --- by camera -------------------------------------------------------------------------------------

    def play_camera(self, session: KalookiSession) -> bool:
        """One step of a player at a table the camera reads; ``False``: the picker's turn now."""
        assert self.shadow is not None
        host = self.host
        if isinstance(session.stage, ReadingTable):
            return True  # the camera is reading the table
        if session.phase == "turn_up":
            return self.turn_up(session)
        turn = self.turn
        seat = session.current_seat
        if seat is None:
            return True
        if turn is None or turn.seat != seat or session.seq < turn.seq or self._turn_over(session, turn):
            turn = self.turn = Turn(session.seq, seat, self._plan(self.shadow.deal), self.shadow.deal)
            self.turn_taps = 0
            self.lying = None
            turn.since = host.frames
            if self.shadow.deal.phase == "play":
                turn.step = "lay"  # resumed in the middle of a turn: its rest
        if turn.step == "picker":
            return False
        if turn.step == "draw":
            if isinstance(turn.plan[0], DrawDiscard):
                self.lying = Lying.of(turn.start.apply(DrawDiscard()))
                turn.step, turn.since = "drawn", host.frames
            else:
                turn.step = "lay"
            return True
        if turn.step == "drawn":
            if session.phase == "play":
                turn.step = "lay"
            elif host.frames - turn.since > DRAW_PATIENCE:  # not seen: the tap is the fallback
                if host.tap(host.text("Discard pile")):
                    self.turn_taps += 1
                    self._waiting = host.frames
                turn.step = "lay"
            return True
        if turn.step == "lay":
            self.lying = self._after_turn(turn)
            if turn.mistake is None and self.rng.random() < MISTAKES and self._make_mistake(session, turn):
                self.mistakes += 1
            turn.step = "pressed"
            self.count_turn()
            self._press(session, turn)
            return True
        # pressed: the device's answer
        assert turn.pressed is not None
        if session.refusal is None or session.refusal is turn.pressed[1]:
            if host.frames - turn.since > ANSWER_PATIENCE:
                # No answer to be seen: the turn not over and no refusal showing (the press lost, or
                # answered by the draw alone). A person looks at his cards on the table and presses again.
                log.info("simulated player: no answer to the press seen; pressed again")
                self.pressed_again += 1
                self._press(session, turn)
            return True  # accepted (the next turn begins at the next step), or not yet judged
        if turn.mistake is not None:
            log.info("simulated player: %s refused (%s); put right", turn.mistake, session.refusal.code)
            turn.mistake = None
            turn.step = "lay"  # put right (the picture without it), then pressed again
            return True
        # The camera could not tell (unsure cards) or the device saw the table otherwise: the picker.
        log.info("simulated player: the camera's reading refused (%s); the picker", session.refusal.code)
        taken = len(session.history) - turn.seq
        own = list(session.history[turn.seq :]) == turn.plan[:taken]  # what was entered is the plan's start
        if taken <= 1 or own:  # the rest of the turn's plan (a released joker still to lay, say)
            self.plan = list(turn.plan[taken:])
        else:
            self.plan = [Discard(self.rng.choice(self._hand(turn)))]
        self.plan_seq = session.seq
        self._refusal = session.refusal
        turn.step = "picker"
        return False

    def straighten(self, session: KalookiSession) -> bool:
        """What a person does first when the camera could not read what he laid (cards unsure, or cards
        of the table not seen — the screen says "straighten them"): he spreads the fans so their corner
        indices show (:data:`STRAIGHT`) and presses again, once a turn; then he picks or enters what it
        still cannot read. Only where the table is as he meant it (no mistake of his lying on it)."""
        turn = self.turn
        refusal = session.refusal
        if (
            not self.camera
            or turn is None
            or turn.step != "pressed"
            or turn.straightened
            or turn.mistake is not None
            or turn.pressed is None
            or refusal is None
            or refusal is turn.pressed[1]
            or refusal.code not in ("cards_unsure", "table_changed")
            or session.current_seat != turn.seat
        ):
            return False
        lying = self.showing()
        if lying is None:
            return False
        turn.straightened = True
        self.straight.update(range(len(lying.melds)))
        self.straightened += 1
        log.info(
            "simulated player: the camera's reading refused (%s); straightened, pressed again", refusal.code
        )
        self._press(session, turn)
        return True

    def _press(self, session: KalookiSession, turn: Turn) -> None:
        """The seat button pressed for ``turn``: the answer awaited from now (the action count and the
        refusal showing at the press)."""
        turn.pressed = (session.seq, session.refusal)
        turn.since = self.host.frames
        self.host.post(ButtonEvent(turn.seat, "press", "autoplay"))
        self._waiting = self.host.frames

    def correct(self, session: KalookiSession) -> None:
        """One tap of a correction: the card the picker is on is the one lying where the reader saw it —
        one of the reader's likeliest readings offered, else its rank then its suit, or the joker. A card
        the player cannot tell (nothing lies there): *Cancel*, and the picker."""
        host = self.host
        corr = session.correction
        assert corr is not None
        index = corr.chosen if corr.chosen is not None else corr.next_open()
        item = None if index is None else corr.table.items[index]
        card = None if item is None else self.true_card(item.center, item.zone)
        picker = session.picker
        if card is None:
            label = host.text("Cancel")
        elif picker.rank is not None and not card.is_joker and picker.rank == card.rank:
            label = f"suit {card.suit}"
        elif picker.rank is not None or picker.suit is not None:
            label = "<"
        elif card in session.offered():
            label = f"guess {session.offered().index(card) + 1}"
        elif card.is_joker:
            label = "Joker"
        else:
            label = RANK_NAMES[card.rank]
        if label not in host.labels():
            return  # not drawn yet
        host.tap(label)
        self._waiting = host.frames
        if label.startswith(("guess", "suit")) or label == "Joker":
            self.corrected += 1
        if session.phase in ("draw", "play"):
            self.turn_taps += 1
            if self.turn is not None and self.turn.counted is not None:
                self.count_turn()

    def true_card(self, center: tuple[float, float], zone: str | None) -> Card | None:
        """The card lying where the reader saw one: the discard pile's top in the pile's zone; on the
        table the readable card whose seen part's centre is nearest (within a third of a card's
        height), or ``None`` (nothing lies there that the player could name)."""
        if zone == DISCARD:
            lying = self.showing()
            return lying.discards[-1] if lying is not None and lying.discards else None
        x, y = center
        near = [(math.hypot(c[0] - x, c[1] - y), card, reach) for c, card, reach in self.truth]
        best = min(near, key=lambda t: t[0], default=None)
        if best is None or best[0] > best[2]:
            return None
        return best[1]

    def turn_up(self, session: KalookiSession) -> bool:
        """The turned-up card lies on the discard pile: the device reads it there as the camera settles;
        if it does not, the seat button asks for it; refused (unsure), it is entered with the picker."""
        self.lying = None
        host = self.host
        seq, since, pressed = self._turnup if self._turnup is not None else (-1, 0, None)
        if seq != session.seq:
            self._turnup = (session.seq, host.frames, None)
            return True
        if pressed is None:
            if host.frames - since > DRAW_PATIENCE:
                self._turnup = (seq, since, (session.refusal,))
                host.post(ButtonEvent(0, "press", "autoplay"))
                self._waiting = host.frames
            return True
        return session.refusal is None or session.refusal is pressed[0]  # refused: the picker

    def count_turn(self) -> None:
        """The taps of the turn being played, counted once (a press the camera refused and the picker's
        seat press after it are one turn)."""
        turn = self.turn
        if turn is not None and turn.counted is not None and turn.counted < len(self.taps):
            self.taps[turn.counted] = self.turn_taps
            return
        if turn is not None:
            turn.counted = len(self.taps)
        self.taps.append(self.turn_taps)

    def _plan(self, deal: Deal) -> list[Action]:
        """The turn of the player to move: a whole one from the draw; resumed after the draw (a game
        killed in the middle of a turn), the discard that ends it."""
        if deal.phase == "play":
            return [Discard(self.rng.choice(deal.hand(deal.turn)))]
        return random_turn(deal, self.rng)

    def _turn_over(self, session: KalookiSession, turn: Turn) -> bool:
        return any(isinstance(a, Discard) for a in session.history[turn.seq :])

    def _hand(self, turn: Turn) -> tuple[Card, ...]:
        assert self.shadow is not None
        return self.shadow.deal.hand(turn.seat)

    def _after_turn(self, turn: Turn) -> Lying:
        """The table once the whole planned turn lies on it."""
        deal = turn.start
        for act in turn.plan:
            deal = deal.apply(act)
        return Lying.of(deal)

    def _make_mistake(self, session: KalookiSession, turn: Turn) -> bool:
        """Lay a mistake on the table before the press: a card taken from a meld and not put back, or an
        illegal opening (a meld worth less than the opening needs, or three cards that make none)."""
        assert self.lying is not None
        deal = turn.start
        kind = self.rng.choice(("taken", "opening"))
        if kind == "taken" and deal.table:
            j = self.rng.randrange(len(deal.table))
            natural = next((c for c in deal.table[j].cards if not c.is_joker), None)
            if natural is None:
                return False
            meld = list(self.lying.melds[j])
            meld.remove(natural)  # taken into the hand: the meld lacks a card it was accepted with
            self.lying.melds[j] = meld
            turn.mistake = "a card taken from a meld"
            return True
        if deal.opened[turn.seat] or any(isinstance(a, LayDown) for a in turn.plan):
            return False
        discard = next(a.card for a in turn.plan if isinstance(a, Discard))
        hand = [c for c in self._hand_after_draw(turn) if c != discard]
        low: list[list[Card]] = []
        for found in candidate_melds(hand):
            try:
                if meld_value(found) < deal.options.initial_meld:
                    low.append(list(found))
            except IllegalAction:
                continue
        cards = self.rng.choice(low) if low else [c for c in hand if not c.is_joker][:3]
        if len(cards) < 3:
            return False
        self.lying.melds.append(cards)
        turn.mistake = "an illegal opening"
        return True

    def _hand_after_draw(self, turn: Turn) -> tuple[Card, ...]:
        deal = turn.start.apply(turn.plan[0])
        return deal.hand(turn.seat)
