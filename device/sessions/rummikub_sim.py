"""Rummikub's simulated table: real racks, real tiles on a synthetic table, filmed and read back.

The device plays in referee mode (it never sees a rack); the simulated table holds the whole set: the
racks, the pool and the tiles lying on the table. It deals a hand from the counts the game starts
with, and follows the game's actions the way players do: a tile drawn goes from the pool to the
rack, tiles laid leave it. The synthetic camera films the table (``vision.synth.render_table``, at
the camera size) and the vision worker reads it with ``read_tiles``, so every move goes through the
camera path. Without a camera (``--no-camera``) the table answers each reading the game asks for
itself, with what lies on it.

The synthetic camera films each layout once (fresh sensor grain in every frame): the session lives with
what the reader says, as at a real table — nothing is laid out again until the reader reads it right.

Autoplay (``--autoplay rummikub``): the simulated players lay the solvers' moves (``best_opening``,
``best_move``), and sometimes play badly: a tile left loose beside the melds (refused, then taken
back), a tile laid crooked (unsure: corrected with the picker, or straightened), a move left
unfinished when the clock runs out (the table restored; vouched for with *Table restored* when the
camera does not confirm it). A refusal they look at as a person does (:meth:`RummikubTable.misread`):
a tile read as something else is disputed (*Correct the reading*, each such tile picked as it lies,
*Check*), a tile the camera did not see is nudged. They read the starting draw, lay their racks face up
at the end of a hand, or enter them with the picker. At a learning table each shows his rack face up
in the rack zone before his move (after a draw, the tiles drawn), laid again and read again once when
the camera refuses the read, then entered with the picker. :attr:`RummikubTable.moves` counts what happened
(``bench/rummikub_misreads.py``).

Keys, for a person playing a seat by hand: **M** lays the best move from the rack of the seat to
move, **L** lays one rack tile loose (a mistake), **C** turns a laid tile crooked, **T** takes back
every tile laid this move, **R** restores the table after a timeout, **S** lays the starting draw's
tiles, **V** lays the rack of the seat to reveal face up (at a learning table, before a move: the
mover's rack, or the tiles he drew since he showed it; taken back once the game has it; at a learning
table it lies in the rack zone, the frame's bottom strip, ``vision.tile_zones``, and the table's melds
lie above it); the seat
keys end the move (a long press draws). The mouse moves tiles on the table as the camera panel
shows it: click a tile to pick it up, click another to lay it after that one (or on the felt to
start a new meld).
"""

from __future__ import annotations

import logging
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import pygame

from device.events import Key, Seen, Tap
from device.session import GameSession
from device.sessions.rummikub import Correction, Revealing, RummikubSession, same_table
from device.sessions.simulated import SimulatedTable, TableHost, register_table
from drivers.events import ButtonEvent
from rules.rummikub import (
    Draw,
    Meld,
    NextHand,
    Play,
    RevealRack,
    ShowRack,
    Start,
    Timeout,
    best_move,
    best_opening,
)
from rules.rummikub.tiles import Tile, full_set
from vision.tile_zones import RACK, rack_area
from vision.tiles import SeenTile, TableObservation

if TYPE_CHECKING:
    from vision.synth import SyntheticTile, TableTruth

__all__ = ["TABLE_SIZE", "TILE_SIZE", "RummikubTable", "laid_out"]

log = logging.getLogger(__name__)

TABLE_SIZE = (1280, 720)  # the synthetic camera's frame
TILE_SIZES = (84.0, 72.0, 60.0, 50.0)  # px: a tile's long side in the synthetic frame (smaller if need be)
TILE_SIZE = TILE_SIZES[0]
LAY_SECONDS = 0.6  # autoplay: how long a player takes to lay his tiles before pressing
MISTAKES = {"loose": 0.07, "crooked": 0.06, "unfinished": 0.04}
GRAIN = 2.0  # the synthetic camera's sensor noise (grey levels, one sigma): fresh in every frame
GRAINS = 4  # noise fields the frames cycle through
RESTORE_PATIENCE = 3.0  # s: a restored table the camera does not confirm is vouched for (Table restored)


