"""The readers on a fixed set of photos give what they gave on x86-64, within ``TOLERANCE``
(``tests/vision/readings.py``): every reader that runs a net — the dice, the tiles, the cards and their
corner indices, the Zatre board and loose Zatre cards (whose net is the dice classifier). ``make
test-arm64`` runs this on aarch64, where OpenCV's DNN picks other kernels. The tolerance: the same
labels, melds, loose items, cells, cards and reasons, exactly; centres, sizes and boxes within 1 px,
angles within 1°, confidences and heat within 0.01. After the nets change (new weights or settings in
``vision/models``), write the expected readings again on x86-64: ``bench/arch_reference.py --write``."""

from __future__ import annotations

import copy

import pytest

from tests.vision import readings

STALE = (
    f"the nets in vision/models changed since {readings.EXPECTED.name} was written (new weights or "
    f"settings?); on x86-64 write the expected readings again and commit them: {readings.REGENERATE}"
)


def test_the_expected_readings_are_of_the_nets_shipped() -> None:
    assert readings.load_expected()["models"] == readings.models_digest(), STALE


def test_every_net_shipped_is_in_the_readings() -> None:
    shipped = {p.name for p in readings.MODELS.iterdir() if p.suffix in (".onnx", ".json")}
    assert shipped == set(readings.MODEL_FILES), (
        "a net was added or removed: read it in tests/vision/readings.py"
    )
    expected = readings.load_expected()
    assert {photo["reader"] for photo in expected["photos"].values()} == set(readings.COLUMNS), STALE


def test_the_readings_equal_those_committed_from_x86_64() -> None:
    if not readings.dice_photos_present():
        pytest.skip(f"the shared photo sets are not at {readings.DATASETS} (REFEREE_DATASETS)")
    expected = readings.load_expected()
    if expected["models"] != readings.models_digest():
        pytest.skip("the nets changed: see test_the_expected_readings_are_of_the_nets_shipped")
    gaps = readings.differences(expected, readings.readings())
    assert gaps == [], (
        f"{len(gaps)} readings differ from those committed from x86-64 beyond {expected['tolerance']}. "
        f"On another CPU: the readers differ there. On x86-64: the readers changed (code or nets); "
        f"if on purpose, write them again: {readings.REGENERATE}"
    )


