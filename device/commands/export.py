"""``referee export --format csv|json``: the finished games of the journal, to stdout or a file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from device.config import ConfigError, load_config
from device.export import to_csv, to_json
from device.journal import Journal, refusal_reason


def register(sub: Any) -> None:
    p = sub.add_parser("export", help="export the finished games (history) as CSV or JSON")
    p.add_argument("--format", choices=("csv", "json"), default="csv")
    p.add_argument("--config", default=None, help="the config file (its journal is exported)")
    p.add_argument("--journal", default=None, help="the journal file (overrides the config)")
    p.add_argument("--output", "-o", default=None, help="write to this file instead of stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        path = Path(args.journal) if args.journal else load_config(args.config).device.journal_path
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
        text = to_csv(journal) if args.format == "csv" else to_json(journal)
    finally:
        journal.close()
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
