"""``referee coach build|value|advise|simulate``: the coach on the command line.

- ``build [GAME]`` builds the value table(s) with a progress bar, into the state directory (next to
  the journal) or ``--table PATH``; without GAME every coach table is built;
- ``value GAME`` prints the optimal expected score from the start (or from ``--sheet``), and with
  ``--target T`` the simulated spread and the chance of beating T;
- ``advise GAME --sheet … --dice … --rolls-left N`` prints the ranked choices;
- ``advise rummikub --table "R1 R2 R3|K7 B7 O7" --rack "R4 R5 J" [--opened] [--json]`` prints the
  tiles the best move lays and the table after it (``rules.rummikub.advice``; no table file);
- ``simulate GAME --games N`` plays N games (the optimal policy; the heuristic for the triple sheet;
  ``--greedy`` for the greedy baseline) and prints the mean and its standard error.

GAME is ``yahtzee``, ``yahtzee-triple`` or ``poker_dice`` (``kosci``); the rule options follow the
game's flags (``--joker``, ``--no-voluntary-zero``, ``--penalty-per-zero``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import rules
from device.coach_tables import load_table, save_table, table_path
from device.config import ConfigError, load_config
from rules.coach.advice import Coach, advise
from rules.coach.games import GAMES, coach_of, model_for
from rules.coach.model import DiceModel
from rules.coach.sheet_text import parse_sheet
from rules.coach.simulate import distribution
from rules.coach.table import Table, build
from rules.dice import Roll
from rules.dice_game import Sheet
from rules.errors import IllegalAction, NotationError
from rules.options import Options
from rules.poker_dice.game import PokerDiceOptions
from rules.rummikub.advice import Advice, check_position, parse_table
from rules.rummikub.advice import advise as rummikub_advise
from rules.rummikub.tiles import parse_tiles, tiles_text
from rules.yahtzee.game import YahtzeeOptions
from rules.yahtzee.solver import GeneralModel
from rules.yahtzee.triple_solver import play

if TYPE_CHECKING:
    from device.commands import Subcommands

_ALIASES = {"kosci": "poker_dice", "generał": "yahtzee", "general": "yahtzee", "triple": "yahtzee-triple"}


def register(sub: Subcommands) -> None:
    p = sub.add_parser(
        "coach", help="the coach: the dice games' tables, values, advice, simulations; Rummikub's advice"
    )
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)

    def common(parser: argparse.ArgumentParser, game_required: bool = True) -> None:
        parser.add_argument("game", nargs=None if game_required else "?", help=", ".join(GAMES))
        parser.add_argument("--joker", choices=("forced", "free", "verhoeff"), default="forced")
        parser.add_argument(
            "--no-voluntary-zero", action="store_true", help="Kości: zero entries only when forced"
        )
        parser.add_argument(
            "--penalty-per-zero", action="store_true", help="Kości: the penalty for each zero"
        )
        parser.add_argument(
            "--table",
            default=None,
            help="the table file (default: in the state directory); rummikub: the table's melds, "
            "separated by | ('R1 R2 R3|K7 B7 O7')",
        )
        parser.add_argument(
            "--state-dir", default=argparse.SUPPRESS, help="where the tables live (overrides the config)"
        )
        parser.add_argument(
            "--config", default=argparse.SUPPRESS, help="the config file (its state directory)"
        )

    b = verbs.add_parser("build", help="build the value table(s) once (a progress bar)")
    common(b, game_required=False)
    b.set_defaults(func=run_build)
    v = verbs.add_parser("value", help="the optimal expected final score")
    common(v)
    v.add_argument("--sheet", default="", help="the sheet so far, e.g. 'ones=3 fours=12' (default empty)")
    v.add_argument("--target", type=float, default=None, help="also the chance of beating this total")
    v.add_argument("--games", type=int, default=10_000, help="games simulated for --target")
    v.add_argument("--seed", type=int, default=0)
    v.set_defaults(func=run_value)
    a = verbs.add_parser(
        "advise", help="every choice now, ranked by the expected final score; rummikub: the best move"
    )
    common(a)
    a.add_argument("--sheet", default="", help="the sheet so far, e.g. 'ones=3 fours=12'")
    a.add_argument("--dice", default=None, help="the five dice, e.g. '6 6 2 3 6' (dice games)")
    a.add_argument("--rolls-left", type=int, default=None, help="rolls still allowed this turn (0–2)")
    a.add_argument("--top", type=int, default=10, help="how many choices to print")
    a.add_argument("--rack", default=None, help="rummikub: the rack, e.g. 'R4 R5 J'")
    a.add_argument("--opened", action="store_true", help="rummikub: the player has made his opening")
    a.add_argument("--json", action="store_true", help="rummikub: print the advice as JSON")
    a.set_defaults(func=run_advise)
    s = verbs.add_parser("simulate", help="mean and standard error of the coach's play")
    common(s)
    s.add_argument("--games", type=int, default=100_000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--greedy", action="store_true", help="yahtzee-triple: the greedy baseline instead")
    s.set_defaults(func=run_simulate)


def _game(name: str) -> str:
    """The coach's game named by ``name``: its own names (``yahtzee-triple``), or any name ``referee
    play`` and the screens take (``rules.find_game``: ``Kości``, ``Triple Generał``, any case)."""
    game = _ALIASES.get(name.lower(), name.lower())
    if game in GAMES:
        return game
    try:
        found, variant = rules.find_game(name)
    except KeyError:
        found, variant = "", None
    game = "yahtzee-triple" if (found, variant) == ("yahtzee", "triple") else found
    if game not in GAMES:
        raise ValueError(f"no coach for {name!r}; games: {', '.join(GAMES)}")
    return game


def _options(game: str, args: argparse.Namespace) -> Options:
    if game == "poker_dice":
        return PokerDiceOptions(
            allow_voluntary_zero=not args.no_voluntary_zero, penalty_per_zero=args.penalty_per_zero
        )
    if game == "yahtzee-triple":
        return YahtzeeOptions(variant="triple")
    return YahtzeeOptions(joker="forced" if args.joker == "verhoeff" else args.joker)


def _directory(args: argparse.Namespace) -> Path:
    if args.state_dir:
        return Path(args.state_dir)
    return Path(load_config(args.config).device.state_dir)


def _model(game: str, args: argparse.Namespace) -> DiceModel:
    if game == "yahtzee" and args.joker == "verhoeff":
        return GeneralModel(joker="verhoeff")
    return model_for(_options(game, args))


def _path(game: str, args: argparse.Namespace) -> Path:
    return Path(args.table) if args.table else table_path(_directory(args), _model(game, args))


def _coach(game: str, args: argparse.Namespace) -> Coach:
    return coach_of(_options(game, args), load_table(_model(game, args), _path(game, args)))


def _fail(message: str) -> int:
    print(f"referee coach: {message}", file=sys.stderr)
    return 2


def progress_bar(label: str, out: TextIO | None = None) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback drawing ``label [#####.....]  45%  12 s`` on ``out`` (the
    standard error at the time of the call, not at import: tests and callers may replace it)."""
    stream = sys.stderr if out is None else out
    start = time.monotonic()

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        bar = "#" * filled + "." * (width - filled)
        percent = 100 * done // max(total, 1)
        stream.write(f"\r{label} [{bar}] {percent:3d}%  {time.monotonic() - start:.0f} s")
        if done >= total:
            stream.write("\n")
        stream.flush()

    return show


