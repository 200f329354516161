"""Rummikub at the table, in referee mode: the racks stay hidden, the camera reads the table.

The engine (``rules.rummikub`` with ``information="referee"``) holds the table as it was at the
start of the move (the *before* table), each rack's tile count and the pool count; the device sees
the table through ``vision.read_tiles`` and the seat buttons. Every game is played in referee mode
(:meth:`RummikubSession.start` says so in the options it journals).

Each phase is a state (``device.states``) that owns what it needs; the session holds the current one
(:attr:`RummikubSession.stage`), and its name is :attr:`RummikubSession.phase`. After every action
that moves the game on, the session goes to the state the rules' state calls for
(:meth:`RummikubSession.settled`: also the state a new or resumed game starts in); every other
transition is a state's answer to an event — a seat button, a reading, the timer, a touch the screen
sends as an event (:class:`Touch`, :class:`TilePicked`, …):

- :class:`Starting` (``start``, its contenders and what they drew), :class:`Playing` (``playing``,
  the reading of its last refused play or draw), :class:`Reading` (``checking``, or ``start`` /
  ``reveal``: a reading asked for through the camera port on enter, awaited; the events that are not
  the reading go to the state it was asked in), :class:`Correcting` (``correcting``: the
  :class:`Correction`, the picker's colour), :class:`EnteringRack` (the learning table's rack entered
  with the picker), :class:`Restoring` (``restore``: the clock paused on enter, started on exit),
  :class:`Revealing` (``reveal``: the rack entered with the picker), :class:`HandOver`, :class:`Over`.

What the phases mean:

- ``start``: who begins. Each player lays a drawn tile in front of the camera, in seat order from
  left to right, and *Read the drawn tiles* reads them: the highest number starts (a joker is no
  number); tied players draw again (only they lay a tile). Or a *X starts* touch.
- ``playing``: the player lays and rearranges, then presses his seat button. The press asks the
  camera for a reading taken once the table is still (phase ``checking``). A certain reading is
  checked at once (``Play``: the engine's ``check_turn(before, after)``) — unless it has an unsure
  tile or would be refused: then the next frames are read and vote first (:data:`VOTE_FRAMES`,
  ``vision.tile_vote``; a draw and a timeout too), so one bad frame does not cost a refusal; a
  refusal keeps the reading, so the screen outlines the meld the rule names. Uncertain tiles are
  never guessed: the
  phase turns ``correcting`` and the player straightens them (a new press reads again) or taps each
  to pick what it is (number, colour, joker). A long press (or *Draw*) draws, after the camera has
  checked that the table is as it was (``table_changed`` otherwise). A misread never costs a legal
  move: after a refused play or draw, *Correct the reading* (:meth:`RummikubSession.dispute`) lets
  the player tap any tile of the refused reading, pick what it is, and *Check* the corrected reading;
  the tile stays corrected while it lies there (:func:`carry`).
- the move timer: on timeout the camera reads the table; ``Timeout(manipulated)`` is journaled at
  once — changed (3 tiles, ``timeout_draw``) or not (1 tile) — and, if it was changed, the phase is
  ``restore``: the next player's clock waits until the camera sees the before table again (or the
  *Table restored* touch: the camera lost, or misreading the restored table). A resume after a kill
  finds the timeout last in the journal and restores again.
- ``reveal``: a rack count reached 0 (or the pool ran dry, RULES.md §3): the others lay their racks
  face up in front of the camera one by one (*Read the rack*), or enter them with the tile picker;
  the hand is scored once every rack is known.
- ``hand_over``: a hand is scored and the game goes on (``hands``, ``target_score``); *Next hand*.
- ``over``.

Nothing but the rules' actions is journaled, and beside the action a corrected reading entered, what
was corrected (``Journal.corrections``: each tile's reading and what the player picked, and whether the
reader was sure), so misreads can be counted (``referee export --format corrections``). A reading, a
correction or a pick in progress are the players' until an action enters them: a kill -9 at any moment
resumes with the same before table, and nothing of an unfinished correction is kept.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast, get_args

from device.camera_view import GameReader
from device.events import Seen, TimerSignal
from device.i18n import msgid
from device.journal import Journal, ReadingFix
from device.session import GameSession, SessionArgs, register_session
from device.sessions.rummikub_coach import RummikubCoach, review_json
from device.states import State
from device.timer import MoveTimer
from drivers.events import ButtonEvent
from rules import Action, IllegalAction, Options
from rules.rummikub import (
    Announce,
    Draw,
    Extend,
    Meld,
    NextHand,
    Play,
    RevealRack,
    RummikubOptions,
    RummikubState,
    ShowRack,
    Start,
    TakeHint,
    Tile,
    Timeout,
)
from rules.rummikub.check import played_tiles
from rules.rummikub.tiles import JOKER, full_set
from vision.melds import group_melds
from vision.tile_vote import vote_tiles
from vision.tile_zones import TILE_ZONES, read_tile_table
from vision.tiles import SeenTile, TableObservation, read_tiles

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "LEARNING_READER",
    "PAGE_TILES",
    "TILE_READER",
    "Carried",
    "Correction",
    "RummikubSession",
    "Verdict",
    "beside",
    "carry",
    "possible",
    "regrouped",
    "same_table",
]

log = logging.getLogger(__name__)

RummikubPhase = Literal[
    "start", "playing", "checking", "correcting", "restore", "reveal", "hand_over", "over"
]
TILE_READER: GameReader[TableObservation] = GameReader(read_tiles, vote=vote_tiles)
# A learning table's reader: the tiles of a rack laid face up in the rack zone are kept apart from the
# table's (``vision.tile_zones``): the table's judgments never count them; *Read my rack* reads them.
LEARNING_READER: GameReader[TableObservation] = GameReader(read_tile_table, zones=TILE_ZONES, vote=vote_tiles)
VOTE_FRAMES = 5  # frames read again and put to the vote when one reading cannot decide (0: never)
Awaiting = Literal["start", "play", "draw", "timeout", "reveal", "rack"]


def same_table(a: Sequence[Meld], b: Sequence[Meld]) -> bool:
    """The same melds (a meld and its reverse, a group in any order, are the same), in any order.

    >>> a, b = Meld.parse("R1 R2 R3"), Meld.parse("B5 K5 O5")
    >>> same_table([a, b], [Meld.parse("O5 B5 K5"), Meld.parse("R3 R2 R1")]), same_table([a], [a, b])
    (True, False)
    """
    return Counter(a) == Counter(b)


PAGE_TILES = 10  # tiles of the reading the correction shows at a time (two rows of chips)


@dataclass
class Correction:
    """A reading being corrected by hand: the observation, the tiles picked for any of its tiles (its
    unsure ones must be), which tile the picker is on (``None``: none chosen) and which page of the
    reading the screen shows (a meld, or ten of its tiles, at a time; the loose tiles together).

    Opened when the reader was unsure (``disputed`` false), or by the players after a refusal to
    correct a tile the reader misread with confidence (``disputed``)."""

    observation: TableObservation
    fixes: dict[int, Tile]
    for_: Awaiting  # what the corrected reading enters: a play, a draw, or a revealed rack
    chosen: int | None = None
    disputed: bool = False
    page: int = 0

    def __post_init__(self) -> None:
        if self.chosen is not None:
            self.page = self.page_of(self.chosen)

    @property
    def unsure(self) -> tuple[int, ...]:
        return self.observation.uncertain

    @property
    def complete(self) -> bool:
        return all(i in self.fixes for i in self.unsure)

    def tile(self, index: int) -> Tile:
        return self.fixes.get(index, self.observation.tiles[index].tile)

    def groups(self) -> list[tuple[int, ...]]:
        obs = self.observation
        return [*obs.melds, *((i,) for i in obs.loose)]

    def melds(self) -> tuple[Meld, ...]:
        """The melds of the corrected reading (see :meth:`applied`)."""
        return tuple(Meld(tuple(m)) for m in self.applied().table())

    def tiles(self) -> tuple[Tile, ...]:
        return tuple(self.tile(i) for i in range(len(self.observation.tiles)))

    def pages(self) -> list[tuple[int, ...]]:
        """The tile indices of each page: each meld (ten tiles at most a page), then the loose tiles."""
        obs = self.observation
        out: list[tuple[int, ...]] = []
        for run in [*obs.melds, obs.loose]:
            out.extend(tuple(run[k : k + PAGE_TILES]) for k in range(0, len(run), PAGE_TILES))
        return out or [()]

    def page_of(self, index: int) -> int:
        return next((n for n, page in enumerate(self.pages()) if index in page), 0)

    def choose(self, index: int) -> None:
        if 0 <= index < len(self.observation.tiles):
            self.chosen = index
            self.page = self.page_of(index)

    def turn_page(self, step: int) -> None:
        self.page = (self.page + step) % len(self.pages())

    def pick(self, tile: Tile) -> None:
        """``tile`` for the chosen tile (the first unsure one still open if none is chosen); then the
        next unsure tile still open is chosen. Picking what the reader read with confidence takes the
        correction of that tile back."""
        if self.chosen is None:
            self.chosen = self.next_open()
        index = self.chosen
        if index is None:
            return
        if index not in self.unsure and tile == self.observation.tiles[index].tile:
            self.fixes.pop(index, None)
        else:
            self.fixes[index] = tile
        self.chosen = self.next_open()
        if self.chosen is not None:
            self.page = self.page_of(self.chosen)

    def next_open(self) -> int | None:
        return next((i for i in self.unsure if i not in self.fixes), None)

    def journaled(self) -> tuple[ReadingFix, ...]:
        """What the journal keeps of it: each tile picked, what the reader read and how sure it was."""
        obs = self.observation
        return tuple(
            ReadingFix(
                i,
                "tile",
                str(obs.tiles[i].tile),
                str(tile),
                round(float(obs.tiles[i].confidence), 4),
                i not in obs.uncertain,
            )
            for i, tile in sorted(self.fixes.items())
        )

    def applied(self) -> TableObservation:
        """The reading as corrected (every tile sure), its melds grouped again (:func:`regrouped`);
        what the screen outlines once it is refused."""
        return replace(regrouped(self.observation, self.fixes), uncertain=())


def regrouped(obs: TableObservation, changed: Mapping[int, Tile]) -> TableObservation:
    """``obs`` with the tiles of ``changed`` being what it says (no longer unsure), the melds grouped
    again from where the tiles lie and what they now are: the reader cuts a row of tiles at a tile it
    misread, and the tile, corrected, joins it again. A changed tile is taken as turned as its nearest
    neighbour lies (the reader's turn of a tile it misread is suspect: one taken for lying across its
    row is read wrong, and cut off)."""
    if not changed:
        return obs
    tiles = tuple(
        replace(t, tile=changed[i], angle=neighbour_turn(obs.tiles, i)) if i in changed else t
        for i, t in enumerate(obs.tiles)
    )
    melds, loose = group_melds(tiles)
    unsure = tuple(i for i in obs.uncertain if i not in changed)
    return replace(obs, tiles=tiles, melds=tuple(melds), loose=tuple(loose), uncertain=unsure)


def neighbour_turn(tiles: Sequence[SeenTile], index: int) -> float:
    """The turn of the tile lying nearest tile ``index`` (its own when it lies alone)."""
    here = tiles[index].center
    others = [t for k, t in enumerate(tiles) if k != index]
    if not others:
        return tiles[index].angle
    near = min(others, key=lambda t: (t.center[0] - here[0]) ** 2 + (t.center[1] - here[1]) ** 2)
    return near.angle


@dataclass(frozen=True)
class Carried:
    """A tile the players corrected, where it lay: read as ``read`` there again (the reader repeats
    its misread while the tile lies still), it is ``entered`` — nobody corrects it at every move."""

    center: tuple[float, float]
    size: float
    read: Tile
    entered: Tile


def carry(obs: TableObservation, carried: Sequence[Carried]) -> tuple[TableObservation, tuple[Carried, ...]]:
    """``obs`` with the corrections still lying where they were made applied (a tile within a quarter
    of its size of the place, read as it was misread there), and the corrections that were.

    >>> from device.sessions.rummikub_sim import laid_out
    >>> from rules.rummikub import parse_tiles
    >>> obs = laid_out([parse_tiles("O6 O7 O10 J O10")])
    >>> fixed, kept = carry(obs, [Carried(obs.tiles[2].center, 84.0, *parse_tiles("O10 O8"))])
    >>> str(fixed), len(kept)
    ('melds [O6 O7 O8 J O10] loose []', 1)
    """
    changed: dict[int, Tile] = {}
    kept = []
    for entry in carried:
        for i, seen in enumerate(obs.tiles):
            near = math.hypot(seen.center[0] - entry.center[0], seen.center[1] - entry.center[1])
            if i not in changed and seen.tile == entry.read and near < entry.size / 4:
                changed[i] = entry.entered
                kept.append(entry)
                break
    return regrouped(obs, changed), tuple(kept)


def possible(obs: TableObservation) -> TableObservation:
    """The reading with every copy of a tile it shows more often than the set holds (a third R5, a
    third joker) unsure: one of them is misread, and the players say which — a reading no table can
    show is never judged as it is.

    >>> from device.sessions.rummikub_sim import laid_out
    >>> from rules.rummikub import parse_tiles
    >>> melds = [parse_tiles("R13 B13 J"), parse_tiles("R10 J R12"), parse_tiles("J K2 K3")]
    >>> possible(laid_out(melds)).uncertain
    (2, 4, 6)
    """
    copies = Counter(full_set())
    seen = Counter(obs.values)
    extra = [i for i, tile in enumerate(obs.values) if seen[tile] > copies[tile]]
    if not extra:
        return obs
    return replace(obs, uncertain=tuple(sorted({*obs.uncertain, *extra})))


def beside_indices(tiles: Sequence[Tile], table: Sequence[Meld]) -> list[int]:
    """The indices of the tiles of a reading that are not the table's (a rack laid beside the melds,
    what a restore must take away), in reading order."""
    left = Counter(t for m in table for t in m)
    out = []
    for i, tile in enumerate(tiles):
        if left[tile] > 0:
            left[tile] -= 1
        else:
            out.append(i)
    return out


def beside(tiles: Sequence[Tile], table: Sequence[Meld]) -> tuple[Tile, ...]:
    """The tiles of a reading that are not the table's, in reading order.

    >>> from rules.rummikub import parse_tiles
    >>> [str(t) for t in beside(parse_tiles("R1 K5 R2 R3 K5"), [Meld.parse("R1 R2 R3")])]
    ['K5', 'K5']
    """
    return tuple(tiles[i] for i in beside_indices(tiles, table))


@dataclass(frozen=True)
class Verdict:
    """What the last check decided, for the screen: the seat, ``play`` / ``draw`` / ``timeout``, the
    tiles laid (or drawn), when."""

    seat: int
    kind: str
    tiles: int
    at: float


# --- the touches: what the table screen's targets send to the current state ------------------------

TouchName = Literal[
    "draw",  # Draw (a long press too): the camera checks the table is as it was
    "extend",  # +30 s
    "hint",  # Hint (the learning table)
    "read_start",  # Read the drawn tiles
    "read_rack",  # Read the rack (the reveal)
    "next_hand",
    "restored",  # Table restored: the players vouch for it
    "dispute",  # Correct the reading (after a refusal)
    "check",  # Check: the corrected reading entered
    "cancel",  # Cancel: back without entering anything
    "unpick",  # Remove last (a rack being entered)
    "done",  # Done: the rack entered with the picker
    "show_rack",  # Read my rack (the learning table)
    "enter_rack",  # Enter my rack (the learning table): the picker instead
]


@dataclass(frozen=True)
class Touch:
    """A touch without data (``draw``, ``check``, …), as an event for the current state."""

    name: TouchName


@dataclass(frozen=True)
class StarterChosen:
    seat: int


@dataclass(frozen=True)
class Announced:
    seat: int


@dataclass(frozen=True)
class TileChosen:
    """A tile of the reading being corrected tapped: the picker is for it."""

    index: int


@dataclass(frozen=True)
class PageTurned:
    step: int


@dataclass(frozen=True)
class ColourPicked:
    colour: str


@dataclass(frozen=True)
class NumberPicked:
    """A number of the picker: a tile of the colour the picker is on."""

    number: int


@dataclass(frozen=True)
class TilePicked:
    tile: Tile


@dataclass(frozen=True)
class Refused:
    """The reading of the last refused play or draw (kept so the screen outlines the meld the rule
    names, and the players can correct it), and the correction it came from, if any."""

    observation: TableObservation
    for_: Literal["play", "draw"]
    disputed: Correction | None = None


# --- the phases ------------------------------------------------------------------------------------


class Phase(State["RummikubSession"]):
    """A Rummikub phase. Every one of them keeps the camera's latest reading up to date
    (:meth:`RummikubSession.seen`) and then hands it to :meth:`reading`; the other events go to
    :meth:`on`."""

    def handle(self, session: RummikubSession, event: object) -> Phase | None:
        if isinstance(event, Seen):
            obs = session.seen(event)
            return None if obs is None else self.reading(session, obs, event.kind == "requested")
        return self.on(session, event)

    def reading(self, session: RummikubSession, obs: TableObservation, requested: bool) -> Phase | None:
        return None

    def on(self, session: RummikubSession, event: object) -> Phase | None:
        return None

    def turn(self) -> Playing | None:
        """The move this state is part of (a reading asked for during it, its correction): its
        refused reading is the one the screen outlines."""
        return None


@dataclass(eq=False, kw_only=True)
class Picking(Phase):
    """A phase with the tile picker below: the colour it is on is the phase's."""

    colour: str = "R"

    def picked(self, event: object) -> Tile | None:
        """The tile a picker event names (``None``: not a pick, or only the colour changed)."""
        if isinstance(event, ColourPicked):
            self.colour = event.colour
        elif isinstance(event, NumberPicked):
            return Tile.parse(f"{self.colour}{event.number}")
        elif isinstance(event, TilePicked):
            return event.tile
        return None


