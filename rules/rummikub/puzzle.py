"""Rummikub solo puzzles: a position (a table and a rack), the player's answer, scored against the
exact optimum (``best_move``: the most rack tiles laid, then the most value, then the fewest melds
changed).

The position comes from the options: given (``table``, ``rack``: a position of a journaled game, in
the notation of ``rules.rummikub.advice``), or generated from ``seed`` at a ``difficulty`` measured
by the optimum itself — *easy*: the best move changes at most one old meld, *medium*: two or three,
*hard*: four or more (the table must be taken apart and laid again). The generator deals random
positions from the seed until one is of the difficulty asked (and lays at least one tile), so a seed
is always the same puzzle.

The game is one action: ``Answer(table)`` — the whole table as the player left it, checked as a
turn of a player who has opened (``check_turn``; the tiles laid must come from the rack,
``not_on_rack``) — or ``NoMove()`` when he sees none. The score is the share of the optimum in
percent (``laid × 100 // optimum``; 100 for ``NoMove`` when nothing could be laid).

>>> state = new_puzzle(PuzzleOptions(table="R1 R2 R3|B7 K7 O7", rack="R4 R5 B9"))
>>> state.optimum
2
>>> done = state.apply(Answer((Meld.parse("R1 R2 R3 R4"), Meld.parse("B7 K7 O7"))))
>>> done.laid, done.outcome.scores
(1, (50,))
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rules.actions import Action, action
from rules.errors import IllegalAction
from rules.options import Options
from rules.outcome import Outcome, Termination
from rules.registry import GameSpec, GameState, register
from rules.rummikub.advice import Advice, advise, check_position, parse_table, table_text
from rules.rummikub.check import check_turn
from rules.rummikub.melds import Meld
from rules.rummikub.tiles import COLOURS, JOKER, Tile, full_set, parse_tiles, tiles_text

__all__ = [
    "DIFFICULTIES",
    "SPEC",
    "Answer",
    "NoMove",
    "PuzzleOptions",
    "PuzzleState",
    "difficulty_of",
    "generate",
    "new_puzzle",
]

DIFFICULTIES = ("easy", "medium", "hard")
# (table tiles, rack tiles) dealt for each difficulty: the generator's ranges.
_SIZES = {"easy": ((6, 18), (3, 6)), "medium": ((15, 35), (5, 9)), "hard": ((30, 60), (7, 12))}
_ATTEMPTS = 400


@dataclass(frozen=True)
class PuzzleOptions(Options):
    """``difficulty`` of a generated puzzle; ``table`` and ``rack``: a given position (both, or the
    generated one when ``rack`` is empty). One player."""

    players: int = 1
    difficulty: Literal["easy", "medium", "hard"] = "medium"
    table: str = ""
    rack: str = ""

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    MIN_PLAYERS: ClassVar[int] = 1
    MAX_PLAYERS: ClassVar[int] = 1


@action("rummikub_puzzle.answer")
@dataclass(frozen=True)
class Answer(Action):
    """The player's answer: the whole table as he left it."""

    table: tuple[Meld, ...]


@action("rummikub_puzzle.no_move")
@dataclass(frozen=True)
class NoMove(Action):
    """The player sees no move (the right answer when the rack lays nothing)."""


def difficulty_of(move_changed: int) -> str:
    """The difficulty of a position whose best move changes ``move_changed`` old melds.

    >>> [difficulty_of(n) for n in (0, 1, 2, 3, 4, 7)]
    ['easy', 'easy', 'medium', 'medium', 'hard', 'hard']
    """
    return "easy" if move_changed <= 1 else "medium" if move_changed <= 3 else "hard"


def _random_meld(rng: random.Random, pool: Counter[Tile]) -> list[Tile] | None:
    if rng.random() < 0.5:
        colour = rng.choice(COLOURS)
        length = rng.randint(3, 5)
        start = rng.randint(1, 14 - length)
        tiles = [Tile(colour, n) for n in range(start, start + length)]
    else:
        number = rng.randint(1, 13)
        tiles = [Tile(c, number) for c in rng.sample(COLOURS, rng.randint(3, 4))]
    if pool[JOKER] and rng.random() < 0.1:
        tiles[rng.randrange(len(tiles))] = JOKER
    need = Counter(tiles)
    return tiles if all(pool[t] >= k for t, k in need.items()) else None


def _deal(rng: random.Random, difficulty: str) -> tuple[list[Meld], list[Tile]]:
    (low, high), (rack_low, rack_high) = _SIZES[difficulty]
    target = rng.randint(low, high)
    pool = Counter(full_set())
    melds: list[Meld] = []
    size = failures = 0
    while size < target and failures < 100:
        meld = _random_meld(rng, pool)
        if meld is None:
            failures += 1
            continue
        pool.subtract(meld)
        melds.append(Meld(tuple(meld)))
        size += len(meld)
    rest = sorted(pool.elements(), key=Tile.sort_key)
    rng.shuffle(rest)
    return melds, sorted(rest[: rng.randint(rack_low, rack_high)], key=Tile.sort_key)


