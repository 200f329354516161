"""Playing a script through the simulator in-process, on a fake clock, with the voice's real worker
writing its log: what ``referee --simulate --no-camera --script FILE --voice-log LOG`` does, frame by
frame, fast. The scripts' taps are written in English; in another language the button they name
shows its translation, and the tap follows it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from device.app import App
from device.events import from_pygame
from device.script import ScriptPlayer, Step, load_script
from device.sessions.rummikub_sim import RummikubTable
from device.simulator import Simulator
from device.voice import Voice, attach

DT = 0.1  # seconds of the fake clock per frame


def voiced(app: App, log: Path, *, messages: list[str] | None = None) -> Voice:
    """The app speaks through a worker that logs every sentence (nothing to hear in a test). The
    simulator without a camera answers the readings the game asks for (``app.readings_answered``)."""
    voice = Voice(None, None, log_path=log)
    attach(app, voice)
    if messages is not None:
        app.settings.set("voice", {"messages": messages})
    return voice


def translated(steps: list[Step], app: App, game: str) -> list[Step]:
    tr = app.tr
    out = []
    for step in steps:
        if step.kind == "tap":
            text = tr.pgettext(game, step.text)
            step = Step(step.kind, text, step.line, step.key, step.seconds)
        out.append(step)
    return out


class Driver:
    """One frame at a time: the script's next input, the simulated table, the app, the worker."""

    def __init__(self, app: App, sim: Simulator, clock: Any, voice: Voice) -> None:
        self.app, self.sim, self.clock, self.voice = app, sim, clock, voice
        self.size = app.canvas.surface.get_size()
        self.frames = 0

    def frame(self) -> None:
        self.sim.poll()
        self.app.step()
        assert self.voice.idle(), "the voice did not keep up"
        self.clock.advance(DT)
        self.frames += 1

    def post_pygame(self, event: pygame.event.Event) -> None:
        converted = from_pygame(event, self.size)
        assert converted is not None, event  # the script posts taps and keys
        self.app.post(converted)

    def play(self, steps: list[Step], game: str, limit: int = 100_000) -> None:
        player = ScriptPlayer(
            translated(steps, self.app, game),
            self.app,
            self.clock,
            post=self.post_pygame,
        )
        while not player.done:
            assert self.app.failure is None, self.app.failure
            player.poll()
            self.frame()
            assert self.frames < limit, "the script did not end"
        for _ in range(10):
            self.frame()

    def play_file(self, path: Path, game: str) -> None:
        self.play(load_script(path), game)


def log_kinds_and_texts(path: Path) -> list[tuple[str, str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        _, _, kind, text = line.split("\t")
        out.append((kind, text))
    return out


# --- the Rummikub script, written by playing the game once -----------------------------------------

RUMMIKUB_SEED = 11
RUMMIKUB_OPTIONS = {"players": 2, "seed": RUMMIKUB_SEED, "hands": 2}


def rummikub_script(app: App, sim: Simulator, clock: Any, voice: Voice) -> list[str]:
    """The lines of ``docs/scripts/rummikub-voice.txt``: the game played by a person at the keys, who
    lays the best move (M) and presses his seat key, or taps Draw when M lays nothing; in his second
    move the first player lays a tile loose (refused), takes it back (T) and plays on; the second
    player's first move from his second on that lays tiles runs out of time on a changed table
    (restored with R); the first player's
    third lets the time run out on an untouched table; racks are shown with V and the seat key."""
    from device.script import parse_script
    from device.sessions.rummikub import RummikubSession

    driver = Driver(app, sim, clock, voice)
    lines: list[str] = []

    def run(*new: str) -> None:
        lines.extend(new)
        driver.play(parse_script("\n".join(new)), "rummikub")

    moves = [0, 0]
    restore = True  # the second player's first move from his second on that lays tiles runs out of time
    while True:
        session = app.session
        assert isinstance(session, RummikubSession)
        if session.finished:
            break
        phase, seat = session.phase, session.current_seat
        assert len(lines) < 5000, "the game does not end"
        if phase == "start":
            run("key s", "tap Read the drawn tiles", "wait 0.5")
        elif phase == "playing" and seat is not None:
            key = f"f{seat + 1}"
            moves[seat] += 1
            lines.append(f"# {session.players[seat].name}, move {moves[seat]}")
            if seat == 0 and moves[0] == 2:
                run("key l", f"key {key}", "wait 0.5", "key t", "wait 0.5")
            if seat == 0 and moves[0] == 3:
                run("wait 61", "wait 0.5")
                continue
            table = sim.table
            taken = len(table.taken) if isinstance(table, RummikubTable) else 0
            run("key m", "wait 0.2")
            laid = isinstance(table, RummikubTable) and len(table.taken) > taken
            if seat == 1 and moves[1] >= 2 and laid and restore:
                restore = False
                run("wait 61", "key r", "wait 0.5")
            elif laid:
                run(f"key {key}", "wait 0.5")
            else:
                run("tap Draw", "wait 0.5")
        elif phase == "reveal":
            reveal = session.to_reveal()
            assert reveal is not None
            run("key v", f"key f{reveal + 1}", "wait 0.5")
        elif phase == "hand_over":
            run("tap Next hand", "wait 0.5")
        else:
            raise AssertionError(f"the script does not know the phase {phase}")
    return lines


def main() -> None:
    """Write ``docs/scripts/rummikub-voice.txt`` again (after a change to the game or its simulator)."""
    import os
    import tempfile

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from device.config import config_from_dict
    from device.journal import Journal

    pygame.display.init()
    pygame.font.init()
    with tempfile.TemporaryDirectory() as tmp:
        config = config_from_dict({"device": {"state_dir": tmp, "language": "en"}})
        journal = Journal.open(config.device.journal_path)
        clock = _Clock()
        app = App(config, surface=pygame.Surface((800, 480)), journal=journal, clock=clock)
        voice = voiced(app, Path(tmp) / "voice.log")
        sim = Simulator(app, seed=RUMMIKUB_SEED)
        app.start_game(app.settings.game_options("rummikub", **RUMMIKUB_OPTIONS), ["Ala", "Ola"])
        lines = rummikub_script(app, sim, clock, voice)
        voice.close()
        journal.close()
    head = [
        "# A whole two-hand Rummikub game with the referee's voice (docs/voice.md), written by",
        "# `python -m tests.device.voice_games` playing it once; tests/device/test_voice_games.py plays it",
        "# again in each of the four languages, once Rummikub is started for Ala and Ola",
        f"# (seed {RUMMIKUB_SEED}, two hands, 60 s moves; the simulated table answers the readings):",
        "#   referee --simulate --no-camera --seed 11 --voice-log voice.log \\",
        "#       --script docs/scripts/rummikub-voice.txt",
        "# M lays the best move, F1/F2 end the move, L lays a tile loose, T takes the move's tiles back,",
        "# R restores the table after a timeout, S lays the starting draw, V shows a rack.",
    ]
    out = Path(__file__).resolve().parents[2] / "docs" / "scripts" / "rummikub-voice.txt"
    out.write_text("\n".join([*head, *lines]) + "\n", encoding="utf-8")
    print(f"{out}: {len(lines)} lines")


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


if __name__ == "__main__":
    main()