def laid_out(
    melds: Sequence[Sequence[Tile]], unsure: Iterable[int] = (), tile_size: float = TILE_SIZE
) -> TableObservation:
    """A reading of ``melds`` laid in rows across the camera frame, as the reader would give it: a
    one-tile meld is a loose tile; ``unsure`` are the (flat) indices of tiles the reader was unsure of.
    The simulated table without a camera answers with it; the tests and the bench build readings
    with it.

    >>> from rules.rummikub import parse_tiles
    >>> str(laid_out([parse_tiles("R1 R2 R3"), parse_tiles("K5")], unsure=[3]))
    'melds [R1 R2 R3] loose [K5] uncertain 1'
    """
    tiles: list[SeenTile] = []
    groups: list[tuple[int, ...]] = []
    loose: list[int] = []
    width, half_h = tile_size * 0.75, tile_size / 2
    x, y = width, tile_size
    for meld in melds:
        if x + width * len(meld) > TABLE_SIZE[0] - width:
            x, y = width, y + tile_size * 1.5
        group = []
        for tile in meld:
            half_w = width / 2
            corners = (
                (x - half_w, y - half_h),
                (x + half_w, y - half_h),
                (x + half_w, y + half_h),
                (x - half_w, y + half_h),
            )
            group.append(len(tiles))
            tiles.append(SeenTile(tile, (x, y), corners, tile_size, width, 0.0, 1.0))
            x += width
        x += width
        if len(group) > 1:
            groups.append(tuple(group))
        else:
            loose.extend(group)
    return TableObservation(tuple(tiles), tuple(groups), tuple(loose), tuple(sorted(unsure)))


@dataclass
class Intent:
    """What the simulated player on turn is doing this move, and what he did wrong on purpose."""

    seq: int
    mistake: str | None = None
    pressed_at: float | None = None
    refusals: int = 0


