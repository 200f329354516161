"""``rules.replay_prefix``: the one replay of a game's stored records up to the first that does not
apply (the session's resume, the journal's repair and salvage). For every registered game, the replay
of any prefix of an auto-played game's records equals the game's state after that prefix, whatever
follows it: nothing, or a record that does not read (and the rest of the game after it); the replay
also stops at an action the rules refuse and at the game's end."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import Action, action_to_json
from rules.dice import Roll, RollDice
from rules.yahtzee.game import YahtzeeOptions
from tests.rules.test_contract import _recorded

BROKEN: list[dict[str, object] | str] = ['{"kind": "dice.roll"', {"kind": "no.such.action"}, "[1, 2]"]


@functools.cache
def played(name: str) -> tuple[rules.Options, tuple[Action, ...], tuple[rules.GameState, ...]]:
    """A game auto-played from the seed preset: its options, actions and the state before each action
    and after the last."""
    spec = rules.get_game(name)
    options = spec.options_type.preset("seed", players=min(3, spec.options_type.MAX_PLAYERS), seed=7)
    with pytest.MonkeyPatch.context() as monkeypatch:
        actions = tuple(_recorded(spec, options, monkeypatch))
    states = [spec.new_game(options)]
    for act in actions:
        states.append(states[-1].apply(act))
    return options, actions, tuple(states)


@pytest.mark.parametrize("name", [spec.name for spec in rules.games()])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_replayed_prefix_is_the_game_after_it(name: str, data: st.DataObject) -> None:
    options, actions, states = played(name)
    cut = data.draw(st.integers(0, len(actions)), label="prefix")
    records: list[dict[str, object] | str] = [action_to_json(a) for a in actions[:cut]]
    broken = data.draw(st.none() | st.sampled_from(BROKEN), label="then")
    if broken is not None:  # a record that does not read, and the rest of the game after it
        records += [broken, *(action_to_json(a) for a in actions[cut:])]
    done = rules.replay_prefix(options, records)
    assert done.actions == actions[:cut]
    assert done.state == states[cut]
    assert (done.stopped is None) == (broken is None)


def test_the_replay_stops_at_an_action_the_rules_refuse() -> None:
    roll = action_to_json(RollDice(Roll.parse("1 2 3 4 5")))
    done = rules.replay_prefix(YahtzeeOptions(players=1), [roll, roll, roll, roll, roll])
    assert len(done.actions) == 3 and done.state == rules.replay(YahtzeeOptions(players=1), done.actions)
    assert done.stopped is not None and "roll" in done.stopped


@pytest.mark.parametrize("name", [spec.name for spec in rules.games()])
def test_records_after_the_end_are_not_applied(name: str) -> None:
    options, actions, states = played(name)
    records = [action_to_json(a) for a in actions]
    done = rules.replay_prefix(options, [*records, records[-1]])
    assert done.actions == actions and done.state == states[-1]
    assert done.stopped == "the game had ended before it"
