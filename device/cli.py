"""``referee``: the command line of the appliance.

Each subcommand lives in its own module under ``device/commands`` and is listed in ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

COMMANDS = [
    "device.commands.play",
    "device.commands.export",
    "device.commands.doctor",
    "device.commands.vision",
    "device.commands.markers",
    "device.commands.calibrate",
    "device.commands.coach",
    "device.commands.voice",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee", description="Tabletop Referee: without a command, start the appliance"
    )
    parser.add_argument(
        "--simulate", action="store_true", help="run on any computer: window, keys, synthetic camera"
    )
    parser.add_argument(
        "--config", default=None, help="the config file (default /etc/tabletop-referee/config.toml)"
    )
    parser.add_argument("--size", type=_size, default=None, help="screen size WxH, e.g. 1024x600")
    parser.add_argument("--headless", action="store_true", help="no window (SDL dummy video driver)")
    parser.add_argument("--frames", type=int, default=None, help="stop after this many frames")
    parser.add_argument("--state-dir", default=None, help="where the journal lives (overrides the config)")
    parser.add_argument(
        "--autoplay",
        default=None,
        type=_autoplay_game,
        metavar="GAME",
        help="simulator: play GAME by itself (GAME:VARIANT for a variant, e.g. yahtzee:triple)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="simulator: seed of the simulated players and dice; with --script also of the games started",
    )
    parser.add_argument(
        "--no-camera",
        action="store_true",
        help="simulator: post the rolled dice directly (no camera, no reader)",
    )
    parser.add_argument(
        "--script",
        default=None,
        metavar="FILE",
        help="simulator: play the input events of FILE (key NAME, tap TEXT, wait SECONDS, shot FILE.png); "
        "the run ends when the script does, unless --stay",
    )
    parser.add_argument("--stay", action="store_true", help="with --script: keep running after the script")
    parser.add_argument("--trace", action="store_true", help="print each action once it is in the journal")
    parser.add_argument("--mute", action="store_true", help="the referee's voice says nothing aloud")
    parser.add_argument(
        "--voice-log",
        default=None,
        metavar="FILE",
        help="append each sentence the voice speaks to FILE (time, language, kind, text)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # pygame prints a banner on stdout when imported; `doctor --json` and `export` must print only data.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    config = getattr(args, "config", None)
    if config is not None and not Path(config).is_file():
        # Only the default path may be missing (a laptop has no /etc/tabletop-referee): a file named on
        # the command line that is not there is a typo, not a wish for the defaults.
        print(f"referee: the config file {config} does not exist", file=sys.stderr)
        return 2
    if args.command is None:
        from device.appliance import RunOptions, run

        if args.script and not args.simulate:
            parser.error("--script plays input events in the simulator: add --simulate")
        if args.stay and not args.script:
            parser.error("--stay keeps the simulator running after a script: add --script FILE")
        return run(
            RunOptions(
                config=args.config,
                simulate=args.simulate,
                size=args.size,
                headless=args.headless,
                frames=args.frames,
                state_dir=args.state_dir,
                autoplay=args.autoplay,
                seed=args.seed,
                trace=args.trace,
                no_camera=args.no_camera,
                script=args.script,
                mute=args.mute,
                voice_log=args.voice_log,
                stay=args.stay,
            )
        )
    return int(args.func(args) or 0)


def autoplay_games() -> list[str]:
    """What ``--autoplay`` accepts: the games the appliance referees, and ``game:variant`` for variants."""
    import device.sessions  # noqa: F401  (registers the game sessions)
    import rules
    from device.session import SESSIONS

    names = []
    for spec in rules.games():
        if spec.name in SESSIONS:
            names.append(spec.name)
            names += [f"{spec.name}:{variant}" for variant in spec.variants]
    return names


def _autoplay_game(text: str) -> str:
    """A game ``--autoplay`` takes: ``game[:variant]``, or as ``rules.find_game`` names it (any case,
    the names the screens show)."""
    games = autoplay_games()
    if text in games:
        return text
    try:
        name, variant = rules_find_game(text)
    except KeyError:
        name, variant = "", None
    found = f"{name}:{variant}" if variant else name
    if found not in games:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a game the simulator plays; choose from {', '.join(games)}"
        )
    return found


def rules_find_game(text: str) -> tuple[str, str | None]:
    import rules

    return rules.find_game(text)


def _size(text: str) -> tuple[int, int]:
    """``"1024x600"`` -> ``(1024, 600)``."""
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 800x480")
    return int(width), int(height)


if __name__ == "__main__":
    sys.exit(main())
