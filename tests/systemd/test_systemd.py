"""The boot files: the unit passes systemd's checks, the installer is idempotent, the udev rule is sane."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from device.config import DEFAULT_PATH, DeviceConfig

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
UNIT = SYSTEMD / "tabletop-referee.service"
RULES = SYSTEMD / "99-tabletop-referee-pods.rules"
INSTALL = SYSTEMD / "install.sh"
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")


def unit_settings() -> list[tuple[str, str, str]]:
    """(section, key, value) for every setting; systemd allows a key more than once."""
    section, out = "", []
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.append((section, key, value))
    return out


def values(key: str) -> list[str]:
    return [v for _, k, v in unit_settings() if k == key]


def test_unit_runs_the_appliance_as_planned() -> None:
    assert values("Type") == ["notify"]
    assert values("Restart") == ["always"]
    assert int(values("WatchdogSec")[0]) > 0
    assert values("User") == ["referee"]
    assert set(values("SupplementaryGroups")[0].split()) == {
        "video",
        "render",
        "gpio",
        "input",
        "dialout",
        "audio",
    }
    assert "SDL_AUDIODRIVER" not in dict(v.split("=", 1) for v in values("Environment"))  # the voice plays
    env = dict(v.split("=", 1) for v in values("Environment"))
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio"
    assert env["TABLETOP_REFEREE_CONFIG"] == str(DEFAULT_PATH)
    assert values("TTYPath") == ["/dev/tty1"] and "getty@tty1.service" in values("Conflicts")
    # the only writable place is the state directory the config points at
    assert "/var/lib/" + values("StateDirectory")[0] == DeviceConfig().state_dir
    assert values("ProtectSystem") == ["strict"] and values("NoNewPrivileges") == ["yes"]
    assert values("CapabilityBoundingSet") == [""]
    assert values("ExecStart") == ["/opt/tabletop-referee/venv/bin/referee"]


def test_unit_lets_the_pods_through() -> None:
    allowed = " ".join(values("DeviceAllow"))
    assert "char-ttyUSB rw" in allowed and "char-ttyACM rw" in allowed
    assert "char-gpiochip rw" in allowed and "char-drm rw" in allowed


@needs_analyze
def test_systemd_analyze_verify(tmp_path: Path) -> None:
    # verify insists that ExecStart exists: point it at a stand-in, change nothing else
    stand_in = tmp_path / "referee"
    stand_in.write_text("#!/bin/sh\n")
    stand_in.chmod(0o755)
    unit = tmp_path / UNIT.name
    text = UNIT.read_text()
    unit.write_text(text.replace("/opt/tabletop-referee/venv/bin/referee", str(stand_in)))
    assert ANALYZE is not None
    result = subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if UNIT.name in line]
    assert result.returncode == 0 and complaints == [], result.stdout + result.stderr


@needs_analyze
def test_systemd_analyze_security_exposure_is_ok() -> None:
    assert ANALYZE is not None
    result = subprocess.run(
        [ANALYZE, "security", "--offline=true", "--no-pager", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout + result.stderr)
    if found is None:
        pytest.skip(f"this systemd-analyze cannot rate a unit offline: {result.stderr.strip()}")
    assert float(found.group(1)) <= 2.5


def test_udev_rule_names_the_pods_and_hands_them_to_dialout() -> None:
    rules = [line for line in RULES.read_text().splitlines() if line and not line.startswith("#")]
    assert rules
    pair = re.compile(r'^([A-Z]+(\{[^}]+\})?)(==|!=|\+=|=)"([^"]*)"$')
    for rule in rules:
        parts = [p.strip() for p in rule.split(",")]
        assert all(pair.match(p) for p in parts), rule
        assert 'SUBSYSTEM=="tty"' in parts and 'SYMLINK+="referee-pods"' in parts
        assert 'GROUP="dialout"' in parts


def test_install_script_is_valid_bash() -> None:
    assert subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True).returncode == 0
    assert INSTALL.stat().st_mode & stat.S_IXUSR
    if shutil.which("shellcheck"):
        result = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout


STUB = """#!/bin/sh
echo "$(basename "$0") $*" >> "$LOG"
case "$(basename "$0") $1" in
  "id -u") test -e "$STATE/user" ;;
  "useradd "*) touch "$STATE/user" ;;
  "python3 -m") mkdir -p "$4/bin" && cp "$0" "$4/bin/python" ;;
  "systemctl get-default") cat "$STATE/default" 2>/dev/null || echo graphical.target ;;
  "systemctl set-default") echo "$2" > "$STATE/default" ;;
  "systemctl is-active") test -e "$STATE/active" ;;
