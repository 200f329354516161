"""The Zatre board reader on synthetic boards: the grid from the cards, values, cards, unsure halves
(hands, a nudged card) never guessed; the half reader on its own; ``referee vision eval-zatre``."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.cli import main
from rules.zatre import Placement, ZatreOptions, auto_play
from vision.synth import PIPS
from vision.zatre import read_half, read_zatre
from vision.zatre_eval import ZatreEvaluation, synthetic_boards
from vision.zatre_synth import render_zatre_board

SMALL = [Placement.parse(p) for p in ("5|6@0,0H", "0|4@0,1H", "3|3@2,0V", "1|2@-1,1V")]


def shifted(placements: list[Placement]) -> set[str]:
    cells = [c for p in placements for c, _ in p.cells]
    x0, y0 = min(c[0] for c in cells), min(c[1] for c in cells)
    return {str(Placement(p.card, p.x - x0, p.y - y0, p.orientation)) for p in placements}


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_whole_round_is_read_exactly(seed: int) -> None:
    board = auto_play(ZatreOptions(players=2, seed=seed)).rounds_played[0].board
    frame, _ = render_zatre_board(board.placements, np.random.default_rng(seed), hands=0)
    observation = read_zatre(frame)
    assert observation.certain, [observation.halves[i].reason for i in observation.uncertain]
    read = {str(p) for p in observation.placements()}
    assert read == shifted(list(board.placements))
    assert len(observation.halves) == 50 and observation.pitch > 20


def test_a_small_board_under_a_turned_tilted_camera() -> None:
    frame, _ = render_zatre_board(SMALL, seed=5, angle=25.0, tilt=10.0, blur=1.0, hands=0, photo=False)
    assert {str(p) for p in read_zatre(frame).placements()} == shifted(SMALL)


def test_halves_under_a_hand_are_never_guessed() -> None:
    boards = synthetic_boards(12, 77)
    rng = np.random.default_rng(77)
    evaluation = ZatreEvaluation()
    covered = 0
    for board in boards:
        try:
            frame, truth = render_zatre_board(board, rng, hands=2)
        except ValueError:
            continue
        covered += sum(h.covered for h in truth.halves)
        evaluation.add_board(truth, read_zatre(frame))
    assert covered > 10
    assert evaluation.wrong_halves == 0 and evaluation.wrong_pairs == 0
    assert evaluation.summary()["half_accuracy"] > 0.9


def test_a_card_nudged_off_its_cell_is_unsure() -> None:
    frame, _ = render_zatre_board(SMALL, seed=6, hands=0, angle=0.0, tilt=0.0, nudges={2: (0.45, 0.0)})
    observation = read_zatre(frame)
    off = [h for h in observation.halves if not h.placed]
    assert len(off) == 2 and all("off its cell" in h.reason for h in off)
    assert {str(p) for p in observation.placements()} == shifted([SMALL[i] for i in (0, 1, 3)]) - set()


def test_an_empty_table_reads_nothing() -> None:
    frame, _ = render_zatre_board([], seed=3, hands=0)
    observation = read_zatre(frame)
    assert observation.placements() == [] and observation.empty


def face(value: int, side: int = 64) -> np.ndarray:
    crop = np.full((side, side, 3), 230, np.uint8)
    c = (side - 1) / 2
    for px, py in PIPS.get(value, ()):
        cv2.circle(
            crop,
            (round(c + px * 0.22 * side / 1.35), round(c + py * 0.22 * side / 1.35)),
            3,
            (30, 30, 30),
            -1,
        )
    return crop


@pytest.mark.parametrize("value", range(7))
def test_the_half_reader_counts_pips(value: int) -> None:
    assert read_half(face(value)).value == value


def test_a_smudged_half_is_unsure_or_read_by_the_classifier() -> None:
    crop = face(4)
    cv2.line(crop, (20, 32), (44, 32), (30, 30, 30), 7)  # a long dark stroke: not a pip
    reading = read_half(crop)
    assert (reading.unclear and reading.value != 4) or reading.value is None or reading.probability >= 0.9


def test_a_frame_that_is_not_an_image_is_refused() -> None:
    with pytest.raises(ValueError):
        read_zatre(np.zeros((10, 10), np.float64))


def test_eval_zatre_synthetic_prints_the_usual_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "eval-zatre", "--synthetic", "3", "--seed", "11", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in (
        "precision",
        "recall",
        "f1",
        "exact_image_rate",
        "confident_precision",
        "coverage",
        "ms_median",
    ):
        assert key in figures
    assert figures["images"] == 3 and figures["half_accuracy"] > 0.9 and "board_exact_rate" in figures


def test_eval_zatre_reads_a_labelled_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "train" / "images").mkdir(parents=True)
    rows = ["split,image,width,height,n_objects,objects"]
    for i, board in enumerate(synthetic_boards(2, 5)):
        frame, _ = render_zatre_board(board, seed=i, hands=0, photo=False, size=(1280, 720))
        name = f"board_{i}.png"
        cv2.imwrite(str(tmp_path / "train" / "images" / name), frame)
        rows.append(f"train,train/images/{name},1280,720,{len(board)},{' '.join(str(p.card) for p in board)}")
    (tmp_path / "ground_truth.csv").write_text("\n".join(rows) + "\n")
    assert main(["vision", "eval-zatre", str(tmp_path), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["images"] == 2 and figures["board_exact_rate"] == 1.0 and figures["half_accuracy"] == 1.0


def test_eval_zatre_pips_reads_die_faces(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.synth import render_dice_scene

    (tmp_path / "train" / "images").mkdir(parents=True)
    (tmp_path / "train" / "labels").mkdir(parents=True)
    rows = ["split,image,width,height,n_objects,objects"]
    w, h = 1280, 720
    for i, values in enumerate(((1, 2, 3, 4, 5), (6, 6, 2))):
        frame, truth = render_dice_scene(values, seed=40 + i, style=0)
        name = f"dice_{i}.png"
        cv2.imwrite(str(tmp_path / "train" / "images" / name), frame)
        lines = [
            f"{d.value - 1} {d.center[0] / w:.5f} {d.center[1] / h:.5f} {d.size / w:.5f} {d.size / h:.5f}"
            for d in truth.dice
        ]
        (tmp_path / "train" / "labels" / f"dice_{i}.txt").write_text("\n".join(lines) + "\n")
        rows.append(f"train,train/images/{name},{w},{h},{len(values)},{' '.join(map(str, values))}")
    (tmp_path / "ground_truth.csv").write_text("\n".join(rows) + "\n")
    assert main(["vision", "eval-zatre", "--pips", str(tmp_path), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["faces"] == 8 and figures["wrong"] == 0 and figures["half_accuracy"] >= 0.75


def test_eval_zatre_refuses_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "eval-zatre"]) == 2
    assert "--synthetic" in capsys.readouterr().out
    assert main(["vision", "eval-zatre", str(tmp_path)]) == 2
    assert "ground_truth.csv" in capsys.readouterr().out
    assert main(["vision", "eval-zatre", str(tmp_path), "--synthetic", "2"]) == 2
    assert main(["vision", "eval-zatre", "--synthetic", "0"]) == 2
