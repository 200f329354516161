"""Every benchmark script still imports against the code it measures (a renamed class once broke
``bench/device_frame.py`` unnoticed, since no test runs the benchmarks)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
OPTIONAL = {"rummikub_solver"}  # the ``bench`` extra: the peer solver the solver benchmark compares with


@pytest.mark.parametrize("path", sorted(BENCH.glob("*.py")), ids=lambda p: p.name)
def test_the_benchmark_imports(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    try:
        spec.loader.exec_module(module)
    except ModuleNotFoundError as exc:
        if exc.name not in OPTIONAL:
            raise
        pytest.skip(f"needs the bench extra ({exc.name})")
    assert callable(getattr(module, "main", None)), f"{path.name} has no main()"
