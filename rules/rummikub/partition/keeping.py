"""The last question of a best move: of the arrangements as good as the best, one that leaves the
most old melds as they lie (:func:`solve_keeping`).

The programme gets one more choice per old meld (keep it or not, at its first natural tile:
:class:`KeepingProblem`) and a score in which every point outweighs all the melds, and runs
breadth-first towards a target (:class:`Keeping`): first narrowly (a beam) for a good target, then
exactly for anything better. A node goes when its optimism misses the target, when even the best
points leave too few melds to keep, or — when the optimism counts tiles that cannot be laid — when
bounds computed from the other end (:func:`~rules.rummikub.partition.search.suffix_bounds`) show it
has already lost points.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.rummikub.partition.counts import TileCounts, together
from rules.rummikub.partition.key import (
    COLOUR_STATE,
    JOKERS,
    KEPT,
    NC,
    NUMBER_PART,
    START,
    STATES,
    STEPS,
    Key,
    reads,
    step_of,
)
from rules.rummikub.partition.pause import collector_paused
from rules.rummikub.partition.programme import Choice, Delta, Found, Problem
from rules.rummikub.partition.rebuild import Arrangement, rebuild
from rules.rummikub.partition.search import IMPOSSIBLE, native, native_fields, solve, suffix_bounds
from rules.rummikub.tiles import Tile

__all__ = ["Keeping", "KeepingProblem", "solve_keeping"]


def solve_keeping(
    olds: Sequence[tuple[Sequence[Tile], Sequence[Tile]]],
    rack: TileCounts,
    count_weight: int,
    *,
    score: int,
    kept: int,
) -> Arrangement:
    """:func:`_solve_keeping`, the cyclic collector waiting meanwhile (see :mod:`.pause`)."""
    with collector_paused():
        return _solve_keeping(olds, rack, count_weight, score=score, kept=kept)


def _solve_keeping(
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
    search = Keeping.of(olds, rack, count_weight, score)
    problem = search.problem
    unit = problem.unit
    offset = search.best - score  # the programme counts table jokers as placed
    # A narrow search first (wider, twice, if it loses every way), for a play that keeps as many
    # melds as the best one or nearly; then the exact search asks only for a better one: a
    # demanding target keeps few nodes. (Where every narrow search loses, the exact one starts
    # from the plain answer's melds, the weakest target: the slowest positions.)
    target = unit * search.best + kept
    quick = None
    for beam in _BEAMS:
        quick = search.layers(target, beam=beam)
        if quick is not None:
            break
    if quick is not None and sum(len(tiles) for tiles, _ in olds) >= _FULL:
        # On a full table the plain question is quick (its first arrangement is mostly the best
        # and the proof short) and the melds that must change are many. Each old meld the quick
        # play changed is asked whether it can be kept at all; the exact search then offers
        # only those that can, and its bound on the melds still to keep counts only them.
        mask = _kept_mask(quick[1])
        keepable = [
            bool(mask >> i & 1) or _keepable(olds, i, rack, count_weight, score) for i in range(len(olds))
        ]
        if not all(keepable):
            narrower = KeepingProblem(
                problem.available,
                problem.must,
                problem.jokers,
                problem.table_jokers,
                problem.count_weight,
                unit,
                olds=_Olds.of(olds, unit, problem.count_weight, keepable),
            )
            search = Keeping(narrower, search.best, search.suffix)
    found = search.layers(target) if quick is None else search.layers(quick[0] + 1) or quick
    if found is None:
        raise ValueError(f"no arrangement scores {score} and keeps {kept} old melds")
    total, choices = found
    mask = _kept_mask(choices)
    indices = tuple(i for i in range(len(olds)) if mask >> i & 1)
    free = TileCounts.of([t for i, (tiles, _) in enumerate(olds) if i not in indices for t in tiles])
    arrangement = rebuild(choices, total // unit - offset, free)
    return Arrangement(arrangement.melds, arrangement.placed, arrangement.score, indices)


def _kept_mask(choices: list[Choice]) -> int:
    """The old melds an arrangement's choices keep, as a mask."""
    mask = 0
    for choice in choices:
        if not isinstance(choice, int) and len(choice) == 5:
            mask |= choice[4]
    return mask


