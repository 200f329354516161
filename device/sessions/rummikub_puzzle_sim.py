"""The simulated table of a Rummikub puzzle: the position laid out with a real set, the answer laid,
filmed by the synthetic camera and read back (the same rendering as the Rummikub table).

Keys, for a person solving by hand: **M** lays the best answer, **W** a weaker one (the best move
of the rack without one of the best answer's tiles), **T** takes the answer back (the position as
dealt); the seat key (or *Check my answer*) asks for the reading. Autoplay: the best answer on two
puzzles in three, else the weaker.
"""

from __future__ import annotations

import random

import pygame

from device.events import Key, Seen
from device.session import GameSession
from device.sessions.rummikub_puzzle import PuzzleSession
from device.sessions.rummikub_sim import RummikubTable
from device.sessions.simulated import TableHost, register_table
from rules.rummikub import best_move

__all__ = ["PuzzleTable"]


@register_table
class PuzzleTable(RummikubTable):
    games = ("rummikub_puzzle",)

    def __init__(self, host: TableHost, rng: random.Random, *, camera: bool) -> None:
        super().__init__(host, rng, camera=camera)
        self.game_id: int | None = None
        self.asked_at = -1
        self.answered_puzzle = False

    def setup(self, session: PuzzleSession) -> None:
        """The position of a new puzzle laid out."""
        if self.game_id != session.game_id:
            self.game_id = session.game_id
            self.table = [list(m) for m in session.puzzle.table]
            self.beside, self.taken, self.tilts = [], [], {}
            self.answered_puzzle = False
            self.changed()

    def poll(self, session: GameSession) -> None:
        if not isinstance(session, PuzzleSession):
            return
        self.setup(session)
        if not self.camera and session.awaiting and self.asked_at != session.seq:
            self.asked_at = session.seq
            self.host.post(Seen(self.observation(), kind="requested"))
        if not session.awaiting:
            self.asked_at = -1

    def lay_answer(self, session: PuzzleSession, weaker: bool = False) -> bool:
        puzzle = session.puzzle
        rack = list(puzzle.rack)
        if weaker and puzzle.advice.placed:
            rack.remove(puzzle.advice.placed[0])  # the best move without one of its tiles
        move = best_move(puzzle.table, rack) if rack else None
        if move is None and weaker:
            move = puzzle.advice.move
        if move is None:
            return False
        self.table = [list(m) for m in move.table]
        self.tilts = {}
        self.changed()
        return True

    def on_key(self, event: Key) -> bool:
        session = self.host.session
        if not event.down or not isinstance(session, PuzzleSession):
            return False
        if event.key == pygame.K_m:
            self.lay_answer(session)
        elif event.key == pygame.K_w:
            self.lay_answer(session, weaker=True)
        elif event.key == pygame.K_t:
            self.table = [list(m) for m in session.puzzle.table]
            self.changed()
        else:
            return False
        return True

    @classmethod
    def autoplay_options(cls, game: str, rng: random.Random) -> dict[str, object]:
        return {"players": 1, "difficulty": rng.choice(("easy", "medium", "hard"))}

    def play(self, session: GameSession) -> None:
        if not isinstance(session, PuzzleSession) or session.phase != "solving":
            return
        now = self.clock()
        if now < self.wait_until or not self.filmed(now):
            return
        if not self.answered_puzzle:
            self.answered_puzzle = True
            if not self.lay_answer(session, weaker=self.rng.random() < 1 / 3):
                self.tap(self.host.text("No move"))
            self.wait_until = now + 0.6
            return
        self.tap(self.host.text("Check my answer"))
        self.wait_until = now + 1.0
