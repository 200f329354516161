"""The tile reader on rendered 1920×1080 tables: confident misreads, exact tables, tables left only unsure.

    .venv/bin/python bench/tiles_tables.py [--tables 50] [--seed 1000] [--show OUT] [--cut 0.6]

Four kinds of table, ``--tables`` of each (200 in all by default), laid as ``bench/rummikub_table.py``
lays them (valid runs and groups of 20–90 tiles, 96 px tiles, a whole tile between melds, half a tile
between rows) but with seeds of their own: ``square`` (square to the camera, the background at random),
``tilt`` (the layout turned up to 12° and one tile in five laid up to 8° crooked), ``warm`` (tungsten
light 0.7–1.0) and ``backgrounds`` (wood, white, marble and fabric in turn, turned up to 5°).

Each tile on the table is paired with the tile read nearest its centre. A *confident misread* is a tile
read with confidence that is not the tile lying there (or a confident tile where none lies); a table is
*exact* when its melds are read as laid, and *only unsure* when it is not exact but every tile read
wrongly or missed is listed as uncertain. The targets (issue 32): no confident misread in 200 tables,
≥ 90 % exact, the rest only unsure. Also prints each confident misread (true → read) and the median
time per table (budget ≤ 150 ms).

``--cut S`` reads each table through a window ``S`` of its width and height at a place of the table's
seed, as a photo whose edge cuts through tiles (the real `val` photos' misses, issue 32): every tile of
which some part lies in the window is the truth (one more than half cut off may go unread, but a reading
of it is scored), and the tiles the window's edge cuts are counted apart (read right with confidence,
unsure and how many of those right, missed, read wrong with confidence). Tables are not scored as exact
there (the window cuts melds).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.rummikub import Meld
from vision.synth import TABLE_KINDS as KINDS
from vision.synth import SyntheticTile, TableTruth
from vision.synth import bench_table as render
from vision.tiles import TableObservation, read_tiles


@dataclass
class TableScore:
    """One kind's totals."""

    tables: int = 0
    exact: int = 0
    only_unsure: int = 0
    with_confident_misread: int = 0
    tiles: int = 0
    confident_right: int = 0
    confident_wrong: int = 0
    misreads: Counter[tuple[str, str]] = field(default_factory=Counter)
    times: list[float] = field(default_factory=list)
    scored: list[tuple[float, bool]] = field(default_factory=list)
    cut: Counter[str] = field(default_factory=Counter)  # --cut: the tiles the window's edge cuts


def score_table(
    observation: TableObservation,
    truth: object,
    score: TableScore,
    cut: frozenset[int] | None = None,
    optional: frozenset[int] = frozenset(),
) -> None:
    """Add one table to ``score``; ``cut``: the truth's tiles a window's edge cuts (counted apart; the
    table not scored as exact), ``optional`` those of them that may be missed (more than half cut off)."""
    tiles = truth.tiles  # type: ignore[attr-defined]
    unused = set(range(len(observation.tiles)))
    wrong_sure = 0
    all_flagged = True
    for k, t in enumerate(tiles):
        reach = 0.36 * t.size
        best = min(
            (i for i in unused if math.dist(observation.tiles[i].center, t.center) < reach),
            key=lambda i: math.dist(observation.tiles[i].center, t.center),
            default=None,
        )
        if best is None and k in optional:
            continue  # more than half cut off and not read: nothing to score
        score.tiles += 1
        if best is None:
            all_flagged = False  # a missed tile is not flagged
            if cut is not None and k in cut:
                score.cut["missed"] += 1
            continue
        unused.remove(best)
        seen = observation.tiles[best]
        sure = best not in observation.uncertain
        right = seen.tile == t.tile
        if cut is not None and k in cut:
            score.cut["unsure" if not sure else "right" if right else "wrong"] += 1
            score.cut["unsure and right"] += not sure and right
        score.scored.append((seen.confidence, right))
        if sure and right:
            score.confident_right += 1
        elif sure:
            wrong_sure += 1
            score.misreads[(str(t.tile), str(seen.tile))] += 1
        if not right and sure:
            all_flagged = False
    for i in unused:
        score.scored.append((observation.tiles[i].confidence, False))
        if i not in observation.uncertain:
            wrong_sure += 1
            all_flagged = False
            score.misreads[("none", str(observation.tiles[i].tile))] += 1
    score.tables += 1
    score.confident_wrong += wrong_sure
    score.with_confident_misread += int(wrong_sure > 0)
    if cut is not None:
        return
    seen_melds = Counter(Meld(tuple(m)) for m in observation.table())
    exact = seen_melds == Counter(Meld(tuple(m)) for m in truth.meld_tiles())  # type: ignore[attr-defined]
    score.exact += int(exact)
    score.only_unsure += int(not exact and all_flagged and observation.uncertain != ())


