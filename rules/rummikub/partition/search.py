"""The searches that answer the plain question: the best arrangement of a table and a rack.

With rack tiles only, the whole programme runs breadth-first (:func:`by_layers`). With table
tiles its nodes are many more: a depth-first search finds a first arrangement (:func:`first`),
then a memoised bounded search (:class:`Bounded`) computes nodes' best completions only as far as
needed to beat it (:func:`improve`). Every way computes the programme's optimum, so all are exact.
:func:`suffix_bounds` runs the programme from the other end, for the kept-meld search.

In the compiled build :func:`first`, :func:`improve` (:class:`Bounded`) and the search of
:func:`suffix_bounds` run in C (``core.c``, see :func:`native`): the same moves in the same order,
so the same arrangement, choice for choice; the functions here are the reference.
"""

from __future__ import annotations

from typing import Any

from rules.rummikub.partition import compiled
from rules.rummikub.partition.counts import TileCounts, together
from rules.rummikub.partition.key import (
    COLOUR_STATE,
    JOKERS,
    KEY_BITS,
    NC,
    NUMBER_PART,
    START,
    STATE_ID,
    STATES,
    STEPS,
    Key,
    reads,
)
from rules.rummikub.partition.pause import collector_paused
from rules.rummikub.partition.programme import Choice, Delta, Found, Problem, colour_options
from rules.rummikub.partition.rebuild import Arrangement, rebuild

__all__ = [
    "IMPOSSIBLE",
    "Bounded",
    "by_layers",
    "first",
    "improve",
    "mirror",
    "native",
    "native_fields",
    "native_search",
    "solve",
    "suffix_bounds",
    "suffix_searched",
]

IMPOSSIBLE = -(10**9)  # the value of a node without any completion
_JOKERS_PLACE = JOKERS.place  # JOKERS.of inlined where the searches spend their time
_LAST = len(STEPS)
_READ_PLACE = [COLOUR_STATE[c].place if c < NC else 0 for _, c in STEPS]
_RADIX = len(STATES)


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
    be placed. Exact. (The search itself: :func:`_solve`; the cyclic collector waits meanwhile.)"""
    with collector_paused():
        return _solve(table, rack, count_weight, first_only=first_only, above=above)


def _solve(
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
    to the memoised search, often much faster than the optimum itproblem.

    Rack tiles only: the whole programme, breadth-first. Otherwise two greedy depth-first
    searches find arrangements quickly (or prove there is none: nodes without a completion are
    remembered); with ``first_only`` the better one is the answer (any arrangement, not the most
    valuable). Otherwise :meth:`_Problem.improve` proves or improves it.
    """
    available, jokers = together(table, rack)
    problem = Problem(available, table.naturals, jokers, table.jokers, count_weight)
    fast = native() is not None
    if above is not None:
        offset = count_weight * table.jokers  # the programme counts table jokers as placed
        if fast:
            answer = native_search(problem, ABOVE, above + offset)
        else:
            answer = Bounded(problem).above(above + offset)[0]
        return None if answer is None else rebuild(answer[1], answer[0] - offset, table)
    if not len(table) and not first_only:
        # Rack tiles only (an opening): few enough nodes to run the whole programme.
        found = by_layers(problem)
        assert found is not None  # laying nothing is an arrangement
        score, choices = found
        return rebuild(choices, score, table)
    if fast:
        found = native_search(problem, FIRST if first_only else BEST)
    else:
        found = first(problem)
        if found is not None and not first_only:
            found = improve(problem, found)
    if found is None:
        return None
    score, choices = found
    return rebuild(choices, score - count_weight * table.jokers, table)


# The questions native_search asks the C core (core.c's solve, its ``mode``).
ABOVE = 0  # Bounded(problem).above(bound)[0]
FIRST = 1  # first(problem)
BEST = 2  # first(problem), then improve(problem, it)
_CONFIGURED: list[Any] = []  # the C core once it knows the run states and their options


