"""Rummikub at the table: press-to-verdict time and the UI frame time of the Rummikub screen.

Press to verdict: what the device does between a seat press and the verdict once the table is still —
read a full 1920×1080 table (``vision.read_tiles``) and check the move (``rules.rummikub.check_turn``)
— on synthetic tables of 20 to 90 tiles (budget ≤ 300 ms median on the Pi, DESIGN.md). The settle wait
itself (the table must be still) is the camera's, not counted here.

UI frame: the Rummikub table screen at 800×480 (budget ≤ 8 ms) while playing, correcting an unsure
tile with the picker, and restoring after a timeout, with the camera view changing every frame.

    .venv/bin/python bench/rummikub_table.py [--tables N]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pygame

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from device_frame import measure

from device.app import App
from device.camera_view import CameraView, view_items
from device.config import config_from_dict
from device.events import Seen
from device.journal import Journal
from device.sessions.rummikub import Restoring, RummikubSession, same_table
from device.sessions.rummikub_sim import laid_out
from drivers.events import ButtonEvent
from rules.errors import IllegalAction
from rules.rummikub import Meld, Start, check_turn
from vision.synth import random_melds, render_table
from vision.tiles import TableObservation, read_tiles


def press_to_verdict(tables: int) -> None:
    rng = random.Random(7)
    print("press to verdict: read a 1920×1080 table + check_turn (the settle wait not counted)")
    every: list[float] = []
    for size in (20, 40, 60, 90):
        times, exact = [], 0
        for n in range(tables):
            after = random_melds(rng, size)
            before = after[:-1]
            frame, truth = render_table(
                after, seed=n, size=(1920, 1080), tile_size=96, angle=0.0, gap=1.0, row_gap=0.5
            )
            start = time.perf_counter()
            reading = read_tiles(frame)
            with contextlib.suppress(IllegalAction):  # a misread refused is a verdict too
                check_turn(before, reading.table())
            times.append((time.perf_counter() - start) * 1000)
            seen = [Meld(tuple(m)) for m in reading.table()]
            exact += same_table(seen, [Meld(tuple(m)) for m in truth.meld_tiles()])
        every += times
        times.sort()
        print(
            f"  {size:3d} tiles   median {statistics.median(times):6.1f} ms   worst {times[-1]:6.1f} ms"
            f"   read exactly {exact}/{tables}"
        )
    every.sort()
    print(f"  all          median {statistics.median(every):6.1f} ms   worst {every[-1]:6.1f} ms")


class LiveTable:
    """The camera's view of a table of 40 tiles, a new preview every frame."""

    def __init__(self, observation: TableObservation) -> None:
        self.observation = observation
        self.seq = 0
        self.images = [np.full((270, 480, 3), 40 + i * 10, dtype=np.uint8) for i in range(8)]

    def view(self) -> CameraView:
        self.seq += 1
        items = view_items(self.observation)
        return CameraView(
            self.images[self.seq % 8],
            (1280, 720),
            items,
            (),
            "settled",
            self.seq,
            observation=self.observation,
        )

    def request(self, frames: int = 1) -> None:
        pass


def frame_times() -> None:
    pygame.display.init()
    state = Path(tempfile.mkdtemp())
    config = config_from_dict({"device": {"state_dir": str(state), "language": "en"}})
    app = App(config, surface=pygame.Surface((800, 480)), journal=Journal.open(config.device.journal_path))
    melds = random_melds(random.Random(3), 40)
    camera = LiveTable(laid_out(melds))
    app.camera = camera
    options = app.settings.game_options("rummikub", players=4)
    session = app.start_game(options, ["Ala", "Ola", "Ela", "Iza"])
    assert isinstance(session, RummikubSession)
    session.submit(Start(0))
    print("UI frame time, Rummikub table at 800×480 (budget ≤ 8 ms)")
    measure(app, "rummikub: start of a move")
    app.post(ButtonEvent(0, "press", "bench"))
    app.step()
    camera.observation = laid_out(melds, unsure=(2, 5))
    for _ in range(2):  # the reading, then the vote of the next frames, unsure of the same tiles
        app.post(Seen(camera.observation, kind="requested"))
        app.step()
    assert session.phase == "correcting", session.phase
    measure(app, "rummikub: unsure tiles, the picker")
    assert session.machine is not None
    session.machine.go(Restoring(), cause="bench")  # the restore view, as after a timeout
    session.timer.stop()
    measure(app, "rummikub: restore after a timeout")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=12, help="tables per size class")
    args = parser.parse_args()
    press_to_verdict(args.tables)
    frame_times()


if __name__ == "__main__":
    main()
