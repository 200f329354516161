"""Kalooki by camera: what a player did this turn, from the table as the camera sees it.

The device keeps the table as last accepted (the engine's :class:`~rules.kalooki.Deal`). At the seat
press the camera reads the cards face up on the table, grouped into the melds as they lie, and the top
card of the discard pile's zone. :func:`plan_turn` turns the difference into the engine's actions, in
the order the rules need them:

1. every accepted meld is found again among the melds seen (by its cards: a meld holds all its
   natural cards still, and its jokers unless a natural card took a joker's place);
2. a meld that lost a joker to a natural card → ``ReleaseJoker`` (the natural cards that freed it);
3. a meld that gained cards → ``Build`` (a run at the end(s) the new cards extend; jokers fill the
   gaps between the new cards, else the end they lie at);
4. melds seen that match no accepted one → one ``LayDown`` (several melds of an initial meld together,
   as the rules count them: RULES.md §4);
5. a new card on the discard pile → ``Discard``.

A player who has not opened lays his melds down before he may build or release (the rules' order);
one who has, releases first (so the freed joker is in his hand to lay), then lays and builds.

The planner asks the engine which reading of a change is legal where the table alone does not say
(which end of a run a joker was added at; which cards freed a set's joker); where none is, it returns
the plainest reading, for the engine to refuse by name. A table that differs in a way no action
explains (a card gone from a meld, a meld broken up) raises :class:`TableMismatch`, naming what to put
back: the table is the players', the device never guesses around it.

Two decks: two equal cards on the table are two cards; a third copy is the engine's ``too_many_copies``
refusal, which names the card.

**The accepted table decides what one photo cannot** (:func:`table_prior`): a card the reader is unsure
of that lies where a card of the accepted table lies — where the camera saw that card at the last press
judged whole (:class:`Placed`, within half its size), or, where that is not known (a game resumed) or
the cards moved, in a seen meld that holds the accepted meld's cards in a row (a run in its order,
either way along the line; a set in any order; a run in any order too where the seen meld holds
exactly as many cards as the run: nothing was built on it, and the reader may place an unsure card of
a fan between its neighbours), the sure cards of that row being the meld's — and whose
reading does not contradict it is that card. Not contradicting:
the accepted card is the reader's best guess, or among its candidates (``SeenCard.candidates``, the
likeliest readings) with a probability of at least :data:`PRIOR_MIN`; a reading that gives no
candidates is taken by its best guess alone. Cards laid, built or moved this turn (outside such a row),
and the discard pile's top, still have to be read — or entered. :class:`Corrected` is a reading with
some cards decided (by the table, or entered by the player on the picker): what the session judges.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from rules.errors import IllegalAction
from rules.kalooki import Build, Card, Deal, Discard, DrawDiscard, DrawStock, LayDown, ReleaseJoker, Session
from rules.kalooki.cards import JOKER, cards_text
from rules.kalooki.melds import ACE_HIGH, End, Meld, RunMeld
from vision.observation import Item

__all__ = [
    "COPIES",
    "PRIOR_MIN",
    "CardTable",
    "Corrected",
    "EnteredCard",
    "Placed",
    "PlannedAction",
    "PressVerdict",
    "Stop",
    "TableMismatch",
    "TurnPlan",
    "agrees",
    "assess_press",
    "candidates_of",
    "card_of",
    "confidence_of",
    "draw_seen",
    "lacking_cards",
    "placed_cards",
    "plan_turn",
    "table_prior",
]

COPIES = 2  # two decks: two of each card, and two jokers
# The least probability the reader may give an accepted card, at the place the table has it, for the
# card to be taken as it was accepted (its best guess being another). The prior odds that a card of
# an unchanged meld is still the card accepted there are high (only a joker's release changes one):
# a candidate the reader gives 5 % or more is not contradicted by its reading.
PRIOR_MIN = 0.05
ANY_ORDER_MAX = 4  # unsure cards of a run matched in any order (their orders are tried: at most 4! = 24)


@runtime_checkable
class CardTable(Protocol):
    """What the session needs of a reading of a card table (``vision.card_zones.CardTableReading``: the
    card reader's cards sorted by the calibration's card zones): the cards as read (where each lies,
    its label), the melds and loose cards on the table and the discard pile's cards (indices into
    them), the unsure ones, the table as card sequences, and the top card of the discard pile's zone."""

    melds: tuple[tuple[int, ...], ...]
    loose: tuple[int, ...]
    discard: tuple[int, ...]  # the discard pile's cards, its top first
    uncertain: tuple[int, ...]

    @property
    def items(self) -> Sequence[Item]: ...

    @property
    def discard_top(self) -> Card | None: ...

    def cards_on_table(self) -> list[list[Card]]: ...


