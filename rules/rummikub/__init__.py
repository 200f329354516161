"""Rummikub (RULES.md §3): tiles, melds, the turn check, scoring, the game state machine in
full-information and referee mode, and exact solvers (best opening, arrangement, best move).

The conformance API of RULES.md: :func:`parse_tiles`, :func:`meld_value`, :func:`best_opening`,
:func:`check_turn`, :func:`score_game`. One module per concern: ``tiles``, ``melds``, ``check``,
``scoring``, ``options``, ``actions``, ``state``, ``partition`` (the exact dynamic programme),
``opening``, ``arrange``, ``best_move``, ``game`` (registry entry).
"""

from rules.rummikub import puzzle  # noqa: F401 - registers the solo puzzles (rummikub_puzzle)
from rules.rummikub.actions import (
    Announce,
    Draw,
    Extend,
    NextHand,
    Open,
    Play,
    Redeal,
    Reveal,
    RevealRack,
    ShowRack,
    Start,
    TakeHint,
    Timeout,
)
from rules.rummikub.arrange import arrange
from rules.rummikub.best_move import Move, best_move
from rules.rummikub.check import check_turn
from rules.rummikub.game import SPEC, auto_play, describe
from rules.rummikub.melds import Meld, MeldLike, meld_value, read_meld
from rules.rummikub.opening import best_opening, can_open
from rules.rummikub.options import RummikubOptions
from rules.rummikub.scoring import rack_value, score_game
from rules.rummikub.state import RummikubState, new_game
from rules.rummikub.tiles import JOKER, Tile, full_set, parse_tiles

__all__ = [
    "JOKER",
    "SPEC",
    "Announce",
    "Draw",
    "Extend",
    "Meld",
    "MeldLike",
    "Move",
    "NextHand",
    "Open",
    "Play",
    "Redeal",
    "Reveal",
    "RevealRack",
    "RummikubOptions",
    "RummikubState",
    "ShowRack",
    "Start",
    "TakeHint",
    "Tile",
    "Timeout",
    "arrange",
    "auto_play",
    "best_move",
    "best_opening",
    "can_open",
    "check_turn",
    "describe",
    "full_set",
    "meld_value",
    "new_game",
    "parse_tiles",
    "rack_value",
    "read_meld",
    "score_game",
]
