"""The dynamic programme over the numbers 1..13: its steps' moves and its optimistic bounds.

After van Rijn, Takes and Vis ("The complexity of Rummikub problems", 2015). Runs are tracked per
colour by the lengths of the runs still open at the current number (1, 2 or "3 = may end here");
groups live at one number, so they are decided there. Within a number the colours are visited one
by one, carrying only how many natural tiles went to groups so far and whether some colour gave
two — enough to decide, at the end of the number, whether they split into valid groups (see
:func:`groups_fit`). Jokers are a shared budget of at most two; a joker fills any slot of a run or
a group and is worth that slot's number.

Every tile is either *table* (must be placed) or *rack* (may be placed). A move's gain is
``count_weight × rack tiles placed + unit × value placed``. Moves that lead only to nodes without a
completion — a short run that the next two numbers cannot grow to three, groups that the number's
remaining tiles cannot fill — are never generated. The searches over it are in
:mod:`~rules.rummikub.partition.search` and :mod:`~rules.rummikub.partition.keeping`. ``core.c``
makes the same moves in C (its ``colour_moves``, ``group_moves``, ``can_grow``, ``groups_fit``),
from :func:`colour_options` handed over: a change to a move here is a change there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from rules.rummikub.partition.key import (
    COLOUR_STATE,
    GROUPED,
    JOKERS,
    MATURE,
    NC,
    PAIR,
    STATE_ID,
    STATES,
    STEPS,
    Key,
    RunState,
    reads,
    settled,
)
from rules.rummikub.tiles import NUMBERS

__all__ = ["Choice", "Delta", "Found", "Problem", "groups_fit"]

# A step's choice: for a colour (new run state, jokers in runs, naturals to groups, naturals in
# runs); at the end of a number, the jokers that join its groups. When keeping old melds, a
# colour's choice also names those it keeps from that step on (a mask).
Choice = tuple[RunState, int, int, int] | tuple[RunState, int, int, int, int] | int
Found = tuple[int, list[Choice]]  # an arrangement: its score and every step's choice
Delta = tuple[int, int, Choice]  # a move as a key difference, its gain and its choice
_Growing = tuple[tuple[RunState, int, int, int], int, int]  # a colour's option, its key difference, gain


def groups_fit(naturals: int, has_pair: bool, jokers: int) -> int | None:
    """How many groups ``naturals`` tiles of one number plus ``jokers`` form, or ``None`` if they
    cannot be split into groups of 3–4 distinct colours each holding a natural tile.

    ``has_pair``: some colour gives two tiles, so they need two different groups. Dealing the tiles
    colour by colour round-robin over the groups keeps each group's colours distinct and the sizes
    within one of each other, so the counts alone decide.

    >>> groups_fit(3, False, 0), groups_fit(2, True, 1), groups_fit(5, True, 1)
    (1, None, 2)
    """
    total = naturals + jokers
    if total == 0:
        return 0
    for count in range(2 if has_pair else 1, naturals + 1):
        if 3 * count <= total <= 4 * count:
            return count
    return None


@cache
def colour_options(
    state: RunState, available: int, must: int, jokers_left: int
) -> tuple[tuple[RunState, int, int, int], ...]:
    """Choices for one colour at one number: (new state, jokers in runs, naturals to groups,
    naturals in runs). Open runs shorter than 3 must go on; mature runs may end."""
    young = [length for length in state if length < MATURE]
    mature = len(state) - len(young)
    grown = [min(length + 1, MATURE) for length in young]
    options = []
    for kept in range(mature + 1):
        # Starting a run while a mature run of the same colour ends here is never better than
        # letting that run go on, so new runs start only when every mature run continues.
        for started in range(1 if kept < mature else available + jokers_left + 1):
            slots = len(young) + kept + started
            if slots > available + jokers_left:
                break
            new_state = tuple(sorted([*grown, *[MATURE] * kept, *[1] * started]))
            for in_runs_jokers in range(min(jokers_left, slots) + 1):
                in_runs = slots - in_runs_jokers
                if in_runs > available:
                    continue
                for to_groups in range(available - in_runs + 1):
                    if in_runs + to_groups >= must:
                        options.append((new_state, in_runs_jokers, to_groups, in_runs))
    # Most tiles first: the order in which the searches try them (every gain grows with them).
    options.sort(key=lambda o: -(o[1] + o[2] + o[3]))
    return tuple(options)


_RADIX, _JOKERS, _GROUPED = len(STATES), JOKERS.place, GROUPED.place
assert (PAIR.place, PAIR.radix, GROUPED.radix, JOKERS.radix) == (1, 2, 9, 3)  # as colour_deltas reads them


@dataclass(frozen=True)
class Problem:
    """One question to the programme: the tiles (``available`` by colour and number, of which
    ``must`` are table tiles), the jokers (``table_jokers`` of them must be placed) and the gains."""

    available: list[list[int]]
    must: tuple[tuple[int, ...], ...]
    jokers: int
    table_jokers: int
    count_weight: int
    unit: int = 1  # the weight of one point of value (more than the number of old melds when keeping)
    values: tuple[int, ...] = tuple(range(14))  # a tile's value by its number (see suffix_bounds)
    # Each step's moves as key differences, by the part of the key the step reads and the order
    # (see deltas): shared by every search of this problem.
    _deltas: dict[int, list[Delta]] = field(default_factory=dict, compare=False, repr=False)
    # A colour's options that can grow, by what they depend on (see colour_deltas).
    _growing: dict[int, tuple[int, list[_Growing], list[_Growing]]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def ahead(self) -> list[int]:
        """``[step]``: what the steps from that one on may add besides tiles (kept melds' counts)."""
        return [0] * (len(STEPS) + 1)

    def optimism(self) -> list[list[int]]:
        """``[step][jokers left]``: an upper bound of what the steps from that one on add at a
        node that has that many jokers left. Counted: the table tiles' values; value plus tile
        weight for each rack tile that fits some meld without a joker; each joker left as a
        tile worth 13; and the rack tiles that fit only melds holding a joker.

        Of the latter, a joker lets in at most two tiles on each side of it in a run (a tile
        farther along fits a run without it) or two partners in a group: so at number n at most
        ``4 × jokers`` of them among numbers n..n + 2 (reachable from jokers already laid at n
        or before), and at most ``4 × jokers left`` beyond.
        """
        free = [0] * (len(STEPS) + 1)
        # helped[left][n]: gains of the rack tiles of number n that fit with ``left`` jokers, not fewer
        helped: list[list[list[int]]] = [[[] for _ in range(16)] for _ in range(self.jokers + 1)]
        for i in range(len(STEPS) - 1, -1, -1):
            n, c = STEPS[i]
            free[i] = free[i + 1]
            if c == NC:
                continue
            must = self.must[c][n]
            spare = self.available[c][n] - must
            gain = self.unit * self.values[n] + self.count_weight
            fewest = next((left for left in range(self.jokers + 1) if self._placeable(c, n, left)), None)
            free[i] += self.unit * self.values[n] * must + (gain * spare if fewest == 0 else 0)
            if fewest:
                helped[fewest][n] += [gain] * spare
        joker_best = 13 * self.unit + self.count_weight
        by_number: dict[int, list[int]] = {}
        for n in NUMBERS:
            close = sorted(
                (g for left in range(1, self.jokers + 1) for x in range(n, n + 3) for g in helped[left][x]),
                reverse=True,
            )
            by_number[n] = [
                sum(close[: 4 * self.jokers])
                + sum(
                    sorted(
                        (g for k in range(1, left + 1) for x in range(n + 3, 14) for g in helped[k][x]),
                        reverse=True,
                    )[: 4 * left]
                )
                + left * joker_best
                for left in range(self.jokers + 1)
            ]
        ahead = self.ahead()
        bounds = [[free[i] + ahead[i] + extra for extra in by_number[n]] for i, (n, _) in enumerate(STEPS)]
        bounds.append([left * joker_best for left in range(self.jokers + 1)])
        return bounds

    def _placeable(self, c: int, n: int, jokers: int) -> bool:
        """Whether some run or group could hold tile (c, n) with at most ``jokers`` jokers."""
        available = self.available
        for low in range(max(1, n - 2), min(n, 11) + 1):
            missing = sum(1 for x in range(low, low + 3) if x != n and not available[c][x])
            if missing <= jokers:
                return True
        partners = sum(1 for other in range(NC) if other != c and available[other][n])
        return partners + jokers >= 2

    def deltas(self, index: int, key: Key, late: bool = False) -> list[Delta]:
        """The moves of step ``index`` from node ``key`` as (key difference, gain, choice): the
        same for every node that agrees on what the step reads, so computed once for them. In the
        order of :meth:`step_deltas` (the most tiles first), or with ``late`` the jokers' moves
        last (then the jokers go as late, so as high, as the arrangement allows)."""
        memo = (self.reads(index, key) * len(STEPS) + index) * 2 + late
        found = self._deltas.get(memo)
        if found is None:
            found = self._deltas[memo] = self.step_deltas(index, key, late)
        return found

    def reads(self, index: int, key: Key) -> int:
        """The part of ``key`` that step ``index`` reads (nodes that agree on it have the same
        moves, as key differences)."""
        return reads(index, key)

    def step_deltas(self, index: int, key: Key, late: bool = False) -> list[Delta]:
        """The moves of step ``index`` from node ``key``, as (key difference, gain, choice), not
        remembered (:meth:`deltas` remembers them); ``late`` as there."""
        n, c = STEPS[index]
        if c == NC:
            return self.group_deltas(n, key, late)
        return self.colour_deltas(n, c, key, self.available[c][n], self.must[c][n], late)

    def colour_deltas(self, n: int, c: int, key: Key, k: int, m: int, late: bool = False) -> list[Delta]:
        """Colour c's moves at number n with ``k`` tiles of which ``m`` must be placed, as key
        differences; most tiles first, or with ``late`` the fewest jokers first."""
        # The fields of the key, read inline: this is where the searches spend their time.
        place = COLOUR_STATE[c].place
        state = key // place % _RADIX
        used = key // _JOKERS % 3
        pair = key % 2
        grouped = key // _GROUPED % 9
        left = self.jokers - used
        memo = ((((state * 14 + n) * NC + c) * 3 + k) * 3 + m) * 3 + left
        known = self._growing.get(memo)
        if known is None:
            # Natural tiles the later colours could still give to this number's groups.
            later = sum(self.available[other][n] for other in range(c + 1, NC))
            growing = self._growing_options(n, c, state, k, m, left)
            # Stable: of the same jokers, still the most tiles first.
            known = (later, growing, sorted(growing, key=lambda g: (g[0][1], -g[2])))
            self._growing[memo] = known
        later, growing, jokers_late = known
        moves: list[Delta] = []
        for option, delta, gain in jokers_late if late else growing:
            _, run_jokers, to_groups, _ = option
            if grouped + to_groups and grouped + to_groups + later + left - run_jokers < (
                6 if pair or to_groups == 2 else 3
            ):
                continue  # too few tiles left for this number's groups
            moves.append((delta + PAIR.place if to_groups == 2 and not pair else delta, gain, option))
        return moves

    def _growing_options(self, n: int, c: int, state: int, k: int, m: int, left: int) -> list[_Growing]:
        """Colour c's options at number n from run state ``state`` (an id) with ``left`` jokers
        left, without the runs that cannot grow to three: (option, its key difference but the
        pair flag, its gain). The same for every node that agrees on those, so kept.

        The gain: the value of the tiles laid and the tile weight for each beyond the ``m`` table
        tiles (jokers weigh as placed tiles)."""
        place = COLOUR_STATE[c].place
        worth = self.unit * self.values[n]
        growing = []
        for option in colour_options(STATES[state], k, m, left):
            _, run_jokers, to_groups, in_runs = option
            if not self._can_grow(c, n, option[0], left - run_jokers):
                continue
            laid = run_jokers + to_groups + in_runs
            delta = (STATE_ID[option[0]] - state) * place + run_jokers * _JOKERS + to_groups * _GROUPED
            growing.append((option, delta, worth * laid + self.count_weight * (laid - m)))
        return growing

    def _can_grow(self, c: int, n: int, state: RunState, jokers: int) -> bool:
        """Whether the open runs shorter than three in ``state`` (colour c, after number n) can
        reach three with the tiles of that colour at n + 1 and n + 2 and at most ``jokers``
        jokers. A run that cannot is dropped at once rather than carried through the other
        colours' steps, where it would multiply the nodes."""
        short = [length for length in state if length < MATURE]
        if not short:
            return True
        if n == NUMBERS[-1]:
            return False
        available = self.available[c]
        missing = max(0, len(short) - available[n + 1])  # jokers needed at n + 1
        if missing > jokers:
            return False
        ones = short.count(1)
        if not ones:
            return True
        return n + 1 < NUMBERS[-1] and ones - available[n + 2] <= jokers - missing

    def group_deltas(self, n: int, key: Key, late: bool = False) -> list[Delta]:
        """The end of number n: how many jokers join the groups of its tiles given to groups, as
        key differences; the most jokers first, or with ``late`` the fewest."""
        used = JOKERS.of(key)
        grouped = GROUPED.of(key)
        pair = PAIR.of(key)
        reset = -grouped * GROUPED.place - pair * PAIR.place
        counts = range(self.jokers - used + 1) if late else range(self.jokers - used, -1, -1)
        return [
            (
                reset + group_jokers * JOKERS.place,
                (self.unit * self.values[n] + self.count_weight) * group_jokers,
                group_jokers,
            )
            for group_jokers in counts
            if groups_fit(grouped, bool(pair), group_jokers) is not None
        ]

    def complete(self, key: Key) -> bool:
        """Every table joker placed and no run left shorter than three."""
        return JOKERS.of(key) >= self.table_jokers and settled(key)
