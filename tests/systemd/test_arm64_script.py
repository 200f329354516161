"""``make test-arm64`` (systemd/test-arm64.sh) says everything it is missing at once and exits 2 before
it starts anything: not root, no binfmt_misc or no aarch64 entry there, a tool absent."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "systemd" / "test-arm64.sh"
INSIDE = ROOT / "systemd" / "test-arm64-inside.sh"
BASH = shutil.which("bash") or "/bin/bash"


def run(env: dict[str, str], *prefix: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*prefix, BASH, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=120, cwd=ROOT
    )


def test_the_scripts_are_valid_bash() -> None:
    for script in (SCRIPT, INSIDE):
        assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    assert SCRIPT.stat().st_mode & 0o100
    # the part run in the private mount namespace is a quoted script of its own (no quote inside it)
    body = SCRIPT.read_text().split("--propagation private bash -euo pipefail -c '", 1)[1].split("'", 1)[0]
    assert body.rstrip().endswith('test-arm64-inside.sh"')
    assert subprocess.run(["bash", "-n", "-c", body], capture_output=True).returncode == 0
    if shutil.which("shellcheck"):
        result = subprocess.run(["shellcheck", str(SCRIPT), str(INSIDE)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout


def test_without_binfmt_and_tools_it_names_each_and_exits_2(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("as another user the script stops at 'not root' (the next test)")
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("dirname", "nproc", "grep", "cut", "chroot", "mount", "cat"):  # no mmdebstrap, no flock
        found = shutil.which(name)
        if found:
            (tools / name).symlink_to(found)
    binfmt = tmp_path / "binfmt"  # not mounted: no status file
    binfmt.mkdir()
    cache = tmp_path / "cache"
    env = {"PATH": str(tools), "ARM64_BINFMT": str(binfmt), "ARM64_CACHE": str(cache), "HOME": str(tmp_path)}
    result = run(env)
    assert result.returncode == 2, result.stdout + result.stderr
    said = result.stderr
    assert "make test-arm64 cannot run here; missing:" in said
    assert "mmdebstrap (apt-get install mmdebstrap)" in said and "flock (apt-get install util-linux)" in said
    assert "arch-test (apt-get install arch-test)" in said  # mmdebstrap needs it for a foreign root
    assert "binfmt_misc: not mounted" in said
    assert not cache.exists() and result.stdout == ""  # nothing started
    (binfmt / "status").write_text("enabled\n")  # mounted, but qemu-user-static is not installed
    result = run(env)
    assert result.returncode == 2 and "binfmt_misc has no aarch64 entry" in result.stderr
    assert "apt-get install qemu-user-static binfmt-support" in result.stderr
    (binfmt / "qemu-aarch64").write_text("enabled\ninterpreter /usr/bin/qemu-aarch64\nflags: \n")
    result = run(env)
    assert result.returncode == 2 and "lacks the F flag" in result.stderr


def test_not_root_is_named_and_exits_2(tmp_path: Path) -> None:
    setpriv = shutil.which("setpriv")
    if os.geteuid() == 0 and setpriv is None:
        pytest.skip("setpriv (util-linux) is needed to run the script as another user")
    prefix = (setpriv, "--reuid=65534", "--regid=65534", "--clear-groups") if os.geteuid() == 0 else ()
    env = {"PATH": os.environ["PATH"], "ARM64_CACHE": str(tmp_path / "cache"), "HOME": "/"}
    if prefix:
        # The other user must be able to read the script: a clone under `mktemp -d` (0700) is not
        # readable by nobody, so the script runs from a copy in a folder anyone may enter.
        shared = Path(tempfile.mkdtemp(prefix="arm64-script-"))
        shared.chmod(0o755)
        (shared / "systemd").mkdir(mode=0o755)
        copy = shared / "systemd" / SCRIPT.name
        shutil.copy2(SCRIPT, copy)
        copy.chmod(0o755)
        try:
            result = subprocess.run(
                [*(p for p in prefix if p), BASH, str(copy)],
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
                cwd=shared,
            )
        finally:
            shutil.rmtree(shared)
    else:
        result = run(env)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "root: mmdebstrap, the mounts and pivot_root need it (sudo make test-arm64)" in result.stderr
    assert not (tmp_path / "cache").exists()
