"""``training.dice --motion-blur S`` (issue 32, session 17): a share ``S`` of the dice classifier's crops
smeared along a line as by a hand-held phone (``training.motion_blur``, torch-free and tested in
``test_cards_motion_blur.py``). The trainer needs PyTorch (the ``train`` extra), so these run where it
is installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.smear_spy import smeared_shapes


def test_a_share_outside_0_to_1_is_refused_before_anything_trains(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch")
    from training import dice

    with pytest.raises(SystemExit):
        dice.main(["--out", str(tmp_path / "out"), "--motion-blur", "1"])
    assert "--motion-blur: a share from 0 to below 1" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("smear", [0.0, 0.5])
def test_the_smear_is_laid_on_the_share_of_crops_asked(smear: float, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    from training import dice

    sets = {"synthetic": dice.synthetic_photos(3, 1)}
    rng = np.random.default_rng(3)
    smeared = smeared_shapes(monkeypatch, lambda: dice._classifier_sample(sets, [], rng, smear=smear))
    assert (20 <= len(smeared) <= 60) if smear else not smeared
    assert all(shape == (dice.CROP, dice.CROP, 3) for shape in smeared)