@dataclass(frozen=True)
class PlannedAction:
    """One action of the turn and the seen meld it comes from (``None``: the discard pile), so that a
    refusal can outline the meld on the camera picture."""

    action: LayDown | Build | ReleaseJoker | Discard
    seen: tuple[int, ...]


@dataclass(frozen=True)
class TurnPlan:
    """The actions that take the accepted table to the one seen, in the order to submit them."""

    actions: tuple[PlannedAction, ...]

    @property
    def discards(self) -> bool:
        return any(isinstance(p.action, Discard) for p in self.actions)


class TableMismatch(ValueError):
    """The table seen differs from the accepted one in a way no action explains.

    ``meld`` is the accepted meld's index (``None`` for the discard pile), ``put_back`` the cards to lay
    back where they were."""

    def __init__(self, message: str, meld: int | None, put_back: Sequence[Card] = ()) -> None:
        super().__init__(message)
        self.meld = meld
        self.put_back = tuple(put_back)


def plan_turn(deal: Deal, seen: Sequence[Sequence[Card]], discard_top: Card | None) -> TurnPlan:
    """The actions of the turn of ``deal.turn`` (who has drawn: phase ``play``) that make the table
    ``seen`` (melds as they lie, cards in table order) and the discard pile's top ``discard_top``.

    Raises :class:`TableMismatch` where no action explains the difference. The actions are not
    applied: the session submits them one by one, and the engine refuses what breaks a rule.

    >>> from rules.kalooki import KalookiOptions, new_session, TurnUp, DrawStock
    >>> from rules.kalooki.cards import parse_cards
    >>> deal = new_session(KalookiOptions(players=2, mode="referee")).deal
    >>> deal = deal.apply(TurnUp(Card.parse("2C"))).apply(DrawStock())
    >>> plan = plan_turn(deal, [parse_cards("10H JH QH KH"), parse_cards("9S 9D 9C")], Card.parse("4D"))
    >>> [type(p.action).__name__ for p in plan.actions]
    ['LayDown', 'Discard']
    """
    matched = _match(deal.table, seen)
    changes: list[tuple[int, int, list[Card]]] = []  # accepted meld, seen meld, cards added
    for index, meld in enumerate(deal.table):
        j = matched.get(index)
        if j is None:
            raise _mismatch(index, meld, seen, matched)
        added = list((Counter(seen[j]) - Counter(meld.cards)).elements())
        if added or Counter(meld.cards) - Counter(seen[j]):
            changes.append((index, j, added))
    new = [j for j in range(len(seen)) if j not in matched.values() and seen[j]]
    lay_down = [LayDown(tuple(tuple(seen[j]) for j in new))] if new else []
    laid = [PlannedAction(action, tuple(new)) for action in lay_down]
    opened = bool(deal.opened and deal.opened[deal.turn])
    ordered: list[PlannedAction] = [] if opened else list(laid)
    state = deal if opened else _advance(deal, *lay_down)
    rest: list[tuple[int, int, list[Card]]] = []
    for index, j, added in changes:  # releases first: the freed jokers are then in the hand
        release = _release(state, index, deal.table[index], added, seen[j])
        if release is not None:
            ordered.append(PlannedAction(release, (j,)))
            state = _advance(state, release)
            try:
                freed = deal.table[index].release(release.cards)
            except IllegalAction:
                freed = deal.table[index]
            added = list((Counter(seen[j]) - Counter(freed.cards)).elements())
        rest.append((index, j, added))
    if opened:
        ordered += laid
        state = _advance(state, *lay_down)
    for index, j, added in rest:
        if added:
            for build in _builds(state, index, deal.table[index], added, seen[j]):
                ordered.append(PlannedAction(build, (j,)))
                state = _advance(state, build)
    if discard_top is not None and discard_top != deal.discard_top:
        ordered.append(PlannedAction(Discard(discard_top), ()))
    return TurnPlan(tuple(ordered))


