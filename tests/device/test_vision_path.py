"""The camera path end to end with the real reader: the simulator's synthetic table, the settle tracker,
the worker, the session. Held dice lie in the hold zone and come back as held positions."""

from __future__ import annotations

import numpy as np
import pygame

import vision
from device.events import Key
from device.sessions.dice_sim import DiceTable
from device.simulator import Simulator
from device.vision_worker import VisionWorker
from tests.device.helpers import start
from vision.synth import HOLD_FRACTION


class SimulatorCamera:
    """``CameraChain.latest()`` over the simulator's current picture: a new sequence number per read."""

    def __init__(self, simulator: Simulator) -> None:
        self.simulator = simulator
        self.seq = 0

    def latest(self) -> tuple[np.ndarray, int]:
        self.seq += 1
        return self.simulator.camera_frame(), self.seq


def settle(app, worker: VisionWorker, frames: int = 12) -> None:
    for _ in range(frames):
        worker.process_latest()
    app.step()


def test_a_roll_and_a_reroll_through_the_camera(make_app) -> None:
    app = make_app()
    sim = Simulator(app, seed=8, camera=True)
    zone = vision.HoldZone(0, HOLD_FRACTION * 720, 1280, 720)
    calibration = vision.Calibration.identity((1280, 720), hold_zone=zone)
    worker = VisionWorker(
        SimulatorCamera(sim),
        vision.SettleTracker(calibration=calibration),
        app.post,
        calibration=calibration,
        clock=lambda: 0.0,  # no camera stalls here (a slow test machine is not a lost frame)
    )
    app.camera = worker
    start(app, "Generał (classic)")
    sim.poll()
    settle(app, worker)  # the empty tray: nothing is posted
    assert app.session.rolls_used == 0
    app.post(Key(pygame.K_r))
    app.step()
    settle(app, worker)
    session = app.session
    assert isinstance(sim.table, DiceTable) and sim.table.values is not None
    assert session.rolls_used == 1 and sorted(session.dice.values) == sorted(sim.table.values)
    kept = sim.table.values[0]
    app.post(Key(pygame.K_1))
    app.step()
    app.post(Key(pygame.K_r))
    app.step()
    settle(app, worker)
    assert sim.table.values is not None
    assert session.rolls_used == 2 and sorted(session.dice.values) == sorted(sim.table.values)
    (held,) = session.history[-1].held
    assert session.dice.values[held] == kept
    app.step()
    kinds = {d.kind for d in app.canvas.log}
    assert {"image", "seen_die", "hold_zone"} <= kinds
