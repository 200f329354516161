"""Time ``read_cards``: a 960×720 photo (budget ≤ 60 ms median) and a rendered 1920×1080 Kalooki table of
about 40 cards (budget ≤ 150 ms median), and score the reader on the rendered tables.

    .venv/bin/python bench/cards_read.py [--frames 30] [--tables 5] [--photos DIR] [--stages] [--before TREE]

Photos (``--photos``, default ``../shared/datasets/playing-cards``) are those of the held-out ``val``
split of the shared playing-card set (960×720, 4–5 cards);
tables are ``vision.cards_synth.bench_card_table`` (fanned melds with jokers, a stock of backs, any
table and light). Models are loaded and warmed up before timing. Prints median, 90th percentile and
worst wall time, the CPU time beside it (the machine is shared: the wall time also measures the queue),
and on the tables the per-card F1 and confident precision and coverage against the renderer's truth.
With ``--stages``, where the CPU time of a reading goes: each net's forward calls (CPU ms a frame, calls
and inputs a frame), the detectors' resizing, and the rest (cutting, placing, combining in Python).
With ``--before TREE`` (another checkout, e.g. ``git worktree add /tmp/before main~3``), that tree's
reader (its ``vision`` package and models) is timed in this process frame by frame against this one's,
in turn: the CPU median of each and the median of the paired differences, which the machine's load
moves far less than two runs apart.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.cards import CardModels, default_models, read_cards
from vision.cards_synth import CardTableTruth, bench_card_table
from vision.evaluate import pair_in_place

PHOTO_BUDGET_MS = 60.0
TABLE_BUDGET_MS = 150.0


def _image(path: Path) -> np.ndarray:
    frame = cv2.imread(str(path))
    if frame is None:
        raise FileNotFoundError(f"{path}: cannot read the image")
    return frame


_models: list[CardModels] = []


def _read(frame: np.ndarray):  # type: ignore[no-untyped-def]
    return read_cards(frame, models=_models[0] if _models else default_models())


def _time(frames: list[np.ndarray], count: int) -> tuple[np.ndarray, np.ndarray]:
    for frame in frames[:2]:
        _read(frame)
    times, cpu = [], []
    for i in range(count):
        frame = frames[i % len(frames)]
        start, start_cpu = time.perf_counter(), time.process_time()
        _read(frame)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return np.array(times), np.array(cpu)


def _line(name: str, ms: np.ndarray, cpu: np.ndarray, budget: float) -> str:
    verdict = "within" if np.median(ms) <= budget else "OVER"
    return (
        f"{name}, {len(ms)} frames: median {np.median(ms):.1f} ms ({verdict} the {budget:.0f} ms budget), "
        f"p90 {np.percentile(ms, 90):.1f} ms, worst {ms.max():.1f} ms "
        f"(CPU time median {np.median(cpu):.1f} ms, "
        f"load average {os.getloadavg()[0]:.1f})"
    )


class _Timed:
    """A ``cv2.dnn`` net that adds the CPU time of its forward calls (and their inputs) to ``spent``."""

    def __init__(self, net: Any, name: str, spent: dict[str, list[float]]) -> None:
        self.net, self.name, self.spent, self.batch = net, name, spent, 0

    def setInput(self, blob: np.ndarray) -> None:  # cv2.dnn's name
        self.net.setInput(blob)
        self.batch = len(blob)

    def forward(self) -> np.ndarray:
        start = time.process_time()
        out: np.ndarray = self.net.forward()
        entry = self.spent.setdefault(self.name, [0.0, 0, 0])
        entry[0] += time.process_time() - start
        entry[1] += 1
        entry[2] += self.batch
        return out


def stages(frames: list[np.ndarray], count: int) -> str:
    """Where a reading's CPU time goes: the nets' forward calls, the detectors' resizing, the rest."""
    models = _models[0] if _models else default_models()
    spent: dict[str, list[float]] = {}
    nets: list[tuple[Any, str, str]] = [
        (models.detector, "net", "card detector"),
        (models.classifier, "net", "whole-card classifier"),
    ]
    if models.index is not None:
        nets += [
            (models.index.detector, "net", "index detector"),
            (models.index, "classifier", "index classifier"),
            (models.index, "suit_net", "suit net"),
            (models.index, "side_net", "side net"),
        ]
    nets = [n for n in nets if getattr(n[0], n[1]) is not None]
    saved = [getattr(owner, attr) for owner, attr, _ in nets]
    detectors = [models.detector] + ([models.index.detector] if models.index is not None else [])
    for owner, attr, name in nets:
        setattr(owner, attr, _Timed(getattr(owner, attr), name, spent))
    for d in detectors:
        resize = d.resize

        def timed(image: np.ndarray, net_long: int | None = None, resize: Any = resize) -> Any:
            start = time.process_time()
            out = resize(image, net_long)
            entry = spent.setdefault("detectors' resizing", [0.0, 0, 0])
            entry[0] += time.process_time() - start
            entry[1] += 1
            return out

        d.resize = timed  # type: ignore[method-assign]
    try:
        for frame in frames[:2]:
            _read(frame)
        spent.clear()
        start = time.process_time()
        for i in range(count):
            _read(frames[i % len(frames)])
        total = (time.process_time() - start) * 1000 / count
    finally:
        for (owner, attr, _), net in zip(nets, saved, strict=True):
            setattr(owner, attr, net)
        for d in detectors:
            del d.resize
    lines = [f"  CPU ms a frame (mean of {count}): total {total:.1f}"]
    for name, (seconds, calls, batch) in spent.items():
        inputs = f", {batch / count:.0f} inputs" if batch else ""
        lines.append(f"    {name:22s} {seconds * 1000 / count:6.1f}  ({calls / count:.1f} calls{inputs})")
    rest = total - sum(seconds for seconds, _, _ in spent.values()) * 1000 / count
    lines.append(f"    {'the rest (Python, cuts)':22s} {rest:6.1f}")
    return "\n".join(lines)


