"""constraints.txt pins every runtime dependency of pyproject.toml, inside its range, exactly once; the
installer and the Pi-versions CI venv install from it; the Pi's versions (NumPy < 2, OpenCV 4.11)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def pins() -> dict[str, str]:
    found: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        req = Requirement(line)
        specs = list(req.specifier)
        assert len(specs) == 1 and specs[0].operator == "==", f"not an exact pin: {line}"
        name = canonicalize_name(req.name)
        assert name not in found, f"pinned twice: {name}"
        found[name] = specs[0].version
    return found


def test_every_runtime_dependency_is_pinned_inside_its_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = pins()
    for text in project["dependencies"]:
        req = Requirement(text)
        name = canonicalize_name(req.name)
        assert name in pinned, f"{req.name} is not pinned in constraints.txt"
        assert req.specifier.contains(pinned[name], prereleases=True), (
            f"constraints.txt pins {req.name}=={pinned[name]}, outside pyproject's {req.specifier}"
        )


def test_the_pins_are_the_pis_versions() -> None:
    pinned = pins()
    assert int(pinned["numpy"].split(".")[0]) < 2
    assert pinned["opencv-python-headless"].startswith("4.11.")


def test_the_installer_and_ci_install_from_the_constraints() -> None:
    assert '--constraint "$SRC/constraints.txt"' in (ROOT / "systemd" / "install.sh").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert "-c constraints.txt" in makefile
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test\n" in ci and "make test-pi" in ci


def test_setup_py_names_a_setuptools_too_old_for_the_licence_string(tmp_path: Path) -> None:
    """Debian's setuptools (66 in a fresh Bookworm venv) cannot read pyproject's PEP 639 licence: setup.py
    says what to do instead of failing on the schema; the installer and `make test-pi` upgrade it."""
    fake = tmp_path / "setuptools"
    fake.mkdir()
    (fake / "__init__.py").write_text('__version__ = "66.1.1"\n')
    result = subprocess.run(
        [sys.executable, str(ROOT / "setup.py"), "build_ext", "--inplace"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "setuptools 66.1.1 is too old" in result.stderr and "'setuptools>=77'" in result.stderr
    pi_venv = (ROOT / "Makefile").read_text().split("$(PI_STAMP):", 1)[1].split("\n\n", 1)[0]
    assert "'setuptools>=77'" in pi_venv
