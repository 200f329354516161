"""A stand-in for ``rules.dice`` (the dice engine is built on another branch), installed only while the
real module is missing. Same names and behaviour as the agreed interface; simplified scoring."""

from __future__ import annotations

import random
import sys
import types
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

import rules
from rules import IllegalAction, Options, Outcome, Termination, action

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
Y_BOXES = (
    *UPPER,
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
P_BOXES = (
    *UPPER,
    "pair",
    "two_pairs",
    "three_of_a_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "four_of_a_kind",
    "poker",
    "chance",
)


@dataclass(frozen=True)
class Roll:
    values: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> Roll:
        return cls(tuple(int(t) for t in text.split()))

    def __str__(self) -> str:
        return " ".join(str(v) for v in self.values)


@action("fake.roll")
@dataclass(frozen=True)
class RollDice:
    dice: Roll
    held: tuple[int, ...] = ()


@action("fake.choose")
@dataclass(frozen=True)
class Choose:
    box: str


def random_roll(rng: random.Random, previous: Roll | None, held: tuple[int, ...]) -> Roll:
    return Roll(tuple(previous.values[i] if previous and i in held else rng.randint(1, 6) for i in range(5)))


def score(box: str, d: tuple[int, ...]) -> int:
    base = box.partition(":")[2] or box
    counts = sorted((d.count(v) for v in set(d)), reverse=True)
    if base in UPPER:
        face = UPPER.index(base) + 1
        return face * d.count(face)
    if base == "chance":
        return sum(d)
    if base == "yahtzee":
        return 50 if counts[0] == 5 else 0
    if base == "poker":
        return sum(d) + 50 if counts[0] == 5 else 0
    if base == "pair":
        return max((v * d.count(v) for v in set(d) if d.count(v) >= 2), default=0)
    if base == "two_pairs":
        return (
            sum(v * d.count(v) for v in set(d) if d.count(v) >= 2)
            if counts[0] >= 4 or counts[:2] == [2, 2] or counts[:2] == [3, 2]
            else 0
        )
    if base == "three_of_a_kind":
        return sum(d) if counts[0] >= 3 else 0
    if base == "four_of_a_kind":
        return sum(d) + 20 if counts[0] >= 4 else 0
    if base == "full_house":
        return 25 if counts[:2] == [3, 2] else 0
    if base == "small_straight":
        return 30 if any(set(s) <= set(d) for s in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))) else 0
    if base == "large_straight":
        return 40 if set(d) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    raise KeyError(base)


@dataclass(frozen=True)
class Sheet:
    boxes: tuple[str, ...]
    filled: tuple[tuple[str, int], ...] = ()

    def get(self, box: str) -> int | None:
        return dict(self.filled).get(box)

    def bonuses(self) -> dict[str, int]:
        upper = sum(v for b, v in self.filled if (b.partition(":")[2] or b) in UPPER)
        return {"upper_bonus": 35} if upper >= 63 else {}

    def total(self) -> int:
        factor = {"1": 1, "2": 2, "3": 3}
        return sum(v * factor.get(b.partition(":")[0], 1) for b, v in self.filled) + sum(
            self.bonuses().values()
        )


@dataclass(frozen=True)
class YOptions(Options):
    variant: Literal["classic", "triple"] = "classic"
    joker: Literal["forced", "free"] = "forced"
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {"official": {"joker": "forced"}}


@dataclass(frozen=True)
class POptions(Options):
    allow_voluntary_zero: bool = True
    penalty_per_zero: bool = False


@dataclass(frozen=True)
class State:
    options: Options
    sheets: tuple[Sheet, ...]
    current_player: int = 0
    turn: int = 1
    rolls_used: int = 0
    dice: Roll | None = None
    outcome: Outcome | None = field(default=None)

    def choices(self) -> dict[str, int]:
        assert self.dice is not None
        sheet = self.sheets[self.current_player]
        return {b: score(b, self.dice.values) for b in sheet.boxes if sheet.get(b) is None}

    def best_choice(self) -> str:
        choices = self.choices()
        return max(choices, key=lambda b: choices[b])

    def apply(self, act: Any) -> State:
        if self.outcome is not None:
            raise IllegalAction("game_over", "the game is over")
        if isinstance(act, RollDice):
            if self.rolls_used >= 3:
                raise IllegalAction("too_many_rolls", "three rolls used")
            for p in act.held:
                if self.dice is None or self.dice.values[p] != act.dice.values[p]:
                    raise IllegalAction("held_die_changed", f"held die {p} changed", position=p)
            return replace(self, dice=act.dice, rolls_used=self.rolls_used + 1)
        if isinstance(act, Choose):
            if self.dice is None:
                raise IllegalAction("no_roll", "roll first")
            sheet = self.sheets[self.current_player]
            if act.box not in sheet.boxes:
                raise IllegalAction("unknown_box", f"no box {act.box!r}", box=act.box)
            if sheet.get(act.box) is not None:
                raise IllegalAction("box_filled", f"box {act.box!r} is already filled", box=act.box)
            sheets = list(self.sheets)
            sheets[self.current_player] = replace(
                sheet, filled=(*sheet.filled, (act.box, score(act.box, self.dice.values)))
            )
            nxt = (self.current_player + 1) % len(sheets)
            done = all(s.get(b) is not None for s in sheets for b in s.boxes)
            outcome = (
                Outcome.from_scores(Termination.SHEETS_FULL, [s.total() for s in sheets]) if done else None
            )
            return replace(
                self,
                sheets=tuple(sheets),
                current_player=nxt,
                turn=self.turn + (nxt == 0),
                rolls_used=0,
                dice=None,
                outcome=outcome,
            )
        raise TypeError(act)


def _y_new(opts: Options) -> State:
    assert isinstance(opts, YOptions)
    boxes = tuple(f"{c}:{b}" for c in (1, 2, 3) for b in Y_BOXES) if opts.variant == "triple" else Y_BOXES
    return State(opts, tuple(Sheet(boxes) for _ in range(opts.players)))


def _p_new(opts: Options) -> State:
    return State(opts, tuple(Sheet(P_BOXES) for _ in range(opts.players)))


def _auto(new: Any) -> Any:
    def play(opts: Options) -> State:
        rng = random.Random(opts.seed)
        state = new(opts)
        while state.outcome is None:
            state = state.apply(RollDice(random_roll(rng, None, ())))
            state = state.apply(Choose(state.best_choice()))
        return state

    return play


def install() -> None:
    """Register the fake games and module unless the real dice engine is there."""
    import importlib.util

    if importlib.util.find_spec("rules.dice") is not None:
        return
    titles_y = {"pl": "Generał", "hu": "Generál", "de": "Kniffel", "en": "Yahtzee"}
    titles_p = {"pl": "Kości", "hu": "Kockapóker", "de": "Würfelpoker", "en": "Poker dice"}
    variants = {
        "classic": titles_y,
        "triple": {
            "pl": "Generał potrójny",
            "hu": "Tripla generál",
            "de": "Dreifach-Kniffel",
            "en": "Triple Yahtzee",
        },
    }
    rules.register(rules.GameSpec("yahtzee", titles_y, YOptions, _y_new, _auto(_y_new), str, variants))
    rules.register(rules.GameSpec("poker_dice", titles_p, POptions, _p_new, _auto(_p_new), str))
    module = types.ModuleType("rules.dice")
    module.Roll = Roll  # type: ignore[attr-defined]
    module.RollDice = RollDice  # type: ignore[attr-defined]
    module.Choose = Choose  # type: ignore[attr-defined]
    module.random_roll = random_roll  # type: ignore[attr-defined]
    sys.modules["rules.dice"] = module
