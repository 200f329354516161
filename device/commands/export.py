"""``referee export --format csv|json|corrections``: the finished games of the journal (or every
reading the players corrected, ``device.export.to_corrections_csv``), to stdout or a file.

The journal is, in order: ``--journal``, the one in ``--state-dir`` (before or after ``export``), the
simulator's with ``--simulator`` (``referee --simulate`` keeps its own in
``~/.local/state/tabletop-referee-sim`` unless the config names a state directory), the config's (the
appliance's); when the config's does not exist but the simulator's does, the simulator's, said on
stderr. Games not finished (in progress, left) are not exported: stderr says how many."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from device.appliance import SIMULATOR_STATE
from device.config import ConfigError, DeviceConfig, load_config
from device.export import to_corrections_csv, to_csv, to_json
from device.journal import Journal, refusal_reason

if TYPE_CHECKING:
    from device.commands import Subcommands


def register(sub: Subcommands) -> None:
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
    p.add_argument(
        "--simulator",
        action="store_true",
        help="export the simulator's journal (what `referee --simulate` writes), not the appliance's",
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
    simulator = simulator_journal(args.config)
    if getattr(args, "simulator", False):
        return simulator
    configured = load_config(args.config).device.journal_path
    default_simulator = SIMULATOR_STATE / "journal.sqlite3"
    if not configured.exists() and default_simulator.exists():
        print(
            f"referee export: no journal at {configured}; exporting the simulator's, {default_simulator}",
            file=sys.stderr,
        )
        return default_simulator
    if simulator != configured and simulator.exists():
        print(
            f"referee export: the appliance's journal, {configured}; --simulator exports the simulator's, "
            f"{simulator}",
            file=sys.stderr,
        )
    return configured


def simulator_journal(config: str | None) -> Path:
    """The journal ``referee --simulate`` writes with this config (its own state directory unless the
    config names one)."""
    device = load_config(config).device
    if device.state_dir == DeviceConfig().state_dir and not device.journal:  # as appliance.prepare_config
        return SIMULATOR_STATE / "journal.sqlite3"
    return device.journal_path


def not_exported(journal: Journal) -> str | None:
    """What the export of finished games leaves out, said on stderr: the game in progress and the games
    left (the history lists them); ``None`` when every game is finished."""
    open_games = [g for g in journal.games() if g.finished is None]
    playing = sum(1 for g in open_games if not g.abandoned)
    left = len(open_games) - playing
    parts = []
    if playing:
        parts.append("1 game in progress" if playing == 1 else f"{playing} games in progress")
    if left:
        parts.append("1 game left unfinished" if left == 1 else f"{left} games left unfinished")
    if not parts:
        return None
    verb = "is" if playing + left == 1 else "are"
    return f"{' and '.join(parts)} {verb} not exported: the export holds finished games only"


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
        skipped = not_exported(journal) if args.format != "corrections" else None
        if skipped is not None:
            print(f"referee export: {skipped}", file=sys.stderr)
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
