"""Random legal play: ``referee play kalooki --auto``, the simulator's opponents and the property tests.

The player here is simple but legal by construction: every action it chooses is tried on the state
and kept only when the rules accept it. It draws the discard top when that card fits its hand, lays
down the melds it finds (its initial meld once they reach the minimum), builds single cards, releases
a joker when it can lay it again at once, and discards its least connected card.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from rules.actions import Action
from rules.errors import IllegalAction
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
from rules.kalooki.cards import JOKER, SUITS, Card
from rules.kalooki.deal import Deal
from rules.kalooki.melds import ACE_HIGH, RunMeld, SetMeld, read_meld
from rules.kalooki.options import KalookiOptions
from rules.kalooki.scoring import hand_penalty
from rules.kalooki.session import Session, new_session

__all__ = ["auto_play", "candidate_melds", "random_turn"]


def _card_at(position: int, suit: str) -> Card:
    return Card(1 if position == ACE_HIGH else position, suit)


def candidate_melds(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Melds that can be made from ``hand`` (not all of them, and overlapping): sets of distinct suits,
    runs with at most one joker filling a gap or an end."""
    jokers = list(hand).count(JOKER)
    naturals = set(hand) - {JOKER}
    found: list[tuple[Card, ...]] = []
    for rank in range(1, 14):
        same = [Card(rank, s) for s in SUITS if Card(rank, s) in naturals]
        if len(same) >= 3:
            found += [tuple(same[:3]), tuple(same)]
        elif len(same) == 2 and jokers:
            found.append((*same, JOKER))
    for suit in SUITS:
        held = {p for p in range(1, ACE_HIGH + 1) if _card_at(p, suit) in naturals}
        for start in sorted(held):
            run, used, position = [_card_at(start, suit)], 0, start + 1
            while position <= ACE_HIGH:
                if position in held:
                    run.append(_card_at(position, suit))
                elif used < jokers and position + 1 in held:
                    run.append(JOKER)
                    used += 1
                else:
                    break
                if len(run) >= 3 and run[-1] != JOKER:
                    found.append(tuple(run))
                position += 1
            if len(run) == 2 and used < jokers and position <= ACE_HIGH:
                found.append((*run, JOKER))
    return found


def _choose_melds(hand: Sequence[Card], rng: random.Random) -> list[tuple[Card, ...]]:
    """Disjoint melds from ``hand``, greatest first, leaving at least one card to discard."""
    candidates = candidate_melds(hand)
    rng.shuffle(candidates)
    candidates.sort(key=lambda cards: read_meld(cards).value, reverse=True)
    left = Counter(hand)
    chosen = []
    for cards in candidates:
        need = Counter(cards)
        if all(left[c] >= n for c, n in need.items()) and left.total() - len(cards) >= 1:
            left -= need
            chosen.append(cards)
    return chosen


def _try(deal: Deal, action: Action, taken: list[Action]) -> Deal:
    """``deal`` after ``action`` if it is legal (recorded in ``taken``), else ``deal`` unchanged."""
    try:
        after = deal.apply(action)
    except IllegalAction:
        return deal
    taken.append(action)
    return after


def _build_targets(deal: Deal, card: Card) -> list[Build]:
    builds = []
    for index, meld in enumerate(deal.table):
        for end in ("low", "high") if isinstance(meld, RunMeld) else ("high",):
            try:
                meld.build([card], end)
            except IllegalAction:
                continue
            builds.append(Build(index, (card,), end))
    return builds


def _releases(deal: Deal, hand: Sequence[Card]) -> list[ReleaseJoker]:
    releases = []
    for index, meld in enumerate(deal.table):
        if isinstance(meld, RunMeld):
            releases += [
                ReleaseJoker(index, (card,))
                for card, is_joker in zip(meld.stands_for, meld.jokers, strict=True)
                if is_joker and card in hand
            ]
        elif isinstance(meld, SetMeld) and meld.jokers and not meld.closed and len(meld.cards) == 3:
            missing = [Card(meld.rank, s) for s in meld.missing_suits() if Card(meld.rank, s) in hand]
            if meld.jokers == 2 and missing:
                releases.append(ReleaseJoker(index, (missing[0],)))
            elif meld.jokers == 1 and len(missing) == 2:
                releases.append(ReleaseJoker(index, tuple(missing)))
    return releases