def run_build(args: argparse.Namespace) -> int:
    try:
        games = [_game(args.game)] if args.game else list(GAMES)
        if args.table and len(games) > 1:
            return _fail("--table names one file: name the game too")
        for game in games:
            path = _path(game, args)
            start = time.perf_counter()
            table = build(_model(game, args), progress_bar(f"{game:15s}"))
            save_table(table, path)
            seconds = time.perf_counter() - start
            size = path.stat().st_size / 1e6
            print(f"{game}: {path}  {size:.1f} MB  built in {seconds:.1f} s")
            print(f"{game}: value of the table's start {table.start_value:.4f}")
    except (ValueError, ConfigError, OSError) as error:
        return _fail(str(error))
    return 0


def _sheet(game: str, args: argparse.Namespace) -> Sheet:
    return parse_sheet(_options(game, args), args.sheet)


def run_value(args: argparse.Namespace) -> int:
    try:
        game = _game(args.game)
        coach = _coach(game, args)
        sheet = _sheet(game, args)
        kind = "optimal" if coach.exact else "heuristic estimate (one-column optimum × factors)"
        print(f"{game}: expected final score {coach.expected_final(sheet):.4f} ({kind})")
        if args.target is not None:
            if not coach.exact or not isinstance(coach, Table):
                return _fail("the chance of a target needs an exact table (not the triple heuristic)")
            d = distribution(coach, sheet, args.games, args.seed)
            print(f"simulated {d.games} games: mean {d.mean:.2f} ± {d.standard_error:.2f}, sd {d.spread:.2f}")
            print(f"chance to beat {args.target:g}: {100 * d.chance_above(args.target):.1f} %")
    except (ValueError, ConfigError) as error:
        return _fail(str(error))
    return 0