def draw_seen(deal: Deal, discard_top: Card | None) -> DrawStock | DrawDiscard | None:
    """The draw the discard pile's zone shows, watched while ``deal.turn`` is to draw: its top card
    taken (the card under it, or no card, now on top) → ``DrawDiscard``; another card on top (drawn from
    the stock and already discarded) → ``DrawStock``; the top card unchanged → ``None``, nothing seen
    yet (a draw from the stock shows only once the discard is laid).

    >>> from rules.kalooki import KalookiOptions, new_session, TurnUp
    >>> deal = new_session(KalookiOptions(players=2, mode="referee")).deal.apply(TurnUp(Card.parse("2C")))
    >>> draw_seen(deal, Card.parse("2C")), draw_seen(deal, None), draw_seen(deal, Card.parse("9H"))
    (None, DrawDiscard(), DrawStock())
    """
    if deal.phase != "draw" or discard_top == deal.discard_top:
        return None
    under = deal.discards[-2] if len(deal.discards) >= 2 else None
    if discard_top == under:
        return DrawDiscard()
    return DrawStock() if discard_top is not None else None


def _match(table: Sequence[Meld], seen: Sequence[Sequence[Card]]) -> dict[int, int]:
    """Accepted meld index → seen meld index: each accepted meld to the seen meld that holds all its
    natural cards and shares most cards with it (the surest pairs first; each seen meld once)."""
    pairs = []
    for i, meld in enumerate(table):
        mine = Counter(meld.cards)
        naturals = Counter(c for c in meld.cards if not c.is_joker)
        for j, cards in enumerate(seen):
            there = Counter(cards)
            if naturals - there:
                continue  # a natural card of the meld is not in this one
            shared = sum((mine & there).values())
            extra = sum((there - mine).values())
            pairs.append((-shared, extra, i, j))
    matched: dict[int, int] = {}
    used: set[int] = set()
    for _, _, i, j in sorted(pairs):
        if i not in matched and j not in used:
            matched[i] = j
            used.add(j)
    return matched


def _mismatch(
    index: int, meld: Meld, seen: Sequence[Sequence[Card]], matched: dict[int, int]
) -> TableMismatch:
    """Why an accepted meld is not found: its cards spread over melds laid this turn (broken up), or
    some gone from the meld that holds most of them (named, to be put back)."""
    naturals = Counter(c for c in meld.cards if not c.is_joker)
    free = [j for j in range(len(seen)) if j not in matched.values()]
    best = max(free, key=lambda j: sum((naturals & Counter(seen[j])).values()), default=None)
    if best is not None and naturals & Counter(seen[best]):
        lost = naturals - Counter(seen[best])
        elsewhere = Counter(c for j in free if j != best for c in seen[j])
        if not lost - elsewhere:
            return TableMismatch(f"the meld {meld} is broken up: lay it back together", index, meld.cards)
        gone = list(lost.elements())
        them = "it" if len(gone) == 1 else "them"
        return TableMismatch(f"{cards_text(gone)} gone from the meld {meld}: put {them} back", index, gone)
    return TableMismatch(
        f"the meld {meld} is not on the table as it was laid: put it back", index, meld.cards
    )


def _advance(deal: Deal, *actions: LayDown | Build | ReleaseJoker) -> Deal:
    """The state after ``actions``, or ``deal`` itself where the engine refuses one (the session will
    submit it and show the refusal; the planning goes on from the table as it was)."""
    try:
        for action in actions:
            deal = deal.apply(action)
    except IllegalAction:
        return deal
    return deal


def _legal(deal: Deal, *actions: LayDown | Build | ReleaseJoker) -> bool:
    try:
        for action in actions:
            deal = deal.apply(action)
    except IllegalAction:
        return False
    return True


