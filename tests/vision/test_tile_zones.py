"""A learning table's rack zone: the tiles of a rack laid face up there are read as the rack, never as
the table's tiles (no meld takes them or decides them); the plain tile reader and a calibration's own
zone; the vote keeps them apart."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.rummikub.tiles import parse_tiles
from vision.calibration import Calibration, HoldZone
from vision.synth import render_table
from vision.tile_vote import vote_tiles
from vision.tile_zones import RACK, rack_area, read_tile_table, with_tile_zones
from vision.tiles import read_tiles

SIZE = (1280, 720)
MELDS = ["R3 R4 R5", "K7 B7 O7"]
RACK_TILES = "R6 B11 K2 O9 J R12 B1"


def frame_with_rack(rack: str = RACK_TILES, seed: int = 4):
    return render_table(
        [parse_tiles(m) for m in MELDS],
        rack=parse_tiles(rack),
        rack_area=rack_area(SIZE),
        seed=seed,
        size=SIZE,
        tile_size=84,
        angle=0.0,
        background="wood",
        warm=0.0,
        noise=0.0,
    )


def test_the_tiles_in_the_rack_zone_are_the_rack_not_the_table() -> None:
    frame, truth = frame_with_rack()
    assert len(truth.rack) == 7 and all(truth.tiles[i].center[1] > 0.8 * SIZE[1] for i in truth.rack)
    reading = read_tile_table(frame, Calibration.identity(SIZE))
    assert sorted(" ".join(map(str, m)) for m in reading.table()) == ["K7 B7 O7", "R3 R4 R5"]
    assert reading.shown is not None and not reading.uncertain
    assert Counter(reading.shown.labels()) == Counter(RACK_TILES.split())
    assert {t.zone for t in reading.shown.tiles} == {RACK} and {t.zone for t in reading.tiles} == {None}
    # For the rack read, the rack lies beside the melds; the panel draws all of them.
    whole = reading.whole()
    assert len(whole.tiles) == 13 and len(whole.loose) == 7 and whole.melds == reading.melds
    assert [t.label for t in reading.items] == [t.label for t in whole.tiles]


def test_a_rack_laid_as_a_run_is_no_meld_of_the_table() -> None:
    """Rack tiles lying in a row that reads as a run (R6 beside a table's R3 R4 R5 too) stay the rack's."""
    frame, _ = frame_with_rack("R6 R7 R8 R9")
    reading = read_tile_table(frame, Calibration.identity(SIZE))
    assert sorted(" ".join(map(str, m)) for m in reading.table()) == ["K7 B7 O7", "R3 R4 R5"]
    assert reading.shown is not None and sorted(reading.shown.labels()) == ["R6", "R7", "R8", "R9"]
    assert reading.shown.melds == () and len(reading.shown.loose) == 4


def test_without_the_zone_a_rack_is_read_as_table_tiles() -> None:
    """The plain reader (every table but a learning one) keeps no zone: what the learning table mends."""
    frame, _ = frame_with_rack()
    calibration = with_tile_zones(Calibration.identity(SIZE))
    reading = read_tiles(frame, calibration)
    assert reading.shown is None and len(reading.tiles) == 13
    assert len(read_tile_table(frame, None).tiles) == 13  # no calibration: no zone


def test_a_calibrations_own_rack_zone_is_kept() -> None:
    own = Calibration(Calibration.identity(SIZE).homography, SIZE, None, ((RACK, HoldZone(0, 0, 1280, 100)),))
    assert with_tile_zones(own).zones[RACK] == HoldZone(0, 0, 1280, 100)
    assert str(with_tile_zones(Calibration.identity(SIZE)).zones[RACK]) == "0,576,1280,720"
    assert Calibration.from_json(with_tile_zones(own).to_json()) == own
    frame, _ = frame_with_rack()
    reading = read_tile_table(frame, own)  # the rack lies outside this table's own zone: beside the melds
    assert reading.shown is not None and reading.shown.tiles == () and len(reading.tiles) == 13


def test_the_vote_keeps_the_rack_apart() -> None:
    frame, _ = frame_with_rack()
    calibration = Calibration.identity(SIZE)
    readings = [read_tile_table(frame, calibration) for _ in range(3)]
    voted = vote_tiles(readings)
    assert voted.same_as(readings[0]) and voted.shown is not None
    assert len(voted.tiles) == 6 and sorted(voted.shown.labels()) == sorted(RACK_TILES.split())
    assert voted.shown.melds == ()


def test_a_rack_that_does_not_fit_its_area_is_an_error() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        frame_with_rack(" ".join(["R1"] * 40))
    with pytest.raises(ValueError, match="rack_area"):
        render_table([parse_tiles("R1 R2 R3")], rack=parse_tiles("K1"), seed=1, angle=0.0)