def _keepable(
    olds: Sequence[tuple[Sequence[Tile], Sequence[Tile]]],
    index: int,
    rack: TileCounts,
    count_weight: int,
    score: int,
) -> bool:
    """Whether some arrangement scoring ``score`` leaves old meld ``index`` as it lies: whether the
    other old melds' tiles and the rack make up the rest of the score. One demanding question
    to the plain search each; an old meld that fails it is never offered to be kept, and the
    search's bound on the melds still to keep counts only those that pass."""
    value = sum(meant.number for meant in olds[index][1])
    others = TileCounts.of([t for i, (tiles, _) in enumerate(olds) if i != index for t in tiles])
    return solve(others, rack, count_weight, above=score - value - 1) is not None


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
    memo: dict[tuple[int, int, int], list[tuple[int, int, Choice]]] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        olds: Sequence[tuple[Sequence[Tile], Sequence[Tile]]],
        unit: int,
        count_weight: int,
        keepable: Sequence[bool] | None = None,
    ) -> _Olds:
        deciding: list[list[int]] = [[] for _ in STEPS]
        here: list[list[tuple[int, int]]] = [[] for _ in STEPS]
        releasing = [0] * len(STEPS)
        gains: list[int] = []
        jokers: list[int] = []
        first_of: dict[tuple[tuple[Tile, ...], tuple[Tile, ...]], int] = {}
        early = [0] * 15
        for i, (tiles, stands_for) in enumerate(olds):
            steps = sorted(step_of(t) for t in tiles if not t.is_joker)
            if keepable is None or keepable[i]:
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
        ahead = [0] * (len(STEPS) + 1)
        for step in range(len(STEPS) - 1, -1, -1):
            ahead[step] = ahead[step + 1] + len(deciding[step])
        touching = [sum(1 << i for i, _ in step) for step in here]
        return cls(choices, here, releasing, ahead, touching, early)


def _twin_key(tiles: Sequence[Tile], stands_for: Sequence[Tile]) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    return tuple(sorted(tiles, key=Tile.sort_key)), tuple(sorted(stands_for, key=Tile.sort_key))


@dataclass(frozen=True)
class KeepingProblem(Problem):
    """The programme with one more choice per old meld, at the step of its first natural tile:
    keep it as it lies or not (see :func:`solve_keeping`)."""

    olds: _Olds = field(kw_only=True)

    def ahead(self) -> list[int]:
        return self.olds.ahead

    def reads(self, index: int, key: Key) -> int:
        """What the plain programme's step reads and, for a colour's step, the kept melds with
        tiles there (the same sum is inlined in :meth:`Keeping.layers`)."""
        local = reads(index, key)
        if STEPS[index][1] < NC:
            local = KEPT.add(local, KEPT.of(key) & self.olds.touching[index])
        return local

    def step_deltas(self, index: int, key: Key, late: bool = False) -> list[Delta]:
        """The plain programme's moves with the keeping choices (its search sorts them itself, so
        ``late`` changes nothing here)."""
        n, c = STEPS[index]
        if c == NC:
            return self.group_deltas(n, key)
        return self._keeping_deltas(index, n, c, key)

    def _keeping_deltas(self, index: int, n: int, c: int, key: Key) -> list[Delta]:
        """A colour's moves when old melds may be kept: first which of those decided here to keep
        (their jokers are then used, their tiles here and later are no longer free), then the
        colour's own moves with the tiles left (as key differences, the same for every mask)."""
        olds = self.olds
        mask = KEPT.of(key) & olds.touching[index]
        used = JOKERS.of(key)
        own = reads(index, key)
        moves: list[Delta] = []
        for bits, jokers, keep_gain in olds.choices[index]:
            if used + jokers > self.jokers:
                continue
            both = mask | bits
            removed = sum(k for i, k in olds.here[index] if both >> i & 1)
            shift = KEPT.add(JOKERS.add(0, jokers), (both & ~olds.releasing[index]) - mask)
            gain = keep_gain + self.unit * self.values[n] * removed
            memo_key = (own * len(STEPS) + index, jokers, removed)
            own_moves = olds.memo.get(memo_key)
            if own_moves is None:
                base = JOKERS.add(key % KEPT.place, jokers)
                own_moves = olds.memo[memo_key] = self.colour_deltas(
                    n, c, base, self.available[c][n] - removed, self.must[c][n] - removed
                )
            for delta, move_gain, option in own_moves:
                assert not isinstance(option, int)
                moves.append((delta + shift, move_gain + gain, (*option[:4], bits)))
        return moves


