"""Zatre's deck manifest file (device/zatre_deck.py): written whole or not at all, read back the same,
a file that cannot be used named by its line; which deck a new game is dealt from."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

from device.config import ConfigError, config_from_dict
from device.zatre_deck import (
    ManifestError,
    deck_choice,
    manifest_text,
    parse_manifest,
    read_manifest,
    write_manifest,
)
from rules.zatre import Card, ZatreOptions, default_deck

COUNTED = Counter({Card(1, 1): 10, Card(2, 3): 10, Card(0, 6): 10, Card(4, 5): 10, Card(6, 6): 10})


def test_a_manifest_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    written = write_manifest(path, COUNTED, "counted on the device")
    read = read_manifest(path)
    assert read.counts == written.counts == COUNTED and read.name == "counted on the device"
    assert read.path == str(path) and len(read.cards()) == 50
    assert ZatreOptions(deck=read.texts()).cards() == read.cards()
    # Either way round is one card: 5|4 counted as 4|5.
    turned = Counter({Card(5, 4): 4, Card(4, 5): 6, **{c: n for c, n in COUNTED.items() if c != Card(4, 5)}})
    assert read_manifest(write_manifest(path, turned, "x").path).counts == COUNTED
    # One card per line, lowest first: what an owner reads and edits.
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[3:8] == [
        '    "0|6": 10,',
        '    "1|1": 10,',
        '    "2|3": 10,',
        '    "4|5": 10,',
        '    "6|6": 10',
    ]


@pytest.mark.parametrize(
    "counts, fragment",
    [
        (Counter({Card(1, 1): 51}), "51 cards"),
        (Counter({Card(1, 1): 49}), "49 cards"),
        (Counter({**COUNTED, Card(3, 3): 1}), "51 cards"),
    ],
)
def test_a_deck_that_is_not_50_cards_is_not_written(
    tmp_path: Path, counts: Counter[Card], fragment: str
) -> None:
    path = tmp_path / "deck.json"
    write_manifest(path, COUNTED, "the first count")
    before = path.read_bytes()
    with pytest.raises(ManifestError, match="not written") as info:
        write_manifest(path, counts, "too many")
    assert fragment in str(info.value)
    assert path.read_bytes() == before  # nothing lost
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.json"]  # no temporary file left


def test_a_new_count_keeps_the_previous_one(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    write_manifest(path, COUNTED, "first")
    write_manifest(path, Counter(default_deck()), "second")
    assert read_manifest(path).name == "second"
    assert read_manifest(tmp_path / "deck.json.previous").name == "first"


def test_a_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "deck.json"
    write_manifest(path, COUNTED, "first")
    before = path.read_bytes()

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        write_manifest(path, Counter(default_deck()), "second")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.json"]


def lines(*rows: str) -> str:
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize(
    "text, fragment",
    [
        (lines("{", '  "cards": {', '    "1|2": 49', "  }", "}"), "line 2: 'cards' adds up to 49 cards"),
        (
            lines("{", '  "cards": {', '    "1|2": 50,', '    "3|3": 1', "  }", "}"),
            "line 2: 'cards' adds up to 51",
        ),
        (
            lines("{", '  "cards": {', '    "1|2": 49,', '    "1|7": 1', "  }", "}"),
            "line 4: not a Zatre card: '1|7'",
        ),
        (
            lines("{", '  "cards": {', '    "1|2": 49,', '    "1-2": 1', "  }", "}"),
            "line 4: not a Zatre card: '1-2'",
        ),
        (
            lines("{", '  "cards": {', '    "1|2": 25,', '    "2|1": 25', "  }", "}"),
            "line 4: '2|1' and '1|2' are the same",
        ),
        (
            lines("{", '  "cards": {', '    "1|2": 0,', '    "3|3": 50', "  }", "}"),
            "line 3: the count of '1|2' must be",
        ),
        (
            lines("{", '  "cards": {', '    "3|3": 48,', '    "1|2": "2"', "  }", "}"),
            "line 4: the count of '1|2'",
        ),
        (
            lines("{", '  "cards": {', '    "1|2": 25,', '    "1|2": 25', "  }", "}"),
            "line 4: '1|2' listed more than once",
        ),
        (lines("{", '  "cards": {', '    "1|2": 25', '    "3|3": 25', "  }", "}"), "line 4: not valid JSON"),
        (lines("{", '  "name": 7,', '  "cards": {"1|2": 50}', "}"), "line 2: 'name' must be a text"),
        (lines('{"cards": ["1|2"]}'), "line 1: expected an object with a 'cards' object"),
        (lines("[1, 2]"), "line 1: expected an object"),
    ],
)
def test_a_corrupt_manifest_names_its_line(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "deck.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ManifestError) as info:
        read_manifest(path)
    assert str(info.value).startswith(f"deck manifest {str(path)!r}")
    assert fragment in str(info.value)


def test_a_missing_or_unreadable_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match=r"nope\.json.*cannot read it"):
        read_manifest(tmp_path / "nope.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ManifestError, match=r"bin\.json.*cannot read it"):
        read_manifest(tmp_path / "bin.json")


def test_the_config_key_names_itself_on_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text(lines("{", '  "cards": {', '    "1|2": 49', "  }", "}"), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        config_from_dict({"games": {"zatre": {"deck_manifest": str(path)}}})
    assert info.value.key == "games.zatre.deck_manifest" and "line 2" in info.value.message
    write_manifest(path, COUNTED, "ok")
    config = config_from_dict({"games": {"zatre": {"deck_manifest": str(path)}}})
    assert config.games["zatre"]["deck_manifest"] == str(path)
    deck = config.games["zatre"]["deck"]
    assert isinstance(deck, list) and Counter(Card.parse(c) for c in deck) == COUNTED
    options = config.game_options("zatre")
    assert isinstance(options, ZatreOptions) and Counter(options.cards()) == COUNTED


def test_which_deck_a_new_game_is_dealt_from(tmp_path: Path) -> None:
    counted = write_manifest(tmp_path / "counted.json", COUNTED, "counted")
    config_path = write_manifest(tmp_path / "config.json", Counter(default_deck()), "config")
    config_table = config_from_dict({"games": {"zatre": {"deck_manifest": str(config_path.path)}}}).games[
        "zatre"
    ]
    assert deck_choice("", {}).source == "assumed" and deck_choice("", {}).cards == ()
    assert "assumed" in deck_choice("", {}).words
    choice = deck_choice("", config_table)
    assert choice.source == "config" and choice.path == config_path.path and len(choice.cards) == 50
    choice = deck_choice(counted.path, config_table)
    assert choice.source == "counted" and Counter(Card.parse(c) for c in choice.cards) == COUNTED
    assert "counted.json" in choice.words
    # A counted deck that cannot be read: said so, and the next in line is dealt.
    Path(counted.path).write_text("{broken", encoding="utf-8")
    choice = deck_choice(counted.path, config_table)
    assert choice.source == "config" and "line 1: not valid JSON" in choice.problem
    assert deck_choice(counted.path, {}).source == "assumed"


def test_the_manifest_text_is_what_parse_reads() -> None:
    text = manifest_text(COUNTED, "ünïcode name")
    assert parse_manifest(text).counts == COUNTED and json.loads(text)["name"] == "ünïcode name"
