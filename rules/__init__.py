"""The rule engine: pure, deterministic game states, actions, scoring and solvers. No I/O, no clock.

Public names: the error hierarchy (:class:`RulesError`: :class:`NotationError` for text that does not
parse, :class:`IllegalAction` for a refused move, :class:`OptionError`), actions and their JSON form,
options with presets, outcomes, the registry of games, :func:`replay`, and one module per game (the
conformance API of RULES.md).
"""

from rules import kalooki, poker_dice, rummikub, yahtzee, zatre
from rules.actions import (
    Action,
    action,
    action_from_json,
    action_to_json,
    actions_from_json,
    actions_to_json,
)
from rules.errors import IllegalAction, NotationError, OptionError, RulesError
from rules.options import Options
from rules.outcome import Outcome, Termination, places
from rules.registry import (
    LANGUAGES,
    GameSpec,
    GameState,
    Replayed,
    find_game,
    game_of,
    games,
    get_game,
    register,
    replay,
    replay_prefix,
)

__all__ = [
    "LANGUAGES",
    "Action",
    "GameSpec",
    "GameState",
    "IllegalAction",
    "NotationError",
    "OptionError",
    "Options",
    "Outcome",
    "Replayed",
    "RulesError",
    "Termination",
    "action",
    "action_from_json",
    "action_to_json",
    "actions_from_json",
    "actions_to_json",
    "find_game",
    "game_of",
    "games",
    "get_game",
    "kalooki",
    "places",
    "poker_dice",
    "register",
    "replay",
    "replay_prefix",
    "rummikub",
    "yahtzee",
    "zatre",
]