def _release(
    deal: Deal, index: int, meld: Meld, added: list[Card], lying: Sequence[Card]
) -> ReleaseJoker | None:
    """The release of a joker of ``meld`` that the cards seen show, if any: in a run, a natural card
    added where a joker stood (the joker may have gone elsewhere or been laid again on this run); in a
    set that lost a joker, the natural cards of its missing suits (both for a set of one joker, one for
    a set of two: the engine says which is legal)."""
    if not any(c.is_joker for c in meld.cards):
        return None
    naturals = [c for c in added if not c.is_joker]
    if isinstance(meld, RunMeld):
        stood = [c for c, joker in zip(meld.stands_for, meld.jokers, strict=True) if joker]
        freeing = [c for c in stood if c in naturals]
        if not freeing:
            return None
        return ReleaseJoker(index, (freeing[0],))
    if Counter(lying)[JOKER] >= meld.jokers:
        return None  # the set keeps its jokers: cards added to it are builds
    missing = [c for c in naturals if c.rank == meld.rank and c.suit not in meld.suits]
    options = [missing[:2]] if meld.jokers == 1 else [[c] for c in missing]
    for option in options:
        if option and _legal(deal, ReleaseJoker(index, tuple(option))):
            return ReleaseJoker(index, tuple(option))
    return ReleaseJoker(index, tuple(options[0])) if options and options[0] else None


def _builds(deal: Deal, index: int, meld: Meld, added: list[Card], lying: Sequence[Card]) -> list[Build]:
    """The builds that add ``added`` to ``meld``: one card at a time on a set; on a run one build per
    end, each given low to high (the jokers where the gaps are, else at the end they lie at)."""
    if not isinstance(meld, RunMeld):
        return [Build(index, (card,)) for card in sorted(added, key=_order)]
    naturals = [c for c in added if not c.is_joker]
    jokers = len(added) - len(naturals)
    candidates: list[list[Build]] = []
    for high_ace in (meld.high >= 13, meld.high < 13):  # an added ace: high or low, the likelier first
        positions = {c: (ACE_HIGH if c.rank == 1 and high_ace else c.rank) for c in naturals}
        low = sorted((c for c in naturals if positions[c] < meld.low), key=lambda c: positions[c])
        high = sorted((c for c in naturals if positions[c] > meld.high), key=lambda c: positions[c])
        for low_jokers in _joker_splits(jokers, lying, meld):
            low_cards = _fill(low, low_jokers, positions, meld.low, "low")
            high_cards = _fill(high, jokers - low_jokers, positions, meld.high, "high")
            if low_cards is None or high_cards is None:
                continue
            builds = [Build(index, tuple(low_cards), "low")] if low_cards else []
            builds += [Build(index, tuple(high_cards), "high")] if high_cards else []
            candidates.append(builds)
        if not any(c.rank == 1 for c in naturals):
            break
    if not candidates:  # no way to lay them out: the plainest reading, for the engine to refuse
        return [Build(index, tuple(sorted(added, key=_order)), "high")]
    for builds in candidates:
        if _legal(deal, *builds):
            return builds
    return candidates[0]


def _joker_splits(jokers: int, lying: Sequence[Card], meld: RunMeld) -> list[int]:
    """How many of the added jokers to try at the low end, likeliest first: where they lie in the row
    seen (before or after the meld's own cards, read in the direction the run rises)."""
    if not jokers:
        return [0]
    order = list(range(jokers, -1, -1))
    own = [k for k, c in enumerate(lying) if c in meld.cards and not c.is_joker]
    if own:
        first, last = min(own), max(own)
        rising = _rising(lying)
        before = sum(1 for k, c in enumerate(lying) if c.is_joker and k < first)
        after = sum(1 for k, c in enumerate(lying) if c.is_joker and k > last)
        at_low = before if rising else after
        if before + after == jokers:
            order.remove(at_low)
            order.insert(0, at_low)
    return order


def _rising(lying: Sequence[Card]) -> bool:
    ranks = [c.rank for c in lying if not c.is_joker]
    return len(ranks) < 2 or ranks[-1] >= ranks[0]


def _fill(
    cards: list[Card], jokers: int, positions: dict[Card, int], edge: int, end: End
) -> list[Card] | None:
    """The cards to add at ``end`` of a run whose last position there is ``edge``, low to high: the
    naturals at their positions, jokers in the gaps and then beyond the farthest natural. ``None``
    where the jokers do not fill the gaps."""
    if not cards and not jokers:
        return []
    wanted = [positions[c] for c in cards]
    span = len(cards) + jokers
    slots = range(edge - span, edge) if end == "low" else range(edge + 1, edge + 1 + span)
    if any(p not in slots for p in wanted) or slots.start < 1 or slots.stop - 1 > ACE_HIGH:
        return None
    at = dict(zip(wanted, cards, strict=True))
    return [at.get(p, JOKER) for p in slots]


