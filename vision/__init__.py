"""Camera frames -> observations (dice values, tiles, cards, melds) with confidence; calibration."""

from vision.calibration import Calibration, CalibrationError, HoldZone
from vision.cards import CardObservation, SeenCard, read_cards
from vision.dice import DiceObservation, Die, read_dice
from vision.frame import FrameError
from vision.observation import Item, Observation
from vision.settle import SettleTracker, TrackerStatus
from vision.tiles import SeenTile, TableObservation, read_tiles

__all__: list[str] = [
    "Calibration",
    "CalibrationError",
    "CardObservation",
    "DiceObservation",
    "Die",
    "FrameError",
    "HoldZone",
    "Item",
    "Observation",
    "SeenCard",
    "SeenTile",
    "SettleTracker",
    "TableObservation",
    "TrackerStatus",
    "read_cards",
    "read_dice",
    "read_tiles",
]
