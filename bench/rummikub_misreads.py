"""Rummikub through the camera path: how often the reader's failures reach the players, with and
without the vote over frames.

Simulated players play whole games (``--autoplay rummikub``'s players) on the synthetic table, filmed
at 1280×720 with fresh sensor grain in every frame and read by ``vision.read_tiles`` through the settle
tracker and the vision worker — no layout is tried again until the reader reads it right: the session
lives with what the reader says. The players lay tiles as people do (sometimes crooked, sometimes a
tile loose by mistake, sometimes too slow), straighten or pick an unsure tile, and dispute a refusal
caused by a misread by correcting it (*Correct the reading*). Counted per mode, over the same seeds:

- presses, the votes asked for (a reading with an unsure tile or a meld one tile makes invalid, read
  again over 5 frames), refusals, and of them those caused by a misread (the reading shows a tile as
  something else) or by a tile the reader did not see;
- the corrections: unsure readings (straightened, or picked and checked), refusals disputed and the
  tiles picked; misreads the rules could not refuse (a play accepted on a wrong reading); restores
  the players vouched for (the camera misread the restored table);
- the journal's ``corrections`` rows: confident misreads corrected, unsure tiles confirmed.

``--learning``: learning tables (the coach), read as the appliance reads them (``LEARNING_READER``: the
rack zone kept apart, ``vision.tile_zones``): each mover shows his rack face up in the rack zone before
his move (after a draw, the tiles drawn); counted too: the racks shown, read, laid again after a refused
read, entered with the picker, and the refusals by code.

``--washed S``: every frame washed out, its colours' saturation × S (``bench/tiles_stress.py``'s
``washed_out``: a phone's or a dim room's pale colours), for the reader's colour in the session.

    .venv/bin/python bench/rummikub_misreads.py [--games N] [--seed S] [--mode vote|single|both] [--learning]
        [--washed S]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pygame

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tiles_stress import washed_out

import device.sessions.rummikub as rummikub_session
from device.app import App
from device.config import config_from_dict
from device.journal import Journal
from device.sessions.rummikub import RummikubSession
from device.sessions.rummikub_sim import RummikubTable
from device.simulator import Simulator
from device.vision_worker import VisionWorker
from vision.calibration import Calibration
from vision.settle import SettleTracker
from vision.tile_vote import vote_tiles
from vision.tile_zones import TILE_ZONES, read_tile_table, with_tile_zones
from vision.tiles import read_tiles

STEP = 0.1  # s of the game's clock per frame
COUNTED = (
    "presses",
    "votes",
    "refused",
    "refused: misread",
    "refused: a tile not seen",
    "disputed",
    "checked: disputed",
    "unsure",
    "straightened",
    "checked: unsure",
    "tiles picked",
    "nudged",
    "accepted misread",
    "restore vouched",
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class SimulatorCamera:
    """The simulator's picture as a camera: a new frame (and sequence number) per read, its colours'
    saturation × ``washed`` (1: as drawn)."""

    def __init__(self, simulator: Simulator, washed: float = 1.0) -> None:
        self.simulator = simulator
        self.washed = washed
        self.seq = 0

    def latest(self) -> tuple[np.ndarray, int]:
        self.seq += 1
        frame = self.simulator.camera_frame()
        return (frame if self.washed == 1.0 else washed_out(frame, self.washed)), self.seq


def play(
    games: int, seed: int, vote: bool, max_frames: int, learning: bool = False, washed: float = 1.0
) -> tuple[Counter[str], dict[str, float]]:
    rummikub_session.VOTE_FRAMES = 5 if vote else 0
    pygame.display.init()
    state = Path(tempfile.mkdtemp())
    config = config_from_dict({"device": {"state_dir": str(state), "language": "en"}})
    clock = Clock()
    journal = Journal.open(config.device.journal_path)
    app = App(config, surface=pygame.Surface((800, 480)), journal=journal, clock=clock)
    if learning:
        app.settings.set_learning("rummikub", True)
    sim = Simulator(app, seed=seed, autoplay="rummikub", camera=True)
    if learning:  # the appliance's synthetic calibration (the whole frame) and the learning table's reader
        calibration = with_tile_zones(Calibration.identity((1280, 720)))
        tracker = SettleTracker(calibration=calibration, reader=read_tile_table)
        worker = VisionWorker(
            SimulatorCamera(sim, washed),
            tracker,
            app.post,
            calibration=calibration,
            zones=TILE_ZONES,
            clock=clock,
            vote=vote_tiles,
        )
    else:
        tracker = SettleTracker(reader=read_tiles)
        worker = VisionWorker(SimulatorCamera(sim, washed), tracker, app.post, clock=clock, vote=vote_tiles)
    refusals: Counter[str] = Counter()
    last_refusal: object = None
    app.camera = worker
    counts: Counter[str] = Counter()
    votes = 0
    session_seen: RummikubSession | None = None
    started = time.perf_counter()
    frames = 0
    while frames < max_frames and len(journal.games(finished_only=True)) < games:
        sim.poll()
        worker.process_latest()
        app.step()
        clock.now += STEP
        frames += 1
        session = app.session
        refusal = session.refusal if session is not None else None
        if refusal is not None and refusal is not last_refusal:
            refusals["refused: " + refusal.code] += 1
        last_refusal = refusal
        if isinstance(session, RummikubSession) and session is not session_seen:
            votes += session_seen.votes if session_seen is not None else 0
            session_seen = session
    if session_seen is not None:
        votes += session_seen.votes
    table = sim.table
    if isinstance(table, RummikubTable):
        counts.update(table.moves)
    counts["votes"] = votes
    counts.update(refusals)
    finished = journal.games(finished_only=True)
    counts["games finished"] = len(finished)
    for game in journal.games():
        for action in journal.actions(game.id):
            kind = action.action.get("kind", "") if isinstance(action.action, dict) else ""
            counts["journal: " + str(kind).removeprefix("rummikub.")] += 1
    for stored in journal.corrections():
        fix = stored.fix
        if fix.sure and fix.misread:
            counts["journal: confident misreads corrected"] += 1
        elif fix.misread:
            counts["journal: unsure tiles picked otherwise"] += 1
        else:
            counts["journal: unsure tiles confirmed"] += 1
    journal.close()
    figures = {"seconds": time.perf_counter() - started, "frames": frames}
    return counts, figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2, help="games per mode")
    parser.add_argument("--seed", type=int, default=1, help="the simulator's seed (the same for each mode)")
    parser.add_argument("--mode", choices=("vote", "single", "both"), default="both")
    parser.add_argument("--max-frames", type=int, default=60000, help="give up after this many frames")
    parser.add_argument("--learning", action="store_true", help="learning tables (racks in the rack zone)")
    parser.add_argument(
        "--washed", type=float, default=1.0, help="every frame's colour saturation × this (1: as drawn)"
    )
    args = parser.parse_args()
    modes = {"vote": [True], "single": [False], "both": [False, True]}[args.mode]
    results = {}
    for vote in modes:
        name = "vote over 5 frames" if vote else "one frame"
        counts, figures = play(args.games, args.seed, vote, args.max_frames, args.learning, args.washed)
        results[name] = counts
        print(
            f"{name}: {counts['games finished']} of {args.games} games finished in {figures['frames']} frames"
            f" ({figures['seconds']:.0f} s)"
        )
    keys = [*COUNTED, *sorted({k for c in results.values() for k in c} - set(COUNTED) - {"games finished"})]
    names = list(results)
    print(f"{'':42s}" + "".join(f"{n:>20s}" for n in names))
    for key in keys:
        print(f"{key:42s}" + "".join(f"{results[n][key]:>20d}" for n in names))


if __name__ == "__main__":
    main()
