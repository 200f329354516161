"""What every reader returns: an :class:`Observation` of :class:`Item` s (dice, tiles, cards), typed so
that the device's settle tracker, vision worker and camera panel work for any game.

An item says what was read as text (``label``: ``"5"``, ``"R7"``), where it lies (``center`` and
``size`` in frame pixels) and in which named zone of the calibration (``zone``: ``"hold"`` for a die
in the hold zone, ``None`` elsewhere). An observation lists its items, indexes the uncertain ones, says
whether the table is ``empty``, and whether another reading shows the same scene (``same_as``: what
"the reading stopped changing" means for its game).

>>> from vision.dice import DiceObservation, Die
>>> first = DiceObservation((Die(5, (100.0, 80.0), 60.0, 0.0, 0.99),))
>>> isinstance(first, Observation), [item.label for item in first.items], first.empty
(True, ['5'], False)
>>> first.same_as(DiceObservation((Die(5, (104.0, 80.0), 60.0, 3.0, 0.97),)))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, Self, runtime_checkable

__all__ = ["Item", "MarksUnsure", "Observation"]


@runtime_checkable
class Item(Protocol):
    @property
    def label(self) -> str: ...

    @property
    def center(self) -> tuple[float, float]: ...

    @property
    def size(self) -> float: ...

    @property
    def zone(self) -> str | None: ...


@runtime_checkable
class Observation(Protocol):
    @property
    def items(self) -> Sequence[Item]: ...

    @property
    def uncertain(self) -> tuple[int, ...]: ...

    @property
    def empty(self) -> bool: ...

    def same_as(self, other: Self) -> bool: ...


@runtime_checkable
class MarksUnsure(Protocol):
    """An observation whose ``uncertain`` indexes only some of its items (a Rummikub table's: the
    table's tiles, not the rack shown in its zone) says which of all its items are unsure."""

    @property
    def unsure_items(self) -> tuple[int, ...]: ...
