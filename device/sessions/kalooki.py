"""Kalooki at the table: the players tell the device what they lay with a card picker; the engine
referees every entry at once.

The cards are in the players' hands, not the device's, so a game at the table is played in the
engine's **referee mode** (``KalookiOptions.mode = "referee"``, whatever the config says): hands are
counts; what is laid, built, released and discarded is entered and checked; a card entered more often
than the two decks hold is refused (``too_many_copies``); at the end of a deal each loser enters the
cards left in his hand (``hand_count`` when their number is wrong).

The picker (:class:`Picker`) builds an *entry*: rank then suit (or suit then rank) makes a card, the
joker key a joker, a card of the *recent* row (the last cards used, most recent first) one tap, and
``to`` after a card followed by a rank the whole run (7♥ *to* 10 enters 7♥ 8♥ 9♥ 10♥). What the entry
becomes depends on what the player taps next:

- a table meld: the cards are built on it (``Build``, at whichever end takes them); where the rules
  let those cards only release a joker there, it is the release (``ReleaseJoker``);
- *Lay down*: the entry (and the melds kept with *+ Meld* before it: an initial meld of several melds)
  is laid as new melds (``LayDown``; the first must be worth 51: ``opening_too_low``);
- *Discard* or the seat button: the entry's one card is discarded, ending the turn (``Discard``);
- in the draw phase *Stock* / *Discard pile* draw (``DrawStock``, ``DrawDiscard``);
- at the start of a deal the entry's one card is the turned-up card (``TurnUp``); at its end the
  entry is the hand of the loser named on the screen (``RevealHand``) — or, on the number pad
  (*Points*), just the penalty points he counted in it (``HandPoints``: the rules refuse a sum his
  number of cards cannot make, ``impossible_points``).

Every entry is one action through :meth:`GameSession.submit` (journal before screen); the entry and
the picker are not journaled.

Each phase is a state (``device.states``): :class:`TurningUp`, :class:`Drawing`, :class:`Playing`,
:class:`Revealing` (with the points typed on the number pad), :class:`Over`, :class:`ReadingTable`
while the camera reads the table for a press, and :class:`Correcting` while a reading's unsure cards
are entered. Each owns the cards being entered on the picker. The
table screen sends its touches as events (:class:`Touch`, :class:`RankPicked`, :class:`SuitPicked`,
:class:`CardPicked`, :class:`MeldTapped`, :class:`DigitTyped`, :class:`Confirmed`) to the current state,
which changes its picker or enters the action; an action taken moves the game to the state the rules'
deal calls for (:meth:`KalookiSession.settled`).

**By camera** (issue 30): the game reads with the card reader (:data:`CARD_READER`: the cards sorted by
the calibration's stock and discard zones, ``vision.card_zones``). While the camera is there, a seat
press with nothing picked asks it for the table (:class:`ReadingTable`; a press nothing will answer stays
the picker's; where its one frame cannot decide — cards unsure, accepted cards not seen, a reading that
would be refused — the table is read again over :data:`VOTE_FRAMES` frames put to the vote first,
``vision.card_vote``, :meth:`KalookiSession.vote`); the table seen is compared with the one accepted
(``device.sessions.kalooki_camera.plan_turn``) and the actions it explains are judged whole: each is
checked, then all are submitted in turn (the draw as the discard pile's zone showed it, the lay-down,
builds, releases, the discard). The engine refuses what breaks a rule, by name, and then none of the
reading's actions is entered (the draw stands); a table no action explains is refused with what to put
back (a table with fewer cards than the accepted one at once, whatever its unsure cards are). Unsure
cards lying where cards of the accepted table lie are those cards (``kalooki_camera.table_prior``); the
others are refused (``cards_unsure``) and corrected one at a time on the picker (:class:`Correcting`),
the reading then judged with them and each entry journaled beside the action — or straightened and the
seat button pressed again. The picker stays the way to play without a camera. The move timer (off by
default) warns; when it runs out the device says so and forces nothing — it cannot know a player's hand.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal, cast, get_args

from device.camera_view import GameReader
from device.events import Seen, TimerSignal
from device.journal import Journal, ReadingFix
from device.session import GameSession, Refusal, SessionArgs, register_session
from device.sessions.kalooki_camera import (
    CardTable,
    Corrected,
    Placed,
    PlannedAction,
    TableMismatch,
    assess_press,
    candidates_of,
    card_of,
    confidence_of,
    draw_seen,
    placed_cards,
    table_prior,
)
from device.states import State
from device.timer import MoveTimer
from drivers.events import ButtonEvent
from rules import Action, GameState, Options
from rules.errors import IllegalAction
from rules.kalooki import (
    CODES,
    Build,
    Card,
    Deal,
    Discard,
    DrawDiscard,
    DrawStock,
    HandPoints,
    KalookiOptions,
    LayDown,
    ReleaseJoker,
    RevealHand,
    Session,
    TurnUp,
)
from rules.kalooki.melds import ACE_HIGH, RunMeld
from vision.card_vote import vote_cards
from vision.card_zones import CARD_ZONES, CardTableReading, read_card_table

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "CARD_READER",
    "PAD_DIGITS",
    "RECENT",
    "CardPicked",
    "CardTapped",
    "Confirmed",
    "Correcting",
    "Correction",
    "DigitTyped",
    "Drawing",
    "KalookiSession",
    "KalookiStage",
    "KalookiTouch",
    "MeldTapped",
    "Over",
    "Picker",
    "Playing",
    "RankPicked",
    "ReadingTable",
    "RefusedTable",
    "Revealing",
    "SuitPicked",
    "Touch",
    "TouchName",
    "TurningUp",
    "money",
    "run_cards",
]

log = logging.getLogger(__name__)

KalookiPhase = Literal["turn_up", "draw", "play", "reveal", "over"]
RECENT = 6  # cards offered in the recent row
PAD_DIGITS = 3  # the points of a hand on the number pad: up to 999


def money(cents: int) -> str:
    """An amount of the pool in the table's currency, to the cent.

    >>> money(9001), money(5), money(0)
    ('90.01', '0.05', '0.00')
    """
    return f"{cents // 100}.{cents % 100:02d}"


def run_cards(start: Card, rank: int) -> list[Card]:
    """The cards after ``start`` up to ``rank`` in its suit (an ace after the king is the high ace).

    >>> [str(c) for c in run_cards(Card.parse("7H"), 10)], [str(c) for c in run_cards(Card.parse("JS"), 1)]
    (['8H', '9H', '10H'], ['QS', 'KS', 'AS'])
    """
    first = start.rank
    last = ACE_HIGH if rank == 1 else rank
    if start.is_joker or last <= first:
        return []
    return [Card(1 if p == ACE_HIGH else p, start.suit) for p in range(first + 1, last + 1)]


@dataclass
class Picker:
    """The entry being picked: its cards, the melds kept for one lay-down, a rank or suit waiting for
    its other half, and ``to`` waiting for the run's last rank."""

    cards: list[Card] = field(default_factory=list)
    groups: list[tuple[Card, ...]] = field(default_factory=list)
    rank: int | None = None
    suit: str | None = None
    to: bool = False

    def clear(self) -> None:
        self.cards, self.groups, self.rank, self.suit, self.to = [], [], None, None, False

    def tap_rank(self, rank: int) -> None:
        if self.to and self.cards and not self.cards[-1].is_joker:
            self.cards += run_cards(self.cards[-1], rank)
            self.to = False
            return
        self.to = False
        if self.suit is not None:
            self.cards.append(Card(rank, self.suit))
            self.suit = None
        else:
            self.rank = rank

    def tap_suit(self, suit: str) -> None:
        self.to = False
        if self.rank is not None:
            self.cards.append(Card(self.rank, suit))
            self.rank = None
        else:
            self.suit = suit

    def add(self, card: Card) -> None:
        self.rank = self.suit = None
        self.to = False
        self.cards.append(card)

    def tap_to(self) -> None:
        if self.cards and not self.cards[-1].is_joker:
            self.rank = self.suit = None
            self.to = True

    def back(self) -> None:
        """Undo: a waiting rank, suit or ``to`` first, then the last card, then the last kept meld."""
        if self.rank is not None or self.suit is not None or self.to:
            self.rank = self.suit = None
            self.to = False
        elif self.cards:
            self.cards.pop()
        elif self.groups:
            self.cards = list(self.groups.pop())

    def keep_meld(self) -> bool:
        """*+ Meld*: the cards so far are one meld of the coming lay-down."""
        if not self.cards:
            return False
        self.groups.append(tuple(self.cards))
        self.cards = []
        self.rank = self.suit = None
        self.to = False
        return True

    def melds(self) -> tuple[tuple[Card, ...], ...]:
        return (*self.groups, *([tuple(self.cards)] if self.cards else []))


