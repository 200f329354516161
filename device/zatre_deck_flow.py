"""The owner's deck count for Zatre: the box's 50 cards laid face up a batch at a time, read by the
camera, counted into a manifest (``device.zatre_deck``) that new games are dealt from.

Each phase is a small state (``device.states.State``, the sessions' kind) that owns its data and
answers the flow's three events — a settled reading of the table (a :class:`vision.zatre.LooseCards`:
:meth:`DeckState.seen`), *Add batch* (:class:`AddBatch`: :meth:`DeckState.add`) and *Undo last batch*
(:class:`UndoBatch`: :meth:`DeckState.undo`) — with the next state; the count's
``device.states.StateMachine`` makes and logs the transitions:

- :class:`Laying` — no batch to add: the table is empty, or still shows the batch just added (which
  is not read again until the table has been cleared or changed); *Undo last batch* takes the last
  batch off the count and shows the table as last read again (the batch undone, if it still lies
  there, is a batch to add again);
- :class:`BatchRead` — a batch lies there, read: its cards, the unsure ones outlined;
- :class:`Refused` — *Add batch* refused the batch: a card that cannot be read (named, outlined), or
  more cards than the 50 of a deck; nothing was counted;
- :class:`Complete` — 50 cards counted: *Save* writes the manifest (:meth:`DeckCount.save`).

:class:`DeckCount` holds the batches added so far and the current state; the screen
(``device.screens.zatre_deck``) draws the state it is given. Nothing here draws or reads a camera:
the readings come in as :class:`vision.zatre.LooseCards`.

>>> from vision.zatre import LooseCards, SeenCard
>>> def card(a, b): return SeenCard((a, b), (0.0, 0.0), 10.0, ((0, 0), (1, 0), (1, 1), (0, 1)), 1.0)
>>> count = DeckCount()
>>> count.seen(LooseCards((card(3, 4), card(0, 6)))); count.state.name
'batch_read'
>>> count.add(); count.state.name, count.total
('laying', 2)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Literal, cast

from device.camera_view import GameReader
from device.states import State, StateMachine
from device.zatre_deck import Manifest, write_manifest
from rules.zatre import DECK_SIZE, Card
from vision.zatre import LooseCards, read_loose_cards

__all__ = [
    "DECK_READER",
    "AddBatch",
    "BatchRead",
    "Complete",
    "DeckCount",
    "DeckState",
    "Laying",
    "Refused",
    "UndoBatch",
]

DECK_READER: GameReader[LooseCards] = GameReader(read_loose_cards)  # the camera's reader during the count

RefusalKind = Literal["unreadable", "too_many", "nothing"]


@dataclass(frozen=True)
class AddBatch:
    """*Add batch* pressed."""


@dataclass(frozen=True)
class UndoBatch:
    """*Undo last batch* pressed."""


class DeckState(State["DeckCount"]):
    """One phase of the deck count. The default answers: a reading shows a batch (or an empty table),
    *Add batch* does nothing, *Undo* takes the last batch off."""

    name: ClassVar[str] = ""

    def handle(self, session: DeckCount, event: object) -> DeckState | None:
        """The next state for a reading, *Add batch* or *Undo* (``None``: this one stays)."""
        if isinstance(event, LooseCards):
            after = self.seen(session, event)
        elif isinstance(event, AddBatch):
            after = self.add(session)
        elif isinstance(event, UndoBatch):
            after = self.undo(session)
        else:
            return None
        return None if after is self else after

    def seen(self, count: DeckCount, reading: LooseCards) -> DeckState:
        return count.after_reading(reading)

    def add(self, count: DeckCount) -> DeckState:
        return self

    def undo(self, count: DeckCount) -> DeckState:
        """The last batch off the count; the cards on the table are read again (the batch just undone,
        if it still lies there, can be added again)."""
        if not count.batches:
            return self
        count.batches.pop()
        table = count.table
        return Laying(undone=True) if table is None or table.empty else BatchRead(table)

    @property
    def batch(self) -> LooseCards | None:
        """The cards on the table this state shows, if any."""
        return None


@dataclass(frozen=True)
class Laying(DeckState):
    """Waiting for a batch. ``added``: the batch just added, still lying there (a reading of the same
    cards is not a new batch); ``undone``: the last batch was just taken back off the count."""

    name: ClassVar[str] = "laying"
    added: LooseCards | None = None
    undone: bool = False

    def seen(self, count: DeckCount, reading: LooseCards) -> DeckState:
        if self.added is not None and not reading.empty and reading.same_as(self.added):
            return self  # the batch just added, read again: take it away first
        return count.after_reading(reading)


@dataclass(frozen=True)
class BatchRead(DeckState):
    """A batch on the table, read; *Add batch* counts it or refuses it."""

    name: ClassVar[str] = "batch_read"
    reading: LooseCards = field(default_factory=lambda: LooseCards(()))

    @property
    def batch(self) -> LooseCards:
        return self.reading

    def add(self, count: DeckCount) -> DeckState:
        reading = self.reading
        if reading.uncertain:
            return Refused(reading, "unreadable")
        size = len(reading.cards)
        if size == 0:
            return Refused(reading, "nothing")
        if count.total + size > DECK_SIZE:
            return Refused(reading, "too_many")
        count.batches.append(reading.counts())
        if count.total == DECK_SIZE:
            return Complete()
        return Laying(added=reading)


@dataclass(frozen=True)
class Refused(DeckState):
    """*Add batch* refused the batch on the table (nothing counted): ``why`` is ``unreadable`` (the
    unsure cards are the reading's ``uncertain``), ``too_many`` (it would make more than 50) or
    ``nothing`` (no card read). Pressing again refuses again; a new reading moves on."""

    name: ClassVar[str] = "refused"
    reading: LooseCards = field(default_factory=lambda: LooseCards(()))
    why: RefusalKind = "unreadable"

    @property
    def batch(self) -> LooseCards:
        return self.reading


@dataclass(frozen=True)
class Complete(DeckState):
    """50 cards counted: ready to save. ``saved``: the manifest written (``None`` until then);
    ``error``: why it could not be written (the count is kept: press *Save* again)."""

    name: ClassVar[str] = "complete"
    saved: Manifest | None = None
    error: str = ""

    def seen(self, count: DeckCount, reading: LooseCards) -> DeckState:
        return self  # the count is whole: more cards on the table are not a batch


class DeckCount:
    """The batches counted so far (each a count per card, ``key`` form), the last reading of the table,
    and the phase the count is in (its state machine's state)."""

    def __init__(self) -> None:
        self.batches: list[Counter[Card]] = []
        self.table: LooseCards | None = None  # the last reading of the table
        self.machine: StateMachine[DeckCount] = StateMachine(self, Laying(), name="zatre deck count")

    @property
    def state(self) -> DeckState:
        return cast(DeckState, self.machine.state)

    @property
    def total(self) -> int:
        return sum(sum(batch.values()) for batch in self.batches)

    def counts(self) -> Counter[Card]:
        """Every card counted so far."""
        counts: Counter[Card] = Counter()
        for batch in self.batches:
            counts.update(batch)
        return counts

    def value_counts(self) -> Counter[int]:
        """How many halves of each value 0–6 the cards counted so far have."""
        values: Counter[int] = Counter()
        for card, n in self.counts().items():
            values[card.first] += n
            values[card.second] += n
        return values

    def after_reading(self, reading: LooseCards) -> DeckState:
        """The state a reading leads to while the count is open: a batch to add, or laying."""
        if reading.empty:
            return Laying()
        return BatchRead(reading)

    # --- the events ----------------------------------------------------------------------------------

    def seen(self, reading: LooseCards) -> None:
        self.table = reading
        self.machine.handle(reading)

    def add(self) -> None:
        self.machine.handle(AddBatch())

    def undo(self) -> None:
        self.machine.handle(UndoBatch())

    def save(self, path: str | Path, name: str) -> Manifest | None:
        """Write the 50 cards to the manifest at ``path`` (atomically; the previous one kept beside it);
        only when complete. Returns the manifest, or ``None`` (not complete, or the write failed: the
        state says why and the count is kept)."""
        if not isinstance(self.state, Complete):
            return None
        try:
            manifest = write_manifest(path, self.counts(), name)
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.machine.go(Complete(error=f"{path}: {reason}"), cause="Save")
            return None
        self.machine.go(Complete(saved=manifest), cause="Save")
        return manifest
