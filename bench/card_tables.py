"""The card games at the table: screen taps per turn and the UI frame time of each screen.

Taps: whole games autoplayed by the simulator (``--autoplay zatre`` / ``kalooki``: simulated players
who tap the screen's targets), the taps of each turn counted by the simulated table (the seat presses
not counted); the median and the spread over every turn of every game. Zatre: the later turns (one
card) apart from the rounds' first turns (two cards). Kalooki (two deals, a prize pool): the turns that
only draw and discard apart from the ones that lay, build or release a joker, three ways:

- ``picker``: every card entered on the card picker (the device without a card reader);
- ``camera``: through the camera path, each reading what lies on the table with every card sure (the
  simulated table answers the readings: what a reader that meets its targets would give), with the
  players' mistakes (a card taken from a meld, an illegal opening) refused and put right;
- ``stand-in``: through the camera path, the simulated table answering with a **stand-in reader** that
  is unsure of a share of the cards (``--unsure S``, default 0.1; ``device.sessions.kalooki_sim.stand_in``:
  not the card reader — what a turn costs once a reader is mostly sure): the unsure cards of melds lying
  as accepted are decided by the accepted table, the others the players pick one at a time;
- ``reader``: through the camera path with the shipped card reader reading the synthetic camera's
  frames (1280×720) in the vision worker, frame by frame; where it is unsure the players pick the cards
  it could not read, one at a time (``--reader-games N``, default 2: each reading costs about a tenth of
  a second or more); where the camera's reading is refused (cards unsure or not seen) the player first
  straightens the table's fans and presses again, once a turn, as the screen asks
  (``KalookiTable.straighten``). Counted beside the taps: the cards picked in corrections, the refusals
  by rule,
  and the **accepted misreads** (a card read with confidence as another and accepted by the rules; the
  simulated table goes on from the device's record, ``KalookiTable.misreads``).

Frame time at 800×480 (or WxH): the Zatre table mid-game with a card pending (the board view) and the
pad (the sheets view); every Kalooki screen of a 4-player game played by the simulated players (the
set-up, a turn with melds on the table and cards picked, a refusal, the end of a deal with the number
pad, the last deal's results, a correction of a reading with half its cards unsure, the end screen); the
budget of DESIGN.md (≤ 8 ms) beside them.

    .venv/bin/python bench/card_tables.py [--games N] [--reader-games N] [--unsure S]
        [--reader-first S] [--no-vote] [--only zatre|kalooki|reader] [WxH]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pygame

import device.sessions.kalooki as kalooki_session
import rules
from device.app import App
from device.config import config_from_dict
from device.export import to_json
from device.journal import Journal
from device.sessions.kalooki import VOTE_FRAMES, Correcting, Correction, KalookiSession
from device.sessions.kalooki_sim import KalookiTable, Lying, laid_out, turns_laid
from device.sessions.zatre import Touch, ZatreSession
from device.sessions.zatre_plan import LAY, choose_turn, next_tap
from device.sessions.zatre_sim import ZatreTable
from device.simulator import Simulator
from device.vision_worker import Vision
from rules.kalooki import Session as KalookiState
from vision.calibration import Calibration
from vision.card_zones import with_card_zones

sys.path.insert(0, str(Path(__file__).resolve().parent))
from device_frame import FRAMES, measure


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class LiveFeed:
    """A camera filming ``render()`` (the simulated table): a new frame at each look."""

    def __init__(self, render: Callable[[], np.ndarray | None]) -> None:
        self.render, self.seq = render, 0

    def latest(self) -> tuple[np.ndarray, int] | None:
        frame = self.render()
        if frame is None:
            return None
        self.seq += 1
        return frame, self.seq


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
        sim = Simulator(app, seed=game, autoplay="zatre:full")  # solo practice: the taps
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
        session.send(Touch("lay"))  # the Lay touch: the seat button of the player on turn
    app.step()
    next(t for t in app.canvas.targets if t.label == "hand 1.1").action()
    print(f"UI frame at {size[0]}×{size[1]} ({FRAMES} frames each; budget ≤ 8 ms)")
    measure(app, "Zatre: board, 18 cards laid, a card picked")
    screen = app.screens["zatre_table"]
    screen.toggle_view()  # type: ignore[attr-defined]
    measure(app, "Zatre: the pad (sheets), 4 players")


def replays(app: App, session: KalookiSession) -> bool:
    """Whether the finished game's export replays through the rules to the same game: every deal's
    penalties and payouts, each seat's winnings, and the scores the journal stored when it ended."""
    game = next(g for g in json.loads(to_json(app.journal))["games"] if g["game"] == "kalooki")
    replayed = rules.replay(session.kalooki.options, [rules.action_from_json(a) for a in game["actions"]])
    if not isinstance(replayed, KalookiState) or replayed != session.kalooki or replayed.outcome is None:
        return False
    return (
        [d["penalties"] for d in game["deals"]] == [list(r.penalties) for r in replayed.results]
        and [d["payouts"] for d in game["deals"]] == [list(r.payouts) for r in replayed.results]
        and game["payouts"] == list(replayed.winnings)
        and game["scores"] == list(replayed.outcome.scores)
    )