def native() -> Any:
    """The C core (``core.c``) when the compiled build runs (:data:`.compiled.CORE`), told once the
    run states and each one's colour options, in :func:`.programme.colour_options`' order; else
    ``None``: the searches here run."""
    if compiled.CORE is None:
        return None
    if not _CONFIGURED:
        compiled.CORE.configure(
            list(STATES),
            [
                [(STATE_ID[option[0]], *option[1:]) for option in colour_options(state, k, m, left)]
                if m <= k
                else []
                for state in STATES
                for k in range(3)
                for m in range(3)
                for left in range(3)
            ],
        )
        _CONFIGURED.append(compiled.CORE)
    return _CONFIGURED[0]


def native_fields(problem: Problem) -> tuple[object, ...]:
    """What every question to the C core starts with: the problem's tiles and gains, one tuple."""
    return (
        problem.available,
        problem.must,
        problem.jokers,
        problem.table_jokers,
        problem.count_weight,
        problem.unit,
        list(problem.values),
    )


def native_search(problem: Problem, question: int, bound: int = 0) -> Found | None:
    """``question`` (:data:`ABOVE`, :data:`FIRST` or :data:`BEST`) answered by the C core, exactly
    as the searches here answer it; only for a plain :class:`.programme.Problem`."""
    core = native()
    assert core is not None and type(problem) is Problem
    optimism = None if question == FIRST else problem.optimism()
    found: Found | None = core.solve(native_fields(problem), optimism, question, bound)
    return found


def first(problem: Problem) -> Found | None:
    """The better of two depth-first arrangements (jokers late; biggest gain first), or
    ``None`` when there is none."""
    found = [_depth_first(problem, late) for late in (True, False)]
    return max((f for f in found if f is not None), key=lambda f: f[0], default=None)


def _depth_first(problem: Problem, late: bool) -> Found | None:
    """Some arrangement, found depth-first trying the most tiles first (with ``late``, moves
    with jokers last); ``None`` if none exists.

    Nodes without any completion are remembered, so the search is finite and complete."""
    dead: set[int] = set()
    choices: list[Choice] = []
    cache: dict[int, list[Delta]] = {}

    def descend(index: int, key: Key, score: int) -> int | None:
        if index == _LAST:
            return score if problem.complete(key) else None
        node = key * _LAST + index
        if node in dead:
            return None
        place = _READ_PLACE[index]  # reads(index, key), inlined
        local = (
            key % NUMBER_PART if not place else key // place % _RADIX * NUMBER_PART + key % NUMBER_PART
        ) * _LAST + index
        moves = cache.get(local)
        if moves is None:
            moves = cache[local] = problem.deltas(index, key, late)
        for delta, gain, choice in moves:
            choices.append(choice)
            found = descend(index + 1, key + delta, score + gain)
            if found is not None:
                return found
            choices.pop()
        dead.add(node)
        return None

    score = descend(0, START, 0)
    return None if score is None else (score, choices)


