"""Why the rendered tables of ``bench/tiles_tables.py`` are not read exactly: a table of causes.

    .venv/bin/python bench/tiles_causes.py [--tables 50] [--seed 1000] [--list]

The same 200 tables (four kinds, ``--tables`` of each), read stage by stage as ``vision.tiles.read_tiles``
reads them. Every tile lying on a table that is not read as laid gets one cause:

- *missed, no peak*: no detector peak near it (by the tile's colour and the table's background);
- *missed, "not a tile"*: a peak there, but the classifier read it as not a tile;
- *unsure, low confidence*: the classifier's probability times the detector's score below threshold;
- *unsure, twin margin*: sure enough, but its confusable twin (``vision.tiles.TWINS``) too close;
- *unsure, 6/9 way up*: its way up or the digit's loop could not be told (``settle_six_nine``);
- *unsure, meld rule*: sure before ``vision.melds.doubt_misfits`` put it in doubt;
- *confident misread*: read with confidence as another tile.

A reading near no tile is a *stray*. A table with every tile read right and no stray can still be
inexact when its melds are grouped otherwise (*grouping*). Each inexact table is counted once under its
first cause in the order above (missed before unsure), and all its tiles under theirs.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import vision.tiles as tiles_module
from rules.rummikub import Meld
from vision.synth import BACKGROUNDS
from vision.synth import TABLE_KINDS as KINDS
from vision.synth import bench_table as render
from vision.tiles import NOT_A_TILE, TileModels, default_models, observe

SETTLE, DOUBT = tiles_module.settle_six_nine, tiles_module.doubt_misfits

COLOUR_NAMES = {"R": "red", "B": "blue", "K": "black", "O": "orange"}
CAUSES = (
    "missed, no peak",
    'missed, "not a tile"',
    "confident misread",
    "unsure, low confidence",
    "unsure, twin margin",
    "unsure, 6/9 way up",
    "unsure, meld rule",
    "unsure, other",
)


def background_of(kind: str, n: int, seed: int) -> str:
    """The table top ``bench_table`` drew (the first draw of its render seed, unless given)."""
    if kind == "backgrounds":
        return BACKGROUNDS[n % len(BACKGROUNDS)]
    rng = np.random.default_rng(seed + n * 4 + KINDS.index(kind))
    return str(rng.choice(BACKGROUNDS))


def diagnose(frame: np.ndarray, truth: object, models: TileModels) -> tuple[bool, list[tuple[str, str]], int]:
    """Whether the table is read exactly, (cause, true tile) for each tile not read right, strays."""
    image = frame
    detections = models.detect(image)
    found, probs, sure, leads, crops = models.read_crops(image, detections)
    votes, loops = models.way_up(crops, probs)
    threshold, margin = models.confidence_threshold, models.twin_margin
    kept = [i for i in range(len(found)) if int(probs[i].argmax()) != NOT_A_TILE]
    base = [float(sure[i]) * found[i].score for i in kept]
    # The stages as observe runs them: what settle_six_nine and doubt_misfits were given and gave.
    stages: dict[str, list[Any]] = {}

    def spy_settle(tiles: Any, *rest: Any) -> list[Any]:
        stages["twin"] = list(tiles)
        stages["settled"] = SETTLE(tiles, *rest)
        return stages["settled"]

    def spy_doubt(tiles: Any, *rest: Any) -> list[Any]:
        stages["doubted"] = DOUBT(tiles, *rest)
        return stages["doubted"]

    tiles_module.settle_six_nine, tiles_module.doubt_misfits = spy_settle, spy_doubt  # type: ignore[assignment]
    try:
        observation = observe(found, probs, sure, leads, threshold, margin, ways=(votes, loops))
    finally:
        tiles_module.settle_six_nine, tiles_module.doubt_misfits = SETTLE, DOUBT
    twin_held = [stages["twin"][k].confidence < base[k] and base[k] >= threshold for k in range(len(kept))]
    settled, doubted = stages["settled"], stages["doubted"]

    tiles = truth.tiles  # type: ignore[attr-defined]
    unused = set(range(len(observation.tiles)))
    out: list[tuple[str, str]] = []
    for t in tiles:
        reach = 0.36 * t.size
        best = min(
            (i for i in unused if math.dist(observation.tiles[i].center, t.center) < reach),
            key=lambda i: math.dist(observation.tiles[i].center, t.center),
            default=None,
        )
        if best is None:
            peak = any(math.dist((d.x, d.y), t.center) < reach for d in found)
            out.append(("missed, no peak" if not peak else 'missed, "not a tile"', str(t.tile)))
            continue
        unused.remove(best)
        seen = observation.tiles[best]
        sure_now = best not in observation.uncertain
        if seen.tile == t.tile and sure_now:
            continue
        if sure_now:
            out.append(("confident misread", f"{t.tile}->{seen.tile}"))
            continue
        # observation.tiles follow `kept` one to one (observe drops only "not a tile").
        k = best
        if base[k] < threshold:
            cause = "unsure, low confidence"
        elif twin_held[k]:
            cause = "unsure, twin margin"
        elif settled[k].confidence < threshold:
            cause = "unsure, 6/9 way up"
        elif doubted[k].confidence < threshold:
            cause = "unsure, meld rule"
        else:
            cause = "unsure, other"
        out.append((cause, str(t.tile)))
    strays = sum(1 for i in unused)
    seen_melds = Counter(Meld(tuple(m)) for m in observation.table())
    exact = seen_melds == Counter(Meld(tuple(m)) for m in truth.meld_tiles())  # type: ignore[attr-defined]
    return exact, out, strays


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=50, help="tables of each kind")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--models", type=Path, help="a folder of tile models (default: the shipped ones)")
    parser.add_argument("--list", action="store_true", help="print each inexact table's causes")
    args = parser.parse_args()
    models = TileModels.load(args.models) if args.models else default_models()
    tables_by_cause: Counter[str] = Counter()
    tiles_by_cause: Counter[str] = Counter()
    missed_by: Counter[tuple[str, str]] = Counter()
    tiles_by_background: Counter[str] = Counter()
    colour_by_background: Counter[tuple[str, str]] = Counter()
    misreads: Counter[str] = Counter()
    exact_tables = total = 0
    strays_total = 0
    for kind in KINDS:
        for n in range(args.tables):
            frame, truth = render(kind, n, args.seed)
            ground = background_of(kind, n, args.seed)
            tiles_by_background[ground] += len(truth.tiles)
            for t in truth.tiles:
                colour_by_background[(ground, COLOUR_NAMES.get(str(t.tile)[0], "joker"))] += 1
            exact, causes, strays = diagnose(frame, truth, models)
            total += 1
            exact_tables += int(exact)
            strays_total += strays
            for cause, tile in causes:
                tiles_by_cause[cause] += 1
                if cause.startswith("missed"):
                    missed_by[(COLOUR_NAMES.get(tile[0], "joker"), ground)] += 1
                if cause == "confident misread":
                    misreads[tile] += 1
            if not exact:
                present = {c for c, _ in causes}
                first = next((c for c in CAUSES if c in present), "stray" if strays else "grouping")
                tables_by_cause[first] += 1
                if args.list:
                    print(
                        f"{kind}-{n} ({ground}): "
                        + ", ".join(f"{c}: {t}" for c, t in causes)
                        + (f", strays {strays}" if strays else "")
                    )
    print(f"tables {total}, exact {exact_tables}, strays {strays_total}")
    print("| cause | inexact tables (first cause) | tiles |")
    print("|---|---|---|")
    for cause in (*CAUSES, "stray", "grouping"):
        if tables_by_cause[cause] or tiles_by_cause[cause]:
            print(f"| {cause} | {tables_by_cause[cause]} | {tiles_by_cause[cause]} |")
    print("missed tiles by colour and table top (missed / laid):")
    for (colour, ground), count in sorted(missed_by.items(), key=lambda kv: -kv[1]):
        print(f"  {colour} on {ground}: {count} / {colour_by_background[(ground, colour)]}")
    if misreads:
        print("confident misreads: " + ", ".join(f"{m} ×{c}" for m, c in misreads.most_common()))


if __name__ == "__main__":
    main()
