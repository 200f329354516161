"""The readers on a fixed set of photos give what they gave on x86-64, within ``TOLERANCE``
(``tests/vision/readings.py``): ``make test-arm64`` runs this on aarch64, where OpenCV's DNN picks other
kernels. After the nets change, write the expected readings again: ``bench/arch_reference.py --write``."""

from __future__ import annotations

import copy

import pytest

from tests.vision import readings


def test_the_expected_readings_are_of_the_nets_shipped() -> None:
    expected = readings.load_expected()
    assert expected["models"] == readings.models_digest(), (
        f"the nets in vision/models changed since {readings.EXPECTED.name} was written; on x86-64: "
        f"{readings.REGENERATE}"
    )


def test_the_readings_equal_those_committed_from_x86_64() -> None:
    if not readings.dice_photos_present():
        pytest.skip(f"the shared photo sets are not at {readings.DATASETS} (REFEREE_DATASETS)")
    expected = readings.load_expected()
    if expected["models"] != readings.models_digest():
        pytest.skip("the nets changed: see test_the_expected_readings_are_of_the_nets_shipped")
    assert readings.differences(expected, readings.readings()) == []


def _sample() -> dict:
    return {
        "tolerance": readings.TOLERANCE,
        "thresholds": {"dice": 0.5, "tiles": 0.5},
        "photos": {
            "d.jpg": {
                "sha256": "a",
                "reader": "dice",
                "items": [[3, 10.0, 10.0, 40.0, 44.5, 0.9, False], [5, 100.0, 10.0, 40.0, 0.0, 0.505, False]],
                "uncertain": [],
            },
            "t.jpg": {
                "sha256": "b",
                "reader": "tiles",
                "items": [
                    ["R5", 10.0, 10.0, 60.0, 40.0, 89.5, 0.9],
                    ["R6", 50.0, 10.0, 60.0, 40.0, 0.0, 0.9],
                    ["R7", 90.0, 10.0, 60.0, 40.0, 0.0, 0.2],
                ],
                "uncertain": [2],
                "melds": [[0, 1, 2]],
                "loose": [],
                "corrected": [2],
            },
        },
    }


def test_differences_within_the_tolerance_are_none() -> None:
    found = _sample()
    dice, tiles = found["photos"]["d.jpg"], found["photos"]["t.jpg"]
    dice["items"].reverse()  # paired by centre, not by order
    dice["items"][1][4] = -44.9  # 44.5° and -44.9° are 0.6° apart on a die (90° symmetry)
    dice["items"][0][5] = 0.498  # across the threshold, within the tolerance of it
    dice["uncertain"] = [0]
    tiles["items"][0][5] = -89.9  # 89.5° and -89.9° are 0.6° apart on a tile (180° symmetry)
    tiles["items"][1][1] += 0.9
    tiles["items"][2][6] += 0.009
    assert readings.differences(_sample(), found) == []


def test_differences_beyond_the_tolerance_are_named() -> None:
    found = copy.deepcopy(_sample())
    dice, tiles = found["photos"]["d.jpg"], found["photos"]["t.jpg"]
    dice["items"][0][0] = 4
    dice["items"][1][5] = 0.2
    tiles["items"][1][2] += 1.5
    tiles["items"][0][5] = 80.0
    tiles["melds"] = [[0, 1]]
    tiles["loose"] = [2]
    assert readings.differences(_sample(), found) == [
        "d.jpg item 0 (3): read as 4",
        "d.jpg item 1 (5): confidence 0.2000, expected 0.5050",
        "t.jpg item 0 (R5): angle 80.00°, expected 89.50°",
        "t.jpg item 1 (R6): y 11.50 px, expected 10.00",
        "t.jpg: melds [[0, 1]], expected [[0, 1, 2]] (items paired by centre)",
        "t.jpg: loose [2], expected [] (items paired by centre)",
    ]
    found["photos"]["t.jpg"]["items"].pop()
    found["photos"]["d.jpg"]["sha256"] = "other"
    assert readings.differences(_sample(), found) == [
        "d.jpg: another file than the one the readings were written from",
        "t.jpg: 2 items read, expected 3",
    ]
