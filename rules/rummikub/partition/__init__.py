"""The exact solver behind every Rummikub search: split tiles into melds, optimally.

One idea per module, in the order a reader meets them:

- :mod:`.counts` — tiles as counts by colour and number (:class:`TileCounts`);
- :mod:`.key` — the search node packed into one int, a codec with named fields;
- :mod:`.programme` — the dynamic programme over the numbers 1..13 (after van Rijn, Takes and
  Vis, 2015): each step's moves and the optimistic bounds of what the later steps can add;
- :mod:`.search` — the searches for the plain question (:func:`solve`): breadth-first for a rack
  alone, depth-first then a memoised bounded search with a table;
- :mod:`.keeping` — the kept-meld search (:func:`solve_keeping`): of the best arrangements, one
  that leaves the most old melds as they lie;
- :mod:`.rebuild` — the melds laid out from a search's choices (:class:`Arrangement`).

The objective is ``count_weight × rack tiles placed + value of the placed melds``; callers choose
the weight (0 for the pure value of an opening, large for "most tiles first, then value").

These modules are compiled with mypyc when the package is built (``setup.py``), and the searches
of :mod:`.search` and :mod:`.keeping` are built again from ``core.c``, the same searches in C;
:mod:`.compiled` makes sure that only compiled code matching the sources runs, else the sources
themselves. :data:`COMPILED` says which.
"""

from rules.rummikub.partition import compiled as _compiled

COMPILED = _compiled.choose()

# After choose(): these are then the modules it chose.
from rules.rummikub.partition.counts import TileCounts  # noqa: E402
from rules.rummikub.partition.keeping import solve_keeping  # noqa: E402
from rules.rummikub.partition.programme import groups_fit  # noqa: E402
from rules.rummikub.partition.rebuild import Arrangement  # noqa: E402
from rules.rummikub.partition.search import solve  # noqa: E402

__all__ = ["COMPILED", "Arrangement", "TileCounts", "groups_fit", "solve", "solve_keeping"]
