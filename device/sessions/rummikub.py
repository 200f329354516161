"""Rummikub at the table, in referee mode: the racks stay hidden, the camera reads the table.

The engine (``rules.rummikub`` with ``information="referee"``) holds the table as it was at the
start of the move (the *before* table), each rack's tile count and the pool count; the device sees
the table through ``vision.read_tiles`` and the seat buttons. Every game is played in referee mode
(:meth:`RummikubSession.start` says so in the options it journals).

Phases (:attr:`RummikubSession.phase`):

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
from dataclasses import dataclass, replace
from typing import Any, Literal

from device.camera_view import GameReader
from device.events import Seen
from device.i18n import msgid
from device.journal import Journal, ReadingFix
from device.session import GameSession, register_session
from device.sessions.rummikub_coach import RummikubCoach, review_json
from device.timer import MoveTimer
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
from vision.tiles import SeenTile, TableObservation, read_tiles

__all__ = [
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

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.awaiting: Awaiting | None = None  # what the requested reading is for
        self.asked = 0  # readings asked for so far (the simulated table answers each once)
        self.voting = False  # the reading asked for is a vote of several frames
        self.votes = 0  # votes asked for so far in this game (the bench counts them)
        self.vote_frames = VOTE_FRAMES
        self.live: TableObservation | None = None  # the camera's latest reading
        self.refused: TableObservation | None = None  # the reading of the last refused play or draw
        self.refused_for: Awaiting | None = None  # which: "play" or "draw"
        self.disputed: Correction | None = None  # the correction that reading came from, if any
        self.carried: tuple[Carried, ...] = ()  # corrections of tiles still lying where they were made
        self._carried_in: tuple[TableObservation, tuple[Carried, ...]] | None = None  # the last requested
        self.correction: Correction | None = None
        self.contenders: tuple[int, ...] = tuple(range(len(self.players)))  # the starting draw's
        self.drawn: tuple[Tile, ...] = ()  # the tiles the contenders drew, in their seat order
        self.revealing: int | None = None  # the seat whose rack the camera reads
        self.rack_entry: list[Tile] = []  # a rack entered with the picker
        self.picker_colour = "R"
        self.restoring = False
        self.verdict: Verdict | None = None
        # The learning table (``options.learning``): the coach, and a rack being entered with the picker.
        self.coach = RummikubCoach(self) if self.rummikub.options.learning else None
        self.entering_rack = False
        if self.coach is not None:
            coach = self.coach
            self.listeners.append(lambda _session, _act: coach.prepare())
        last = self.history[-1] if self.history else None
        if isinstance(last, Timeout) and last.manipulated and not self.finished:
            self.restoring = True  # resumed while the table was being restored

    # --- starting and resuming -----------------------------------------------------------------------

    @classmethod
    def start(cls, journal: Journal, options: Options, names: list[str], timer: MoveTimer) -> GameSession:
        """A new game in referee mode: the engine sees the table, never the racks."""
        referee = type(options).from_dict({**options.to_dict(), "information": "referee"})
        return super().start(journal, referee, names, timer)

    @classmethod
    def reviewed(cls, options: Options, history: list[Action], names: list[str]) -> dict[str, Any]:
        """The learning table's review in the export: each player's moves, tiles laid against tiles
        possible, the best move of each, the hints, the costliest moves."""
        if not isinstance(options, RummikubOptions):
            return {}
        return review_json(options, history, names)

    def begin_move(self) -> None:
        if self.current_seat is None:
            self.timer.stop()  # nobody to move: who starts, the racks shown, between hands
            return
        super().begin_move()
        if self.restoring:
            self.timer.pause()  # the next clock starts once the table is restored
            return
        # Extensions taken earlier in this move (a resume) still count.
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
        state = self.rummikub
        if self.finished:
            return "over"
        if state.between_hands:
            return "hand_over"
        if state.ended is not None:
            return "reveal"
        if state.turn is None:
            return "start"
        if self.restoring:
            return "restore"
        if self.correction is not None:
            return "correcting"
        if self.awaiting is not None:
            return "checking"
        return "playing"

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
        named = set(refusal.details.get("tiles", ()) or ())
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

    # --- the seat buttons and the touches --------------------------------------------------------------

    def on_press(self, seat: int) -> None:
        phase = self.phase
        if phase in ("playing", "correcting", "checking"):
            if self.pressed_out_of_turn(seat):
                return
            self.correction = None
            self._ask("play")
        elif phase == "reveal" and seat == self.to_reveal():
            self.read_rack()

    def on_hold(self, seat: int) -> None:
        if self.phase in ("playing", "correcting", "checking") and not self.pressed_out_of_turn(seat):
            self.draw()

    def draw(self) -> None:
        """The Draw touch (or a long press): the camera checks the table is as it was, then ``Draw``."""
        if self.phase in ("playing", "correcting", "checking"):
            self.correction = None
            self._ask("draw")

    def read_start(self) -> None:
        if self.phase == "start":
            self._ask("start")

    def choose_starter(self, seat: int) -> None:
        if self.phase == "start":
            self.submit(Start(seat))

    def read_rack(self) -> None:
        seat = self.to_reveal()
        if seat is not None:
            self.revealing = seat
            self._ask("reveal")

    def announce(self, seat: int) -> None:
        """The seat, not yet opened, announces that he will open next turn (RULES.md §3)."""
        self.submit(Announce(seat))

    def extend(self) -> None:
        """The player to move takes a time extension."""
        seat = self.current_seat
        if (
            seat is not None
            and self.phase in ("playing", "checking", "correcting")
            and self.submit(Extend(seat))
        ):
            self.timer.extend(self.rummikub.options.extension_seconds)

    def next_hand(self) -> None:
        if self.phase == "hand_over":
            self.carried = ()
            self.submit(NextHand())
            self.contenders = tuple(range(len(self.players)))
            self.drawn = ()
            # Nothing of the last hand stays on the screen: its last line, its table as last seen.
            self.verdict = None
            self.live = self.refused = None

    def table_restored(self) -> None:
        """The *Table restored* touch: the players vouch for it (the camera lost, or misreading it)."""
        if self.phase == "restore":
            self._restored()

    # --- the tile picker -------------------------------------------------------------------------------

    def choose_tile(self, index: int) -> None:
        """A tile of the reading tapped while correcting: the picker is for it (any tile, sure or not)."""
        if self.correction is not None:
            self.correction.choose(index)

    choose_unsure = choose_tile

    def turn_page(self, step: int) -> None:
        if self.correction is not None:
            self.correction.turn_page(step)

    def can_dispute(self) -> bool:
        """Whether the players may correct the reading of the last refusal (a play or a draw refused
        on what the camera read): a tile misread with confidence never costs a legal move."""
        return (
            self.phase == "playing"
            and self.refusal is not None
            and self.refused is not None
            and self.refused_for in ("play", "draw")
        )

    def dispute(self) -> None:
        """*Correct the reading* after a refusal: every tile of the refused reading can be tapped and
        picked (the meld the refusal names first), then *Check* judges the corrected reading."""
        if not self.can_dispute():
            return
        assert self.refused is not None and self.refused_for is not None
        if self.disputed is not None:  # the corrected reading was refused: go on correcting it
            corr = self.disputed
            corr.chosen = None
        else:
            corr = Correction(self.refused, {}, self.refused_for, disputed=True)
            # The page of the meld the refusal names, or of the first tile not on the before table.
            named = self.offending() or tuple(self.differs(self.refused))
            corr.page = corr.page_of(named[0]) if named else 0
        self.correction = corr

    def cancel_correction(self) -> None:
        """*Cancel*: back to the table without entering anything (a press reads it again)."""
        self.correction = None

    def pick_colour(self, colour: str) -> None:
        self.picker_colour = colour

    def pick(self, tile: Tile) -> None:
        """A tile picked: for the tile chosen (then the next unsure one), or the rack being entered."""
        corr = self.correction
        if corr is not None:
            corr.pick(tile)
        elif self.phase == "reveal" or self.entering_rack:
            self.rack_entry.append(tile)

    def pick_number(self, number: int) -> None:
        self.pick(Tile.parse(f"{self.picker_colour}{number}"))

    def pick_joker(self) -> None:
        self.pick(JOKER)

    def unpick(self) -> None:
        """Take back the last tile of the rack entry."""
        if self.rack_entry:
            self.rack_entry.pop()

    def enter_correction(self) -> None:
        """*Check* on the corrected reading: the play (or the rack) as corrected."""
        corr = self.correction
        if corr is None or not corr.complete:
            return
        self.correction = None
        fixes = corr.journaled()
        if corr.for_ == "reveal":
            self._reveal(beside(corr.tiles(), self.before), fixes)
        elif corr.for_ == "draw":
            self._draw(corr.tiles(), corr.applied(), fixes, corr)
        else:
            self._play(corr.melds(), corr.applied(), fixes, corr)

    def enter_rack(self) -> None:
        """*Done* on the rack entered with the picker."""
        seat = self.to_reveal()
        if seat is not None and self._reveal_seat(seat, tuple(self.rack_entry)):
            self.rack_entry = []

    # --- readings ------------------------------------------------------------------------------------

    def _ask(self, what: Awaiting, frames: int = 1) -> None:
        self.awaiting = what
        self.asked += 1
        self.voting = frames > 1
        self.request_reading(frames)

    def _vote(self, what: Awaiting, obs: TableObservation) -> bool:
        """Whether to read the table again before judging ``obs``: over the next frames, put to the
        vote (``vision.tile_vote``), once per press, when one photo cannot decide — a tile is unsure,
        or the reading would cost the player (a play refused: a "black 7" in a blue run, a tile not
        seen; a draw refused; a timeout on a changed table) — so that one bad frame does not."""
        if self.voting or self.vote_frames < 2 or self.camera_lost is not None:
            return False
        if not obs.uncertain and not self._costly(what, obs):
            return False
        self.votes += 1
        log.info("reading again over %d frames: %s", self.vote_frames, obs)
        self._ask(what, self.vote_frames)
        return True

    def _costly(self, what: Awaiting, obs: TableObservation) -> bool:
        """Whether judging ``obs`` as read would go against the player to move."""
        if what == "play":
            try:
                self.state.apply(Play(tuple(Meld(tuple(m)) for m in obs.table())))
            except IllegalAction:
                return True
            return False
        if what in ("draw", "timeout"):
            return not self.is_before(obs)
        return False

    def on_reading(self, seen: Seen) -> None:
        obs = seen.observation
        if not isinstance(obs, TableObservation):
            return
        obs, kept = carry(possible(obs), self.carried)
        if seen.kind == "requested":
            self._carried_in = (obs, kept)
        self.live = obs
        if self.refused is not None and not obs.same_as(self.refused):
            self.refused = None  # the refused tiles were taken back or moved: no red outline is left
        if self.phase == "restore" and self.is_before(obs):
            self._restored()
            return
        if seen.kind != "requested" or self.awaiting is None:
            return
        what, self.awaiting = self.awaiting, None
        if what == "start":
            self._read_start(obs)
        elif what == "play":
            self._read_play(obs)
        elif what == "draw":
            self._read_draw(obs)
        elif what == "timeout":
            if not self._vote("timeout", obs):
                self._timeout(obs)
        elif what == "reveal":
            self._read_rack(obs)
        elif what == "rack":
            self._read_shown_rack(obs)

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
        if self.rack_to_show() is not None and self.phase == "playing":
            self.correction = None
            self._ask("rack")

    def begin_rack_entry(self) -> None:
        """*Enter my rack*: the tile picker fills the rack (or the drawn tiles) instead."""
        if self.rack_to_show() is not None:
            self.entering_rack = True
            self.rack_entry = []

    def cancel_rack_entry(self) -> None:
        self.entering_rack = False
        self.rack_entry = []

    def enter_shown_rack(self) -> None:
        """*Done* on the rack (or the drawn tiles) entered with the picker."""
        if self.entering_rack and self._show_tiles(tuple(self.rack_entry)):
            self.cancel_rack_entry()

    def _read_shown_rack(self, obs: TableObservation) -> None:
        if obs.uncertain:
            self.refuse("rack_unclear", "a tile of the rack is not clear: lay it straight and read again")
            return
        if self.missing(obs):
            self.refuse("rack_table_changed", "show the rack before you change the table: put it back")
            return
        self._show_tiles(beside(obs.values, self.before))

    def _show_tiles(self, tiles: tuple[Tile, ...]) -> bool:
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
        seat = self.current_seat
        if self.coach is None or seat is None or self.coach.mover_rack() is None:
            return
        stage = self.coach.hint_stage()
        if stage < 2 and self.phase == "playing":
            self.submit(TakeHint(seat, stage + 1))

    def _read_start(self, obs: TableObservation) -> None:
        if obs.uncertain:
            self.refuse("start_unclear", "a drawn tile is not clear: lay it straight and read again")
            return
        if len(obs.tiles) != len(self.contenders):
            self.refuse(
                "start_count",
                f"{len(obs.tiles)} tiles seen, {len(self.contenders)} players draw",
                seen=len(obs.tiles),
                wanted=len(self.contenders),
            )
            return
        drawn = tuple(t.tile for t in sorted(obs.tiles, key=lambda t: t.center[0]))
        numbers = [0 if t.is_joker else t.number for t in drawn]
        top = max(numbers)
        tied = tuple(seat for seat, n in zip(self.contenders, numbers, strict=True) if n == top)
        self.drawn = drawn
        if len(tied) == 1:
            self.submit(Start(tied[0]))
            return
        self.contenders = tied
        names = ", ".join(self.players[s].name for s in tied)
        self.refuse("start_tie", f"{names} drew {top}: they draw again", names=names, number=top)

    def _read_play(self, obs: TableObservation) -> None:
        if self._vote("play", obs):
            return
        if obs.uncertain:
            self.correction = Correction(obs, {}, "play", obs.uncertain[0])
            return
        self._play(tuple(Meld(tuple(m)) for m in obs.table()), obs)

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
        fixes: Sequence[ReadingFix] = (),
        corr: Correction | None = None,
    ) -> None:
        if self._judged(Play(melds), "play", fixes):
            self._refused(None, None)
            self._carry_on(corr.observation if corr is not None else obs, fixes)
        else:
            self._refused(obs, "play", corr)

    def _refused(
        self, obs: TableObservation | None, what: Awaiting | None, corr: Correction | None = None
    ) -> None:
        """The reading the last refusal judged (``None``: the last judgement was taken), and the
        correction it came from."""
        self.refused, self.refused_for, self.disputed = obs, what, corr

    def _read_draw(self, obs: TableObservation) -> None:
        if self._vote("draw", obs):
            return
        self._draw(obs.values, obs)

    def _draw(
        self,
        tiles: Sequence[Tile],
        obs: TableObservation,
        fixes: Sequence[ReadingFix] = (),
        corr: Correction | None = None,
    ) -> None:
        if played_tiles(self.before, [tiles]) != ([], []):
            self._refused(obs, "draw", corr)
            self.refuse("table_changed", "the table is not as it was: put it back, then draw")
            return
        if self._judged(Draw(), "draw", fixes):
            self._refused(None, None)
            self._carry_on(corr.observation if corr is not None else obs, fixes)

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

    def on_timeout(self) -> None:
        if self.phase in ("playing", "checking", "correcting"):
            self.correction = None
            if self.camera_lost is not None:
                self._timeout(self.live)  # no camera: the table as last seen
            else:
                self._ask("timeout")

    def _timeout(self, obs: TableObservation | None) -> None:
        changed = obs is not None and not self.is_before(obs)
        self.restoring = changed  # before the submit: the next move's clock waits for the table
        if not self._judged(Timeout(changed), "timeout") or self.finished:
            self.restoring = False

    def _restored(self) -> None:
        self.restoring = False
        if not self.finished:
            self.begin_move()

    def _read_rack(self, obs: TableObservation) -> None:
        seat = self.revealing
        if seat is None or seat != self.to_reveal():
            return
        if obs.uncertain:
            self.correction = Correction(obs, {}, "reveal", obs.uncertain[0])
            return
        self._reveal(beside(obs.values, self.before))

    def _reveal(self, tiles: Sequence[Tile], fixes: Sequence[ReadingFix] = ()) -> None:
        seat = self.revealing if self.revealing is not None else self.to_reveal()
        if seat is not None:
            self._reveal_seat(seat, tuple(tiles), fixes)

    def _reveal_seat(self, seat: int, tiles: tuple[Tile, ...], fixes: Sequence[ReadingFix] = ()) -> bool:
        ok = self.submit(RevealRack(seat, tiles), fixes)
        if ok:
            self.revealing = None
        return ok

    def submit(self, act: Action, corrections: Sequence[ReadingFix] = ()) -> bool:
        ok = super().submit(act, corrections)
        if ok and not isinstance(act, (Announce, Extend, ShowRack, TakeHint)):
            self.correction = None
        return ok
