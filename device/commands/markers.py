"""``referee markers OUT.png|OUT.pdf``: write the printable sheet of the four calibration markers."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from vision.markers import save_sheet

if TYPE_CHECKING:
    from device.commands import Subcommands


def register(sub: Subcommands) -> None:
    p = sub.add_parser("markers", help="write the printable calibration marker sheet (A4, 300 dpi)")
    p.add_argument("out", help="output file, .png or .pdf")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        path = save_sheet(args.out)
    except (ValueError, OSError) as exc:
        print(f"referee markers: {exc}")
        return 2
    print(f"wrote {path}: print at 100 %, markers 0-3 clockwise from the play area's top-left corner")
    return 0