@dataclass(eq=False, kw_only=True)
class Starting(Phase):
    """Who begins: the players still drawing for it (all, then the tied ones) and what they drew."""

    name: ClassVar[str] = "start"
    contenders: tuple[int, ...]
    drawn: tuple[Tile, ...] = ()

    def on(self, session: RummikubSession, event: object) -> Phase | None:
        if isinstance(event, Touch) and event.name == "read_start":
            return Reading(what="start", back=self)
        if isinstance(event, StarterChosen):
            return session.enter_action(Start(event.seat), self)
        return None


@dataclass(eq=False, kw_only=True)
class Playing(Phase):
    """The player to move lays and rearranges; his seat button asks for the table's reading. The
    reading of his last refused play or draw is this state's (``refused``)."""

    name: ClassVar[str] = "playing"
    refused: Refused | None = None

    def turn(self) -> Playing:
        return self

    def on(self, session: RummikubSession, event: object) -> Phase | None:
        idle = session.stage is self  # not while a reading is awaited or corrected
        if isinstance(event, ButtonEvent):
            if event.kind == "release" or session.pressed_out_of_turn(event.seat):
                return None
            return Reading(what="play" if event.kind == "press" else "draw", back=self)
        if isinstance(event, TimerSignal):
            if event.kind != "timeout":
                return None
            if session.camera_lost is not None:
                return session.timed_out(session.live, self)  # no camera: the table as last seen
            return Reading(what="timeout", back=self)
        if isinstance(event, Announced):
            session.submit(Announce(event.seat))
        elif isinstance(event, Touch):
            if event.name == "draw":
                return Reading(what="draw", back=self)
            if event.name == "extend":
                session.take_extension()
            elif idle and event.name == "dispute":
                return self.dispute(session)
            elif idle and event.name == "show_rack" and session.rack_to_show() is not None:
                return Reading(what="rack", back=self)
            elif idle and event.name == "enter_rack" and session.rack_to_show() is not None:
                return EnteringRack(back=self)
            elif idle and event.name == "hint":
                session.take_hint()
        return None

    def dispute(self, session: RummikubSession) -> Phase | None:
        """*Correct the reading* after a refusal: every tile of the refused reading can be tapped and
        picked (the meld the refusal names first), then *Check* judges the corrected reading."""
        refused = self.refused
        if refused is None or not session.can_dispute():
            return None
        if refused.disputed is not None:  # the corrected reading was refused: go on correcting it
            corr = refused.disputed
            corr.chosen = None
        else:
            corr = Correction(refused.observation, {}, refused.for_, disputed=True)
            # The page of the meld the refusal names, or of the first tile not on the before table.
            named = session.offending() or tuple(session.differs(refused.observation))
            corr.page = corr.page_of(named[0]) if named else 0
        return Correcting(correction=corr, back=self)


