"""How a player enters a Kalooki action on the screen: which target to tap next.

The simulated players (``device.sessions.kalooki_sim``) and the tests enter each action the way a
person does, one tap at a time, looking at the entry between taps: a recent card is one tap, a run's
next cards ``to`` and the last rank, a joker its key, any other card rank then suit; *+ Meld* between
the melds of one lay-down; then the action (a meld of the table, *Lay down*, *Discard*, …). A hand's
points: *Points*, the digits on the number pad, *Enter points*.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from device.sessions.kalooki import KalookiSession, run_cards
from rules.kalooki import (
    Build,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    HandPoints,
    LayDown,
    ReleaseJoker,
    RevealHand,
    TurnUp,
)
from rules.kalooki.cards import RANK_NAMES

__all__ = ["BUTTONS", "next_tap"]

# The phase buttons by their English text (their labels are in the players' language).
BUTTONS = (
    "Stock",
    "Discard pile",
    "+ Meld",
    "Lay down",
    "Discard",
    "Turned-up card",
    "Enter hand",
    "Points",
    "Enter points",
    "Cards",
    "to",
)


def _card_taps(entered: Sequence[Card], wanted: Sequence[Card], recent: Collection[Card]) -> str:
    """The next tap that makes the entry's cards ``entered`` grow towards ``wanted``."""
    card = wanted[len(entered)]
    if entered and not entered[-1].is_joker:
        ahead = 0
        for rank in range(1, 14):
            run = run_cards(entered[-1], rank)
            if len(run) >= 2 and list(wanted[len(entered) : len(entered) + len(run)]) == run:
                ahead = max(ahead, len(run))
        if ahead >= 2:
            return "to"
    if card in recent:
        return f"recent {card}"
    if card.is_joker:
        return "Joker"
    return RANK_NAMES[card.rank]


def next_tap(session: KalookiSession, act: object) -> str:
    """The label of the next target for ``act`` (the phase buttons by their English text, see
    :data:`BUTTONS`; the seat button is ``"seat"``)."""
    picker = session.picker
    if isinstance(act, DrawStock):
        return "Stock"
    if isinstance(act, DrawDiscard):
        return "Discard pile"
    if isinstance(act, HandPoints):
        typed, wanted_points = session.pad, str(act.points)
        if typed is None:
            return "Points"
        if not wanted_points.startswith(typed):
            return "<"
        return wanted_points[len(typed)] if len(typed) < len(wanted_points) else "Enter points"
    if session.pad is not None:
        return "Cards"  # the number pad is open: back to the picker
    groups: tuple[tuple[Card, ...], ...]
    final: str
    if isinstance(act, LayDown):
        groups, final = act.melds, "Lay down"
    elif isinstance(act, Build | ReleaseJoker):
        groups, final = (act.cards,), f"meld {act.meld + 1}"
    elif isinstance(act, Discard):
        groups, final = ((act.card,),), "seat"
    elif isinstance(act, TurnUp):
        groups, final = ((act.card,),), "Turned-up card"
    elif isinstance(act, RevealHand):
        groups, final = (act.cards,), "Enter hand"
    else:
        raise ValueError(f"no way to enter {act!r}")
    kept = list(picker.groups)
    if kept != list(groups[: len(kept)]):
        return "<"  # a meld kept by mistake: undo it
    wanted = groups[len(kept)] if len(kept) < len(groups) else ()
    entered = picker.cards
    if list(entered) != list(wanted[: len(entered)]):
        return "<"
    if picker.to:
        longest: int | None = None
        for rank in range(1, 14):
            run = run_cards(entered[-1], rank)
            if run and list(wanted[len(entered) : len(entered) + len(run)]) == run:
                longest = (
                    rank if longest is None or len(run) > len(run_cards(entered[-1], longest)) else longest
                )
        return "<" if longest is None else RANK_NAMES[longest]
    if picker.rank is not None:
        card = wanted[len(entered)] if len(entered) < len(wanted) else None
        if card is None or card.is_joker or card.rank != picker.rank:
            return "<"
        return f"suit {card.suit}"
    if picker.suit is not None:
        return "<"
    if len(entered) < len(wanted):
        return _card_taps(entered, wanted, session.recent())
    if len(kept) + 1 < len(groups):
        return "+ Meld"
    return final