def _cards_of(act: object) -> Sequence[Card]:
    if isinstance(act, LayDown):
        return [c for meld in act.melds for c in meld]
    if isinstance(act, Build | ReleaseJoker | RevealHand):
        return act.cards
    if isinstance(act, Discard | TurnUp):
        return (act.card,)
    return ()  # a draw from the stock, a hand's points


# --- the touches: what the table screen's targets send to the current state ------------------------

TouchName = Literal[
    "to",  # to: the run up to the rank tapped next
    "back",  # < (or Backspace): undo on the picker, or the last digit on the number pad
    "clear",  # Clear: the entry (or the points typed)
    "keep_meld",  # + Meld: the cards so far are one meld of the coming lay-down
    "lay_down",  # Lay down
    "discard",  # Discard (in play), Turned-up card (at a deal's start): the entry's one card
    "stock",  # Stock: draw from the stock
    "discard_pile",  # Discard pile: draw its top card
    "reveal",  # Enter hand: the entry is the hand of the loser named
    "points",  # Points: the number pad instead of the picker
    "cards",  # Cards: back to the picker
    "enter_points",  # Enter points: the points typed are the loser's
    "cancel",  # Cancel (correcting a reading): back to the phase, the reading as refused
    "correct",  # Correct (a reading refused): the correction opens again on it
]


@dataclass(frozen=True)
class Touch:
    """A touch without data (``lay_down``, ``stock``, …), as an event for the current state."""

    name: TouchName


@dataclass(frozen=True)
class RankPicked:
    """A rank of the picker (1 the ace … 13 the king): a card with the suit waiting, or the run's end."""

    rank: int


@dataclass(frozen=True)
class SuitPicked:
    suit: str


@dataclass(frozen=True)
class CardPicked:
    """A whole card in one tap: the joker key, a card of the recent row."""

    card: Card


@dataclass(frozen=True)
class MeldTapped:
    """A meld of the table tapped (its index): the cards picked are built on it, or release its joker."""

    index: int


@dataclass(frozen=True)
class CardTapped:
    """A card of the reading being corrected tapped (its index in the reading): the picker is for it."""

    index: int


@dataclass(frozen=True)
class DigitTyped:
    """A digit of the number pad (the points of a loser's hand)."""

    digit: int


@dataclass(frozen=True)
class Confirmed:
    """Enter on the keyboard: the seat button's entry without the camera (the seat to move's, else
    seat 0's): the discard, the turned-up card, the loser's hand or points."""

    seat: int


KalookiTouch = Touch | RankPicked | SuitPicked | CardPicked | MeldTapped | CardTapped | DigitTyped | Confirmed


