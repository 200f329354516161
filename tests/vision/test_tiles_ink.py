"""A number read black whose crop, its colours strengthened, is clearly of a colour is held unsure in that
colour, and its meld decides among that colour's tiles (``vision.tiles.INK_LOOK``; issue 32)."""

from __future__ import annotations

import numpy as np

from vision.tiles import (
    LABELS,
    NOT_A_TILE,
    TableObservation,
    TileDetection,
    default_models,
    observe,
    strengthen,
)

THRESHOLD = 0.5


def _probs(reading: dict[str, float]) -> np.ndarray:
    p = np.zeros(len(LABELS))
    for name, value in reading.items():
        p[LABELS.index(name)] = value
    p[NOT_A_TILE] = 1.0 - sum(reading.values())
    return p


def _observe(
    readings: list[dict[str, float]], strengthened: list[dict[str, float] | None]
) -> TableObservation:
    """Tiles side by side in a row (a run's spacing), read as ``readings``; ``strengthened`` the reading of
    each crop with its colours strengthened (None: not looked at)."""
    detections = [TileDetection(300.0 + 75.0 * i, 400.0, 96.0, 72.0, 0.0, 1.0) for i in range(len(readings))]
    probs = np.stack([_probs(r) for r in readings])
    sure = probs[:, :NOT_A_TILE].max(axis=1)
    leads = np.ones(len(readings))
    looks = np.stack([_probs(s) if s else np.full(len(LABELS), np.nan) for s in strengthened])
    inks = np.full((len(readings), 2), np.nan)  # too faint to measure: ink_disagrees says nothing
    return observe(detections, probs, sure, leads, THRESHOLD, 0.0, inks=inks, strengthened=looks)


def test_a_black_reading_that_is_red_strengthened_is_unsure_and_red() -> None:
    observation = _observe([{"K7": 0.95}], [{"R7": 0.9, "K7": 0.05}])
    (tile,) = observation.tiles
    assert str(tile.tile) == "R7" and 0 in observation.uncertain
    candidates = [str(c) for c, _ in tile.candidates]
    assert candidates[:2] == ["R7", "O7"] and not any(c.startswith("K") for c in candidates)


def test_a_black_reading_that_is_blue_strengthened_offers_blue_only() -> None:
    observation = _observe([{"K12": 0.9}], [{"B12": 0.95, "K12": 0.02}])
    (tile,) = observation.tiles
    assert str(tile.tile) == "B12" and 0 in observation.uncertain
    assert all(str(c).startswith("B") for c, _ in tile.candidates)


def test_a_black_reading_still_somewhat_black_strengthened_stays_black() -> None:
    # The black kinds hold 0.3 of the strengthened reading: not clearly of a colour.
    observation = _observe([{"K7": 0.95}], [{"R7": 0.7, "K7": 0.3}])
    (tile,) = observation.tiles
    assert str(tile.tile) == "K7" and not observation.uncertain


def test_a_tile_not_looked_at_is_as_read() -> None:
    observation = _observe([{"K7": 0.95}, {"R5": 0.95}], [None, None])
    assert [str(t.tile) for t in observation.tiles] == ["K7", "R5"] and not observation.uncertain


def test_a_washed_out_red_run_read_black_in_its_middle_is_decided_red_by_its_run() -> None:
    observation = _observe(
        [{"R5": 0.95}, {"K6": 0.95}, {"R7": 0.95}], [None, {"R6": 0.6, "O6": 0.3, "K6": 0.05}, None]
    )
    assert [str(t.tile) for t in observation.tiles] == ["R5", "R6", "R7"]
    assert 1 in observation.corrected and not observation.uncertain


def test_strengthening_keeps_a_grey_pixel_and_doubles_a_colour() -> None:
    crop = np.array([[[[100, 100, 100], [60, 60, 150]]]], np.uint8)
    out = strengthen(crop, 2.0)[0, 0]
    assert out[0].tolist() == [100, 100, 100]
    assert out[1].tolist() == [30, 30, 210]


def test_the_look_reads_again_only_black_readings_whose_ink_is_not_clearly_neutral() -> None:
    models = default_models()
    width, height = models.crop
    readings = [{"K7": 0.9}, {"K7": 0.9}, {"K7": 0.9}, {"K7": 0.9}, {"R7": 0.9}, {"K7": 0.2}]
    inks = np.array(
        [
            [np.nan, np.nan],  # too little ink to measure: looked at
            [3.0, -2.0],  # neutral: not
            [20.0, -20.0],  # reddish: looked at
            [60.0, -60.0],  # clearly red: the ink check's, not the look's
            [np.nan, np.nan],  # read red: not
            [np.nan, np.nan],  # "not a tile" likeliest (0.8): not
        ]
    )
    crops = np.full((len(readings), height, width, 3), 225, np.uint8)
    looks = models.ink_look(crops, np.stack([_probs(r) for r in readings]), inks)
    assert [not np.isnan(row).any() for row in looks] == [True, False, True, False, False, False]
    assert np.allclose(looks[[0, 2]].sum(axis=1), 1.0)
