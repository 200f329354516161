"""The Rummikub coach at a learning table (``RummikubOptions.learning``; ``docs/rummikub-coach.md``).

What the coach knows comes from the game's actions alone, so it follows a resumed game exactly and
the export can give the same review:

- a rack is known once its player showed it (``ShowRack``: laid face up beside the table and read by
  the camera, or entered with the tile picker). The coach then keeps it: a play takes the laid
  tiles off it, a draw adds tiles it does not know yet — so after the first showing of a hand a
  player shows only the tiles he drew (:func:`track`);
- for each move whose rack was known at its start, a :class:`MoveRecord`: the table before, the
  rack, whether he had opened, the tiles he laid;
- hints (``TakeHint``): stage 1 how many tiles the best move lays, stage 2 the move itself.

The advice itself (``rules.rummikub.advice.advise``) is never computed on the loop's thread: the
:class:`Advisor` hands each position to a worker *process* (the solver's C core holds the GIL, so a
thread would stall the frame and a verdict waiting in it) as soon as the position is known — when
the rack is shown, or when a move begins with the rack still known — so it is usually ready before
the move ends; the screen shows "…" until it is. The verdict path (reading → rules → journal) never
waits for it.
"""

from __future__ import annotations

import logging
import multiprocessing
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rules import Action
from rules.rummikub import (
    Draw,
    Meld,
    NextHand,
    Open,
    Play,
    Redeal,
    RummikubOptions,
    RummikubState,
    ShowRack,
    TakeHint,
    Tile,
    Timeout,
    new_game,
)
from rules.rummikub.advice import Advice, advise, table_text
from rules.rummikub.check import played_tiles
from rules.rummikub.tiles import tiles_text

if TYPE_CHECKING:
    from device.journal import Journal

__all__ = [
    "Advisor",
    "Known",
    "MoveRecord",
    "Review",
    "RummikubCoach",
    "SeatReview",
    "journaled_position",
    "review_json",
    "track",
]

log = logging.getLogger(__name__)

Key = tuple[str, str, bool]  # a position: the table's text, the rack's sorted text, opened


def position_key(table: Sequence[Meld], rack: Sequence[Tile], opened: bool) -> Key:
    return (table_text(table), tiles_text(sorted(rack, key=Tile.sort_key)), opened)


@dataclass(frozen=True)
class MoveRecord:
    """One move of a player whose rack was known at its start."""

    index: int  # the action's place in the history
    hand: int
    seat: int
    turn: int  # the player's move of the hand, 1-based
    table: tuple[Meld, ...]  # before the move
    rack: tuple[Tile, ...]
    opened: bool
    kind: str  # "play", "draw" or "timeout"
    laid: int  # tiles laid (0 for a draw or a timeout)

    @property
    def key(self) -> Key:
        return position_key(self.table, self.rack, self.opened)


@dataclass
class Known:
    """What the coach knows of the racks now: the known tiles and how many tiles it does not know
    (drawn since the last showing), per seat; the moves; the hints taken."""

    tiles: list[Counter[Tile] | None]
    unknown: list[int]
    moves: list[MoveRecord] = field(default_factory=list)
    hints: list[tuple[int, int, int, int]] = field(default_factory=list)  # (hand, seat, turn, stage)
    turns: Counter[tuple[int, int]] = field(default_factory=Counter)  # (hand, seat) -> moves made

    def rack(self, seat: int) -> tuple[Tile, ...] | None:
        """The whole rack of ``seat`` when it is known (no tile drawn since it was shown)."""
        tiles = self.tiles[seat]
        if tiles is None or self.unknown[seat]:
            return None
        return tuple(sorted(tiles.elements(), key=Tile.sort_key))

    def partial(self, seat: int) -> tuple[tuple[Tile, ...], int] | None:
        """``(known tiles, tiles to show)`` when a showing of the drawn tiles alone is enough."""
        tiles = self.tiles[seat]
        if tiles is None:
            return None
        return tuple(sorted(tiles.elements(), key=Tile.sort_key)), self.unknown[seat]


