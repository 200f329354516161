"""Zatre: the deck manifest (default marked as an assumption, validation with clear errors)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rules.errors import OptionError
from rules.zatre import Card, DeckError, ZatreOptions, load_deck, parse_manifest
from rules.zatre.deck import DEFAULT_MANIFEST


def manifest(cards: dict[str, object], **extra: object) -> str:
    return json.dumps({"name": "test", **extra, "cards": cards})


def test_default_deck_has_50_valid_cards_and_says_it_is_an_assumption() -> None:
    deck = load_deck()
    assert len(deck) == 50
    assert all(0 <= card.first <= card.second <= 6 for card in deck)
    data = json.loads((Path(__file__).parents[2] / "rules" / "zatre" / DEFAULT_MANIFEST).read_text())
    assert "ASSUMPTION" in data["assumption"] and "ASSUMED" in data["name"]


def test_a_physical_deck_manifest_is_read_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "my_deck.json"
    path.write_text(manifest({"1|2": 20, "6|0": 29, "3|3": 1}))
    deck = load_deck(path)
    assert Counter(deck) == {Card(1, 2): 20, Card(0, 6): 29, Card(3, 3): 1}
    options = ZatreOptions.from_manifest(path, players=3)
    assert options.cards() == deck and options.players == 3


@pytest.mark.parametrize(
    "text, fragment",
    [
        (manifest({"1|2": 49}), "49 cards; a Zatre deck has exactly 50"),
        (manifest({"1|2": 50, "3|3": 1}), "51 cards"),
        (manifest({"1|7": 50}), "'1|7'"),
        (manifest({"1-2": 50}), "'1-2'"),
        (manifest({"1|2": 25, "2|1": 25}), "'2|1' and '1|2' are the same card"),
        (manifest({"1|2": 0, "3|3": 50}), "count of '1|2' must be a whole number"),
        (manifest({"1|2": "50"}), "count of '1|2'"),
        ('{"cards": {"1|2": 25, "1|2": 25}}', "1|2 listed more than once"),
        ('{"cards": ["1|2"]}', "'cards' object of counts"),
        ("[1, 2]", "'cards' object of counts"),
        ("{not json", "not valid JSON"),
    ],
)
def test_bad_manifests_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(DeckError, match=r"deck manifest 'test\.json'") as info:
        parse_manifest(text, source="test.json")
    assert fragment in str(info.value)


def test_a_missing_manifest_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match=r"nope\.json.*cannot read"):
        load_deck(tmp_path / "nope.json")


def test_options_check_the_deck_and_name_the_key() -> None:
    with pytest.raises(OptionError) as info:
        ZatreOptions(deck=("1|2",) * 50 + ("9|9",))
    assert info.value.key == "deck" and "9|9" in str(info.value)
    with pytest.raises(OptionError) as info:
        ZatreOptions(row_bonus=(1, -2))
    assert info.value.key == "row_bonus[1]"
    with pytest.raises(OptionError) as info:
        ZatreOptions(players=5)
    assert info.value.key == "players"
    custom = ZatreOptions(deck=tuple(str(c) for c in load_deck()), row_bonus=(3,))
    assert ZatreOptions.from_dict(custom.to_dict()) == custom