def _describe(kind: str, kept: tuple[int, ...], hold: tuple[int, ...], box: str | None) -> str:
    if kind == "box":
        return f"box {box}"
    positions = ",".join(str(p + 1) for p in hold) or "-"
    return f"hold {' '.join(map(str, kept)) or 'nothing'} (positions {positions})"


def _is_rummikub(name: str) -> bool:
    try:
        return rules.find_game(name)[0] == "rummikub"
    except KeyError:
        return False


def run_advise(args: argparse.Namespace) -> int:
    if _is_rummikub(args.game):
        return run_rummikub_advise(args)
    if args.dice is None or args.rolls_left is None:
        return _fail(f"advise {args.game} needs --dice and --rolls-left")
    try:
        game = _game(args.game)
        coach = _coach(game, args)
        sheet = _sheet(game, args)
        dice = list(Roll.parse(args.dice).values)
        choices = advise(coach, sheet, dice, args.rolls_left)
    except (ValueError, ConfigError) as error:
        return _fail(str(error))
    note = "" if coach.exact else "  (heuristic: not proven optimal)"
    print(f"{game}: dice {' '.join(map(str, dice))}, {args.rolls_left} roll(s) left{note}")
    print(f"{'choice':32s} {'expected':>9s} {'loss':>7s}")
    for c in choices[: args.top]:
        print(f"{_describe(c.kind, c.kept, c.hold, c.box):32s} {c.expected:9.2f} {c.loss:7.2f}")
    return 0


def run_rummikub_advise(args: argparse.Namespace) -> int:
    """The best move for ``--rack`` at ``--table`` (see the module docstring)."""
    if args.rack is None:
        return _fail("advise rummikub needs --rack (e.g. --rack 'R4 R5 J')")
    try:
        table = parse_table(args.table or "")
        rack = parse_tiles(args.rack)
        if not rack:
            return _fail("--rack holds no tile")
        check_position(table, rack)
        start = time.perf_counter()
        advice = rummikub_advise(table, rack, opened=args.opened)
        ms = (time.perf_counter() - start) * 1000
    except (NotationError, IllegalAction) as error:
        return _fail(str(error))
    if args.json:
        print(json.dumps(advice.to_json(ms)))
        return 0
    for line in advice_lines(advice):
        print(line)
    print(f"({ms:.1f} ms)")
    return 0


def advice_lines(advice: Advice) -> list[str]:
    """The advice in plain English lines (the command line's text)."""
    lines = []
    if not advice.opened:
        if advice.can_open:
            lines.append(f"can open: the best opening is worth {advice.opening_value}")
        else:
            lines.append(f"cannot open: the best the rack holds is worth {advice.opening_value} (30 needed)")
    if advice.move is None:
        lines.append("no tile can be laid: draw")
        return lines
    n = advice.tiles_possible
    lines.append(f"best move: lays {n} tile{'s' if n != 1 else ''}: {tiles_text(advice.placed)}")
    changed = advice.changed_melds
    if changed:
        lines.append(
            f"takes apart {len(changed)} meld{'s' if len(changed) != 1 else ''}: "
            + " | ".join(map(str, changed))
        )
    if not advice.exact:
        lines.append("(the most valuable opening: one with more tiles may exist)")
    lines.append("table after:")
    for i, meld in enumerate(advice.table_after):
        mark = "" if i < advice.kept else "   (new)"
        lines.append(f"  {meld}{mark}")
    return lines


def run_simulate(args: argparse.Namespace) -> int:
    try:
        game = _game(args.game)
        if args.games < 2:
            return _fail(f"--games must be at least 2, not {args.games}")
        start = time.perf_counter()
        if game == "yahtzee-triple":
            table = load_table(_model(game, args), _path(game, args))
            totals = play(None if args.greedy else table.values, args.games, args.seed)
            mean, sd = float(totals.mean()), float(totals.std(ddof=1))
            who = "the greedy player" if args.greedy else "the heuristic"
            reference = f"6 × one-column optimum {6 * table.start_value:.2f}"
        else:
            coach = _coach(game, args)
            assert isinstance(coach, Table)  # every game's coach but the triple's is its table
            table = coach
            empty = parse_sheet(_options(game, args), "")
            d = distribution(table, empty, args.games, args.seed, progress_bar("simulate"))
            mean, sd = d.mean, d.spread
            who = "optimal play"
            off = (mean - table.start_value) / d.standard_error
            reference = f"computed optimum {table.start_value:.4f}, {off:+.2f} standard errors away"
    except (ValueError, ConfigError) as error:
        return _fail(str(error))
    se = sd / math.sqrt(args.games)
    print(f"{game}: {args.games} games of {who}: mean {mean:.4f}, standard error {se:.4f}, sd {sd:.2f}")
    print(f"{reference}  ({time.perf_counter() - start:.1f} s)")
    return 0