def _sample() -> dict:
    return {
        "tolerance": readings.TOLERANCE,
        "thresholds": {"dice": 0.5, "tiles": 0.5, "cards": 1.0},
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
            "c.jpg": {
                "sha256": "c",
                "reader": "cards",
                "items": [
                    ["7H", 100.0, 100.0, 80.0, 120.0, 44.8, 0.995],
                    ["8H", 130.0, 100.0, 80.0, 120.0, 10.0, 0.4],
                    ["KS", 400.0, 100.0, 80.0, 120.0, 0.0, 0.9],
                ],
                "uncertain": [0, 1, 2],
                "melds": [[0, 1]],
                "loose": [2],
                "backs": [[600.0, 300.0]],
            },
            "c.jpg (indices)": {
                "sha256": "c",
                "reader": "card indices",
                "items": [
                    ["7H", 70.0, 50.0, 130.0, 179.6, 0.98, 0.7],
                    ["none", 300.0, 50.0, 130.0, 0.0, 0.6, 0.31],
                ],
                "uncertain": [],
            },
            "z.jpg": {
                "sha256": "d",
                "reader": "zatre",
                "items": [
                    [5, 10.0, 10.0, 30.0, 1.0, [0, 0], True, ""],
                    [3, 40.0, 10.0, 30.0, 0.93, [1, 0], True, ""],
                    [None, 70.0, 10.0, 30.0, 0.0, [2, 0], True, "pips unclear (1 holes, classifier 2)"],
                ],
                "uncertain": [2],
                "partners": [[0, 1], [1, 0]],
                "grid": [30.0, 44.9],
            },
            "l.jpg": {
                "sha256": "e",
                "reader": "zatre loose",
                "items": [["1|4", 10.0, 10.0, 60.0, 0.96, ""], ["?", 90.0, 10.0, 60.0, 0.0, "partly hidden"]],
                "uncertain": [1],
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
    cards, indices = found["photos"]["c.jpg"], found["photos"]["c.jpg (indices)"]
    cards["items"][0][5] = -44.9  # a card's edges: 90° symmetry
    cards["items"][0][6] = 1.0  # at the threshold: either side of it is the same reading
    cards["items"].reverse()
    cards["uncertain"] = [0, 1]  # 7H (now 2) lies within the tolerance of the threshold
    cards["melds"], cards["loose"] = [[2, 1]], [0]
    cards["backs"] = [[600.5, 299.4]]
    indices["items"][0][4] = -179.9  # an index's upright: a whole turn
    indices["items"][1][6] = 0.305
    zatre = found["photos"]["z.jpg"]
    zatre["items"][1][4] = 0.925
    zatre["grid"] = [30.6, -44.8]  # the grid's turn: 90° symmetry
    zatre["items"][2][7] = "pips unclear (0 holes, classifier 2)"  # the contour search's count
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
    for name in ("c.jpg", "c.jpg (indices)", "z.jpg", "l.jpg"):
        del found["photos"][name]
    assert readings.differences(_sample(), found) == [
        "d.jpg item 0 (3): read as 4",
        "d.jpg item 1 (5): confidence 0.2000, expected 0.5050",
        "t.jpg item 0 (R5): angle 80.00°, expected 89.50°",
        "t.jpg item 1 (R6): y 11.50 px, expected 10.00",
        "t.jpg: melds [[0, 1]], expected [[0, 1, 2]] (items paired by centre)",
        "t.jpg: loose [2], expected [] (items paired by centre)",
        "c.jpg: not read",
        "c.jpg (indices): not read",
        "z.jpg: not read",
        "l.jpg: not read",
    ]
    found["photos"]["t.jpg"]["items"].pop()
    found["photos"]["d.jpg"]["sha256"] = "other"
    assert readings.differences(_sample(), found)[:2] == [
        "d.jpg: another file than the one the readings were written from",
        "t.jpg: 2 items read, expected 3",
    ]


def test_the_card_and_zatre_readings_beyond_the_tolerance_are_named() -> None:
    found = copy.deepcopy(_sample())
    for name in ("d.jpg", "t.jpg"):
        found["photos"][name] = _sample()["photos"][name]
    cards, indices = found["photos"]["c.jpg"], found["photos"]["c.jpg (indices)"]
    cards["items"][1][3] = 82.0
    cards["items"][2][6] = 0.95
    cards["uncertain"] = [0, 1]
    cards["melds"], cards["loose"] = [[0, 1, 2]], []
    cards["backs"] = [[600.0, 302.0]]
    indices["items"][0][0] = "7D"
    indices["items"][0][4] = 10.0
    indices["items"][1][6] = 0.25
    zatre, loose = found["photos"]["z.jpg"], found["photos"]["l.jpg"]
    zatre["items"][2][7] = "pips unclear (1 holes, classifier 3)"
    zatre["items"][1][5] = [1, 1]
    zatre["partners"] = [[1, 2], [2, 1]]
    zatre["grid"] = [32.0, 44.9]
    loose["items"][0][4] = 0.9
    assert readings.differences(_sample(), found) == [
        "c.jpg item 1 (8H): width 82.00 px, expected 80.00",
        "c.jpg item 2 (KS): confidence 0.9500, expected 0.9000",
        "c.jpg item 2 (KS): uncertain False, expected True",
        "c.jpg: melds [[0, 1, 2]], expected [[0, 1]] (items paired by centre)",
        "c.jpg: loose [], expected [2] (items paired by centre)",
        "c.jpg: face-down card at (600.00, 302.00), expected (600.00, 300.00)",
        "c.jpg (indices) item 0 (7H): read as 7D",
        "c.jpg (indices) item 0 (7H): angle 10.00°, expected 179.60°",
        "c.jpg (indices) item 1 (none): heat 0.2500, expected 0.3100",
        "z.jpg item 1 (3): cell [1, 1], expected [1, 0]",
        "z.jpg item 2 (None): reason pips unclear (1 holes, classifier 3), expected pips unclear (1 holes, "
        "classifier 2)",
        "z.jpg: partners [[1, 2], [2, 1]], expected [[0, 1], [1, 0]] (items paired by centre)",
        "z.jpg: grid 32.00 px at 44.90°, expected 30.00 px at 44.90°",
        "l.jpg item 0 (1|4): confidence 0.9000, expected 0.9600",
    ]
