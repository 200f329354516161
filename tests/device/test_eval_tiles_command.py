"""``referee vision eval-tiles`` end to end on a small folder of rendered tables with polygon labels."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from device.cli import main
from rules.rummikub.tiles import parse_tiles
from vision.synth import render_table
from vision.tiles import LABELS

NAMES = {"R": "red", "B": "blue", "K": "black", "O": "orange"}
# The dataset's class order (data.yaml of the shared set is alphabetical); ours differs on purpose.
CLASSES = sorted("joker" if label == "J" else f"{NAMES[label[0]]}_{label[1:]}" for label in LABELS[:-1])


def _name(tile: str) -> str:
    return "joker" if tile == "J" else f"{NAMES[tile[0]]}_{tile[1:]}"


def _tables(root: Path) -> None:
    (root / "train" / "images").mkdir(parents=True)
    (root / "train" / "labels").mkdir(parents=True)
    (root / "data.yaml").write_text(
        "names:\n" + "".join(f"- {c}\n" for c in CLASSES) + f"nc: {len(CLASSES)}\n"
    )
    rows = ["split,image,width,height,n_objects,objects"]
    layouts = [(["R3 R4 R5", "K9 B9 O9"], "J"), (["B10 B11 B12 B13"], ""), ([], "")]
    w, h = 960, 640
    for i, (melds, loose) in enumerate(layouts):
        frame, truth = render_table(
            [parse_tiles(m) for m in melds],
            parse_tiles(loose),
            seed=30 + i,
            size=(w, h),
            angle=8.0,
            tile_size=80.0,
        )
        name = f"table_{i}.jpg"
        cv2.imwrite(str(root / "train" / "images" / name), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
        lines = []
        for t in truth.tiles:
            points = " ".join(f"{x / w:.5f} {y / h:.5f}" for x, y in t.corners)
            lines.append(f"{CLASSES.index(_name(str(t.tile)))} {points}")
        (root / "train" / "labels" / f"table_{i}.txt").write_text("\n".join(lines) + "\n")
        objects = " ".join(sorted(_name(n) for n in truth.names))
        rows.append(f"train,train/images/{name},{w},{h},{len(truth.tiles)},{objects}")
    (root / "ground_truth.csv").write_text("\n".join(rows) + "\n")
    (root / "groups.csv").write_text(
        "image,background,setting\ntable_0.jpg,wood,table\ntable_1.jpg,wood,table\ntable_2.jpg,white,table\n"
    )


def test_eval_tiles_prints_json_and_writes_annotations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    _tables(data)
    shown = tmp_path / "shown"
    args = [
        "vision",
        "eval-tiles",
        str(data),
        "--json",
        "--show",
        str(shown),
        "--groups",
        str(data / "groups.csv"),
    ]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    for key in (
        "precision",
        "recall",
        "f1",
        "exact_image_rate",
        "confident_precision",
        "coverage",
        "ms_median",
    ):
        assert key in result
    assert result["images"] == 3
    assert result["true_tiles"] == 11
    # The command's plumbing, not the reader's accuracy (that is measured on photos): the figures are
    # there, consistent and plausible on clean rendered tables.
    assert 0.8 <= result["f1"] <= 1.0
    assert result["precision"] * result["read_tiles"] == pytest.approx(
        result["recall"] * result["true_tiles"], abs=0.01
    )
    assert result["colour_accuracy"] >= 0.9
    assert 0.0 <= result["coverage"] <= result["recall"]
    assert set(result["groups"]) == {"background wood", "background white", "setting table"}
    assert sorted(p.name for p in shown.iterdir()) == ["table_0.jpg", "table_1.jpg", "table_2.jpg"]
    assert main(["vision", "eval-tiles", str(data)]) == 0
    assert "joker recall" in capsys.readouterr().out


def test_eval_tiles_refuses_a_folder_without_ground_truth_or_a_bad_groups_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["vision", "eval-tiles", str(tmp_path)]) == 2
    assert "ground_truth.csv" in capsys.readouterr().err
    _tables(tmp_path / "data")
    (tmp_path / "bad.csv").write_text("image,background\nx.jpg,wood\n")
    assert main(["vision", "eval-tiles", str(tmp_path / "data"), "--groups", str(tmp_path / "bad.csv")]) == 2
    assert "needs image, background and setting" in capsys.readouterr().err


@pytest.mark.parametrize("task", ["eval-dice", "eval-tiles"])
def test_a_folder_that_does_not_exist_is_named_so(
    task: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36, item 5: not "no ground_truth.csv" for a folder that is not there."""
    assert main(["vision", task, str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'nowhere'}: no such folder" in err and "ground_truth" not in err
    (tmp_path / "file").write_text("x")
    assert main(["vision", task, str(tmp_path / "file")]) == 2
    assert "not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("task", ["eval-dice", "eval-tiles"])
@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("file,labels\na.jpg,1 2\n", "no column image, width, height, objects"),
        ("image,width,height\na.jpg,10,10\n", "no column objects"),
        ("split,image,width,height,n_objects,objects\ntrain,a.jpg,wide,10,1,3\n", ":2: width and height"),
        ("split,image,width,height,n_objects,objects\ntrain,,10,10,1,3\n", ":2: no image"),
        ("", "no column image"),
    ],
)
def test_a_table_of_other_columns_is_a_clear_error_not_a_traceback(
    task: str, table: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ground_truth.csv").write_text(table, encoding="utf-8")
    assert main(["vision", task, str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and str(tmp_path) in err, err
