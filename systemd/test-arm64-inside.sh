#!/usr/bin/env bash
# Steps 2-4 of `make test-arm64` (systemd/test-arm64.sh), run inside the arm64 root by that script:
# not meant to be run by hand. Each step's time is printed as "@@step NAME SECONDS" for the summary.
set -euo pipefail
SRC=/src/tabletop-referee
VENV=/opt/tabletop-referee/venv
cd "$SRC"

say() { printf '==> %s\n' "$*"; }
timed() { # timed NAME COMMAND...: runs it, reports its time, stops the run when it fails
    local name=$1 started=$SECONDS status=0
    shift
    say "$name: $*"
    "$@" || status=$?
    printf '@@step %s %d\n' "$name" $((SECONDS - started))
    if ((status != 0)); then
        say "$name failed (exit $status)"
        exit "$status"
    fi
}

say "$(uname -m), $(. /etc/os-release && echo "$PRETTY_NAME"), $(python3 --version)"
timed install bash systemd/install.sh --without-pi-archive --no-systemd

# The suite needs the dev extra (pytest, hypothesis, mypy, …), in the installed venv, at the Pi's pins.
dev_extra() {
    "$VENV/bin/python" -c 'import tomllib
print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["dev"]))' \
        >/tmp/dev.txt
    "$VENV/bin/python" -m pip install --quiet --constraint constraints.txt --requirement /tmp/dev.txt
}
timed dev dev_extra
# The suite runs from the source tree with the solver the installer compiled (the same sources: its stamp
# says so, else the sources would run and REFEREE_EXPECT_COMPILED=1 fails the suite). A Pi user's
# rebuild after an update runs setup.py with the venv's own setuptools: it must read pyproject.toml.
use_installed_solver() {
    local built
    built="$(cd / && "$VENV/bin/python" -c 'import rules.rummikub.partition.compiled as c; print(c.HERE)')"
    if compgen -G "$built/*.so" >/dev/null; then
        cp "$built"/*.so "$built/compiled.json" rules/rummikub/partition/
    else
        say "the installed solver is not compiled (no C compiler or headers?): the suite will say so"
    fi
    # (REFEREE_PURE_PYTHON: only the setup read, not mypyc's type check of the solver, minutes here)
    REFEREE_PURE_PYTHON=1 "$VENV/bin/python" setup.py --quiet --name >/dev/null
}
timed solver use_installed_solver

versions() {
    (cd / && "$VENV/bin/python" - <<'EOF'
import platform
import cv2, gpiozero, numpy, pygame
from importlib.metadata import version
from rules.rummikub.partition import COMPILED, compiled
print(f"installed: python {platform.python_version()} ({platform.machine()}), numpy {numpy.__version__}, "
      f"opencv {cv2.__version__}, pygame-ce {pygame.version.ver}, gpiozero {version('gpiozero')}, "
      f"compiled solver: {'yes' if COMPILED else 'no'} ({compiled.HERE})")

EOF
    )
}
timed versions versions
# The appliance as the installer left it: the entry point, headless, the simulator's camera.
timed appliance timeout 900 "$VENV/bin/referee" --simulate --headless --frames 120 --state-dir /tmp/referee-state

export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy GPIOZERO_PIN_FACTORY=mock REFEREE_EXPECT_COMPILED=1
export REFEREE_EMULATED=1 REFEREE_DATASETS=/opt/shared/datasets
# shellcheck disable=SC2086 # PYTEST_ARGS is words on purpose
timed suite "$VENV/bin/python" -m pytest -n "$WORKERS" -rs ${PYTEST_ARGS:-}
