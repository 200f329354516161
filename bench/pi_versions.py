"""Check that this venv has the Raspberry Pi's package versions (Bookworm), as constraints.txt pins them:
Python 3.11, NumPy below 2, OpenCV 4.11. ``make test-pi`` runs it before the test suite.

    .venv-pi/bin/python bench/pi_versions.py
"""

from __future__ import annotations

import sys

import cv2
import numpy


def main() -> int:
    found = {
        "python": ".".join(map(str, sys.version_info[:3])),
        "numpy": numpy.__version__,
        "opencv": cv2.__version__,
    }
    print("  ".join(f"{name} {version}" for name, version in found.items()))
    problems = []
    if sys.version_info[:2] != (3, 11):
        problems.append("Python is not 3.11")
    if int(numpy.__version__.split(".")[0]) >= 2:
        problems.append("NumPy is not below 2")
    if not cv2.__version__.startswith("4.11."):
        problems.append("OpenCV is not 4.11")
    for problem in problems:
        print(f"pi_versions: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
