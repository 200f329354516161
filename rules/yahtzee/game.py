"""Generał as a game: its options and presets, a new game, random play, the text of the sheets.

Seats play in order 0, 1, …, n-1 (seat 0 starts); 13 turns each (39 in the triple variant).

Presets: ``seed`` follows seed 002 (forced joker, Yahtzee bonus when the ``yahtzee`` box holds 50).
``official`` (Hasbro/Winning Moves rules, REFERENCE.md §2.2) is the same: the seed's joker condition
is the official forced joker and the bonus rule chosen for the seed is Hasbro's, so nothing differs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, cast

from rules.dice_game import DiceGame, box_words, format_table, ranking_lines, seat_label
from rules.dice_game import auto_play as play_randomly
from rules.options import Options
from rules.registry import GameSpec, GameState
from rules.yahtzee.scoring import BOXES
from rules.yahtzee.sheet import ClassicSheet, Joker
from rules.yahtzee.triple import FACTORS, TripleSheet

__all__ = [
    "SPEC",
    "YahtzeeGame",
    "YahtzeeOptions",
    "YahtzeeSheet",
    "auto_play",
    "describe",
    "new_game",
    "new_sheet",
]

YahtzeeSheet = ClassicSheet | TripleSheet
YahtzeeGame = DiceGame[YahtzeeSheet]


@dataclass(frozen=True)
class YahtzeeOptions(Options):
    """Generał options. ``joker`` applies to the classic sheet only (triple has its own joker rule)."""

    variant: Literal["classic", "triple"] = "classic"
    joker: Joker = "forced"

    # Official Yahtzee rules equal the seed's (see the module docstring).
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {"official": {}}


def new_sheet(variant: str = "classic", joker: Joker = "forced") -> YahtzeeSheet:
    """An empty sheet: ``"classic"`` (13 boxes) or ``"triple"`` (39 boxes, ``"1:ones"`` … ``"3:chance"``)."""
    if variant == "classic":
        return ClassicSheet(joker=joker)
    if variant == "triple":
        return TripleSheet()
    raise ValueError(f"unknown variant {variant!r}; variants: 'classic', 'triple'")


def _options(options: Options | None) -> YahtzeeOptions:
    if options is None:
        return YahtzeeOptions()
    if not isinstance(options, YahtzeeOptions):
        raise TypeError(f"Generał needs YahtzeeOptions, got {type(options).__name__}")
    return options


def new_game(options: Options | None = None) -> YahtzeeGame:
    """A new game; seat 0 rolls first."""
    opts = _options(options)
    return DiceGame.start(opts, new_sheet(opts.variant, opts.joker))


def auto_play(options: Options) -> YahtzeeGame:
    """A whole game of random legal moves, seeded by ``options.seed``."""
    return play_randomly(new_game(options), random.Random(options.seed))


def _cell(value: int | None) -> str:
    return "." if value is None else str(value)


_BONUS_LINES = {"upper": "upper bonus", "yahtzee_bonus": "yahtzee bonus"}


def _classic_table(sheets: tuple[ClassicSheet, ...]) -> tuple[list[str], list[list[str]]]:
    header = ["box", *(seat_label(seat) for seat in range(len(sheets)))]
    rows = [[box_words(box), *(_cell(sheet.get(box)) for sheet in sheets)] for box in BOXES]
    rows += [[label, *(str(sheet.bonuses()[key]) for sheet in sheets)] for key, label in _BONUS_LINES.items()]
    return header, rows


def _triple_table(sheets: tuple[TripleSheet, ...]) -> tuple[list[str], list[list[str]]]:
    header = ["box", *(f"{seat_label(seat)} ×{f}" for seat in range(len(sheets)) for f in FACTORS)]
    rows = [
        [box_words(box), *(_cell(sheet.get(f"{f}:{box}")) for sheet in sheets for f in FACTORS)]
        for box in BOXES
    ]
    rows += [
        [label, *(str(sheet.bonuses()[f"{f}:{key}"]) for sheet in sheets for f in FACTORS)]
        for key, label in _BONUS_LINES.items()
    ]
    rows.append(
        ["column total", *(str(sheet.column_total(c)) for sheet in sheets for c in range(len(FACTORS)))]
    )
    return header, rows


def describe(state: GameState) -> str:
    """Every sheet as a table (``.`` = open box) with its bonuses, the totals and the ranking."""
    game = cast(DiceGame[Any], state)
    opts = _options(game.options)
    title = f"{SPEC.variants[opts.variant]['en']}: {opts.players} player(s), seed {opts.seed}"
    if opts.variant == "classic":
        title += f", {opts.joker} joker"
        header, rows = _classic_table(game.sheets)
    else:
        header, rows = _triple_table(game.sheets)
    totals = "totals: " + "  ".join(f"{seat_label(s)} {sheet.total()}" for s, sheet in enumerate(game.sheets))
    return "\n".join([title, "", format_table(header, rows), "", totals, *ranking_lines(game)])


SPEC = GameSpec(
    name="yahtzee",
    titles={"pl": "Generał", "hu": "Generał (Yahtzee)", "de": "Generał (Kniffel)", "en": "Generał (Yahtzee)"},
    options_type=YahtzeeOptions,
    new_game=new_game,
    auto_play=auto_play,
    describe=describe,
    variants={
        "classic": {
            "pl": "Generał (klasyczny)",
            "hu": "Generał (klasszikus)",
            "de": "Generał (klassisch)",
            "en": "Generał (classic)",
        },
        "triple": {
            "pl": "Generał potrójny",
            "hu": "Tripla Generał",
            "de": "Dreifach-Generał",
            "en": "Triple Generał",
        },
    },
)
