from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from device.cli import main
from device.commands.doctor import Check, Doctor, Owner, format_report, markers_check
from drivers.pod_sim import SimulatedPod

BUTTONS = {1: 17, 2: 27}


def table_photo(ids: tuple[int, ...] = (0, 1, 2, 3)) -> np.ndarray:
    """A white mat with the printed markers in its corners."""
    mat = np.full((480, 640, 3), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    corners = [(30, 30), (30, 510), (350, 510), (350, 30)]
    for marker, (y, x) in zip(ids, corners, strict=False):
        mat[y : y + 100, x : x + 100] = cv2.aruco.generateImageMarker(dictionary, marker, 100)[..., None]
    return mat


def write_config(tmp_path: Path, photo: np.ndarray | None = None, **sections: str) -> Path:
    folder = tmp_path / "camera"
    folder.mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "table.png"), table_photo() if photo is None else photo)
    text = {
        "device": f'state_dir = "{tmp_path / "state"}"',
        "camera": f'sources = ["usb:/dev/no-such-video", "folder:{folder}"]',
        "seats": "count = 2",
        "serial": 'port = ""',
        "voice": "enabled = false",  # the voice's checks: tests/device/test_voice.py
    }
    text.update(sections)
    path = tmp_path / "config.toml"
    path.write_text("".join(f"[{name}]\n{body}\n" for name, body in text.items()))
    return path


class Script:
    """The owner at the box: answers questions and presses the buttons they are asked to press."""

    def __init__(self, factory: MockFactory, answers: bool = True, press: Callable[[int], int] = int) -> None:
        self.factory = factory
        self.answers = answers
        self.press = press  # the seat asked for -> the seat actually pressed (0: none)
        self.said: list[str] = []
        self.asked: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)
        if text.startswith("Press the button of seat"):
            seat = self.press(int(text.split()[5]))
            if seat:
                pin = self.factory.pin(BUTTONS[seat])
                pin.drive_low()
                pin.drive_high()

    def ask(self, question: str) -> bool:
        self.asked.append(question)
        return self.answers


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


def doctor(path: Path, script: Script, **kw: Any) -> list[Check]:
    owner = Owner(script.say, script.ask)
    args: dict[str, Any] = {"button_seconds": 0.3, "camera_seconds": 10.0, "pin_factory": script.factory}
    return Doctor(str(path), owner, **{**args, **kw}).run()


def by_name(checks: list[Check]) -> dict[str, Check]:
    return {c.name: c for c in checks}


def test_everything_wired_passes(tmp_path: Path, factory: MockFactory) -> None:
    with SimulatedPod(link=tmp_path / "pods") as pod:
        path = write_config(tmp_path, serial=f'port = "{pod.port}"')
        script = Script(factory)
        checks = doctor(path, script)
    report = format_report(checks)
    assert all(c.ok for c in checks), report
    names = [c.name for c in checks]
    assert names == [
        "config",
        "disk",
        "display",
        "camera",
        "markers",
        "seat 1 button",
        "seat 2 button",
        "seat 1 LED",
        "seat 2 LED",
        "buzzer",
        "pods",
        "voice",
    ]
    got = by_name(checks)
    assert got["camera"].detail.startswith(f"folder:{tmp_path / 'camera'}: 640×480")
    assert "usb:/dev/no-such-video" in got["camera"].detail
    assert got["pods"].detail.endswith("protocol 1 simpod-1.0")
    assert script.asked == [
        "Is the LED of seat 1 lit?",
        "Is the LED of seat 2 lit?",
        "Did you hear two beeps?",
    ]
    assert report.endswith("All checks passed.")


def test_wiring_faults_fail_with_reasons(tmp_path: Path, factory: MockFactory) -> None:
    with SimulatedPod(version="2") as pod:
        path = write_config(
            tmp_path, photo=table_photo((0, 2)), serial=f'port = "{pod.port}"', display="width = 4000"
        )
        script = Script(factory, answers=False, press=lambda seat: {1: 2, 2: 0}[seat])
        got = by_name(doctor(path, script))
    assert not got["seat 1 button"].ok and "seat 2's button answered" in got["seat 1 button"].detail
    assert not got["seat 2 button"].ok and "no press within 0.3 s" in got["seat 2 button"].detail
    assert not got["seat 1 LED"].ok and "not seen" in got["seat 1 LED"].detail
    assert not got["buzzer"].ok
    assert not got["markers"].ok and "found 0, 2; missing 1, 3" in got["markers"].detail
    assert not got["display"].ok and "smaller than the configured 4000×480" in got["display"].detail
    assert not got["pods"].ok and "protocol 2" in got["pods"].detail
    assert got["camera"].ok and got["config"].ok and got["disk"].ok


def test_a_stuck_button(tmp_path: Path, factory: MockFactory) -> None:
    path = write_config(tmp_path)
    script = Script(factory)

    def press_and_short_seat_2(seat: int) -> int:
        if seat == 1:
            factory.pin(27).drive_low()  # seat 2's wire shorts to ground after seat 1 is pressed
        return seat

    script.press = press_and_short_seat_2
    got = by_name(doctor(path, script))
    assert not got["seat 2 button"].ok and "stuck or miswired" in got["seat 2 button"].detail


def test_a_busy_pin_is_one_failed_seats_check(tmp_path: Path, factory: MockFactory) -> None:
    from gpiozero import LED

    path = write_config(tmp_path)
    with LED(6, pin_factory=factory):  # another program holds seat 2's LED pin
        got = by_name(doctor(path, Script(factory)))
    assert not got["seats"].ok and "seat 2 LED on BCM 6" in got["seats"].detail
    assert not [name for name in got if name.startswith("seat ")]


def test_only_the_synthetic_picture_is_a_failure(tmp_path: Path, factory: MockFactory) -> None:
    path = write_config(tmp_path, camera='sources = ["usb:/dev/no-such-video", "synthetic"]')
    got = by_name(doctor(path, Script(factory)))
    assert not got["camera"].ok and "only the synthetic picture" in got["camera"].detail
    assert not got["markers"].ok and "found none" in got["markers"].detail


def test_broken_config_stops_the_doctor(tmp_path: Path, factory: MockFactory) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[seats]\ncount = 9\n")
    checks = doctor(path, Script(factory))
    assert len(checks) == 1 and not checks[0].ok
    assert "seats.count: 9 is out of range 1–4" in checks[0].detail


def test_markers_check_on_a_grey_frame() -> None:
    assert markers_check(cv2.cvtColor(table_photo(), cv2.COLOR_BGR2GRAY)).ok


def test_cli_non_interactive_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mock_factory: MockFactory
) -> None:
    path = write_config(tmp_path)
    assert main(["doctor", "--config", str(path), "--non-interactive", "--json"]) == 0
    out = capsys.readouterr()
    report = json.loads(out.out)
    assert report["ok"] is True
    assert {c["name"]: c["ok"] for c in report["checks"]}["seat 1 LED"] is True
    assert "not confirmed: non-interactive" in out.out
    assert "Looking for a camera" in out.err


def test_cli_text_report_and_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mock_factory: MockFactory
) -> None:
    path = write_config(tmp_path, display="height = 4000")
    assert main(["doctor", "--config", str(path), "--non-interactive"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  display" in out and "PASS  camera" in out
    assert out.rstrip().endswith("1 of 12 checks failed.")
