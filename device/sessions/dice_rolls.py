"""What a roll is: when a settled reading of the dice on the table counts as a throw.

A roll is counted only when the dice in the rolling area were thrown — they left their places and
settled again. Each settled reading is compared with the *scene*: the five dice as they last lay on the
table, each tied to its position (slot) in the current roll, so the screen's die 2 is the table's die 2.

Comparing a reading with the scene, die by die:

- **still**: a die at the same place (within ``STILL`` × its size) showing the same value (or a value the
  reader is unsure of: the die did not move, the reading wobbled);
- each die that is not still is paired with a die of the scene that is gone, by value, nearest first:
  - **transfer**: paired across the edge of the hold zone — a die held or given back, never a throw;
  - **nudge**: paired in the same zone, within ``NUDGE`` × its size — straightened, nudged, or taken out
    and put back;
  - **shifted**: paired in the same zone, farther away;
- **changed**: a die that left its place showing a value no die that left had;
- **flipped**: a die at its place showing another value (turned by hand, or a misread).

The *thrown* dice are the shifted and changed dice of the rolling area. Then:

- two or more thrown dice: a **roll** (the dice were picked up or moved together; a re-roll that happens
  to show the same values counts, since they moved);
- one thrown die that is the only die in the rolling area: a **roll** if its value changed; if it shows
  the same value the device **asks** (a one-die re-roll and a die put back elsewhere look alike);
- one thrown die while the other dice of the rolling area lay still: **same** if it shows the same value
  (taken out and put back), else **ask**;
- no thrown die: **same** — holds, nudges, a hand passing over; a flipped die **asks**;
- frames were lost since the scene (the camera dropped out): anything that changed **asks**.

A reading of fewer or more than five dice (a hand lifting some) is **incomplete** and leaves the scene as
it was. The first reading after a start or a resume is the **current** roll, never a new one. A new
game takes it from the camera at the moment of Start (a ``Seen`` of kind ``"start"``, see ``App.start_game``):
the dice as they lie then, or no dice when the tray is empty or the dice are moving — so a throw right
after Start settles against that and is a roll. Between turns the first reading is the dice left by the
previous player; in the middle of a turn it must show the journal's
roll, and the device asks when it does not. A reading without positions (the players' own entry on the
correction screen) is their statement that the dice were rolled.

>>> scene = Scene.first(place([3, 3, 5, 1, 6]))
>>> judge(scene, place([3, 3, 5, 1, 6]), roll=None).kind
'same'
>>> judge(scene, place([3, 3, 5, 1, 6], dx=300), roll=None).kind
'roll'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from device.sessions.dice_events import SeenDie
from rules.dice import Roll

__all__ = ["DICE", "NUDGE", "STILL", "Placed", "Scene", "Verdict", "as_roll", "judge", "place", "roll_of"]

DICE = 5
STILL = 0.5  # die sizes: a die within this distance of its place has not moved
NUDGE = 1.5  # die sizes: a die paired within this distance was nudged or put back, not thrown

Kind = Literal["roll", "same", "ask", "incomplete", "current"]


@dataclass(frozen=True)
class Placed:
    """A die of the scene and the slot of the current roll it stands for (``None``: not yet known)."""

    die: SeenDie
    slot: int | None


@dataclass(frozen=True)
class Scene:
    """The dice as they last lay complete on the table."""

    dice: tuple[Placed, ...]

    @classmethod
    def first(cls, dice: Sequence[SeenDie], roll: Roll | None = None) -> Scene:
        """The scene of a first reading: slots by value when ``roll`` is the turn's roll (held dice
        first), none before the turn's first roll."""
        if roll is None:
            return cls(tuple(Placed(d, None) for d in dice))
        free = list(range(len(roll.values)))
        placed = []
        for die in sorted(dice, key=lambda d: not d.held):
            slot = next((p for p in free if roll.values[p] == die.value), None)
            if slot is not None:
                free.remove(slot)
            placed.append(Placed(die, slot))
        return cls(tuple(placed))

    def slot_of(self, center: tuple[float, float]) -> int | None:
        """The slot of the scene's die nearest ``center`` (within a die size), for the simulator's keys."""
        best: tuple[float, int | None] = (math.inf, None)
        for p in self.dice:
            if p.die.center is None:
                continue
            d = _distance(p.die.center, center)
            if d < max(p.die.size, 1.0) and d < best[0]:
                best = (d, p.slot)
        return best[1]

    def held_slots(self) -> tuple[int, ...]:
        """The slots whose dice now lie in the hold zone (what the player is about to hold)."""
        return tuple(sorted(p.slot for p in self.dice if p.die.held and p.slot is not None))


