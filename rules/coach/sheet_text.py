"""A score sheet typed as text, for ``referee coach advise``: ``"ones=3 fours=12 yahtzee=50"``.

Entries are ``box=points`` separated by spaces or commas; triple boxes are ``2:ones=4`` (points as
the sheet shows them, i.e. multiplied); ``yahtzee_bonus=N`` (Generał: +100 bonuses earned, per
column in the triple sheet as ``2:yahtzee_bonus=1``) and ``jokers=N`` (Kości) count bonuses. Every
value must be one the box can hold: an error names the entry otherwise.

>>> from rules.yahtzee.game import YahtzeeOptions
>>> sheet = parse_sheet(YahtzeeOptions(), "ones=3, yahtzee=50 yahtzee_bonus=1")
>>> sheet.get("ones"), sheet.total()
(3, 153)
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from rules.coach.dice_sets import ROLLS
from rules.dice_game import Sheet
from rules.options import Options
from rules.poker_dice.game import PokerDiceOptions, new_sheet
from rules.poker_dice.scoring import BOXES as KOSCI_BOXES
from rules.poker_dice.scoring import score as kosci_score
from rules.yahtzee.game import YahtzeeOptions
from rules.yahtzee.scoring import BOXES as GENERAL_BOXES
from rules.yahtzee.scoring import joker_score, score
from rules.yahtzee.sheet import ClassicSheet
from rules.yahtzee.triple import FACTORS, TripleSheet

__all__ = ["parse_sheet"]


@cache
def _possible(game: str, box: str) -> frozenset[int]:
    if game == "poker_dice":
        return frozenset(kosci_score(box, r) for r in ROLLS)
    return frozenset(score(box, r) for r in ROLLS) | {joker_score(box, (f,) * 5) for f in range(1, 7)}


def _entries(text: str) -> list[tuple[str, int]]:
    found = []
    for item in (p for p in re.split(r"[\s,]+", text.strip()) if p):
        name, sep, value = item.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise ValueError(f"sheet entry {item!r} is not box=points")
        found.append((name.strip(), int(value)))
    return found


def _value(game: str, box: str, points: int, boxes: tuple[str, ...]) -> int:
    if box not in boxes:
        raise ValueError(f"sheet entry {box}={points}: no box {box!r}; boxes: {', '.join(boxes)}")
    if points not in _possible(game, box):
        raise ValueError(f"sheet entry {box}={points}: {box!r} cannot hold {points} points")
    return points


def parse_sheet(options: Options, text: str) -> Sheet:
    """The sheet described by ``text`` for a game with ``options`` (``ValueError`` naming a bad entry)."""
    entries = _entries(text)
    if isinstance(options, PokerDiceOptions):
        sheet = new_sheet(options.allow_voluntary_zero, options.penalty_per_zero)
        values: dict[str, int] = {}
        jokers = 0
        for box, points in entries:
            if box == "jokers":
                jokers = points
            else:
                values[box] = _value("poker_dice", box, points, KOSCI_BOXES)
        return replace(sheet, entries=tuple(values.get(b) for b in KOSCI_BOXES), jokers=jokers)
    if not isinstance(options, YahtzeeOptions):
        raise ValueError(f"the coach reads dice sheets only, not {type(options).__name__}")
    if options.variant == "classic":
        values = {}
        bonuses = 0
        for box, points in entries:
            if box == "yahtzee_bonus":
                bonuses = points
            else:
                values[box] = _value("yahtzee", box, points, GENERAL_BOXES)
        if bonuses and values.get("yahtzee") != 50:
            raise ValueError("sheet entry yahtzee_bonus: a bonus needs 50 in the yahtzee box")
        return ClassicSheet(tuple(values.get(b) for b in GENERAL_BOXES), bonuses, options.joker)
    columns: list[dict[str, int]] = [{} for _ in FACTORS]
    column_bonuses = [0] * len(FACTORS)
    for name, points in entries:
        column_text, _, box = name.partition(":")
        if not column_text.isdigit() or int(column_text) not in FACTORS:
            raise ValueError(f"sheet entry {name}={points}: triple boxes are '1:ones' … '3:chance'")
        c = int(column_text) - 1
        if box == "yahtzee_bonus":
            column_bonuses[c] = points
            continue
        factor = FACTORS[c]
        if points % factor:
            raise ValueError(f"sheet entry {name}={points}: column {factor} holds multiples of {factor}")
        columns[c][box] = _value("yahtzee", box, points // factor, GENERAL_BOXES)
    return TripleSheet(
        tuple(tuple(col.get(b) for b in GENERAL_BOXES) for col in columns), tuple(column_bonuses)
    )