@dataclass(eq=False, kw_only=True)
class Reading(Phase):
    """A reading asked for (on enter) and awaited: ``what`` it is for, the state it was asked in
    (``back``: the events that are not the reading go to it), how many frames vote, and for a rack
    read at the reveal, whose."""

    what: Awaiting
    back: Phase
    frames: int = 1
    seat: int | None = None

    @property
    def phase(self) -> str:
        return self.what if self.what in ("start", "reveal") else "checking"

    @property
    def voting(self) -> bool:
        return self.frames > 1

    def enter(self, session: RummikubSession) -> None:
        session.asked += 1
        session.request_reading(self.frames)

    def turn(self) -> Playing | None:
        return self.back.turn()

    def reading(self, session: RummikubSession, obs: TableObservation, requested: bool) -> Phase | None:
        return session.judge(self, obs) if requested else None

    def on(self, session: RummikubSession, event: object) -> Phase | None:
        return self.back.on(session, event)

    def label(self) -> str:
        return f"Reading({self.what}{f', {self.frames} frames' if self.voting else ''})"


@dataclass(eq=False, kw_only=True)
class Correcting(Picking):
    """A reading being corrected by hand (:class:`Correction`), for a play, a draw or a revealed
    rack; *Cancel* goes back to the state it came from, whose events (a press, the timeout) it keeps."""

    correction: Correction
    back: Phase

    @property
    def phase(self) -> str:
        return "reveal" if isinstance(self.back, Revealing) else "correcting"

    def turn(self) -> Playing | None:
        return self.back.turn()

    def on(self, session: RummikubSession, event: object) -> Phase | None:
        corr = self.correction
        if isinstance(event, ColourPicked | NumberPicked | TilePicked):
            tile = self.picked(event)
            if tile is not None:
                corr.pick(tile)
        elif isinstance(event, TileChosen):
            corr.choose(event.index)
        elif isinstance(event, PageTurned):
            corr.turn_page(event.step)
        elif isinstance(event, Touch) and event.name == "check":
            return session.corrected(self) if corr.complete else None
        elif isinstance(event, Touch) and event.name == "cancel":
            return self.back  # back to the table without entering anything (a press reads it again)
        else:
            return self.back.on(session, event)  # a press, the timeout, Draw, +30 s: the move's
        return None


