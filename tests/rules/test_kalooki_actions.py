"""Kalooki actions and options: JSON round trips, foreign actions, bad options."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

import rules
from rules import Action, IllegalAction, OptionError, action, action_from_json, action_to_json
from rules.kalooki import (
    JOKER,
    Build,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    HandPoints,
    KalookiOptions,
    LayDown,
    ReleaseJoker,
    RevealHand,
    TurnUp,
    new_deal,
    parse_cards,
)


def c(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


@pytest.mark.parametrize(
    "act",
    [
        DrawStock(),
        DrawDiscard(),
        LayDown((c("AS 2S 3S"), c("10H 10D JOKER"))),
        Build(2, c("JOKER 9H"), "high"),
        Build(0, c("AS"), "low"),
        ReleaseJoker(1, c("10S 10C")),
        Discard(JOKER),
        TurnUp(c("KD")[0]),
        RevealHand(2, c("AS QD JOKER")),
        RevealHand(0, ()),
        HandPoints(1, 36),
        HandPoints(0, 0),
    ],
)
def test_actions_round_trip_through_json(act: Action) -> None:
    data = action_to_json(act)
    assert data["kind"].startswith("kalooki.")
    assert action_from_json(data) == act


def test_json_uses_the_card_text() -> None:
    assert action_to_json(LayDown((c("10H JH QH"),))) == {
        "kind": "kalooki.lay_down",
        "melds": [["10H", "JH", "QH"]],
    }
    assert action_from_json({"kind": "kalooki.discard", "card": "th"}) == Discard(c("10H")[0])
    with pytest.raises(ValueError, match=r"kalooki\.discard\.card"):
        action_from_json({"kind": "kalooki.discard", "card": "1H"})
    with pytest.raises(ValueError, match=r"kalooki\.build\.end"):
        action_from_json({"kind": "kalooki.build", "meld": 0, "cards": ["AS"], "end": "middle"})


@action("test.kalooki_foreign")
@dataclass(frozen=True)
class _Foreign(Action):
    pass


def test_another_games_action_is_refused() -> None:
    deal = new_deal(KalookiOptions(players=2)).apply(DrawStock())
    with pytest.raises(IllegalAction) as info:
        deal.apply(_Foreign())
    assert info.value.code == "wrong_phase"


@pytest.mark.parametrize(
    "values, key",
    [
        ({"initial_meld": 45}, "initial_meld"),
        ({"payout": "equal"}, "payout"),
        ({"pool_cents": -1}, "pool_cents"),
        ({"max_reshuffles": -1}, "max_reshuffles"),
        ({"deals": 0}, "deals"),
        ({"mode": "camera"}, "mode"),
        ({"players": 5}, "players"),
        ({"move_seconds": 29}, "move_seconds"),
        ({"move_seconds": 121}, "move_seconds"),
        ({"move_seconds": -30}, "move_seconds"),
    ],
)
def test_bad_options_name_the_key(values: dict[str, object], key: str) -> None:
    with pytest.raises(OptionError) as info:
        KalookiOptions.from_dict(values)
    assert info.value.key == key


def test_options_round_trip_and_no_extra_presets() -> None:
    options = KalookiOptions.preset("seed", players=4, initial_meld=40, payout="proportional")
    assert KalookiOptions.from_dict(options.to_dict()) == options
    assert KalookiOptions.preset_names() == ["seed"]


def test_the_move_timer_is_off_by_default_else_30_to_120_seconds() -> None:
    assert KalookiOptions().move_seconds == 0 and KalookiOptions().move_limit_seconds == 0
    assert [KalookiOptions(move_seconds=s).move_limit_seconds for s in (30, 75, 120)] == [30, 75, 120]
    assert KalookiOptions.move_seconds_allowed() == (30, 120)
    assert [KalookiOptions.fit_move_seconds(s) for s in (0, 10, 60, 180)] == [0, 30, 60, 120]


def test_codes_lists_every_refusal_the_engine_raises() -> None:
    raised = set()
    for path in Path(rules.kalooki.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
                assert isinstance(node.args[0], ast.Constant), (path.name, node.lineno)
                raised.add(node.args[0].value)
    assert raised == set(rules.kalooki.CODES)
