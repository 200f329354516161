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
  checked at once (``Play``: the engine's ``check_turn(before, after)``); a refusal keeps the
  reading, so the screen outlines the meld the rule names. Uncertain tiles are never guessed: the
  phase turns ``correcting`` and the player straightens them (a new press reads again) or taps each
  to pick what it is (number, colour, joker). A long press (or *Draw*) draws, after the camera has
  checked that the table is as it was (``table_changed`` otherwise).
- the move timer: on timeout the camera reads the table; ``Timeout(manipulated)`` is journaled at
  once — changed (3 tiles, ``timeout_draw``) or not (1 tile) — and, if it was changed, the phase is
  ``restore``: the next player's clock waits until the camera sees the before table again (or, while
  the camera is lost, a *Table restored* touch). A resume after a kill finds the timeout last in the
  journal and restores again.
- ``reveal``: a rack count reached 0 (or the pool ran dry, RULES.md §3): the others lay their racks
  face up in front of the camera one by one (*Read the rack*), or enter them with the tile picker;
  the hand is scored once every rack is known.
- ``hand_over``: a hand is scored and the game goes on (``hands``, ``target_score``); *Next hand*.
- ``over``.

Nothing but the rules' actions is journaled: a reading, a correction, a pick in progress are the
players' until an action enters them, so a kill -9 at any moment resumes with the same before table.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from device.camera_view import GameReader
from device.events import Seen
from device.journal import Journal
from device.session import GameSession, register_session
from device.timer import MoveTimer
from rules import Action, Options
from rules.rummikub import (
    Announce,
    Draw,
    Extend,
    Meld,
    NextHand,
    Play,
    RevealRack,
    RummikubState,
    Start,
    Tile,
    Timeout,
)
from rules.rummikub.check import played_tiles
from rules.rummikub.tiles import JOKER
from vision.tiles import TableObservation, read_tiles

__all__ = ["TILE_READER", "Correction", "RummikubSession", "Verdict", "beside", "same_table"]

log = logging.getLogger(__name__)

RummikubPhase = Literal[
    "start", "playing", "checking", "correcting", "restore", "reveal", "hand_over", "over"
]
TILE_READER: GameReader[TableObservation] = GameReader(read_tiles)
Awaiting = Literal["start", "play", "draw", "timeout", "reveal"]


def same_table(a: Sequence[Meld], b: Sequence[Meld]) -> bool:
    """The same melds (a meld and its reverse, a group in any order, are the same), in any order.

    >>> a, b = Meld.parse("R1 R2 R3"), Meld.parse("B5 K5 O5")
    >>> same_table([a, b], [Meld.parse("O5 B5 K5"), Meld.parse("R3 R2 R1")]), same_table([a], [a, b])
    (True, False)
    """
    return Counter(a) == Counter(b)


