"""The soak: the appliance (simulator, the simulated players playing by themselves, the synthetic camera
and the dice reader unless --no-camera) runs for N minutes while its resident memory (RSS) and open file
descriptors are sampled from /proc; the figures show whether either grows.

    .venv/bin/python bench/soak.py --minutes 5 [--game poker_dice] [--no-camera]   (or: make soak)

Prints one line per sample and a summary. RSS swings by some 30 MiB with the camera's frame buffers,
so the growth is the median over the last third of the samples after the warm-up minus the median over
the first third (a leak moves the median; a swing does not). Open files may step up once when a cache
fills (the fonts of the first game-over screen); a leak keeps growing, so the fd count fails only when
the last third holds more than the middle third. Exits 1 if the process died, RSS grew by more than
--max-growth-mb, or the open files still grew in the last third.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--game", default="poker_dice")
    parser.add_argument("--no-camera", action="store_true")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--warm-up", type=float, default=60.0, help="seconds before the first third")
    parser.add_argument("--max-growth-mb", type=float, default=15.0)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="soak-"))
    config = work / "config.toml"
    config.write_text("", encoding="utf-8")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable, "-m", "device.cli", "--simulate", "--headless", "--config", str(config),
        "--state-dir", str(work / "state"), "--autoplay", args.game, "--trace",
        *(["--no-camera"] if args.no_camera else []),
    ]  # fmt: skip
    log = (work / "out.txt").open("w")
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    started = time.monotonic()
    end = started + args.minutes * 60
    samples: list[tuple[float, int, int]] = []
    try:
        while time.monotonic() < end and proc.poll() is None:
            time.sleep(min(args.every, max(0.0, end - time.monotonic())))
            if proc.poll() is not None:
                break
            at = time.monotonic() - started
            sample = (at, rss_kib(proc.pid), fds(proc.pid))
            samples.append(sample)
            print(f"{at:6.0f} s  RSS {sample[1] / 1024:6.1f} MiB  fds {sample[2]}", flush=True)
    finally:
        died = proc.poll() is not None
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
    output = (work / "out.txt").read_text(errors="replace")
    games = output.count(" resumed at ")
    actions = output.count(" confirmed ")
    after = [s for s in samples if s[0] >= args.warm_up] or samples
    if not after:
        print("soak: no samples (the appliance did not run)", file=sys.stderr)
        return 1
    third = max(1, len(after) // 3)
    first, middle, final = after[:third], after[third:-third] or after[:third], after[-third:]
    base = (first[0][0], statistics.median(s[1] for s in first), max(s[2] for s in first))
    last = (final[-1][0], statistics.median(s[1] for s in final), max(s[2] for s in final))
    settled_fds = max(s[2] for s in middle)
    growth_mb = (last[1] - base[1]) / 1024
    print(
        f"soak ({args.game}, camera {'off' if args.no_camera else 'on'}): {args.minutes:g} min, "
        f"{len(samples)} samples, {actions} actions in {games} games; "
        f"RSS median {base[1] / 1024:.1f} MiB in the first third → {last[1] / 1024:.1f} MiB in the last "
        f"(growth {growth_mb:+.1f} MiB; warm-up {args.warm_up:g} s); "
        f"fds {base[2]} → {settled_fds} → {last[2]} by thirds (max {max(s[2] for s in samples)})"
    )
    failed = []
    if died:
        failed.append("the appliance died:\n" + output[-2000:])
    if growth_mb > args.max_growth_mb:
        failed.append(f"RSS grew by {growth_mb:.1f} MiB")
    if last[2] > settled_fds:
        failed.append(f"open files still grew in the last third: {settled_fds} to {last[2]}")
    for problem in failed:
        print(f"soak: {problem}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