class KalookiStage(State["KalookiSession"]):
    """A phase of a deal, the rules' (``Deal.phase``), owning the cards being entered on the picker:
    an entry taken starts the next state with an empty picker; a refused one keeps them. A reading of
    the table (``Seen``: by the card reader, where the game has one) goes to :meth:`seen`; a touch of
    the screen (:data:`KalookiTouch`) to :meth:`touched`."""

    def __init__(self) -> None:
        self.picker = Picker()
        self.refused: RefusedTable | None = None  # the table the camera saw at the last refused press

    def handle(self, session: KalookiSession, event: object) -> KalookiStage | None:
        if isinstance(event, ButtonEvent) and event.kind == "press":
            return self.pressed(session, event.seat)
        if isinstance(event, TimerSignal) and event.kind == "timeout":
            session.on_timeout()
        elif isinstance(event, Seen) and isinstance(event.observation, CardTable) and not session.finished:
            return self.seen(session, event.observation, event.kind == "requested")
        elif isinstance(event, Confirmed):
            if not session.finished:
                self.confirm(session, event.seat)
        elif isinstance(event, KalookiTouch):
            return self.touched(session, event)
        return None

    def pressed(self, session: KalookiSession, seat: int) -> KalookiStage | None:
        """The seat button (without a reading of the table): the phase's entry, :meth:`confirm`."""
        if not session.finished:
            self.confirm(session, seat)
        return None

    def read_table(self, session: KalookiSession, seat: int) -> KalookiStage | None:
        """A press that asks the camera for the table (:class:`ReadingTable`, awaiting it); where
        nothing will answer (no camera), the press is the picker's, :meth:`confirm`."""
        if session.request_reading(ReadingTable.frames):
            session.asked += 1
            return ReadingTable(self)
        self.confirm(session, seat)
        return None

    def confirm(self, session: KalookiSession, seat: int) -> bool:
        """The entry the seat button (or Enter) makes in this phase; whether it was taken."""
        return False

    def seen(self, session: KalookiSession, table: CardTable, requested: bool) -> KalookiStage | None:
        return None

    def touched(self, session: KalookiSession, event: KalookiTouch) -> KalookiStage | None:
        """A touch: the picker's keys and a table meld in every phase; the phase's own buttons in
        :meth:`action`."""
        picker = self.picker
        if _picker_key(picker, event):
            pass
        elif isinstance(event, MeldTapped):
            self.build(session, event.index)
        elif isinstance(event, Touch) and event.name == "correct":
            return self.correct(session)
        elif isinstance(event, Touch) and event.name == "to":
            picker.tap_to()
        elif isinstance(event, Touch) and event.name == "back":
            picker.back()
        elif isinstance(event, Touch) and event.name == "clear":
            picker.clear()
        elif isinstance(event, Touch):
            return self.action(session, event.name)
        return None

    def action(self, session: KalookiSession, name: TouchName) -> KalookiStage | None:
        """One of the phase's buttons (only the current phase's are drawn)."""
        return None

    def correct(self, session: KalookiSession) -> KalookiStage | None:
        """*Correct* on a reading refused at the last press: the correction opens again (the cards
        entered kept, the picker on the first of them in the refused meld; a card picked is entered
        again and the reading judged again), the refused meld's cards listed too (a card the reader
        misread with confidence is corrected the same way)."""
        refused = self.refused
        if refused is None or session.finished:
            return None
        before = refused.correction
        if before is None:
            before = Correction(refused.table, table_prior(session.deal.table, refused.table, session.placed))
        corr = before.reopened(refused.outline)
        if not corr.listed():
            return None  # nothing to correct there (the table differs: put it back)
        return Correcting(self, corr)

    def build(self, session: KalookiSession, index: int) -> bool:
        """A table meld was tapped with cards picked: build them on it, or release its joker (the
        rules refuse either outside the play)."""
        cards = tuple(self.picker.cards)
        if not cards:
            session.refuse("pick_cards_first", "pick the cards to build on the meld first")
            return False
        deal = session.deal
        meld = deal.table[index] if 0 <= index < len(deal.table) else None
        ends: tuple[Literal["low", "high"], ...] = ("high", "low") if isinstance(meld, RunMeld) else ("high",)
        refused: list[IllegalAction] = []
        for act in (*(Build(index, cards, end) for end in ends), ReleaseJoker(index, cards)):
            try:
                session.state.apply(act)
            except IllegalAction as exc:
                refused.append(exc)
                continue
            return session.take(act, "release" if isinstance(act, ReleaseJoker) else "build")
        # The build's reason, unless the rules say those cards release a joker (then the release's).
        shown = refused[-1] if refused[0].code == "joker_release" else refused[0]
        session.refuse(shown.code, shown.message, **shown.details)
        return False

    def one_card(self, session: KalookiSession) -> Card | None:
        """The entry's one card (the discard, the turned-up card); refused unless there is exactly one."""
        cards = self.picker.cards
        if len(cards) != 1 or self.picker.groups:
            session.refuse("pick_one_card", "pick exactly one card", count=len(cards))
            return None
        return cards[0]


class TurningUp(KalookiStage):
    """A new deal: the card turned up is entered, or read from the discard pile's zone when it comes to
    rest there."""

    name: ClassVar[str] = "turn_up"

    def pressed(self, session: KalookiSession, seat: int) -> KalookiStage | None:
        if not self.picker.cards and session.camera_reads():
            return self.read_table(session, seat)
        return super().pressed(session, seat)

    def confirm(self, session: KalookiSession, seat: int) -> bool:
        """The entry's one card is the card turned up (any seat may enter it)."""
        card = self.one_card(session)
        return card is not None and session.take(TurnUp(card), "turn_up")

    def action(self, session: KalookiSession, name: TouchName) -> KalookiStage | None:
        if name == "discard":  # Turned-up card
            self.confirm(session, 0)
        return None

    def seen(self, session: KalookiSession, table: CardTable, requested: bool) -> KalookiStage | None:
        top = table.discard_top
        if top is not None and not top.is_joker:
            session.take(TurnUp(top), "turn_up")
        return None