@register_table
class RummikubTable(SimulatedTable):
    games = ("rummikub",)

    def __init__(self, host: TableHost, rng: random.Random, *, camera: bool) -> None:
        super().__init__(host, rng, camera=camera)
        self.clock = host.clock
        self.hand = 0
        self.racks: list[list[Tile]] = []
        self.pool: list[Tile] = []
        self.table: list[list[Tile]] = []  # the melds lying on the table, as the camera sees them
        self.beside: list[Tile] = []  # tiles laid apart: the starting draw, a rack shown face up
        self.shown: list[Tile] = []  # a learning table's rack shown face up in the rack zone
        self.zoned = False  # a learning table: the table's melds lie above the rack zone
        self.taken: list[Tile] = []  # the mover's rack tiles lying on the table this move
        self.mover: int | None = None  # whose tiles ``taken`` are
        self.tilts: dict[tuple[int, int], float] = {}
        self.held: Tile | None = None  # a tile picked up with the mouse
        self.seq = -1
        self.layout = 0  # which layout of the same tiles (a nudge gives another)
        self._frame: tuple[object, np.ndarray, TableTruth] | None = None
        self.intent: Intent | None = None
        self.wait_until = 0.0
        self.filmed_at = 0.0
        self.answered = 0  # no camera: the readings asked for that the table answered
        self.restore_told = -1  # no camera: the action count at which the restored table was shown
        self._laid_start: object = ()
        self._revealing: tuple[int, int] | None = None  # (seat, how: 0 camera, 1 picker) of a reveal
        self._taps: list[str] = []  # queued screen taps (one per frame)
        self._rack_reads = (-1, 0)  # (the game's seq, the camera's reads of the rack shown since)
        self.tapped: list[str] = []  # every screen tap, in order
        self.moves = Counter[str]()  # what the autoplay did: plays, draws, timeouts, refusals, …
        self._grain: list[np.ndarray] = []
        self._shot = 0  # frames filmed (each with its own grain)
        self.restored_at: float | None = None  # autoplay: when the table was put back after a timeout

    # --- the tiles -----------------------------------------------------------------------------------

    def deal(self, session: RummikubSession) -> None:
        """The racks and the pool for the game as it stands (a new hand, or a game resumed): the table
        as the game has it, each rack as many tiles as its count, the rest in the pool."""
        state = session.rummikub
        self.hand = state.hand
        self.zoned = bool(state.options.learning)
        self.table = [list(m) for m in state.table]
        rest = Counter(full_set())
        rest.subtract(t for m in self.table for t in m)
        tiles = sorted(rest.elements(), key=Tile.sort_key)
        self.rng.shuffle(tiles)
        self.racks = []
        for count in state.rack_counts:
            self.racks.append(tiles[:count])
            tiles = tiles[count:]
        self.pool = tiles
        self.taken, self.mover, self.beside, self.shown, self.tilts = [], None, [], [], {}
        self.changed()

    def changed(self) -> None:
        self._frame = None

    def follow(self, session: RummikubSession) -> None:
        """After each action of the game: the racks follow the counts (tiles drawn, tiles laid)."""
        state = session.rummikub
        if state.hand != self.hand or len(self.racks) != len(state.rack_counts):
            self.deal(session)
            return
        last = session.history[-1] if session.history else None
        if isinstance(last, Play):
            if same_table(self.physical_melds(), state.table):
                self.taken, self.mover, self.tilts = [], None, {}
            else:
                # A misread the rules could not refuse (a black 9 read blue in a group without blue):
                # the game's table is not the one lying here, so the table is laid again as the game has it.
                log.warning("the game accepted a table that is not the one lying here: %s", last)
                self.moves["accepted misread"] += 1
                self.deal(session)
                return
        if isinstance(last, (RevealRack, Start, NextHand, ShowRack)) or (
            isinstance(last, (Play, Draw, Timeout)) and (self.shown or self.beside)
        ):
            # The shown tiles go back to the rack (a rack left lying face up: when its move ends).
            self.beside, self.shown = [], []
            self.changed()
        if isinstance(last, Draw):
            self.put_back()  # nothing of the mover's may stay on the table when he draws
        for seat, count in enumerate(state.rack_counts):
            have = len(self.racks[seat]) + (len(self.taken) if seat == self.mover else 0)
            while have < count and self.pool:
                self.racks[seat].append(self.pool.pop())
                have += 1
            if have > count:
                log.warning("seat %d holds %d tiles, the game counts %d: dealt again", seat, have, count)
                self.deal(session)
                return

    def physical_melds(self) -> list[Meld]:
        return [Meld(tuple(m)) for m in self.table]

    def lay(self, seat: int, table: list[list[Tile]], placed: list[Tile]) -> None:
        """The mover lays ``placed`` from his rack, leaving ``table`` on the table."""
        rack = self.racks[seat]
        for tile in placed:
            rack.remove(tile)
        self.taken.extend(placed)
        self.mover = seat
        self.table = table
        self.changed()

    def put_back(self) -> None:
        """The mover takes his laid tiles back; the table as it was at the start of the move."""
        session = self.host.session
        if isinstance(session, RummikubSession):
            if self.mover is not None:
                self.racks[self.mover].extend(self.taken)
            self.taken, self.mover, self.tilts = [], None, {}
            self.table = [list(m) for m in session.rummikub.table]
            self.changed()

    # --- the camera ----------------------------------------------------------------------------------

    def scene(self) -> list[list[Tile]]:
        return [*self.table, *([t] for t in self.beside)]

    def scene_key(self) -> object:
        return (tuple(map(tuple, self.scene())), tuple(self.shown), tuple(sorted(self.tilts.items())))

    def bare(self) -> bool:
        """Nothing lies in front of the camera."""
        return not self.scene() and not self.shown

    def filmed(self, now: float) -> bool:
        """Whether the camera has filmed the table as it lies now, a moment ago (a player presses once
        the tiles lie still; the synthetic camera needs its time to draw them)."""
        if not self.camera or self.bare():
            return True
        return self._frame is not None and self._frame[0] == self.scene_key() and now - self.filmed_at > 0.4

    def render(self) -> tuple[np.ndarray, TableTruth]:
        """The table filmed as it lies (without the sensor's grain): the tiles where the players laid
        them, each layout once. The reader lives with what it reads — no layout is tried again until
        it reads right."""
        from vision.synth import render_table

        key = self.scene_key()
        if self._frame is not None and self._frame[0] == key:
            return self._frame[1], self._frame[2]
        scene = self.scene()
        sizes = list(TILE_SIZES)
        while True:
            try:
                frame, truth = render_table(
                    scene,
                    seed=self.layout,
                    size=TABLE_SIZE,
                    tile_size=sizes[0],
                    angle=0.0,
                    gap=1.0,
                    row_gap=0.5,
                    background="wood",
                    warm=0.0,
                    noise=0.0,
                    tilts=self.tilts,
                    rack=self.shown,
                    rack_area=rack_area(TABLE_SIZE) if self.zoned else None,
                )
                break
            except ValueError:  # the table does not fit the frame at this size: smaller tiles
                if len(sizes) == 1:
                    raise
                sizes.pop(0)
        self.layout += 1
        self._frame = (key, frame, truth)
        self.filmed_at = self.clock()
        return frame, truth

    def grain(self) -> np.ndarray:
        """The sensor noise of the next frame (a few fields, cycled): no two frames in a row alike."""
        if not self._grain:
            rng = np.random.default_rng(self.rng.randrange(2**31))
            shape = (TABLE_SIZE[1], TABLE_SIZE[0], 3)
            self._grain = [
                np.clip(rng.normal(0, GRAIN, shape), -8, 8).astype(np.int16) for _ in range(GRAINS)
            ]
        self._shot += 1
        return self._grain[self._shot % len(self._grain)]

    def camera_frame(self) -> np.ndarray | None:
        if self.bare():
            return None
        frame = self.render()[0].astype(np.int16) + self.grain()
        return np.clip(frame, 0, 255).astype(np.uint8)

    def misread(self, obs: TableObservation) -> list[tuple[int, Tile]] | None:
        """What a player sees on the screen of a reading of the table as it lies: the tiles read as
        something else (index, the tile lying there); ``None`` when the reading does not show every
        tile once (a tile missed or seen twice: no pick mends that, the player nudges the tiles)."""
        lying: list[tuple[Tile, tuple[float, float], float]]
        if self.camera:
            lying = [(t.tile, t.center, t.size) for t in self.on_table()]
        else:
            lying = [(t.tile, t.center, t.size) for t in self.lying().tiles]
        if len(lying) != len(obs.tiles):
            return None
        used: set[int] = set()
        wrong = []
        for i, seen in enumerate(obs.tiles):
            near = [
                (math.hypot(c[0] - seen.center[0], c[1] - seen.center[1]), k)
                for k, (_, c, size) in enumerate(lying)
                if math.hypot(c[0] - seen.center[0], c[1] - seen.center[1]) < size / 2
            ]
            if not near:
                return None
            k = min(near)[1]
            if k in used:
                return None
            used.add(k)
            if lying[k][0] != seen.tile:
                wrong.append((i, lying[k][0]))
        return wrong

    def on_table(self) -> list[SyntheticTile]:
        """The tiles of the last picture that lie on the table (not a rack in the rack zone)."""
        truth = self.render()[1]
        return [t for i, t in enumerate(truth.tiles) if i not in truth.rack]

    def observation(self) -> TableObservation:
        """The reading the table answers with when there is no camera: what lies on it."""
        return self.lying()

    def lying(self) -> TableObservation:
        """What lies on the table as a reading: every tile sure but a crooked one; at a learning table
        a rack shown in the rack zone apart (a row moved down into the zone)."""
        scene = self.scene()
        flat = {
            (i, k): n for n, (i, k) in enumerate((i, k) for i, m in enumerate(scene) for k in range(len(m)))
        }
        lying = laid_out(scene, [flat[place] for place in self.tilts if place in flat])
        if not self.zoned:
            return lying
        dy = (rack_area(TABLE_SIZE)[1] + rack_area(TABLE_SIZE)[3]) / 2 - TILE_SIZE
        apart = tuple(
            replace(
                t,
                center=(t.center[0], t.center[1] + dy),
                corners=tuple((x, y + dy) for x, y in t.corners),
                zone=RACK,
            )
            for t in laid_out([self.shown]).tiles
        )
        return replace(lying, shown=TableObservation(apart, loose=tuple(range(len(apart)))))

    def truth_tile(self, center: tuple[float, float]) -> Tile:
        """The tile lying at ``center`` (frame px) of the last picture (or, without a camera, reading),
        a rack's in the rack zone too."""
        lying: list[tuple[Tile, tuple[float, float]]]
        if self.camera:
            lying = [(t.tile, t.center) for t in self.render()[1].tiles]
        else:
            lying = [(t.tile, t.center) for t in self.lying().whole().tiles]
        return min(lying, key=lambda tc: (tc[1][0] - center[0]) ** 2 + (tc[1][1] - center[1]) ** 2)[0]

    def poll(self, session: GameSession) -> None:
        if not isinstance(session, RummikubSession):
            return
        if session.seq != self.seq:
            self.follow(session)
            self.seq = session.seq
        if self.camera:
            return
        # No camera: the table answers each reading the game asks for with what lies on it, and
        # shows the restored table once it is.
        if session.awaiting is not None and self.answered != session.asked:
            self.answered = session.asked
            self.host.post(Seen(self.observation(), kind="requested"))
        restored = same_table(self.physical_melds(), session.before) and not self.beside
        if session.phase == "restore" and self.restore_told != session.seq and restored:
            self.restore_told = session.seq
            self.host.post(Seen(self.observation(), kind="settled"))

    # --- a person at the keys and the mouse ----------------------------------------------------------

    def on_key(self, event: Key) -> bool:
        session = self.host.session
        if not event.down or not isinstance(session, RummikubSession):
            return False
        actions: dict[int, Callable[[RummikubSession], object]] = {
            pygame.K_m: self.lay_best,
            pygame.K_l: self.lay_loose,
            pygame.K_c: self.lay_crooked,
            pygame.K_t: lambda s: self.put_back(),
            pygame.K_r: lambda s: self.put_back(),
            pygame.K_s: self.lay_start,
            pygame.K_v: self.lay_rack,
        }
        action = actions.get(event.key)
        if action is None:
            return False
        action(session)
        return True

    def on_mouse(self, event: Tap) -> bool:
        """A click on the camera panel: pick a tile up, or lay the one picked up after another."""
        rect = self.host.image_rect(self.host.text("Camera"))
        if rect is None or self._frame is None:
            return False
        if not rect.collidepoint(event.pos):
            return False
        x = (event.pos[0] - rect.left) * TABLE_SIZE[0] / rect.width
        y = (event.pos[1] - rect.top) * TABLE_SIZE[1] / rect.height
        truth = self._frame[2]
        place = None
        for i, group in enumerate(truth.melds):
            for k, index in enumerate(group):
                tile = truth.tiles[index]
                if abs(tile.center[0] - x) < tile.size * 0.4 and abs(tile.center[1] - y) < tile.size * 0.5:
                    place = (i, k)
        if self.held is None:
            if place is None or place[0] >= len(self.table):
                return place is not None
            self.held = self.table[place[0]].pop(place[1])
            self.table = [m for m in self.table if m]
        else:
            if place is not None and place[0] < len(self.table):
                self.table[place[0]].insert(place[1] + 1, self.held)
            else:
                self.table.append([self.held])
            self.held = None
        self.tilts = {}
        self.changed()
        return True

    def lay_best(self, session: RummikubSession) -> bool:
        """The mover lays the best his rack allows (his opening if he has not opened)."""
        seat = session.current_seat
        if seat is None or session.phase != "playing":
            return False
        self.put_back()
        rack = self.racks[seat]
        if not session.rummikub.opened[seat]:
            value, melds = best_opening(rack)
            if value < 30 or not melds:
                return False
            placed = [t for m in melds for t in m]
            self.lay(seat, [*self.table, *(list(m) for m in melds)], placed)
            return True
        move = best_move(self.physical_melds(), rack, fewest_changed=False)
        if move is None:
            return False
        self.lay(seat, [list(m) for m in move.table], list(move.placed))
        return True

    def lay_loose(self, session: RummikubSession) -> bool:
        seat = session.current_seat
        if seat is None or not self.racks[seat]:
            return False
        tile = self.rng.choice(self.racks[seat])
        self.lay(seat, [*self.table, [tile]], [tile])
        return True

    def lay_crooked(self, session: RummikubSession) -> bool:
        if not self.table:
            return False
        i = self.rng.randrange(len(self.table))
        self.tilts = {(i, self.rng.randrange(len(self.table[i]))): self.rng.choice((-1, 1)) * 35.0}
        self.changed()
        return True

    def lay_start(self, session: RummikubSession) -> None:
        tiles = full_set()
        self.rng.shuffle(tiles)
        self.beside = tiles[: len(session.contenders)]
        self.changed()

    def lay_rack(self, session: RummikubSession) -> None:
        """The rack of the seat to reveal face up; at a learning table, before a move, the mover's
        rack (or only the tiles he drew since he last showed it; the whole rack when the coach's idea
        of the rest is not his rack: a misread it took)."""
        seat = session.to_reveal()
        shown: list[Tile] | None = None
        if seat is not None:
            shown = list(self.racks[seat])
        wanted, mover = session.rack_to_show(), session.current_seat
        if seat is None and wanted is not None and mover is not None and not self.taken:
            missing, count = wanted
            rack = self.racks[mover]
            # The tiles drawn since he showed his rack: the ones the coach does not know (he knows which).
            known = session.coach.known.partial(mover) if session.coach is not None else None
            drawn = list((Counter(rack) - Counter(known[0])).elements()) if known is not None else []
            shown = drawn if missing < count and len(drawn) == missing else list(rack)
        if shown is None:
            return
        # At a learning table the rack lies in the rack zone; elsewhere beside the melds.
        if self.zoned:
            self.beside, self.shown = [], shown
        else:
            self.beside, self.shown = shown, []
        self.changed()

    # --- autoplay ------------------------------------------------------------------------------------

    @classmethod
    def autoplay_options(cls, game: str, rng: random.Random) -> dict[str, object]:
        return {"move_seconds": 12, "hands": rng.choice((1, 2))}

    def tap(self, label: str) -> bool:
        if not self.host.tap(label):
            return False
        self.tapped.append(label)
        return True

    def play(self, session: GameSession) -> None:
        if not isinstance(session, RummikubSession):
            return
        host = self.host
        if host.screen != session.table_screen:
            host.show_game()
            return
        now = self.clock()
        if now < self.wait_until or session.awaiting is not None or not self.filmed(now):
            return
        if self._taps:
            label = self._taps.pop(0)
            if not self.tap(label):
                self._taps.clear()
            self.wait_until = now + 0.05
            return
        phase = session.phase
        if session.correction is not None:
            self.play_correction(session, now)
        elif phase == "start":
            self.play_start(session, now)
        elif phase == "playing":
            self.play_move(session, now)
        elif phase == "restore":
            if self.taken or self.scene() != [list(m) for m in session.rummikub.table]:
                self.put_back()
                self.moves["restored"] += 1
                self.restored_at = now
            elif self.restored_at is not None and now - self.restored_at > RESTORE_PATIENCE:
                # The camera does not confirm the table lying as it was (a misread): the players vouch.
                self.restored_at = None
                self.moves["restore vouched"] += 1
                self._taps.append(self.host.text("Table restored"))
            elif self.restored_at is None:
                self.restored_at = now
            self.wait_until = now + 0.5
        elif phase == "reveal":
            self.play_reveal(session, now)
        elif phase == "hand_over":
            self._taps.append(self.host.text("Next hand"))
            self.wait_until = now + 0.5

    def play_start(self, session: RummikubSession, now: float) -> None:
        key = (session.rummikub.hand, session.contenders, session.refusal)
        if self._laid_start == key:
            return
        if self.rng.random() < 0.3:
            self._taps.append(f"start {self.rng.randrange(len(session.players)) + 1}")
        else:
            self.lay_start(session)
            self._taps.append(self.host.text("Read the drawn tiles"))
        self._laid_start = key
        self.wait_until = now + LAY_SECONDS

    def play_move(self, session: RummikubSession, now: float) -> None:
        seat = session.current_seat
        assert seat is not None
        if session.rack_to_show() is not None and not self.taken:
            self.show_rack(session)
            self.wait_until = now + LAY_SECONDS
            return
        intent = self.intent
        if intent is None or intent.seq != session.seq:
            self.intent = intent = Intent(session.seq)
            self.start_move(session, intent)
            self.wait_until = now + LAY_SECONDS
            return
        if intent.mistake == "unfinished":
            return  # the clock runs out
        if intent.pressed_at is not None:
            # Pressed and still on the move: refused. Whose mistake? The player looks at the reading on
            # the screen: a tile read as something else is disputed (Correct the reading); a tile the
            # camera missed is nudged; his own mistake he mends, and after three refusals he draws.
            intent.pressed_at = None
            if session.refusal is None:
                return  # not refused: the press was not heard (out of turn, no reading yet)
            intent.refusals += 1
            self.moves["refused"] += 1
            refused = session.refused
            wrong = self.misread(refused) if refused is not None else []
            if wrong is None:
                self.moves["refused: a tile not seen"] += 1
            elif wrong:
                self.moves["refused: misread"] += 1
            if intent.refusals > 3:
                self.put_back()
                intent.mistake = "draw"
            elif wrong and session.can_dispute():
                self.moves["disputed"] += 1
                self._taps.append(self.host.text("Correct the reading"))
                self.wait_until = now + 0.05
                return
            elif wrong is None or wrong:
                self.changed()  # nudge the tiles: the camera sees them anew
                self.moves["nudged"] += 1
            elif intent.mistake == "loose" and self.table and len(self.table[-1]) == 1:
                tile = self.table.pop()[0]
                self.taken.remove(tile)
                self.racks[seat].append(tile)
                self.changed()
                intent.mistake = None
            else:
                self.put_back()
                intent.mistake = "draw"
            self.wait_until = now + LAY_SECONDS  # the camera sees the table fixed, then the press
            return
        self.press(session, now)

    def show_rack(self, session: RummikubSession) -> None:
        """The learning table: the rack (or the drawn tiles) laid face up and read, taken back once the
        game has it. A read the camera refused (a tile unsure, one not seen) he lays again and reads
        again, once; then he enters the tiles with the picker."""
        laid = self.shown or self.beside
        reads = self._rack_reads if self._rack_reads[0] == session.seq else (session.seq, 0)
        if not laid:
            self.lay_rack(session)
            self.moves["rack shown"] += 1
            reads = (session.seq, 0)
        elif reads[1] < 2:
            if reads[1] == 1:
                self.changed()  # laid again: the camera sees it anew
                self.moves["rack laid again"] += 1
            self._taps.append(self.host.text("Read my rack"))
            self.moves["rack read"] += 1
            reads = (session.seq, reads[1] + 1)
        else:
            self._taps.append(self.host.text("Enter my rack"))
            for tile in laid:
                self._taps.extend(self.picker_taps(tile, session))
            self._taps.append(self.host.text("Done"))
            self.beside, self.shown = [], []
            self.changed()
            self.moves["rack entered"] += 1
            reads = (session.seq, 0)
        self._rack_reads = reads

    def start_move(self, session: RummikubSession, intent: Intent) -> None:
        r = self.rng.random()
        laid = self.lay_best(session)
        if not laid:
            intent.mistake = "draw"
            return
        if r < MISTAKES["loose"]:
            intent.mistake = "loose" if self.lay_loose(session) else None
        elif r < MISTAKES["loose"] + MISTAKES["crooked"]:
            intent.mistake = "crooked" if self.lay_crooked(session) else None
        elif r < sum(MISTAKES.values()):
            intent.mistake = "unfinished"
            self.moves["unfinished"] += 1

    def press(self, session: RummikubSession, now: float) -> None:
        intent = self.intent
        assert intent is not None
        if intent.mistake == "draw":
            self.draw(session, now)
            return
        seat = session.current_seat
        assert seat is not None
        self.host.post(ButtonEvent(seat, "press", "autoplay"))
        intent.pressed_at = now
        self.moves["presses"] += 1
        self.wait_until = now + 0.2

    def draw(self, session: RummikubSession, now: float) -> None:
        self.moves["draws"] += 1
        seat = session.current_seat
        if seat is not None and self.rng.random() < 0.5:
            self.host.post(ButtonEvent(seat, "hold", "autoplay"))
        else:
            self._taps.append(self.host.text("Draw"))
        if self.intent is not None:
            self.intent.pressed_at, self.intent.mistake = now, "draw"
        self.wait_until = now + 0.2

    def play_correction(self, session: RummikubSession, now: float) -> None:
        """A correction on the screen, one tile at a time (the screen shows a page of the reading):
        an unsure reading — straighten the crooked tile and press again, or pick each unsure tile as it
        lies; a disputed one — pick each tile the screen shows otherwise than it lies. Then *Check*."""
        corr = session.correction
        assert corr is not None
        seat = session.current_seat
        fresh = self.intent is not None and self.intent.pressed_at is not None
        if not corr.disputed and not corr.fixes and fresh:
            self.moves["unsure"] += 1
            if self.intent is not None:
                self.intent.pressed_at = None
            if self.tilts and seat is not None and corr.for_ == "play" and self.rng.random() < 0.4:
                self.tilts = {}  # straighten the tile and press again
                self.changed()
                self.moves["straightened"] += 1
                self.host.post(ButtonEvent(seat, "press", "autoplay"))
                self.wait_until = now + LAY_SECONDS
                return
        todo = self.to_pick(corr)
        if todo is None:  # the reading misses a tile: no pick mends that
            self._taps.append(self.host.text("Cancel"))
            self.changed()
            self.moves["nudged"] += 1
            self.wait_until = now + LAY_SECONDS
            return
        if todo:
            index, tile = todo[0]
            if corr.page_of(index) != corr.page:
                self._taps.append("page on")
            else:
                self._taps.append(f"tile {index + 1}")
                self._taps.extend(self.picker_taps(tile, session))
                self.moves["tiles picked"] += 1
            self.wait_until = now + 0.05
            return
        self._taps.append(self.host.text("Check"))
        self.moves["checked: disputed" if corr.disputed else "checked: unsure"] += 1
        if self.intent is not None:
            self.intent.pressed_at = now
        self.wait_until = now + 0.05

    def to_pick(self, corr: Correction) -> list[tuple[int, Tile]] | None:
        """The tiles of a correction still to pick and what lies there: the unsure ones (and, when
        disputed, every tile the screen shows otherwise than it lies); ``None``: a tile not seen."""
        obs = corr.observation
        if corr.disputed:
            wrong = self.misread(obs)
            if wrong is None:
                return None
            return [(i, tile) for i, tile in wrong if corr.tile(i) != tile] + [
                (i, self.truth_tile(obs.tiles[i].center))
                for i in corr.unsure
                if i not in corr.fixes and all(i != k for k, _ in wrong)
            ]
        return [(i, self.truth_tile(obs.tiles[i].center)) for i in corr.unsure if i not in corr.fixes]

    def picker_taps(self, tile: Tile, session: RummikubSession) -> list[str]:
        if tile.is_joker:
            return ["joker"]
        return [f"colour {tile.colour}", f"number {tile.number}"]

    def play_reveal(self, session: RummikubSession, now: float) -> None:
        seat = session.to_reveal()
        if seat is None:
            return
        if self._revealing is not None and self._revealing[0] == seat:
            # A reading (or an entry) that did not enter the rack: enter it with the picker.
            self.moves["rack entered again"] += 1
            self._revealing = (seat, 1)
        else:
            self._revealing = (seat, 0 if self.rng.random() < 0.7 else 1)
        if self._revealing[1] == 0:
            self.lay_rack(session)
            self._taps.append(self.host.text("Read the rack"))
        else:
            self.beside, self.shown = [], []
            self.changed()
            stage = session.stage
            while isinstance(stage, Revealing) and stage.entry:
                session.unpick()
            for tile in self.racks[seat]:
                self._taps.extend(self.picker_taps(tile, session))
            self._taps.append(self.host.text("Done"))
        self.moves["racks shown"] += 1
        self.wait_until = now + LAY_SECONDS
