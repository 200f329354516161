"""The card games at the table: screen taps per turn and the UI frame time of each screen.

Taps: whole games autoplayed by the simulator (``--autoplay zatre``: simulated players who tap the
screen's targets), the taps of each turn counted by the simulated table (the seat press that enters
the turn not counted); the median and the spread over every turn of every game, and the median of the
later turns (one card) apart from the rounds' first turns (two cards).

Frame time at 800×480 (or WxH): the Zatre table mid-game with a card pending (the board view) and the
pad (the sheets view), the budget of DESIGN.md (≤ 8 ms) beside it.

    .venv/bin/python bench/card_tables.py [--games N] [WxH]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame

from device.app import App
from device.config import config_from_dict
from device.journal import Journal
from device.sessions.zatre import ZatreSession
from device.sessions.zatre_plan import LAY, choose_turn, next_tap
from device.sessions.zatre_sim import ZatreTable
from device.simulator import Simulator

sys.path.insert(0, str(Path(__file__).resolve().parent))
from device_frame import FRAMES, measure


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def new_app(size: tuple[int, int]) -> tuple[App, Clock]:
    state = Path(tempfile.mkdtemp())
    config = config_from_dict({"device": {"state_dir": str(state)}})
    clock = Clock()
    surface = pygame.Surface(size)
    return App(config, surface=surface, journal=Journal.open(config.device.journal_path), clock=clock), clock


def zatre_taps(games: int, size: tuple[int, int]) -> None:
    firsts: list[int] = []
    later: list[int] = []
    for game in range(games):
        app, clock = new_app(size)
        sim = Simulator(app, seed=game, autoplay="zatre")
        first_turns: list[bool] = []
        seen = -1
        for _ in range(20000):
            sim.poll()
            session = app.session
            if isinstance(session, ZatreSession) and session.seq != seen and not session.finished:
                seen = session.seq
                first_turns.append(session.zatre.first_turn)
            app.step()
            clock.now += 0.1
            if app.screen.name == "end":
                break
        table = sim.table
        assert isinstance(table, ZatreTable) and app.session is not None and app.session.finished
        for taps, first in zip(table.taps, first_turns, strict=True):
            (firsts if first else later).append(taps)
        app.journal.close()
    every = firsts + later
    print(f"Zatre: {games} autoplayed 2-player games, {len(every)} turns laid by taps (+ the seat button)")
    median = statistics.median
    print(f"  taps per turn          median {median(every):.0f}   min {min(every)}   max {max(every)}")
    print(f"  one-card turns         median {median(later):.0f}   ({len(later)} turns)")
    print(f"  rounds' first turns    median {median(firsts):.0f}   ({len(firsts)} turns, two cards)")


def zatre_frames(size: tuple[int, int]) -> None:
    app, _ = new_app(size)
    options = app.settings.game_options("zatre", players=4, seed=1)
    app.start_game(options, ["Ala", "Ola", "Jan", "Eva"])
    session = app.session
    assert isinstance(session, ZatreSession)
    rng = random.Random(1)
    while session.seq < 18:  # most of round 1 laid: a full board
        plan = choose_turn(session.zatre, rng)
        app.step()
        label = next_tap(session, plan, [t.label for t in app.canvas.targets])
        while label != LAY:
            target = next(t for t in app.canvas.targets if t.label == label)
            target.action()
            app.step()
            label = next_tap(session, plan, [t.label for t in app.canvas.targets])
        seat = session.current_seat
        assert seat is not None
        session.confirm(seat)
    app.step()
    next(t for t in app.canvas.targets if t.label == "hand 1.1").action()
    print(f"UI frame at {size[0]}×{size[1]} ({FRAMES} frames each; budget ≤ 8 ms)")
    measure(app, "Zatre: board, 18 cards laid, a card picked")
    screen = app.screens["zatre_table"]
    screen.toggle_view()  # type: ignore[attr-defined]
    measure(app, "Zatre: the pad (sheets), 4 players")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("size", nargs="?", default="800x480")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    assert len(size) == 2
    pygame.display.init()
    zatre_frames((size[0], size[1]))
    zatre_taps(args.games, (size[0], size[1]))


if __name__ == "__main__":
    main()
