"""The tile reader's hard cases under warm light: red/orange and black/blue on the ``val`` photos.

    .venv/bin/python bench/tiles_light.py [--data ../shared/datasets/rummikub-tiles] [--split val]

The photo set has no indoor-light photos to speak of, so each ``val`` photo is read as shot and again
with a tungsten cast laid over it (``vision.synth.warm_light``: blue × 0.65, green × 0.92, red × 1.1 at full
strength), and the figures compared: F1, colour accuracy of the tiles paired by position, and how many
red/orange and black/blue tiles swapped colour.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision.evaluate import evaluate_tiles
from vision.synth import warm_light
from vision.tiles import read_tiles


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=Path("../shared/datasets/rummikub-tiles"))
    parser.add_argument("--split", default="val")
    args = parser.parse_args()
    for amount in (0.0, 0.6, 1.0):

        def reader(frame: np.ndarray, amount: float = amount) -> object:
            return read_tiles(warm_light(frame, amount) if amount else frame)

        s = evaluate_tiles(args.data, args.split, reader=reader).summary()
        ro, kb = s["red_orange"], s["black_blue"]
        print(
            f"warm {amount:.1f}: f1 {s['f1']:.4f}, colour accuracy {s['colour_accuracy']:.4f}, "
            f"red/orange swapped {ro['swapped']} of {ro['tiles']}, black/blue swapped {kb['swapped']} of "
            f"{kb['tiles']}, confident precision {s['confident_precision']:.4f}, coverage {s['coverage']:.4f}"
        )


if __name__ == "__main__":
    main()
