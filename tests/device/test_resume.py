"""kill -9 at random moments: the appliance resumes the unfinished game exactly, and no action it had
confirmed (printed after the journal write returned) is ever lost."""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import rules
from device.journal import Journal

ROUNDS = 4
LINE_TIMEOUT = 90.0  # s: a liveness limit, not a timing: an action normally follows within a second, but a
# loaded 2-core CI machine rendering a card table for the camera has starved a niced run past 30 s


def start(tmp_path: Path, seed: int, game: str = "poker_dice") -> subprocess.Popen[str]:
    config = tmp_path / "config.toml"
    config.write_text("[display]\nfps = 120\n", encoding="utf-8")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [
        sys.executable,
        "-m",
        "device.cli",
        "--simulate",
        "--headless",
        "--config",
        str(config),
        "--state-dir",
        str(tmp_path / "state"),
        "--autoplay",
        game,
        "--seed",
        str(seed),
        "--trace",
        "--no-camera",  # the camera path has its own test; here only the journal matters
    ]
    stderr = (tmp_path / f"stderr-{seed}.txt").open("w")  # why, if it stops printing
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)


class Lines:
    """The appliance's stdout, line by line, read by a thread so that waiting can time out."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, args=(proc,), daemon=True).start()

    def _pump(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.queue.put(line)
        self.queue.put("")


def read_line(lines: Lines) -> tuple[int, str, int]:
    try:
        line = lines.queue.get(timeout=LINE_TIMEOUT)
    except queue.Empty:
        raise AssertionError(f"nothing printed for {LINE_TIMEOUT} s") from None
    assert line, "the appliance stopped printing"
    _, game, what, *_, seq = line.split()
    return int(game), what, int(seq)


def journal_state(path: Path, game_id: int) -> tuple[int, object]:
    journal = Journal.open(path)
    try:
        assert journal.set_aside is None
        stored = journal.game(game_id)
        spec = rules.get_game(stored.game)
        options = spec.options_type.from_dict(stored.options)
        actions = [rules.action_from_json(a.action) for a in journal.actions(game_id)]
        return len(actions), rules.replay(options, actions)
    finally:
        journal.close()


def test_kill_9_loses_no_confirmed_action(tmp_path: Path) -> None:
    rng = random.Random(2024)
    journal_path = tmp_path / "state" / "journal.sqlite3"
    game_id = None
    count = 0  # actions in the journal when the previous run was killed
    for round_ in range(ROUNDS):
        proc = start(tmp_path, seed=round_)
        lines = Lines(proc)
        try:
            try:
                game, what, seq = read_line(lines)
            except AssertionError as exc:
                raise AssertionError(
                    f"{exc}: {(tmp_path / f'stderr-{round_}.txt').read_text()[-3000:]}"
                ) from None
            assert what == "resumed"
            if game_id is not None:
                assert game == game_id, "the unfinished game was not resumed"
                assert seq == count, "resumed at another action than the journal's last"
            game_id = game
            confirmed = seq
            for _ in range(rng.randint(1, 12)):
                game, what, seq = read_line(lines)
                assert (game, what) == (game_id, "confirmed") and seq == confirmed + 1
                confirmed = seq
            time.sleep(rng.random() * 0.05)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        count, _ = journal_state(journal_path, game_id)
        assert count >= confirmed


def test_the_app_resumes_the_journal_state_exactly(tmp_path: Path, make_app) -> None:
    from tests.device.conftest import make_config
    from tests.device.helpers import pick_box, press, roll, start

    config = make_config(tmp_path)
    app = make_app(config=config)
    start(app, "Kości (poker dice)")
    for values in ((1, 2, 3, 4, 5), (2, 2, 2, 6, 6)):
        seat = app.session.current_seat
        roll(app, values)
        pick_box(app.session, app.session.best_choice())
        press(app, seat)
    roll(app, (6, 6, 6, 6, 1))
    roll(app, (6, 6, 6, 6, 3), held=(0, 1, 2, 3))
    before = app.session.state
    app.journal.close()
    again = make_app(config=config)
    assert again.screen.name == "dice_table"
    assert again.session.state == before
    count, replayed = journal_state(config.device.journal_path, again.session.game_id)
    assert replayed == before and count == 6
