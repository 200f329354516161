"""Bad values are refused with the error that names the key (issue #17), never a traceback later:
each numeric option has its range, checked in one place for the rule options and the config."""

from __future__ import annotations

import dataclasses
import typing

import pytest

import rules
from device.config import CameraConfig, ConfigError, DisplayConfig, SeatsConfig, load_config_text
from rules.options import Range, numeric_range


@pytest.mark.parametrize(
    "text, key, fragment",
    [
        ("[games.poker_dice]\npreset = []\n", "games.poker_dice.preset", "preset name"),
        ("[games.poker_dice]\npreset = {}\n", "games.poker_dice.preset", "preset name"),
        ("[games.rummikub]\npreset = 3\n", "games.rummikub.preset", "preset name"),
        ("[seats]\ncolours = []\n", "seats.colours", "0 colours for 4 seats"),
        ("[games.rummikub]\ntimeout_draw = -3\n", "games.rummikub.timeout_draw", "out of range 0–10"),
        ("[games.rummikub]\ntimeout_draw = 75\n", "games.rummikub.timeout_draw", "out of range 0–10"),
        ("[games.rummikub]\nmove_seconds = -1\n", "games.rummikub.move_seconds", "out of range 0–3600"),
        ("[games.rummikub]\njoker_penalty = -50\n", "games.rummikub.joker_penalty", "out of range 0–200"),
        ("[games.kalooki]\ndeals = 0\n", "games.kalooki.deals", "out of range 1–100"),
        ("[games.kalooki]\npool_cents = -1\n", "games.kalooki.pool_cents", "out of range"),
        ("[games.zatre]\nrow_bonus = [1, -2]\n", "games.zatre.row_bonus[1]", "out of range"),
        ("[games.poker_dice]\ntimer_seconds = -5\n", "games.poker_dice.timer_seconds", "0–3600"),
        ("[device]\nowner_pin = '١٢٣٤'\n", "device.owner_pin", "digits 0–9"),
        ("[device]\nowner_pin = '12345678901'\n", "device.owner_pin", "4–8 digits"),
        ("[camera]\nwidth = 0\n", "camera.width", "out of range"),
        ("[camera]\nheight = -720\n", "camera.height", "out of range"),
        ("[seats]\nhold_seconds = 0\n", "seats.hold_seconds", "out of range 0.2–10"),
        ("[seats]\nbuzzer = 40\n", "seats.buzzer", "out of range 2–27"),
        ("[display]\nfps = 0\n", "display.fps", "out of range 1–120"),
    ],
)
def test_bad_values_name_the_key(text: str, key: str, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment) as info:
        load_config_text(text)
    assert info.value.key == key


@pytest.mark.parametrize(
    ("game", "values", "key"),
    [
        ("rummikub", {"timeout_draw": -3}, "timeout_draw"),
        ("rummikub", {"move_seconds": -60}, "move_seconds"),
        ("rummikub", {"joker_penalty": -1}, "joker_penalty"),
        ("kalooki", {"max_reshuffles": -1}, "max_reshuffles"),
        ("zatre", {"row_bonus": (5, -1)}, "row_bonus[1]"),
        ("poker_dice", {"seed": -1}, "seed"),
    ],
)
def test_rule_options_refuse_values_out_of_range(game: str, values: dict, key: str) -> None:
    spec = rules.get_game(game)
    with pytest.raises(rules.OptionError, match="out of range") as info:
        spec.options_type.preset("seed", **values)
    assert info.value.key == key


def test_a_preset_name_must_be_text() -> None:
    bad: object
    for bad in ([], {}, 3, None):
        with pytest.raises(rules.OptionError, match="preset name"):
            rules.get_game("yahtzee").options_type.preset(bad)  # type: ignore[arg-type]


NUMERIC = (int, float)


def _numeric_fields(cls: type) -> list[tuple[str, typing.Any]]:
    hints = typing.get_type_hints(cls, include_extras=True)
    found = []
    for field in dataclasses.fields(cls):
        tp = hints[field.name]
        base = typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp
        inner = [a for a in typing.get_args(base) if a is not type(None)] or [base]
        if typing.get_origin(base) is tuple:
            inner = [typing.get_args(base)[0]]
        for item in inner:
            plain = typing.get_args(item)[0] if typing.get_origin(item) is typing.Annotated else item
            if plain in NUMERIC:
                found.append((field.name, item if item is not plain else tp))
    return found


@pytest.mark.parametrize(
    "cls",
    [*(spec.options_type for spec in rules.games()), DisplayConfig, CameraConfig, SeatsConfig],
    ids=lambda c: c.__name__,
)
def test_every_numeric_option_has_a_range(cls: type) -> None:
    """``players`` is bounded by the class (MIN/MAX_PLAYERS); every other number by its Range."""
    for name, tp in _numeric_fields(cls):
        if name == "players":
            continue
        assert isinstance(numeric_range(tp), Range), f"{cls.__name__}.{name} has no range"


@pytest.mark.parametrize(
    "bad", [{"kind": ["poker_dice.roll"]}, {"kind": {"a": 1}}, "[" * 100_000 + "]" * 100_000]
)
def test_the_app_resumes_before_an_action_that_does_not_decode(tmp_path, make_app, bad) -> None:
    import json
    import sqlite3

    from tests.device.conftest import make_config
    from tests.device.journal_games import finished_game, store_game

    config = make_config(tmp_path)
    options, actions = finished_game(seed=2)
    from device.journal import Journal

    journal = Journal.open(config.device.journal_path)
    gid = store_game(journal, options, actions[:5])
    journal.close()
    text = bad if isinstance(bad, str) else json.dumps(bad)
    conn = sqlite3.connect(config.device.journal_path)
    with conn:
        conn.execute("INSERT INTO actions (game_id, seq, action, at) VALUES (?, 6, ?, 0)", (gid, text))
    conn.close()
    app = make_app(config=config)
    assert app.failure is None
    assert app.screen.name == "dice_table"
    assert app.session is not None and app.session.seq == 5


def test_an_empty_key_is_named() -> None:
    """Found by the config fuzz test: an empty section or key name made an error that named nothing."""
    for text, key in (('"" = 1\n', '""'), ('[device]\n"" = 1\n', 'device.""'), ('[games.""]\n', 'games.""')):
        with pytest.raises(ConfigError) as info:
            load_config_text(text)
        assert info.value.key == key
