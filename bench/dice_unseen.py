"""The dice reader's figures on the photos its nets never learned from.

    .venv/bin/python bench/dice_unseen.py [--data ../shared/datasets] [--models vision/models]

The shipped dice nets were trained before issue 32 on the split by file name (an MD5 of the name: the
first 24 of 100 buckets val, the next 15 calib, the rest fit), which put most photos of today's `calib`
and `val` scenes into training: read on the photos it learned from, the reader is all but perfect, so
`referee vision eval-dice --split val` flatters it. This prints, for each photo set and each of today's
splits, the figures on all its photos and on those the split by file name held out (never trained on);
the labels are the set's own (uncorrected). `training.dice --calibrate-only --by-name` fits the reader's
temperature and threshold on the held-out photos outside `val`.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.dataset import load_folder
from vision.dice import DiceModels, read_dice
from vision.evaluate import DiceEvaluation, pair_by_position

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
    args = parser.parse_args()
    models = DiceModels.load(args.models)
    settings = f"temperature {models.temperature:.3f}, mirror {models.mirror}"
    print(f"threshold {models.confidence_threshold}, {settings}")
    for name in ("dice-tray", "dice-webcam"):
        for split in ("fit", "calib", "val"):
            everything, unseen = DiceEvaluation(), DiceEvaluation()
            for item in load_folder(args.data / name, split):
                observation = read_dice(cv2.imread(str(item.path)), models=models)
                truth = [int(v) for v in item.objects]
                pairs = pair_by_position(item, observation)
                everything.add(truth, observation, pairs)
                if unseen_by_name(item.path.name):
                    unseen.add(truth, observation, pairs)
            for label, evaluation in (("all", everything), ("never trained on", unseen)):
                s = evaluation.summary()
                print(
                    f"{name:12s} {split:5s} {label:17s} {s['images']:3d} photos {s['true_dice']:4d} dice  "
                    f"P {s['precision']:.4f} R {s['recall']:.4f} F1 {s['f1']:.4f}  "
                    f"CP {s['confident_precision']:.4f} coverage {s['coverage']:.4f}"
                )


if __name__ == "__main__":
    main()
