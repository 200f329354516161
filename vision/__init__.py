"""Camera frames -> observations (dice values, tiles, melds) with confidence; calibration."""

from vision.calibration import Calibration, CalibrationError, HoldZone
from vision.dice import DiceObservation, Die, read_dice
from vision.frame import FrameError
from vision.settle import SettleTracker, TrackerStatus

__all__: list[str] = [
    "Calibration",
    "CalibrationError",
    "DiceObservation",
    "Die",
    "FrameError",
    "HoldZone",
    "SettleTracker",
    "TrackerStatus",
    "read_dice",
]
