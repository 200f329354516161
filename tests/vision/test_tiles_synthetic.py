"""The tile reader on rendered tables: melds read back exactly, 6 and 9 at any turn, empty and
face-down tables, bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from rules.rummikub import check_turn
from rules.rummikub.melds import Meld
from rules.rummikub.tiles import Tile, parse_tiles
from vision import FrameError, read_tiles
from vision.synth import render_table
from vision.tiles import TableObservation


def _melds(observation: TableObservation) -> list[Meld]:
    return sorted((Meld(tuple(m)) for m in observation.meld_tiles()), key=str)


def _expected(*melds: str) -> list[Meld]:
    return sorted((Meld.parse(m) for m in melds), key=str)


CASES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "runs up and down": (["R3 R4 R5 R6", "B13 B12 B11"], {}),
    "groups": (["K7 B7 O7", "R1 B1 K1 O1"], {}),
    "jokers in the middle and at an end": (["O4 J O6", "K10 K11 J", "J B2 B3"], {}),
    "touching melds": (["R3 R4 R5", "K9 B9 O9", "B10 B11 B12"], {"gap": 0.0, "rows": [[0, 1, 2]]}),
    "two rows close together": (["R7 R8 R9 R10", "K2 B2 O2"], {"rows": [[0], [1]], "row_gap": 0.08}),
    "two melds with a gap": (["O9 O10 O11", "B5 K5 R5"], {"rows": [[0, 1]], "gap": 0.8}),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("angle", [0.0, 23.0, 180.0, -100.0])
def test_synthetic_melds_read_back_exactly(name: str, angle: float) -> None:
    melds, options = CASES[name]
    tiles = [parse_tiles(m) for m in melds]
    frame, _ = render_table(tiles, seed=len(name) + int(angle), angle=angle, size=(1280, 720), **options)
    observation = read_tiles(frame)
    assert _melds(observation) == _expected(*melds), str(observation)
    assert observation.loose == ()
    assert observation.certain, str(observation)


def test_loose_tiles_and_the_table_for_the_engine() -> None:
    frame, _ = render_table(
        [parse_tiles("R3 R4 R5"), parse_tiles("K8 B8 O8")],
        parse_tiles("O12"),
        seed=4,
        angle=5.0,
        size=(1280, 720),
    )
    observation = read_tiles(frame)
    assert [str(observation.tiles[i].tile) for i in observation.loose] == ["O12"]
    after = [m for m in observation.table() if len(m) >= 3]
    assert check_turn(["R3 R4 R5"], after) == parse_tiles("B8 K8 O8")


@pytest.mark.parametrize("angle", [0.0, 37.0, 90.0, 145.0, 180.0, -60.0])
def test_six_and_nine_are_told_apart_at_any_turn(angle: float) -> None:
    loose = parse_tiles("K6 K9 B6 B9 R6 O9")
    frame, _ = render_table([], loose, seed=int(angle) + 200, size=(1280, 720), tile_size=80.0)
    # The loose tiles lie at random turns; turn the whole frame too.
    if angle:
        import cv2

        m = cv2.getRotationMatrix2D((640, 360), angle, 1.0)
        frame = cv2.warpAffine(frame, m, (1280, 720), borderMode=cv2.BORDER_REFLECT)
    observation = read_tiles(frame)
    assert sorted(map(str, observation.values)) == sorted(map(str, loose)), str(observation)


def test_an_empty_table_and_face_down_tiles_give_no_tiles() -> None:
    frame, _ = render_table([], seed=1, size=(1280, 720), background="wood")
    assert read_tiles(frame).empty
    frame, _ = render_table([], seed=2, size=(1280, 720), face_down=5, tile_size=70.0)
    observation = read_tiles(frame)
    assert observation.tiles == (), str(observation)


def test_a_doubtful_tile_decided_by_its_meld_says_so() -> None:
    frame, _ = render_table([parse_tiles("R5 R6 R7 R8")], seed=9, angle=0.0, size=(1280, 720))
    observation = read_tiles(frame)
    for i in observation.corrected:
        assert observation.tiles[i].read_as is not None
    assert _melds(observation) == _expected("R5 R6 R7 R8")


@pytest.mark.parametrize(
    "frame",
    [
        None,
        np.zeros((100, 100), np.uint8),
        np.zeros((100, 100, 3), np.float32),
        np.zeros((4, 4, 3), np.uint8),
        "x",
    ],
)
def test_bad_input_raises_frame_error(frame: object) -> None:
    with pytest.raises(FrameError):
        read_tiles(frame)  # type: ignore[arg-type]


def test_a_tile_is_a_rules_tile() -> None:
    frame, _ = render_table([parse_tiles("B1 B2 B3")], seed=3, angle=0.0, size=(1280, 720))
    assert all(isinstance(t.tile, Tile) for t in read_tiles(frame).tiles)
