"""``training.dice --learn``: the splits the dice nets learn from (``training.learn_splits``), and
``--second-opinion`` (``training.second_opinions``); torch-free."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from training.learn_splits import learned_phrase, learned_splits
from training.second_opinions import second_opinions


@pytest.mark.parametrize(
    ("text", "splits"),
    [("fit", ("fit",)), ("fit,val", ("fit", "val")), ("val, fit", ("fit", "val")), ("fit,fit", ("fit",))],
)
def test_the_splits_learned_from(text: str, splits: tuple[str, ...]) -> None:
    assert learned_splits(text) == splits


@pytest.mark.parametrize("text", ["calib", "fit,calib", "fit,val,calib"])
def test_calib_is_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="calib is never learned from"):
        learned_splits(text)


@pytest.mark.parametrize(
    ("text", "says"), [("fit,test", "no split test"), ("val", "fit is always"), ("", "fit")]
)
def test_other_bad_values_are_named(text: str, says: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=says):
        learned_splits(text)


def test_an_argument_parser_reports_the_refusal(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="training.dice")
    parser.add_argument("--learn", type=learned_splits, default=("fit",))
    assert parser.parse_args([]).learn == ("fit",)
    assert parser.parse_args(["--learn", "fit,val"]).learn == ("fit", "val")
    with pytest.raises(SystemExit):
        parser.parse_args(["--learn", "fit,calib"])
    assert "argument --learn: calib is never learned from" in capsys.readouterr().err


def test_the_notice_names_the_splits() -> None:
    assert learned_phrase(("fit", "val")) == 'the "fit" and "val" splits'
    assert learned_phrase(("fit",)) == 'the "fit" split'


def test_a_second_opinion_is_copied_with_its_own_settings(tmp_path: Path) -> None:
    """``training.dice --second-opinion DIR``: DIR's classifier copied beside the nets under a name of
    its own, with the temperature and the splits its run wrote; a net older than ``learned_from`` is
    said to have learned what the caller says."""
    out, taught, older = tmp_path / "out", tmp_path / "taught", tmp_path / "older"
    for folder, settings in (
        (
            taught,
            {
                "classifier": "dice_classifier.onnx",
                "temperature": 0.79,
                "learned_from": {"classifier": "fit"},
            },
        ),
        (older, {"classifier": "dice_classifier.onnx", "temperature": 1.5}),
    ):
        folder.mkdir()
        (folder / "dice_reader.json").write_text(json.dumps(settings))
        (folder / "dice_classifier.onnx").write_bytes(folder.name.encode())
    out.mkdir()
    opinions = second_opinions([taught, older], out, "the split by file name")
    assert opinions == [
        {"classifier": "dice_classifier_2.onnx", "temperature": 0.79, "learned_from": "fit"},
        {
            "classifier": "dice_classifier_3.onnx",
            "temperature": 1.5,
            "learned_from": "the split by file name",
        },
    ]
    assert (out / "dice_classifier_2.onnx").read_bytes() == b"taught"
    assert (out / "dice_classifier_3.onnx").read_bytes() == b"older"


def test_a_folder_without_settings_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"dice_reader\.json: no dice reader settings"):
        second_opinions([tmp_path], tmp_path, "")
