"""Zatre: the deck as a value (the assumed default, validation with clear errors); the rules read no
file (the manifest file is the device's: tests/device/test_zatre_deck_store.py)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from rules.errors import OptionError
from rules.zatre import Card, DeckError, ZatreOptions, deck_counts, deck_from_counts, default_deck
from rules.zatre.deck import DEFAULT_ASSUMPTION, DEFAULT_COUNTS


def test_default_deck_has_50_valid_cards_and_says_it_is_an_assumption() -> None:
    deck = default_deck()
    assert len(deck) == 50
    assert all(0 <= card.first <= card.second <= 6 for card in deck)
    assert deck_counts(deck) == Counter({Card.parse(k): n for k, n in DEFAULT_COUNTS.items()})
    assert "ASSUMPTION" in DEFAULT_ASSUMPTION
    assert ZatreOptions().cards() == deck


def test_a_counted_deck_is_given_as_counts() -> None:
    counts: dict[str | Card, int] = {"1|2": 20, "6|0": 29, Card(3, 3): 1}  # either form, even mixed
    deck = deck_from_counts(counts)
    assert Counter(deck) == {Card(1, 2): 20, Card(0, 6): 29, Card(3, 3): 1}
    options = ZatreOptions(deck=tuple(str(c) for c in deck), players=3)
    assert options.cards() == deck and options.players == 3


@pytest.mark.parametrize(
    "counts, fragment",
    [
        ({"1|2": 49}, "49 cards; a Zatre deck has exactly 50"),
        ({"1|2": 50, "3|3": 1}, "51 cards"),
        ({"1|7": 50}, "'1|7'"),
        ({"1-2": 50}, "'1-2'"),
        ({"1|2": 25, "2|1": 25}, "'2|1' and '1|2' are the same card"),
        ({"1|2": 0, "3|3": 50}, "count of '1|2' must be a whole number"),
        ({"1|2": "50"}, "count of '1|2'"),
        ({"1|2": True, "3|3": 49}, "count of '1|2'"),
    ],
)
def test_bad_counts_name_the_problem(counts: dict[str, object], fragment: str) -> None:
    with pytest.raises(DeckError, match=r"^my deck: ") as info:
        deck_from_counts(counts, source="my deck")  # type: ignore[arg-type]
    assert fragment in str(info.value)


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
    custom = ZatreOptions(deck=tuple(str(c) for c in default_deck()), row_bonus=(3,))
    assert ZatreOptions.from_dict(custom.to_dict()) == custom


def test_the_zatre_rules_read_no_file() -> None:
    """Issue 35: no file I/O in the engine; the deck file is the device's."""
    folder = Path(__file__).resolve().parents[2] / "rules" / "zatre"
    offenders = []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
                offenders.append(f"{path.name}: open()")
            if isinstance(node, ast.Attribute) and node.attr in ("read_text", "write_text", "read_bytes"):
                offenders.append(f"{path.name}: .{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module in ("importlib", "importlib.resources"):
                offenders.append(f"{path.name}: importlib.resources")
    assert offenders == [] and not list(folder.glob("*.json"))