_BEAMS = (150, 600, 2400)  # nodes per step in solve_keeping's narrow searches, until one wins
_FULL = 70  # table tiles from which solve_keeping asks which old melds can be kept at all


class Keeping:
    """The programme when old melds may be kept, breadth-first (see :func:`solve_keeping`).

    Each node holds the best score of the ways to it and the way it came. A node stays only
    while its score and the optimism of what follows can still reach the target: with a target
    close to the optimum few do, and each is expanded once, whatever the ways to it. The moves
    of a node, sorted by that optimism, are shared by every search of the same problem.

    ``best``: the most points any arrangement scores (the programme's score without the kept
    melds). No node gains more than that, so the kept melds a target asks for must come from
    those kept so far and those still ahead — a bound that holds where the optimism's points are
    loose (jokers, tiles that will not fit). ``suffix``: bounds of the points of the numbers
    from n on (:func:`.search.suffix_bounds`); at the end of each number, a node whose points
    and the next numbers' bound fall short of ``best`` goes. Both count a tile's points at its
    number, except a kept meld's jokers, counted with the meld at its first natural tile: those
    standing lower still to come (``early``) are allowed for.
    """

    def __init__(self, problem: KeepingProblem, best: int, suffix: list[int] | None) -> None:
        self.problem = problem
        self.olds: _Olds = problem.olds
        self.best = best
        self.suffix = suffix
        self.optimism = problem.optimism()
        self.moves: dict[int, list[tuple[int, int, int, Choice]]] = {}

    @classmethod
    def of(
        cls,
        olds: Sequence[tuple[Sequence[Tile], Sequence[Tile]]],
        rack: TileCounts,
        count_weight: int,
        score: int,
    ) -> Keeping:
        """The search of :func:`solve_keeping` (its arguments as there): every old meld may be
        kept, ``best`` is ``score`` with the table jokers counted as placed."""
        table = TileCounts.of([t for tiles, _ in olds for t in tiles])
        available, jokers = together(table, rack)
        unit = len(olds) + 1
        weight = count_weight * unit
        problem = KeepingProblem(
            available, table.naturals, jokers, table.jokers, weight, unit, olds=_Olds.of(olds, unit, weight)
        )
        best = score + count_weight * table.jokers
        plain = Problem(available, table.naturals, jokers, table.jokers, count_weight)
        # When the optimism counts a rack tile that cannot be laid, it cannot tell the nodes that
        # have already lost the best score: bounds from the other end can.
        loose = plain.optimism()[0][jokers] - best >= count_weight
        return cls(problem, best, suffix_bounds(plain, best) if loose else None)

    def layers(self, target: int, beam: int | None = None) -> Found | None:
        """The best arrangement if it scores at least ``target``, else ``None``. ``beam`` keeps
        at most that many nodes per step, the most promising: a quick search for a good target,
        exact only without it. (In C, ``core.c``'s ``keep``, in the compiled build: the same
        nodes in the same order, so the same answer; :meth:`searched` is the reference. Its keys
        hold the masks of up to 36 old melds: a 106-tile set makes 35 at most.)"""
        core = native()
        if core is not None:
            olds = self.olds
            found: Found | None = core.keep(
                native_fields(self.problem),
                self.optimism,
                olds.choices,
                olds.here,
                olds.releasing,
                olds.touching,
                olds.ahead,
                olds.early,
                self.best,
                self.suffix,
                target,
                beam or 0,
            )
            return found
        return self.searched(target, beam)

    def searched(self, target: int, beam: int | None = None) -> Found | None:
        """:meth:`layers` in Python."""
        problem, cache = self.problem, self.moves
        olds = self.olds
        jokers, unit, ahead = problem.jokers, problem.unit, olds.ahead
        kept = target - unit * self.best  # melds to keep
        steps = len(STEPS)
        radix, kept_place = len(STATES), KEPT.place
        layer: dict[Key, int] = {START: 0}
        history: list[tuple[dict[Key, int], dict[Key, Key]]] = []  # each step's nodes, where from
        for index in range(steps):
            bound = self.optimism[index + 1]
            short = kept - ahead[index + 1]  # kept so far, fewer than that: too few
            n, c = STEPS[index]
            # points so far, fewer than that: too few (checked at the end of a number)
            behind = None
            if self.suffix is not None and c == NC:
                behind = self.best - self.suffix[n + 1] - olds.early[n]
            place = COLOUR_STATE[c].place if c < NC else 0
            touching = olds.touching[index]
            checked = short > 0 or behind is not None  # whether either bound can drop a node here
            nxt: dict[Key, int] = {}
            came: dict[Key, Key] = {}
            for key, score in layer.items():
                # self.reads(index, key), inlined: this loop is where the search spends its time
                local = key % NUMBER_PART
                if place:
                    local += (key // place) % radix * NUMBER_PART
                    local += (key // kept_place & touching) * kept_place
                local = local * steps + index
                moves = cache.get(local)
                if moves is None:
                    moves = [
                        (delta, gain, gain + bound[jokers - JOKERS.of(key + delta)], choice)
                        for delta, gain, choice in problem.step_deltas(index, key)
                    ]
                    moves.sort(key=lambda move: -move[2])
                    cache[local] = moves
                floor = target - score
                for delta, gain, hope, _ in moves:
                    if hope < floor:
                        break  # and so do the moves after it
                    value = score + gain
                    if checked and (value % unit < short or (behind is not None and value // unit < behind)):
                        continue
                    new = key + delta
                    if nxt.get(new, IMPOSSIBLE) < value:
                        nxt[new] = value
                        came[new] = key
            if beam is not None and len(nxt) > beam:
                nxt = _narrowed(nxt, beam)
            history.append((layer, came))
            layer = nxt
        finals = [(score, key) for key, score in layer.items() if problem.complete(key)]
        if not finals or max(finals)[0] < target:
            return None
        score, key = max(finals)
        return score, self._way(history, key, score)

    def _way(
        self, history: list[tuple[dict[Key, int], dict[Key, Key]]], key: Key, score: int
    ) -> list[Choice]:
        """The choices that led to ``key``: at each step the node it came from, and the move from
        there that gained what it did (a node remembers only where it came from)."""
        choices: list[Choice] = []
        for index in range(len(STEPS) - 1, -1, -1):
            nodes, came = history[index]
            previous = came[key]
            gained = score - nodes[previous]
            local = self.problem.reads(index, previous)
            choices.append(
                next(
                    choice
                    for delta, gain, _, choice in self.moves[local * len(STEPS) + index]
                    if delta == key - previous and gain == gained
                )
            )
            key, score = previous, nodes[previous]
        choices.reverse()
        return choices


def _narrowed(nodes: dict[Key, int], beam: int) -> dict[Key, int]:
    """The ``beam`` best-scoring nodes, shared equally by the numbers of jokers used: the optimism
    counts a joker not yet laid at its best, so a ranking by it fills the beam with nodes that put
    off laying a table joker and then cannot; by score alone, with nodes that have laid them."""
    classes: dict[int, list[Key]] = {}
    for key in nodes:
        classes.setdefault(JOKERS.of(key), []).append(key)
    share = beam // len(classes)
    kept: dict[Key, int] = {}
    for alike in classes.values():
        alike.sort(key=lambda k: nodes[k], reverse=True)
        kept.update((k, nodes[k]) for k in alike[:share])
    return kept
