"""The config file: defaults, every section, and errors that name the key."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import rules
from device.config import (
    Config,
    ConfigError,
    config_from_dict,
    game_table_keys,
    load_config,
    load_config_text,
)
from device.zatre_deck import write_manifest
from rules.zatre import default_deck


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "absent.toml") == Config()


def test_example_file_is_valid() -> None:
    example = Path(__file__).resolve().parents[2] / "config.example.toml"
    assert load_config(example) == Config()


def test_full_config(tmp_path: Path) -> None:
    p = tmp_path / "c.toml"
    p.write_text(
        """
[device]
language = "hu"
owner_pin = "2468"
state_dir = "/tmp/x"
[display]
width = 1024
height = 600
[camera]
sources = ["usb:/dev/video2", "folder:/srv/frames", "synthetic"]
[seats]
count = 2
buttons = [17, 27]
leds = [5, 6]
buzzer = 18
[serial]
port = "loop://"
"""
    )
    cfg = load_config(p)
    assert cfg.device.language == "hu"
    assert cfg.device.journal_path == Path("/tmp/x/journal.sqlite3")
    assert cfg.display.width == 1024
    assert cfg.camera.sources == ("usb:/dev/video2", "folder:/srv/frames", "synthetic")
    assert cfg.seats.buttons == (17, 27)
    assert cfg.serial.port == "loop://"


@pytest.mark.parametrize(
    "text, key, fragment",
    [
        ("[device\n", "(file)", "not valid TOML"),
        ("[sound]\n", "sound", "allowed sections"),
        ("device = 3\n", "device", "must be a table"),
        ("[device]\nlanguage = 'fr'\n", "device.language", "allowed values: 'pl', 'hu', 'de', 'en'"),
        ("[device]\ncolour = 'red'\n", "device.colour", "allowed keys"),
        ("[device]\nowner_pin = '12'\n", "device.owner_pin", "4–8 digits"),
        ("[display]\nwidth = 'wide'\n", "display.width", "whole number"),
        ("[display]\nwidth = 100\n", "display.width", "320–7680"),
        ("[display]\nfullscreen = 1\n", "display.fullscreen", "true or false"),
        ("[camera]\nsources = ['webcam']\n", "camera.sources[0]", "allowed kinds"),
        ("[camera]\nsources = ['usb']\n", "camera.sources[0]", "needs an argument"),
        ("[camera]\nsources = 'usb:0'\n", "camera.sources", "expected a list"),
        ("[seats]\nbuttons = [17, 27, 99, 23]\n", "seats.buttons[2]", "out of range"),
        ("[seats]\nbuttons = [17, 27, 'x', 23]\n", "seats.buttons[2]", "whole number"),
        ("[seats]\ncount = 3\nbuttons = [17, 27]\n", "seats.buttons", "2 pins for 3 seats"),
        ("[seats]\nleds = [17, 6, 13, 19]\n", "seats", r"used twice: \[17\]"),
        ("[seats]\ncolours = ['red']\n", "seats.colours[0]", "not a colour"),
        ("[serial]\nbaudrate = 1234\n", "serial.baudrate", "allowed values"),
    ],
)
def test_errors_name_the_key(text: str, key: str, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment) as info:
        load_config_text(text)
    assert info.value.key == key


def test_unreadable_file_names_the_path(tmp_path: Path) -> None:
    p = tmp_path / "c.toml"
    p.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(p)


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ConfigError, match="unknown game") as info:
        load_config_text("[games.chess]\npreset = 'seed'\n")
    assert info.value.key == "games.chess"


def test_move_timer_comes_from_the_table_or_the_game_rules() -> None:
    assert Config().timer_seconds("yahtzee") == 0
    assert Config().timer_seconds("rummikub") == 60  # RULES.md §3: 60 s per move
    cfg = load_config_text("[games.rummikub]\nmove_seconds = 90\n[games.poker_dice]\ntimer_seconds = 45\n")
    assert cfg.timer_seconds("rummikub") == 90
    assert cfg.timer_seconds("poker_dice") == 45


def test_the_seat_backend_is_chosen_by_config() -> None:
    from device.appliance import Parts
    from drivers.pods import PodLink
    from drivers.seats import KeyboardSeats, SeatPanel

    with pytest.raises(ConfigError, match=r"seats\.backend: 'pods' needs the pods' serial line"):
        load_config_text('[seats]\nbackend = "pods"')
    with pytest.raises(ConfigError, match=r"seats\.backend"):
        load_config_text('[seats]\nbackend = "morse"')
    parts = Parts()
    try:
        keyboard = parts.seats(load_config_text('[seats]\nbackend = "keyboard"'), print, simulate=False)
        gpio = parts.seats(load_config_text("[seats]\ncount = 2"), print, simulate=False)
        simulated = parts.seats(load_config_text("[seats]\ncount = 2"), print, simulate=True)
        pods_config = load_config_text('[seats]\nbackend = "pods"\ncount = 3\n[serial]\nport = "loop://"')
        pods = parts.seats(pods_config, print, simulate=False)
        assert isinstance(keyboard, KeyboardSeats) and isinstance(simulated, KeyboardSeats)
        assert isinstance(gpio, SeatPanel) and gpio.seats == 2
        assert isinstance(pods, PodLink) and pods.seats == 3
        assert parts.pods(pods_config, print, pods) is None  # the pods are the seats, not a second panel
    finally:
        parts.close()
    assert all(s.closed for s in (keyboard, gpio, simulated, pods) if s is not None)


@pytest.mark.parametrize("game", [g.name for g in rules.games()])
def test_an_unknown_game_key_lists_exactly_the_keys_accepted(game: str, tmp_path: Path) -> None:
    """Issue 36, item 3: the list names the table's own keys (the preset, the move timer) and the rule
    options, not ``players`` and ``seed`` (chosen at the table, refused here); each key listed loads."""
    with pytest.raises(ConfigError) as caught:
        load_config_text(f"[games.{game}]\nno_such_key = 1\n")
    assert caught.value.key == f"games.{game}.no_such_key"
    listed = caught.value.message.split("allowed keys: ", 1)[1].split(", ")
    assert listed == game_table_keys(game)
    assert "players" not in listed and "seed" not in listed
    assert "timer_seconds" in listed and "preset" in listed
    defaults = rules.get_game(game).options_type().to_dict()
    for key in listed:
        value: Any = {"preset": "seed", "timer_seconds": 0}.get(key, defaults.get(key))
        if key == "deck_manifest":
            value = str(write_manifest(tmp_path / "deck.json", Counter(default_deck()), "default").path)
        table = {key: value}
        config = config_from_dict({"games": {game: table}})
        assert game in config.games


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[device\nlanguage = 'pl'\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.key == str(path)
    assert str(caught.value).startswith(f"{path}: not valid TOML")