def _order(card: Card) -> tuple[int, str]:
    return (99, "") if card.is_joker else (card.rank, card.suit)


# --- a reading with some cards decided --------------------------------------------------------------


def card_of(item: Item) -> Card | None:
    """The card an item of a reading names (``None``: not a card's label)."""
    try:
        return Card.parse(item.label)
    except ValueError:
        return None


def candidates_of(item: Item) -> tuple[tuple[Card, float], ...]:
    """The reader's likeliest readings of ``item`` with their probabilities (``()`` where it gives none:
    ``vision.cards.SeenCard.candidates`` through ``ZonedCard``)."""
    return tuple(getattr(item, "candidates", ()) or ())


def confidence_of(item: Item) -> float | None:
    value = getattr(item, "confidence", None)
    return None if value is None else float(value)


def agrees(item: Item, card: Card) -> bool:
    """Whether the reading of ``item`` does not contradict ``card``: its best guess, or a candidate with
    at least :data:`PRIOR_MIN` probability.

    >>> @dataclass
    ... class Read:
    ...     label: str
    ...     candidates: tuple = ()
    ...     center: tuple = (0.0, 0.0); size: float = 1.0; zone: None = None
    >>> seven, eight = Card.parse("7H"), Card.parse("8H")
    >>> agrees(Read("7H"), seven), agrees(Read("8H", ((eight, 0.6), (seven, 0.3))), seven)
    (True, True)
    >>> agrees(Read("8H", ((eight, 0.97), (seven, 0.02))), seven), agrees(Read("8H"), seven)
    (False, False)
    """
    if card_of(item) == card:
        return True
    return any(c == card and p >= PRIOR_MIN for c, p in candidates_of(item))


def _probability(item: Item, card: Card) -> float:
    return max((p for c, p in candidates_of(item) if c == card), default=0.0)


def _row_fits(
    items: Sequence[Item],
    window: Sequence[int],
    meld: Meld,
    unsure: set[int],
    known: Mapping[int, Card],
    whole: bool = False,
) -> tuple[tuple[int, float], dict[int, Card]] | None:
    """Whether the cards at ``window`` (indices in order along a seen meld; ``whole``: the seen meld
    itself) are the accepted ``meld`` lying there: its score (sure cards that match, the unsure ones'
    probabilities) and the unsure cards decided; ``None`` where they are not, or where two ways to lay
    it there decide differently. A run is matched in its order (either way along the line), or in any
    order where ``window`` is the whole seen meld and at most :data:`ANY_ORDER_MAX` of its cards are
    unsure (the reader's order of a fan's unsure card is not trusted; nothing was added to the run)."""
    cards = meld.cards
    sure = [i for i in window if i not in unsure]
    doubt = [i for i in window if i in unsure]
    ways: list[list[tuple[int, Card | None]]]
    if isinstance(meld, RunMeld) and (not whole or len(doubt) > ANY_ORDER_MAX):
        ways = [list(zip(window, cards, strict=True)), list(zip(window, cards[::-1], strict=True))]
    else:  # a set, or a run that is the whole seen meld: in any order (the sure cards must be its own)
        have = Counter(known.get(i) or card_of(items[i]) for i in sure)
        rest = Counter(cards) - Counter({k: v for k, v in have.items() if k is not None})
        if have - Counter(cards) or sum(rest.values()) != len(doubt):
            return None
        ways = [
            [*((i, known.get(i) or card_of(items[i])) for i in sure), *zip(doubt, order, strict=True)]
            for order in set(itertools.permutations(list(rest.elements())))
        ]
    best: list[tuple[tuple[int, float], dict[int, Card]]] = []
    for way in ways:
        fix: dict[int, Card] = {}
        matched, p = 0, 0.0
        for i, card in way:
            if card is None:
                break
            if i in unsure:
                if not agrees(items[i], card):
                    break
                fix[i] = card
                p += _probability(items[i], card) if candidates_of(items[i]) else 1.0
            elif (known.get(i) or card_of(items[i])) != card:
                break
            else:
                matched += 1
        else:
            best.append(((matched, round(p, 6)), fix))
    if not best:
        return None
    top = max(score for score, _ in best)
    fixes = [fix for score, fix in best if score == top]
    if any(fix != fixes[0] for fix in fixes[1:]):
        return None  # two ways to lay it there, equally likely, that decide differently
    return top, fixes[0]


