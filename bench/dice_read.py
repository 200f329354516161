"""Time ``read_dice`` on 1280×720 frames with five dice (budget: ≤ 15 ms median on the dev machine).

    .venv/bin/python bench/dice_read.py [--frames 200] [--models vision/models] [--against DIR]

Frames are synthetic scenes (``vision.synth``) with random dice values, positions, colours and light;
the models are loaded and warmed up before timing. Prints median, 90th percentile and worst wall time
and the median CPU time of a frame (``time.process_time``: what a busy shared machine inflates least).

``--against DIR``: also the nets in DIR, timed in the same process frame by frame in turn (the order
swapped every frame), so that both meet the same load; then the median of the paired CPU differences,
and per frame the candidates the detector gives and the crops read at all views (the doubtful ones:
``vision.dice.DiceModels.classify``), which is where two nets of the same size differ in time.
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


def doubtful(models: DiceModels, frame: np.ndarray) -> tuple[int, int]:
    """The detector's candidates in ``frame`` and how many of their crops the reader reads at all views
    (the rule of ``DiceModels.classify``)."""
    detections = models.detect(frame)
    if not detections:
        return 0, 0
    classifier = models.classifier
    first = classifier.turn_logits(models.crops(frame, detections), (0, 1))
    votes = first.argmax(axis=2)
    unsure = classifier.probabilities(first.mean(axis=0)).max(axis=1) < classifier.recheck_below
    return len(detections), int(((votes[0] != votes[1]) | unsure).sum())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--scenes", type=int, default=20)
    parser.add_argument("--models", type=Path, default=MODELS)
    parser.add_argument("--against", type=Path, help="other nets timed in turn with --models")
    args = parser.parse_args()
    folders = [args.models] + ([args.against] if args.against else [])
    readers = [DiceModels.load(folder) for folder in folders]
    rng = np.random.default_rng(0)
    scenes = [render_dice_scene(rng.integers(1, 7, 5).tolist(), rng)[0] for _ in range(args.scenes)]
    for models in readers:
        for frame in scenes[:3]:
            read_dice(frame, models=models)
    times: list[list[float]] = [[] for _ in readers]
    cpu: list[list[float]] = [[] for _ in readers]
    found: list[list[int]] = [[] for _ in readers]
    for i in range(args.frames):
        frame = scenes[i % len(scenes)]
        order = range(len(readers)) if i % 2 == 0 else reversed(range(len(readers)))
        for k in order:
            start, start_cpu = time.perf_counter(), time.process_time()
            observation = read_dice(frame, models=readers[k])
            times[k].append((time.perf_counter() - start) * 1000)
            cpu[k].append((time.process_time() - start_cpu) * 1000)
            found[k].append(len(observation.dice))
    for folder, models, ms_list, cpu_list, dice in zip(folders, readers, times, cpu, found, strict=True):
        ms = np.array(ms_list)
        counts = np.array([doubtful(models, frame) for frame in scenes])
        print(
            f"{folder}: read_dice 1280x720, 5 dice, {args.frames} frames: median {np.median(ms):.2f} ms, "
            f"p90 {np.percentile(ms, 90):.2f} ms, worst {ms.max():.2f} ms; "
            f"CPU median {np.median(cpu_list):.2f} ms; dice found per frame {np.mean(dice):.2f}; "
            f"candidates {counts[:, 0].mean():.2f}, "
            f"read at all views {counts[:, 1].mean():.2f} per frame"
        )
    if args.against:
        difference = np.array(cpu[1]) - np.array(cpu[0])
        print(
            f"paired CPU difference ({args.against} - {args.models}): "
            f"median {np.median(difference):+.2f} ms, "
            f"quartiles {np.percentile(difference, 25):+.2f} / {np.percentile(difference, 75):+.2f} ms"
        )


if __name__ == "__main__":
    main()
