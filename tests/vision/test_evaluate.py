"""Scoring: multiset matching per image, confident precision and coverage, the confusion matrix."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from vision.dataset import LabelledBox, LabelledImage
from vision.dice import DiceObservation, Die
from vision.evaluate import (
    DiceEvaluation,
    multiset_hits,
    pair_by_position,
    reliability,
    scored_tiles,
    threshold_for,
)

values = st.lists(st.integers(1, 6), max_size=12)


@given(values, values)
def test_multiset_hits_is_symmetric_and_bounded(a: list[int], b: list[int]) -> None:
    hits = multiset_hits(a, b)
    assert hits == multiset_hits(b, a)
    assert 0 <= hits <= min(len(a), len(b))
    assert multiset_hits(a, a) == len(a)


def _die(value: int, x: float, confidence: float = 0.99) -> Die:
    return Die(value, (x, 50.0), 40.0, 0.0, confidence)


def test_totals_and_rates() -> None:
    evaluation = DiceEvaluation()
    # Image 1: truth 1 2 3; read 1 2 (uncertain) 5 -> 2 hits, 1 confident hit (the 2 is uncertain).
    evaluation.add([1, 2, 3], DiceObservation((_die(1, 10), _die(2, 60, 0.4), _die(5, 110)), (1,)), [])
    # Image 2: read exactly.
    evaluation.add([6, 6], DiceObservation((_die(6, 10), _die(6, 60))), [])
    s = evaluation.summary()
    assert (s["precision"], s["recall"]) == (0.8, 0.8)
    assert s["f1"] == 0.8
    assert s["exact_image_rate"] == 0.5
    assert s["confident_precision"] == 0.75  # 1, 6, 6 right; 5 wrong
    assert s["coverage"] == 0.6  # 3 of 5 true dice read right with confidence
    for key in (
        "precision",
        "recall",
        "f1",
        "exact_image_rate",
        "confident_precision",
        "coverage",
        "ms_median",
    ):
        assert key in s


def test_confusion_pairs_by_position() -> None:
    item = LabelledImage(
        path=__import__("pathlib").Path("x.jpg"),
        width=200,
        height=100,
        objects=("1", "4"),
        boxes=(LabelledBox(0, 10, 50, 30, 30), LabelledBox(3, 110, 50, 30, 30)),
    )
    observation = DiceObservation((_die(1, 12), _die(5, 108), _die(2, 180)))
    assert pair_by_position(item, observation) == [(0, 0), (3, 4), (6, 1)]


def test_the_threshold_keeps_at_most_one_wrong_in_two_hundred() -> None:
    # 400 right readings at 0.9 and above, then a wrong one at 0.85, then 100 right at 0.8, 3 wrong at 0.7.
    scored = [(0.9 + i / 10000, True) for i in range(400)] + [(0.85, False)]
    scored += [(0.8, True)] * 100 + [(0.7, False)] * 3
    t = threshold_for(scored)
    sure = [right for conf, right in scored if conf >= t]
    assert t == 0.8 and len(sure) == 501 and sure.count(False) == 1
    assert threshold_for(scored, wrong_share=0.0) == 0.9
    assert threshold_for([(0.99, False), (0.5, True)]) == 1.0
    points = reliability(scored, 510, [0.7, 0.8, 0.9])
    assert [(p.confident, p.wrong) for p in points] == [(504, 4), (501, 1), (400, 0)]
    assert points[1].coverage == 500 / 510


def test_tiles_are_scored_by_position() -> None:
    item = LabelledImage(
        Path("x.jpg"),
        200,
        100,
        ("red_7", "blue_1"),
        (
            LabelledBox(0, 40, 50, 30, 40, name="red_7"),
            LabelledBox(0, 140, 50, 30, 40, name="blue_1"),
        ),
    )
    seen = [SimpleNamespace(tile="R7", center=(42.0, 52.0), confidence=0.9)]
    seen += [SimpleNamespace(tile="B7", center=(139.0, 50.0), confidence=0.8)]
    seen += [SimpleNamespace(tile="K2", center=(90.0, 90.0), confidence=0.3)]
    scored, true = scored_tiles(item, SimpleNamespace(tiles=seen))
    assert (scored, true) == ([(0.9, True), (0.8, False), (0.3, False)], 2)
