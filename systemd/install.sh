#!/usr/bin/env bash
# Install Tabletop Referee on Raspberry Pi OS Bookworm so that the Pi boots straight into it.
#
#   git clone … && cd tabletop-referee && sudo systemd/install.sh
#
# Idempotent: run it again after `git pull` to update; an existing config file is never overwritten.
# What it does: apt packages, the `referee` user and its groups, a venv in /opt/tabletop-referee that
# sees the system's picamera2 and lgpio, the project installed into it, /etc/tabletop-referee/config.toml
# from config.example.toml if absent, the systemd unit and the pods' udev rule, the unit enabled.
#
# ROOT=/path installs the files under another root (the tests run it there with stubbed commands).
#
# Options (for a Debian arm64 root that is not a Pi, as `make test-arm64` installs into):
#   --without-pi-archive  leave out the packages only the Raspberry Pi archive has (python3-picamera2,
#                         python3-lgpio): no camera module, no lgpio; said when it runs
#   --no-systemd          where no systemd runs (a chroot, a container): the unit and the udev rule are
#                         installed but not enabled, udevadm and systemctl are not called
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }
PI_ARCHIVE_ONLY=(python3-picamera2 python3-lgpio)
WITH_PI_ARCHIVE=yes
WITH_SYSTEMD=yes
for arg in "$@"; do
    case "$arg" in
        --without-pi-archive) WITH_PI_ARCHIVE=no ;;
        --no-systemd) WITH_SYSTEMD=no ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $arg (--without-pi-archive, --no-systemd, --help)" >&2; exit 2 ;;
    esac
done

ROOT="${ROOT:-}"
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APP=/opt/tabletop-referee
VENV="$APP/venv"
CONFIG_DIR=/etc/tabletop-referee
SERVICE=tabletop-referee.service
ACCOUNT=referee
GROUPS_NEEDED=(video render gpio input dialout audio)
APT_PACKAGES=(
    python3 python3-venv python3-pip     # the venv (Python 3.11 on Bookworm)
    python3-picamera2 python3-lgpio      # the camera module and GPIO: apt only, seen through the venv
    libgbm1 libegl1 libgles2 libdrm2     # SDL's kmsdrm video driver in the pygame-ce wheel loads these
    gcc python3-dev                      # mypyc and core.c: the compiled Rummikub solver (setup.py; else pure Python)
    espeak-ng alsa-utils                 # the referee's voice: the synthesiser and aplay (device/voice)
)

say() { printf '==> %s\n' "$*"; }

if [[ -z "$ROOT" && $EUID -ne 0 ]]; then
    echo "Run as root: sudo $0" >&2
    exit 1
fi

if [[ $WITH_PI_ARCHIVE == no ]]; then
    kept=()
    for package in "${APT_PACKAGES[@]}"; do
        [[ " ${PI_ARCHIVE_ONLY[*]} " == *" $package "* ]] || kept+=("$package")
    done
    APT_PACKAGES=("${kept[@]}")
    say "leaving out ${PI_ARCHIVE_ONLY[*]} (--without-pi-archive: only the Raspberry Pi archive has them):" \
        "no camera module and no lgpio here, the appliance runs with the synthetic camera and mock pins"
fi
say "apt packages: ${APT_PACKAGES[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${APT_PACKAGES[@]}"

say "user $ACCOUNT"
if ! id -u "$ACCOUNT" >/dev/null 2>&1; then
    useradd --system --user-group --no-create-home --home-dir /var/lib/tabletop-referee \
        --shell /usr/sbin/nologin --comment "Tabletop Referee" "$ACCOUNT"
fi
for group in "${GROUPS_NEEDED[@]}"; do
    if getent group "$group" >/dev/null; then
        usermod --append --groups "$group" "$ACCOUNT"
    else
        echo "warning: no group $group on this system; $ACCOUNT may not reach those devices" >&2
    fi
done

say "venv $VENV (with the system's site packages)"
install -d -m 0755 "$ROOT$APP"
if [[ ! -x "$ROOT$VENV/bin/python" ]]; then
    python3 -m venv --system-site-packages "$ROOT$VENV"
fi
# The runtime versions are pinned (constraints.txt, in step with pyproject.toml): the same NumPy 1.x that
# Debian's picamera2 helpers (simplejpeg, …) are built against, the OpenCV the tests ran on.
# setuptools >= 77 reads pyproject's licence string (PEP 639): the venv's own copy (Debian's, older)
# would fail `setup.py build_ext` when the solver is rebuilt in this venv after an update.
"$ROOT$VENV/bin/python" -m pip install --quiet --upgrade pip 'setuptools>=77'
"$ROOT$VENV/bin/python" -m pip install --quiet --upgrade --constraint "$SRC/constraints.txt" "$SRC"

say "config $CONFIG_DIR/config.toml"
install -d -m 0755 "$ROOT$CONFIG_DIR"
if [[ ! -e "$ROOT$CONFIG_DIR/config.toml" ]]; then
    install -m 0640 "$SRC/config.example.toml" "$ROOT$CONFIG_DIR/config.toml"
else
    echo "keeping the existing $CONFIG_DIR/config.toml"
fi
# It holds the owner PIN: readable by root and the service user only (also an older, wider file).
chmod 0640 "$ROOT$CONFIG_DIR/config.toml"
chown "root:$ACCOUNT" "$ROOT$CONFIG_DIR/config.toml"

say "systemd unit and udev rule"
install -D -m 0644 "$SRC/systemd/$SERVICE" "$ROOT/etc/systemd/system/$SERVICE"
install -D -m 0644 "$SRC/systemd/99-tabletop-referee-pods.rules" \
    "$ROOT/etc/udev/rules.d/99-tabletop-referee-pods.rules"
if [[ $WITH_SYSTEMD == no ]]; then
    say "not enabled (--no-systemd: no systemd runs here): the unit and the udev rule are installed only"
    exit 0
fi
udevadm control --reload-rules
udevadm trigger --subsystem-match=tty --action=add
systemctl daemon-reload
systemctl enable "$SERVICE"
# The appliance draws on the console through KMS: a desktop session would hold the display.
if [[ "$(systemctl get-default)" != multi-user.target ]]; then
    say "booting to the console from now on (systemctl set-default multi-user.target)"
    systemctl set-default multi-user.target
fi

if systemctl is-active --quiet "$SERVICE"; then
    say "restarting the running appliance"
    systemctl restart "$SERVICE"
else
    say "done: reboot, or start it now with: sudo systemctl start $SERVICE"
fi
say "check the wiring with: sudo systemctl stop $SERVICE; cd /tmp && sudo -u $ACCOUNT $VENV/bin/referee doctor"
