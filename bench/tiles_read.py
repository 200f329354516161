"""Time ``read_tiles`` on a full Rummikub table (budget: ≤ 150 ms median for 1920×1080, 106 tiles).

    .venv/bin/python bench/tiles_read.py [--frames 30] [--photos ../shared/datasets/rummikub-tiles]

Frames are synthetic tables (``vision.synth.render_table``) of all 106 tiles in melds of three to five
plus loose tiles, at random turns, backgrounds and light; with ``--photos`` the largest ~1000×750
layouts of that folder are timed too. Models are loaded and warmed up before timing. Prints median,
90th percentile and worst, and how many tiles were found per frame.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import cv2
import numpy as np

from rules.rummikub.tiles import full_set
from vision.synth import render_table
from vision.tiles import read_tiles


def full_table(rng: np.random.Generator) -> np.ndarray:
    """A 1920×1080 frame of all 106 tiles: melds of 3–5 in rows, the rest loose."""
    while True:
        pool = [full_set()[i] for i in rng.permutation(106)]
        melds, k = [], 0
        while k < 100:
            n = int(rng.integers(3, 6))
            melds.append(pool[k : k + n])
            k += n
        try:
            frame, truth = render_table(
                melds,
                pool[k:],
                rng,
                size=(1920, 1080),
                tile_size=62.0,
                angle=float(rng.uniform(-8, 8)),
                gap=0.5,
            )
        except ValueError:
            continue
        if len(truth.tiles) == 106:
            return frame


def _time(frames: list[np.ndarray], count: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
    for frame in frames[:2]:
        read_tiles(frame)
    times, cpu, found = [], [], []
    for i in range(count):
        frame = frames[i % len(frames)]
        start, start_cpu = time.perf_counter(), time.process_time()
        observation = read_tiles(frame)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        found.append(len(observation.tiles))
    return np.array(times), np.array(cpu), found


def _line(name: str, ms: np.ndarray, cpu: np.ndarray, found: list[int]) -> str:
    # CPU time (all threads) beside the wall time: on a machine shared with other work the wall time
    # mostly measures the queue, the CPU time what the reader itself costs.
    return (
        f"{name}, {len(ms)} frames: median {np.median(ms):.1f} ms, p90 {np.percentile(ms, 90):.1f} ms, "
        f"worst {ms.max():.1f} ms (CPU time median {np.median(cpu):.1f} ms, "
        f"load average {os.getloadavg()[0]:.1f}); tiles found per frame {np.mean(found):.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--photos", type=Path, default=Path("../shared/datasets/rummikub-tiles"))
    args = parser.parse_args()
    cv2.setNumThreads(cv2.getNumberOfCPUs())
    rng = np.random.default_rng(0)
    tables = [full_table(rng) for _ in range(args.tables)]
    print(_line("read_tiles 1920x1080, 106 tiles", *_time(tables, args.frames)))
    if args.photos.is_dir():
        from vision.dataset import load_folder

        items = sorted(load_folder(args.photos), key=lambda i: -len(i.boxes))[:5]
        photos = [cv2.imread(str(i.path)) for i in items]
        size = f"{photos[0].shape[1]}x{photos[0].shape[0]}"
        tiles = round(np.mean([len(i.boxes) for i in items]))
        print(_line(f"read_tiles {size} photos, about {tiles} tiles", *_time(photos, args.frames)))


if __name__ == "__main__":
    main()
