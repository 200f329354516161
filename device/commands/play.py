"""``referee play GAME``: play a game in the terminal (``--auto``: random legal moves, seeded)."""

from __future__ import annotations

import argparse
import dataclasses
from typing import TYPE_CHECKING

import rules
from rules.errors import OptionError

if TYPE_CHECKING:
    from device.commands import Subcommands


def register(sub: Subcommands) -> None:
    p = sub.add_parser("play", help="play a game in the terminal; --auto plays a whole random game")
    p.add_argument(
        "game",
        help="game name: "
        + ", ".join(g.name for g in rules.games())
        + " (or as the screens name it, any case: Kości, Triple Generał, yahtzee:triple)",
    )
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--preset", default="seed", help="rule preset (seed, official)")
    p.add_argument("--variant", default=None, help="game variant, e.g. triple for yahtzee")
    p.add_argument("--auto", action="store_true", help="play random legal moves to the end")
    p.set_defaults(func=run)


def options_from_args(args: argparse.Namespace) -> rules.Options:
    name, named_variant = rules.find_game(args.game)
    spec = rules.get_game(name)
    overrides: dict[str, object] = {"players": args.players, "seed": args.seed}
    variant = args.variant.lower() if args.variant is not None else named_variant
    if args.variant is not None and named_variant is not None and variant != named_variant:
        raise OptionError("variant", f"{args.game!r} is the {named_variant} variant, not {args.variant!r}")
    if variant is not None:
        if spec.variant_field not in {f.name for f in dataclasses.fields(spec.options_type)}:
            raise OptionError("variant", f"{args.game} has no variants")
        overrides[spec.variant_field] = variant
    return spec.options_type.preset(args.preset, **overrides)


def run(args: argparse.Namespace) -> int:
    try:
        spec = rules.get_game(rules.find_game(args.game)[0])
        options = options_from_args(args)
    except (KeyError, OptionError) as exc:
        print(f"referee play: {exc.args[0] if isinstance(exc, KeyError) else exc}")
        return 2
    if not args.auto:  # no game is played move by move in the terminal
        print(f"referee play {spec.name}: only --auto is available in the terminal")
        return 2
    state = spec.auto_play(options)
    print(spec.describe(state))
    return 0
