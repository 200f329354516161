"""The one-way imports of DESIGN.md, for all four packages and every module in them: ``rules`` imports
nothing of ours, ``vision`` only ``rules``, ``drivers`` nothing of ours, and only ``device`` wires them
together. Relative imports stay inside their package, so the absolute ones are what is checked."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OURS = {"rules", "vision", "drivers", "device"}
ALLOWED = {
    "rules": {"rules"},
    "vision": {"vision", "rules"},
    "drivers": {"drivers"},
    "device": OURS,
}


def imported_packages(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return [name.split(".")[0] for name in names]


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_point_one_way(package: str) -> None:
    modules = sorted((ROOT / package).rglob("*.py"))
    assert len(modules) >= 5, f"{package}: its modules were not found under {ROOT}"
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in modules
        for name in imported_packages(path)
        if name in OURS and name not in ALLOWED[package]
    ]
    assert offenders == []


def test_the_check_sees_a_wrong_import(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("from device.app import App\nimport rules.dice\nfrom . import sibling\n")
    assert imported_packages(module) == ["device", "rules"]


def test_screens_and_their_drawing_never_touch_opencv() -> None:
    """Screens draw what the vision worker prepared (``device.camera_view``); OpenCV stays in vision."""
    modules = sorted([*(ROOT / "device" / "screens").rglob("*.py"), *(ROOT / "device" / "ui").rglob("*.py")])
    modules.append(ROOT / "device" / "camera_view.py")
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in modules
        for name in imported_packages(path)
        if name == "cv2"
    ]
    assert len(modules) >= 10 and offenders == []
