"""A Rummikub learning table's zone: the rack zone, where a player lays his rack face up to show it.

At a learning table the player to move shows his rack to the coach by laying it face up; the tiles he
lays there are his rack, never the table's. They lie in a named zone of the calibrated play area, as
a card table's stock and discard pile do (``vision.card_zones``): ``rack`` in ``Calibration``'s
``named_zones`` (stored in ``calibration.json`` under ``zones``); where a calibration has none,
:func:`with_tile_zones` adds it at :data:`ZONE_FRACTIONS` — the play area's bottom strip, a row of
fourteen tiles wide (the simulated table lays a rack shown face up there,
``device.sessions.rummikub_sim``). The camera panel outlines it.

:func:`read_tile_table` reads a frame with the tile reader (``vision.tiles.read_tiles``) and keeps the
tiles whose centre lies in the rack zone apart: ``TableObservation.shown``, each tile read alone (a
rack's tiles lie edge to edge without being a meld), its ``zone`` ``rack``; the table's tiles, melds and
unsure tiles are the others. The learning table's session reads with it
(``device.sessions.rummikub.LEARNING_READER``): a play, a draw, a timeout and a restore compare only the
table with the table as it was, and *Read my rack* takes the rack from the zone (and from any tile
beside the melds that is not the table's).

>>> from rules.rummikub.tiles import parse_tiles
>>> from vision.synth import render_table
>>> calibration = with_tile_zones(Calibration.identity((1280, 720)))
>>> frame, _ = render_table([parse_tiles("R3 R4 R5")], rack=parse_tiles("K7 B9"), seed=2, angle=0,
...                         rack_area=rack_area((1280, 720)), tile_size=84, background="wood", noise=0)
>>> reading = read_tile_table(frame, calibration)
>>> [[str(t) for t in m] for m in reading.table()], sorted(reading.shown.labels()) if reading.shown else None
([['R3', 'R4', 'R5']], ['B9', 'K7'])
"""

from __future__ import annotations

import numpy as np

from vision.calibration import Calibration
from vision.tiles import TableObservation, read_tiles

__all__ = ["RACK", "TILE_ZONES", "ZONE_FRACTIONS", "rack_area", "read_tile_table", "with_tile_zones"]

RACK = "rack"
TILE_ZONES = (RACK,)
# The zone as shares of the play area's width and height (x0, y0, x1, y1): its bottom fifth, the whole
# width (14 tiles of a 1280-pixel-wide area's 84-pixel tiles lie in one row).
ZONE_FRACTIONS: dict[str, tuple[float, float, float, float]] = {RACK: (0.0, 0.8, 1.0, 1.0)}


def with_tile_zones(calibration: Calibration) -> Calibration:
    """``calibration`` with the rack zone: its own where it has one, else at :data:`ZONE_FRACTIONS`."""
    return calibration.with_zones(ZONE_FRACTIONS)


def rack_area(size: tuple[int, int]) -> tuple[float, float, float, float]:
    """The rack zone of a play area of ``size`` (width, height) as the default places it (x0, y0, x1,
    y1 pixels): where a simulated table whose camera looks straight down at it lays a rack."""
    fx0, fy0, fx1, fy1 = ZONE_FRACTIONS[RACK]
    return (fx0 * size[0], fy0 * size[1], fx1 * size[0], fy1 * size[1])


def read_tile_table(frame: np.ndarray, calibration: Calibration | None = None) -> TableObservation:
    """A Rummikub table read (``vision.tiles.read_tiles``) with the tiles in the rack zone kept apart
    (``TableObservation.shown``; at :data:`ZONE_FRACTIONS` where the calibration has no zone of that
    name); with no calibration, no zone (every tile the table's). Raises ``FrameError`` for a frame that
    is not a readable BGR image."""
    zoned = None if calibration is None else with_tile_zones(calibration)
    return read_tiles(frame, zoned, zones=TILE_ZONES)
