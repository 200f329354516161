"""``referee --simulate --script FILE``: scripted keys and taps through pygame's queue; the issue's example
journals exactly two rolls, the second with two held dice."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from device.events import from_pygame
from device.journal import Journal
from device.script import WAIT_LIMIT, ScriptError, ScriptPlayer, parse_script

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "scripts" / "two-rolls.txt"


def test_lines_parse_with_comments_and_key_names() -> None:
    steps = parse_script("# a comment\n\ntap Generał (classic)\nkey f1\nkey return # enter\nwait 0.5\n")
    assert [(s.kind, s.text) for s in steps] == [
        ("tap", "Generał (classic)"),
        ("key", "f1"),
        ("key", "return"),
        ("wait", "0.5"),
    ]
    assert steps[1].key == pygame.K_F1 and steps[2].key == pygame.K_RETURN and steps[3].seconds == 0.5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("jump 3", "line 1: 'jump' is not an event"),
        ("wait\n", "line 1: wait needs an argument"),
        ("tap Start\nkey nosuchkey", "line 2: 'nosuchkey' is not a pygame key name"),
        ("wait soon", "line 1: wait needs seconds, got 'soon'"),
        ("wait -1", "wait needs seconds >= 0"),
        ("shot home.txt", "line 1: shot needs a .png"),
        ("shot", "line 1: shot needs an argument"),
    ],
)
def test_a_bad_line_is_named(text: str, message: str) -> None:
    with pytest.raises(ScriptError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_script(text)


def test_keys_and_taps_go_through_the_event_queue(make_app, clock) -> None:
    app = make_app()
    app.step()
    posted: list[pygame.event.Event] = []
    player = ScriptPlayer(parse_script("tap Generał (classic)\nwait 2\nkey r"), app, clock, posted.append)
    player.poll()
    (tap,) = posted
    app.post(from_pygame(tap, (800, 480)))
    app.step()
    assert app.screen.name == "players"
    player.poll()
    clock.advance(1.9)
    player.poll()
    assert len(posted) == 1  # still waiting
    clock.advance(0.2)
    player.poll()
    player.poll()
    player.poll()
    assert [e.type for e in posted[1:]] == [pygame.KEYDOWN, pygame.KEYUP] and posted[1].key == pygame.K_r
    assert player.done


class SlowCamera:
    """A camera whose reader settles on a frame only when told: a slow machine's, under test control."""

    def __init__(self) -> None:
        self.seq = 10  # the newest frame
        self.settled_seq = 0  # the newest frame read to a settled scene

    def newest_seq(self) -> int:
        return self.seq

    def settled_since(self, seq: int) -> bool:
        return self.settled_seq > seq


def test_a_wait_waits_for_the_camera_to_read_the_table_as_it_lies(make_app, clock) -> None:
    app = make_app()
    app.step()
    app.camera = camera = SlowCamera()
    posted: list[pygame.event.Event] = []
    player = ScriptPlayer(parse_script("wait 2\nkey r"), app, clock, posted.append)
    player.poll()
    camera.settled_seq = 10  # settled, but on a frame from before the wait's seconds were over
    clock.advance(2.5)
    player.poll()  # the seconds are over: frame 10 is the newest
    camera.seq, camera.settled_seq = 14, 10
    for _ in range(3):
        clock.advance(5)  # however long the reader takes, within the limit
        player.poll()
    assert posted == [] and player.position == "line 1 (wait 2)"
    camera.settled_seq = 12  # a frame taken after the seconds, read to a still scene
    player.poll()
    player.poll()
    assert [e.type for e in posted] == [pygame.KEYDOWN] and posted[0].key == pygame.K_r


def test_a_wait_that_the_camera_never_ends_says_it_ran_out_of_time(make_app, clock) -> None:
    app = make_app()
    app.step()
    app.camera = SlowCamera()
    player = ScriptPlayer(parse_script("key r\nwait 1\nkey 1"), app, clock, lambda e: None)
    for _ in range(3):
        player.poll()
    clock.advance(1)
    player.poll()
    clock.advance(WAIT_LIMIT - 0.1)
    player.poll()
    clock.advance(0.2)
    with pytest.raises(ScriptError, match=r"line 2: ran out of time: 60 s after 'wait 1' the camera"):
        player.poll()


def test_a_wait_without_a_camera_is_its_seconds(make_app, clock) -> None:
    app = make_app()
    app.step()
    assert app.camera is None
    player = ScriptPlayer(parse_script("wait 1"), app, clock, lambda e: None)
    player.poll()
    clock.advance(1)
    player.poll()
    assert player.done and player.position == "done"


def test_frames_that_end_before_the_script_say_so(tmp_path: Path) -> None:
    script = tmp_path / "long.txt"
    script.write_text("tap Generał (classic)\nwait 600\n", encoding="utf-8")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "device.cli", "--simulate", "--headless", "--no-camera"]
    command += ["--state-dir", str(tmp_path / "state"), "--script", str(script), "--frames", "30"]
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 2
    assert "ran out of time: --frames 30 were over at line 2 (wait 600)" in result.stderr