def generate(seed: int, difficulty: str) -> tuple[tuple[Meld, ...], tuple[Tile, ...], Advice]:
    """A position of ``difficulty`` dealt from ``seed`` and its exact advice (the same every time)."""
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"no difficulty {difficulty!r}; difficulties: {', '.join(DIFFICULTIES)}")
    rng = random.Random(f"rummikub-puzzle:{seed}:{difficulty}")
    fallback = None
    for _ in range(_ATTEMPTS):
        melds, rack = _deal(rng, difficulty)
        advice = advise(melds, rack, opened=True)
        if advice.move is None:
            continue
        found = (tuple(melds), tuple(rack), advice)
        if difficulty_of(len(advice.changed_melds)) == difficulty:
            return found
        fallback = fallback or found
    assert fallback is not None  # 400 deals always hold a position that lays a tile
    return fallback


@dataclass(frozen=True)
class PuzzleState:
    """A puzzle: the position, the exact advice, and once answered the tiles laid and the outcome."""

    options: PuzzleOptions
    table: tuple[Meld, ...]
    rack: tuple[Tile, ...]
    advice: Advice
    answer: tuple[Meld, ...] | None = None
    laid: int = 0
    outcome: Outcome | None = None

    @property
    def optimum(self) -> int:
        return self.advice.tiles_possible

    @property
    def to_move(self) -> int | None:
        return None if self.outcome is not None else 0

    @property
    def difficulty(self) -> str:
        return difficulty_of(len(self.advice.changed_melds))

    def apply(self, act: Action) -> PuzzleState:
        if self.outcome is not None:
            raise IllegalAction("game_over", "the puzzle is answered")
        if isinstance(act, NoMove):
            return self._scored((), 0)
        if not isinstance(act, Answer):
            raise IllegalAction("unknown_action", f"{type(act).__name__} is not a puzzle action")
        played = check_turn(self.table, act.table, opened=True)
        missing = Counter(played) - Counter(self.rack)
        if missing:
            text = tiles_text(sorted(missing.elements(), key=Tile.sort_key))
            raise IllegalAction(
                "not_on_rack", f"{text}: not on the puzzle's rack", tiles=[str(t) for t in missing.elements()]
            )
        return self._scored(act.table, len(played))

    def _scored(self, answer: tuple[Meld, ...], laid: int) -> PuzzleState:
        best = self.optimum
        score = 100 if best == 0 else laid * 100 // best
        outcome = Outcome.from_scores(Termination.PUZZLE_ANSWERED, (score,))
        return dataclasses.replace(self, answer=answer, laid=laid, outcome=outcome)


def new_puzzle(options: PuzzleOptions) -> PuzzleState:
    """The puzzle of ``options``: the given position, or the one generated from the seed."""
    if options.rack.strip():
        table = tuple(parse_table(options.table))
        rack = tuple(parse_tiles(options.rack))
        check_position(table, rack)
        return PuzzleState(options, table, rack, advise(table, rack, opened=True))
    table, rack, advice = generate(options.seed, options.difficulty)
    return PuzzleState(options, table, rack, advice)


def from_position(table: tuple[Meld, ...], rack: tuple[Tile, ...], **options: Any) -> PuzzleOptions:
    """The options of a puzzle set from a position (a move of a journaled game)."""
    return PuzzleOptions(table=table_text(table), rack=tiles_text(rack), **options)


def _new_game(options: Options) -> GameState:
    assert isinstance(options, PuzzleOptions)
    return new_puzzle(options)


def _auto_play(options: Options) -> GameState:
    """The puzzle answered: the optimum on even seeds, a move one tile short (or none) on odd ones."""
    state = new_puzzle(options)  # type: ignore[arg-type]
    move = state.advice.move
    if move is None or options.seed % 2:
        return state.apply(NoMove())
    return state.apply(Answer(move.table))


def _describe(state: GameState) -> str:
    assert isinstance(state, PuzzleState)
    lines = [
        f"puzzle ({state.difficulty}): table {table_text(state.table) or '(empty)'}",
        f"rack {tiles_text(state.rack)}",
        f"optimum: {state.optimum} tiles: {tiles_text(state.advice.placed) or '-'}",
    ]
    if state.outcome is not None:
        lines.append(f"answer: {state.laid} tiles, score {state.outcome.scores[0]} %")
    return "\n".join(lines)


SPEC = register(
    GameSpec(
        name="rummikub_puzzle",
        titles={
            "pl": "Rummikub: zagadka",
            "hu": "Rummikub: fejtörő",
            "de": "Rummikub: Rätsel",
            "en": "Rummikub puzzle",
        },
        options_type=PuzzleOptions,
        new_game=_new_game,
        auto_play=_auto_play,
        describe=_describe,
    )
)
