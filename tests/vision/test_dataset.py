"""The dataset loader: boxes and polygons, class names from data.yaml, and no label dropped silently."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vision.dataset import (
    SCENE_SPLITS,
    LabelError,
    load_folder,
    parse_label_line,
    read_class_names,
    scene_of,
    split_of,
)

REPO = Path(__file__).resolve().parents[2]
DATASETS = Path(os.environ.get("REFEREE_DATASETS", REPO.parent / "shared" / "datasets"))


def _folder(tmp_path: Path, label: str, names: list[str] | None = None) -> Path:
    (tmp_path / "train" / "images").mkdir(parents=True)
    (tmp_path / "train" / "labels").mkdir(parents=True)
    (tmp_path / "train" / "images" / "a.jpg").write_bytes(b"")
    (tmp_path / "train" / "labels" / "a.txt").write_text(label)
    (tmp_path / "ground_truth.csv").write_text(
        "split,image,width,height,n_objects,objects\ntrain,train/images/a.jpg,200,100,1,x\n"
    )
    if names is not None:
        (tmp_path / "data.yaml").write_text("names:\n" + "".join(f"- {n}\n" for n in names) + "nc: 2\n")
    return tmp_path


def test_a_box_line() -> None:
    box = parse_label_line("3 0.5 0.5 0.1 0.2", 200, 100)
    assert (box.cls, box.cx, box.cy, box.w, box.h, box.polygon) == (3, 100, 50, 20, 20, ())


def test_a_polygon_line_keeps_its_points_and_its_bounds() -> None:
    box = parse_label_line("1 0.1 0.1 0.3 0.1 0.3 0.5 0.1 0.5", 200, 100, ("a", "b"))
    assert box.polygon == ((20, 10), (60, 10), (60, 50), (20, 50))
    assert (box.cx, box.cy, box.w, box.h, box.name) == (40, 30, 40, 40, "b")


@pytest.mark.parametrize("line", ["1 0.1 0.2", "1 0.1 0.2 0.3 0.4 0.5", "x 0.1 0.2 0.3 0.4", "1 a b c d"])
def test_a_malformed_line_is_an_error_naming_it(line: str) -> None:
    with pytest.raises(LabelError, match="here"):
        parse_label_line(line, 200, 100, where="here")


def test_a_class_outside_the_names_is_an_error() -> None:
    with pytest.raises(LabelError, match="class 5"):
        parse_label_line("5 0.5 0.5 0.1 0.1", 10, 10, ("a", "b"))


def test_load_folder_reads_polygons_with_names(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "1 0.1 0.1 0.3 0.1 0.3 0.5 0.1 0.5\n0 0.5 0.5 0.1 0.1\n", ["black_1", "joker"])
    assert read_class_names(folder) == ("black_1", "joker")
    (image,) = load_folder(folder)
    assert [b.name for b in image.boxes] == ["joker", "black_1"]
    assert len(image.boxes[0].polygon) == 4


def test_load_folder_refuses_a_bad_label_file(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "0 0.5 0.5 0.1 0.1\n0 0.5\n")
    with pytest.raises(LabelError, match=r"a\.txt:2"):
        load_folder(folder)


def test_the_shared_tile_set_loads_every_polygon() -> None:
    folder = DATASETS / "rummikub-tiles"
    if not folder.is_dir():
        pytest.skip("the shared photo set is not on this machine")
    images = load_folder(folder)
    assert sum(len(i.boxes) for i in images) == sum(len(i.objects) for i in images) > 1000
    assert all(b.polygon and b.name for i in images for b in i.boxes)


@pytest.mark.parametrize(
    ("name", "scene", "split"),
    [
        ("rummy-12_jpeg.rf.8a47.jpg", "rummikub-walnut", "fit"),
        ("rummy2-5_jpeg.rf.d2d4.jpg", "rummikub-walnut", "fit"),
        ("rummy3-21_jpeg.rf.aaaa.jpg", "rummikub-marble", "calib"),
        ("rummy4-20_jpeg.rf.bbbb.jpg", "rummikub-grey", "val"),
        ("rummy4-21_jpeg.rf.cccc.jpg", "rummikub-fabric", "fit"),
        ("rummy4-86_jpeg.rf.dddd.jpg", "rummikub-white-racks", "val"),
        ("rummyBackground-4_jpeg.rf.e6.jpg", "rummikub-backgrounds", "fit"),
        ("IMG_20191208_111228.jpg", "dice-tray-day1", "fit"),
        ("IMG_20191209_095336.jpg", "dice-tray-day2-early", "calib"),
        ("IMG_20191209_100733.jpg", "dice-tray-day2-late", "val"),
        ("dice_10.jpg", "dice-webcam-dice", "fit"),
        ("three_25.jpg", "dice-webcam-three", "calib"),
        ("five_35.jpg", "dice-webcam-five", "val"),
        ("IMG_20220316_134551_20b0af98.jpg", "cards-spades-low", "fit"),
        ("IMG_20220316_140221_0badcafe.jpg", "cards-spades-mid", "calib"),
        ("IMG_20220316_160657_0badcafe.jpg", "cards-hearts-mid", "fit"),
        ("IMG_20220316_161209_0badcafe.jpg", "cards-hearts-high", "val"),
        ("IMG_20220316_171506_0badcafe.jpg", "cards-clubs-mid", "val"),
    ],
)
def test_the_split_follows_the_scene(name: str, scene: str, split: str) -> None:
    assert scene_of(f"train/images/{name}") == scene
    assert split_of(f"/elsewhere/{name}") == split


def test_a_photo_of_no_known_scene_is_split_by_its_file_name() -> None:
    assert scene_of("img_1.jpg") is None and scene_of("rummy9-1_jpeg.rf.x.jpg") is None
    names = [f"img_{i}.jpg" for i in range(2000)]
    share = sum(split_of(n) == "val" for n in names) / len(names)
    assert 0.2 < share < 0.28
    assert split_of("train/images/img_7.jpg") == split_of("/elsewhere/img_7.jpg")


def test_every_split_is_a_set_of_whole_scenes() -> None:
    assert set(SCENE_SPLITS.values()) == {"fit", "calib", "val"}
    for prefix in ("rummikub", "dice-tray", "dice-webcam", "cards"):
        splits = {s for scene, s in SCENE_SPLITS.items() if scene.startswith(prefix)}
        assert splits == {"fit", "calib", "val"}, prefix


@pytest.mark.parametrize("name", ["rummikub-tiles", "dice-tray", "dice-webcam", "playing-cards"])
def test_no_val_photo_shares_its_scene_or_its_layout_with_a_fit_photo(name: str) -> None:
    folder = DATASETS / name
    if not folder.is_dir():
        pytest.skip("the shared photo sets are not on this machine")
    items = load_folder(folder)
    assert all(scene_of(i.path.name) is not None for i in items)
    by_split: dict[str, set[str]] = {"fit": set(), "calib": set(), "val": set()}
    layouts: dict[str, set[tuple[str, ...]]] = {"fit": set(), "calib": set(), "val": set()}
    for item in items:
        by_split[item.split].add(str(scene_of(item.path.name)))
        if len(item.objects) >= 5:  # a layout: the same five or more tiles or dice
            layouts[item.split].add(tuple(sorted(item.objects)))
    assert not by_split["val"] & by_split["fit"] and not by_split["calib"] & by_split["fit"]
    assert not by_split["val"] & by_split["calib"]
    if name in ("rummikub-tiles", "playing-cards"):  # a dice layout of five or more is a throw
        assert not layouts["val"] & (layouts["fit"] | layouts["calib"])
        assert not layouts["calib"] & layouts["fit"]
