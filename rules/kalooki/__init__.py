"""Kalooki (RULES.md §4): the rummy game of two decks and two jokers, with its conformance API.

One module per concern: ``cards`` (the card, its text form, the deck), ``melds`` (sets, runs, their
value, building, joker release), ``actions`` (the turn's actions), ``deal`` (one deal as a state),
``session`` (several deals, running totals), ``scoring`` (hand penalties), ``payout`` (the prize pool),
``auto`` (random legal play), ``describe`` (plain-text output), ``options``.

>>> from rules import kalooki
>>> kalooki.meld_value(kalooki.parse_cards("QS KS AS"))
31
>>> kalooki.hand_penalty(kalooki.parse_cards("AS 10H JOKER"))
46
>>> kalooki.payouts(10000, [0, 20, 60, 120], winner=0)
[9001, 666, 333, 0]
"""

from __future__ import annotations

from typing import cast

from rules.kalooki.actions import (
    Build,
    Discard,
    DrawDiscard,
    DrawStock,
    HandPoints,
    LayDown,
    ReleaseJoker,
    RevealHand,
    TurnUp,
)
from rules.kalooki.auto import auto_play
from rules.kalooki.cards import DECK, JOKER, Card, parse_cards
from rules.kalooki.deal import Deal, DealResult, new_deal
from rules.kalooki.describe import describe
from rules.kalooki.melds import Meld, RunMeld, SetMeld, meld_value, read_meld
from rules.kalooki.options import KalookiOptions
from rules.kalooki.payout import payouts
from rules.kalooki.scoring import hand_penalty
from rules.kalooki.session import Session, new_session
from rules.registry import GameSpec, register

__all__ = [
    "CODES",
    "DECK",
    "JOKER",
    "SPEC",
    "Build",
    "Card",
    "Deal",
    "DealResult",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "HandPoints",
    "KalookiOptions",
    "LayDown",
    "Meld",
    "ReleaseJoker",
    "RevealHand",
    "RunMeld",
    "Session",
    "SetMeld",
    "TurnUp",
    "auto_play",
    "describe",
    "hand_penalty",
    "meld_value",
    "new_deal",
    "new_session",
    "parse_cards",
    "payouts",
    "read_meld",
]

CODES = (
    "already_drawn",
    "deal_over",
    "draw_first",
    "game_over",
    "hand_count",
    "impossible_points",
    "invalid_build",
    "invalid_meld",
    "joker_not_laid",
    "joker_release",
    "meld_closed",
    "no_discard",
    "no_release",
    "not_in_hand",
    "not_opened",
    "opening_too_low",
    "stock_empty",
    "too_many_copies",
    "unknown_meld",
    "wrong_phase",
    "wrong_seat",
)
"""Every code of a Kalooki ``IllegalAction`` (``game_over`` is every game's)."""

SPEC = register(
    GameSpec(
        name="kalooki",
        titles={"pl": "Kalooki", "hu": "Kalooki römi", "de": "Kalooki-Rommé", "en": "Kalooki"},
        options_type=KalookiOptions,
        new_game=lambda options: new_session(cast(KalookiOptions, options)),
        auto_play=lambda options: auto_play(cast(KalookiOptions, options)),
        describe=lambda state: describe(cast(Session, state)),
    )
)