def test_a_shot_saves_the_screen_as_drawn(make_app, clock, tmp_path: Path) -> None:
    app = make_app()
    app.step()
    target = tmp_path / "shots" / "home.png"
    player = ScriptPlayer(parse_script(f"shot {target}"), app, clock, lambda e: None)
    player.poll()
    assert player.done
    saved = pygame.image.load(str(target))
    assert saved.get_size() == app.canvas.surface.get_size()
    assert pygame.image.tobytes(saved, "RGB") == pygame.image.tobytes(app.canvas.surface, "RGB")


def test_a_shot_that_cannot_be_written_is_named(make_app, clock, tmp_path: Path) -> None:
    app = make_app()
    app.step()
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    player = ScriptPlayer(parse_script(f"\nshot {blocker}/x.png"), app, clock, lambda e: None)
    with pytest.raises(ScriptError, match="line 2: cannot save the screen to"):
        player.poll()


def test_a_tap_on_a_missing_button_stops_with_the_buttons_shown(make_app, clock) -> None:
    app = make_app()
    app.step()
    player = ScriptPlayer(parse_script("\n\ntap Nonexistent"), app, clock, lambda e: None)
    player.poll()
    clock.advance(10)
    with pytest.raises(
        ScriptError, match=r"line 3: no button 'Nonexistent' on the home screen \(buttons: .*Generał"
    ):
        player.poll()


def test_script_needs_the_simulator(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "--script", str(EXAMPLE), "--headless"],
        capture_output=True,
        text=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )
    assert result.returncode == 2 and "add --simulate" in result.stderr


def test_the_issues_example_journals_two_rolls_the_second_with_two_held_dice(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[display]\nfps = 60\n", encoding="utf-8")
    state = tmp_path / "state"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "device.cli", "--simulate", "--headless", "--config", str(config)]
    command += ["--state-dir", str(state), "--script", str(EXAMPLE), "--frames", "1500"]
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
    assert result.returncode == 0, result.stderr[-2000:]
    journal = Journal.open(state / "journal.sqlite3")
    try:
        (game,) = journal.games()
        actions = [a.action for a in journal.actions(game.id) if isinstance(a.action, dict)]
        assert len(actions) == len(journal.actions(game.id))  # every action a JSON object
    finally:
        journal.close()
    assert [a["kind"] for a in actions] == ["dice.roll", "dice.roll"], actions
    assert actions[0]["held"] == [] and actions[1]["held"] == [0, 1]
    first, second = actions[0]["dice"].split(), actions[1]["dice"].split()
    assert second[:2] == first[:2]  # keys 1 and 2 held the dice the screen showed first and second


def test_tap_text_taps_the_button_showing_text_even_when_the_tests_name_it_otherwise(make_app, clock) -> None:
    """Rummikub's "Player 1 starts" is named ``start 1`` for the tests; a script taps it by what it
    shows, as docs/appliance.md says (issue 36, item 17), and by its name still."""
    app = make_app()
    app.step()
    hits: list[str] = []
    app.canvas.begin()
    app.canvas.button((100, 100, 200, 52), "Player 1 starts", lambda: hits.append("1"))
    app.canvas.relabel("start 1")
    app.canvas.button((100, 200, 200, 52), "Player 2 starts", lambda: hits.append("2"))
    app.canvas.relabel("start 2")
    posted: list[pygame.event.Event] = []
    player = ScriptPlayer(parse_script("tap Player 1 starts\ntap start 2"), app, clock, posted.append)
    player.poll()
    player.poll()
    assert player.done
    assert [e.pos for e in posted] == [(200, 126), (200, 226)]


def test_the_run_ends_with_the_script_unless_it_stays(make_app, clock) -> None:
    from device.appliance import RunOptions, keep_running

    app = make_app()
    player = ScriptPlayer(parse_script("wait 1"), app, clock, lambda e: None)
    scripted = RunOptions(simulate=True, script="s.txt")
    assert keep_running(app, scripted, player)
    player.poll()
    clock.advance(1.0)
    player.poll()
    assert player.done
    assert not keep_running(app, scripted, player)
    assert keep_running(app, RunOptions(simulate=True, script="s.txt", stay=True), player)
    assert not keep_running(app, RunOptions(simulate=True, script="s.txt", stay=True, frames=0), player)
    assert keep_running(app, RunOptions(simulate=True), None)


def test_a_script_ends_the_run_without_frames(tmp_path: Path) -> None:
    script = tmp_path / "home.txt"
    shot = tmp_path / "home.png"
    script.write_text(f"tap Generał (classic)\nwait 0.3\nshot {shot}\n", encoding="utf-8")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "device.cli", "--simulate", "--headless", "--no-camera"]
    command += ["--state-dir", str(tmp_path / "state"), "--script", str(script)]
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert shot.is_file()


def test_stay_needs_a_script() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "--simulate", "--headless", "--stay"],
        capture_output=True,
        text=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )
    assert result.returncode == 2 and "add --script" in result.stderr