@dataclass(eq=False, kw_only=True)
class EnteringRack(Picking):
    """The learning table: the rack (or the tiles drawn since it was shown) entered with the picker."""

    name: ClassVar[str] = "playing"
    entry: list[Tile] = field(default_factory=list)
    back: Playing

    def on(self, session: RummikubSession, event: object) -> Phase | None:
        if isinstance(event, ColourPicked | NumberPicked | TilePicked):
            tile = self.picked(event)
            if tile is not None:
                self.entry.append(tile)
        elif isinstance(event, Touch) and event.name == "unpick":
            if self.entry:
                self.entry.pop()
        elif isinstance(event, Touch) and event.name == "done":
            return self.back if session.show_tiles(tuple(self.entry)) else None
        elif isinstance(event, Touch) and event.name == "cancel":
            return self.back
        else:
            return self.back.on(session, event)  # a press reads the table: the entry is dropped
        return None


@dataclass(eq=False, kw_only=True)
class Restoring(Phase):
    """After a timeout on a changed table: the next player's clock waits until the camera sees the
    before table again, or the players vouch for it (*Table restored*)."""

    name: ClassVar[str] = "restore"

    def enter(self, session: RummikubSession) -> None:
        session.timer.pause()

    def reading(self, session: RummikubSession, obs: TableObservation, requested: bool) -> Phase | None:
        return Playing() if session.is_before(obs) else None

    def on(self, session: RummikubSession, event: object) -> Phase | None:
        if isinstance(event, Touch) and event.name == "restored":
            return Playing()
        return None

    def exit(self, session: RummikubSession) -> None:
        if not session.finished:
            session.start_clock()  # the next move's clock starts now


