#!/usr/bin/env bash
# `make test-arm64`: the install and the whole test suite on the Pi's CPU (aarch64, Debian Bookworm,
# Python 3.11), under qemu-user emulation on an x86-64 machine. As root:
#
#   apt-get install mmdebstrap arch-test qemu-user-static binfmt-support && make test-arm64
#
# 1. root     an arm64 Bookworm root made by mmdebstrap from the Debian archive, once, cached in
#             $ARM64_CACHE (default /var/cache/tabletop-referee) under a hash of its recipe (below):
#             rebuilt when the recipe changes. Each run works on an overlay; the cache stays clean.
#    wheels   every wheel pip needs there (build, runtime at constraints.txt, dev extra) downloaded here
#             for aarch64 / CPython 3.11 into $ARM64_CACHE/wheels-cp311-aarch64: pip in the root uses
#             only those (PIP_NO_INDEX), so no TLS runs under emulation.
# 2. install  the project (the files git knows, as they are in the working tree) copied into the root
#             and installed there with systemd/install.sh itself, --without-pi-archive --no-systemd.
# 3. suite    the whole test suite (pytest -n $WORKERS, default: the machine's cores), in the venv the
#             installer made, with the dev extra added and the solver rebuilt in the source tree by
#             setup.py, as a Pi user rebuilds it; REFEREE_EMULATED=1 marks what cannot run here.
# 4. report   the installed versions, the compiled solver yes/no, the time each step took.
#
# Exit 2, before anything runs, when something it needs is missing (not root, no binfmt_misc entry
# for aarch64, mmdebstrap or qemu-user-static absent); otherwise the suite's exit status.
# Environment: ARM64_CACHE, WORKERS, REFEREE_DATASETS (the shared photo sets, bound into the root
# read-only; default ../shared/datasets beside the project), PYTEST_ARGS (e.g. "tests/device -x").
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${ARM64_CACHE:-/var/cache/tabletop-referee}"
WORKERS="${WORKERS:-$(nproc)}"
DATASETS="${REFEREE_DATASETS:-$SRC/../shared/datasets}"
SUITE=bookworm
MIRRORS=(
    "deb http://deb.debian.org/debian $SUITE main"
    "deb http://deb.debian.org/debian $SUITE-updates main"
    "deb http://deb.debian.org/debian-security $SUITE-security main"
)
# The root: Debian's required packages and what the installer's apt step installs that Debian has
# (its Raspberry Pi archive packages left out), so the installer's own apt step finds them there.
ROOT_PACKAGES=(
    python3 python3-venv python3-pip gcc python3-dev libgbm1 libegl1 libgles2 libdrm2
    ca-certificates passwd
)
RECIPE=(mmdebstrap --arch=arm64 --variant=required "--include=$(
    IFS=,
    echo "${ROOT_PACKAGES[*]}"
)" "--dpkgopt=path-exclude=/usr/share/man/*" "--dpkgopt=path-exclude=/usr/share/doc/*" "$SUITE")

say() { printf '==> %s\n' "$*"; }

# --- what is missing: all of it said at once, exit 2, nothing started ------------------------------
BINFMT="${ARM64_BINFMT:-/proc/sys/fs/binfmt_misc}" # (another place only for the tests)
missing=()
if [[ $EUID -ne 0 ]]; then
    missing+=("root: mmdebstrap, the mounts and pivot_root need it (sudo make test-arm64)")
elif [[ ! -e "$BINFMT/status" && -z "${ARM64_BINFMT:-}" ]]; then
    mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null || true
fi
for tool in mmdebstrap:mmdebstrap arch-test:arch-test unshare:util-linux pivot_root:util-linux flock:util-linux git:git; do
    command -v "${tool%%:*}" >/dev/null || missing+=("${tool%%:*} (apt-get install ${tool#*:})")
done
if [[ ! -e "$BINFMT/status" ]]; then
    missing+=("binfmt_misc: not mounted (mount -t binfmt_misc binfmt_misc $BINFMT)")
elif ! grep -qs '^enabled' "$BINFMT/qemu-aarch64"; then
    missing+=("binfmt_misc has no aarch64 entry: apt-get install qemu-user-static binfmt-support," \
        "then update-binfmts --enable qemu-aarch64")
elif ! grep -qs '^flags:.*F' "$BINFMT/qemu-aarch64"; then
    missing+=("binfmt_misc's aarch64 entry lacks the F flag: qemu would not be found inside the root" \
        "(Debian's qemu-user-static registers it with F)")
fi
if ((${#missing[@]})); then
    echo "make test-arm64 cannot run here; missing:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 2
fi

declare -A SECONDS_OF=()
STEPS=()
step_start() {
    STEP="$1"
    STEPS+=("$1")
    STARTED=$SECONDS
    say "$1: $2"
}
step_end() { SECONDS_OF[$STEP]=$((SECONDS - STARTED)); }
report_times() {
    local name
    for name in "${STEPS[@]}"; do
        [[ -n "${SECONDS_OF[$name]:-}" ]] || SECONDS_OF[$name]=$((SECONDS - STARTED))
        printf '  %-8s %3d min %02d s\n' "$name" $((SECONDS_OF[$name] / 60)) $((SECONDS_OF[$name] % 60))
    done
}

# --- 1. the root, cached under its recipe's hash ----------------------------------------------------
KEY="$(printf '%s\n' "${RECIPE[@]}" "${MIRRORS[@]}" | sha256sum | cut -c1-16)"
BASE="$CACHE/arm64-root-$KEY"
step_start root "arm64 $SUITE root $BASE"
install -d -m 0755 "$CACHE"
exec 9>"$CACHE/arm64-root.lock"
flock 9 # one build at a time; a second run waits for it and uses it
if [[ -e "$BASE/.complete" ]]; then
    say "cached (recipe unchanged)"
else
    rm -rf "$BASE.partial"
    "${RECIPE[@]}" "$BASE.partial" "${MIRRORS[@]}"
    touch "$BASE.partial/.complete"
    mv "$BASE.partial" "$BASE"
fi
flock -u 9
if [[ "$(chroot "$BASE" /usr/bin/uname -m 2>&1)" != aarch64 ]]; then
    echo "make test-arm64: the arm64 root does not run here (binfmt_misc, qemu-user-static)" >&2
    exit 2
fi
step_end
# --- the wheels, fetched here for aarch64 and CPython 3.11: pip inside the root installs only from them --
# (no index: under emulation a TLS handshake is so slow that a proxy may reset it, as one here did)
WHEELS="$CACHE/wheels-cp311-aarch64"
step_start wheels "pip download for aarch64, CPython 3.11, into $WHEELS"
python3 - "$SRC" >"$CACHE/requirements.txt" <<'PY'
import sys, tomllib
project = tomllib.load(open(sys.argv[1] + "/pyproject.toml", "rb"))
wanted = ["pip", *project["build-system"]["requires"], *project["project"]["dependencies"]]
print("\n".join(wanted + project["project"]["optional-dependencies"]["dev"]))
PY
platforms=()
for tag in manylinux_2_36 manylinux_2_35 manylinux_2_34 manylinux_2_31 manylinux_2_28 manylinux_2_27 \
    manylinux_2_24 manylinux_2_17 manylinux2014; do
    platforms+=(--platform "${tag}_aarch64")
done
PIP_CONFIG_FILE=/dev/null python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
    --python-version 3.11 --implementation cp --abi cp311 --abi abi3 --abi none "${platforms[@]}" \
    --constraint "$SRC/constraints.txt" --requirement "$CACHE/requirements.txt" --dest "$WHEELS"
step_end

if [[ "${1:-}" == --root-only ]]; then
    report_times
    exit 0
fi

# --- the run's own root: an overlay on the cached one, in a private mount namespace -----------------
WORK="$(mktemp -d /var/tmp/tabletop-referee-arm64.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/upper" "$WORK/work" "$WORK/root"
git -C "$SRC" ls-files -z --cached --others --exclude-standard >"$WORK/files"

# Everything from here runs inside `unshare --mount`: the mounts vanish with it, whatever happens.
export BASE CACHE WHEELS WORK SRC DATASETS WORKERS PYTEST_ARGS="${PYTEST_ARGS:-}"
set +e
unshare --mount --propagation private bash -euo pipefail -c '
R="$WORK/root"
mount -t overlay overlay -o "lowerdir=$BASE,upperdir=$WORK/upper,workdir=$WORK/work" "$R"
mount -t proc proc "$R/proc"
mount --rbind /sys "$R/sys"
mount -t tmpfs -o mode=0755 tmpfs "$R/dev"
for node in null zero full random urandom tty; do
    touch "$R/dev/$node" && mount --bind "/dev/$node" "$R/dev/$node"
done
mkdir -p "$R/dev/pts" "$R/dev/shm" && mount -t devpts -o newinstance,ptmxmode=0666 devpts "$R/dev/pts"
ln -s pts/ptmx "$R/dev/ptmx" && mount -t tmpfs tmpfs "$R/dev/shm"
ln -s /proc/self/fd "$R/dev/fd"
mount -t tmpfs -o size=4g tmpfs "$R/tmp"
# The network as this machine reaches it (the installer apt step): its resolver, the certificates it trusts.
cp /etc/resolv.conf "$R/etc/resolv.conf"
if [[ -s /etc/ssl/certs/ca-certificates.crt ]]; then
    cp /etc/ssl/certs/ca-certificates.crt "$R/etc/ssl/certs/ca-certificates.crt"
fi
mkdir -p "$R/opt/wheels" && mount --bind -o ro "$WHEELS" "$R/opt/wheels"
mkdir -p "$R/opt/shared/datasets"
if [[ -d "$DATASETS" ]]; then
    mount --bind -o ro "$DATASETS" "$R/opt/shared/datasets"
else
    echo "warning: no shared photo sets at $DATASETS (REFEREE_DATASETS): their tests skip" >&2
fi
mkdir -p "$R/src/tabletop-referee"
tar -C "$SRC" --null -T "$WORK/files" --ignore-failed-read -c 2>/dev/null | tar -C "$R/src/tabletop-referee" -x
# pivot_root, not chroot: in a chroot the kernel refuses new user namespaces (unshare -r), which the
# journal tests use for their small private mounts.
mkdir "$R/.oldroot"
cd "$R"
pivot_root . .oldroot
exec /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root LANG=C.UTF-8 \
    PIP_NO_INDEX=1 PIP_FIND_LINKS=/opt/wheels PIP_DISABLE_PIP_VERSION_CHECK=1 WORKERS="$WORKERS" PYTEST_ARGS="$PYTEST_ARGS" /bin/bash -c \
    "umount -l /.oldroot && rmdir /.oldroot && exec bash /src/tabletop-referee/systemd/test-arm64-inside.sh"
' 2>&1 | tee "$WORK/log" | grep --line-buffered -v '^@@step '
status=${PIPESTATUS[0]}
set -e
# the steps inside report their times as "@@step NAME SECONDS"
while read -r _ name secs; do
    STEPS+=("$name")
    SECONDS_OF[$name]=$secs
done < <(grep '^@@step ' "$WORK/log")
echo
say "make test-arm64 on $(uname -m) for aarch64 (qemu-user), $WORKERS workers: exit $status"
grep '^installed: ' "$WORK/log" || echo "installed: (not reached)"
summary="$({ grep -E '^=*[ ]*[0-9]+ (passed|failed|error)' "$WORK/log" || true; } | tail -1 | sed -E 's/^=+ //; s/ =+$//')"
echo "summary: ${summary:-(the suite did not run)}"
echo "time per step:"
report_times
exit "$status"