def track(options: RummikubOptions, history: Sequence[Action]) -> Known:
    """Replay the actions, following what is known of each rack and recording each move whose rack
    was known at its start."""
    state = new_game(options)
    players = options.players
    known = Known([None] * players, [0] * players)
    for index, act in enumerate(history):
        seat = state.turn
        if isinstance(act, ShowRack):
            known.tiles[act.seat], known.unknown[act.seat] = Counter(act.rack), 0
        elif isinstance(act, TakeHint):
            turn = known.turns[(state.hand, act.seat)] + 1
            known.hints.append((state.hand, act.seat, turn, act.stage))
        elif isinstance(act, (Play, Open, Draw, Timeout)) and seat is not None and state.ended is None:
            before, rack, opened = state.table, known.rack(seat), state.opened[seat]
            after = (
                (*state.table, *act.melds)
                if isinstance(act, Open)
                else act.table
                if isinstance(act, Play)
                else before
            )
            laid = played_tiles(before, after)[0] if isinstance(act, (Play, Open)) else []
            known.turns[(state.hand, seat)] += 1
            if rack is not None:
                kind = "play" if laid else "draw" if isinstance(act, Draw) else "timeout"
                turn = known.turns[(state.hand, seat)]
                known.moves.append(
                    MoveRecord(index, state.hand, seat, turn, before, rack, opened, kind, len(laid))
                )
            after_state = state.apply(act)
            tiles = known.tiles[seat]
            if tiles is not None:
                if laid:
                    left = Counter(tiles)
                    left.subtract(laid)
                    # Tiles laid that the shown rack did not hold: what is known is wrong, show again.
                    known.tiles[seat] = None if any(k < 0 for k in left.values()) else +left
                drawn = after_state.rack_counts[seat] - state.rack_counts[seat] + len(laid)
                known.unknown[seat] += max(0, drawn)
            state = after_state
            continue
        if isinstance(act, (NextHand, Redeal)):
            known.tiles, known.unknown = [None] * players, [0] * players
        state = state.apply(act)
    return known


# --- the advice, off the loop's thread -------------------------------------------------------------


def _executor() -> Executor:
    """A worker process (spawned: it imports the rules alone, not pygame or the camera); a thread
    where a process cannot be started."""
    try:
        return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    except (OSError, ValueError) as exc:  # pragma: no cover - no process on this system
        log.warning("coach: no worker process (%s); the advice runs in a thread", exc)
        return ThreadPoolExecutor(max_workers=1)


class Advisor:
    """Advice per position, computed in a worker; ``get`` never waits."""

    def __init__(self, executor: Callable[[], Executor] = _executor) -> None:
        self._make = executor
        self._executor: Executor | None = None
        self._futures: dict[Key, Future[Advice]] = {}

    def request(self, table: Sequence[Meld], rack: Sequence[Tile], opened: bool) -> Key:
        key = position_key(table, rack, opened)
        if key not in self._futures:
            if self._executor is None:
                self._executor = self._make()
            self._futures[key] = self._executor.submit(advise, tuple(table), tuple(rack), opened=opened)
        return key

    def get(self, key: Key) -> Advice | None:
        """The advice when it is ready (``None`` while it is being computed or was never asked)."""
        future = self._futures.get(key)
        if future is None or not future.done():
            return None
        try:
            return future.result()
        except Exception as exc:  # a worker that died: ask again next time
            log.error("coach: the advice failed (%s)", exc)
            del self._futures[key]
            return None

    def wait(self, key: Key, timeout: float | None = None) -> Advice | None:
        """The advice, waiting for it (the export and the tests; never the loop)."""
        future = self._futures.get(key)
        return None if future is None else future.result(timeout)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


