"""Hand-made Kalooki positions for the rule tests: hands, table and piles written as card text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rules.kalooki import Card, Deal, KalookiOptions, Meld, new_deal, parse_cards, read_meld
from rules.kalooki.deal import Phase


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def position(
    hands: Sequence[str],
    *,
    table: Sequence[str | Meld] = (),
    owners: Sequence[int] | None = None,
    opened: Sequence[bool] | None = None,
    stock: str = "2S 3S 4S 5S",
    discards: str = "KD",
    turn: int = 0,
    phase: Phase = "draw",
    **options: Any,
) -> Deal:
    """A full-information deal with the given hands (seat order), table melds, stock (top last) and
    discards (top last); player ``turn`` is to act in ``phase``."""
    opts = KalookiOptions(players=len(hands), **options)
    seated = tuple(tuple(sorted(parse_cards(h), key=Card.sort_key)) for h in hands)
    melds = tuple(read_meld(parse_cards(m)) if isinstance(m, str) else m for m in table)
    is_open = tuple(opened) if opened is not None else (False,) * len(hands)
    return replace(
        new_deal(opts),
        hands=seated,
        counts=tuple(len(h) for h in seated),
        stock=cards(stock),
        stock_count=len(cards(stock)),
        discards=cards(discards),
        table=melds,
        owners=tuple(owners) if owners is not None else (1,) * len(melds),
        opened=is_open,
        turn=turn,
        phase=phase,
        kalooki_chance=not is_open[turn],
    )