class Drawing(KalookiStage):
    """The player to move draws: the stock or the discard pile, tapped, or seen by the camera watching
    the discard pile's zone (its top card taken: the discard pile; melds laid or another card on it:
    the stock, and already discarded)."""

    name: ClassVar[str] = "draw"

    def pressed(self, session: KalookiSession, seat: int) -> KalookiStage | None:
        if session.camera_reads() and not session.pressed_out_of_turn(seat):
            return self.read_table(session, seat)  # a whole turn since the last press: the draw too
        return super().pressed(session, seat)

    def confirm(self, session: KalookiSession, seat: int) -> bool:
        if not session.pressed_out_of_turn(seat):
            session.refuse("draw_first", "draw a card first: the stock or the discard pile")
        return False

    def action(self, session: KalookiSession, name: TouchName) -> KalookiStage | None:
        if name in ("stock", "discard_pile"):
            session.take(DrawStock() if name == "stock" else DrawDiscard(), "draw")
        return None

    def seen(self, session: KalookiSession, table: CardTable, requested: bool) -> KalookiStage | None:
        prior = table_prior(session.deal.table, table, session.placed)
        if prior:
            table = Corrected(table, prior)  # the unsure cards of melds lying as accepted
        if table.uncertain:
            return None  # an unsure card (the pile's top among them) tells nothing: never guessed
        draw = draw_seen(session.deal, table.discard_top)
        if draw is None and _table_grew(session.deal, table):
            draw = DrawStock()  # melds laid before any draw was seen: the card came from the stock
        if draw is not None:
            session.take(draw, "draw")
        return None


class Playing(KalookiStage):
    """The player lays down, builds, releases jokers, discards (the cards entered on the picker, or,
    with nothing picked, the table read at the seat press)."""

    name: ClassVar[str] = "play"

    def pressed(self, session: KalookiSession, seat: int) -> KalookiStage | None:
        if not self.picker.cards and session.camera_reads() and not session.pressed_out_of_turn(seat):
            return self.read_table(session, seat)
        return super().pressed(session, seat)

    def confirm(self, session: KalookiSession, seat: int) -> bool:
        """The entry's one card is discarded: the turn's end."""
        if session.pressed_out_of_turn(seat):
            return False
        return self.discard(session)

    def discard(self, session: KalookiSession) -> bool:
        card = self.one_card(session)
        return card is not None and session.take(Discard(card), "discard")

    def action(self, session: KalookiSession, name: TouchName) -> KalookiStage | None:
        if name == "keep_meld":
            if not self.picker.keep_meld():
                session.refuse("pick_cards_first", "pick the cards of the meld first")
        elif name == "lay_down":
            melds = self.picker.melds()
            if not melds:
                session.refuse("pick_cards_first", "pick the cards of the meld first")
            else:
                session.take(LayDown(melds), "lay_down")
        elif name == "discard":
            self.discard(session)
        return None


class ReadingTable(KalookiStage):
    """The table asked of the camera (one frame; asked by the press that enters it, which stays the
    picker's when nothing will answer) and awaited, then judged (:meth:`KalookiSession.judge`) — or,
    where that one reading cannot decide, read again over ``voting`` frames put to the vote first
    (:meth:`KalookiSession.vote`). Its phase is the one it was asked in, whose screen stays."""

    frames: ClassVar[int] = 1

    def __init__(self, back: KalookiStage, voting: int = 0) -> None:
        super().__init__()
        self.back = back
        self.voting = voting  # the frames of the vote this reading is (0: one frame)

    @property
    def phase(self) -> str:
        return self.back.phase

    def pressed(self, session: KalookiSession, seat: int) -> KalookiStage | None:
        return None  # the reading is on its way

    def seen(self, session: KalookiSession, table: CardTable, requested: bool) -> KalookiStage | None:
        if not requested:
            return None
        if not self.voting:
            again = session.vote(self.back, table)
            if again is not None:
                return again
        return session.judge(self.back, table)

    def confirm(self, session: KalookiSession, seat: int) -> bool:
        return self.back.confirm(session, seat)

    def touched(self, session: KalookiSession, event: KalookiTouch) -> KalookiStage | None:
        """The screen stays the phase's while the table is read: its touches are the phase's."""
        return self.back.touched(session, event)

    def label(self) -> str:
        return f"ReadingTable({self.back.phase}{f', {self.voting} frames' if self.voting else ''})"


