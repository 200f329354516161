"""Markers -> homography -> top-down play area; the hold zone; the JSON form; the printable sheet."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import Calibration, CalibrationError, HoldZone
from vision.calibration import find_markers
from vision.markers import marker_sheet, save_sheet
from vision.synth import render_dice_scene


def _tilted_view(frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
    h, w = frame.shape[:2]
    return cv2.warpPerspective(frame, homography, (w, h), borderValue=(90, 90, 90))


def test_markers_recover_a_known_homography() -> None:
    board, truth = render_dice_scene((3, 5), seed=1, markers=True)
    assert truth.play_corners is not None
    # A camera that is off to one side: a known perspective warp of the top-down board.
    known = np.array([[0.9, 0.08, 40.0], [-0.03, 0.85, 30.0], [0.00006, 0.00012, 1.0]])
    frame = _tilted_view(board, known)
    calibration = Calibration.from_markers(frame)
    width, height = calibration.play_size
    # Frame -> play area composed with board -> frame must be the board's play-area map (a scale+shift).
    board_to_play = np.array(calibration.homography) @ known
    board_to_play /= board_to_play[2, 2]
    (x0, y0), (x1, y1) = truth.play_corners[0], truth.play_corners[2]
    expected = np.array(
        [
            [width / (x1 - x0), 0, -x0 * width / (x1 - x0)],
            [0, height / (y1 - y0), -y0 * height / (y1 - y0)],
            [0, 0, 1],
        ]
    )
    corners = np.array([truth.play_corners], np.float64)
    got = cv2.perspectiveTransform(corners, board_to_play)[0]
    want = cv2.perspectiveTransform(corners, expected)[0]
    assert np.abs(got - want).max() < 2.0


def test_rectified_view_is_the_play_area() -> None:
    board, truth = render_dice_scene((6,), seed=2, markers=True)
    calibration = Calibration.from_markers(board)
    top_down = calibration.rectify(board)
    assert top_down.shape[:2] == (calibration.play_size[1], calibration.play_size[0])
    (die,) = truth.dice
    (x, y), _ = calibration.to_frame(calibration_point(calibration, die.center))
    assert abs(x - die.center[0]) < 1 and abs(y - die.center[1]) < 1


def calibration_point(calibration: Calibration, point: tuple[float, float]) -> tuple[float, float]:
    p = cv2.perspectiveTransform(np.array([[point]], np.float64), np.array(calibration.homography))[0, 0]
    return float(p[0]), float(p[1])


def test_missing_markers_are_named() -> None:
    board, _ = render_dice_scene((1,), seed=3, markers=True)
    board[: board.shape[0] // 2, board.shape[1] // 2 :] = 100  # hide marker 1 (top-right)
    with pytest.raises(CalibrationError, match=r"\[1\]"):
        Calibration.from_markers(board)


def test_hold_zone_is_the_bottom_fifth_by_default() -> None:
    board, _ = render_dice_scene((1,), seed=4, markers=True)
    calibration = Calibration.from_markers(board)
    width, height = calibration.play_size
    assert calibration.hold_zone == HoldZone(0, 0.8 * height, width, height)
    assert calibration.in_hold_zone((width / 2, 0.9 * height))
    assert not calibration.in_hold_zone((width / 2, 0.5 * height))
    assert Calibration.from_markers(board, hold_fraction=None).hold_zone is None


def test_json_round_trip(tmp_path: Path) -> None:
    board, _ = render_dice_scene((1,), seed=5, markers=True)
    calibration = Calibration.from_markers(board)
    calibration.save(tmp_path / "cal.json")
    assert Calibration.load(tmp_path / "cal.json") == calibration


@pytest.mark.parametrize("text", ["{}", "[1, 2]", '{"homography": [[1]], "play_size": [1, 2]}', "not json"])
def test_bad_json_is_a_calibration_error(text: str) -> None:
    with pytest.raises(CalibrationError):
        Calibration.from_json(text)


@pytest.mark.parametrize("text", ["1,2,3", "a,b,c,d", "5,0,1,10"])
def test_bad_hold_zone_text(text: str) -> None:
    with pytest.raises(ValueError, match="hold zone"):
        HoldZone.parse(text)


def test_marker_sheet_shows_the_four_markers(tmp_path: Path) -> None:
    sheet = marker_sheet()
    small = cv2.cvtColor(
        cv2.resize(sheet, None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA), cv2.COLOR_GRAY2BGR
    )
    centres = find_markers(small)
    assert sorted(centres) == [0, 1, 2, 3]
    assert centres[0][0] < centres[1][0] and centres[0][1] < centres[3][1]
    assert centres[2][0] > centres[3][0] and centres[2][1] > centres[1][1]
    assert save_sheet(tmp_path / "m.pdf").read_bytes().startswith(b"%PDF-1.4")
    saved = cv2.imread(str(save_sheet(tmp_path / "m.png")))
    assert saved is not None and saved.shape[:2] == sheet.shape
    with pytest.raises(ValueError, match=r"png or \.pdf"):
        save_sheet(tmp_path / "m.gif")