@dataclass(eq=False, kw_only=True)
class Revealing(Picking):
    """A rack count reached 0: the next rack still to be shown is read by the camera (its seat's
    press, or *Read the rack*) or entered with the picker (``entry``)."""

    name: ClassVar[str] = "reveal"
    entry: list[Tile] = field(default_factory=list)

    def on(self, session: RummikubSession, event: object) -> Phase | None:
        seat = session.to_reveal()
        tile = self.picked(event)
        if tile is not None:
            self.entry.append(tile)
        elif seat is not None and self.reads(event, seat):
            return Reading(what="reveal", back=self, seat=seat)
        elif isinstance(event, Touch) and event.name == "unpick":
            if self.entry:
                self.entry.pop()
        elif isinstance(event, Touch) and event.name == "done" and seat is not None:
            session.reveal_seat(seat, tuple(self.entry))
        return None

    @staticmethod
    def reads(event: object, seat: int) -> bool:
        """Whether ``event`` asks the camera for the rack of ``seat``: his press, *Read the rack*."""
        if isinstance(event, ButtonEvent):
            return event.kind == "press" and event.seat == seat
        return isinstance(event, Touch) and event.name == "read_rack"


@dataclass(eq=False, kw_only=True)
class HandOver(Phase):
    """A hand is scored and the game goes on: *Next hand*."""

    name: ClassVar[str] = "hand_over"

    def on(self, session: RummikubSession, event: object) -> Phase | None:
        if isinstance(event, Touch) and event.name == "next_hand":
            session.carried = ()
            session.submit(NextHand())
            # Nothing of the last hand stays on the screen: its last line, its table as last seen.
            session.verdict = None
            session.live = None
        return None


@dataclass(eq=False, kw_only=True)
class Over(Phase):
    name: ClassVar[str] = "over"

    def handle(self, session: RummikubSession, event: object) -> Phase | None:
        return None


