"""The rule-engine core: the error type, actions as JSON, options and presets, outcomes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

import pytest

import rules
from rules.actions import action, action_from_json, action_to_json, actions_from_json, actions_to_json
from rules.errors import IllegalAction, OptionError
from rules.options import Options
from rules.outcome import Outcome, Termination, places


def test_illegal_action_is_a_value_error_with_code_and_details() -> None:
    err = IllegalAction("box_filled", "box 'chance' is already filled", box="chance")
    assert isinstance(err, ValueError)
    assert err.code == "box_filled"
    assert err.details == {"box": "chance"}
    assert "box_filled" in str(err)


class _Pip:
    """A tiny value object with a text form, as Roll/Tile/Card are."""

    def __init__(self, n: int) -> None:
        self.n = n

    @classmethod
    def parse(cls, text: str) -> _Pip:
        if not text.startswith("p"):
            raise ValueError(f"not a pip: {text!r}")
        return cls(int(text[1:]))

    def __str__(self) -> str:
        return f"p{self.n}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Pip) and other.n == self.n

    def __hash__(self) -> int:
        return self.n


@action("test.move")
@dataclass(frozen=True)
class _Move(rules.Action):
    box: str
    dice: tuple[int, ...]
    pip: _Pip
    note: str | None = None
    flag: bool = False


def test_action_round_trips_through_json() -> None:
    move = _Move("chance", (1, 2, 3, 4, 5), _Pip(4), None, True)
    data = action_to_json(move)
    assert data == {
        "kind": "test.move",
        "box": "chance",
        "dice": [1, 2, 3, 4, 5],
        "pip": "p4",
        "note": None,
        "flag": True,
    }
    assert action_from_json(data) == move
    assert actions_from_json(actions_to_json([move, move])) == [move, move]


@pytest.mark.parametrize(
    "data, fragment",
    [
        ({"kind": "nope"}, "unknown action kind"),
        ({"box": "x"}, "not an action"),
        ({"kind": "test.move", "dice": [1], "pip": "p1"}, "missing field 'box'"),
        ({"kind": "test.move", "box": 3, "dice": [1], "pip": "p1"}, "test.move.box"),
        ({"kind": "test.move", "box": "a", "dice": [1], "pip": "x1"}, "test.move.pip"),
        ({"kind": "test.move", "box": "a", "dice": [1], "pip": "p1", "extra": 1}, "unknown fields"),
        ({"kind": "test.move", "box": "a", "dice": [True], "pip": "p1"}, "test.move.dice"),
    ],
)
def test_bad_action_json_names_the_problem(data: dict[str, object], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        action_from_json(data)


def test_action_kind_cannot_be_registered_twice() -> None:
    with pytest.raises(ValueError, match="registered twice"):

        @action("test.move")
        @dataclass(frozen=True)
        class _Other(rules.Action):
            x: int


@dataclass(frozen=True)
class _DemoOptions(Options):
    joker: Literal["forced", "free"] = "forced"
    timer: int = 0
    seats: tuple[int, ...] = (1, 2)
    PRESETS: ClassVar[dict[str, dict[str, object]]] = {"official": {"joker": "free", "timer": 60}}


def test_presets_and_overrides() -> None:
    assert _DemoOptions.preset().joker == "forced"
    official = _DemoOptions.preset("official", players=3)
    assert (official.joker, official.timer, official.players) == ("free", 60, 3)
    assert _DemoOptions.preset_names() == ["seed", "official"]
    assert _DemoOptions.from_dict(official.to_dict()) == official
    assert _DemoOptions.from_dict({"seats": [3, 4]}).seats == (3, 4)


@pytest.mark.parametrize(
    "data, key, fragment",
    [
        ({"joker": "sometimes"}, "joker", "allowed values: 'forced', 'free'"),
        ({"timer": "60"}, "timer", "whole number"),
        ({"timer": True}, "timer", "whole number"),
        ({"players": 9}, "players", "allowed: 1–4"),
        ({"seed": -1}, "seed", "out of range"),
        ({"jokr": "free"}, "jokr", "allowed keys: players, seed, joker, timer, seats"),
    ],
)
def test_bad_options_name_the_key(data: dict[str, object], key: str, fragment: str) -> None:
    with pytest.raises(OptionError, match=fragment) as info:
        _DemoOptions.from_dict(data)
    assert info.value.key == key


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(OptionError, match="allowed values: 'seed', 'official'"):
        _DemoOptions.preset("house")


def test_places_share_equal_scores() -> None:
    assert places([10, 10, 5]) == (1, 1, 3)
    assert places([7]) == (1,)
    out = Outcome.from_scores(Termination.SHEETS_FULL, [3, 9, 9])
    assert out.places == (3, 1, 1)
    assert out.winners == (1, 2)


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known games"):
        rules.get_game("chess")


@action("test.shapes")
@dataclass(frozen=True)
class _Shapes(rules.Action):
    pair: tuple[int, str]
    side: Literal["low", "high"]
    weight: float
    maybe: int | _Pip
    nested: tuple[tuple[int, ...], ...] = ()


def test_action_field_shapes_round_trip() -> None:
    shapes = _Shapes((3, "x"), "high", 2.0, _Pip(5), ((1, 2), (3,)))
    assert action_from_json(action_to_json(shapes)) == shapes
    coerced = action_from_json({"kind": "test.shapes", "pair": [3, "x"], "side": "low", "weight": 1,
                                "maybe": 4})  # fmt: skip
    assert isinstance(coerced, _Shapes) and coerced.maybe == 4


@pytest.mark.parametrize(
    "field, value, fragment",
    [
        ("pair", [3], "expected 2 items"),
        ("pair", 3, "expected a list"),
        ("side", "middle", "is not one of"),
        ("weight", "heavy", "expected a number"),
        ("weight", True, "expected a number"),
        ("maybe", "q7", "fits none of"),
        ("maybe", 3.5, "fits none of"),
        ("nested", [[1, "a"]], "expected an int"),
    ],
)
def test_action_field_shapes_refuse_bad_values(field: str, value: object, fragment: str) -> None:
    data: dict[str, object] = {
        "kind": "test.shapes",
        "pair": [3, "x"],
        "side": "low",
        "weight": 1.5,
        "maybe": 1,
    }
    data[field] = value
    with pytest.raises(ValueError, match=fragment):
        action_from_json(data)


def test_unregistered_or_unencodable_actions_are_refused() -> None:
    @dataclass(frozen=True)
    class _Loose(rules.Action):
        x: object

    with pytest.raises(TypeError, match="not a registered action"):
        action_to_json(_Loose(1))
    with pytest.raises(TypeError, match="must be a dataclass"):
        action("test.plain")(type("Plain", (rules.Action,), {}))
    with pytest.raises(TypeError, match="cannot encode"):
        action_to_json(_Move("chance", (1,), _Pip(1), note=object()))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="JSON list"):
        actions_from_json('{"kind": "test.move"}')


@dataclass(frozen=True)
class _TypedOptions(Options):
    ratio: float = 0.5
    name: str = "x"
    limit: int | None = None
    sides: tuple[Literal["a", "b"], ...] = ("a",)
    flag: bool = False


@pytest.mark.parametrize(
    "data, key, fragment",
    [
        ({"ratio": "half"}, "ratio", "expected a number"),
        ({"name": 3}, "name", "expected a string"),
        ({"limit": "none"}, "limit", "whole number"),
        ({"sides": ["a", "c"]}, "sides[1]", "allowed values: 'a', 'b'"),
        ({"sides": "a"}, "sides", "expected a list"),
        ({"flag": "yes"}, "flag", "true or false"),
    ],
)
def test_option_types_are_checked(data: dict[str, object], key: str, fragment: str) -> None:
    with pytest.raises(OptionError, match=fragment) as info:
        _TypedOptions.from_dict(data)
    assert info.value.key == key


def test_option_values_of_every_type_are_accepted() -> None:
    opts = _TypedOptions.from_dict({"ratio": 1, "name": "y", "limit": 4, "sides": ["a", "b"], "flag": True})
    assert (opts.ratio, opts.limit, opts.sides, opts.flag) == (1, 4, ("a", "b"), True)
    assert opts.replace(limit=None).limit is None


def test_the_decoder_refuses_a_kind_that_is_not_text() -> None:
    for kind in ([], {}, ["yahtzee.roll"], {"a": 1}, 3, None):
        with pytest.raises(rules.NotationError, match="kind"):
            action_from_json({"kind": kind})


def test_the_decoder_refuses_json_nested_too_deeply() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(ValueError, match="nested too deeply"):
        action_from_json(deep)
    with pytest.raises(ValueError, match="nested too deeply"):
        actions_from_json(deep)
    with pytest.raises(ValueError, match="not valid JSON"):
        action_from_json('{"kind": ')


def test_one_error_hierarchy_for_bad_text_refused_moves_and_options() -> None:
    from rules.dice import Roll
    from rules.kalooki import Card
    from rules.zatre import Placement

    for parse, text in [
        (Roll.parse, "1 2"),
        (Card.parse, "ZZ"),
        (Placement.parse, "3|4@x"),
        (action_from_json, "{}"),
    ]:
        with pytest.raises(rules.NotationError) as err:
            parse(text)
        assert isinstance(err.value, rules.RulesError) and isinstance(err.value, ValueError)
        assert text in str(err.value) or "not an action" in str(err.value)
    assert issubclass(IllegalAction, rules.RulesError) and issubclass(OptionError, rules.RulesError)
    assert not issubclass(rules.NotationError, IllegalAction)
