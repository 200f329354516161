"""The build's one step beyond ``pyproject.toml``: the Rummikub solver compiled.

The solver's modules (``rules/rummikub/partition``) are plain, fully typed Python. mypyc, part of
mypy (wheels for x86-64 and aarch64), turns them into C extensions that run the same code about
three times faster; ``core.c``, the searches written in C, is built beside them. That needs a
C compiler and the Python headers (on a Pi: ``sudo apt install build-essential python3-dev``).
Without them, or with ``REFEREE_PURE_PYTHON=1``, the extensions are skipped and the package is
pure Python, the reference; ``partition/compiled.py`` decides at import which of the two runs,
and never runs compiled code older than its sources.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import setuptools

# pyproject.toml's licence is a PEP 639 string, which setuptools reads from version 77 on; an older one
# (Debian's, in a venv made by `python3 -m venv`) fails on it with a schema error that does not say so.
if int(setuptools.__version__.split(".")[0]) < 77:
    raise SystemExit(
        f"setup.py: setuptools {setuptools.__version__} is too old for pyproject.toml (its licence string,"
        " PEP 639, needs setuptools >= 77): python -m pip install --upgrade 'setuptools>=77'"
    )

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

_spec = importlib.util.spec_from_file_location("_compiled", "rules/rummikub/partition/compiled.py")
assert _spec is not None and _spec.loader is not None
compiled = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compiled)
SOURCE_DIR = Path("rules/rummikub/partition")


def extensions() -> list[Any]:
    if compiled.pure_wanted():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # no mypy in the build environment: pure Python
        return []
    found: list[Any] = mypycify(
        [str(path) for path in compiled.sources(SOURCE_DIR) if path.suffix == ".py"],
        opt_level="3",
        group_name=compiled.GROUP,
    )
    found.append(
        Extension(
            f"{compiled.PACKAGE}.{compiled.NATIVE}",
            [str(SOURCE_DIR / compiled.NATIVE_SOURCE)],
            extra_compile_args=["-O2", "-std=c11"],
        )
    )
    for extension in found:
        extension.optional = True  # a failed compile leaves the pure-Python package
    return found


class BuildExt(build_ext):
    """``build_ext`` that stamps the extensions with the sources they were built from."""

    def run(self) -> None:
        super().run()
        if not self.extensions:
            return
        built = all(Path(self.get_ext_fullpath(e.name)).exists() for e in self.extensions)
        stamp = (SOURCE_DIR if self.inplace else Path(self.build_lib) / SOURCE_DIR) / compiled.STAMP
        if built:
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(json.dumps(compiled.digests(SOURCE_DIR), indent=1) + "\n")
        elif stamp.exists():
            stamp.unlink()


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