@dataclass(frozen=True)
class Placed:
    """A card of the accepted table where the camera saw it at the last press it judged (frame px)."""

    center: tuple[float, float]
    size: float
    card: Card


def placed_cards(reading: CardTable, table: Sequence[Meld]) -> tuple[Placed, ...]:
    """The cards of ``reading`` (every one decided) that are the accepted ``table``'s, where they lie."""
    left = Counter(c for meld in table for c in meld.cards)
    out = []
    for i in (*(i for m in reading.melds for i in m), *reading.loose):
        item = reading.items[i]
        card = card_of(item)
        if card is not None and left[card] > 0:
            left[card] -= 1
            out.append(Placed(item.center, item.size, card))
    return tuple(out)


def table_prior(table: Sequence[Meld], reading: CardTable, placed: Sequence[Placed] = ()) -> dict[int, Card]:
    """The unsure cards of ``reading`` that the accepted ``table`` decides (reading index → card):

    1. by place: an unsure card whose reading agrees with a card of the accepted table that lay within
       half its size of it at the last press judged whole (``placed``; the nearest such);
    2. by row: an unsure card in a row of a seen meld that holds an accepted meld (see the module's
       note) — what decides where the places are not known (a game resumed) or moved.

    A card is decided as an accepted card only as often as the accepted table holds it.

    >>> from rules.kalooki.melds import read_meld
    >>> from rules.kalooki.cards import parse_cards
    >>> from vision.card_zones import CardTableReading, ZonedCard
    >>> from vision.cards import SeenCard
    >>> def at(text, x, sure=True, cands=()):
    ...     return ZonedCard(SeenCard(Card.parse(text), (x, 0.0), (x - 9, -9, x + 9, 9), 0.0,
    ...                               1.0 if sure else 0.4, cands), None)
    >>> run = read_meld(parse_cards("5H 6H 7H"))
    >>> cards = (at("5H", 0), at("8H", 20, False, ((Card.parse("8H"), 0.5), (Card.parse("6H"), 0.4))),
    ...          at("7H", 40), at("9H", 60, False))
    >>> reading = CardTableReading(cards, melds=((0, 1, 2, 3),), uncertain=(1, 3))
    >>> {i: str(c) for i, c in table_prior([run], reading).items()}  # the 9H was laid this turn
    {1: '6H'}
    >>> apart = CardTableReading(cards, loose=(0, 1, 2, 3), uncertain=(1, 3))  # grouped otherwise
    >>> six = Placed((21.0, 1.0), 18.0, Card.parse("6H"))  # where the 6H lay at the last press
    >>> table_prior([run], apart), {i: str(c) for i, c in table_prior([run], apart, [six]).items()}
    ({}, {1: '6H'})
    """
    unsure = set(reading.uncertain)
    if not unsure or not table:
        return {}
    items = reading.items
    left = Counter(c for meld in table for c in meld.cards)
    decided: dict[int, Card] = {}
    free = list(placed)
    for i in sorted(unsure):
        item = items[i]
        if item.zone is not None:
            continue  # the discard pile's top is never the accepted table's
        x, y = item.center
        near = [
            (math.hypot(p.center[0] - x, p.center[1] - y), k)
            for k, p in enumerate(free)
            if math.hypot(p.center[0] - x, p.center[1] - y) < p.size / 2 and agrees(item, p.card)
        ]
        if near and left[free[min(near)[1]].card] > 0:
            p = free.pop(min(near)[1])
            decided[i] = p.card
            left[p.card] -= 1
    for i, card in _by_rows(table, reading, decided).items():
        if left[card] > 0:
            decided[i] = card
            left[card] -= 1
    return decided


