"""`training.tiles`' options for the classifier's cut crops and rack ends (issue 32, session 9): their
parsing and wiring. The trainer needs PyTorch (the ``train`` extra), so these run where it is installed;
the logic they wire is torch-free and tested always (`test_tiles_frame_edge.py`, `test_tiles_rack_ends.py`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.smear_spy import smeared_shapes


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--edge-cut-digit"], "--edge-cut-digit needs --edge-cut"),
        (["--rack-ends", "1"], "--rack-ends: a share from 0 to below 1"),
        (["--edge-cut", "0.1", "--leave-out-partly-cut"], "--leave-out-partly-cut needs --edge-cut-digit"),
        (["--rack-ends", "0.1", "--no-runs"], "not with --no-runs"),
        (["--edge-cut", "0.1", "--digit-named-from", "0.5"], "--digit-named-from needs --edge-cut-digit"),
        (
            ["--edge-cut", "0.1", "--edge-cut-digit", "--leave-out-partly-cut", "--digit-named-from", "0.5"],
            "and not --leave-out-partly-cut",
        ),
        (["--edge-cut", "0.1", "--edge-cut-digit", "--digit-named-from", "0"], "a share above 0, at most 1"),
        (["--motion-blur", "1"], "--motion-blur: a share from 0 to below 1"),
        (["--twin-margin", "1.5"], "--twin-margin: from 0 to 1"),
        (["--twin-margin", "0.86"], "--twin-margin: only with --stage calibrate or all"),  # not classifier
    ],
)
def test_the_options_are_refused_before_anything_trains(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch")
    from training import tiles

    with pytest.raises(SystemExit):
        tiles.main(["--stage", "classifier", "--out", str(tmp_path), *argv])
    assert message in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def _photos() -> list:
    from training import tiles

    return tiles.synthetic_photos(3, 1)


@pytest.mark.parametrize("kept", [True, False])
def test_a_cut_tile_keeps_its_label_only_while_its_digit_is_kept(
    kept: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    from training import tiles

    asked = []

    def digit_left(*args: object) -> float:
        asked.append(args)
        return 1.0 if kept else 0.3

    monkeypatch.setattr(tiles, "digit_left", digit_left)
    photos = _photos()
    none = len(tiles._labels()) - 1
    rng = np.random.default_rng(2)
    labels = [tiles._classifier_sample(photos, [], [], none, rng, None, 1.0, True)[1] for _ in range(60)]
    assert len(asked) >= 30  # every tile crop (most samples) asked; negatives are not
    tiles_named = sum(label != none for label in labels)
    assert tiles_named == (len(asked) if kept else 0)


@pytest.mark.parametrize("leave_out", [False, True])
def test_a_tile_cut_into_its_digit_short_of_half_is_left_out_or_not_a_tile(
    leave_out: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    from training import tiles

    asked = []

    def digit_left(*args: object) -> float:
        asked.append(args)
        return 0.8 if len(asked) % 2 else 1.0  # every other tile crop cut into its digit, most of it left

    monkeypatch.setattr(tiles, "digit_left", digit_left)
    photos = _photos()
    none = len(tiles._labels()) - 1
    rng = np.random.default_rng(2)
    calls, named, cut_named, cut_none = [], 0, 0, 0
    for _ in range(60):
        before = len(asked)
        label = tiles._classifier_sample(photos, [], [], none, rng, None, 1.0, True, 0.0, leave_out)[1]
        calls.append(len(asked) - before)
        named += label != none
        partly = any(i % 2 == 0 for i in range(before, len(asked)))  # a call that returned 0.8
        cut_named += partly and label != none
        cut_none += partly and label == none
    assert named >= 15
    if leave_out:  # each partly cut tile is drawn again: "not a tile" only for the negatives (about a fifth)
        assert max(calls) >= 2 and 60 - named <= 20
    else:  # each is "not a tile", asked once
        assert cut_named == 0 and cut_none >= 10 and max(calls) == 1 and 60 - named > 20


@pytest.mark.parametrize("named_from", [0.5, 0.9])
def test_a_tile_cut_into_its_digit_is_named_while_the_share_asked_is_left(
    named_from: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    from training import tiles

    lefts = iter(np.tile([1.0, 0.7, 0.4], 100))
    asked: list[float] = []

    def digit_left(*args: object) -> float:
        asked.append(next(lefts))
        return asked[-1]

    monkeypatch.setattr(tiles, "digit_left", digit_left)
    photos = _photos()
    none = len(tiles._labels()) - 1
    rng = np.random.default_rng(2)
    by_left: dict[float, list[bool]] = {1.0: [], 0.7: [], 0.4: []}
    for _ in range(90):
        before = len(asked)
        label = tiles._classifier_sample(
            photos, [], [], none, rng, None, 1.0, True, digit_named_from=named_from
        )[1]
        assert len(asked) - before <= 1  # never drawn again
        if len(asked) > before:
            by_left[asked[-1]].append(label != none)
    assert all(len(named) >= 10 for named in by_left.values())
    assert all(by_left[1.0]) and not any(by_left[0.4])
    # 0.7 of the digit left: named from half, "not a tile" when 0.9 is asked.
    assert all(by_left[0.7]) if named_from == 0.5 else not any(by_left[0.7])


def test_without_the_digit_rule_the_cut_tiles_keep_their_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    from training import tiles

    monkeypatch.setattr(tiles, "digit_left", lambda *args: pytest.fail("the digit rule is off"))
    none = len(tiles._labels()) - 1
    rng = np.random.default_rng(2)
    labels = [tiles._classifier_sample(_photos(), [], [], none, rng, None, 1.0)[1] for _ in range(30)]
    assert sum(label != none for label in labels) >= 15


def test_rack_ends_are_not_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    from training import tiles

    photos = _photos()
    bank = tiles.tile_bank(photos)
    none = len(tiles._labels()) - 1
    racks = []
    real_lay_rack = tiles.lay_rack

    def lay_rack(*args: object, **kwargs: object) -> object:
        racks.append(real_lay_rack(*args, **kwargs))  # type: ignore[arg-type]
        return racks[-1]

    monkeypatch.setattr(tiles, "lay_rack", lay_rack)
    monkeypatch.setattr(tiles, "RUN_CROP_SHARE", 0.0)
    rng = np.random.default_rng(5)
    labels = [tiles._classifier_sample(photos, [], [], none, rng, bank, rack_ends=0.99)[1] for _ in range(40)]
    assert len(racks) >= 35
    # Most crops are a rack's blank end or gap, "not a tile"; the rest its tiles, named.
    assert 20 <= sum(label == none for label in labels) < 40
    # Off (the shipped recipe), no rack is laid.
    racks.clear()
    for _ in range(20):
        tiles._classifier_sample(photos, [], [], none, rng, bank)
    assert not racks


@pytest.mark.parametrize("smear", [0.0, 0.5])
def test_the_smear_is_laid_on_the_share_of_crops_asked(smear: float, monkeypatch: pytest.MonkeyPatch) -> None:
    # training.tiles --motion-blur S: a share S of the classifier's crops smeared as by a hand-held phone
    # (training.motion_blur), negatives and tiles alike.
    pytest.importorskip("torch")
    from training import tiles

    photos = _photos()
    none = len(tiles._labels()) - 1
    rng = np.random.default_rng(3)
    smeared = smeared_shapes(
        monkeypatch, lambda: tiles._classifier_sample(photos, [], [], none, rng, None, smear=smear)
    )
    assert (20 <= len(smeared) <= 60) if smear else not smeared
    assert all(shape == (tiles.CROP_H, tiles.CROP_W, 3) for shape in smeared)


@pytest.mark.parametrize("held", [None, 0.86])
def test_the_calibrate_stage_is_asked_to_hold_the_twin_margin(
    held: float | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # training.tiles --stage calibrate --twin-margin M: the margin held at M (a net that reads no calib
    # twin wrongly is fitted 0); without it, fitted (None asked). What calibrate returns is written.
    pytest.importorskip("torch")
    import json

    from training import tiles

    asked = []

    def calibrate(data: Path, out: Path, tables: int, twin_margin: float | None = None) -> dict[str, float]:
        asked.append(twin_margin)
        return {"temperature": 0.75, "confidence_threshold": 0.4, "twin_margin": twin_margin or 0.0}

    monkeypatch.setattr(tiles, "calibrate", calibrate)
    argv = ["--stage", "calibrate", "--out", str(tmp_path)]
    tiles.main(argv + ([] if held is None else ["--twin-margin", str(held)]))
    assert asked == [held]
    config = json.loads((tmp_path / "tiles_reader.json").read_text())
    assert config["twin_margin"] == (held or 0.0) and config["confidence_threshold"] == 0.4
