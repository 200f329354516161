"""The dice reader's figures on the photos its nets never learned from, for the shipped nets and others.

    .venv/bin/python bench/dice_unseen.py [--data ../shared/datasets] [--models vision/models] [--corrected]
        [--splits fit calib val] [--halves]

The dice nets shipped before issue 32's retrain were trained on the split by file name (an MD5 of the
name: the first 24 of 100 buckets val, the next 15 calib, the rest fit), which put most photos of
today's `calib` and `val` scenes into training: read on the photos it learned from, such a reader is all
but perfect, so `referee vision eval-dice --split val` flattered it. This prints, for each photo set and
each of today's splits, the figures on all its photos and on those the split by file name held out
("never trained on" by those nets; nets trained on the split by scene never learned from any `calib`
or `val` photo, so both rows are unseen for them, and the second compares two such nets on the same
photos). Each row gives precision, recall and F1, the confident precision and coverage at the models'
threshold, and ``at 1/200``: the lowest threshold at which at most 1 in 200 of the row's confident
dice are wrong, with the coverage there (fitted on the row itself: how well the confidence ranks,
whatever the shipped threshold). ``--corrected``: the tray labels corrected by
``vision.dice.LABEL_FIXES`` for the confident figures (the calibration's labels; `val` has no fix).

``--halves``: how well a threshold fitted on photos carries to others. The `calib` photos of each set
are cut in two by time (file name order): the threshold is fitted on one half as the trainer fits it
(``threshold_for_each``: the lowest at which at most 1 in 200 of each set's confident dice are wrong)
and the other half read at it, then the other way round; printed: the two thresholds and the figures
of the halves read at the other's threshold, pooled (all of `calib`, and its photos the split by file
name held out).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.dataset import load_folder
from vision.dice import DiceModels, fixed, read_dice
from vision.evaluate import DiceEvaluation, pair_by_position, scored_dice, threshold_for, threshold_for_each

# The first buckets of 100 the split by file name held out (val 24, calib 15); as training.dice.
OLD_HELD_OUT = 39


def unseen_by_name(image: str) -> bool:
    return int(hashlib.md5(Path(image).name.encode("utf-8")).hexdigest(), 16) % 100 < OLD_HELD_OUT


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--models", type=Path, default=Path("vision/models"))
    parser.add_argument("--splits", nargs="+", default=["fit", "calib", "val"])
    parser.add_argument(
        "--corrected", action="store_true", help="the confident figures on the corrected tray labels"
    )
    parser.add_argument(
        "--halves", action="store_true", help="the threshold fitted on one half of calib, read on the other"
    )
    args = parser.parse_args()
    models = DiceModels.load(args.models)
    settings = f"temperature {models.temperature:.3f}, mirror {models.mirror}"
    opinions = ", ".join(o["classifier"] for o in models.config.get("second_opinions", ())) or "none"
    print(f"{args.models}: threshold {models.confidence_threshold}, {settings}, second opinions {opinions}")
    if args.halves:
        halves(args.data, models, args.corrected)
        return
    for name in ("dice-tray", "dice-webcam"):
        for split in args.splits:
            rows = {"all": (DiceEvaluation(), [], [0]), "never trained on": (DiceEvaluation(), [], [0])}
            for item in load_folder(args.data / name, split):
                observation = read_dice(cv2.imread(str(item.path)), models=models)
                truth = [int(v) for v in item.objects]
                pairs = pair_by_position(item, observation)
                scored, true = scored_dice(fixed(item) if args.corrected else item, observation)
                for label in ("all", "never trained on") if unseen_by_name(item.path.name) else ("all",):
                    evaluation, scores, total = rows[label]
                    evaluation.add(truth, observation, pairs)
                    scores += scored
                    total[0] += true
            for label, (evaluation, scores, total) in rows.items():
                s = evaluation.summary()
                t = threshold_for(scores)
                sure = [right for conf, right in scores if conf >= models.confidence_threshold]
                best = [right for conf, right in scores if conf >= t]
                print(
                    f"{name:12s} {split:5s} {label:17s} {s['images']:3d} photos {s['true_dice']:4d} dice  "
                    f"P {s['precision']:.4f} R {s['recall']:.4f} F1 {s['f1']:.4f}  "
                    f"CP {sum(sure) / max(1, len(sure)):.4f} coverage {sum(sure) / max(1, total[0]):.4f} "
                    f"(wrong {len(sure) - sum(sure)})  at 1/200: {t:.4f} "
                    f"CP {sum(best) / max(1, len(best)):.4f} coverage {sum(best) / max(1, total[0]):.4f}"
                )


def halves(data: Path, models: DiceModels, corrected: bool) -> None:
    """``--halves``: each set's `calib` photos in two halves by time, each read at the other's threshold."""
    photos: dict[str, list[tuple[str, list[tuple[float, bool]], int]]] = {}
    for name in ("dice-tray", "dice-webcam"):
        for item in sorted(load_folder(data / name, "calib"), key=lambda item: item.path.name):
            observation = read_dice(cv2.imread(str(item.path)), models=models)
            scored, true = scored_dice(fixed(item) if corrected else item, observation)
            photos.setdefault(name, []).append((item.path.name, scored, true))
    cut = {name: len(rows) // 2 for name, rows in photos.items()}
    first = {name: rows[: cut[name]] for name, rows in photos.items()}
    second = {name: rows[cut[name] :] for name, rows in photos.items()}
    totals: dict[tuple[str, str], list[int]] = {}
    thresholds = []
    for fitted, read in ((first, second), (second, first)):
        t = threshold_for_each([[s for _, scored, _ in rows for s in scored] for rows in fitted.values()])
        thresholds.append(t)
        for name, rows in read.items():
            for image, scored, true in rows:
                sure = [right for conf, right in scored if conf >= t]
                for label in ("all", "never trained on") if unseen_by_name(image) else ("all",):
                    total = totals.setdefault((name, label), [0, 0, 0])
                    total[0] += len(sure)
                    total[1] += len(sure) - sum(sure)
                    total[2] += true
    print(f"thresholds fitted on the first half {thresholds[0]:.4f}, on the second {thresholds[1]:.4f}")
    for (name, label), (sure, wrong, true) in totals.items():
        right = sure - wrong
        print(
            f"{name:12s} calib {label:17s} read at the other half's threshold: {true:4d} dice  "
            f"CP {right / max(1, sure):.4f} coverage {right / max(1, true):.4f} (wrong {wrong})"
        )


if __name__ == "__main__":
    main()
