"""``make test-arm64`` runs the suite under qemu-user with ``REFEREE_EMULATED=1``: a test marked
``not_emulated(reason=…)`` is skipped there with its reason shown, and runs everywhere else."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]


@pytest.mark.not_emulated(reason="the marker's own sample, a test that fails under emulation")
def test_marked_sample() -> None:
    assert os.environ.get("REFEREE_EMULATED", "") in ("", "0")


def run(tmp_path: Path, test: str, emulated: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REFEREE_EMULATED": emulated, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-rs"]
    command += ["-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), "-o", "addopts=", test]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)


def test_a_marked_test_is_skipped_with_its_reason_under_emulation_only(tmp_path: Path) -> None:
    emulated = run(tmp_path, f"{HERE}::test_marked_sample", "1")
    assert emulated.returncode == 0, emulated.stdout
    assert "not under emulation: the marker's own sample" in emulated.stdout
    assert "1 skipped" in emulated.stdout
    native = run(tmp_path, f"{HERE}::test_marked_sample", "0")
    assert native.returncode == 0 and "1 passed" in native.stdout, native.stdout


def test_a_mark_without_a_reason_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(
        "from tests.conftest import pytest_collection_modifyitems  # noqa\n"
    )
    (tmp_path / "test_sample.py").write_text(
        "import pytest\n\n@pytest.mark.not_emulated\ndef test_x():\n    pass\n"
    )
    result = run(tmp_path, "test_sample.py", "")
    assert result.returncode != 0
    assert "not_emulated needs a reason" in result.stdout + result.stderr
