"""The exact solver behind every Rummikub search: split tiles into melds, optimally.

A dynamic programme over the numbers 1..13, after van Rijn, Takes and Vis ("The complexity of
Rummikub problems", 2015). Runs are tracked per colour by the lengths of the runs still open at the
current number (1, 2 or "3 = may end here"); groups live at one number, so they are decided there.
Within a number the colours are visited one by one, carrying only how many natural tiles went to
groups so far and whether some colour gave two — enough to decide, at the end of the number, whether
they split into valid groups (see :func:`groups_fit`). Jokers are a shared budget of at most two;
a joker fills any slot of a run or a group and is worth that slot's number.

Every tile is either *table* (must be placed) or *rack* (may be placed). The objective is
``count_weight × rack tiles placed + value of the placed melds``; callers choose the weight
(0 for the pure value of an opening, large for "most tiles first, then value"). With rack tiles
only, the whole programme runs breadth-first (:meth:`_Problem.by_layers`). With table tiles its
nodes are many more: a depth-first search finds a first arrangement, then a memoised bounded
search (:class:`_Bounded`) computes nodes' best completions only as far as needed to beat it
(see :func:`solve`). Moves that lead only to nodes without a completion — a short run that the
next two numbers cannot grow to three, groups that the number's remaining tiles cannot fill — are
never generated. Every way computes the programme's optimum, so all are exact.

:func:`solve_keeping` answers the last question of a best move: of the arrangements as good as the
best, one that leaves the most old melds as they lie. The programme gets one more choice per old
meld (keep it or not, at its first tile) and a score in which every point outweighs all the melds,
and runs breadth-first towards a target: first narrowly (a beam) for a good target, then exactly
for anything better. A node goes when its optimism misses the target, when even the best points
leave too few melds to keep, or — when the optimism counts tiles that cannot be laid — when bounds
computed from the other end (:meth:`_Problem.suffix_bounds`) show it has already lost points.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from rules.rummikub.tiles import COLOURS, JOKER, NUMBERS, Tile

__all__ = ["Arrangement", "TileCounts", "groups_fit", "solve", "solve_keeping"]

MATURE = 3  # a run of three or more tiles may end at any number
MAX_COPIES = 2
MAX_JOKERS = 2
_NC = len(COLOURS)

RunState = tuple[int, ...]  # sorted lengths of the open runs of one colour, each 1, 2 or MATURE


@dataclass(frozen=True)
class TileCounts:
    """A multiset of tiles as counts: ``naturals[c][n]`` copies of colour ``COLOURS[c]``, number n."""

    naturals: tuple[tuple[int, ...], ...]
    jokers: int

    @classmethod
    def of(cls, tiles: Sequence[Tile]) -> TileCounts:
        counts = [[0] * 14 for _ in COLOURS]
        jokers = 0
        for t in tiles:
            if t.is_joker:
                jokers += 1
            else:
                counts[t.colour_index][t.number] += 1
        if jokers > MAX_JOKERS or any(k > MAX_COPIES for row in counts for k in row):
            raise ValueError("more copies of a tile than the 106-tile set holds")
        return cls(tuple(tuple(row) for row in counts), jokers)

    def __len__(self) -> int:
        return self.jokers + sum(sum(row) for row in self.naturals)


@dataclass(frozen=True)
class Arrangement:
    """An optimal split: the melds (runs ascending, then groups), the rack tiles placed, the score.

    From :func:`solve_keeping`: ``kept`` are the indices of the old melds left as they were (not
    among ``melds``), and ``score`` leaves out the count of them."""

    melds: tuple[tuple[Tile, ...], ...]
    placed: tuple[Tile, ...]
    score: int
    kept: tuple[int, ...] = ()


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
def _colour_options(
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


# A search node inside number n before colour c: the run states of every colour (colours < c
# already at n), jokers used so far, naturals given to groups at n, and whether a colour gave two
# — packed into one int (hashing it is what the searches do most): pair + 2·grouped + 18·jokers
# + 54·(state ids of the colours, in base len(_STATES)).
_Key = int
_STATES: list[RunState] = sorted(
    {
        tuple(sorted(lengths))
        for size in range(5)
        for lengths in itertools.product((1, 2, MATURE), repeat=size)
    }
)
_STATE_ID = {state: i for i, state in enumerate(_STATES)}
_SETTLED = {i for i, state in enumerate(_STATES) if all(length == MATURE for length in state)}
_GROUPED, _USED = 2, 18
_COLOUR_PLACE = [54 * len(_STATES) ** (_NC - 1 - c) for c in range(_NC)]
_KEY_BITS = 32  # every key is below 54 · len(_STATES) ** 4 < 2 ** 32
# Keeping old melds (solve_keeping): the kept ones still lying over the current number, as a bit
# mask above every other part of the key — a multiple of each part's place, so no part moves.
_MASK_UNIT = 54 * len(_STATES) ** _NC
_START: _Key = 0  # every colour in state () (id 0), no joker used, nothing grouped
# A step's choice: for a colour (new run state, jokers in runs, naturals to groups, naturals in
# runs); at the end of a number, the jokers that join its groups.
# When keeping old melds, a colour's choice also names those it keeps from that step on (a mask).
_Choice = tuple[RunState, int, int, int] | tuple[RunState, int, int, int, int] | int
_Move = tuple[_Key, int, _Choice]


def solve(
    table: TileCounts,
    rack: TileCounts,
    count_weight: int,
    *,
    first_only: bool = False,
    above: int | None = None,
) -> Arrangement | None:
    """Place every table tile and any rack tiles in valid melds, maximising
    ``count_weight × rack tiles placed + total meld value``; ``None`` if the table tiles cannot all
    be placed. Exact.

    With ``above``: the optimum if it scores more than that, else ``None`` — one demanding question
    to the memoised search, often much faster than the optimum itself.

    Rack tiles only: the whole programme, breadth-first. Otherwise two greedy depth-first
    searches find arrangements quickly (or prove there is none: nodes without a completion are
    remembered); with ``first_only`` the better one is the answer (any arrangement, not the most
    valuable). Otherwise :meth:`_Problem.improve` proves or improves it.
    """
    available, jokers = _together(table, rack)
    problem = _Problem(available, table.naturals, jokers, table.jokers, count_weight)
    if above is not None:
        offset = count_weight * table.jokers  # the programme counts table jokers as placed
        answer, _ = _Bounded(problem).above(above + offset)
        return None if answer is None else _rebuild(answer[1], answer[0] - offset, table)
    if not len(table) and not first_only:
        # Rack tiles only (an opening): few enough nodes to run the whole programme.
        found = problem.by_layers()
        assert found is not None  # laying nothing is an arrangement
        score, choices = found
        return _rebuild(choices, score, table)
    found = problem.first()
    if found is None:
        return None
    if not first_only:
        found = problem.improve(found)
    score, choices = found
    return _rebuild(choices, score - count_weight * table.jokers, table)


def solve_keeping(
    olds: Sequence[tuple[Sequence[Tile], Sequence[Tile]]],
    rack: TileCounts,
    count_weight: int,
    *,
    score: int,
    kept: int,
) -> Arrangement:
    """Of the arrangements of the old melds' tiles and any rack tiles that score at least ``score``
    (as :func:`solve` counts it), one that leaves the most old melds as they lie. Exact.

    ``olds``: the old melds as (tiles, the tiles they stand for: a joker the one it replaces, as
    the meld's reading has it). The caller vouches that some arrangement scoring
    ``score`` keeps ``kept`` of them (every old meld left as it lies keeps them all), so the
    answer exists. The returned arrangement holds only the new melds; ``kept`` lists the old
    ones left alone.

    The same programme, with one more choice at the step of each old meld's first natural tile:
    keep it (its tiles leave the free ones, for the steps it spans) or not. Every point of value
    is worth more than all the melds together, so the kept count only breaks ties.
    """
    table = TileCounts.of([t for tiles, _ in olds for t in tiles])
    available, jokers = _together(table, rack)
    unit = len(olds) + 1
    weight = count_weight * unit
    problem = _Problem(
        available, table.naturals, jokers, table.jokers, weight, unit, _Olds.of(olds, unit, weight)
    )
    offset = count_weight * table.jokers  # the programme counts table jokers as placed
    best = score + offset
    plain = _Problem(available, table.naturals, jokers, table.jokers, count_weight)
    # When the optimism counts a rack tile that cannot be laid, it cannot tell the nodes that
    # have already lost the best score: bounds from the other end can.
    loose = plain._optimism()[0][jokers] - best >= count_weight
    search = _Keeping(problem, best, plain.suffix_bounds(best) if loose else None)
    # A narrow search first (wider if it loses every way), for a play that keeps as many melds as
    # the best one or nearly; then the exact search asks only for a better one: a demanding
    # target keeps few nodes.
    target = unit * (score + offset) + kept
    quick = search.layers(target, beam=_BEAM) or search.layers(target, beam=4 * _BEAM)
    found = search.layers(target) if quick is None else search.layers(quick[0] + 1) or quick
    if found is None:
        raise ValueError(f"no arrangement scores {score} and keeps {kept} old melds")
    total, choices = found
    mask = 0
    for choice in choices:
        if not isinstance(choice, int) and len(choice) == 5:
            mask |= choice[4]
    indices = tuple(i for i in range(len(olds)) if mask >> i & 1)
    free = TileCounts.of([t for i, (tiles, _) in enumerate(olds) if i not in indices for t in tiles])
    arrangement = _rebuild(choices, total // unit - offset, free)
    return Arrangement(arrangement.melds, arrangement.placed, arrangement.score, indices)


def _together(table: TileCounts, rack: TileCounts) -> tuple[list[list[int]], int]:
    """The tiles of both, as counts by colour and number, and the jokers; ``ValueError`` if they
    hold more than the 106-tile set."""
    jokers = table.jokers + rack.jokers
    if jokers > MAX_JOKERS:
        raise ValueError("more than two jokers")
    available = [[table.naturals[c][n] + rack.naturals[c][n] for n in range(14)] for c in range(_NC)]
    if any(k > MAX_COPIES for row in available for k in row):
        raise ValueError("more copies of a tile than the 106-tile set holds")
    return available, jokers


_Found = tuple[int, list[_Choice]]
_STEPS = [(n, c) for n in NUMBERS for c in range(_NC + 1)]  # c == _NC: the groups of number n


@dataclass(frozen=True)
class _Olds:
    """Old melds that may be kept as they lie, step by step (see :func:`solve_keeping`).

    Each is decided at the step of its first natural tile and remembered in the key's mask until
    the step of its last. ``choices[step]``: the sets decided there that may be kept (as (mask,
    jokers, gain)), an identical twin only after its elder; ``here[step]``: (old, its natural tiles
    at that step); ``releasing[step]``: the mask of those whose last step it is; ``ahead[step]``:
    how many are decided at that step or later."""

    choices: list[list[tuple[int, int, int]]]
    here: list[list[tuple[int, int]]]
    releasing: list[int]
    ahead: list[int]
    touching: list[int]  # the mask of those with tiles at the step: all of the mask a step reads
    # early[n]: the most points (unscaled) that kept jokers standing at numbers up to n may still
    # have to count after number n (see _Keeping)
    early: list[int]
    # A colour's own moves (key differences) by the part of the key they read, the jokers kept
    # and the tiles kept at that step: the same for every mask, so computed once.
    memo: dict[tuple[int, int, int], list[tuple[int, int, _Choice]]] = field(default_factory=dict)

    @classmethod
    def of(cls, olds: Sequence[tuple[Sequence[Tile], Sequence[Tile]]], unit: int, count_weight: int) -> _Olds:
        deciding: list[list[int]] = [[] for _ in _STEPS]
        here: list[list[tuple[int, int]]] = [[] for _ in _STEPS]
        releasing = [0] * len(_STEPS)
        gains: list[int] = []
        jokers: list[int] = []
        first_of: dict[tuple[tuple[Tile, ...], tuple[Tile, ...]], int] = {}
        early = [0] * 15
        for i, (tiles, stands_for) in enumerate(olds):
            steps = sorted(_step(t) for t in tiles if not t.is_joker)
            deciding[steps[0]].append(i)
            releasing[steps[-1]] |= 1 << i
            for step in sorted(set(steps)):
                here[step].append((i, steps.count(step)))
            slots = [meant.number for t, meant in zip(tiles, stands_for, strict=True) if t.is_joker]
            jokers.append(len(slots))
            gains.append(unit * sum(slots) + count_weight * len(slots) + 1)
            # A kept meld's jokers count when it is decided, at its first natural tile: a joker
            # standing below that number counts later than the numbers it belongs to.
            first = min(t.number for t in tiles if not t.is_joker)
            for slot in slots:
                for n in range(slot, first):
                    early[n] += slot + count_weight // unit
            first_of.setdefault(_twin_key(tiles, stands_for), i)
        twin = [first_of[_twin_key(tiles, stands_for)] for tiles, stands_for in olds]
        choices: list[list[tuple[int, int, int]]] = []
        for decided in deciding:
            options = []
            for size in range(len(decided), -1, -1):
                for subset in itertools.combinations(decided, size):
                    # Of identical melds keep the first ones: the same tables, half the nodes.
                    if any(twin[i] != i and twin[i] in decided and twin[i] not in subset for i in subset):
                        continue
                    mask = sum(1 << i for i in subset)
                    options.append((mask, sum(jokers[i] for i in subset), sum(gains[i] for i in subset)))
            choices.append(options)
        ahead = [0] * (len(_STEPS) + 1)
        for step in range(len(_STEPS) - 1, -1, -1):
            ahead[step] = ahead[step + 1] + len(deciding[step])
        touching = [sum(1 << i for i, _ in step) for step in here]
        return cls(choices, here, releasing, ahead, touching, early)


def _twin_key(tiles: Sequence[Tile], stands_for: Sequence[Tile]) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    return tuple(sorted(tiles, key=Tile.sort_key)), tuple(sorted(stands_for, key=Tile.sort_key))


def _step(tile: Tile) -> int:
    return (tile.number - 1) * (_NC + 1) + tile.colour_index


@dataclass(frozen=True)
class _Problem:
    available: list[list[int]]
    must: tuple[tuple[int, ...], ...]
    jokers: int
    table_jokers: int
    count_weight: int
    unit: int = 1  # the weight of one point of value (more than the number of old melds when keeping)
    olds: _Olds | None = None
    values: tuple[int, ...] = tuple(range(14))  # a tile's value by its number (see suffix_bounds)

    def _optimism(self) -> list[list[int]]:
        """``[step][jokers left]``: an upper bound of what the steps from that one on add at a
        node that has that many jokers left. Counted: the table tiles' values; value plus tile
        weight for each rack tile that fits some meld without a joker; each joker left as a
        tile worth 13; and the rack tiles that fit only melds holding a joker.

        Of the latter, a joker lets in at most two tiles on each side of it in a run (a tile
        farther along fits a run without it) or two partners in a group: so at number n at most
        ``4 × jokers`` of them among numbers n..n + 2 (reachable from jokers already laid at n
        or before), and at most ``4 × jokers left`` beyond.
        """
        free = [0] * (len(_STEPS) + 1)
        # helped[left][n]: gains of the rack tiles of number n that fit with ``left`` jokers, not fewer
        helped: list[list[list[int]]] = [[[] for _ in range(16)] for _ in range(self.jokers + 1)]
        for i in range(len(_STEPS) - 1, -1, -1):
            n, c = _STEPS[i]
            free[i] = free[i + 1]
            if c == _NC:
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
        ahead = self.olds.ahead if self.olds is not None else [0] * (len(_STEPS) + 1)
        bounds = [[free[i] + ahead[i] + extra for extra in by_number[n]] for i, (n, _) in enumerate(_STEPS)]
        bounds.append([left * joker_best for left in range(self.jokers + 1)])
        return bounds

    def _placeable(self, c: int, n: int, jokers: int) -> bool:
        """Whether some run or group could hold tile (c, n) with at most ``jokers`` jokers."""
        available = self.available
        for low in range(max(1, n - 2), min(n, 11) + 1):
            missing = sum(1 for x in range(low, low + 3) if x != n and not available[c][x])
            if missing <= jokers:
                return True
        partners = sum(1 for other in range(_NC) if other != c and available[other][n])
        return partners + jokers >= 2

    def _moves(self, index: int, key: _Key) -> list[_Move]:
        n, c = _STEPS[index]
        if c == _NC:
            return self._group_moves(n, key)
        if self.olds is not None:
            return self._keeping_moves(index, n, c, key)
        return self._colour_moves(n, c, key, self.available[c][n], self.must[c][n])

    def _keeping_moves(self, index: int, n: int, c: int, key: _Key) -> list[_Move]:
        """A colour's moves when old melds may be kept: first which of those decided here to keep
        (their jokers are then used, their tiles here and later are no longer free), then the
        colour's own moves with the tiles left (as key differences, the same for every mask)."""
        olds = self.olds
        assert olds is not None
        mask = key // _MASK_UNIT & olds.touching[index]
        used = (key // _USED) % 3
        own = _local(index, key)
        moves: list[_Move] = []
        for bits, jokers, keep_gain in olds.choices[index]:
            if used + jokers > self.jokers:
                continue
            both = mask | bits
            removed = sum(k for i, k in olds.here[index] if both >> i & 1)
            shift = ((both & ~olds.releasing[index]) - mask) * _MASK_UNIT + jokers * _USED
            gain = keep_gain + self.unit * self.values[n] * removed
            memo_key = (own * len(_STEPS) + index, jokers, removed)
            own_moves = olds.memo.get(memo_key)
            if own_moves is None:
                base = key % _MASK_UNIT + jokers * _USED
                own_moves = olds.memo[memo_key] = [
                    (new_key - base, move_gain, option)
                    for new_key, move_gain, option in self._colour_moves(
                        n, c, base, self.available[c][n] - removed, self.must[c][n] - removed
                    )
                ]
            for delta, move_gain, option in own_moves:
                assert not isinstance(option, int)
                moves.append((key + delta + shift, move_gain + gain, (*option[:4], bits)))
        return moves

    def _colour_moves(self, n: int, c: int, key: _Key, k: int, m: int) -> list[_Move]:
        place = _COLOUR_PLACE[c]
        state = (key // place) % len(_STATES)
        used = (key // _USED) % 3
        pair = key % 2
        weight = self.count_weight
        worth = self.unit * self.values[n]
        moves: list[_Move] = []
        grouped = (key // _GROUPED) % 9
        # Natural tiles the later colours could still give to this number's groups.
        later = sum(self.available[other][n] for other in range(c + 1, _NC))
        for option in _colour_options(_STATES[state], k, m, self.jokers - used):
            new_state, run_jokers, to_groups, in_runs = option
            jokers_left = self.jokers - used - run_jokers
            if not self._can_grow(c, n, new_state, jokers_left):
                continue
            if grouped + to_groups and grouped + to_groups + later + jokers_left < (
                6 if pair or to_groups == 2 else 3
            ):
                continue  # too few tiles left for this number's groups
            laid = in_runs + run_jokers + to_groups
            gain = worth * laid + weight * (laid - m)
            new_key = key + (_STATE_ID[new_state] - state) * place + run_jokers * _USED + to_groups * _GROUPED
            if to_groups == 2 and not pair:
                new_key += 1
            moves.append((new_key, gain, option))
        return moves

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

    def _group_moves(self, n: int, key: _Key) -> list[_Move]:
        used = (key // _USED) % 3
        grouped = (key // _GROUPED) % 9
        pair = key % 2
        base = key - grouped * _GROUPED - pair
        return [
            (
                base + group_jokers * _USED,
                (self.unit * self.values[n] + self.count_weight) * group_jokers,
                group_jokers,
            )
            for group_jokers in range(self.jokers - used, -1, -1)
            if groups_fit(grouped, bool(pair), group_jokers) is not None
        ]

    def _complete(self, key: _Key) -> bool:
        """Every table joker placed and no run left shorter than three."""
        if (key // _USED) % 3 < self.table_jokers:
            return False
        return all((key // place) % len(_STATES) in _SETTLED for place in _COLOUR_PLACE)

    def first(self) -> _Found | None:
        """The better of two depth-first arrangements (jokers late; biggest gain first), or
        ``None`` when there is none."""
        found = [self._depth_first(order) for order in (_jokers_late, None)]
        return max((f for f in found if f is not None), key=lambda f: f[0], default=None)

    def _depth_first(self, order: Callable[[_Move], tuple[int, int]] | None) -> _Found | None:
        """Some arrangement, found depth-first trying moves in ``order`` (``None``: the most tiles
        first); ``None`` if none exists.

        Nodes without any completion are remembered, so the search is finite and complete."""
        dead: set[int] = set()
        choices: list[_Choice] = []

        def descend(index: int, key: _Key, score: int) -> int | None:
            if index == len(_STEPS):
                return score if self._complete(key) else None
            node = key * len(_STEPS) + index
            if node in dead:
                return None
            moves = self._moves(index, key)
            for new_key, gain, choice in moves if order is None else sorted(moves, key=order):
                choices.append(choice)
                found = descend(index + 1, new_key, score + gain)
                if found is not None:
                    return found
                choices.pop()
            dead.add(node)
            return None

        score = descend(0, _START, 0)
        return None if score is None else (score, choices)

    def by_layers(self) -> _Found | None:
        """The best arrangement, or ``None``: the programme run breadth-first over the steps,
        keeping one node per key with its best score and the node it came from.

        A step's moves depend only on the part of the key that step reads, so they are computed
        once per such part. A node's entry packs ``score << _KEY_BITS | previous key`` into one
        int (the inner loop is then one comparison per move); the move taken is recovered at the
        end, as the one leading from the previous key to this one. When no table joker must be
        placed, a node that used more jokers and scores no more than the same node with fewer is
        dropped: the latter can do all that it can.
        """
        free_jokers = self.table_jokers == 0
        layer: dict[_Key, int] = {_START: 0}
        history: list[tuple[dict[_Key, int], dict[int, list[tuple[int, int, _Choice]]]]] = []
        mask = (1 << _KEY_BITS) - 1
        for index in range(len(_STEPS)):
            cache: dict[int, list[tuple[int, int, _Choice]]] = {}
            nxt: dict[_Key, int] = {}
            for key, packed in layer.items():
                local = _local(index, key)
                moves = cache.get(local)
                if moves is None:
                    moves = [
                        (new - key, gain << _KEY_BITS, choice)
                        for new, gain, choice in self._moves(index, key)
                    ]
                    cache[local] = moves
                base = (packed & ~mask) | key
                for delta, gain, _ in moves:
                    new_key = key + delta
                    if nxt.get(new_key, -1) < base + gain:
                        nxt[new_key] = base + gain
            if free_jokers:
                for key in [k for k in nxt if (k // _USED) % 3]:
                    floor = nxt[key] & ~mask  # an entry at least this big scores at least as much
                    fewer = key - _USED
                    if nxt.get(fewer, -1) >= floor or (
                        (fewer // _USED) % 3 and nxt.get(fewer - _USED, -1) >= floor
                    ):
                        del nxt[key]
            history.append((nxt, cache))
            layer = nxt
        finals = [(packed >> _KEY_BITS, key) for key, packed in layer.items() if self._complete(key)]
        if not finals:
            return None
        score, key = max(finals)
        choices: list[_Choice] = []
        for index in range(len(_STEPS) - 1, -1, -1):
            nodes, cache = history[index]
            packed = nodes[key]
            previous = packed & mask
            gained = (packed >> _KEY_BITS) - ((history[index - 1][0][previous] >> _KEY_BITS) if index else 0)
            local = _local(index, previous)
            choices.append(
                next(
                    choice
                    for delta, gain, choice in cache[local]
                    if delta == key - previous and gain >> _KEY_BITS == gained
                )
            )
            key = previous
        choices.reverse()
        return score, choices

    def suffix_bounds(self, best: int) -> list[int]:
        """``bounds[n]``: the most points the numbers n..13 add in an arrangement scoring
        ``best`` (the optimum), for n = 1..14.

        The programme run on the numbers mirrored (13 first; a run read backwards is a run, and
        each tile keeps its value), breadth-first, a node kept while its optimism reaches
        ``best``; after each number, the best node's points bound what those numbers add: a
        run still open there is allowed, for it may go on below.
        """
        mirrored = _Problem(
            [[row[0], *row[:0:-1]] for row in self.available],
            tuple((row[0], *row[:0:-1]) for row in self.must),
            self.jokers,
            self.table_jokers,
            self.count_weight,
            values=(0, *range(13, 0, -1)),
        )
        optimism = mirrored._optimism()
        jokers = self.jokers
        bounds = [0] * 15
        layer: dict[_Key, int] = {_START: 0}
        for index, (n, c) in enumerate(_STEPS):
            bound = optimism[index + 1]
            cache: dict[int, list[tuple[int, int, int]]] = {}
            nxt: dict[_Key, int] = {}
            for key, score in layer.items():
                local = _local(index, key)
                moves = cache.get(local)
                if moves is None:
                    moves = cache[local] = [
                        (new - key, gain, gain + bound[jokers - (new // _USED) % 3])
                        for new, gain, _ in mirrored._moves(index, key)
                    ]
                for delta, gain, hope in moves:
                    if score + hope >= best and nxt.get(key + delta, -1) < score + gain:
                        nxt[key + delta] = score + gain
            layer = nxt
            if c == _NC:
                bounds[14 - n] = max(layer.values(), default=0)
        return bounds

    def improve(self, found: _Found) -> _Found:
        """The optimum, starting from the arrangement ``found``.

        Bisection between ``found``'s score and the optimistic bound of the start: a memoised
        search (:class:`_Bounded`) asks for an arrangement scoring more than the midpoint. When
        there is one the search returns the optimum itself; when there is none it returns a new,
        lower bound. The memo is shared by all the questions, so a node's exact best completion
        is never searched twice, and a demanding question prunes hard.
        """
        search = _Bounded(self)
        low, high = found[0], search.optimism[0][self.jokers]
        while high > low:
            better, high = search.above((low + high) // 2)
            if better is not None:
                return better
        return found


_IMPOSSIBLE = -(10**9)  # the value of a node without any completion
_BEAM = 150  # nodes per step in solve_keeping's first, narrow search


class _Keeping:
    """The programme when old melds may be kept, breadth-first (see :func:`solve_keeping`).

    Each node holds the best score of the ways to it and the way it came. A node stays only
    while its score and the optimism of what follows can still reach the target: with a target
    close to the optimum few do, and each is expanded once, whatever the ways to it. The moves
    of a node, sorted by that optimism, are shared by every search of the same problem.

    ``best``: the most points any arrangement scores (the programme's score without the kept
    melds). No node gains more than that, so the kept melds a target asks for must come from
    those kept so far and those still ahead — a bound that holds where the optimism's points are
    loose (jokers, tiles that will not fit). ``suffix``: bounds of the points of the numbers
    from n on (:meth:`_Problem.suffix_bounds`); at the end of each number, a node whose points
    and the next numbers' bound fall short of ``best`` goes. Both count a tile's points at its
    number, except a kept meld's jokers, counted with the meld at its first natural tile: those
    standing lower still to come (``early``) are allowed for.
    """

    def __init__(self, problem: _Problem, best: int, suffix: list[int] | None) -> None:
        assert problem.olds is not None
        self.problem = problem
        self.olds: _Olds = problem.olds
        self.best = best
        self.suffix = suffix
        self.optimism = problem._optimism()
        self.moves: dict[int, list[tuple[int, int, int, _Choice]]] = {}

    def layers(self, target: int, beam: int | None = None) -> _Found | None:
        """The best arrangement if it scores at least ``target``, else ``None``. ``beam`` keeps
        at most that many nodes per step, the most promising: a quick search for a good target,
        exact only without it."""
        problem, cache = self.problem, self.moves
        olds = self.olds
        jokers, unit, ahead = problem.jokers, problem.unit, olds.ahead
        kept = target - unit * self.best  # melds to keep
        steps = len(_STEPS)
        layer: dict[_Key, int] = {_START: 0}
        history: list[tuple[dict[_Key, int], dict[_Key, _Key]]] = []  # each step's nodes, where from
        for index in range(steps):
            bound = self.optimism[index + 1]
            short = kept - ahead[index + 1]  # kept so far, fewer than that: too few
            n, c = _STEPS[index]
            # points so far, fewer than that: too few (checked at the end of a number)
            behind = None
            if self.suffix is not None and c == _NC:
                behind = self.best - self.suffix[n + 1] - olds.early[n]
            place = _COLOUR_PLACE[c] if c < _NC else 0
            touching = olds.touching[index]
            nxt: dict[_Key, int] = {}
            came: dict[_Key, _Key] = {}
            for key, score in layer.items():
                # self._local(index, key), inlined: this loop is where the search spends its time
                local = key % _COLOUR_PLACE[-1]
                if place:
                    local += (key // place) % len(_STATES) * _COLOUR_PLACE[-1]
                    local += (key // _MASK_UNIT & touching) * _MASK_UNIT
                local = local * steps + index
                moves = cache.get(local)
                if moves is None:
                    moves = [
                        (new - key, gain, gain + bound[jokers - (new // _USED) % 3], choice)
                        for new, gain, choice in problem._moves(index, key)
                    ]
                    moves.sort(key=lambda move: -move[2])
                    cache[local] = moves
                for delta, gain, hope, _ in moves:
                    if score + hope < target:
                        break  # and so do the moves after it
                    value = score + gain
                    if value % unit < short or (behind is not None and value // unit < behind):
                        continue
                    new = key + delta
                    if nxt.get(new, _IMPOSSIBLE) < value:
                        nxt[new] = value
                        came[new] = key
            if beam is not None and len(nxt) > beam:
                nxt = _narrowed(nxt, beam)
            history.append((layer, came))
            layer = nxt
        finals = [(score, key) for key, score in layer.items() if problem._complete(key)]
        if not finals or max(finals)[0] < target:
            return None
        score, key = max(finals)
        return score, self._way(history, key, score)

    def _way(
        self, history: list[tuple[dict[_Key, int], dict[_Key, _Key]]], key: _Key, score: int
    ) -> list[_Choice]:
        """The choices that led to ``key``: at each step the node it came from, and the move from
        there that gained what it did (a node remembers only where it came from)."""
        choices: list[_Choice] = []
        for index in range(len(_STEPS) - 1, -1, -1):
            nodes, came = history[index]
            previous = came[key]
            gained = score - nodes[previous]
            local = self._local(index, previous)
            choices.append(
                next(
                    choice
                    for delta, gain, _, choice in self.moves[local * len(_STEPS) + index]
                    if delta == key - previous and gain == gained
                )
            )
            key, score = previous, nodes[previous]
        choices.reverse()
        return choices

    def _local(self, index: int, key: _Key) -> int:
        """The part of ``key`` that step ``index`` reads (:func:`_local`) and, for a colour's step,
        the kept melds with tiles there (the same sum is inlined in :meth:`layers`)."""
        local = _local(index, key)
        if _STEPS[index][1] < _NC:
            local += (key // _MASK_UNIT & self.olds.touching[index]) * _MASK_UNIT
        return local


def _narrowed(nodes: dict[_Key, int], beam: int) -> dict[_Key, int]:
    """The ``beam`` best-scoring nodes, shared equally by the numbers of jokers used: the optimism
    counts a joker not yet laid at its best, so a ranking by it fills the beam with nodes that put
    off laying a table joker and then cannot; by score alone, with nodes that have laid them."""
    classes: dict[int, list[_Key]] = {}
    for key in nodes:
        classes.setdefault((key // _USED) % 3, []).append(key)
    share = beam // len(classes)
    kept: dict[_Key, int] = {}
    for alike in classes.values():
        alike.sort(key=lambda k: nodes[k], reverse=True)
        kept.update((k, nodes[k]) for k in alike[:share])
    return kept


class _Bounded:
    """Exact best completions of the programme's nodes, computed only as far as a question needs.

    ``_value(index, key, need)`` answers "what do the steps from ``index`` on add at best, from
    node ``key``?" — exactly when that is more than ``need``, otherwise with an upper bound not
    above ``need`` (fail-soft bounded search). A node's completions do not depend on how it was
    reached, so both answers are remembered per node and reused by every later question: an exact
    value for good, an upper bound until a lower ``need`` asks again.
    """

    def __init__(self, problem: _Problem) -> None:
        self.problem = problem
        self.optimism = problem._optimism()
        self.exact: dict[int, tuple[int, _Key, _Choice | None]] = {}
        self.upper: dict[int, int] = {}
        # A step's moves as key differences, by the part of the key the step reads (see _local).
        self.moves: dict[int, list[tuple[int, int, _Choice]]] = {}

    def above(self, bound: int) -> tuple[_Found | None, int]:
        """The best arrangement if it scores more than ``bound``, else ``None`` and an upper bound
        of every score (at most ``bound``)."""
        score = self._value(0, _START, bound)
        if score <= bound:
            return None, score
        choices: list[_Choice] = []
        index, key = 0, _START
        while index < len(_STEPS):
            _, key, choice = self.exact[key * len(_STEPS) + index]
            assert choice is not None
            choices.append(choice)
            index += 1
        return (score, choices), score

    def _value(self, index: int, key: _Key, need: int) -> int:
        problem = self.problem
        if index == len(_STEPS):
            return 0 if problem._complete(key) else _IMPOSSIBLE
        node = key * len(_STEPS) + index
        known = self.exact.get(node)
        if known is not None:
            return known[0]
        upper = self.upper.get(node)
        if upper is None:
            upper = self.optimism[index][problem.jokers - (key // _USED) % 3]
        if upper <= need:
            return upper
        best, best_key, best_choice = _IMPOSSIBLE, 0, None
        local = _local(index, key) * len(_STEPS) + index
        moves = self.moves.get(local)
        if moves is None:
            ordered = sorted(problem._moves(index, key), key=_jokers_late)
            moves = self.moves[local] = [(new_key - key, gain, choice) for new_key, gain, choice in ordered]
        for delta, gain, choice in moves:
            value = gain + self._value(index + 1, key + delta, max(need, best) - gain)
            if value > best:
                best, best_key, best_choice = value, key + delta, choice
        if best > need:
            # Every move that failed its question was bounded by the best so far, so this is exact.
            self.exact[node] = (best, best_key, best_choice)
        else:
            self.upper[node] = max(best, _IMPOSSIBLE)
        return best


def _local(index: int, key: _Key) -> int:
    """The part of ``key`` that step ``index`` reads: jokers used, tiles grouped and the pair flag,
    and for a colour's step that colour's run state. Nodes that agree on it have the same moves."""
    c = _STEPS[index][1]
    if c == _NC:
        return key % _COLOUR_PLACE[-1]
    return (key // _COLOUR_PLACE[c]) % len(_STATES) * _COLOUR_PLACE[-1] + key % _COLOUR_PLACE[-1]


def _jokers_late(move: _Move) -> tuple[int, int]:
    """Moves without jokers first: jokers then go as late, so as high, as the arrangement allows."""
    _, gain, choice = move
    jokers = choice if isinstance(choice, int) else choice[1]
    return jokers, -gain


def _rebuild(steps: list[_Choice], score: int, table: TileCounts) -> Arrangement:
    """Lay the tiles out as melds following the choices of every step."""
    open_runs: list[list[list[Tile]]] = [[] for _ in COLOURS]
    melds: list[tuple[Tile, ...]] = []
    placed_counts = [[0] * 14 for _ in COLOURS]
    grouped: list[tuple[Tile, int]] = []
    index = 0
    for n in NUMBERS:
        for c in range(_NC):
            choice = steps[index]
            index += 1
            assert not isinstance(choice, int)
            run_jokers, to_groups, in_runs = choice[1:4]
            colour = COLOURS[c]
            tile = Tile(colour, n)
            placed_counts[c][n] = in_runs + to_groups
            runs = sorted(open_runs[c], key=len)
            young = [r for r in runs if len(r) < MATURE]
            mature = [r for r in runs if len(r) >= MATURE]
            slots = in_runs + run_jokers
            kept = min(len(mature), slots - len(young))
            going_on = young + mature[len(mature) - kept :]
            for run in mature[: len(mature) - kept]:
                melds.append(tuple(run))
            going_on += [[] for _ in range(slots - len(going_on))]
            # Jokers go to the longest runs so that a new run starts with a natural tile.
            going_on.sort(key=len, reverse=True)
            for i, run in enumerate(going_on):
                run.append(JOKER if i < run_jokers else tile)
            open_runs[c] = going_on
            if to_groups:
                grouped.append((tile, to_groups))
        group_jokers = steps[index]
        index += 1
        assert isinstance(group_jokers, int)
        melds.extend(_deal_groups(grouped, group_jokers))
        grouped = []
    for runs in open_runs:
        melds.extend(tuple(run) for run in runs)
    placed = [
        Tile(COLOURS[c], n)
        for c in range(_NC)
        for n in NUMBERS
        for _ in range(placed_counts[c][n] - table.naturals[c][n])
    ]
    jokers_placed = sum(t.is_joker for meld in melds for t in meld) - table.jokers
    placed += [JOKER] * jokers_placed
    return Arrangement(tuple(melds), tuple(placed), score)


def _deal_groups(grouped: list[tuple[Tile, int]], jokers: int) -> list[tuple[Tile, ...]]:
    naturals = sum(k for _, k in grouped)
    count = groups_fit(naturals, any(k == 2 for _, k in grouped), jokers)
    assert count is not None
    groups: list[list[Tile]] = [[] for _ in range(count)]
    order = [t for t, k in sorted(grouped, key=lambda item: -item[1]) for _ in range(k)]
    for i, tile in enumerate(order):
        groups[i % count].append(tile)
    for _ in range(jokers):
        min(groups, key=len).append(JOKER)
    return [tuple(g) for g in groups]
