"""Independent oracles for the Rummikub solvers: brute force over sub-multisets (small cases, melds
judged by ``read_meld``) and an integer programme solved by HiGHS (full-size cases).

Used by the tests (a few hundred cases) and by ``bench/rummikub_crosscheck.py`` (thousands).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from functools import cache

from rules import IllegalAction
from rules.rummikub.melds import read_meld
from rules.rummikub.tiles import COLOURS, JOKER, NUMBERS, Tile

TILE_WEIGHT = 2000  # as in best_move: one more tile laid beats any value


def multiset_value(tiles: Sequence[Tile]) -> int | None:
    """The greatest value of any table order of these tiles that reads as a meld, or ``None``.

    Orders tried: the natural tiles by number, with the jokers inserted at every pair of places —
    every run and every group has such an order."""
    naturals = sorted((t for t in tiles if not t.is_joker), key=lambda t: (t.number, t.colour))
    jokers = len(tiles) - len(naturals)
    best = None
    size = len(tiles)
    for places in itertools.combinations(range(size), jokers):
        rest = iter(naturals)
        order = [JOKER if i in places else next(rest) for i in range(size)]
        try:
            value = read_meld(order).value
        except IllegalAction:
            continue
        best = value if best is None else max(best, value)
    return best


def _key(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=Tile.sort_key))


def _melds_with_first(tiles: tuple[Tile, ...]) -> list[tuple[tuple[Tile, ...], tuple[Tile, ...], int]]:
    """Every (meld, rest, value) where the meld is a sub-multiset holding ``tiles[0]``."""
    first, others = tiles[0], tiles[1:]
    found = {}
    for size in range(2, min(len(others), 12) + 1):
        for combo in itertools.combinations(range(len(others)), size):
            meld = _key([first, *(others[i] for i in combo)])
            if meld in found:
                continue
            value = multiset_value(meld)
            if value is not None:
                rest = list(tiles)
                for t in meld:
                    rest.remove(t)
                found[meld] = (meld, tuple(rest), value)
    return list(found.values())


@cache
def _best_partition(tiles: tuple[Tile, ...], optional: tuple[Tile, ...]) -> int | None:
    """Greatest value of melds using every tile of ``tiles`` (all must be placed), ``None`` if
    impossible; ``optional`` is unused (kept for cache keys of callers)."""
    if not tiles:
        return 0
    best = None
    for _, rest, value in _melds_with_first(tiles):
        sub = _best_partition(rest, optional)
        if sub is not None and (best is None or value + sub > best):
            best = value + sub
    return best


@cache
def _best_subset(tiles: tuple[Tile, ...]) -> int:
    """Greatest value of disjoint melds from ``tiles`` (any tile may stay unused)."""
    if not tiles:
        return 0
    best = _best_subset(tiles[1:])
    for _, rest, value in _melds_with_first(tiles):
        best = max(best, value + _best_subset(rest))
    return best


def brute_opening(rack: Sequence[Tile]) -> int:
    return _best_subset(_key(rack))


def brute_arrangeable(tiles: Sequence[Tile]) -> bool:
    return _best_partition(_key(tiles), ()) is not None


def brute_best_move(table: Sequence[Tile], rack: Sequence[Tile]) -> tuple[int, int] | None:
    """``(rack tiles laid, value of the table after)`` of the best play, laying nothing included;
    ``None`` if the table tiles themselves cannot be arranged."""
    best = None
    seen = set()
    for size in range(len(rack), -1, -1):
        for combo in itertools.combinations(range(len(rack)), size):
            laid = _key([rack[i] for i in combo])
            if laid in seen:
                continue
            seen.add(laid)
            value = _best_partition(_key([*table, *laid]), ())
            if value is not None and (best is None or (size, value) > best):
                best = (size, value)
        if best is not None and best[0] == size:
            return best
    return best


def _all_melds() -> list[tuple[Counter[Tile], int]]:
    """Every meld as (tile counts, value): runs of 3–5 with up to two jokers in any slots, groups
    of 3–4 with up to two jokers. Longer runs are not needed: they split into runs of 3–5 of the
    same total value, each still holding a natural tile."""
    melds: list[tuple[Counter[Tile], int]] = []
    for colour in COLOURS:
        for length in range(3, 6):
            for start in range(1, 15 - length):
                numbers = list(range(start, start + length))
                for jokers in range(3):
                    if jokers >= length:
                        continue
                    for places in itertools.combinations(range(length), jokers):
                        counts: Counter[Tile] = Counter()
                        for i, n in enumerate(numbers):
                            counts[JOKER if i in places else Tile(colour, n)] += 1
                        melds.append((counts, sum(numbers)))
    for n in NUMBERS:
        for size in (1, 2, 3, 4):
            for colours in itertools.combinations(COLOURS, size):
                for jokers in range(3):
                    if size + jokers in (3, 4):
                        counts = Counter(Tile(c, n) for c in colours)
                        if jokers:
                            counts[JOKER] = jokers
                        melds.append((counts, n * (size + jokers)))
    return melds


_MELDS = _all_melds()
_TYPES = [Tile(c, n) for c in COLOURS for n in NUMBERS] + [JOKER]


def ilp_best(table: Sequence[Tile], rack: Sequence[Tile], tile_weight: int) -> int | None:
    """The optimum of ``tile_weight × rack tiles laid + value of all melds`` (every table tile
    placed) by HiGHS, or ``None`` when infeasible."""
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    table_counts = Counter(table)
    rack_counts = Counter(rack)
    index = {t: i for i, t in enumerate(_TYPES)}
    usable = {t for t in _TYPES if table_counts[t] + rack_counts[t] > 0}
    melds = [(c, v) for c, v in _MELDS if all(t in usable for t in c)]
    rows: list[list[tuple[int, int]]] = [[] for _ in _TYPES]
    for j, (counts, value) in enumerate(melds):
        h.addCol(float(value), 0.0, 2.0, 0, [], [])
        for t, k in counts.items():
            rows[index[t]].append((j, k))
    offset = len(melds)
    for i, t in enumerate(_TYPES):
        h.addCol(float(tile_weight), 0.0, float(rack_counts[t]), 0, [], [])
        rows[i].append((offset + i, -1))
    for i in range(offset + len(_TYPES)):
        h.changeColIntegrality(i, highspy.HighsVarType.kInteger)
    for i, t in enumerate(_TYPES):
        entries = rows[i]
        bound = float(table_counts[t])
        h.addRow(bound, bound, len(entries), [j for j, _ in entries], [float(k) for _, k in entries])
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return round(h.getInfo().objective_function_value)


def brute_fewest_changed(
    melds: Sequence[Sequence[Tile]], rack: Sequence[Tile]
) -> tuple[int, int, int] | None:
    """``(rack tiles laid, value of the table after, old melds changed)`` of the best play by
    brute force: every set of old melds left as they lie, the rest arranged with the rack by
    :func:`brute_best_move`; ``None`` if the table cannot be arranged."""
    from rules.rummikub.melds import Meld

    best: tuple[int, int, int] | None = None
    for size in range(len(melds) + 1):
        for kept in itertools.combinations(range(len(melds)), size):
            loose = [t for i, m in enumerate(melds) if i not in kept for t in m]
            found = brute_best_move(loose, rack)
            if found is None:
                continue
            kept_value = sum(Meld(tuple(melds[i])).value for i in kept)  # as it lies
            candidate = (found[0], found[1] + kept_value, -(len(melds) - size))
            if best is None or candidate > best:
                best = candidate
    return None if best is None else (best[0], best[1], -best[2])


def ilp_fewest_changed(melds: Sequence[Sequence[Tile]], rack: Sequence[Tile]) -> tuple[int, int, int] | None:
    """The same by HiGHS: an integer programme whose variables also say which old melds stay
    (their tiles then leave the ones to arrange), maximising laid tiles, then value, then melds
    kept, as one weighted sum."""
    import highspy

    from rules.rummikub.melds import Meld

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    keep_weight = 1
    value_weight = len(melds) + 1
    tile_weight = TILE_WEIGHT * value_weight
    table_counts = Counter(t for m in melds for t in m)
    rack_counts = Counter(rack)
    index = {t: i for i, t in enumerate(_TYPES)}
    usable = {t for t in _TYPES if table_counts[t] + rack_counts[t] > 0}
    templates = [(c, v) for c, v in _MELDS if all(t in usable for t in c)]
    rows: list[list[tuple[int, float]]] = [[] for _ in _TYPES]
    column = 0
    for counts, value in templates:
        h.addCol(float(value_weight * value), 0.0, 2.0, 0, [], [])
        for t, k in counts.items():
            rows[index[t]].append((column, float(k)))
        column += 1
    for t in _TYPES:
        h.addCol(float(tile_weight), 0.0, float(rack_counts[t]), 0, [], [])
        rows[index[t]].append((column, -1.0))
        column += 1
    for meld in melds:
        # kept: its tiles count as placed, so they move to the left of each row's equation
        h.addCol(float(value_weight * Meld(tuple(meld)).value + keep_weight), 0.0, 1.0, 0, [], [])
        for t, k in Counter(meld).items():
            rows[index[t]].append((column, float(k)))
        column += 1
    for i in range(column):
        h.changeColIntegrality(i, highspy.HighsVarType.kInteger)
    for i, t in enumerate(_TYPES):
        entries = rows[i]
        bound = float(table_counts[t])
        h.addRow(bound, bound, len(entries), [j for j, _ in entries], [k for _, k in entries])
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    total = round(h.getInfo().objective_function_value)
    laid, rest = divmod(total, tile_weight)
    value, kept = divmod(rest, value_weight)
    return laid, value, len(melds) - kept
