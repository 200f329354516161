"""The dice reader on rendered clusters of touching dice: what issue 32 asks of the tray (dice touching
each other), on scenes like the trainer's rendered clusters but of other seeds.

    .venv/bin/python bench/dice_touching.py [--scenes 60] [--seed 4242] [--models DIR ...]

Each scene (``vision.synth.render_dice_scene``, 1280×720) holds one cluster of 3–7 dice in a rough grid
of 2–3 columns, 0–4 px apart, each turned by up to 6°. Prints, for each folder of nets: the dice found
(a reading within a third of a face of the die), read right, read right and sure (and that share of all
dice), sure and wrong, and sure readings where no die lies (a seam or a pip read as a die).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

from vision import read_dice
from vision.dice import DiceModels
from vision.nets import MODELS
from vision.synth import SceneTruth, render_dice_scene


def clusters(count: int, seed: int) -> list[tuple[np.ndarray, SceneTruth]]:
    """``count`` rendered frames, each with one cluster of touching dice."""
    rng = np.random.default_rng(seed)
    scenes: list[tuple[np.ndarray, SceneTruth]] = []
    while len(scenes) < count:
        w, h = 1280, 720
        die = float(rng.uniform(0.07, 0.14) * h)
        dice = int(rng.integers(3, 8))
        columns = int(rng.integers(2, 4))
        x0, y0 = rng.uniform(die, w - 4 * die), rng.uniform(die, h - 3.5 * die)
        pitch = die + rng.uniform(0, 4)
        positions = [(x0 + (i % columns) * pitch, y0 + (i // columns) * pitch) for i in range(dice)]
        positions = [p for p in positions if p[0] < w - die and p[1] < h - die]
        values = rng.integers(1, 7, len(positions)).tolist()
        angles = rng.uniform(-6, 6, len(values)).tolist()
        try:
            scenes.append(
                render_dice_scene(values, rng, size=(w, h), die_size=die, positions=positions, angles=angles)
            )
        except ValueError:  # no room: draw another
            continue
    return scenes


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--models", type=Path, nargs="+", default=[MODELS])
    args = parser.parse_args()
    scenes = clusters(args.scenes, args.seed)
    for folder in args.models:
        models = DiceModels.load(folder)
        total = found = right = sure = wrong = extra = 0
        for frame, truth in scenes:
            observation = read_dice(frame, models=models)
            used = set()
            for true in truth.dice:
                total += 1
                near = [
                    (math.dist(d.center, true.center), i)
                    for i, d in enumerate(observation.dice)
                    if math.dist(d.center, true.center) < true.size / 3
                ]
                if not near:
                    continue
                i = min(near)[1]
                used.add(i)
                found += 1
                ok = observation.dice[i].value == true.value
                right += ok
                if i not in observation.uncertain:
                    sure += ok
                    wrong += not ok
            extra += sum(
                1 for i in range(len(observation.dice)) if i not in used and i not in observation.uncertain
            )
        print(
            f"{folder}: {len(scenes)} scenes, {total} dice: found {found}, right {right}, "
            f"right and sure {sure} "
            f"({sure / max(1, total):.3f}), sure and wrong {wrong}, sure where no die lies {extra}"
        )


if __name__ == "__main__":
    main()