def kalooki_taps(
    games: int,
    size: tuple[int, int],
    mode: str = "picker",
    unsure: float = 0.1,
    first: int = 0,
    vote: bool = True,
) -> None:
    """Taps per turn of ``games`` autoplayed games (the simulator's seeds ``first`` …): ``picker``,
    ``camera`` (every reading sure), ``stand-in`` (a stand-in reader unsure of the share ``unsure`` of
    the cards) or ``reader`` (the shipped card reader on the synthetic camera's frames); see the module
    docstring. ``vote``: a reading that cannot decide is read again over the session's vote frames
    (``False``: the first reading is judged, ``kalooki.VOTE_FRAMES`` 0)."""
    kalooki_session.VOTE_FRAMES = VOTE_FRAMES if vote else 0
    plain: list[int] = []
    laying: list[int] = []
    refusals: Counter[str] = Counter()
    mistakes = reads = corrected = misreads = finished = replayed = asked = votes = straightened = 0
    again = 0
    KalookiTable.mode = "picker" if mode == "picker" else "camera"
    KalookiTable.unsure_share = unsure if mode == "stand-in" else 0.0
    for game in range(first, first + games):
        app, clock = new_app(size)
        sim = Simulator(app, seed=game, autoplay="kalooki", camera=mode == "reader")
        vision = None
        if mode == "reader":
            camera = app.config.camera
            calibration = with_card_zones(Calibration.identity((camera.width, camera.height)))
            vision = Vision(LiveFeed(sim.camera_frame), app.post, calibration=calibration, threaded=False)
            app.camera = vision
        last = None
        for _ in range(40000):
            sim.poll()
            app.step()
            if vision is not None:
                reads += vision.process_latest()
            clock.now += 0.1
            session = app.session
            if session is not None and session.refusal is not None and session.refusal is not last:
                last = session.refusal
                refusals[session.refusal.code] += 1
            if app.screen.name == "end":
                break
        if vision is not None:
            vision.stop()
        table, session = sim.table, app.session
        assert isinstance(table, KalookiTable) and isinstance(session, KalookiSession)
        mistakes += table.mistakes
        corrected += table.corrected
        straightened += table.straightened
        again += table.pressed_again
        misreads += table.misreads
        asked += session.asked
        votes += session.votes
        if session.finished:
            replayed += replays(app, session)
        app.journal.close()
        if not session.finished:  # counted apart: its turns are not all played
            print(f"  game {game} not finished in 40000 frames ({session.seq} actions)")
            continue
        finished += 1
        turns = turns_laid(session.history)
        assert len(turns) == len(table.taps), (len(turns), len(table.taps))
        for taps, laid in zip(table.taps, turns, strict=True):
            (laying if laid else plain).append(taps)
    KalookiTable.mode = "camera"
    KalookiTable.unsure_share = 0.0
    kalooki_session.VOTE_FRAMES = VOTE_FRAMES
    every = plain + laying
    median = statistics.median
    how = {
        "picker": "every card entered on the picker",
        "camera": "through the camera path, every reading sure",
        "stand-in": f"through the camera path, a stand-in reader unsure of {unsure:.0%} of the cards",
        "reader": "through the camera path, the shipped card reader on the synthetic frames",
    }[mode]
    print(
        f"Kalooki, {how}: {games} autoplayed 2-player games of 2 deals (seeds {first}–{first + games - 1};"
        f" {finished} finished,"
        f" {replayed} exports replayed to the same scores and payouts),"
        f" {len(every)} turns (+ the seat button)"
    )
    print(f"  taps per turn          median {median(every):.0f}   min {min(every)}   max {max(every)}")
    print(f"  draw and discard       median {median(plain):.0f}   ({len(plain)} turns)")
    if laying:
        spread = sum(1 for t in laying if t <= 1) / len(laying)
        print(
            f"  lay, build or release  median {median(laying):.0f}"
            f"   ({len(laying)} turns, {spread:.0%} at most 1 tap)"
        )
    if mode != "picker":
        seen = ", ".join(f"{code} {n}" for code, n in refusals.most_common())
        print(
            f"  mistakes made {mistakes}; cards picked in corrections {corrected};"
            f" accepted misreads {misreads}; refusals: {seen or 'none'}"
            + (f"; frames through the vision worker {reads}" if reads else "")
        )
        print(
            f"  presses read {asked}, of them read again over frames and voted {votes};"
            f" tables straightened and pressed again {straightened};"
            f" pressed again with no answer seen {again}"
        )


