"""``training.dice --learn``: the splits the dice nets learn from (``training.learn_splits``, torch-free)."""

from __future__ import annotations

import argparse

import pytest

from training.learn_splits import learned_phrase, learned_splits


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
