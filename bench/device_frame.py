"""UI frame time at 800×480 (budget ≤ 8 ms): the dice table of a 4-player game, after a roll, with the
camera view changing every frame; also the sheets tab, the triple variant and the end screen.

    .venv/bin/python bench/device_frame.py [WxH]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pygame

from device.app import App
from device.camera_view import CameraView, ViewItem, ViewZone
from device.config import config_from_dict
from device.journal import Journal
from device.sessions.dice_events import DiceSeen, SeenDie

FRAMES = 300


class MovingCamera:
    """A new preview every frame, as while the dice roll: the worst case for the camera panel."""

    def __init__(self) -> None:
        self.seq = 0
        self.images = [np.full((270, 480, 3), i * 20, dtype=np.uint8) for i in range(8)]

    def view(self) -> CameraView:
        self.seq += 1
        dice = tuple(
            ViewItem(str(v), (150.0 + 200 * i, 300.0), 70.0, "hold" if i > 2 else None)
            for i, v in enumerate((1, 3, 3, 5, 6))
        )
        zone = ViewZone("hold", ((0.0, 576.0), (1280.0, 576.0), (1280.0, 720.0), (0.0, 720.0)))
        return CameraView(
            self.images[self.seq % 8], (1280, 720), dice, (zone,), "rolling", self.seq, moving=True
        )


def measure(app: App, label: str) -> None:
    screen = app.screen.name
    times = []
    for _ in range(FRAMES):
        start = time.perf_counter()
        app.step()
        times.append((time.perf_counter() - start) * 1000)
    if app.screen.name != screen:  # a failure on the way: the figures would be the failsafe screen's
        raise SystemExit(f"{label}: the screen went from {screen} to {app.screen.name}: {app.failure}")
    times.sort()
    print(f"{label:<40} median {statistics.median(times):5.2f} ms   p95 {times[int(FRAMES * 0.95)]:5.2f} ms")


def main() -> None:
    size = tuple(int(v) for v in sys.argv[1].split("x")) if len(sys.argv) > 1 else (800, 480)
    pygame.display.init()
    surface = pygame.display.set_mode(size)
    state = Path(tempfile.mkdtemp())
    config = config_from_dict({"device": {"state_dir": str(state)}})
    app = App(config, surface=surface, journal=Journal.open(config.device.journal_path))
    app.camera = MovingCamera()
    print(f"UI frame at {size[0]}×{size[1]} ({FRAMES} frames each; budget ≤ 8 ms)")
    for variant, label in (("classic", "Generał"), ("triple", "triple Generał")):
        options = app.settings.game_options("yahtzee", players=4, seed=1, variant=variant)
        app.start_game(options, ["Ala", "Ola", "Jan", "Eva"])
        app.post(DiceSeen(tuple(SeenDie(v) for v in (3, 3, 3, 6, 6))))
        app.step()
        table = app.screens["dice_table"]
        table.tab = "choices"
        measure(app, f"{label}: table, choices, camera moving")
        table.tab = "sheets"
        measure(app, f"{label}: table, sheets, camera moving")
    session = app.session
    while not session.finished:
        app.post(DiceSeen(tuple(SeenDie(v) for v in (2, 2, 2, 4, 4))))
        app.step()
        session.choose_best()
    app.step()
    measure(app, "end screen (ranking + chart)")
    app.show("home")
    measure(app, "home")
    app.journal.close()


if __name__ == "__main__":
    main()
