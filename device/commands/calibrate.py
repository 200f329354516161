"""``referee calibrate [--image FILE | --camera N] --out PATH``: find the markers, store the calibration."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.calibration import Calibration, CalibrationError

if TYPE_CHECKING:
    from device.commands import Subcommands

WARM_UP_FRAMES = 5


def register(sub: Subcommands) -> None:
    p = sub.add_parser("calibrate", help="find the four markers in a camera frame and save the calibration")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--image", help="a photo of the play area with its four markers")
    source.add_argument("--camera", type=int, help="a cv2.VideoCapture camera index")
    p.add_argument("--out", required=True, help="where to write the calibration (JSON)")
    p.add_argument(
        "--hold",
        default="0,0.8,1,1",
        help="hold zone as fractions of the play area: x0,y0,x1,y1 (default: its bottom fifth); 'none'",
    )
    p.set_defaults(func=run)


def _grab(camera: int) -> np.ndarray | None:
    capture = cv2.VideoCapture(camera)
    try:
        frame = None
        # The first frames of many webcams are dark while the exposure settles.
        for _ in range(WARM_UP_FRAMES):
            ok, frame = capture.read()
            if not ok:
                return None
        return frame
    finally:
        capture.release()


def _hold_fraction(text: str) -> tuple[float, float, float, float] | None:
    if text.lower() == "none":
        return None
    try:
        x0, y0, x1, y1 = (float(v) for v in text.split(","))
    except ValueError as exc:
        raise CalibrationError(f"--hold must be 'x0,y0,x1,y1' fractions or 'none'; got {text!r}") from exc
    if not (0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1):
        raise CalibrationError(
            f"--hold fractions must satisfy 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1; got {text}"
        )
    return (x0, y0, x1, y1)


def run(args: argparse.Namespace) -> int:
    if args.image is not None:
        frame = cv2.imread(args.image)
        source = args.image
    else:
        frame = _grab(args.camera)
        source = f"camera {args.camera}"
    if frame is None:
        print(f"referee calibrate: cannot read a frame from {source}")
        return 2
    try:
        calibration = Calibration.from_markers(frame, _hold_fraction(args.hold))
    except CalibrationError as exc:
        print(f"referee calibrate: {source}: {exc}")
        return 2
    calibration.save(args.out)
    width, height = calibration.play_size
    print(f"{source}: play area {width}×{height} px, hold zone {calibration.hold_zone}; saved {args.out}")
    return 0
