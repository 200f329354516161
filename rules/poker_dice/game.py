"""Kości as a game: options and presets, the draw for the starting seat, random play, the sheets as text.

15 turns per player. The starting seat is drawn by lot (seed 004); play then goes clockwise, i.e. to
the next higher seat number. The lot is part of the options so that a game stays "options + actions":
``first_player`` is the seat the players drew at the table, or ``None`` to let the device draw it
from ``seed`` (:func:`draw_first_player`).

Presets: ``seed`` follows seed 004. No official rules of this Polish variant are published (REFERENCE.md
§4.1), so ``official`` equals ``seed``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, cast

from rules.dice_game import DiceGame, box_words, format_table, ranking_lines, seat_label
from rules.dice_game import auto_play as play_randomly
from rules.errors import OptionError
from rules.options import Options, Range
from rules.poker_dice.scoring import BOXES
from rules.poker_dice.sheet import PokerDiceSheet
from rules.registry import GameSpec, GameState

__all__ = [
    "SPEC",
    "PokerDiceGame",
    "PokerDiceOptions",
    "auto_play",
    "describe",
    "draw_first_player",
    "new_game",
    "new_sheet",
]

PokerDiceGame = DiceGame[PokerDiceSheet]


@dataclass(frozen=True)
class PokerDiceOptions(Options):
    """Kości options: the zero-entry rules and who starts (``None``: drawn from ``seed``)."""

    allow_voluntary_zero: bool = True
    penalty_per_zero: bool = False
    first_player: Annotated[int, Range(0, 3)] | None = None

    # No published official rules differ from the seed's.
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {"official": {}}

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.first_player is not None and not 0 <= self.first_player < self.players:
            raise OptionError(
                "first_player", f"seat {self.first_player}; allowed: 0–{self.players - 1} or none"
            )


def draw_first_player(options: PokerDiceOptions) -> int:
    """The starting seat: ``options.first_player``, or drawn by lot from ``options.seed``."""
    if options.first_player is not None:
        return options.first_player
    return random.Random(f"kosci-lot-{options.seed}").randrange(options.players)


def new_sheet(allow_voluntary_zero: bool = True, penalty_per_zero: bool = False) -> PokerDiceSheet:
    """An empty Kości sheet with the given zero-entry rules."""
    return PokerDiceSheet(allow_voluntary_zero=allow_voluntary_zero, penalty_per_zero=penalty_per_zero)


def _options(options: Options | None) -> PokerDiceOptions:
    if options is None:
        return PokerDiceOptions()
    if not isinstance(options, PokerDiceOptions):
        raise TypeError(f"Kości needs PokerDiceOptions, got {type(options).__name__}")
    return options


def new_game(options: Options | None = None) -> PokerDiceGame:
    """A new game; the seat drawn by lot rolls first."""
    opts = _options(options)
    sheet = new_sheet(opts.allow_voluntary_zero, opts.penalty_per_zero)
    return DiceGame.start(opts, sheet, draw_first_player(opts))


def auto_play(options: Options) -> PokerDiceGame:
    """A whole game of random legal moves, seeded by ``options.seed``."""
    return play_randomly(new_game(options), random.Random(options.seed))


_BONUS_LINES = {"small": "small figures bonus", "large": "large figures bonus", "joker": "joker bonus"}


def describe(state: GameState) -> str:
    """Every sheet as a table (``.`` = open box) with its bonus lines, the totals and the ranking."""
    game = cast(PokerDiceGame, state)
    opts = _options(game.options)
    title = (
        f"{SPEC.titles['en']}: {opts.players} player(s), seed {opts.seed}, "
        f"{seat_label(game.first_player)} started"
    )
    header = ["box", *(seat_label(seat) for seat in range(len(game.sheets)))]
    rows = [
        [box_words(box), *("." if s.get(box) is None else str(s.get(box)) for s in game.sheets)]
        for box in BOXES
    ]
    rows += [[label, *(str(s.bonuses()[key]) for s in game.sheets)] for key, label in _BONUS_LINES.items()]
    totals = "totals: " + "  ".join(f"{seat_label(seat)} {s.total()}" for seat, s in enumerate(game.sheets))
    return "\n".join([title, "", format_table(header, rows), "", totals, *ranking_lines(game)])


SPEC = GameSpec(
    name="poker_dice",
    titles={
        "pl": "Kości",
        "hu": "Kości (pókerkocka)",
        "de": "Kości (Pokerwürfel)",
        "en": "Kości (poker dice)",
    },
    options_type=PokerDiceOptions,
    new_game=new_game,
    auto_play=auto_play,
    describe=describe,
)
