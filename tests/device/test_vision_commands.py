"""``referee markers``, ``referee calibrate`` and ``referee vision eval-dice`` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from device.cli import main
from vision import Calibration
from vision.synth import render_dice_scene


def test_markers_writes_a_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["markers", str(tmp_path / "sheet.png")]) == 0
    assert cv2.imread(str(tmp_path / "sheet.png")) is not None
    assert main(["markers", str(tmp_path / "sheet.txt")]) == 2
    assert ".png or .pdf" in capsys.readouterr().out


def test_calibrate_from_an_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame, _ = render_dice_scene((1, 2), seed=3, markers=True)
    cv2.imwrite(str(tmp_path / "table.png"), frame)
    out = tmp_path / "cal.json"
    assert (
        main(["calibrate", "--image", str(tmp_path / "table.png"), "--out", str(out), "--hold", "0,0.5,1,1"])
        == 0
    )
    calibration = Calibration.load(out)
    assert calibration.hold_zone is not None
    assert calibration.hold_zone.y0 == pytest.approx(calibration.play_size[1] / 2)
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), frame[200:500, 300:900])
    assert main(["calibrate", "--image", str(blank), "--out", str(out)]) == 2
    assert "not found" in capsys.readouterr().out


def _synthetic_dataset(root: Path) -> None:
    rows = ["split,image,width,height,n_objects,objects"]
    (root / "train" / "images").mkdir(parents=True)
    (root / "train" / "labels").mkdir(parents=True)
    for i, values in enumerate([(1, 2, 3), (4, 5, 6), (6, 6)]):
        frame, truth = render_dice_scene(values, seed=200 + i, size=(640, 480), die_size=60, style=0)
        name = f"scene_{i}.jpg"
        cv2.imwrite(str(root / "train" / "images" / name), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
        lines = [
            f"{d.value - 1} {d.center[0] / 640} {d.center[1] / 480} {60 / 640} {60 / 480}" for d in truth.dice
        ]
        (root / "train" / "labels" / f"scene_{i}.txt").write_text("\n".join(lines) + "\n")
        rows.append(f"train,train/images/{name},640,480,{len(values)},{' '.join(map(str, values))}")
    (root / "ground_truth.csv").write_text("\n".join(rows) + "\n")


def test_eval_dice_prints_json_and_writes_annotations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _synthetic_dataset(tmp_path / "data")
    assert (
        main(["vision", "eval-dice", str(tmp_path / "data"), "--json", "--show", str(tmp_path / "shown")])
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["images"] == 3
    assert result["f1"] == 1.0
    assert result["exact_image_rate"] == 1.0
    assert sorted(p.name for p in (tmp_path / "shown").iterdir()) == [
        "scene_0.jpg",
        "scene_1.jpg",
        "scene_2.jpg",
    ]
    assert main(["vision", "eval-dice", str(tmp_path / "data")]) == 0
    assert "confusion" in capsys.readouterr().out


def test_eval_dice_on_a_folder_without_ground_truth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["vision", "eval-dice", str(tmp_path)]) == 2
    assert "ground_truth.csv" in capsys.readouterr().err
