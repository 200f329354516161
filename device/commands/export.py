"""``referee export --format csv|json|corrections``: the finished games of the journal (or every
reading the players corrected, ``device.export.to_corrections_csv``), to stdout or a file.

The journal is, in order: ``--journal``, the one in ``--state-dir`` (before or after ``export``), the
config's; when the config's does not exist but the simulator's does (``referee --simulate`` keeps its
own in ``~/.local/state/tabletop-referee-sim``), the simulator's, said on stderr."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from device.appliance import SIMULATOR_STATE
from device.config import ConfigError, load_config
from device.export import to_corrections_csv, to_csv, to_json
from device.journal import Journal, refusal_reason


def register(sub: Any) -> None:
    p = sub.add_parser(
        "export",
        help="export the finished games (history) as CSV or JSON, or the corrected readings (misreads)",
    )
    p.add_argument(
        "--format",
        choices=("csv", "json", "corrections"),
        default="csv",
        help="csv: one row per player; json: whole games; corrections: one row per corrected reading",
    )
    p.add_argument("--config", default=argparse.SUPPRESS, help="the config file (its journal is exported)")
    p.add_argument("--journal", default=None, help="the journal file (overrides the config)")
    p.add_argument(
        "--state-dir",
        default=argparse.SUPPRESS,  # keeps `referee --state-dir DIR export`'s value
        help="the state directory whose journal is exported (overrides the config)",
    )
    p.add_argument("--output", "-o", default=None, help="write to this file instead of stdout")
    p.set_defaults(func=run)


def journal_to_export(args: argparse.Namespace) -> Path:
    """The journal file the arguments name (see the module's docstring); may not exist."""
    if args.journal:
        return Path(args.journal)
    state_dir = getattr(args, "state_dir", None)
    if state_dir:
        return Path(state_dir) / "journal.sqlite3"
    configured = load_config(args.config).device.journal_path
    simulator = SIMULATOR_STATE / "journal.sqlite3"
    if not configured.exists() and simulator.exists():
        print(
            f"referee export: no journal at {configured}; exporting the simulator's, {simulator}",
            file=sys.stderr,
        )
        return simulator
    return configured


def run(args: argparse.Namespace) -> int:
    try:
        path = journal_to_export(args)
    except ConfigError as exc:
        print(f"referee export: config error: {exc}", file=sys.stderr)
        return 2
    if not path.exists():
        print(f"referee export: no journal at {path}", file=sys.stderr)
        return 2
    reason = refusal_reason(path)
    if reason is not None:
        print(f"referee export: {path} is not a journal ({reason})", file=sys.stderr)
        return 2
    journal = Journal.open(path)
    try:
        writers = {"csv": to_csv, "json": to_json, "corrections": to_corrections_csv}
        text = writers[args.format](journal)
    finally:
        journal.close()
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"referee export: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0