def _by_rows(table: Sequence[Meld], reading: CardTable, known: Mapping[int, Card]) -> dict[int, Card]:
    """The unsure cards of ``reading`` (those in ``known`` aside: decided already, read as decided)
    that the accepted melds decide by the rows they lie in: each accepted meld found lying in a row of
    a seen meld (see the module's note), the unsure cards of that row taken as the meld's cards there.
    Each accepted meld is placed once, at its likeliest row (the most sure cards that match, then the
    unsure ones' probabilities); rows do not overlap; a meld that two rows fit equally well decides
    nothing."""
    unsure = set(reading.uncertain) - set(known)
    if not unsure or not table:
        return {}
    items = reading.items
    groups = [*reading.melds, *((i,) for i in reading.loose)]
    options: list[tuple[tuple[int, float], int, tuple[int, ...], dict[int, Card]]] = []
    for index, meld in enumerate(table):
        n = len(meld.cards)
        for group in groups:
            if not unsure & set(group):
                continue  # nothing there to decide
            for start in range(len(group) - n + 1):
                window = tuple(group[start : start + n])
                fits = _row_fits(items, window, meld, unsure, known, whole=len(group) == n)
                if fits is not None:
                    options.append((fits[0], index, window, fits[1]))
    options.sort(key=lambda o: o[0], reverse=True)
    placed: set[int] = set()
    used: set[int] = set()
    decided: dict[int, Card] = {}
    for score, index, window, fix in options:
        if index in placed or used & set(window):
            continue
        rivals = [o for o in options if o[1] == index and o[0] == score and o[2] != window]
        placed.add(index)
        if any(not used & set(o[2]) for o in rivals):
            continue  # the meld fits elsewhere as well: nothing decided
        used.update(window)
        decided.update(fix)
    return decided


@dataclass(frozen=True)
class EnteredCard:
    """An item of a reading whose card was decided (by the accepted table, or entered by the player):
    where the reader saw it, what it is now; the reader's own reading kept beside it."""

    label: str
    center: tuple[float, float]
    size: float
    zone: str | None
    read: str
    confidence: float | None = None


@dataclass
class Corrected:
    """A reading (:class:`CardTable`) with some of its cards decided (``fixes``: reading index → card):
    those are sure and read as decided; the other unsure cards stay unsure. What the session judges as
    if the camera had read it so."""

    base: CardTable
    fixes: Mapping[int, Card]
    melds: tuple[tuple[int, ...], ...] = field(init=False)
    loose: tuple[int, ...] = field(init=False)
    discard: tuple[int, ...] = field(init=False)
    uncertain: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.melds, self.loose, self.discard = self.base.melds, self.base.loose, self.base.discard
        self.uncertain = tuple(i for i in self.base.uncertain if i not in self.fixes)

    @property
    def items(self) -> list[Item]:
        out: list[Item] = []
        for i, item in enumerate(self.base.items):
            card = self.fixes.get(i)
            if card is None:
                out.append(item)
            else:
                out.append(
                    EnteredCard(str(card), item.center, item.size, item.zone, item.label, confidence_of(item))
                )
        return out

    @property
    def empty(self) -> bool:
        return not self.base.items

    def same_as(self, other: object) -> bool:
        return self is other

    def card(self, index: int) -> Card | None:
        return self.fixes.get(index) or card_of(self.base.items[index])

    @property
    def discard_top(self) -> Card | None:
        if not self.discard or self.discard[0] in self.uncertain:
            return None
        return self.card(self.discard[0])

    def cards_on_table(self) -> list[list[Card]]:
        """The table as card sequences (melds, then each loose card); raises ``ValueError`` naming a card
        the table and the pile's top show more often than two decks hold."""
        groups = [*self.melds, *((i,) for i in self.loose)]
        table = [[c for c in (self.card(i) for i in g) if c is not None] for g in groups]
        shown = Counter(c for meld in table for c in meld)
        top = self.discard_top
        if top is not None:
            shown[top] += 1
        over = sorted(card for card, n in shown.items() if n > COPIES)
        if over:
            names = ", ".join(f"{shown[c]} × {c}" for c in over)
            raise ValueError(f"{names} on the table: two decks hold only {COPIES} of each card")
        return table


# --- what a press comes to, before anything is entered -------------------------------------------------