@dataclass
class Correction:
    """A reading being corrected on the picker: the reading as the camera gave it, the unsure cards the
    accepted table decided (``prior``, :func:`~device.sessions.kalooki_camera.table_prior`), the cards
    the player entered (reading index → card), the card the picker is on, the cards asked for beside
    the unsure ones (tapped on a refused reading: a card the reader was sure of, or one entered before),
    and the entries already journaled with an action taken (a reading judged again after a refusal
    journals only what changed)."""

    table: CardTable
    prior: dict[int, Card]
    fixes: dict[int, Card] = field(default_factory=dict)
    chosen: int | None = None
    asked: tuple[int, ...] = ()
    journaled: dict[int, Card] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.chosen is None:
            self.chosen = self.next_open()

    def order(self) -> tuple[int, ...]:
        """Every card of the reading in the order the screen lists them: meld by meld, the loose cards,
        the discard pile's top."""
        t = self.table
        return (*(i for m in t.melds for i in m), *t.loose, *t.discard[:1])

    def required(self) -> tuple[int, ...]:
        """The cards the player must enter: the unsure ones the accepted table does not decide."""
        unsure = set(self.table.uncertain) - set(self.prior)
        return tuple(i for i in self.order() if i in unsure)

    def listed(self) -> tuple[int, ...]:
        """The cards the screen lists to enter: those required, and those asked for (the cards of a
        refused meld, to correct a confident misread)."""
        required = set(self.required())
        return tuple(i for i in self.order() if i in required or i in self.asked)

    def open(self) -> tuple[int, ...]:
        return tuple(i for i in self.required() if i not in self.fixes)

    @property
    def complete(self) -> bool:
        return not self.open()

    def next_open(self) -> int | None:
        return next(iter(self.open()), None)

    def choose(self, index: int) -> None:
        """The picker is for card ``index`` of the list (one to enter, one entered: it is entered again,
        or one asked for)."""
        if index in self.listed():
            self.chosen = index

    def pick(self, card: Card) -> None:
        """``card`` for the chosen card (the first open one if none is); then the next open one."""
        index = self.chosen if self.chosen is not None else self.next_open()
        if index is None:
            return
        if index not in self.required() and card_of(self.table.items[index]) == card:
            self.fixes.pop(index, None)  # a card the reader was sure of, confirmed
        else:
            self.fixes[index] = card
        self.chosen = self.next_open()

    def undo(self) -> None:
        """The last card entered taken back: the picker is for it again."""
        if self.fixes:
            index = list(self.fixes)[-1]
            del self.fixes[index]
            self.chosen = index

    def reopened(self, asked: Sequence[int]) -> Correction:
        """The correction again after its reading was refused (the cards ``asked`` listed too), the
        picker on its first open card, else the first card entered among those asked, else the first
        entered, else the first asked."""
        asked = tuple(dict.fromkeys((*self.asked, *asked)))
        again = Correction(self.table, self.prior, dict(self.fixes), None, asked, dict(self.journaled))
        entered = [i for i in again.listed() if i in again.fixes]
        mine = [i for i in entered if i in asked]
        again.chosen = next(iter(again.open() or mine or entered or asked), None)
        return again

    def applied(self) -> Corrected:
        """The reading with the table's decisions and the player's entries: what is judged."""
        return Corrected(self.table, {**self.prior, **self.fixes})

    def journaled_fixes(self) -> tuple[ReadingFix, ...]:
        """The entries not journaled yet, as the journal keeps them: what the reader read (its best
        guess and its confidence, whether it was sure) and what the player entered."""
        out = []
        for i, card in self.fixes.items():
            if self.journaled.get(i) == card:
                continue
            out.append(_fix(self.table, i, card, "card"))
        return tuple(sorted(out, key=lambda f: f.item))


def _fix(table: CardTable, index: int, card: Card, kind: str) -> ReadingFix:
    item = table.items[index]
    confidence = confidence_of(item)
    return ReadingFix(
        index,
        kind,
        item.label,
        str(card),
        None if confidence is None else round(confidence, 4),
        index not in table.uncertain,
    )


class Correcting(KalookiStage):
    """The unsure cards of a reading (:class:`Correction`) entered one at a time on the picker, for the
    phase it was read in (``back``, whose screen and phase it keeps): a card picked (rank and suit, the
    joker, or one of the reader's likeliest readings offered) is the chosen card's, and the picker moves
    to the next open one; a card of the reading tapped (:class:`CardTapped`) chooses it. Once every card
    is entered the reading, with them, is judged as if the camera had read it so
    (:meth:`KalookiSession.judge`: the same refusals). The seat button reads the table again (the player
    straightened his cards: the correction is dropped); *Cancel* goes back to the phase, the reading
    shown as refused (*Correct* opens the correction again, as it does on a reading the rules refused:
    the cards entered kept, the refused meld's listed; the picker enters the turn).
    Nothing of it is journaled until an action is taken with it: a game killed in the middle of a
    correction resumes in the phase, with the table as last accepted."""

    def __init__(self, back: KalookiStage, correction: Correction) -> None:
        super().__init__()
        self.back = back
        self.correction = correction

    @property
    def phase(self) -> str:
        return self.back.phase

    def handle(self, session: KalookiSession, event: object) -> KalookiStage | None:
        if isinstance(event, ButtonEvent) and event.kind == "press":
            return self.back.pressed(session, event.seat)  # read again; out of turn, nothing
        if isinstance(event, TimerSignal) and event.kind == "timeout":
            session.on_timeout()
        elif isinstance(event, KalookiTouch) and not isinstance(event, Confirmed) and not session.finished:
            return self.touched(session, event)
        return None  # a settled reading is not this reading; Enter enters nothing here

    def touched(self, session: KalookiSession, event: KalookiTouch) -> KalookiStage | None:
        picker, corr = self.picker, self.correction
        if _picker_key(picker, event):
            pass
        elif isinstance(event, CardTapped):
            picker.clear()
            corr.choose(event.index)
        elif isinstance(event, Touch) and event.name == "back":
            if picker.rank is not None or picker.suit is not None:
                picker.back()
            else:
                corr.undo()
        elif isinstance(event, Touch) and event.name == "clear":
            picker.clear()
        elif isinstance(event, Touch) and event.name == "cancel":
            self.back.refused = RefusedTable(corr.applied(), corr.open(), "unsure", corr)
            return self.back
        if picker.cards:  # a whole card picked: the chosen card's
            card = picker.cards[-1]
            picker.clear()
            corr.pick(card)
            if corr.complete:
                return session.judge(self.back, corr.table, corr)
        return None

    def label(self) -> str:
        corr = self.correction
        return f"Correcting({self.back.phase}, {len(corr.fixes)}/{len(corr.required())})"


