"""Scoring: multiset matching per image, confident precision and coverage, the confusion matrix."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vision.dataset import LabelledBox, LabelledImage, split_of
from vision.dice import DiceObservation, Die
from vision.evaluate import DiceEvaluation, multiset_hits, pair_by_position

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


def test_split_depends_on_the_file_name_only() -> None:
    assert split_of("train/images/dice_1.jpg") == split_of("/elsewhere/dice_1.jpg")
    names = [f"img_{i}.jpg" for i in range(2000)]
    share = sum(split_of(n) == "val" for n in names) / len(names)
    assert 0.2 < share < 0.28