# --- the coach of one game -------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatReview:
    """One player's hand (or game) against what his racks allowed."""

    seat: int
    moves: tuple[tuple[MoveRecord, Advice], ...]
    hints: int
    unknown_moves: int  # moves whose rack was not known (not counted)

    @property
    def laid(self) -> int:
        return sum(m.laid for m, _ in self.moves)

    @property
    def possible(self) -> int:
        return sum(a.tiles_possible for _, a in self.moves)

    def costliest(self, n: int = 3) -> list[tuple[MoveRecord, Advice]]:
        """The moves that cost most (tiles possible minus laid), the worst first; none that cost 0."""
        costly = [(m, a) for m, a in self.moves if a.tiles_possible > m.laid]
        return sorted(costly, key=lambda ma: (ma[0].laid - ma[1].tiles_possible, ma[0].index))[:n]


@dataclass(frozen=True)
class Review:
    hand: int | None  # None: the whole game
    seats: tuple[SeatReview, ...]
    pending: int  # moves whose advice is still being computed


class CoachedTable(Protocol):
    """What the coach reads of its learning-table session (``device.sessions.rummikub.RummikubSession``)."""

    @property
    def rummikub(self) -> RummikubState: ...

    @property
    def history(self) -> Sequence[Action]: ...

    @property
    def seq(self) -> int: ...

    @property
    def current_seat(self) -> int | None: ...

    @property
    def phase(self) -> str: ...

    @property
    def players(self) -> Sequence[object]: ...


class RummikubCoach:
    """The coach of one learning-table session (see the module docstring)."""

    def __init__(self, session: CoachedTable, advisor: Advisor | None = None) -> None:
        self.session = session
        self.advisor = advisor or Advisor()
        self._known: Known | None = None
        self._seen = -1
        self.spoken = -1  # the history index of the last move whose advice was said aloud

    @property
    def known(self) -> Known:
        session = self.session
        if self._known is None or self._seen != session.seq:
            self._known = track(session.rummikub.options, session.history)
            self._seen = session.seq
        return self._known

    # --- the position now and after each move ------------------------------------------------------

    def mover_rack(self) -> tuple[Tile, ...] | None:
        seat = self.session.current_seat
        return None if seat is None else self.known.rack(seat)

    def now_key(self) -> Key | None:
        """The position of the player to move, when his rack is known (asked of the advisor)."""
        session = self.session
        seat, rack = session.current_seat, self.mover_rack()
        if seat is None or rack is None or session.phase not in ("playing", "checking", "correcting"):
            return None
        state = session.rummikub
        return self.advisor.request(state.table, rack, state.opened[seat])

    def now(self) -> Advice | None:
        key = self.now_key()
        return None if key is None else self.advisor.get(key)

    def last_move(self) -> MoveRecord | None:
        """The last move of the game when it is the last action but hints and showings (the advice
        shown after it until the next move)."""
        moves = self.known.moves
        if not moves:
            return None
        last = moves[-1]
        later = self.session.history[last.index + 1 :]
        return last if all(isinstance(a, (ShowRack, TakeHint)) for a in later) else None

    def advice_for(self, move: MoveRecord) -> Advice | None:
        return self.advisor.get(self.advisor.request(move.table, move.rack, move.opened))

    def prepare(self) -> None:
        """Ask for the advice of the position now (called after every action: off the loop)."""
        self.now_key()

    # --- hints -------------------------------------------------------------------------------------

    def hint_stage(self) -> int:
        """The hint stage the player to move has reached in this move (0: none)."""
        session = self.session
        seat = session.current_seat
        if seat is None:
            return 0
        stage = 0
        for act in reversed(session.history):
            if not isinstance(act, (TakeHint, ShowRack)):
                break
            if isinstance(act, TakeHint) and act.seat == seat:
                stage = max(stage, act.stage)
        return stage

    def hints(self, seat: int, hand: int | None = None) -> int:
        return sum(1 for h, s, _, _ in self.known.hints if s == seat and (hand is None or h == hand))

    # --- the review --------------------------------------------------------------------------------

    def review(self, hand: int | None = None, *, wait: bool = False) -> Review:
        """Each player's moves of ``hand`` (all hands: ``None``) against what his racks allowed."""
        known = self.known
        seats = []
        pending = 0
        for seat in range(len(self.session.players)):
            rows = []
            for move in known.moves:
                if move.seat != seat or (hand is not None and move.hand != hand):
                    continue
                key = self.advisor.request(move.table, move.rack, move.opened)
                advice = self.advisor.wait(key) if wait else self.advisor.get(key)
                if advice is None:
                    pending += 1
                else:
                    rows.append((move, advice))
            made = sum(n for (h, s), n in known.turns.items() if s == seat and (hand is None or h == hand))
            counted = sum(1 for m in known.moves if m.seat == seat and (hand is None or m.hand == hand))
            seats.append(SeatReview(seat, tuple(rows), self.hints(seat, hand), made - counted))
        return Review(hand, tuple(seats), pending)