class Revealing(KalookiStage):
    """The deal is over: each loser's hand entered on the picker, or its points on the number pad
    (``pad``: the points typed; ``None``: the picker)."""

    name: ClassVar[str] = "reveal"

    def __init__(self) -> None:
        super().__init__()
        self.pad: str | None = None

    def confirm(self, session: KalookiSession, seat: int) -> bool:
        """Any seat button enters (between turns), as Enter hand or Enter points does."""
        return self.reveal(session) if self.pad is None else self.enter_points(session)

    def touched(self, session: KalookiSession, event: KalookiTouch) -> KalookiStage | None:
        if self.pad is None:
            return super().touched(session, event)
        if isinstance(event, DigitTyped):
            if len(self.pad) < PAD_DIGITS:
                self.pad = str(int(self.pad + str(event.digit)))  # no leading zeros
                session.refusal = None  # the refusal was of the points typed before
        elif isinstance(event, Touch) and event.name == "back":
            if self.pad:
                self.pad = self.pad[:-1]
                session.refusal = None
        elif isinstance(event, Touch) and event.name == "clear":
            self.pad = ""
        elif isinstance(event, Touch):
            return self.action(session, event.name)
        return None

    def action(self, session: KalookiSession, name: TouchName) -> KalookiStage | None:
        if name in ("points", "cards") and session.revealing() is not None:
            # Points opens the number pad for the loser named on the screen; Cards goes back.
            self.pad = "" if name == "points" else None
            self.picker.clear()
        elif name == "reveal":
            self.reveal(session)
        elif name == "enter_points":
            self.enter_points(session)
        return None

    def reveal(self, session: KalookiSession) -> bool:
        """The entry is the hand left to the loser named on the screen (his penalty follows)."""
        seat = session.revealing()
        return seat is not None and session.take(RevealHand(seat, tuple(self.picker.cards)), "reveal")

    def enter_points(self, session: KalookiSession) -> bool:
        """The points typed on the pad: the penalty points of the hand of the loser named."""
        seat = session.revealing()
        if seat is None or self.pad is None:
            return False
        if not self.pad:
            session.refuse("type_points_first", "type the points of the hand first")
            return False
        return session.take(HandPoints(seat, int(self.pad)), "points")


class Over(KalookiStage):
    name: ClassVar[str] = "over"

    def handle(self, session: KalookiSession, event: object) -> KalookiStage | None:
        return None


def _picker_key(picker: Picker, event: KalookiTouch) -> bool:
    """A key of the card picker (a rank, a suit, a whole card) given to it; whether ``event`` was one."""
    if isinstance(event, RankPicked):
        picker.tap_rank(event.rank)
    elif isinstance(event, SuitPicked):
        picker.tap_suit(event.suit)
    elif isinstance(event, CardPicked):
        picker.add(event.card)
    else:
        return False
    return True


@dataclass(frozen=True)
class RefusedTable:
    """What the camera saw at a refused press: the reading (as corrected, where it was), the cards to
    outline (indices into it), why (``unsure``, ``copies``, ``mismatch``, ``rule``), and the correction
    it was judged with, if any (a card tapped opens it again)."""

    table: CardTable
    outline: tuple[int, ...]
    reason: str
    correction: Correction | None = None


def _refused(
    stage: KalookiStage,
    table: CardTable,
    outline: tuple[int, ...],
    reason: str,
    correction: Correction | None = None,
) -> KalookiStage:
    """``stage`` again, keeping the table refused, to outline on the screen."""
    stage.refused = RefusedTable(table, outline, reason, correction)
    return stage


def _outline(table: CardTable, planned: PlannedAction) -> tuple[int, ...]:
    """The cards of ``table`` to outline for a refused action of a reading: its seen melds' (none for
    the discard)."""
    return tuple(i for j in planned.seen for i in _meld_items(table, j))


def _meld_items(table: CardTable, j: int) -> tuple[int, ...]:
    """The card indices of the ``j``-th meld of ``table.cards_on_table()`` (its melds, then each loose
    card as a meld of its own) in the reading."""
    if j < len(table.melds):
        return tuple(table.melds[j])
    k = j - len(table.melds)
    return (table.loose[k],) if k < len(table.loose) else ()


def _table_grew(deal: Deal, table: CardTable) -> bool:
    try:
        seen = sum(len(m) for m in table.cards_on_table())
    except ValueError:
        return False
    return seen > len(deal.table_cards())


# The camera's reader of a Kalooki table: the card reader, its cards sorted by the calibration's card
# zones (the stock, the discard pile: ``vision.card_zones``); the readings of several frames of a still
# table put to the vote (``vision.card_vote``) when a press asks for them.
CARD_READER: GameReader[CardTableReading] = GameReader(read_card_table, zones=CARD_ZONES, vote=vote_cards)
VOTE_FRAMES = 5  # frames read again and put to the vote when one reading cannot decide (0: never)

STAGES: dict[str, type[KalookiStage]] = {
    "turn_up": TurningUp,
    "draw": Drawing,
    "play": Playing,
    "reveal": Revealing,
}


