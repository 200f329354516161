"""The one-way imports of DESIGN.md, for all four packages and every module in them: ``rules`` imports
nothing of ours, ``vision`` only ``rules``, ``drivers`` nothing of ours, and only ``device`` wires them
together. Relative imports stay inside their package, so the absolute ones are what is checked.

Inside ``device`` no two modules import each other, directly or round a circle: the app is at the top
(the game sessions' simulated tables talk to it through ``device.sessions.simulated.TableHost``, not to
``App``), a screen's panels draw through a protocol of the screen, the config and the settings share
``device.config.move_seconds``. Every import counts there, the ones only for the type checker and the
ones inside functions too."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest
import setuptools

ROOT = Path(__file__).resolve().parent.parent
OURS = {"rules", "vision", "drivers", "device", "training"}
ALLOWED = {
    "rules": {"rules"},
    "vision": {"vision", "rules"},
    "drivers": {"drivers"},
    "device": OURS - {"training"},
    "training": {"training", "vision", "rules"},  # the workshop: not installed, never imported at run time
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


def test_the_workshop_is_not_in_the_runtime_package() -> None:
    """The Pi installs the wheel of ``pyproject.toml``: its packages are the four of the runtime, and the
    training code (``training/``, PyTorch) is none of them."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        project = tomllib.load(file)
    include = project["tool"]["setuptools"]["packages"]["find"]["include"]
    packaged = setuptools.find_packages(where=str(ROOT), include=include)
    assert {name.split(".")[0] for name in packaged} == {"rules", "vision", "drivers", "device"}
    assert "vision" in packaged and "device.journal" in packaged
    assert not (ROOT / "vision" / "train").exists() and (ROOT / "training" / "common.py").is_file()


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


def module_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (under ``root``) and the modules of that package it imports, any way:
    at the top, inside a function, under ``TYPE_CHECKING``; ``from a import b`` counts ``a.b`` when
    ``b`` is a module, else ``a`` (a package's ``__init__``, imported on the way, is not counted); a
    package that calls ``import_all`` (``device/discover.py``) imports each module directly in it."""
    paths = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([*here[: len(here) - node.level + 1], *([base] if base else [])])
                for alias in node.names:
                    found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "import_all"
            ):
                found.update(m for m in paths if m.rpartition(".")[0] == name)
        graph[name] = {m for m in found if m in paths and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected parts of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_in_the_device() -> None:
    graph = module_graph(ROOT, "device")
    assert len(graph) >= 50 and "device.sessions.dice_sim" in graph["device.sessions"]
    assert cycles(graph) == []
    sessions = [m for m in graph if m.startswith("device.sessions")]
    assert [m for m in sessions if graph[m] & {"device.app", "device.simulator", "device.appliance"}] == []


def test_the_circle_check_sees_a_circle(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sessions").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "app.py").write_text("import pkg.sessions\nfrom pkg import util\n")
    (package / "util.py").write_text("")
    (package / "config.py").write_text("def timer():\n    from pkg.settings import seconds\n")
    (package / "settings.py").write_text("from pkg.config import timer\n")
    (package / "sessions" / "__init__.py").write_text("from . import table\n")
    (package / "sessions" / "table.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..app import App\n"
    )
    graph = module_graph(tmp_path, "pkg")
    assert graph["pkg.app"] == {"pkg.sessions", "pkg.util"}
    assert graph["pkg.config"] == {"pkg.settings"}  # imported inside a function: it counts
    assert cycles(graph) == [
        ["pkg.app", "pkg.sessions", "pkg.sessions.table"],
        ["pkg.config", "pkg.settings"],
    ]


# What a pure rule engine never does: touch files (builtins, pathlib, NumPy's files, package data) or the
# import machinery. The device reads and writes the files and hands the rules values.
FILE_CALLS = {
    "open", "read_text", "write_text", "read_bytes", "write_bytes", "mkdir", "unlink", "rmdir", "touch",
    "iterdir", "glob", "rglob", "exists", "is_file", "is_dir", "stat",
    "load", "save", "savez", "savez_compressed", "loadtxt", "savetxt", "fromfile", "tofile",
}  # fmt: skip
FILE_MODULES = {"pathlib", "shutil", "tempfile", "sqlite3", "importlib", "glob", "pickle"}
IMPORT_MACHINERY = {"meta_path", "path_hooks", "path_importer_cache", "path", "modules"}
# The Rummikub solver's loader chooses its compiled or plain modules (it reads its build stamp and
# hashes its sources): code, not game data.
PURE_EXCEPTIONS = {"rules/rummikub/partition/compiled.py"}


def impurities(path: Path) -> list[str]:
    """Where a module of the rules does file I/O or an import trick, as ``line: what``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [
                f"{node.lineno}: import {a.name}" for a in node.names if a.name.split(".")[0] in FILE_MODULES
            ]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in FILE_MODULES:
            found.append(f"{node.lineno}: from {node.module} import")
        elif isinstance(node, ast.Call):
            called = node.func
            if isinstance(called, ast.Name) and called.id == "open":
                found.append(f"{node.lineno}: open()")
            elif isinstance(called, ast.Attribute) and called.attr in FILE_CALLS:
                owner = called.value
                if called.attr in ("load", "save") and not (
                    isinstance(owner, ast.Name) and owner.id in ("np", "numpy", "json", "pickle")
                ):
                    continue  # e.g. a class's own ``load``: only NumPy's and the serialisers' touch files
                found.append(f"{node.lineno}: .{called.attr}()")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "sys" and node.attr in IMPORT_MACHINERY:
                found.append(f"{node.lineno}: sys.{node.attr}")
            elif node.value.id == "os" and node.attr not in ("PathLike", "linesep", "sep"):
                found.append(f"{node.lineno}: os.{node.attr}")
    return sorted(found, key=lambda where: int(where.split(":")[0]))


def test_the_rules_do_no_file_io_and_no_import_tricks() -> None:
    modules = sorted((ROOT / "rules").rglob("*.py"))
    offenders = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in modules
        if path.relative_to(ROOT).as_posix() not in PURE_EXCEPTIONS
        for where in impurities(path)
    ]
    assert len(modules) >= 50 and offenders == []
    assert not list((ROOT / "rules").rglob("conftest.py")), "a conftest.py inside the package"


def test_the_purity_check_sees_file_io_and_import_tricks(tmp_path: Path) -> None:
    module = tmp_path / "impure.py"
    module.write_text(
        "import sys, os\nfrom importlib import resources\nimport numpy as np\n"
        "text = open('x').read()\npath.write_text('y')\nnp.savez(f, a=1)\nsys.meta_path.insert(0, None)\n"
        "os.replace('a', 'b')\nTable.load(model)\njson.load(f)\n"
    )
    assert impurities(module) == [
        "2: from importlib import",
        "4: open()",
        "5: .write_text()",
        "6: .savez()",
        "7: sys.meta_path",
        "8: os.replace",
        "10: .load()",
    ]
