"""drivers imports nothing of ours but drivers.* (DESIGN.md: only device wires the packages together)."""

from __future__ import annotations

import ast
from pathlib import Path

import drivers

OURS = {"rules", "vision", "device", "drivers"}


def test_drivers_import_only_drivers() -> None:
    root = Path(drivers.__file__).parent
    offenders = []
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in OURS - {"drivers"}]
    assert offenders == []
    assert len(list(root.glob("*.py"))) >= 7