@register_session
class KalookiSession(GameSession):
    game = "kalooki"
    progress_caption = "Penalty points over the deals"
    table_screen = "kalooki_table"
    reader = CARD_READER  # the cards on the table, the stock and the discard pile (their zones)
    # Every refusal of Kalooki's has its own sentence (``kalooki_invalid_meld``: Rummikub refuses an
    # ``invalid_meld`` too, of tiles); ``game_over`` and ``not_your_turn`` are every game's.
    own_rule_texts = (frozenset(CODES) - {"game_over"}) | {
        "cards_unsure",
        "nothing_turned_up",
        "table_changed",
        "pick_cards_first",
        "pick_one_card",
        "type_points_first",
    }

    def __init__(self, **kwargs: Unpack[SessionArgs]) -> None:
        super().__init__(**kwargs)
        self.timed_out: tuple[int, float] | None = None  # the seat whose time ran out, and when
        self.last_entry: str = ""  # what the last accepted entry was, for the screen
        # The accepted table's cards where the camera saw them at the last press it judged whole (for
        # the accepted table's decisions, ``table_prior``; not journaled: a resumed game decides by rows).
        self.placed: tuple[Placed, ...] = ()
        self.vote_frames = VOTE_FRAMES
        self.asked = 0  # readings asked for by a press in this game (the bench counts them)
        self.votes = 0  # of them, read again over frames and put to the vote
        self._progress: tuple[int, list[list[int]]] | None = None

    @classmethod
    def start(cls, journal: Journal, options: Options, names: list[str], timer: MoveTimer) -> GameSession:
        """A game at the table is refereed: the hands are the players', the device counts them."""
        assert isinstance(options, KalookiOptions)
        return super().start(journal, options.replace(mode="referee"), names, timer)

    # --- what the screen shows -----------------------------------------------------------------------

    @property
    def kalooki(self) -> Session:
        state = self.state
        assert isinstance(state, Session)
        return state

    @property
    def deal(self) -> Deal:
        return self.kalooki.deal

    def initial_stage(self) -> KalookiStage:
        return self.settled()

    def settled(self) -> KalookiStage:
        """The state the deal's phase calls for (a new or resumed game, after every entry)."""
        return Over() if self.finished else STAGES[self.deal.phase]()

    def acted(self, act: Action) -> None:
        if isinstance(act, TurnUp):
            self.placed = ()  # a new deal: the cards were gathered
        assert self.machine is not None
        self.machine.go(self.settled(), cause=type(act).__name__)

    @property
    def phase(self) -> KalookiPhase:
        phase = super().phase
        assert phase in get_args(KalookiPhase)
        return cast(KalookiPhase, phase)

    @property
    def picker(self) -> Picker:
        """The cards being entered: the current state's (while the table is read, the play's; while a
        reading is corrected, the card being picked for it)."""
        stage = self.stage
        if isinstance(stage, Correcting):
            return stage.picker
        return self.current_stage().picker

    @property
    def correction(self) -> Correction | None:
        """The reading being corrected on the picker, if one is."""
        stage = self.stage
        return stage.correction if isinstance(stage, Correcting) else None

    def offered(self) -> list[Card]:
        """The cards the picker offers in one tap: while correcting, the reader's likeliest readings of
        the card chosen (4 at most, each at least 2 % likely; its best guess first); else the recent
        cards."""
        corr = self.correction
        if corr is None:
            return self.recent()
        if corr.chosen is None:
            return []
        item = corr.table.items[corr.chosen]
        out: list[Card] = []
        best = card_of(item)
        for card in (best, *(c for c, p in candidates_of(item) if p >= 0.02)):
            if card is not None and card not in out:
                out.append(card)
        return out[:4]

    @property
    def refused_table(self) -> RefusedTable | None:
        """The table the camera saw at the last refused press of this move (to outline)."""
        return self.current_stage().refused

    # --- by camera -----------------------------------------------------------------------------------

    def camera_reads(self) -> bool:
        """Whether a press asks the camera: the game has a card reader and the camera is there."""
        return self.reader is not None and self.camera_lost is None

    def vote(self, back: KalookiStage, table: CardTable) -> ReadingTable | None:
        """The table read again before ``table`` is judged: over the next :attr:`vote_frames` frames, put
        to the vote (``vision.card_vote``), once per press, when one photo cannot decide — cards unsure,
        cards of the accepted table not seen, or a reading that would be refused — so that one bad
        frame does not cost the player a refusal or a pick."""
        if self.vote_frames < 2 or self.camera_lost is not None or self._decided(table):
            return None
        if not self.readings.request(self.vote_frames):
            return None
        self.votes += 1
        log.info("reading again over %d frames: %s", self.vote_frames, table)
        return ReadingTable(back, self.vote_frames)

    def _decided(self, table: CardTable) -> bool:
        """Whether judging ``table`` as read takes the turn whole (:func:`assess_press`): no unsure card
        the accepted table does not decide, no accepted card unseen, nothing refused or asked for."""
        prior = table_prior(self.deal.table, table, self.placed)
        return assess_press(self.kalooki, Corrected(table, prior) if prior else table).decided

    def judge(
        self, back: KalookiStage, table: CardTable, correction: Correction | None = None
    ) -> KalookiStage | None:
        """The table read at a press: the actions that explain it, judged whole — each checked by the
        rules before any is entered (:func:`~device.sessions.kalooki_camera.assess_press`, which
        :meth:`vote` asks too), then entered in turn (the state after the last is the rules',
        :meth:`acted`); a refusal names the first action's rule that breaks, keeps what was seen (that
        action's meld outlined) and enters none of them, so the table stays as last accepted. The draw
        the reading shows is entered first and stands (it cannot be undone at the table). A reading of
        legal actions without a discard enters them and asks for the discard (``pick_one_card``).

        The unsure cards the accepted table decides are taken so (:func:`table_prior`: where its cards
        lay at the last press judged whole, :attr:`placed`, else by the melds' rows); where others
        are left, the press is refused (``cards_unsure``) and the correction opens on the first of them
        (:class:`Correcting`); ``correction``: the cards the player entered, judged with the reading as
        if the camera had read them. The cards entered, and the unsure cards the table decided otherwise
        than the reader's best guess, are journaled beside the first action taken."""
        prior = table_prior(self.deal.table, table, self.placed)
        if correction is not None:
            correction.prior = prior
            seen: CardTable = correction.applied()
        else:
            seen = Corrected(table, prior) if prior else table
        verdict = assess_press(self.kalooki, seen)
        if verdict.stop == "cards_lacking" and verdict.lacking is not None:
            # Fewer cards than the accepted table holds: refused whatever the unsure ones are (no move
            # takes a card off the table), before the player is asked to pick any.
            count, missing = verdict.lacking
            cards = " ".join(str(c) for c in missing)
            self.refuse(
                "table_changed",
                f"{count} of the table's cards not seen (of {cards}): put them back, or straighten them",
                cards=cards,
            )
            return _refused(back, seen, (), "mismatch", correction)
        if verdict.stop in ("cards_lacking", "cards_unsure"):
            self.refuse("cards_unsure", "cards the camera cannot read: straighten them, or pick them")
            corr = correction if correction is not None else Correction(table, prior)
            if correction is not None:
                corr.chosen = corr.next_open()
            return Correcting(back, corr)
        notes = [
            _fix(table, i, card, "card_table")
            for i, card in sorted(prior.items())
            if card_of(table.items[i]) != card and (correction is None or i not in correction.fixes)
        ]
        pending = (*(correction.journaled_fixes() if correction is not None else ()), *notes)

        def enter(act: Action, what: str | None = None) -> bool:
            nonlocal pending
            taken = self.submit(act, pending) if what is None else self.take(act, what, pending)
            if taken:
                if correction is not None:
                    correction.journaled.update(correction.fixes)
                pending = ()
            return taken

        if verdict.stop == "too_many_copies":  # a third copy of a card: the reading's error names it
            self.refuse("too_many_copies", str(verdict.error))
            return _refused(back, seen, (), "copies", correction)
        if self.deal.phase == "turn_up":
            if seen.discard_top is None:
                self.refuse("nothing_turned_up", "no card seen on the discard pile")
                return back
            enter(TurnUp(seen.discard_top), "turn_up")
            return None
        if verdict.stop == "draw_first":
            self.refuse("draw_first", "no draw seen: tap Stock or Discard pile")
            return back
        if verdict.draw is not None and not enter(verdict.draw, "draw"):  # refused by its rule
            return back
        if isinstance(verdict.error, TableMismatch):
            mismatch = verdict.error
            self.refuse("table_changed", str(mismatch), cards=" ".join(str(c) for c in mismatch.put_back))
            return _refused(self.current_stage(), seen, (), "mismatch", correction)
        if verdict.stop == "no_change":
            self.refuse("pick_one_card", "no change seen: discard a card to end your turn")
            return self.current_stage()
        # The turn as read is judged whole: every action was checked before any is entered, so a refusal
        # (by its rule) keeps the table as last accepted, not a part of what the player laid.
        if verdict.failed is not None and isinstance(verdict.error, IllegalAction):
            illegal = verdict.error
            self.refusal = Refusal.of(illegal, self.timer.now(), self.rule_key(illegal.code, illegal.details))
            log.info("refused %s (the reading's turn, nothing entered): %s", verdict.failed.action, illegal)
            return _refused(self.current_stage(), seen, _outline(seen, verdict.failed), "rule", correction)
        assert verdict.plan is not None
        # And journaled whole: a kill or a power cut in the middle keeps none of it (the draw stands).
        with self.journal.together("store a turn"):
            for planned in verdict.plan.actions:
                if not enter(planned.action):  # checked above: the rules do not change between the two
                    return _refused(self.current_stage(), seen, _outline(seen, planned), "rule", correction)
        if verdict.stop == "no_discard":
            self.refuse("pick_one_card", "no discard seen: put a card on the discard pile, or pick it")
        self.placed = placed_cards(seen, self.deal.table)
        self.last_entry = "camera"
        return None

    def current_stage(self) -> KalookiStage:
        """The state now (a reading's or a correction's: the one it was asked in)."""
        stage = self.stage
        if isinstance(stage, ReadingTable | Correcting):
            stage = stage.back
        assert isinstance(stage, KalookiStage)
        return stage

    @property
    def pad(self) -> str | None:
        """The points typed on the number pad (:class:`Revealing`); ``None``: the hand's cards."""
        stage = self.current_stage()
        return stage.pad if isinstance(stage, Revealing) else None

    def revealing(self) -> int | None:
        """The seat whose hand is to be entered now (end of a deal), else ``None``."""
        if self.finished:
            return None
        left = self.deal.to_reveal()
        return left[0] if left else None

    def recent(self) -> list[Card]:
        """The last cards used in this deal (entered, the turned-up card included), most recent first,
        each once."""
        seen: list[Card] = []
        if self.deal.phase == "turn_up":
            return seen  # a new deal: nothing of it entered yet
        for act in reversed(self.history):
            for card in reversed(list(_cards_of(act))):
                if card not in seen and not card.is_joker:
                    seen.append(card)
            if len(seen) >= RECENT or isinstance(act, TurnUp):  # the deal's first entry
                break
        return seen[:RECENT]

    # --- entries -------------------------------------------------------------------------------------

    def take(self, act: Action, what: str, corrections: Sequence[ReadingFix] = ()) -> bool:
        """An entry (picked, tapped or seen by the camera) submitted; ``what`` it was, for the screen;
        ``corrections``: the cards of the camera's reading corrected for it (journaled beside it)."""
        if not self.submit(act, corrections):
            return False
        self.last_entry = what
        self.timed_out = None
        return True

    def on_timeout(self) -> None:
        seat = self.current_seat
        if seat is not None:
            self.timed_out = (seat, self.timer.now())

    def begin_move(self) -> None:
        super().begin_move()
        self.timed_out = None

    def score_progress(self) -> list[list[int]]:
        """Each player's penalty total after each deal."""
        if self._progress is not None and self._progress[0] == self.seq:
            return self._progress[1]
        totals = [0] * len(self.players)
        progress: list[list[int]] = [[] for _ in self.players]
        for result in self.kalooki.results:
            for seat, penalty in enumerate(result.penalties):
                totals[seat] += penalty
                progress[seat].append(totals[seat])
        self._progress = (self.seq, progress)
        return progress

    @classmethod
    def exported(cls, state: GameState) -> dict[str, object]:
        """The prize pool of a finished game: its formula, every deal's penalties and payouts, and each
        seat's winnings over the game (``payouts``, in cents: what the end screen shows). A deal's
        ``winner`` is his seat as a person reads it, from 1 (``device.export.SEATS_NOTE``)."""
        assert isinstance(state, Session)
        options = state.options
        if not options.pool_cents:
            return {}
        deals = [
            {"winner": r.winner + 1, "penalties": list(r.penalties), "payouts": list(r.payouts)}
            for r in state.results
        ]
        return {
            "pool_cents": options.pool_cents,
            "payout": options.payout,
            "deals": deals,
            "payouts": list(state.winnings),
        }

    def end_notes(self) -> list[tuple[str, dict[str, object]]]:
        """What the end screen adds (texts to translate and their values): each player's winnings."""
        if not self.kalooki.options.pool_cents:
            return []
        return [
            ("{name} wins {amount}", {"name": p.name, "amount": money(w)})
            for p, w in zip(self.players, self.kalooki.winnings, strict=True)
        ]
