"""A game's parts register where they are defined, and their packages import every module they hold
(``device/discover.py``): a new game's session, simulated table and screen are new files, no list."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import device.screens
import device.sessions
import rules
from device.discover import import_all
from device.session import SESSIONS
from device.sessions.simulated import TABLES

ROOT = Path(__file__).resolve().parents[2]


def test_a_module_dropped_into_a_package_is_imported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "toy_games"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text("FOUND = []\n")
    (package / "inner" / "__init__.py").write_text("import toy_games\ntoy_games.FOUND.append('inner')\n")
    for name in ("beta", "alpha"):
        (package / f"{name}.py").write_text(f"import toy_games\ntoy_games.FOUND.append({name!r})\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        import toy_games  # type: ignore[import-not-found]

        assert import_all("toy_games", toy_games.__path__) == ["alpha", "beta", "inner"]
        assert toy_games.FOUND == ["alpha", "beta", "inner"]
    finally:
        for name in [n for n in sys.modules if n == "toy_games" or n.startswith("toy_games.")]:
            del sys.modules[name]


@pytest.mark.parametrize("package", [device.sessions, device.screens])
def test_the_packages_import_every_module_they_hold(package: object) -> None:
    folder = ROOT / package.__name__.replace(".", "/")  # type: ignore[attr-defined]
    held = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    assert held == package.MODULES  # type: ignore[attr-defined]
    assert all(f"{package.__name__}.{name}" in sys.modules for name in held)  # type: ignore[attr-defined]


def test_every_game_of_the_rules_has_its_session_and_simulated_table() -> None:
    names = {spec.name for spec in rules.games() if spec.options_type.__module__.startswith("rules.")}
    assert len(names) >= 6
    assert names <= set(SESSIONS) and names <= set(TABLES)
