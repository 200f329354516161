"""Time ``read_dice`` on 1280×720 frames with five dice (budget: ≤ 15 ms median on the dev machine).

    .venv/bin/python bench/dice_read.py [--frames 200]

Frames are synthetic scenes (``vision.synth``) with random dice values, positions, colours and light;
the models are loaded and warmed up before timing. Prints median, 90th percentile and worst.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from vision import read_dice
from vision.synth import render_dice_scene


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--scenes", type=int, default=20)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    scenes = [render_dice_scene(rng.integers(1, 7, 5).tolist(), rng)[0] for _ in range(args.scenes)]
    for frame in scenes[:3]:
        read_dice(frame)
    times = []
    found = []
    for i in range(args.frames):
        frame = scenes[i % len(scenes)]
        start = time.perf_counter()
        observation = read_dice(frame)
        times.append((time.perf_counter() - start) * 1000)
        found.append(len(observation.dice))
    ms = np.array(times)
    print(
        f"read_dice 1280x720, 5 dice, {args.frames} frames: median {np.median(ms):.2f} ms, "
        f"p90 {np.percentile(ms, 90):.2f} ms, worst {ms.max():.2f} ms; "
        f"dice found per frame {np.mean(found):.2f}"
    )


if __name__ == "__main__":
    main()
