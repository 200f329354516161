"""Cold start to the first screen (budget ≤ 2 s): a fresh ``referee --simulate --headless`` process,
timed from spawn until it has drawn its first frame and exited (``--frames 1``, so the figure also
includes the shutdown: an upper bound).

    .venv/bin/python bench/device_cold_start.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 5


def main() -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    state = tempfile.mkdtemp()
    command = [
        sys.executable,
        "-m",
        "device.cli",
        "--simulate",
        "--headless",
        "--frames",
        "1",
        "--state-dir",
        state,
    ]
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(command, check=True, env=env, capture_output=True)
        times.append(time.perf_counter() - start)
    print(
        f"cold start to first screen (+ exit), {RUNS} runs: median {statistics.median(times):.2f} s, "
        f"max {max(times):.2f} s   budget ≤ 2 s"
    )


if __name__ == "__main__":
    main()
