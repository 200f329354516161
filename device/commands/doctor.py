"""``referee doctor``: what a table owner runs after wiring the box; a pass/fail line per part.

Checks, in order: the config file, free disk for the state directory, the display, the camera (a
frame and its size) and the four ArUco markers of the play area, each seat button (press it), each seat
LED and the buzzer (the owner says whether they saw and heard them), the serial seat pods (the
handshake), and the voice: the synthesiser (a test sentence in the config's language) and the sound
device it is played on (the owner says whether they heard it). Exit status 0 only when every check passes::

    referee doctor                       # asks the owner to press buttons and confirm LEDs and beeps
    referee doctor --non-interactive     # no questions: buttons must not read as stuck, outputs are driven
    referee doctor --json                # the report as JSON on stdout (prompts go to stderr)

Stop the appliance first (``sudo systemctl stop tabletop-referee``): it holds the GPIO pins, the camera
and the display.
"""

from __future__ import annotations

import argparse
import json
import queue
import shutil
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from device.config import Config, ConfigError, config_path, load_config
from drivers.camera import CameraChain
from drivers.errors import DriverError
from drivers.events import ButtonEvent, PodConnected, PodLost
from drivers.pods import PodLink
from drivers.seats import LedPattern, PinFactory, SeatPanel

if TYPE_CHECKING:
    from device.commands import Subcommands
    from device.voice.output import Output

MIN_FREE_BYTES = 200 * 1024 * 1024  # room for years of journal plus saved frames
MARKER_IDS = (0, 1, 2, 3)  # the four corners of the play area, DICT_4X4_50


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class Owner:
    """How the doctor talks to the person at the box: ``say`` a line, ``ask`` a yes/no question
    (``None``: no questions, non-interactive)."""

    say: Callable[[str], None]
    ask: Callable[[str], bool] | None


def source_failure(source: str, reason: str) -> str:
    """A camera source's failure named once: the drivers' messages often start with the source already.

    >>> source_failure("usb:0", "usb:0: cannot open the webcam"), source_failure("picamera2", "busy")
    ('usb:0: cannot open the webcam', 'picamera2: busy')
    """
    return reason if reason.startswith(f"{source}:") else f"{source}: {reason}"


def register(sub: Subcommands) -> None:
    p = sub.add_parser("doctor", help="check the wiring: camera, buttons, LEDs, buzzer, display, pods, voice")
    p.add_argument(
        "--config", default=argparse.SUPPRESS, help="config file (default: /etc/tabletop-referee/config.toml)"
    )
    p.add_argument("--non-interactive", action="store_true", help="ask nothing; do not wait for presses")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--button-seconds", type=float, default=15.0, help="time to press each seat button")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = sys.stderr if args.json else sys.stdout

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    def ask(question: str) -> bool:
        while True:
            print(f"{question} [y/n] ", end="", file=out, flush=True)
            answer = sys.stdin.readline().strip().lower()
            if answer in ("y", "yes", "n", "no") or not answer:
                return answer in ("y", "yes")

    owner = Owner(say, None if args.non_interactive else ask)
    checks = Doctor(args.config, owner, button_seconds=args.button_seconds).run()
    if args.json:
        print(json.dumps({"ok": all(c.ok for c in checks), "checks": [asdict(c) for c in checks]}, indent=2))
    else:
        print(format_report(checks))
    return 0 if all(c.ok for c in checks) else 1


def format_report(checks: list[Check]) -> str:
    """
    >>> print(format_report([Check("config", True, "defaults"), Check("camera", False, "no frame")]))
    PASS  config  defaults
    FAIL  camera  no frame
    1 of 2 checks failed.
    """
    width = max(len(c.name) for c in checks)
    lines = [f"{'PASS' if c.ok else 'FAIL'}  {c.name:<{width}}  {c.detail}" for c in checks]
    failed = sum(not c.ok for c in checks)
    lines.append(f"{failed} of {len(checks)} checks failed." if failed else "All checks passed.")
    return "\n".join(lines)