@dataclass(frozen=True)
class Verdict:
    """What a reading means: ``kind``, a reason in English for the log and the tests, and the scene
    the reading leaves (for a roll: the dice in their new slots, ``held`` the held slots)."""

    kind: Kind
    reason: str
    scene: Scene | None = None
    held: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"{self.kind}: {self.reason}"


def place(
    values: Sequence[int], held: Sequence[int] = (), *, dx: float = 0.0, size: float = 100.0
) -> list[SeenDie]:
    """Dice laid out in a row, ``held`` ones below in the hold zone; ``dx`` shifts the rolling ones (for
    examples and tests).

    >>> [str(d) for d in place([1, 2, 3], held=[1])]
    ['1', '[2]', '3']
    """
    return [
        SeenDie(
            v,
            held=i in held,
            center=(200.0 * i + 100 if i in held else 200.0 * i + 100 + dx, 620.0 if i in held else 200.0),
            size=size,
        )
        for i, v in enumerate(values)
    ]


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _complete(dice: Sequence[SeenDie]) -> bool:
    return len(dice) == DICE


def judge(scene: Scene | None, dice: Sequence[SeenDie], *, roll: Roll | None, gap: bool = False) -> Verdict:
    """The verdict on a settled reading ``dice`` against ``scene`` (``None``: the first reading since a
    start or resume). ``roll`` is the turn's current roll (``None`` before its first roll); ``gap``: the
    camera lost frames since the scene was seen.

    A roll's verdict has the new scene and the held slots; without positions in the reading (the
    players' entry) it has no scene, and the held dice are matched by value alone
    (:func:`device.sessions.dice.roll_from_seen`)."""
    dice = tuple(dice)
    if not _complete(dice):
        if scene is None and roll is None:
            # Between turns the table had no five dice: whatever lands next was thrown.
            return Verdict("incomplete", f"{len(dice)} dice seen, not {DICE}", Scene(()))
        return Verdict("incomplete", f"{len(dice)} dice seen, not {DICE}", scene)
    if any(d.center is None for d in dice):
        return Verdict("roll", "entered by the players")
    if scene is None or (scene.dice and any(p.die.center is None for p in scene.dice)):
        first = Scene.first(dice, roll)
        if roll is None:
            return Verdict("current", "the first reading: the dice as they lie", first)
        if sorted(d.value or 0 for d in dice) == sorted(roll.values) and all(
            p.slot is not None for p in first.dice
        ):
            return Verdict("current", "the first reading shows the turn's roll", first)
        return Verdict("ask", f"the dice on the table are not the roll {roll}", first)
    partner: list[Placed | None] = [None] * DICE
    gone = list(scene.dice)
    # Still dice first: a die at its place with its value is itself, whatever else moved.
    for i, die in enumerate(dice):
        near = [p for p in gone if _same_place(die, p) and _same_value(die, p)]
        if near:
            best = min(near, key=lambda p: _distance(p.die.center or (0, 0), die.center or (0, 0)))
            partner[i] = best
            gone.remove(best)
    moved = [i for i in range(DICE) if partner[i] is None]
    # Then the dice that left their place, paired by value with the dice that are gone, nearest first;
    # dice in the hold zone first, since a held die must keep the slot it came from (a thrown die that
    # happens to show its value must not take its partner).
    pairs = sorted(
        (not dice[i].held, _distance(dice[i].center or (0, 0), p.die.center or (0, 0)), i, k)
        for i in moved
        for k, p in enumerate(gone)
        if p.die.value == dice[i].value
    )
    thrown: list[int] = []
    used: set[int] = set()
    for _, distance, i, k in pairs:
        if partner[i] is not None or k in used:
            continue
        p = gone[k]
        partner[i] = p
        used.add(k)
        if p.die.held == dice[i].held and distance > NUDGE * _size(dice[i], p) and not dice[i].held:
            thrown.append(i)
    changed = [i for i in moved if partner[i] is None]
    # A changed die at the place of a die that is gone was turned where it lay (by hand, or misread).
    flipped = [
        i for i in changed if any(_same_place(dice[i], gone[k]) for k in range(len(gone)) if k not in used)
    ]
    thrown += [i for i in changed if not dice[i].held]
    slots = [p.slot if p is not None else None for p in partner]
    rolling = [i for i in range(DICE) if not dice[i].held]
    if not moved:
        return Verdict("same", "no die left its place", _scene(scene, dice, slots))
    if gap:
        return Verdict("ask", "the camera lost frames while the dice moved", _scene(scene, dice, slots))
    if len(thrown) >= 2:
        return _roll(dice, slots, f"{len(thrown)} dice thrown", later=roll is not None)
    if len(thrown) == 1:
        i = thrown[0]
        if rolling == [i] and i in changed and i not in flipped:
            return _roll(dice, slots, "the one die in the rolling area was thrown", later=roll is not None)
        if rolling == [i] and i not in changed:
            reason = "the one die in the rolling area moved and shows the same value"
            return Verdict("ask", reason, _scene(scene, dice, slots))
        if i in changed:
            reason = "one die shows another value while the others lay still"
            return Verdict("ask", reason, _scene(scene, dice, slots))
        return Verdict("same", "one die taken out and put back", _scene(scene, dice, slots))
    if changed:
        return Verdict("ask", "a held die shows another value", _scene(scene, dice, slots))
    return Verdict("same", "dice held, given back or nudged", _scene(scene, dice, slots))