esac
"""


def test_install_is_idempotent(tmp_path: Path) -> None:
    stubs, root, state = tmp_path / "bin", tmp_path / "root", tmp_path / "state"
    for d in (stubs, root, state):
        d.mkdir()
    for name in ("apt-get", "id", "useradd", "getent", "usermod", "python3", "udevadm", "systemctl", "chown"):
        (stubs / name).write_text(STUB)
        (stubs / name).chmod(0o755)
    log = tmp_path / "log"
    env = {
        **os.environ,
        "PATH": f"{stubs}:{os.environ['PATH']}",
        "ROOT": str(root),
        "LOG": str(log),
        "STATE": str(state),
    }

    def install() -> list[str]:
        log.write_text("")
        result = subprocess.run(["bash", str(INSTALL)], env=env, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stdout + result.stderr
        return log.read_text().splitlines()

    first = install()
    config = root / "etc/tabletop-referee/config.toml"
    assert config.read_text() == (SYSTEMD.parent / "config.example.toml").read_text()
    assert (root / "etc/systemd/system/tabletop-referee.service").read_text() == UNIT.read_text()
    assert (root / "etc/udev/rules.d/99-tabletop-referee-pods.rules").read_text() == RULES.read_text()
    assert any(c.startswith("useradd --system") and c.endswith(" referee") for c in first)
    assert f"python3 -m venv --system-site-packages {root}/opt/tabletop-referee/venv" in first
    assert any(c.startswith("python -m pip install") and str(SYSTEMD.parent) in c for c in first)
    pinned = [c for c in first if c.startswith("python -m pip install") and str(SYSTEMD.parent) in c]
    assert all(f"--constraint {SYSTEMD.parent}/constraints.txt" in c for c in pinned)
    assert stat.S_IMODE(config.stat().st_mode) == 0o640  # the PIN: root and the service user only
    assert f"chown root:referee {config}" in first
    assert "systemctl enable tabletop-referee.service" in first
    assert "systemctl set-default multi-user.target" in first
    assert any("python3-picamera2" in c and "python3-lgpio" in c for c in first if c.startswith("apt-get"))
    assert {c for c in first if c.startswith("usermod")} == {
        f"usermod --append --groups {g} referee"
        for g in ("video", "render", "gpio", "input", "dialout", "audio")
    }

    config.write_text("[seats]\ncount = 2\n")  # the owner's edits survive a re-install
    config.chmod(0o644)  # an older installer's file: tightened
    (state / "active").touch()
    second = install()
    assert config.read_text() == "[seats]\ncount = 2\n"
    assert stat.S_IMODE(config.stat().st_mode) == 0o640 and f"chown root:referee {config}" in second
    assert not [c for c in second if c.startswith(("useradd", "python3 -m venv", "systemctl set-default"))]
    assert "systemctl enable tabletop-referee.service" in second
    assert "systemctl restart tabletop-referee.service" in second


def _stubbed(tmp_path: Path) -> tuple[dict[str, str], Path, Path]:
    stubs, root, state = tmp_path / "bin", tmp_path / "root", tmp_path / "state"
    for d in (stubs, root, state):
        d.mkdir()
    for name in ("apt-get", "id", "useradd", "getent", "usermod", "python3", "udevadm", "systemctl", "chown"):
        (stubs / name).write_text(STUB)
        (stubs / name).chmod(0o755)
    log = tmp_path / "log"
    log.write_text("")
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}", "ROOT": str(root), "LOG": str(log)}
    return {**env, "STATE": str(state)}, root, log


def test_install_without_the_pi_archive_and_without_systemd(tmp_path: Path) -> None:
    """``make test-arm64``'s install into a Debian arm64 root: no Raspberry Pi archive, no systemd."""
    env, root, log = _stubbed(tmp_path)
    result = subprocess.run(
        ["bash", str(INSTALL), "--without-pi-archive", "--no-systemd"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    calls = log.read_text().splitlines()
    (apt,) = [c for c in calls if c.startswith("apt-get install")]
    assert "python3-picamera2" not in apt and "python3-lgpio" not in apt and " gcc " in f"{apt} "
    assert "leaving out python3-picamera2 python3-lgpio" in result.stdout
    assert "only the Raspberry Pi archive has them" in result.stdout
    assert not [c for c in calls if c.startswith(("udevadm", "systemctl"))]
    assert "not enabled (--no-systemd" in result.stdout
    assert (root / "etc/systemd/system/tabletop-referee.service").read_text() == UNIT.read_text()
    assert (root / "etc/udev/rules.d/99-tabletop-referee-pods.rules").read_text() == RULES.read_text()
    # the venv's setuptools can build the solver again later (PEP 639 licence string: setuptools >= 77)
    assert any(c.startswith("python -m pip install") and "setuptools>=77" in c for c in calls)


def test_install_refuses_an_unknown_option(tmp_path: Path) -> None:
    env, _, log = _stubbed(tmp_path)
    result = subprocess.run(
        ["bash", str(INSTALL), "--no-sytemd"], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2 and "unknown option --no-sytemd" in result.stderr
    assert log.read_text() == ""  # nothing done
    shown = subprocess.run(["bash", str(INSTALL), "--help"], env=env, capture_output=True, text=True)
    assert shown.returncode == 0 and "--without-pi-archive" in shown.stdout and log.read_text() == ""
