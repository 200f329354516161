"""Five dice: the Roll value object, the two dice actions and the seeded roll."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.actions import action_from_json, action_to_json, actions_from_json, actions_to_json
from rules.dice import Choose, Roll, RollDice, as_roll, random_roll

rolls = st.tuples(*[st.integers(1, 6)] * 5).map(Roll)


@pytest.mark.parametrize(
    "text", ["4 3 4 4 1", "43441", "4,3,4,4,1", "4, 3, 4, 4, 1", " (4, 3, 4, 4, 1) ", "[4 3 4 4 1]"]
)
def test_parse_accepts_the_usual_forms(text: str) -> None:
    roll = Roll.parse(text)
    assert roll.values == (4, 3, 4, 4, 1)
    assert str(roll) == "4 3 4 4 1"


@pytest.mark.parametrize(
    "text", ["", "4 3 4 4", "4 3 4 4 1 2", "4 3 4 4 7", "4 3 0 4 1", "4 3 x 4 1", "434417", "4 3 4 4 1.0"]
)
def test_parse_refuses_bad_text_and_names_it(text: str) -> None:
    with pytest.raises(ValueError, match="not a roll") as err:
        Roll.parse(text)
    assert repr(text) in str(err.value)


@pytest.mark.parametrize(
    "values", [(1, 2, 3, 4), (1, 2, 3, 4, 7), (0, 1, 2, 3, 4), (1, 2, 3, 4, True), [1, 2, 3, 4, 5]]
)
def test_constructor_refuses_anything_but_five_faces(values: object) -> None:
    with pytest.raises(ValueError, match="5 dice"):
        Roll(values)  # type: ignore[arg-type]


@given(rolls)
def test_text_form_round_trips(roll: Roll) -> None:
    assert Roll.parse(str(roll)) == roll
    assert as_roll(roll.values) == roll
    assert as_roll(roll) is roll
    assert list(roll) == list(roll.values) and len(roll) == 5 and roll[4] == roll.values[4]


def test_counts_total_and_five_of_a_kind() -> None:
    assert Roll.parse("66661").count(6) == 4
    assert Roll.parse("66661").total == 25
    assert Roll.parse("33333").is_five_of_a_kind
    assert not Roll.parse("33332").is_five_of_a_kind


def test_actions_round_trip_through_json() -> None:
    acts = [RollDice(Roll.parse("12345")), RollDice(Roll.parse("12366"), (0, 1, 2)), Choose("2:full_house")]
    assert action_to_json(acts[1]) == {"kind": "dice.roll", "dice": "1 2 3 6 6", "held": [0, 1, 2]}
    assert action_to_json(acts[2]) == {"kind": "dice.choose", "box": "2:full_house"}
    assert action_from_json({"kind": "dice.roll", "dice": "5 5 5 5 5"}) == RollDice(Roll.parse("55555"))
    assert actions_from_json(actions_to_json(acts)) == acts


def test_bad_dice_in_json_name_the_field() -> None:
    with pytest.raises(ValueError, match=r"dice\.roll\.dice"):
        action_from_json({"kind": "dice.roll", "dice": "1 2 3"})


@given(st.integers(0, 2**32), rolls, st.sets(st.integers(0, 4)).map(lambda s: tuple(sorted(s))))
def test_random_roll_keeps_held_dice(seed: int, previous: Roll, held: tuple[int, ...]) -> None:
    roll = random_roll(random.Random(seed), previous, held)
    assert all(roll[p] == previous[p] for p in held)


def test_random_roll_is_seeded_and_rolls_every_die() -> None:
    first = random_roll(random.Random(7), None)
    assert first == random_roll(random.Random(7), None)
    seen = {random_roll(random.Random(seed), first, (0, 1))[4] for seed in range(100)}
    assert seen == {1, 2, 3, 4, 5, 6}


def test_random_roll_cannot_hold_before_the_first_roll() -> None:
    with pytest.raises(ValueError, match="nothing to hold"):
        random_roll(random.Random(1), None, (0,))
