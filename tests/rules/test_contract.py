"""The contract every registered game keeps (``rules.GameState``), checked over whole random games.

For each game of the registry: a game auto-played from several seeds is rebuilt exactly by
:func:`rules.replay` from its options and its actions; ``to_move`` is a seat or ``None`` at every step,
``None`` once the game is over, and the seat that moved is the one ``to_move`` named (or, for a seat's
own declaration like a Rummikub announcement, a seat of the game); ``outcome`` appears only at the end
and ranks every seat; every action survives its JSON round trip. Every registered action kind
round-trips too, the ones random games never play included.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import rules
from rules import Action, GameSpec, GameState, action_from_json, action_to_json
from rules.actions import action_kinds
from rules.dice import AmendRoll, Choose, Roll, RollDice
from rules.kalooki import parse_cards
from rules.rummikub import Meld, Tile

SEEDS = (1, 2, 3)
SEAT_ACTIONS = {"rummikub.announce", "rummikub.redeal"}  # a seat's declaration, at any time


def _recorded(spec: GameSpec, options: rules.Options, monkeypatch: pytest.MonkeyPatch) -> list[Action]:
    """The actions of ``spec.auto_play(options)``: each one applied to the game's current state (an
    auto-player may also try actions on copies, or run a shadow game; those are not the game's)."""
    current = spec.new_game(options)
    state_type = type(current)
    original: Callable[[Any, Action], Any] = state_type.apply
    taken: list[Action] = []

    def apply(self: Any, act: Action) -> Any:
        nonlocal current
        after = original(self, act)
        if self == current:
            taken.append(act)
            current = after
        return after

    monkeypatch.setattr(state_type, "apply", apply)
    try:
        spec.auto_play(options)
    finally:
        monkeypatch.undo()
    return taken


def _states(
    spec: GameSpec, options: rules.Options, actions: list[Action]
) -> Iterator[tuple[GameState, Action]]:
    state = spec.new_game(options)
    for act in actions:
        yield state, act
        state = state.apply(act)


@pytest.fixture(params=[spec.name for spec in rules.games()])
def spec(request: pytest.FixtureRequest) -> GameSpec:
    return rules.get_game(request.param)


@pytest.mark.parametrize("seed", SEEDS)
def test_replay_rebuilds_an_auto_played_game(
    spec: GameSpec, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = spec.options_type.preset("seed", players=min(3, spec.options_type.MAX_PLAYERS), seed=seed)
    actions = _recorded(spec, options, monkeypatch)
    final = spec.auto_play(options)
    assert actions, f"{spec.name}: the auto-played game took no action"
    assert rules.replay(options, actions) == final
    assert final.outcome is not None and final.to_move is None


@pytest.mark.parametrize("seed", SEEDS)
def test_to_move_names_the_seat_that_moves(
    spec: GameSpec, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = spec.options_type.preset("seed", players=min(3, spec.options_type.MAX_PLAYERS), seed=seed)
    actions = _recorded(spec, options, monkeypatch)
    players = options.players
    for state, act in _states(spec, options, actions):
        assert state.outcome is None, "an action was applied after the game was over"
        seat = state.to_move
        assert seat is None or 0 <= seat < players
        if type(act).kind in SEAT_ACTIONS:
            assert 0 <= act.seat < players  # type: ignore[attr-defined]
        else:
            assert seat is not None, f"{spec.name}: {act} applied while nobody was to move"


def test_outcome_only_at_the_end_and_over_means_nobody_moves(
    spec: GameSpec, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = spec.options_type.preset("seed", players=min(2, spec.options_type.MAX_PLAYERS), seed=7)
    actions = _recorded(spec, options, monkeypatch)
    state = spec.new_game(options)
    for act in actions:
        assert state.outcome is None
        state = state.apply(act)
    outcome = state.outcome
    assert outcome is not None and state.to_move is None
    assert len(outcome.scores) == len(outcome.places) == options.players
    assert min(outcome.places) == 1
    with pytest.raises(rules.IllegalAction) as refused:
        state.apply(actions[-1])
    assert refused.value.code in ("game_over", "deal_over")


@pytest.mark.parametrize("seed", SEEDS)
def test_every_action_of_a_game_round_trips_through_json(
    spec: GameSpec, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = spec.options_type.preset("seed", players=min(3, spec.options_type.MAX_PLAYERS), seed=seed)
    for act in _recorded(spec, options, monkeypatch):
        data = action_to_json(act)
        assert action_from_json(json.dumps(data)) == act
        assert data["kind"] == type(act).kind


# Actions random full-information games never play (referee mode, the owner's corrections).
EXAMPLES: list[Action] = [
    rules.rummikub.Start(2),
    rules.rummikub.Redeal(1),
    rules.rummikub.Announce(0),
    rules.rummikub.Timeout(manipulated=True),
    rules.rummikub.Draw(),
    rules.rummikub.Open((Meld.parse("R10 R11 R12"),)),
    rules.rummikub.Play((Meld.parse("R10 R11 R12"), Meld.parse("B5 K5 O5 J"))),
    rules.rummikub.Reveal(((Tile.parse("R1"), Tile.parse("J")), ())),
    rules.rummikub.RevealRack(1, (Tile.parse("K13"), Tile.parse("J"))),
    rules.rummikub.Extend(0),
    rules.rummikub.ShowRack(1, (Tile.parse("R1"), Tile.parse("J"))),
    rules.rummikub.TakeHint(1, 2),
    rules.rummikub.NextHand(),
    rules.kalooki.TurnUp(parse_cards("7H")[0]),
    rules.kalooki.RevealHand(1, tuple(parse_cards("AS KD JOKER"))),
    rules.kalooki.HandPoints(2, 46),
    rules.kalooki.DrawStock(),
    rules.kalooki.DrawDiscard(),
    rules.kalooki.Discard(parse_cards("QC")[0]),
    rules.zatre.Lay.parse("5|6@0,0H 0|4@0,1H"),
    rules.zatre.Show.parse("1|2 4|4 5|6"),
    rules.zatre.Pass(),
    rules.rummikub.puzzle.Answer((Meld.parse("R1 R2 R3 R4"),)),
    rules.rummikub.puzzle.NoMove(),
    RollDice(Roll.parse("4 3 4 5 1"), (0, 2)),
    AmendRoll(Roll.parse("4 3 4 6 1")),
    Choose("chance"),
]


@pytest.fixture(scope="module")
def played_kinds() -> dict[str, Action]:
    """One played action per kind, from an auto-played game of every registered game."""
    found: dict[str, Action] = {}
    for spec in rules.games():
        options = spec.options_type.preset("seed", players=min(3, spec.options_type.MAX_PLAYERS), seed=1)
        with pytest.MonkeyPatch.context() as mp:
            for act in _recorded(spec, options, mp):
                found.setdefault(type(act).kind, act)
    return found


@pytest.mark.parametrize("kind", sorted(k for k in action_kinds() if not k.startswith("test.")))
def test_every_action_kind_round_trips(kind: str, played_kinds: dict[str, Action]) -> None:
    examples = [a for a in EXAMPLES if type(a).kind == kind]
    if kind in played_kinds:
        examples.append(played_kinds[kind])
    assert examples, f"no example of action kind {kind!r}: add one to EXAMPLES"
    for act in examples:
        assert action_from_json(action_to_json(act)) == act
