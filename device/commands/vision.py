"""``referee vision eval-dice|eval-tiles|eval-cards DIR [--split S] [--json] [--show OUT]``: score a reader
on photos;
``referee vision eval-zatre DIR|--synthetic N --seed S|--pips DIR [--json]``: the Zatre board reader."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from vision.dataset import SPLITS, TABLE_COLUMNS
from vision.evaluate import evaluate_cards, evaluate_dice, evaluate_tiles, read_groups

if TYPE_CHECKING:
    from device.commands import Subcommands


# The development splits are cut by scene (vision.dataset.split_of; docs/data.md).
SPLIT_HELP = "only one development split (by scene: table and session; val is never trained or tuned on)"


def register(sub: Subcommands) -> None:
    p = sub.add_parser("vision", help="evaluate the camera readers on labelled photos")
    tasks = p.add_subparsers(dest="task", metavar="TASK", required=True)
    e = tasks.add_parser("eval-dice", help="read every photo of a labelled folder and print the scores")
    e.add_argument("folder", help="a folder with ground_truth.csv (shared dataset layout)")
    e.add_argument(
        "--split",
        choices=SPLITS,
        default=None,
        help=SPLIT_HELP,
    )
    e.add_argument("--json", action="store_true", help="print one JSON object")
    e.add_argument("--show", type=Path, default=None, help="write annotated images to this folder")
    e.set_defaults(func=run_eval_dice)
    t = tasks.add_parser(
        "eval-tiles", help="read every photo of a labelled Rummikub folder and print the scores"
    )
    t.add_argument("folder", help="a folder with ground_truth.csv and tile labels (shared dataset layout)")
    t.add_argument(
        "--split",
        choices=SPLITS,
        default=None,
        help=SPLIT_HELP,
    )
    t.add_argument("--json", action="store_true", help="print one JSON object")
    t.add_argument("--show", type=Path, default=None, help="write annotated images to this folder")
    t.add_argument(
        "--groups",
        type=Path,
        default=None,
        help="CSV image,background,setting: the figures per background and rack/table too",
    )
    t.set_defaults(func=run_eval_tiles)
    c = tasks.add_parser(
        "eval-cards", help="read every photo of a labelled playing-card folder and print the scores"
    )
    c.add_argument("folder", help="a folder with ground_truth.csv and card labels (shared dataset layout)")
    c.add_argument(
        "--split",
        choices=SPLITS,
        default=None,
        help=SPLIT_HELP,
    )
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.add_argument("--show", type=Path, default=None, help="write annotated images to this folder")
    c.set_defaults(func=run_eval_cards)
    z = tasks.add_parser(
        "eval-zatre",
        help="read Zatre boards (a labelled folder, or N synthetic boards) and print the scores",
    )
    z.add_argument(
        "folder", nargs="?", default=None, help="a folder with ground_truth.csv (objects: cards a|b)"
    )
    z.add_argument("--synthetic", type=int, default=None, metavar="N", help="read N rendered boards instead")
    z.add_argument("--seed", type=int, default=0, help="the seed of the synthetic boards")
    z.add_argument(
        "--pips",
        action="store_true",
        help="read the die faces of a labelled dice folder with the half reader (real pips as a stand-in)",
    )
    z.add_argument(
        "--split",
        choices=SPLITS,
        default=None,
        help=SPLIT_HELP,
    )
    z.add_argument("--json", action="store_true", help="print one JSON object")
    z.set_defaults(func=run_eval_zatre)


def not_a_dice_set(folder: str | Path) -> str | None:
    """Why ``folder`` is not a labelled dice set (no ``ground_truth.csv``, or labels that are not pips
    1–6, like the Rummikub tiles'); ``None`` when it is one."""
    if not Path(folder).is_dir():
        return f"{folder}: {'not a folder' if Path(folder).exists() else 'no such folder'}"
    table = Path(folder) / "ground_truth.csv"
    if not table.is_file():
        return f"{folder}: no ground_truth.csv (not a labelled photo set)"
    with table.open(encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle)
        missing = [c for c in TABLE_COLUMNS if c not in (rows.fieldnames or ())]
        if missing:
            return (
                f"{table}: no column {', '.join(missing)} (the shared layout's columns: "
                "split,image,width,height,n_objects,objects)"
            )
        for row in rows:
            labels = (row.get("objects") or "").split()
            odd = [label for label in labels if label not in ("1", "2", "3", "4", "5", "6")]
            if odd:
                return f"{folder} is not a dice set: its labels are not pips 1–6 (e.g. {odd[0]!r})"
    return None


def run_eval_dice(args: argparse.Namespace) -> int:
    try:
        problem = not_a_dice_set(args.folder)
    except (OSError, ValueError) as exc:  # an unreadable table, or one not in UTF-8
        problem = f"{args.folder}: cannot read ground_truth.csv ({exc})"
    if problem is not None:
        print(f"referee vision eval-dice: {problem}", file=sys.stderr)
        return 2
    if args.split is None:
        # On stderr, so that --json stays one JSON object on stdout.
        print(
            "referee vision eval-dice: every photo of the folder, the training photos included; "
            "--split val scores only photos the reader was never trained or tuned on",
            file=sys.stderr,
        )
    try:
        evaluation = evaluate_dice(args.folder, args.split, args.show)
    except (OSError, ValueError) as exc:  # a missing image, a bad row or label line: named
        print(f"referee vision eval-dice: {exc}", file=sys.stderr)
        return 2
    if evaluation.images == 0:
        print(
            f"referee vision eval-dice: {args.folder}: no images"
            + (f" in split {args.split}" if args.split else ""),
            file=sys.stderr,
        )
        return 2
    print(json.dumps(evaluation.summary()) if args.json else evaluation.report())
    return 0


def run_eval_tiles(args: argparse.Namespace) -> int:
    try:
        groups = read_groups(args.groups) if args.groups is not None else None
        evaluation = evaluate_tiles(args.folder, args.split, args.show, groups=groups)
    except (OSError, ValueError) as exc:  # a missing folder or image, a bad table, row or label line
        print(f"referee vision eval-tiles: {exc}", file=sys.stderr)
        return 2
    if evaluation.images == 0:
        print(
            f"referee vision eval-tiles: {args.folder}: no images"
            + (f" in split {args.split}" if args.split else ""),
            file=sys.stderr,
        )
        return 2
    print(json.dumps(evaluation.summary()) if args.json else evaluation.report())
    return 0


def run_eval_cards(args: argparse.Namespace) -> int:
    if args.split is None:
        # On stderr, so that --json stays one JSON object on stdout.
        print(
            "referee vision eval-cards: every photo of the folder, the training photos included; "
            "--split val scores only photos the reader was never trained or tuned on",
            file=sys.stderr,
        )
    try:
        evaluation = evaluate_cards(args.folder, args.split, args.show)
    except (OSError, ValueError) as exc:  # a missing folder or image, a bad table, row or label line
        print(f"referee vision eval-cards: {exc}", file=sys.stderr)
        return 2
    if evaluation.images == 0:
        print(
            f"referee vision eval-cards: {args.folder}: no images"
            + (f" in split {args.split}" if args.split else ""),
            file=sys.stderr,
        )
        return 2
    print(json.dumps(evaluation.summary()) if args.json else evaluation.report())
    return 0


def run_eval_zatre(args: argparse.Namespace) -> int:
    from vision.zatre_eval import (
        PipEvaluation,
        ZatreEvaluation,
        evaluate_pips,
        evaluate_zatre,
        evaluate_zatre_synthetic,
    )

    report: ZatreEvaluation | PipEvaluation
    if args.synthetic is not None:
        if args.folder is not None or args.pips:
            print("referee vision eval-zatre: give a folder or --synthetic N, not both")
            return 2
        if not 1 <= args.synthetic <= 100_000:
            print(f"referee vision eval-zatre: --synthetic {args.synthetic}: give 1–100000 boards")
            return 2
        report = evaluate_zatre_synthetic(args.synthetic, args.seed)
    elif args.folder is None:
        print("referee vision eval-zatre: give a photo folder, or --synthetic N --seed S")
        return 2
    else:
        if args.pips:
            problem = not_a_dice_set(args.folder)
            if problem is not None:
                print(f"referee vision eval-zatre --pips: {problem}")
                return 2
        try:
            report = (evaluate_pips if args.pips else evaluate_zatre)(args.folder, args.split)
        except (FileNotFoundError, ValueError) as exc:
            print(f"referee vision eval-zatre: {exc}")
            return 2
        if report.images == 0:
            print(
                f"referee vision eval-zatre: {args.folder}: no images"
                + (f" in split {args.split}" if args.split else "")
            )
            return 2
    print(json.dumps(report.summary()) if args.json else report.report())
    return 0