def _same_place(die: SeenDie, other: Placed) -> bool:
    if die.center is None or other.die.center is None:
        return False
    return _distance(die.center, other.die.center) <= STILL * _size(die, other)


def _same_value(die: SeenDie, other: Placed) -> bool:
    return die.value == other.die.value or die.uncertain or other.die.uncertain


def _size(die: SeenDie, other: Placed) -> float:
    return max(die.size, other.die.size, 1.0)


def _scene(scene: Scene, dice: Sequence[SeenDie], slots: Sequence[int | None]) -> Scene:
    """The reading as the new scene, each die keeping the slot of the die it was paired with."""
    return Scene(tuple(Placed(d, s) for d, s in zip(dice, slots, strict=True)))


def as_roll(verdict: Verdict, *, later: bool) -> Verdict:
    """The players said a reading the device asked about was a roll: the same reading as a throw."""
    if verdict.scene is None:
        raise ValueError(f"no reading to count as a roll in {verdict}")
    dice = [p.die for p in verdict.scene.dice]
    return _roll(dice, [p.slot for p in verdict.scene.dice], "the players said so", later=later)


def _roll(dice: Sequence[SeenDie], slots: Sequence[int | None], reason: str, *, later: bool) -> Verdict:
    """A throw: held dice keep the slots they came from, the rest fill the free slots left to right (the
    first roll of a turn throws every die, whatever lies in the hold zone)."""
    new: list[int | None] = [None] * DICE
    taken: set[int] = set()
    if later:
        for i, die in enumerate(dice):
            if die.held and slots[i] is not None and slots[i] not in taken:
                new[i] = slots[i]
                taken.add(slots[i])  # type: ignore[arg-type]
    held = tuple(sorted(s for s in new if s is not None))
    order = sorted(
        (i for i in range(DICE) if new[i] is None),
        key=lambda i: (not (later and dice[i].held), (dice[i].center or (float(i), 0.0))[0]),
    )
    free = iter(s for s in range(DICE) if s not in taken)
    held_unmatched = []
    for i in order:
        new[i] = next(free)
        if later and dice[i].held:
            held_unmatched.append(new[i])
    placed = Scene(tuple(Placed(d, s) for d, s in zip(dice, new, strict=True)))
    return Verdict(
        "roll", reason, placed, tuple(sorted((*held, *(s for s in held_unmatched if s is not None))))
    )


def roll_of(verdict: Verdict) -> Roll:
    """The roll a verdict's scene shows, slot by slot (every die must have a value)."""
    assert verdict.scene is not None
    values: list[int] = [0] * DICE
    for p in verdict.scene.dice:
        if p.slot is None or p.die.value is None:
            raise ValueError(f"die {p.die} has no slot or value")
        values[p.slot] = p.die.value
    return Roll(tuple(values))
