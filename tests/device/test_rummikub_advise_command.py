"""``referee coach advise rummikub``: the best move for a rack at a table, as text and as JSON."""

from __future__ import annotations

import json

import pytest

from device.cli import main
from rules.rummikub import Meld, best_move, check_turn, parse_tiles
from rules.rummikub.advice import parse_table


def advise(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["coach", "advise", "rummikub", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_gives_the_tiles_and_the_table_after(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = advise(capsys, "--table", "R1 R2 R3|K7 B7 O7", "--rack", "R4 R5 J", "--opened", "--json")
    assert code == 0
    found = json.loads(out)
    assert found["tiles_laid"] == 3 and found["ms"] >= 0
    after = [Meld(tuple(parse_tiles(m))) for m in found["table"]]
    before = parse_table("R1 R2 R3|K7 B7 O7")
    assert sorted(map(str, check_turn(before, after))) == ["J", "R4", "R5"]
    move = best_move(before, parse_tiles("R4 R5 J"))
    assert move is not None and [str(m) for m in move.table] == [" ".join(m) for m in found["table"]]


def test_text_names_the_move_and_the_changed_melds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = advise(capsys, "--table", "R1 R2 R3|K7 B7 O7", "--rack", "R4 R5 B1", "--opened")
    assert code == 0
    assert "best move: lays 2 tiles: R4 R5" in out
    assert "takes apart 1 meld: R1 R2 R3" in out
    assert "  K7 B7 O7\n" in out and "  R1 R2 R3 R4 R5   (new)" in out


def test_before_the_opening_it_says_whether_the_rack_can_open(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = advise(capsys, "--table", "R1 R2 R3", "--rack", "R4 R5 B1 K1 O1")
    assert code == 0 and "cannot open: the best the rack holds is worth 3 (30 needed)" in out
    assert "no tile can be laid: draw" in out
    code, out, _ = advise(capsys, "--table", "R1 R2 R3", "--rack", "R4 R5 B10 K10 O10", "--json")
    found = json.loads(out)
    assert found["can_open"] is True and found["opening_value"] == 30 and found["tiles_laid"] == 3
    assert found["table"] == [["R1", "R2", "R3"], ["B10", "K10", "O10"]]
    # With --opened the same rack extends the run too.
    code, out, _ = advise(capsys, "--table", "R1 R2 R3", "--rack", "R4 R5 B10 K10 O10", "--opened", "--json")
    assert json.loads(out)["tiles_laid"] == 5


def test_an_empty_table_and_a_rack_with_no_meld(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = advise(capsys, "--rack", "R1 B5 K9", "--opened", "--json")
    assert code == 0 and json.loads(out)["tiles_laid"] == 0 and json.loads(out)["table"] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--table", "R1 R2|K7 B7 O7", "--rack", "R4"], "R1 R2 is not a meld: fewer than 3 tiles"),
        (["--table", "R1 R2 R3||K7 B7 O7", "--rack", "R4"], "meld 2 of the table is empty"),
        (["--rack", "R4 X9"], "not a Rummikub tile: 'X9'"),
        (["--table", "R1 R2 R3", "--rack", "R1 R1"], "R1: more copies on the table and the rack"),
        (["--table", "R1 R2 R3"], "needs --rack"),
        (["--rack", " "], "--rack holds no tile"),
    ],
)
def test_bad_input_is_named(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = advise(capsys, *args)
    assert code == 2 and out == "" and message in err


def test_the_dice_games_still_need_their_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach", "advise", "kosci", "--state-dir", "/nonexistent"]) == 2
    assert "needs --dice and --rolls-left" in capsys.readouterr().err