def _ours(name: str) -> bool:
    return name.split(".")[0] in ("vision", "rules")


def reader_of(tree: Path) -> tuple[Any, CardModels]:
    """``read_cards`` and the shipped models of another checkout, imported beside this one's (its
    ``vision`` and ``rules`` packages under their own names only while importing)."""
    if not (tree / "vision" / "cards.py").is_file():
        raise FileNotFoundError(f"{tree}: no vision/cards.py (a checkout of this project?)")
    here = {k: v for k, v in sys.modules.items() if _ours(k)}
    for k in here:
        del sys.modules[k]
    sys.path.insert(0, str(tree))
    try:
        cards = importlib.import_module("vision.cards")
        models = cards.CardModels.load(tree / "vision" / "models")
    finally:
        sys.path.remove(str(tree))
        for k in [k for k in sys.modules if _ours(k)]:
            del sys.modules[k]
        sys.modules.update(here)
    return cards.read_cards, models


def paired(frames: list[np.ndarray], count: int, before: tuple[Any, CardModels]) -> str:
    """CPU times of another checkout's reader and this one's on the same frames, in turn."""
    read_before, models_before = before
    readers = {"before": lambda f: read_before(f, models=models_before), "this": _read}
    for frame in frames[:2]:
        for read in readers.values():
            read(frame)
    cpu: dict[str, list[float]] = {name: [] for name in readers}
    for i in range(count):
        frame = frames[i % len(frames)]
        for name in list(readers) if i % 2 == 0 else list(readers)[::-1]:
            start = time.process_time()
            readers[name](frame)
            cpu[name].append((time.process_time() - start) * 1000)
    b, a = np.array(cpu["before"]), np.array(cpu["this"])
    return (
        f"  in turn, {count} frames each: CPU median before {np.median(b):.1f} ms, "
        f"this {np.median(a):.1f} ms; paired difference median {np.median(a - b):+.1f} ms "
        f"(load average {os.getloadavg()[0]:.1f})"
    )


def score_tables(tables: list[tuple[np.ndarray, CardTableTruth]]) -> str:
    """Per-card figures on rendered tables: each readable card (narrowest first) paired with the card read
    nearest the centre of its visible part, within half its short side, a card read as itself first (as
    ``vision.evaluate.card_matches`` pairs the photos' labels)."""
    true = read = hits = sure = sure_right = 0
    wrong: Counter[tuple[str, str]] = Counter()
    for frame, truth in tables:
        observation = _read(frame)
        cards = truth.readable()
        true += len(cards)
        read += len(observation.cards)
        hits += sum((Counter(c.label for c in cards) & Counter(c.label for c in observation.cards)).values())
        ordered = sorted(cards, key=lambda c: min(c.box[2] - c.box[0], c.box[3] - c.box[1]))
        wanted = [
            (c.label, c.box_center, 0.5 * min(c.box[2] - c.box[0], c.box[3] - c.box[1])) for c in ordered
        ]
        seen_cards = observation.cards
        pairs, unused = pair_in_place(wanted, [s.center for s in seen_cards], [s.label for s in seen_cards])
        for c, best in zip(ordered, pairs, strict=True):
            if best is None:
                continue
            seen = seen_cards[best]
            if best not in observation.uncertain:
                sure += 1
                sure_right += int(seen.label == c.label)
            if seen.label != c.label:
                wrong[(c.label, seen.label)] += 1
        sure += sum(1 for i in unused if i not in observation.uncertain)
    precision, recall = hits / max(1, read), hits / max(1, true)
    f1 = 2 * precision * recall / max(1e-9, precision + recall)
    common = ", ".join(f"{t}->{s} ×{n}" for (t, s), n in wrong.most_common(6))
    return (
        f"rendered tables: {true} readable cards, read {read}; f1 {f1:.4f}, confident precision "
        f"{sure_right / max(1, sure):.4f}, coverage {sure_right / max(1, true):.4f}; "
        f"misreadings: {common or '-'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--photos", type=Path, default=Path("../shared/datasets/playing-cards"))
    parser.add_argument("--models", type=Path, default=None, help="a models folder (default: the shipped)")
    parser.add_argument("--stages", action="store_true", help="where the CPU time goes, net by net")
    parser.add_argument("--before", type=Path, default=None, help="another checkout, timed in turn with this")
    args = parser.parse_args()
    if args.models is not None:
        _models.append(CardModels.load(args.models))
    before = reader_of(args.before.resolve()) if args.before is not None else None
    cv2.setNumThreads(cv2.getNumberOfCPUs())
    if args.photos.is_dir():
        from vision.dataset import load_folder

        photos = [_image(i.path) for i in load_folder(args.photos, "val")[:10]]
        size = f"{photos[0].shape[1]}x{photos[0].shape[0]}"
        print(_line(f"read_cards {size} photos (val)", *_time(photos, args.frames), PHOTO_BUDGET_MS))
        if args.stages:
            print(stages(photos, args.frames))
        if before is not None:
            print(paired(photos, args.frames, before))
    tables = [bench_card_table(n) for n in range(args.tables)]
    cards = round(np.mean([len(t.readable()) for _, t in tables]))
    frames = [frame for frame, _ in tables]
    print(
        _line(
            f"read_cards 1920x1080 tables, about {cards} cards", *_time(frames, args.frames), TABLE_BUDGET_MS
        )
    )
    if args.stages:
        print(stages(frames, args.frames))
    if before is not None:
        print(paired(frames, args.frames, before))
    print(score_tables(tables))


if __name__ == "__main__":
    main()