class Doctor:
    """Runs the checks against the config at ``path``; ``pin_factory`` is gpiozero's (tests: mock pins)."""

    def __init__(
        self,
        path: str | None,
        owner: Owner,
        button_seconds: float = 15.0,
        camera_seconds: float = 10.0,
        pod_seconds: float = 8.0,
        pin_factory: PinFactory = None,
        synthesiser: str | None = None,
        output: tuple[Output | None, str] | None = None,
    ) -> None:
        self.path = config_path(path)
        self.owner = owner
        self.button_seconds = button_seconds
        self.camera_seconds = camera_seconds
        self.pod_seconds = pod_seconds
        self.pin_factory = pin_factory
        self.synthesiser = synthesiser  # the espeak-ng program (None: found on the PATH)
        self.output = output  # the player and its line (None: this machine's, device.voice.output)

    def run(self) -> list[Check]:
        try:
            config = load_config(self.path)
        except ConfigError as exc:
            return [Check("config", False, f"{self.path}: {exc} — fix it and run the doctor again")]
        where = str(self.path) if self.path.exists() else f"{self.path} is absent: using the defaults"
        checks = [Check("config", True, where), self.disk(config), self.display(config)]
        checks += self.camera(config)
        checks += self.seats(config)
        checks.append(self.pods(config))
        checks += self.voice(config)
        return checks

    def voice(self, config: Config) -> list[Check]:
        """espeak-ng synthesises the test sentence in the chosen language; a sound device plays it."""
        from device.i18n import Translator
        from device.voice.kinds import sentence
        from device.voice.output import PlaybackError, open_output
        from device.voice.synth import Synthesiser, SynthesisError, wav_seconds

        v = config.voice
        if not v.enabled:
            return [Check("voice", True, "off in the config ([voice] enabled = false)")]
        language = config.device.language
        text = sentence(Translator(language), "test")
        synth = Synthesiser(self.synthesiser)
        wav = None
        try:
            wav = synth.wav(text, language, speed=v.speed, volume=v.volume)
        except SynthesisError as exc:
            checks = [Check("synthesiser", False, f"{exc}: the referee stays silent")]
        else:
            detail = f"{synth.program}: {text!r} ({language}), {wav_seconds(wav):.1f} s of sound"
            checks = [Check("synthesiser", True, detail)]
        output, line = self.output if self.output is not None else open_output(v.device)
        if output is None:
            checks.append(Check("sound", False, f"{line}: the referee stays silent"))
            return checks
        if wav is None:
            checks.append(Check("sound", False, f"{line}, but no sentence to play (no synthesiser)"))
            return checks
        self.owner.say(f"Playing the test sentence ({language}): {text}")
        try:
            output.play(wav, threading.Event())
        except PlaybackError as exc:
            checks.append(Check("sound", False, f"{exc}: the referee stays silent"))
            return checks
        if self.owner.ask is None:
            checks.append(Check("sound", True, f"{line}: played (not confirmed: non-interactive)"))
            return checks
        heard = self.owner.ask("Did you hear the referee say the test sentence?")
        checks.append(Check("sound", heard, f"{line}: " + ("heard" if heard else "not heard by the owner")))
        return checks

    def disk(self, config: Config) -> Check:
        state = Path(config.device.state_dir)
        existing = next(p for p in (state, *state.parents) if p.exists())
        free = shutil.disk_usage(existing).free
        detail = f"{free / 1024**3:.1f} GiB free for {state}"
        if free < MIN_FREE_BYTES:
            return Check("disk", False, f"{detail}; needs at least {MIN_FREE_BYTES // 1024**2} MiB")
        return Check("disk", True, detail)

    def display(self, config: Config) -> Check:
        import pygame

        want = (config.display.width, config.display.height)
        try:
            pygame.display.init()
            sizes = pygame.display.get_desktop_sizes()
        except pygame.error as exc:
            return Check("display", False, f"cannot open the display: {exc} (is the appliance running?)")
        finally:
            pygame.display.quit()
        if not sizes:
            return Check("display", False, "no display found")
        w, h = sizes[0]
        if w < want[0] or h < want[1]:
            return Check("display", False, f"{w}×{h} is smaller than the configured {want[0]}×{want[1]}")
        return Check("display", True, f"{w}×{h} (configured {want[0]}×{want[1]})")

    def camera(self, config: Config) -> list[Check]:
        cam = config.camera
        self.owner.say("Looking for a camera…")
        chain = CameraChain(cam.sources, cam.width, cam.height)
        chain.start()
        try:
            deadline = time.monotonic() + self.camera_seconds
            while chain.latest() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            got, source = chain.latest(), chain.active_source
        finally:
            chain.close()
        failed = "; ".join(source_failure(s, r) for s, r in chain.failures.items())
        if got is None:
            no_frame = Check("camera", False, f"no frame within {self.camera_seconds:g} s ({failed})")
            return [no_frame, Check("markers", False, "no frame to look at")]
        frame = got[0]
        detail = f"{source}: {frame.shape[1]}×{frame.shape[0]}"
        if source == "synthetic" and cam.sources[0] != "synthetic":
            camera = Check("camera", False, f"only the synthetic picture; no camera opened ({failed})")
        else:
            camera = Check("camera", True, detail + (f" (not opened: {failed})" if failed else ""))
        return [camera, markers_check(frame)]

    def seats(self, config: Config) -> list[Check]:
        s = config.seats
        events: queue.Queue[object] = queue.Queue()
        try:
            panel = SeatPanel(
                s.buttons[: s.count],
                s.leds[: s.count],
                s.buzzer,
                post=events.put,
                bounce_seconds=s.bounce_seconds,
                hold_seconds=s.hold_seconds,
                pin_factory=self.pin_factory,
            )
        except DriverError as exc:
            return [
                Check("seats", False, f"{exc} (is the user in the gpio group? is the appliance running?)")
            ]
        with panel:
            checks = [self.button(panel, events, seat, s.buttons[seat]) for seat in range(s.count)]
            checks += [self.led(panel, seat, s.leds[seat]) for seat in range(s.count)]
            checks.append(self.buzzer(panel, s.buzzer))
        return checks

    def button(self, panel: SeatPanel, events: queue.Queue[object], seat: int, pin: int) -> Check:
        name = f"seat {seat + 1} button"
        if panel.is_pressed(seat):
            return Check(name, False, f"BCM {pin} reads pressed while nobody presses it: stuck or miswired")
        if self.owner.ask is None:
            return Check(name, True, f"BCM {pin} reads released (not pressed: non-interactive)")
        _drain(events)
        self.owner.say(f"Press the button of seat {seat + 1} (within {self.button_seconds:g} s).")
        deadline = time.monotonic() + self.button_seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = events.get(timeout=left)
            except queue.Empty:
                break
            if isinstance(event, ButtonEvent) and event.kind == "press":
                if event.seat == seat:
                    return Check(name, True, f"BCM {pin}: pressed")
                return Check(name, False, f"seat {event.seat + 1}'s button answered: buttons swapped?")
        return Check(name, False, f"BCM {pin}: no press within {self.button_seconds:g} s")

    def led(self, panel: SeatPanel, seat: int, pin: int) -> Check:
        name = f"seat {seat + 1} LED"
        panel.set_led(seat, LedPattern.ON)
        try:
            if self.owner.ask is None:
                return Check(name, True, f"BCM {pin} driven (not confirmed: non-interactive)")
            seen = self.owner.ask(f"Is the LED of seat {seat + 1} lit?")
        finally:
            panel.set_led(seat, LedPattern.OFF)
        return Check(name, seen, f"BCM {pin}: " + ("seen" if seen else "not seen by the owner"))

    def buzzer(self, panel: SeatPanel, pin: int | None) -> Check:
        if pin is None:
            return Check("buzzer", True, "none configured")
        panel.beep(count=2, on_time=0.15, off_time=0.15)
        if self.owner.ask is None:
            return Check("buzzer", True, f"BCM {pin} driven (not confirmed: non-interactive)")
        heard = self.owner.ask("Did you hear two beeps?")
        return Check("buzzer", heard, f"BCM {pin}: " + ("heard" if heard else "not heard by the owner"))

    def pods(self, config: Config) -> Check:
        url = config.serial.port
        if not url:
            return Check("pods", True, "none configured")
        events: queue.Queue[object] = queue.Queue()
        with PodLink(url, post=events.put, baudrate=config.serial.baudrate) as link:
            link.start()
            try:
                event = events.get(timeout=self.pod_seconds)
            except queue.Empty:
                return Check("pods", False, f"{url}: no answer within {self.pod_seconds:g} s")
        if isinstance(event, PodConnected):
            return Check("pods", True, f"{url}: protocol {event.version}")
        reason = event.reason if isinstance(event, PodLost) else repr(event)
        return Check("pods", False, f"{url}: {reason}")


def markers_check(frame: np.ndarray) -> Check:
    """Whether the four play-area markers (ArUco DICT_4X4_50, ids 0–3) are in view."""
    import cv2

    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
    )
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    _, ids, _ = detector.detectMarkers(grey)
    found = sorted({int(i) for i in ids.flatten()} & set(MARKER_IDS)) if ids is not None else []
    missing = [i for i in MARKER_IDS if i not in found]
    if missing:
        shown = ", ".join(map(str, found)) or "none"
        absent = ", ".join(map(str, missing))
        return Check("markers", False, f"found {shown}; missing {absent}: all four must be in view")
    return Check("markers", True, "found 0, 1, 2, 3")


def _drain(events: queue.Queue[object]) -> None:
    while True:
        try:
            events.get_nowait()
        except queue.Empty:
            return