@dataclass
class Correction:
    """A reading being corrected by hand: the observation, the tiles picked for its unsure ones, and
    which one the picker is on (``None``: none chosen)."""

    observation: TableObservation
    fixes: dict[int, Tile]
    for_: Awaiting  # what the corrected reading enters: a play, or a revealed rack
    chosen: int | None = None

    @property
    def unsure(self) -> tuple[int, ...]:
        return self.observation.uncertain

    @property
    def complete(self) -> bool:
        return all(i in self.fixes for i in self.unsure)

    def tile(self, index: int) -> Tile:
        return self.fixes.get(index, self.observation.tiles[index].tile)

    def melds(self) -> tuple[Meld, ...]:
        obs = self.observation
        groups = [*obs.melds, *((i,) for i in obs.loose)]
        return tuple(Meld(tuple(self.tile(i) for i in group)) for group in groups)

    def tiles(self) -> tuple[Tile, ...]:
        return tuple(self.tile(i) for i in range(len(self.observation.tiles)))


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
        self.live: TableObservation | None = None  # the camera's latest reading
        self.refused: TableObservation | None = None  # the reading of the last refused play
        self.correction: Correction | None = None
        self.contenders: tuple[int, ...] = tuple(range(len(self.players)))  # the starting draw's
        self.drawn: tuple[Tile, ...] = ()  # the tiles the contenders drew, in their seat order
        self.revealing: int | None = None  # the seat whose rack the camera reads
        self.rack_entry: list[Tile] = []  # a rack entered with the picker
        self.picker_colour = "R"
        self.restoring = False
        self.verdict: Verdict | None = None
        last = self.history[-1] if self.history else None
        if isinstance(last, Timeout) and last.manipulated and not self.finished:
            self.restoring = True  # resumed while the table was being restored

    # --- starting and resuming -----------------------------------------------------------------------

    @classmethod
    def start(cls, journal: Journal, options: Options, names: list[str], timer: MoveTimer) -> GameSession:
        """A new game in referee mode: the engine sees the table, never the racks."""
        referee = type(options).from_dict({**options.to_dict(), "information": "referee"})
        return super().start(journal, referee, names, timer)

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
            self.submit(NextHand())
            self.contenders = tuple(range(len(self.players)))
            self.drawn = ()

    def table_restored(self) -> None:
        """The *Table restored* touch (shown while the camera is lost): the players vouch for it."""
        if self.phase == "restore":
            self._restored()

    # --- the tile picker -------------------------------------------------------------------------------

    def choose_unsure(self, index: int) -> None:
        if self.correction is not None and index in self.correction.unsure:
            self.correction.chosen = index

    def pick_colour(self, colour: str) -> None:
        self.picker_colour = colour

    def pick(self, tile: Tile) -> None:
        """A tile picked: for the unsure tile chosen (then the next one), or the rack being entered."""
        corr = self.correction
        if corr is not None:
            if corr.chosen is None:
                corr.chosen = next((i for i in corr.unsure if i not in corr.fixes), None)
            if corr.chosen is None:
                return
            corr.fixes[corr.chosen] = tile
            corr.chosen = next((i for i in corr.unsure if i not in corr.fixes), None)
        elif self.phase == "reveal":
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
        if corr.for_ == "reveal":
            self._reveal(beside(corr.tiles(), self.before))
        else:
            self._play(corr.melds(), corr.observation)

    def enter_rack(self) -> None:
        """*Done* on the rack entered with the picker."""
        seat = self.to_reveal()
        if seat is not None and self._reveal_seat(seat, tuple(self.rack_entry)):
            self.rack_entry = []

    # --- readings ------------------------------------------------------------------------------------

    def _ask(self, what: Awaiting) -> None:
        self.awaiting = what
        self.asked += 1
        self.request_reading()

    def on_reading(self, seen: Seen) -> None:
        obs = seen.observation
        if not isinstance(obs, TableObservation):
            return
        self.live = obs
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
            self._timeout(obs)
        elif what == "reveal":
            self._read_rack(obs)

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
        if obs.uncertain:
            self.correction = Correction(obs, {}, "play", obs.uncertain[0])
            return
        self._play(tuple(Meld(tuple(m)) for m in obs.table()), obs)

    def _judged(self, act: Action, kind: str) -> bool:
        """Submit the mover's ``act``; when taken, the verdict says how many tiles left (or joined)
        his rack."""
        seat, counts = self.current_seat, self.rummikub.rack_counts
        if not self.submit(act):
            return False
        if seat is not None:
            moved = abs(self.rummikub.rack_counts[seat] - counts[seat])
            self.verdict = Verdict(seat, kind, moved, self.timer.now())
        return True

    def _play(self, melds: tuple[Meld, ...], obs: TableObservation) -> None:
        self.refused = None if self._judged(Play(melds), "play") else obs

    def _read_draw(self, obs: TableObservation) -> None:
        if played_tiles(self.before, [obs.values]) != ([], []):
            self.refused = obs
            self.refuse("table_changed", "the table is not as it was: put it back, then draw")
            return
        self._judged(Draw(), "draw")

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

    def _reveal(self, tiles: Sequence[Tile]) -> None:
        seat = self.revealing if self.revealing is not None else self.to_reveal()
        if seat is not None:
            self._reveal_seat(seat, tuple(tiles))

    def _reveal_seat(self, seat: int, tiles: tuple[Tile, ...]) -> bool:
        ok = self.submit(RevealRack(seat, tiles))
        if ok:
            self.revealing = None
        return ok

    def submit(self, act: Action) -> bool:
        ok = super().submit(act)
        if ok and not isinstance(act, (Announce, Extend)):
            self.correction = None
        return ok
