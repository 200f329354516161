"""Reliability curves: confident precision against coverage as the confidence threshold moves.

    .venv/bin/python bench/reliability.py [--data ../shared/datasets] [--split val] [--card-models DIR]

For the tile reader (``rummikub-tiles``), the card reader (``playing-cards``) and the dice reader
(``dice-tray``, ``dice-webcam``) on one split of the photo sets (``val`` by default: scenes no reader
learned from or was calibrated on; see ``vision.dataset``): every object read is paired by position with
a labelled one, and for each threshold the confident readings (confidence ≥ threshold) are counted with
how many of them are wrong. The row marked ``*`` is the shipped threshold
(``vision/models/*_reader.json``), fitted on ``calib`` so that at most 1 in 200 confident readings is
wrong there. Targets (issue 32): tiles confident precision ≥ 0.995 at coverage ≥ 0.93; dice tray ≥ 0.995
at coverage ≥ 0.97; dice webcam 1.000; cards (issue 30) ≥ 0.99 at coverage ≥ 0.90.

With ``--card-models DIR`` (a card models folder, e.g. a retrained and calibrated copy of
``vision/models``) only the card reader of that folder: its curve, with its own threshold marked, and
the figures ``referee vision eval-cards --json`` gives the shipped models (per-photo multisets), with
the labelled cards no reading took (``matched by nothing``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.cards import CardModels, read_cards
from vision.cards import default_models as card_models
from vision.dataset import Split, load_folder
from vision.dice import default_models as dice_models
from vision.dice import read_dice
from vision.evaluate import evaluate_cards, reliability, scored_cards, scored_dice, scored_tiles
from vision.tiles import default_models as tile_models
from vision.tiles import read_tiles

THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


def curve(name: str, scored: list[tuple[float, bool]], true: int, shipped: float) -> None:
    print(f"{name}: {true} labelled, {len(scored)} read")
    print("  threshold  confident  wrong  precision  coverage")
    for p in reliability(scored, true, sorted({*THRESHOLDS, shipped})):
        mark = "*" if p.threshold == shipped else " "
        print(
            f" {mark}{p.threshold:8.3f}  {p.confident:9d}  {p.wrong:5d}  {p.precision:9.4f}"
            f"  {p.coverage:8.4f}"
        )


def _image(path: Path) -> np.ndarray:
    frame = cv2.imread(str(path))
    if frame is None:
        raise FileNotFoundError(f"{path}: cannot read the image")
    return frame


def cards_of(data: Path, split: Split, folder: Path) -> None:
    """The card reader of the models in ``folder`` on ``split``: eval-cards' figures, then its curve."""
    models = CardModels.load(folder)
    summary = evaluate_cards(
        data / "playing-cards",
        split,
        reader=lambda f: read_cards(f, models=models),
    ).summary()
    print(
        f"playing-cards ({split}), {folder}: F1 {summary['f1']:.4f} (precision {summary['precision']:.4f}"
        f", recall {summary['recall']:.4f}), confident precision {summary['confident_precision']:.4f} at "
        f"coverage {summary['coverage']:.4f}, rank / suit accuracy {summary['rank_accuracy']:.4f} / "
        f"{summary['suit_accuracy']:.4f} of {summary['matched_cards']} cards matched, "
        f"{summary['true_cards'] - summary['matched_cards']} matched by nothing"
    )
    scored: list[tuple[float, bool]] = []
    true = 0
    for item in load_folder(data / "playing-cards", split):
        s, t = scored_cards(item, read_cards(_image(item.path), models=models))
        scored += s
        true += t
    curve(f"playing-cards ({split})", scored, true, models.confidence_threshold)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--split", default="val", choices=("fit", "calib", "val"))
    parser.add_argument(
        "--card-models",
        type=Path,
        default=None,
        help="only the card reader, of this models folder (default: every reader, shipped models)",
    )
    args = parser.parse_args()
    if args.card_models is not None:
        cards_of(args.data, args.split, args.card_models)
        return
    scored: list[tuple[float, bool]] = []
    true = 0
    for item in load_folder(args.data / "rummikub-tiles", args.split):
        s, t = scored_tiles(item, read_tiles(_image(item.path)))
        scored += s
        true += t
    curve(f"tiles ({args.split})", scored, true, tile_models().confidence_threshold)
    scored, true = [], 0
    for item in load_folder(args.data / "playing-cards", args.split):
        s, t = scored_cards(item, read_cards(_image(item.path)))
        scored += s
        true += t
    curve(f"playing-cards ({args.split})", scored, true, card_models().confidence_threshold)
    for name in ("dice-tray", "dice-webcam"):
        scored, true = [], 0
        for item in load_folder(args.data / name, args.split):
            s, t = scored_dice(item, read_dice(_image(item.path)))
            scored += s
            true += t
        curve(f"{name} ({args.split})", scored, true, dice_models().confidence_threshold)


if __name__ == "__main__":
    main()