def by_layers(problem: Problem) -> Found | None:
    """The best arrangement, or ``None``: the programme run breadth-first over the steps,
    keeping one node per key with its best score and the node it came from.

    A step's moves depend only on the part of the key that step reads, so they are computed
    once per such part. A node's entry packs ``score << KEY_BITS | previous key`` into one
    int (the inner loop is then one comparison per move); the move taken is recovered at the
    end, as the one leading from the previous key to this one. When no table joker must be
    placed, a node that used more jokers and scores no more than the same node with fewer is
    dropped: the latter can do all that it can.
    """
    free_jokers = problem.table_jokers == 0
    layer: dict[Key, int] = {START: 0}
    history: list[tuple[dict[Key, int], dict[int, list[tuple[int, int, Choice]]]]] = []
    mask = (1 << KEY_BITS) - 1
    for index in range(len(STEPS)):
        cache: dict[int, list[tuple[int, int, Choice]]] = {}
        nxt: dict[Key, int] = {}
        place = _READ_PLACE[index]
        for key, packed in layer.items():
            # reads(index, key), inlined
            local = (
                key % NUMBER_PART if not place else key // place % _RADIX * NUMBER_PART + key % NUMBER_PART
            )
            moves = cache.get(local)
            if moves is None:
                moves = [
                    (delta, gain << KEY_BITS, choice)
                    for delta, gain, choice in problem.step_deltas(index, key)
                ]
                cache[local] = moves
            base = (packed & ~mask) | key
            for delta, gain, _ in moves:
                new_key = key + delta
                entry = base + gain
                if nxt.get(new_key, -1) < entry:
                    nxt[new_key] = entry
        if free_jokers:
            for key in [k for k in nxt if k // _JOKERS_PLACE % 3]:
                floor = nxt[key] & ~mask  # an entry at least this big scores at least as much
                fewer = key - _JOKERS_PLACE
                if nxt.get(fewer, -1) >= floor or (
                    fewer // _JOKERS_PLACE % 3 and nxt.get(fewer - _JOKERS_PLACE, -1) >= floor
                ):
                    del nxt[key]
        history.append((nxt, cache))
        layer = nxt
    finals = [(packed >> KEY_BITS, key) for key, packed in layer.items() if problem.complete(key)]
    if not finals:
        return None
    score, key = max(finals)
    choices: list[Choice] = []
    for index in range(len(STEPS) - 1, -1, -1):
        nodes, cache = history[index]
        packed = nodes[key]
        previous = packed & mask
        gained = (packed >> KEY_BITS) - ((history[index - 1][0][previous] >> KEY_BITS) if index else 0)
        local = reads(index, previous)
        choices.append(
            next(
                choice
                for delta, gain, choice in cache[local]
                if delta == key - previous and gain >> KEY_BITS == gained
            )
        )
        key = previous
    choices.reverse()
    return score, choices


def suffix_bounds(problem: Problem, best: int) -> list[int]:
    """``bounds[n]``: the most points the numbers n..13 add in an arrangement scoring
    ``best`` (the optimum), for n = 1..14.

    The programme run on the numbers mirrored (13 first; a run read backwards is a run, and
    each tile keeps its value), breadth-first, a node kept while its optimism reaches
    ``best``; after each number, the best node's points bound what those numbers add: a
    run still open there is allowed, for it may go on below.
    """
    mirrored = mirror(problem)
    optimism = mirrored.optimism()
    core = native()
    if core is not None:  # the same breadth-first search in C (core.c's suffix)
        bounds: list[int] = core.suffix(native_fields(mirrored), optimism, best)
        return bounds
    return suffix_searched(mirrored, optimism, best)


def mirror(problem: Problem) -> Problem:
    """The plain ``problem`` on the numbers mirrored: 13 is 1, and so on; each tile keeps its value."""
    return Problem(
        [[row[0], *row[:0:-1]] for row in problem.available],
        tuple((row[0], *row[:0:-1]) for row in problem.must),
        problem.jokers,
        problem.table_jokers,
        problem.count_weight,
        values=(0, *range(13, 0, -1)),
    )


def suffix_searched(mirrored: Problem, optimism: list[list[int]], best: int) -> list[int]:
    """:func:`suffix_bounds`' search in Python, the reference: ``mirrored`` (:func:`mirror`) and
    its optimism."""
    jokers = mirrored.jokers
    bounds = [0] * 15
    layer: dict[Key, int] = {START: 0}
    for index, (n, c) in enumerate(STEPS):
        bound = optimism[index + 1]
        cache: dict[int, list[tuple[int, int, int]]] = {}
        nxt: dict[Key, int] = {}
        place = _READ_PLACE[index]
        for key, score in layer.items():
            # reads(index, key), inlined
            local = (
                key % NUMBER_PART if not place else key // place % _RADIX * NUMBER_PART + key % NUMBER_PART
            )
            moves = cache.get(local)
            if moves is None:
                moves = cache[local] = sorted(
                    (
                        (delta, gain, gain + bound[jokers - (key + delta) // _JOKERS_PLACE % 3])
                        for delta, gain, _ in mirrored.step_deltas(index, key)
                    ),
                    key=lambda move: -move[2],
                )
            floor = best - score
            for delta, gain, hope in moves:
                if hope < floor:
                    break  # and so do the moves after it
                value = score + gain
                if nxt.get(key + delta, -1) < value:
                    nxt[key + delta] = value
        layer = nxt
        if c == NC:
            bounds[14 - n] = max(layer.values(), default=0)
    return bounds


def improve(problem: Problem, found: Found) -> Found:
    """The optimum, starting from the arrangement ``found``: one question to the memoised search
    (:class:`Bounded`), for an arrangement scoring more than ``found``. Where there is one it
    returns the optimum itself, and every node it visits is bounded by the best found so far.

    (A bisection between ``found`` and the optimism asked more questions and cost a quarter more:
    the first arrangement is seldom the optimum on a small table, so the last question, the one
    that decides, was always asked anyway.)
    """
    better, _ = Bounded(problem).above(found[0])
    return found if better is None else better


class Bounded:
    """Exact best completions of the programme's nodes, computed only as far as a question needs.

    ``_value(index, key, need)`` answers "what do the steps from ``index`` on add at best, from
    node ``key``?" — exactly when that is more than ``need``, otherwise with an upper bound not
    above ``need`` (fail-soft bounded search). A node's completions do not depend on how it was
    reached, so both answers are remembered per node and reused by every later question: an exact
    value for good, an upper bound until a lower ``need`` asks again. One int per node holds
    either, ``value << 1 | exact`` (one lookup, nothing allocated); the arrangement is read off
    the exact values afterwards (:meth:`_way`).
    """

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.optimism = problem.optimism()
        self.known: dict[int, int] = {}
        self.jokers = problem.jokers
        self.moves: dict[int, list[Delta]] = {}

    def above(self, bound: int) -> tuple[Found | None, int]:
        """The best arrangement if it scores more than ``bound``, else ``None`` and an upper bound
        of every score (at most ``bound``)."""
        score = self._value(0, START, bound)
        if score <= bound:
            return None, score
        return (score, self._way(score)), score

    def _way(self, score: int) -> list[Choice]:
        """The choices of an arrangement scoring ``score``, the exact value of the start: at each
        node a move whose gain and the exact value it leads to make up the node's value."""
        choices: list[Choice] = []
        key, value = START, score
        for index in range(_LAST):
            for delta, gain, choice in self._moves(index, key):
                child = key + delta
                if index + 1 == _LAST:
                    rest = 0 if self.problem.complete(child) else IMPOSSIBLE
                else:
                    packed = self.known.get(child * _LAST + index + 1, 0)
                    rest = packed >> 1 if packed & 1 else IMPOSSIBLE
                if gain + rest == value:
                    choices.append(choice)
                    key, value = child, rest
                    break
            else:
                raise AssertionError("an exact value without a move that makes it up")
        return choices

    def _moves(self, index: int, key: Key) -> list[Delta]:
        # reads(index, key), inlined: this is where the search spends its time
        place = _READ_PLACE[index]
        local = key % NUMBER_PART if not place else key // place % _RADIX * NUMBER_PART + key % NUMBER_PART
        moves = self.moves.get(local * _LAST + index)
        if moves is None:
            moves = self.moves[local * _LAST + index] = self.problem.deltas(index, key, late=True)
        return moves

    def _value(self, index: int, key: Key, need: int) -> int:
        if index == _LAST:
            return 0 if self.problem.complete(key) else IMPOSSIBLE
        node = key * _LAST + index
        packed = self.known.get(node)
        if packed is None:
            upper = self.optimism[index][self.jokers - key // _JOKERS_PLACE % 3]
        elif packed & 1:
            return packed >> 1
        else:
            upper = packed >> 1
        if upper <= need:
            return upper
        best = IMPOSSIBLE
        floor = need
        for delta, gain, _ in self._moves(index, key):
            value = gain + self._value(index + 1, key + delta, floor - gain)
            if value > best:
                best = value
                if best > floor:
                    floor = best
        # Every move that failed its question was bounded by the best so far, so above ``need``
        # this is exact.
        self.known[node] = best << 1 | 1 if best > need else max(best, IMPOSSIBLE) << 1
        return best