def _connections(card: Card, hand: Sequence[Card]) -> int:
    """How many other cards of the hand could meld with ``card`` (same rank, or near in its suit)."""
    return sum(
        1
        for other in hand
        if other is not card
        and not other.is_joker
        and (other.rank == card.rank or (other.suit == card.suit and 0 < abs(other.rank - card.rank) <= 2))
    )


def _discard_choice(hand: Sequence[Card], rng: random.Random) -> Card:
    naturals = [c for c in hand if not c.is_joker] or list(hand)
    if rng.random() < 0.2:
        return rng.choice(naturals)
    return min(naturals, key=lambda c: (_connections(c, hand), -c.penalty, rng.random()))


def random_turn(deal: Deal, rng: random.Random, eagerness: float = 1.0) -> list[Action]:
    """One whole legal turn for the player to act in a full-information deal, ending with the discard.

    ``eagerness`` is the chance that the player melds at all this turn; lower values give long deals
    in which the stock runs out (the property tests use them).
    """
    assert deal.hands is not None and deal.phase == "draw", "random_turn plays full-information turns"
    taken: list[Action] = []
    hand = deal.hands[deal.turn]
    top = deal.discard_top
    wants_top = top is not None and (top.is_joker or _connections(top, hand) >= 2)
    draw = DrawDiscard() if wants_top or deal.stock_count == 0 else DrawStock()
    deal = _try(deal, draw, taken)
    assert deal.hands is not None
    if rng.random() >= eagerness:
        taken.append(Discard(_discard_choice(deal.hands[deal.turn], rng)))
        return taken
    melds = _choose_melds(deal.hands[deal.turn], rng)
    if melds:
        deal = _try(deal, LayDown(tuple(melds)), taken)
    if deal.opened[deal.turn]:
        assert deal.hands is not None
        for release in _releases(deal, deal.hands[deal.turn]):
            freed: list[Action] = []
            trial = _try(deal, release, freed)
            for build in _build_targets(trial, JOKER) if freed else []:
                trial = _try(trial, build, freed)
                if trial.jokers_owed == 0:
                    deal, taken = trial, taken + freed
                    break
        progress = True
        while progress:
            progress = False
            assert deal.hands is not None
            for card in rng.sample(deal.hands[deal.turn], len(deal.hands[deal.turn])):
                targets = _build_targets(deal, card)
                if targets and not card.is_joker:
                    before = len(taken)
                    deal = _try(deal, rng.choice(targets), taken)
                    progress = len(taken) > before
                    if progress:
                        break
    assert deal.hands is not None
    taken.append(Discard(_discard_choice(deal.hands[deal.turn], rng)))
    return taken


def auto_play(options: KalookiOptions, journal: list[Action] | None = None) -> Session:
    """A whole session of random legal play, seeded by ``options.seed``; every action taken is
    appended to ``journal`` when one is given.

    In referee mode a full-information session runs alongside and plays the cards; the referee
    session sees only what a camera would (the turned-up cards, the table, the revealed hands); at
    the end of a deal every other loser enters just his hand's points (``HandPoints``).
    """
    rng = random.Random(f"kalooki-auto/{options.seed}")
    shadow = new_session(options.replace(mode="full"))
    state = new_session(options)
    taken: list[Action] = [] if journal is None else journal
    while state.outcome is None:
        if state.deal.phase == "turn_up":
            taken.append(TurnUp(shadow.deal.discards[0]))
            state = state.apply(taken[-1])
        for act in random_turn(shadow.deal, rng):
            finished = shadow.deal.apply(act)
            shadow = shadow.apply(act)
            state = state.apply(act)
            taken.append(act)
        if state.deal.phase == "reveal":
            number = state.deal.number
            for seat in state.deal.to_reveal():  # every other loser just counts his points
                hand = finished.hand(seat)
                points = (number + seat) % 2 == 1
                taken.append(HandPoints(seat, hand_penalty(hand)) if points else RevealHand(seat, hand))
                state = state.apply(taken[-1])
    return state
