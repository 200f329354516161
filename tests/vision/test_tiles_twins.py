"""A reading whose confusable twin is close is unsure; a clear one stays confident; a meld does not
choose between twins (issue 32)."""

from __future__ import annotations

import numpy as np
import pytest

from rules.rummikub.tiles import Tile
from vision.melds import correct_melds
from vision.tiles import LABELS, TWINS, SeenTile, TileDetection, TileModels, observe, twin_lead

THRESHOLD = 0.5
MARGIN = 0.3


def _read(probabilities: dict[str, float], margin: float = MARGIN) -> tuple[str, float, bool, list[str]]:
    """One loose tile read with these class probabilities (the rest spread over "not a tile")."""
    p = np.zeros(len(LABELS))
    for name, value in probabilities.items():
        p[LABELS.index(name)] = value
    p[-1] = 1.0 - sum(probabilities.values())
    best = max(probabilities.values())
    detection = TileDetection(500.0, 400.0, 96.0, 72.0, 0.0, 1.0)
    lead = twin_lead(p, int(p[:-1].argmax()))[0]
    observation = observe([detection], p[None, :], np.array([best]), np.array([lead]), THRESHOLD, margin)
    (tile,) = observation.tiles
    return (
        str(tile.tile),
        tile.confidence,
        0 in observation.uncertain,
        [str(c) for c, _ in tile.candidates],
    )


@pytest.mark.parametrize(
    ("reading", "twin"),
    [("K7", "K1"), ("R9", "R6"), ("B1", "B11"), ("O12", "O13"), ("K8", "K3"), ("B5", "K5"), ("K10", "K1")],
)
def test_a_reading_close_to_its_twin_is_unsure_and_offers_the_twin_first(reading: str, twin: str) -> None:
    # 0.62 against 0.36: sure enough for the threshold alone, but its twin is within the margin.
    tile, confidence, unsure, candidates = _read({reading: 0.62, twin: 0.36, "R2": 0.01})
    assert tile == reading
    assert unsure and confidence < THRESHOLD
    assert candidates[:2] == [reading, twin]


def test_the_closer_the_twin_the_less_sure() -> None:
    far = _read({"K7": 0.62, "K1": 0.36})[1]
    near = _read({"K7": 0.52, "K1": 0.47})[1]
    assert near < far < THRESHOLD


@pytest.mark.parametrize("other", ["R7", "K2", "O1"])
def test_a_reading_whose_runner_up_is_no_twin_stays_confident(other: str) -> None:
    tile, confidence, unsure, candidates = _read({"K7": 0.62, other: 0.36})
    assert tile == "K7" and not unsure
    assert confidence == pytest.approx(0.62)
    assert candidates[:2] == ["K7", other]


def test_a_reading_far_ahead_of_its_twin_stays_confident() -> None:
    tile, confidence, unsure, _ = _read({"K7": 0.9, "K1": 0.05})
    assert tile == "K7" and not unsure and confidence == pytest.approx(0.9)


def test_without_a_margin_the_twin_does_not_count() -> None:
    _, confidence, unsure, _ = _read({"K7": 0.62, "K1": 0.36}, margin=0.0)
    assert not unsure and confidence == pytest.approx(0.62)


def test_the_twins_are_the_named_pairs_both_ways() -> None:
    def twins(name: str) -> set[str]:
        return {LABELS[k] for k in TWINS[LABELS.index(name)]}

    assert twins("K7") == {"K1", "B7"}
    assert twins("R1") == {"R7", "R10", "R11"}
    assert twins("O6") == {"O9"} and twins("O9") == {"O6"}
    assert twins("B12") == {"B13", "K12"}
    assert twins("R3") == {"R8"} and twins("R5") == set()
    assert twins("J") == set() and twins("none") == set()
    for label, others in enumerate(TWINS):
        assert all(label in TWINS[k] for k in others)


def test_the_shipped_reader_has_a_twin_margin() -> None:
    models = TileModels.load()
    assert 0.0 < models.twin_margin < 1.0


def _row(readings: list[tuple[str, float, list[tuple[str, float]]]]) -> list[SeenTile]:
    return [
        SeenTile(
            Tile.parse(text),
            (100.0 + 50 * i, 80.0),
            (),
            70.0,
            50.0,
            0.0,
            confidence,
            tuple((Tile.parse(c), p) for c, p in candidates),
        )
        for i, (text, confidence, candidates) in enumerate(readings)
    ]


def test_a_meld_does_not_choose_between_twins() -> None:
    # Three 7s read as 1s, each in doubt with the 7 as its twin: a group of 1s and a group of 7s are
    # both valid, only the strokes can tell them apart, so the tiles stay unsure.
    row = _row([(f"{c}1", 0.3, [(f"{c}1", 0.7), (f"{c}7", 0.28)]) for c in "RBO"])
    out = correct_melds(row, [[0, 1, 2]], THRESHOLD)
    assert [t.corrected for t in out] == [False, False, False]
    assert [str(t.tile) for t in out] == ["R1", "B1", "O1"]


def test_a_meld_still_decides_a_twin_that_only_one_reading_fits() -> None:
    row = _row(
        [
            ("R8", 0.99, [("R8", 0.99)]),
            ("R6", 0.3, [("R6", 0.55), ("R9", 0.44)]),
            ("R10", 0.99, [("R10", 0.99)]),
        ]
    )
    out = correct_melds(row, [[0, 1, 2]], THRESHOLD)
    assert str(out[1].tile) == "R9" and out[1].corrected
