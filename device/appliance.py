"""Starting the appliance: config, display, journal, seat buttons, camera, vision worker, then the loop.

``referee`` runs it on the Pi (kmsdrm display, GPIO seats, real camera); ``referee --simulate`` on any
computer (a window, keyboard seats, the synthetic camera fed by the simulator). Pieces that are not
installed or not connected are left out with a line in the log, never a crash: the game can always be
played by touch with the dice entered by hand.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

from device.config import CameraConfig, Config, ConfigError, config_path, load_config
from drivers.events import Post
from drivers.seat_backends import open_pods, open_seats
from drivers.seats import KeyboardSeats, Seats

if TYPE_CHECKING:
    import pygame

    from device.app import App
    from device.i18n import Translator
    from device.journal import Journal
    from device.script import ScriptPlayer
    from device.session import GameSession
    from device.simulator import Simulator
    from device.ui.canvas import Canvas
    from device.vision_worker import Vision
    from drivers.watchdog import Watchdog
    from rules import Action
    from vision.calibration import Calibration

__all__ = ["RunOptions", "run"]

log = logging.getLogger(__name__)

SIMULATOR_STATE = Path.home() / ".local" / "state" / "tabletop-referee-sim"


@dataclass(frozen=True)
class RunOptions:
    config: str | None = None
    simulate: bool = False
    size: tuple[int, int] | None = None
    headless: bool = False
    frames: int | None = None  # stop after this many frames (tests, benchmarks)
    state_dir: str | None = None
    autoplay: str | None = None  # a game name: the simulated players play it by themselves
    seed: int = 0
    trace: bool = False  # print each journaled action (the resume tests read it)
    no_camera: bool = False  # simulator: post the rolled dice as readings (no camera, no reader: fast)
    script: str | None = None  # simulator: a file of input events played in order (device.script)
    mute: bool = False  # the voice says nothing aloud (its sentences are still logged)
    voice_log: str | None = None  # a file that gets one line per sentence spoken (device.voice)
    stay: bool = False  # simulator: keep running once the script has ended (else the run ends with it)


def _available(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def prepare_config(opts: RunOptions) -> Config:
    config = load_config(opts.config)
    device = config.device
    if opts.state_dir:
        device = replace(device, state_dir=opts.state_dir, journal="")
    elif opts.simulate and device.state_dir == "/var/lib/tabletop-referee" and not device.journal:
        device = replace(device, state_dir=str(SIMULATOR_STATE))
    display = config.display
    if opts.size:
        display = replace(display, width=opts.size[0], height=opts.size[1])
    if opts.simulate or opts.headless:
        display = replace(display, fullscreen=False)
    camera = config.camera
    if opts.simulate:
        camera = replace(camera, sources=("synthetic",))
    return replace(config, device=device, display=display, camera=camera)


def run(opts: RunOptions) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = prepare_config(opts)
    except ConfigError as exc:
        print(f"referee: config error: {exc}", file=sys.stderr)
        if not opts.headless:
            show_config_error(exc, opts)
        return 2
    if opts.simulate and not opts.headless and no_display():
        print(
            "referee --simulate: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset).\n"
            "  Run it from a desktop session, or without a window: referee --simulate --headless --frames N\n"
            "  (make run ARGS='--headless --frames 300'); --script FILE plays keys and taps.",
            file=sys.stderr,
        )
        return 2
    steps = None
    if opts.script:
        from device.script import ScriptError, load_script

        try:
            steps = load_script(opts.script)
        except ScriptError as exc:
            print(f"referee: {exc}", file=sys.stderr)
            return 2
    if opts.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # A touch is handled as a touch; without this SDL also reports it as a mouse click (a double tap).
    os.environ.setdefault("SDL_TOUCH_MOUSE_EVENTS", "0")
    import pygame

    from device.app import App
    from device.events import from_pygame
    from device.seat_signals import SeatSignals

    pygame.display.init()
    pygame.font.init()
    size = (config.display.width, config.display.height)
    flags = pygame.FULLSCREEN if config.display.fullscreen else 0
    surface = pygame.display.set_mode(size, flags)
    pygame.display.set_caption("Tabletop Referee" + (" — simulator" if opts.simulate else ""))
    parts = Parts()
    watchdog = parts.watchdog()
    journal = open_journal(config, surface, opts, watchdog)
    if journal is None:
        parts.close()
        pygame.quit()
        return 3
    app = App(config, surface=surface, journal=journal)
    try:
        seats = parts.seats(config, app.post, simulate=opts.simulate)
        pods = parts.pods(config, app.post, seats)
        app.signals = SeatSignals([p for p in (seats, pods) if p is not None], config.seats.count)
        simulator = parts.simulator(app, opts, seats) if opts.simulate else None
        app.camera = None if opts.no_camera else parts.vision(config, app, simulator)
        parts.voice(config, app, opts)
        if opts.trace:
            _trace(app)
        script = None
        if steps is not None:
            from device.script import ScriptPlayer

            script = ScriptPlayer(steps, app, app.clock)
            app.game_seeds = random.Random(opts.seed)  # the same deals and shuffles at every playing
        clock = pygame.time.Clock()
        while keep_running(app, opts, script):
            if script is not None:
                try:
                    script.poll()
                except ScriptError as exc:
                    print(f"referee: {opts.script}: {exc}", file=sys.stderr)
                    return 2
            for event in pygame.event.get():
                converted = from_pygame(event, size)
                if converted is not None:
                    app.post(converted)
            if simulator is not None:
                simulator.poll()
                caption = "Tabletop Referee — simulator — " + seat_lights(app.signals.patterns)
                if caption != pygame.display.get_caption()[0]:
                    pygame.display.set_caption(caption)
            app.step()
            pygame.display.flip()
            if watchdog is not None:
                watchdog.ping()
            clock.tick(config.display.fps)
        if script is not None and app.running and not script.done:
            print(
                f"referee: {opts.script}: ran out of time: --frames {opts.frames} were over at "
                f"{script.position}, before the script's end",
                file=sys.stderr,
            )
            return 2
    finally:
        parts.close()
        journal.close()
        pygame.quit()
    return 0


def keep_running(app: App, opts: RunOptions, script: ScriptPlayer | None) -> bool:
    """Whether the loop runs another frame: the window is open, ``--frames`` has not run out, and a
    script has not ended (unless ``--stay``); the script's last event was handled the frame before."""
    if not app.running or (opts.frames is not None and app.frames >= opts.frames):
        return False
    return script is None or opts.stay or not script.done


