"""The cyclic garbage collector paused while a search runs (:class:`collector_paused`).

A search allocates hundreds of thousands of small tuples and lists (moves, memo entries) and
never a reference cycle: they are freed by reference counting as they go. The cyclic collector,
triggered by the allocations alone, would only walk them and the rest of the heap — on a device
with pygame, NumPy and OpenCV loaded, a tenth of a search's time or more. So it waits until the
search ends; anything that did make a cycle in the meantime is collected then as usual.
"""

from __future__ import annotations

import gc
import threading
from types import TracebackType

__all__ = ["collector_paused"]

_lock = threading.Lock()
_paused = 0  # searches running (several threads may search at once)
_was_enabled = False


class collector_paused:
    """``with collector_paused(): ...`` — the collector off inside, as it was once all are out."""

    def __enter__(self) -> None:
        global _paused, _was_enabled
        with _lock:
            if not _paused:
                _was_enabled = gc.isenabled()
                gc.disable()
            _paused += 1

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        global _paused
        with _lock:
            _paused -= 1
            if not _paused and _was_enabled:
                gc.enable()