@register_session
class RummikubSession(GameSession):
    game = "rummikub"
    progress_caption = "Score over the hands"
    table_screen = "rummikub_table"
    reader = TILE_READER
    # Rummikub's refusals have their own sentences (``rummikub_invalid_meld_group_colour``: Kalooki
    # refuses an ``invalid_meld`` too, of cards); ``game_over`` and ``not_your_turn`` are every game's.
    own_rule_texts = frozenset(
        {
            "already_opened",
            "already_revealed",
            "awaiting_reveal",
            "hand_over",
            "invalid_meld",
            "no_extension_left",
            "no_tile_played",
            "not_on_rack",
            "not_started",
            "opening_too_low",
            "rack_count",
            "rack_mismatch",
            "rack_table_changed",
            "rack_unclear",
            "reveal_mismatch",
            "start_count",
            "start_tie",
            "start_unclear",
            "table_changed",
            "table_touched_before_opening",
            "tile_removed",
        }
    )

    def __init__(self, **kwargs: Unpack[SessionArgs]) -> None:
        super().__init__(**kwargs)
        self.asked = 0  # readings asked for so far (the simulated table answers each once)
        self.votes = 0  # votes asked for so far in this game (the bench counts them)
        self.vote_frames = VOTE_FRAMES
        self.live: TableObservation | None = None  # the camera's latest reading
        self.carried: tuple[Carried, ...] = ()  # corrections of tiles still lying where they were made
        self._carried_in: tuple[TableObservation, tuple[Carried, ...]] | None = None  # the last requested
        self.verdict: Verdict | None = None
        # The learning table (``options.learning``): the coach, and the rack zone the camera keeps apart.
        self.coach = RummikubCoach(self) if self.rummikub.options.learning else None
        if self.coach is not None:
            self.reader = LEARNING_READER
            coach = self.coach
            self.listeners.append(lambda _session, _act: coach.prepare())

    # --- starting and resuming -----------------------------------------------------------------------

    @classmethod
    def start(cls, journal: Journal, options: Options, names: list[str], timer: MoveTimer) -> GameSession:
        """A new game in referee mode: the engine sees the table, never the racks."""
        referee = type(options).from_dict({**options.to_dict(), "information": "referee"})
        return super().start(journal, referee, names, timer)

    @classmethod
    def reviewed(
        cls, options: Options, history: list[Action], names: list[str]
    ) -> dict[str, Any]:  # Any: review_json
        """The learning table's review in the export: each player's moves, tiles laid against tiles
        possible, the best move of each, the hints, the costliest moves."""
        if not isinstance(options, RummikubOptions):
            return {}
        return review_json(options, history, names)

    def initial_stage(self) -> Phase:
        return self.settled()

    def settled(self) -> Phase:
        """The state the rules' state and the last action call for: a new game or a resume, and after
        every action that moves the game on (not an announcement, an extension, a rack shown, a hint).
        A timeout on a changed table is restored first, after a kill -9 too."""
        state = self.rummikub
        if self.finished:
            return Over()
        if state.between_hands:
            return HandOver()
        if state.ended is not None:
            return Revealing()
        if state.turn is None:
            return Starting(contenders=tuple(range(len(self.players))))
        last = self.history[-1] if self.history else None
        if isinstance(last, Timeout) and last.manipulated:
            return Restoring()
        return Playing()

    def acted(self, act: Action) -> None:
        if self.machine is not None and not isinstance(act, (Announce, Extend, ShowRack, TakeHint)):
            self.machine.go(self.settled(), cause=type(act).__name__)

    def begin_move(self) -> None:
        self.start_clock(paused=isinstance(self.stage, Restoring))

    def start_clock(self, *, paused: bool = False) -> None:
        """The move's clock: started for the seat to move (paused while the table is restored), with
        the extensions taken earlier in this move (a resume)."""
        if self.current_seat is None:
            self.timer.stop()  # nobody to move: who starts, the racks shown, between hands
            return
        super().begin_move()
        if paused:
            self.timer.pause()  # the next clock starts once the table is restored
            return
        for act in reversed(self.history):
            if not isinstance(act, Extend):
                break
            self.timer.extend(self.rummikub.options.extension_seconds)

    # --- what the screen shows -----------------------------------------------------------------------

    @property
    def rummikub(self) -> RummikubState:
        state = self.state
        assert isinstance(state, RummikubState)
        return state

    @property
    def phase(self) -> RummikubPhase:
        phase = super().phase
        assert phase in get_args(RummikubPhase)
        return cast(RummikubPhase, phase)

    @property
    def awaiting(self) -> Awaiting | None:
        """What the reading awaited is for (``None``: none is): the current state's."""
        stage = self.stage
        return stage.what if isinstance(stage, Reading) else None

    @property
    def correction(self) -> Correction | None:
        """The reading being corrected by hand: the current state's."""
        stage = self.stage
        return stage.correction if isinstance(stage, Correcting) else None

    @property
    def refused(self) -> TableObservation | None:
        """The reading of the last refused play or draw of this move (the move's :class:`Playing`)."""
        stage = self.stage
        turn = stage.turn() if isinstance(stage, Phase) else None
        return None if turn is None or turn.refused is None else turn.refused.observation

    @property
    def contenders(self) -> tuple[int, ...]:
        """Who still draws for the start (everyone outside the start)."""
        stage = self.stage
        if isinstance(stage, Reading):
            stage = stage.back
        return stage.contenders if isinstance(stage, Starting) else tuple(range(len(self.players)))

    @property
    def before(self) -> tuple[Meld, ...]:
        """The table as it was at the start of the move (the last accepted reading)."""
        return self.rummikub.table

    def to_reveal(self) -> int | None:
        """The next seat whose final rack is still to be shown."""
        state = self.rummikub
        if state.ended is None or state.between_hands or self.finished:
            return None
        for seat in range(len(self.players)):
            if not state.rack_known(seat):
                return seat
        return None

    def offending(self) -> tuple[int, ...]:
        """The tile indices (of :attr:`refused`) of the meld the last refusal names."""
        refusal, obs = self.refusal, self.refused
        if refusal is None or obs is None:
            return ()
        text = str(refusal.details.get("meld", ""))
        tiles = refusal.details.get("tiles")
        named = set(tiles) if isinstance(tiles, list | tuple) else set()
        if text:
            for group in [*obs.melds, *((i,) for i in obs.loose)]:
                if " ".join(str(obs.tiles[i].tile) for i in group) == text:
                    return tuple(group)
        if named:
            return tuple(i for i, t in enumerate(obs.tiles) if str(t.tile) in named)
        return ()

    def differs(self, obs: TableObservation | None = None) -> list[int]:
        """The tiles of a reading (the live one by default) not on the before table: what the
        restore view marks."""
        obs = obs if obs is not None else self.live
        return [] if obs is None else beside_indices(obs.values, self.before)

    def missing(self, obs: TableObservation | None = None) -> list[Tile]:
        """The tiles of the before table the reading does not show."""
        obs = obs if obs is not None else self.live
        return played_tiles([obs.values] if obs is not None else [], self.before)[0]

    def is_before(self, obs: TableObservation) -> bool:
        """Whether a reading shows the before table exactly (every meld as it was)."""
        if obs.uncertain:
            return False
        melds = [Meld(tuple(m)) for m in obs.table()]
        return same_table(melds, self.before)

    def score_progress(self) -> list[list[int]]:
        """Each player's running total after each scored hand."""
        progress: list[list[int]] = [[] for _ in self.players]
        totals = [0] * len(self.players)
        for hand in self.rummikub.hand_scores:
            for seat, points in enumerate(hand):
                totals[seat] += points
                progress[seat].append(totals[seat])
        return progress

    def end_button(self) -> tuple[str, str] | None:
        """The learning table's review of every move."""
        return None if self.coach is None else (msgid("Review"), "rummikub_review")

    def can_dispute(self) -> bool:
        """Whether the players may correct the reading of the last refusal (a play or a draw refused
        on what the camera read): a tile misread with confidence never costs a legal move."""
        stage = self.stage
        return isinstance(stage, Playing) and self.refusal is not None and stage.refused is not None

    # --- the touches: each an event for the current state ----------------------------------------------

    def draw(self) -> None:
        """The Draw touch (or a long press): the camera checks the table is as it was, then ``Draw``."""
        self.send(Touch("draw"))

    def read_start(self) -> None:
        self.send(Touch("read_start"))

    def choose_starter(self, seat: int) -> None:
        self.send(StarterChosen(seat))

    def read_rack(self) -> None:
        self.send(Touch("read_rack"))

    def announce(self, seat: int) -> None:
        """The seat, not yet opened, announces that he will open next turn (RULES.md §3)."""
        self.send(Announced(seat))

    def extend(self) -> None:
        """The player to move takes a time extension."""
        self.send(Touch("extend"))

    def next_hand(self) -> None:
        self.send(Touch("next_hand"))

    def table_restored(self) -> None:
        """The *Table restored* touch: the players vouch for it (the camera lost, or misreading it)."""
        self.send(Touch("restored"))

    def choose_tile(self, index: int) -> None:
        """A tile of the reading tapped while correcting: the picker is for it (any tile, sure or not)."""
        self.send(TileChosen(index))

    choose_unsure = choose_tile

    def turn_page(self, step: int) -> None:
        self.send(PageTurned(step))

    def dispute(self) -> None:
        """*Correct the reading* after a refusal (:meth:`Playing.dispute`)."""
        self.send(Touch("dispute"))

    def cancel_correction(self) -> None:
        self.send(Touch("cancel"))

    def pick_colour(self, colour: str) -> None:
        self.send(ColourPicked(colour))

    def pick(self, tile: Tile) -> None:
        """A tile picked: for the tile chosen (then the next unsure one), or the rack being entered."""
        self.send(TilePicked(tile))

    def pick_number(self, number: int) -> None:
        self.send(NumberPicked(number))

    def pick_joker(self) -> None:
        self.send(TilePicked(JOKER))

    def unpick(self) -> None:
        """Take back the last tile of the rack entry."""
        self.send(Touch("unpick"))

    def enter_correction(self) -> None:
        """*Check* on the corrected reading (:meth:`corrected`)."""
        self.send(Touch("check"))

    def corrected(self, corrected: Correcting) -> Phase | None:
        """The corrected reading of ``corrected`` entered: the play, the draw or the rack as
        corrected; the next state (``None``: taken, the game is where the rules say)."""
        corr = corrected.correction
        fixes = corr.journaled()
        if corr.for_ == "reveal":
            seat = self.to_reveal()
            tiles = beside(corr.tiles(), self.before)
            return None if seat is not None and self.reveal_seat(seat, tiles, fixes) else corrected.back
        back = corrected.back
        if corr.for_ == "draw":
            return self._draw(corr.tiles(), corr.applied(), back, fixes, corr)
        return self._play(corr.melds(), corr.applied(), back, fixes, corr)

    def enter_rack(self) -> None:
        """*Done* on the rack entered with the picker."""
        self.send(Touch("done"))

    # --- readings ------------------------------------------------------------------------------------

    def seen(self, seen: Seen) -> TableObservation | None:
        """A reading of the table, as every state takes it: the corrections still lying where they
        were made applied, the latest reading kept (:attr:`live`), the refused reading let go once the
        table differs from it. ``None``: not a tile reading."""
        obs = seen.observation
        if not isinstance(obs, TableObservation):
            return None
        obs, kept = carry(possible(obs), self.carried)
        if seen.kind == "requested":
            self._carried_in = (obs, kept)
        self.live = obs
        turn = self.stage.turn() if isinstance(self.stage, Phase) else None
        if turn is not None and turn.refused is not None and not obs.same_as(turn.refused.observation):
            turn.refused = None  # the refused tiles were taken back or moved: no red outline is left
        return obs

    def judge(self, asked: Reading, obs: TableObservation) -> Phase | None:
        """The reading ``asked`` awaited: judged for what it was asked for; the next state (``None``:
        an action was taken and the game is where the rules say)."""
        what, back = asked.what, asked.back
        if what in ("play", "draw", "timeout", "rack"):
            vote = self._vote(asked, obs)
            if vote is not None:
                return vote
        if what == "start":
            assert isinstance(back, Starting)
            return self._read_start(obs, back)
        if what == "play":
            if obs.uncertain:
                return Correcting(correction=Correction(obs, {}, "play", obs.uncertain[0]), back=back)
            return self._play(tuple(Meld(tuple(m)) for m in obs.table()), obs, back)
        if what == "draw":
            return self._draw(obs.values, obs, back)
        if what == "timeout":
            return self.timed_out(obs, back)
        if what == "reveal":
            return self._read_rack(obs, asked)
        self._read_shown_rack(obs)
        return back

    def _vote(self, asked: Reading, obs: TableObservation) -> Reading | None:
        """The table read again before ``obs`` is judged: over the next frames, put to the vote
        (``vision.tile_vote``), once per press, when one photo cannot decide — a tile is unsure, or the
        reading would cost the player (a play refused: a "black 7" in a blue run, a tile not seen; a
        draw refused; a timeout on a changed table; a rack shown with a tile unsure, in the rack zone
        too) — so that one bad frame does not."""
        if asked.voting or self.vote_frames < 2 or self.camera_lost is not None:
            return None
        if asked.what == "rack":
            if not obs.whole().uncertain:
                return None
        elif not obs.uncertain and not self._costly(asked.what, obs):
            return None
        self.votes += 1
        log.info("reading again over %d frames: %s", self.vote_frames, obs)
        return Reading(what=asked.what, back=asked.back, frames=self.vote_frames)

    def _costly(self, what: Awaiting, obs: TableObservation) -> bool:
        """Whether judging ``obs`` as read would go against the player to move."""
        if what == "play":
            try:
                self.state.apply(Play(tuple(Meld(tuple(m)) for m in obs.table())))
            except IllegalAction:
                return True
            return False
        return not self.is_before(obs)  # a draw, a timeout

    def enter_action(self, act: Action, back: Phase) -> Phase | None:
        """Submit ``act``: taken, the game is where the rules say (``None``); refused, ``back``."""
        return None if self.submit(act) else back

    # --- the learning table: the rack shown, hints (device/sessions/rummikub_coach.py) ----------------

    def rack_to_show(self) -> tuple[int, int] | None:
        """At a learning table, ``(tiles to show, tiles on the rack)`` of the player to move while the
        coach does not know his whole rack (only the tiles drawn since he last showed it, when it
        knows the rest); ``None`` when it knows it, or there is nothing to show."""
        seat = self.current_seat
        if self.coach is None or seat is None or self.phase not in ("playing", "correcting", "checking"):
            return None
        count = self.rummikub.rack_counts[seat]
        known = self.coach.known.partial(seat)
        if known is None:
            return count, count
        return (known[1], count) if known[1] else None

    def show_rack(self) -> None:
        """*Read my rack*: the camera reads the tiles laid face up beside the table."""
        self.send(Touch("show_rack"))

    def begin_rack_entry(self) -> None:
        """*Enter my rack*: the tile picker fills the rack (or the drawn tiles) instead."""
        self.send(Touch("enter_rack"))

    def cancel_rack_entry(self) -> None:
        self.send(Touch("cancel"))

    def enter_shown_rack(self) -> None:
        """*Done* on the rack (or the drawn tiles) entered with the picker."""
        self.send(Touch("done"))

    def _read_shown_rack(self, obs: TableObservation) -> None:
        """*Read my rack*: the tiles in the rack zone and any beside the melds that are not the table's."""
        rack = obs.whole()
        if rack.uncertain:
            self.refuse("rack_unclear", "a tile of the rack is not clear: lay it straight and read again")
            return
        if self.missing(obs):
            self.refuse("rack_table_changed", "show the rack before you change the table: put it back")
            return
        self.show_tiles(beside(rack.values, self.before))

    def show_tiles(self, tiles: tuple[Tile, ...]) -> bool:
        """The tiles shown: the whole rack, or the ones drawn since the rack was last shown."""
        seat, wanted = self.current_seat, self.rack_to_show()
        if seat is None or wanted is None or self.coach is None:
            return False
        missing, count = wanted
        if len(tiles) == count:
            return self.submit(ShowRack(seat, tiles))
        known = self.coach.known.partial(seat)
        if known is not None and len(tiles) == missing:
            return self.submit(ShowRack(seat, (*known[0], *tiles)))
        self.refuse(
            "rack_count",
            f"{len(tiles)} tiles shown: the whole rack is {count}, the tiles drawn {missing}",
            seen=len(tiles),
            count=count,
            missing=missing,
        )
        return False

    def hint(self) -> None:
        """*Hint*: the first asks how many tiles the best move lays, the second the move itself."""
        self.send(Touch("hint"))

    def take_hint(self) -> None:
        seat = self.current_seat
        if self.coach is None or seat is None or self.coach.mover_rack() is None:
            return
        stage = self.coach.hint_stage()
        if stage < 2:
            self.submit(TakeHint(seat, stage + 1))

    def take_extension(self) -> None:
        seat = self.current_seat
        if seat is not None and self.submit(Extend(seat)):
            self.timer.extend(self.rummikub.options.extension_seconds)

    # --- judging a reading -------------------------------------------------------------------------------

    def _read_start(self, obs: TableObservation, starting: Starting) -> Phase | None:
        obs = obs.whole()  # the drawn tiles, wherever they lie (the rack zone too)
        contenders = starting.contenders
        if obs.uncertain:
            self.refuse("start_unclear", "a drawn tile is not clear: lay it straight and read again")
            return starting
        if len(obs.tiles) != len(contenders):
            self.refuse(
                "start_count",
                f"{len(obs.tiles)} tiles seen, {len(contenders)} players draw",
                seen=len(obs.tiles),
                wanted=len(contenders),
            )
            return starting
        drawn = tuple(t.tile for t in sorted(obs.tiles, key=lambda t: t.center[0]))
        numbers = [0 if t.is_joker else t.number for t in drawn]
        top = max(numbers)
        tied = tuple(seat for seat, n in zip(contenders, numbers, strict=True) if n == top)
        if len(tied) == 1:
            return self.enter_action(Start(tied[0]), Starting(contenders=contenders, drawn=drawn))
        names = ", ".join(self.players[s].name for s in tied)
        self.refuse("start_tie", f"{names} drew {top}: they draw again", names=names, number=top)
        return Starting(contenders=tied, drawn=drawn)

    def _judged(self, act: Action, kind: str, fixes: Sequence[ReadingFix] = ()) -> bool:
        """Submit the mover's ``act`` (with the corrections of the reading it came from); when taken,
        the verdict says how many tiles left (or joined) his rack."""
        seat, counts = self.current_seat, self.rummikub.rack_counts
        if not self.submit(act, fixes):
            return False
        if seat is not None:
            moved = abs(self.rummikub.rack_counts[seat] - counts[seat])
            self.verdict = Verdict(seat, kind, moved, self.timer.now())
        return True

    def _play(
        self,
        melds: tuple[Meld, ...],
        obs: TableObservation,
        back: Phase,
        fixes: Sequence[ReadingFix] = (),
        corr: Correction | None = None,
    ) -> Phase | None:
        if self._judged(Play(melds), "play", fixes):
            self._carry_on(corr.observation if corr is not None else obs, fixes)
            return None
        return Playing(refused=Refused(obs, "play", corr))

    def _draw(
        self,
        tiles: Sequence[Tile],
        obs: TableObservation,
        back: Phase,
        fixes: Sequence[ReadingFix] = (),
        corr: Correction | None = None,
    ) -> Phase | None:
        if played_tiles(self.before, [tiles]) != ([], []):
            self.refuse("table_changed", "the table is not as it was: put it back, then draw")
            return Playing(refused=Refused(obs, "draw", corr))
        if self._judged(Draw(), "draw", fixes):
            self._carry_on(corr.observation if corr is not None else obs, fixes)
            return None
        return back

    def _carry_on(self, base: TableObservation, fixes: Sequence[ReadingFix]) -> None:
        """After an action taken on the reading ``base``: the corrections that still lie where they
        were made, and the tiles just corrected — read so again where they lie, they are corrected."""
        kept = self._carried_in[1] if self._carried_in is not None and self._carried_in[0] is base else ()
        new = tuple(
            Carried(
                base.tiles[f.item].center, base.tiles[f.item].size, Tile.parse(f.read), Tile.parse(f.entered)
            )
            for f in fixes
            if f.misread and f.read and f.item < len(base.tiles)
        )
        self.carried = (*kept, *new)

    def timed_out(self, obs: TableObservation | None, back: Phase) -> Phase | None:
        """``Timeout``: the table changed (3 tiles; then restored, :class:`Restoring`) or not (1)."""
        changed = obs is not None and not self.is_before(obs)
        return None if self._judged(Timeout(changed), "timeout") else back

    def _read_rack(self, obs: TableObservation, asked: Reading) -> Phase | None:
        obs = obs.whole()  # a rack laid in the rack zone, or beside the melds
        seat, back = asked.seat, asked.back
        if seat is None or seat != self.to_reveal():
            return back
        if obs.uncertain:
            return Correcting(correction=Correction(obs, {}, "reveal", obs.uncertain[0]), back=back)
        return None if self.reveal_seat(seat, beside(obs.values, self.before)) else back

    def reveal_seat(self, seat: int, tiles: tuple[Tile, ...], fixes: Sequence[ReadingFix] = ()) -> bool:
        return self.submit(RevealRack(seat, tiles), fixes)
