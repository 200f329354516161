"""The C core (``rules/rummikub/partition/core.c``) against the Python searches it mirrors, in one
process: the same question must get the same answer, choice for choice, from both.

The plain search (:func:`~rules.rummikub.partition.search.native_search` against ``first``,
``improve`` and ``Bounded.above``) and the kept-meld search (``Keeping.layers`` against
``Keeping.searched``, narrow and exact). Where the core is not built (no C compiler, or
``REFEREE_PURE_PYTHON``) there is nothing to compare and these skip; ``test_compiled.py`` makes
sure that ``make test`` builds it.
"""

from __future__ import annotations

import importlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.rummikub import Meld
from rules.rummikub.partition import TileCounts, compiled
from rules.rummikub.partition import search as plain_search
from rules.rummikub.partition.counts import together
from rules.rummikub.partition.keeping import Keeping
from rules.rummikub.partition.programme import Problem
from rules.rummikub.partition.search import BEST, FIRST, Bounded, first, improve, native, native_search
from rules.rummikub.tiles import Tile, parse_tiles
from tests.rules.rummikub.positions import random_position

best_move_module = importlib.import_module("rules.rummikub.best_move")
W = best_move_module._TILE_WEIGHT

pytestmark = pytest.mark.skipif(
    native() is None, reason="the C core is not built here: the Python searches run, and are the reference"
)

# (rack, table) tiles: every size class of bench/rummikub_solvers.py, and small and odd ones
SIZES = [(14, 0), (0, 20), (3, 10), (6, 6), (14, 20), (30, 20), (20, 40), (20, 60), (20, 80), (30, 60)]


def _problem(melds: list[list[Tile]], rack: list[Tile], count_weight: int) -> Problem:
    table = TileCounts.of([t for m in melds for t in m])
    available, jokers = together(table, TileCounts.of(rack))
    return Problem(available, table.naturals, jokers, table.jokers, count_weight)


def _same_plain_answers(melds: list[list[Tile]], rack: list[Tile], count_weight: int) -> None:
    """The three questions of the plain search, each asked of a fresh problem on both sides."""

    def fresh() -> Problem:
        return _problem(melds, rack, count_weight)

    ours = first(fresh())
    assert native_search(fresh(), FIRST) == ours
    best = None if ours is None else improve(fresh(), ours)
    assert native_search(fresh(), BEST) == best
    if best is None:
        assert native_search(fresh(), plain_search.ABOVE, -1) == Bounded(fresh()).above(-1)[0]
        return
    for bound in (best[0] - 1, best[0], best[0] - W, 0):
        assert native_search(fresh(), plain_search.ABOVE, bound) == Bounded(fresh()).above(bound)[0]


def test_the_plain_search_answers_as_the_sources_on_every_size() -> None:
    rng = random.Random(2027)
    for rack_size, table_size in SIZES * 3:
        melds, rack = random_position(rng, table_size, rack_size)
        for count_weight in (W, 0):
            _same_plain_answers(melds, rack, count_weight)


def test_the_plain_search_without_any_arrangement() -> None:
    """Table tiles that fit no meld: no arrangement in either (and the bounded question too)."""
    melds = [parse_tiles("R1 B5 K9")]
    _same_plain_answers(melds, parse_tiles("O13"), W)
    assert native_search(_problem(melds, [], W), BEST) is None


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    table_size=st.integers(0, 80),
    rack_size=st.integers(0, 30),
    count_weight=st.sampled_from([0, 1, W]),
)
def test_the_plain_search_answers_as_the_sources(
    seed: int, table_size: int, rack_size: int, count_weight: int
) -> None:
    melds, rack = random_position(random.Random(seed), table_size, rack_size)
    _same_plain_answers(melds, rack, count_weight)


def _keeping(melds: list[list[Tile]], rack: list[Tile]) -> tuple[Keeping, int, int] | None:
    """The kept-meld search as best_move sets it up, the points its targets start from and the
    melds the plain answer keeps; ``None`` when no rack tile can be laid."""
    old = [Meld(tuple(m)) for m in melds]
    best = best_move_module._solve(old, rack)
    if best is None or not best.placed:
        return None
    _, kept = best_move_module._kept_first(old, [Meld(m) for m in best.melds])
    olds = [(m.tiles, m.reading.stands_for) for m in old]
    search = Keeping.of(olds, TileCounts.of(rack), W, best.score)
    return search, search.problem.unit * search.best, kept


def test_the_kept_meld_search_answers_as_the_sources() -> None:
    """Narrow and exact, for the plain answer's melds, one more, two more with a tight beam."""
    rng = random.Random(31)
    compared = 0
    for rack_size, table_size in [(14, 20), (20, 40), (20, 60), (20, 80), (30, 20), (30, 60), (5, 30)] * 2:
        melds, rack = random_position(rng, table_size, rack_size)
        made = _keeping(melds, rack)
        if made is None:
            continue
        search, points, kept = made
        for target, beam in ((kept, 150), (kept, None), (kept + 1, None), (kept + 2, 12), (kept + 40, None)):
            ours = Keeping(search.problem, search.best, search.suffix).searched(points + target, beam)
            assert Keeping(search.problem, search.best, search.suffix).layers(points + target, beam) == ours
            compared += 1
    assert compared >= 50


def test_the_suffix_bounds_are_the_sources_bounds() -> None:
    """The programme from the other end (the kept-meld search's bounds), for the optimum and for
    scores above and below it."""
    rng = random.Random(5)
    for rack_size, table_size in SIZES * 2:
        melds, rack = random_position(rng, table_size, rack_size)
        problem = _problem(melds, rack, W)
        found = first(problem)
        if found is None:
            continue
        best = improve(problem, found)[0]
        mirrored = plain_search.mirror(problem)
        for score in (best, best - 1, best - W, best + W):
            expected = plain_search.suffix_searched(mirrored, mirrored.optimism(), score)
            assert plain_search.suffix_bounds(problem, score) == expected


def test_bad_questions_are_refused_with_what_is_wrong() -> None:
    core = native()
    problem = _problem([parse_tiles("R1 R2 R3")], parse_tiles("R4"), W)
    args = list(plain_search.native_fields(problem))
    with pytest.raises(ValueError, match="14 counts per colour"):
        core.solve(([[0] * 13] * 4, *args[1:]), None, FIRST, 0)
    with pytest.raises(ValueError, match=r"a count outside 0\.\.2"):
        core.solve(([[3] * 14] * 4, *args[1:]), None, FIRST, 0)
    with pytest.raises(ValueError, match="more table tiles than tiles"):
        core.solve(([[0] * 14] * 4, [[1] * 14] * 4, *args[2:]), None, FIRST, 0)
    with pytest.raises(ValueError, match="no optimism"):
        core.solve(tuple(args), None, BEST, 0)
    with pytest.raises(ValueError, match="optimism: one row per step"):
        core.solve(tuple(args), [[0]], BEST, 0)
    with pytest.raises(ValueError, match="values: 14"):
        core.solve((*args[:-1], [0] * 13), None, FIRST, 0)
    with pytest.raises(TypeError, match="fields are a tuple"):
        core.solve(args, None, FIRST, 0)
    with pytest.raises(ValueError, match="unit"):  # 37 old melds: more than a 106-tile set holds
        core.keep((*args[:5], 38, *args[6:]), problem.optimism(), [], [], [], [], [], [], 0, None, 0, 0)


def test_the_core_runs_only_with_the_compiled_build() -> None:
    assert compiled.CORE is not None and native() is compiled.CORE
