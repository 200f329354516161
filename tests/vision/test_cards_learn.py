"""Which real splits the card trainer learns from (``training/cards.py --learn``, session 7 of issue 30).

``calib`` fits the card reader's temperatures and threshold and is the split reported as unseen, so no
card net may learn from it. The option's parsing is torch-free and checked here always; the trainer
itself needs PyTorch (the ``train`` extra), so its checks run where that is installed.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from training.learn_splits import learned_splits

REPO = Path(__file__).resolve().parents[2]
DATASETS = Path(os.environ.get("REFEREE_DATASETS", REPO.parent / "shared" / "datasets"))


def test_learn_takes_fit_and_val_and_refuses_calib() -> None:
    assert learned_splits("fit") == ("fit",)
    assert learned_splits("val,fit") == ("fit", "val")
    with pytest.raises(argparse.ArgumentTypeError, match="calib is never learned from"):
        learned_splits("fit,val,calib")
    with pytest.raises(argparse.ArgumentTypeError, match="no split test"):
        learned_splits("fit,test")


def test_the_card_trainer_refuses_calib_before_it_trains(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch")
    from training import cards

    with pytest.raises(SystemExit):
        cards.main(["--stage", "detector", "--learn", "fit,calib", "--out", str(tmp_path)])
    assert "calib is never learned from" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing trained, nothing written


@pytest.mark.parametrize("share", ["-0.1", "1", "1.5"])
def test_the_card_trainer_refuses_a_smear_share_out_of_range(
    share: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch")
    from training import cards

    with pytest.raises(SystemExit):
        cards.main(["--stage", "index-classifier", "--motion-blur", share, "--out", str(tmp_path)])
    assert "--motion-blur: a share from 0 to below 1" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_the_notice_says_what_each_card_net_learned_from() -> None:
    pytest.importorskip("torch")
    from training.cards import card_notice

    both = card_notice({"detector": ["fit", "val"], "index": ["fit", "val"], "suit": ["fit", "val"]})
    assert 'on the "fit" and "val" splits of a public photo set:' in both
    mixed = card_notice({"detector": ["fit", "val"], "index": ["fit"], "suit": ["fit"], "classifier": []})
    assert "cards_detector.onnx: fit, val; cards_index.onnx (ranks): fit; cards_suit.onnx: fit)" in mixed
    assert "classifier" not in mixed.split("\n\n")[1]  # a net shown rendered tables only is not named


def test_the_learned_photos_are_those_of_every_split_asked() -> None:
    pytest.importorskip("torch")
    from training import cards
    from vision.dataset import load_folder

    folder = DATASETS / cards.DATASET
    if not folder.is_dir():
        pytest.skip("the shared photo sets are not on this machine")
    fit, val = (load_folder(folder, s) for s in ("fit", "val"))
    items = cards._items(DATASETS, ("fit", "val"))
    assert [i.path for i in items] == [i.path for i in fit + val]
    assert not {i.split for i in items} - {"fit", "val"}


def test_the_index_detector_learned_from_rendered_tables_before_its_record() -> None:
    pytest.importorskip("torch")
    from training.cards import _learned_from

    assert _learned_from({})["index_detector"] == []  # settings written before session 11
    assert _learned_from({})["detector"] == ["fit"]
    assert _learned_from({"learned_from": {"index_detector": ["fit"]}})["index_detector"] == ["fit"]


def test_a_cell_of_weight_zero_teaches_the_heat_nothing() -> None:
    torch = pytest.importorskip("torch")
    from training.common import focal

    logit = torch.tensor([[[3.0, -1.0], [0.5, 2.0]]])  # the net's heat, sure of a peak everywhere but one
    heat = torch.tensor([[[0.0, 0.0], [1.0, 0.0]]])
    weight = torch.tensor([[[0.0, 1.0], [1.0, 0.0]]])  # the two sure cells not known: left out
    alone = focal(logit * torch.tensor([[[0.0, 1.0], [1.0, 0.0]]]) - 20 * (1 - weight), heat)
    assert torch.isclose(focal(logit, heat, weight), alone, atol=1e-4)
    assert focal(logit, heat, weight) < focal(logit, heat)