def review_json(options: RummikubOptions, history: Sequence[Action], names: Sequence[str]) -> dict[str, Any]:
    """The export's review of a learning-table game (computed here, synchronously). Any: a JSON tree
    built here of counts and texts (the export writes it as it is)."""
    if not options.learning:
        return {}
    known = track(options, history)
    players = []
    for seat, name in enumerate(names):
        moves: list[dict[str, Any]] = []
        for move in (m for m in known.moves if m.seat == seat):
            advice = advise(move.table, move.rack, opened=move.opened)
            moves.append(
                {
                    "hand": move.hand,
                    "turn": move.turn,
                    "kind": move.kind,
                    "laid": move.laid,
                    "possible": advice.tiles_possible,
                    "rack": tiles_text(move.rack),
                    "table_before": table_text(move.table),
                    "best": tiles_text(advice.placed),
                    "best_table": table_text(advice.table_after),
                    "opened": move.opened,
                }
            )
        costliest = sorted(
            (m for m in moves if m["possible"] > m["laid"]), key=lambda m: m["laid"] - m["possible"]
        )[:3]
        players.append(
            {
                "seat": seat + 1,
                "name": name,
                "laid": sum(m["laid"] for m in moves),
                "possible": sum(m["possible"] for m in moves),
                "hints": sum(1 for _, s, _, _ in known.hints if s == seat),
                "moves": moves,
                "costliest": [{"hand": m["hand"], "turn": m["turn"]} for m in costliest],
            }
        )
    return {"review": players}


def journaled_position(
    journal: Journal, *, newest: int = 5
) -> tuple[tuple[Meld, ...], tuple[Tile, ...]] | None:
    """A puzzle from the players' own games: of the ``newest`` learning-table games in the journal, the
    move that cost most (tiles possible minus laid; the latest on a tie), as ``(table, rack)``; a
    move that laid everything it could when none cost anything; ``None`` without such a game."""
    import rules  # the registry: the stored actions as actions

    best: tuple[tuple[int, int, int], MoveRecord] | None = None
    stored = [g for g in journal.games() if g.game == "rummikub" and g.options.get("learning")]
    for game in stored[-newest:]:
        try:
            options = RummikubOptions.from_dict(game.options)
            history = [rules.action_from_json(a.action) for a in journal.actions(game.id)]
            known = track(options, history)
        except (ValueError, rules.IllegalAction):
            continue  # a game of an older rule version: not a source of puzzles
        for move in known.moves:
            advice = advise(move.table, move.rack, opened=move.opened)
            if advice.tiles_possible == 0 or not move.opened:
                continue
            rank = (advice.tiles_possible - move.laid, game.id, move.index)
            if best is None or rank > best[0]:
                best = (rank, move)
    return None if best is None else (best[1].table, best[1].rack)