def kalooki_frames(size: tuple[int, int]) -> None:
    """Every Kalooki screen of a 4-player game with a pool, as the simulated players reach it."""
    app, clock = new_app(size)
    KalookiTable.mode = "picker"  # the screens with cards picked
    print(f"UI frame at {size[0]}×{size[1]} ({FRAMES} frames each; budget ≤ 8 ms)")
    app.show("players", game="kalooki")
    measure(app, "Kalooki: set-up (players)")
    options = app.settings.game_options("kalooki", players=4, seed=3, deals=2, pool_cents=10000)
    app.start_game(options, ["Ala", "Ola", "Jan", "Eva"])
    session = app.session
    assert isinstance(session, KalookiSession)
    sim = Simulator(app, seed=3, autoplay="kalooki")
    wanted = {
        "correction": "Kalooki: a correction, half unsure",
        "turn": "Kalooki: a turn, 4+ melds, cards picked",
        "refusal": "Kalooki: a refusal on the entry line",
        "pad": "Kalooki: end of a deal, the number pad",
        "results": "Kalooki: the last deal's results",
    }
    for _ in range(40000):
        sim.poll()
        app.step()
        clock.now += 0.1
        if app.screen.name == "end":
            break
        if app.screen.name != "kalooki_table":
            continue
        phase = session.phase
        if "correction" in wanted and phase == "play" and len(session.deal.table) >= 4:
            # The reading of the table by a reader unsure of half its cards (no camera: the list alone).
            back = session.current_stage()
            reading = laid_out(Lying.of(session.deal), (1280, 720), 0.5, random.Random(1))
            corr = Correction(reading, {})
            assert session.machine is not None and corr.required()
            session.machine.go(Correcting(back, corr), cause="bench")
            measure(app, wanted.pop("correction"))
            session.machine.go(back, cause="bench")
        elif "turn" in wanted and phase == "play" and len(session.deal.table) >= 4 and session.picker.cards:
            measure(app, wanted.pop("turn"))
        elif "refusal" in wanted and phase == "play" and session.picker.cards and session.refusal is None:
            session.refuse("pick_one_card", "pick exactly one card")  # as a wrong tap would
            measure(app, wanted.pop("refusal"))
            session.refusal = None
        elif "pad" in wanted and phase == "reveal" and session.pad is not None:
            measure(app, wanted.pop("pad"))
        elif "results" in wanted and phase == "turn_up" and session.kalooki.results:
            measure(app, wanted.pop("results"))
    assert app.screen.name == "end" and not wanted, wanted
    measure(app, "Kalooki: end screen (winnings + chart)")
    app.journal.close()
    KalookiTable.mode = "camera"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--reader-games", type=int, default=2, help="games through the shipped card reader")
    parser.add_argument("--reader-first", type=int, default=0, help="the first reader game's seed")
    parser.add_argument(
        "--unsure", type=float, default=0.1, help="the stand-in reader's share of unsure cards"
    )
    parser.add_argument(
        "--only",
        choices=("zatre", "kalooki", "reader"),
        default=None,
        help="reader: Kalooki's reader games alone",
    )
    parser.add_argument(
        "--no-vote",
        action="store_true",
        help="reader games: judge the first reading, never read again and vote",
    )
    parser.add_argument("size", nargs="?", default="800x480")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    assert len(size) == 2
    pygame.display.init()
    if args.only in (None, "zatre"):
        zatre_frames((size[0], size[1]))
        zatre_taps(args.games, (size[0], size[1]))
    if args.only == "reader":
        kalooki_taps(
            args.reader_games, (size[0], size[1]), "reader", first=args.reader_first, vote=not args.no_vote
        )
    if args.only in (None, "kalooki"):
        kalooki_frames((size[0], size[1]))
        kalooki_taps(args.games, (size[0], size[1]), "picker")
        kalooki_taps(args.games, (size[0], size[1]), "camera")
        if args.unsure > 0:
            kalooki_taps(args.games, (size[0], size[1]), "stand-in", args.unsure)
        if args.reader_games:
            kalooki_taps(args.reader_games, (size[0], size[1]), "reader", first=args.reader_first)


if __name__ == "__main__":
    main()
