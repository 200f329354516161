"""Time ``read_dice`` on 1280×720 frames with five dice (budget: ≤ 15 ms median on the dev machine).

    .venv/bin/python bench/dice_read.py [--frames 200] [--models vision/models]

Frames are synthetic scenes (``vision.synth``) with random dice values, positions, colours and light;
the models are loaded and warmed up before timing. Prints median, 90th percentile and worst wall time
and the median CPU time of a frame (``time.process_time``: what a busy shared machine inflates least).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from vision import read_dice
from vision.dice import DiceModels
from vision.nets import MODELS
from vision.synth import render_dice_scene


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--scenes", type=int, default=20)
    parser.add_argument("--models", type=Path, default=MODELS)
    args = parser.parse_args()
    models = DiceModels.load(args.models)
    rng = np.random.default_rng(0)
    scenes = [render_dice_scene(rng.integers(1, 7, 5).tolist(), rng)[0] for _ in range(args.scenes)]
    for frame in scenes[:3]:
        read_dice(frame, models=models)
    times, cpu = [], []
    found = []
    for i in range(args.frames):
        frame = scenes[i % len(scenes)]
        start, start_cpu = time.perf_counter(), time.process_time()
        observation = read_dice(frame, models=models)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        found.append(len(observation.dice))
    ms = np.array(times)
    print(
        f"read_dice 1280x720, 5 dice, {args.frames} frames: median {np.median(ms):.2f} ms, "
        f"p90 {np.percentile(ms, 90):.2f} ms, worst {ms.max():.2f} ms; CPU median {np.median(cpu):.2f} ms; "
        f"dice found per frame {np.mean(found):.2f}"
    )


if __name__ == "__main__":
    main()
