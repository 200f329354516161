"""Which solver runs: the modules compiled by mypyc with the C core, or their Python sources
(the reference).

``setup.py`` compiles the modules of :data:`MODULES` in place with mypyc (about three times
faster, the same code) and builds :data:`NATIVE`, the searches of :mod:`.search` and :mod:`.keeping`
written in C (``core.c``: the same moves in the same order, many times faster), and writes :data:`STAMP`
beside them: the SHA-256 of every source it compiled. At import, :func:`choose` keeps the
compiled modules and the core only when that stamp matches the sources and
``REFEREE_PURE_PYTHON`` is not set; otherwise it executes those modules from their ``.py`` files,
named and in order (:func:`load_sources`), and :data:`CORE` stays ``None``. So a source edited after
the build, a build that failed (no C compiler) or a stamp from another checkout can never leave
stale code running: the sources are what runs unless the compiled code is theirs. The choice is
made once, by the package's ``__init__``, and touches nothing but the solver's own modules (no
import hook: the rest of the process imports as Python does).

Reading the stamp and hashing the sources is the one file access in ``rules/``: it chooses code, it
reads no game data (``tests/test_layering.py`` holds every other module to that).

This module uses the standard library only: ``setup.py`` loads it by path, before the package
is importable.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

__all__ = [
    "CORE",
    "ENV",
    "GROUP",
    "MODULES",
    "NATIVE",
    "PACKAGE",
    "STAMP",
    "choose",
    "digests",
    "fresh",
    "load_sources",
    "sources",
]

PACKAGE = "rules.rummikub.partition"
MODULES = ("counts", "key", "pause", "programme", "rebuild", "search", "keeping")  # in the order they import
GROUP = f"{PACKAGE}.native"  # mypyc's shared library: rules/rummikub/partition/native__mypyc.*.so
NATIVE = "_core"  # the C core: rules/rummikub/partition/_core.*.so, built from core.c
NATIVE_SOURCE = "core.c"
STAMP = "compiled.json"
ENV = "REFEREE_PURE_PYTHON"  # set (to anything but "" or "0"): always the Python sources
HERE = Path(__file__).resolve().parent
CORE: Any = None  # the C core's module when choose() keeps the compiled build, else None


def sources(directory: Path = HERE) -> list[Path]:
    """The compiled modules' sources in ``directory`` (the package's folder), the core's last."""
    return [*(directory / f"{name}.py" for name in MODULES), directory / NATIVE_SOURCE]


def digests(directory: Path = HERE) -> dict[str, str]:
    return {path.stem: hashlib.sha256(path.read_bytes()).hexdigest() for path in sources(directory)}


def fresh(directory: Path = HERE) -> bool:
    """Whether the stamp in ``directory`` names exactly the sources there."""
    try:
        recorded = json.loads((directory / STAMP).read_text())
    except (OSError, ValueError):
        return False
    return bool(recorded == digests(directory))


def pure_wanted() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def load_sources() -> None:
    """Execute the solver's modules from their ``.py`` files under their own names, in
    :data:`MODULES` order: each one's imports of the earlier ones find them already loaded, never
    a compiled extension beside them."""
    package = sys.modules[PACKAGE]
    for position, name in enumerate(MODULES):
        fullname = f"{PACKAGE}.{name}"
        spec = importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[fullname] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[fullname]
            raise
        setattr(package, name, module)
        early = [later for later in MODULES[position + 1 :] if f"{PACKAGE}.{later}" in sys.modules]
        if early:  # it imported a later module, which Python may have found compiled
            raise ImportError(f"{fullname} imports {early} before their turn: fix the order of MODULES")


def _forget(names: list[str]) -> None:
    for name in names:
        sys.modules.pop(f"{PACKAGE}.{name}", None)


def choose() -> bool:
    """Import the solver's modules, compiled when that is safe (see above); whether they are."""
    global CORE
    names = [NATIVE, *MODULES]
    if not pure_wanted() and fresh():
        try:
            loaded = [importlib.import_module(f"{PACKAGE}.{name}") for name in names]
        except ImportError:  # a broken or partial build: start again from the sources
            _forget(names)
        else:
            if all(not str(module.__file__).endswith(".py") for module in loaded):
                CORE = loaded[0]
                return True
            _forget(names)
    CORE = None
    load_sources()
    return False
