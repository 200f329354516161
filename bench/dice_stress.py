"""The dice reader on photos made harder the way other rooms and phones make them (issue 32).

    .venv/bin/python bench/dice_stress.py [--data ../shared/datasets] [--split calib] [--models DIR]
        [--against DIR]

Each photo of a split of both dice sets is read as shot and after each of ``bench/tiles_stress.py``'s
stresses (a dim room through a phone's tone curve with noise, mixed light, out of focus, JPEG 50, a
lamp's glare, washed-out colours, a phone's smear; seeded), and the confident precision, coverage and
confident misreads are printed for the nets in ``--models`` and, with ``--against``, for other nets on
the same stressed photos. The tray labels are the corrected ones (``vision.dice.LABEL_FIXES``, as the
calibration reads them; `val` has no fix). `calib` is the split neither the shipped nets' threshold nor
any net learned all of: the one to judge by. Then each photo framed as other phones frame it
(``tiles_stress.py``'s framings: a quarter turn, 0.45 of the size, a perspective from the side; the dice
read mapped back to the photo's pixels to pair with its labels).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tiles_stress import FRAMINGS, STRESSES, Framing, Stress

from vision.dataset import load_folder
from vision.dice import DiceModels, DiceObservation, fixed, read_dice
from vision.evaluate import scored_dice
from vision.nets import MODELS

Read = Callable[[np.ndarray, DiceModels, np.random.Generator], DiceObservation]


def readings(stresses: dict[str, Stress | None], framings: dict[str, Framing]) -> Iterator[tuple[str, Read]]:
    """(name, read): the photo read after each stress, then in each framing with the dice mapped back."""
    for name, stress in stresses.items():

        def stressed(
            photo: np.ndarray, models: DiceModels, rng: np.random.Generator, stress: Stress | None = stress
        ) -> DiceObservation:
            return read_dice(stress(photo, rng) if stress else photo, models=models)

        yield name, stressed
    for name, framing in framings.items():

        def framed(
            photo: np.ndarray, models: DiceModels, rng: np.random.Generator, framing: Framing = framing
        ) -> DiceObservation:
            seen, back = framing(photo)
            observation = read_dice(seen, models=models)
            dice = []
            for die in observation.dice:
                x, y = die.center
                centre = back(x, y)
                dice.append(replace(die, center=centre, size=math.dist(centre, back(x + die.size, y))))
            return replace(observation, dice=tuple(dice))

        yield name, framed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--split", default="calib")
    parser.add_argument("--models", type=Path, default=MODELS)
    parser.add_argument("--against", type=Path, help="other nets, read on the same stressed photos")
    args = parser.parse_args()
    readers = {args.models: DiceModels.load(args.models)}
    if args.against:
        readers[args.against] = DiceModels.load(args.against)
    for path, models in readers.items():
        print(f"{path}: threshold {models.confidence_threshold}")
    for folder in ("dice-tray", "dice-webcam"):
        items = load_folder(args.data / folder, args.split)
        photos: list[np.ndarray] = []
        for item in items:
            photo = cv2.imread(str(item.path))
            if photo is None:
                raise SystemExit(f"{item.path}: not a readable image")
            photos.append(photo)
        for name, read in readings(STRESSES, FRAMINGS):
            figures = []
            for path, models in readers.items():
                rng = np.random.default_rng(7)  # the same stressed photos for each set of nets
                sure = wrong = true = 0
                for item, photo in zip(items, photos, strict=True):
                    scored, labelled = scored_dice(fixed(item), read(photo, models, rng))
                    confident = [right for conf, right in scored if conf >= models.confidence_threshold]
                    sure += len(confident)
                    wrong += len(confident) - sum(confident)
                    true += labelled
                figures.append(
                    f"{path.name}: CP {(sure - wrong) / max(1, sure):.4f} "
                    f"coverage {(sure - wrong) / max(1, true):.3f} (wrong {wrong})"
                )
            print(f"{folder:11s} {args.split} {name:8s} " + " | ".join(figures), flush=True)


if __name__ == "__main__":
    main()