# Why a press's reading cannot be taken whole, in the order the session looks (:func:`assess_press`).
Stop = Literal[
    "cards_lacking",  # fewer cards than the accepted table, some of them unsure
    "cards_unsure",  # unsure cards the accepted table does not decide
    "too_many_copies",  # a third copy of a card (``error`` names it)
    "nothing_turned_up",  # the deal's start: no card seen on the discard pile
    "draw_first",  # no draw seen
    "draw_refused",  # the draw seen breaks a rule
    "table_changed",  # a difference no action explains (``error``: the TableMismatch)
    "no_change",  # the table as accepted: nothing laid, nothing discarded
    "rule",  # an action the reading explains breaks a rule (``failed``, ``error``)
    "no_discard",  # legal actions, but no discard seen
]


@dataclass(frozen=True)
class PressVerdict:
    """What judging a table read at a press comes to, worked out on the rules' state before anything is
    entered: ``stop`` is the first thing that keeps the turn from being taken whole (``None``: it is),
    with what the session needs to refuse it or to enter the turn: the draw the discard pile's zone
    shows (entered first, where the deal is at its draw), the turn's plan, the action that breaks a rule
    and the error. The session judges a press by it (``KalookiSession.judge``) and asks it whether one
    photo decides the press or the next frames should be voted on first (``KalookiSession.vote``)."""

    stop: Stop | None
    lacking: tuple[int, list[Card]] | None = None
    draw: DrawStock | None = None
    plan: TurnPlan | None = None
    failed: PlannedAction | None = None
    error: Exception | None = None

    @property
    def decided(self) -> bool:
        """Whether the reading takes the turn whole: nothing refused, nothing asked for, no accepted card
        missing from it."""
        return self.stop is None and self.lacking is None


def lacking_cards(deal: Deal, table: CardTable) -> tuple[int, list[Card]] | None:
    """Where ``table`` shows fewer cards on the table than the accepted one holds: how many fewer, and
    the accepted cards not among the cards it reads with confidence (the missing ones are among them);
    ``None`` where it shows as many or more."""
    accepted = deal.table_cards()
    lying = [i for m in table.melds for i in m] + list(table.loose)
    if len(lying) >= len(accepted):
        return None
    unsure = set(table.uncertain)
    sure = Counter(c for i in lying if i not in unsure and (c := card_of(table.items[i])) is not None)
    return len(accepted) - len(lying), sorted((Counter(accepted) - sure).elements(), key=_order)


def assess_press(state: Session, seen: CardTable) -> PressVerdict:
    """What judging ``seen`` (a reading, the accepted table's decisions applied) at a press comes to in
    ``state``, the rules' state before it: pure — nothing is entered or refused here. The draw, where
    the deal is at its draw, is the stock's even where the pile's old top shows (at a press the turn is
    over and a discard lies on top: the card under it is that card's twin, drawn from the stock), and
    the turn's actions are checked on the state after it."""
    deal = state.deal
    lacking = lacking_cards(deal, seen)
    if seen.uncertain:
        return PressVerdict("cards_lacking" if lacking is not None else "cards_unsure", lacking)
    try:
        melds = seen.cards_on_table()
    except ValueError as exc:  # a third copy of a card
        return PressVerdict("too_many_copies", lacking, error=exc)
    if deal.phase == "turn_up":
        return PressVerdict("nothing_turned_up" if seen.discard_top is None else None, lacking)
    draw: DrawStock | None = None
    if deal.phase == "draw":
        if draw_seen(deal, seen.discard_top) is None:
            return PressVerdict("draw_first", lacking)
        draw = DrawStock()
        try:
            drawn = state.apply(draw)
        except IllegalAction as exc:
            return PressVerdict("draw_refused", lacking, draw, error=exc)
        assert isinstance(drawn, Session)
        state, deal = drawn, drawn.deal
    try:
        plan = plan_turn(deal, melds, seen.discard_top)
    except TableMismatch as exc:
        return PressVerdict("table_changed", lacking, draw, error=exc)
    if not plan.actions:
        return PressVerdict("no_change", lacking, draw, plan)
    for planned in plan.actions:
        try:
            after = state.apply(planned.action)
        except IllegalAction as exc:
            return PressVerdict("rule", lacking, draw, plan, planned, exc)
        assert isinstance(after, Session)
        state = after
    return PressVerdict(None if plan.discards else "no_discard", lacking, draw, plan)
