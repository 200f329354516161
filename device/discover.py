"""A game's parts register themselves where they are defined: its session (``register_session``), its
simulated table (``register_table``) and its screens (``@screen``). The packages that hold them import
every module they contain, in name order, so adding a game adds files and edits no list."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable

__all__ = ["import_all"]


def import_all(package: str, path: Iterable[str]) -> list[str]:
    """Import every module and subpackage of ``package`` (found on its ``__path__``), in name order;
    their names."""
    names = sorted(found.name for found in pkgutil.iter_modules(list(path)))
    for name in names:
        importlib.import_module(f"{package}.{name}")
    return names