def window(
    frame: np.ndarray, truth: TableTruth, share: float, rng: np.random.Generator
) -> tuple[np.ndarray, TableTruth, frozenset[int], frozenset[int]]:
    """``frame`` seen through a window ``share`` of its size at a random place: the window, the tiles of
    which some part lies in it (in its coordinates), which of them its edge cuts, and which of those have
    their centre outside it (more than half cut off: they may be read or not)."""
    h, w = frame.shape[:2]
    cw, ch = round(w * share), round(h * share)
    x0, y0 = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))

    def inside(x: float, y: float) -> bool:
        return x0 <= x < x0 + cw and y0 <= y < y0 + ch

    kept: list[SyntheticTile] = []
    cut: set[int] = set()
    optional: set[int] = set()
    for t in truth.tiles:
        corners_in = [inside(x, y) for x, y in t.corners]
        if not inside(*t.center) and not any(corners_in):
            continue
        if not all(corners_in):
            cut.add(len(kept))
        if not inside(*t.center):
            optional.add(len(kept))
        corners = tuple((x - x0, y - y0) for x, y in t.corners)
        kept.append(SyntheticTile(t.tile, (t.center[0] - x0, t.center[1] - y0), t.size, t.angle, corners))
    seen = TableTruth(tuple(kept), (), tuple(range(len(kept))))
    return np.ascontiguousarray(frame[y0 : y0 + ch, x0 : x0 + cw]), seen, frozenset(cut), frozenset(optional)


def run(tables: int, seed: int, show: Path | None = None, cut: float | None = None) -> dict[str, TableScore]:
    scores = {}
    for kind in KINDS:
        score = TableScore()
        for n in range(tables):
            frame, truth = render(kind, n, seed)
            edge, optional = None, frozenset[int]()
            if cut is not None:
                frame, truth, edge, optional = window(
                    frame, truth, cut, np.random.default_rng([seed, n, len(score.times)])
                )
            start = time.perf_counter()
            observation = read_tiles(frame)
            score.times.append((time.perf_counter() - start) * 1000)
            before = score.confident_wrong
            score_table(observation, truth, score, edge, optional)
            if show is not None and score.confident_wrong > before:
                from vision.evaluate import annotate_tiles

                show.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(show / f"{kind}-{n}.jpg"), annotate_tiles(frame, observation, truth.names))
        scores[kind] = score
    return scores


def report(scores: dict[str, TableScore]) -> None:
    total = TableScore()
    for kind, s in scores.items():
        print(
            f"{kind:<12} tables {s.tables:3d}  exact {s.exact:3d}  only unsure {s.only_unsure:3d}  "
            f"with a confident misread {s.with_confident_misread:3d}  confident tiles wrong "
            f"{s.confident_wrong}/{s.confident_wrong + s.confident_right}  median "
            f"{statistics.median(s.times):.0f} ms"
        )
        for name in ("tables", "exact", "only_unsure", "with_confident_misread", "tiles"):
            setattr(total, name, getattr(total, name) + getattr(s, name))
        total.confident_wrong += s.confident_wrong
        total.confident_right += s.confident_right
        total.misreads.update(s.misreads)
        total.cut.update(s.cut)
        total.times += s.times
    print(
        f"{'all':<12} tables {total.tables:3d}  exact {total.exact:3d} ({total.exact / total.tables:.0%})  "
        f"only unsure {total.only_unsure:3d}  with a confident misread {total.with_confident_misread:3d}  "
        f"coverage {total.confident_right / max(1, total.tiles):.4f}  "
        f"median {statistics.median(total.times):.0f} ms"
    )
    if total.cut:
        c = total.cut
        print(
            f"tiles the window's edge cuts: {c.total() - c['unsure and right']}; read right with confidence "
            f"{c['right']}, unsure {c['unsure']} ({c['unsure and right']} of them right), missed "
            f"{c['missed']}, read wrong with confidence {c['wrong']}"
        )
    if total.misreads:
        print(
            "confident misreads: " + ", ".join(f"{t}->{r} ×{n}" for (t, r), n in total.misreads.most_common())
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=50, help="tables of each kind")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--show", type=Path, help="write the tables with a confident misread here")
    parser.add_argument("--cut", type=float, help="read each table through a window this share of its size")
    args = parser.parse_args()
    if args.cut is not None and not 0.2 <= args.cut < 1.0:
        parser.error("--cut: a share of the table's size from 0.2 to below 1")
    report(run(args.tables, args.seed, args.show, args.cut))


if __name__ == "__main__":
    main()
