"""What a solitaire dice game must tell the coach: its states and, per state, every legal box move.

A game model describes one player's sheet as a *turn-start state*: a row of small integers (which
boxes are filled as a bit mask, plus whatever the future score depends on — an upper sum, a bonus
flag, a section's zero entries). The coach's value table is an array of that ``shape``; a state is a
row of indices into it (or its flat index).

Two functions carry the rules, both vectorised over many states and checked against each other and
against the engine by the tests:

- ``box_values(states, values)``: for each box, roll and state, the points the move earns now (box,
  bonuses and penalties exactly as the engine's ``total()`` changes) plus the value of the state it
  leads to; ``-inf`` for a move the rules refuse. This is the build's inner loop.
- ``step(states, boxes, rolls)``: one move per state — its points (``-inf`` if refused) and the
  next state. Simulation and grading use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import numpy as np

from rules.dice_game import Sheet

__all__ = ["DiceModel"]


class DiceModel(Protocol):
    """A one-player dice game as the solver sees it (see the module docstring)."""

    @property
    def game(self) -> str:
        """The registered game name (``yahtzee``, ``poker_dice``)."""
        ...

    @property
    def boxes(self) -> tuple[str, ...]:
        """Box ids in sheet order; bit ``i`` of a state's mask is box ``i``."""
        ...

    @property
    def shape(self) -> tuple[int, ...]:
        """The value table's shape; the first axis is the box mask (``2 ** len(boxes)``)."""
        ...

    @property
    def signature(self) -> Mapping[str, object]:
        """The game and options the table is built for (stored with it, checked when loading)."""
        ...

    def level_states(self, filled: int) -> np.ndarray:
        """``(n, len(shape))``: every reachable state with ``filled`` boxes filled."""
        ...

    def box_values(self, states: np.ndarray, values: np.ndarray) -> np.ndarray:
        """``(len(boxes), 252, n)``: points now plus ``values`` of the next state (``-inf`` = refused)."""
        ...

    def step(self, states: np.ndarray, boxes: np.ndarray, rolls: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(points (n,), next states (n, len(shape)))`` of entering roll ``rolls[i]`` (an index in
        ``ROLLS``) in box ``boxes[i]`` from ``states[i]``; points ``-inf`` where it is refused."""
        ...

    def state_of(self, sheet: Sheet) -> tuple[int, ...]:
        """The state of an engine sheet; ``ValueError`` if the sheet does not belong to this model."""
        ...