def no_display() -> bool:
    """Whether a window cannot be shown: Linux without X or Wayland, and SDL not told otherwise."""
    if os.environ.get("SDL_VIDEODRIVER") or not sys.platform.startswith("linux"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class Fed(Protocol):
    """What waiting for the journal asks of the watchdog (``drivers.watchdog.Watchdog``): to be fed."""

    def ping(self) -> None: ...


LOCKED_RETRY_SECONDS = 5.0  # a journal in use by another program: soon free again
ERROR_RETRY_SECONDS = 30.0  # a read-only, missing or full place: the owner has to act first


def open_journal(
    config: Config,
    surface: pygame.Surface,
    opts: RunOptions,
    watchdog: Fed | None,
    *,
    clock: Callable[[], float] = time.monotonic,
    present: Callable[[], None] | None = None,
    locked_retry: float = LOCKED_RETRY_SECONDS,
    error_retry: float = ERROR_RETRY_SECONDS,
) -> Journal | None:
    """The journal, or ``None`` when the window is closed (or ``--frames`` ran out) first.

    A journal that cannot be opened (``JournalError``: read-only or uncreatable state directory, a
    directory at the journal path, a full disk; ``JournalLocked``: another program holds it) is shown
    on the screen and logged once per distinct message, and opening is tried again after a pause; the
    process stays up (the watchdog is fed), so systemd does not restart it in a loop."""
    import pygame

    from device.i18n import Translator
    from device.journal import Journal, JournalError, JournalLocked
    from device.ui.canvas import Canvas

    canvas = Canvas(surface)
    tr = Translator(config.device.language)
    logged = None
    frames = 0
    while True:
        try:
            journal = Journal.open(config.device.journal_path)
        except JournalError as exc:
            problem = exc
        else:
            if logged is not None:
                log.info("journal %s opened", config.device.journal_path)
            return journal
        if str(problem) != logged:
            logged = str(problem)
            log.error("journal error: %s", problem)
            print(f"referee: journal error: {problem}", file=sys.stderr, flush=True)
        locked = isinstance(problem, JournalLocked)
        retry_at = clock() + (locked_retry if locked else error_retry)
        while True:
            left = retry_at - clock()
            if left <= 0:
                break
            if any(e.type == pygame.QUIT for e in pygame.event.get()):
                return None
            draw_journal_problem(canvas, tr, problem, locked=locked, seconds_left=left)
            (present or pygame.display.flip)()
            if watchdog is not None:
                watchdog.ping()
            frames += 1
            if opts.frames is not None and frames >= opts.frames:
                return None
            pygame.time.wait(100 if opts.frames is not None else 250)


def draw_journal_problem(
    canvas: Canvas, tr: Translator, problem: Exception, *, locked: bool, seconds_left: float
) -> None:
    from device.ui.theme import TEXT_DIM, WARNING

    canvas.begin()
    m = canvas.px(24)
    width = canvas.width - 2 * m
    if locked:
        title = tr.format("The journal is in use by another program")
        hint = tr.format(
            "Trying again in {n} s. Stop the other program (a second referee, an export) to go on.",
            n=max(1, round(seconds_left)),
        )
    else:
        title = tr.format("The journal cannot be opened")
        hint = tr.format(
            "Nothing saved is lost. Fix the problem above; trying again in {n} s.",
            n=max(1, round(seconds_left)),
        )
    canvas.text(title, (m, m, width, canvas.px(48)), size=32, colour=WARNING, bold=True)
    canvas.paragraph(str(problem), (m, canvas.px(90), width, canvas.px(200)), size=22)
    canvas.paragraph(hint, (m, canvas.px(310), width, canvas.px(120)), size=20, colour=TEXT_DIM)


def show_config_error(error: ConfigError, opts: RunOptions) -> None:
    """A kiosk has no terminal: the broken key is shown on the screen until the owner fixes the file
    and restarts (or the window is closed). The screen uses the defaults, since the config is broken."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from device.ui.canvas import Canvas
    from device.ui.theme import TEXT_DIM, WARNING

    pygame.display.init()
    size = opts.size or (800, 480)
    surface = pygame.display.set_mode(size, 0 if opts.simulate else pygame.FULLSCREEN)
    canvas = Canvas(surface)
    frames = 0
    try:
        while opts.frames is None or frames < opts.frames:
            if any(e.type == pygame.QUIT for e in pygame.event.get()):
                break
            canvas.begin()
            m = canvas.px(24)
            canvas.text("Config error", (m, m, canvas.width - 2 * m, canvas.px(48)), size=34, colour=WARNING)
            canvas.paragraph(str(error), (m, canvas.px(90), canvas.width - 2 * m, canvas.px(200)), size=24)
            canvas.paragraph(
                f"Fix the file {config_path(opts.config)} and restart the appliance.",
                (m, canvas.px(300), canvas.width - 2 * m, canvas.px(120)),
                size=20,
                colour=TEXT_DIM,
            )
            pygame.display.flip()
            pygame.time.wait(200)
            frames += 1
    finally:
        pygame.quit()


LIGHT_SYMBOLS = {"OFF": "○", "ON": "●", "BLINK": "◎", "PULSE": "◐"}


def seat_lights(patterns: dict[int, str]) -> str:
    """The seat LEDs as text for the simulator's window title (there are no LEDs on a laptop).

    >>> seat_lights({0: "ON", 1: "OFF"})
    'F1 ● F2 ○'
    """
    return " ".join(f"F{seat + 1} {LIGHT_SYMBOLS.get(p, '?')}" for seat, p in sorted(patterns.items()))


def _trace(app: App) -> None:
    """Print every action of each game the app plays (started or resumed, from now on) once it is in
    the journal (a listener runs after the durable append)."""

    def confirmed(session: GameSession, act: Action) -> None:
        print(f"game {session.game_id} confirmed {session.seq}", flush=True)

    def attached(session: GameSession) -> None:
        print(f"game {session.game_id} resumed at {session.seq}", flush=True)
        session.listeners.append(confirmed)

    app.session_hooks.append(attached)
    if app.session is not None:
        attached(app.session)


class Parts:
    """The optional pieces (drivers, vision); each is skipped with a log line when it cannot start."""

    def __init__(self) -> None:
        self._closers: list[Callable[[], object]] = []

    def close(self) -> None:
        for close in reversed(self._closers):
            try:
                close()
            except Exception:
                log.exception("closing %s failed", close)

    def seats(self, config: Config, post: Post, *, simulate: bool) -> Seats | None:
        """The seats of ``seats.backend`` (the keyboard in the simulator, whatever the file says)."""
        backend = "keyboard" if simulate else config.seats.backend
        try:
            seats = open_seats(config.seats, config.serial, post, backend=backend)
        except Exception:
            log.exception("seat buttons (%s) unavailable; touch and keys still work", backend)
            return None
        self._closers.append(seats.close)
        return seats

    def pods(self, config: Config, post: Post, seats: Seats | None) -> Seats | None:
        """Seat pods beside other seats (LEDs and clocks shown on both); none when the pods are the seats."""
        if not config.serial.port or (seats is not None and config.seats.backend == "pods"):
            return None
        try:
            link = open_pods(config.serial, post, config.seats.count)
        except Exception:
            log.exception("seat pods on %s unavailable", config.serial.port)
            return None
        self._closers.append(link.close)
        return link

    def simulator(self, app: App, opts: RunOptions, seats: Seats | None) -> Simulator:
        from device.simulator import Simulator

        camera = False
        if opts.no_camera:
            log.info("simulator without a camera: the simulated tables post their readings")
        elif _available("vision.synth") and _available("drivers.camera"):
            camera = True
        else:
            log.warning("vision or drivers.camera missing: the simulated tables post their readings")
        keys = seats if isinstance(seats, KeyboardSeats) else None
        return Simulator(app, seed=opts.seed, seats=keys, camera=camera, autoplay=opts.autoplay)

    def vision(self, config: Config, app: App, simulator: Simulator | None) -> Vision | None:
        if not (_available("vision") and _available("drivers.camera")):
            log.warning("vision or drivers.camera missing: no camera view; dice are entered by hand")
            return None
        from device.sessions.dice import DICE_READER
        from device.vision_worker import Vision

        vision = importlib.import_module("vision")
        camera_chain = importlib.import_module("drivers.camera").CameraChain
        if not hasattr(vision, "SettleTracker"):
            log.warning("the dice reader is not installed: no camera view; dice are entered by hand")
            return None
        synthetic = simulator.camera_frame if simulator is not None else None
        cam = config.camera
        sources = app.settings.camera_sources() if simulator is None else cam.sources
        try:
            chain = camera_chain(sources, cam.width, cam.height, app.post, synthetic=synthetic)
            chain.start()
        except Exception:
            log.exception("camera unavailable")
            return None
        self._closers.append(chain.close)
        calibration = _calibration(config) if simulator is None else _synthetic_calibration(vision, cam)
        if calibration is not None:  # a card table's stock and discard pile, a learning table's rack zone
            calibration = importlib.import_module("vision.card_zones").with_card_zones(calibration)
            calibration = importlib.import_module("vision.tile_zones").with_tile_zones(calibration)
        # Before any game the camera reads dice (the appliance's first games), so the dice as they lie
        # are known at Start; each game that starts or resumes then chooses its own reader.
        session = app.session
        reader = session.reader if session is not None else DICE_READER
        camera = Vision(chain, app.post, calibration=calibration, reader=reader)
        self._closers.append(camera.stop)
        return camera

    def voice(self, config: Config, app: App, opts: RunOptions) -> None:
        """The referee's voice (``device.voice``): never a reason not to start."""
        try:
            from device.voice import attach, start_voice

            setup = start_voice(config.voice, mute=opts.mute, log_path=opts.voice_log)
        except Exception:
            log.exception("the voice cannot start; the game goes on silent")
            return
        self._closers.append(setup.voice.close)
        attach(app, setup.voice)

    def watchdog(self) -> Watchdog | None:
        if not _available("drivers.watchdog"):
            return None
        dog = importlib.import_module("drivers.watchdog").Watchdog.from_env()
        dog.ready()
        self._closers.append(dog.stopping)
        return dog


def _synthetic_calibration(vision: ModuleType, camera: CameraConfig) -> Calibration:
    """The synthetic scenes have no markers: the play area is the whole frame and the hold zone its
    bottom fifth (``vision.synth.HOLD_FRACTION``), as a calibration from printed markers would give."""
    fraction = importlib.import_module("vision.synth").HOLD_FRACTION
    zone = vision.HoldZone(0, fraction * camera.height, camera.width, camera.height)
    return vision.Calibration.identity((camera.width, camera.height), hold_zone=zone)


def _calibration(config: Config) -> Calibration | None:
    vision = importlib.import_module("vision")
    path = Path(config.camera.calibration or Path(config.device.state_dir) / "calibration.json")
    if not path.exists():
        return None
    try:
        return vision.Calibration.load(path)
    except Exception:
        log.exception("calibration %s unreadable; running without it", path)
        return None
