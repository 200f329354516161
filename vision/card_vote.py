"""A card table read over frames: the readings of several frames of a still table put to the vote.

One photo can miss a card (its index lost in a glint, an overlap read as one card) or misread one with
confidence; the next frames of the same still table rarely repeat it. :func:`vote_cards` matches the
cards of every frame by place (each frame's card to the nearest place the same card was seen at, within
:data:`SAME_REACH` of a card's height — the reader places a card at its visible part, which moves as it
reads one corner or the other — else to the nearest card within half the short side of its visible box;
one card of a frame to one place) and keeps a card where a **majority of the
frames** sees one there: a card one frame made up is dropped, a card one frame missed is kept. What each
card is, the frames that saw it vote on (their best readings, sure or not): the reading most of them give
wins, and it is **sure** only where at least ``majority`` of those frames read it so and most of the frames
that read it so were confident; else the card is unsure (the players straighten or pick it) — a card is
never a reading no frame gave. The voted cards are then sorted as a single reading sorts them
(``vision.card_zones``): each card's zone the one most of its voters saw it in, the table's cards grouped
into melds and loose cards again from their boxes, the discard pile ordered top first, the stock the
frames' median count. The Kalooki session asks for such a vote when one reading cannot decide
(``device.sessions.kalooki``: cards unsure, accepted cards not seen, or a reading that would be refused),
as the Rummikub session does with ``vision.tile_vote``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from vision.card_zones import DISCARD, CardTableReading, ZonedCard
from vision.cards import lines_of
from vision.melds import connected
from vision.settle import MAJORITY

__all__ = ["SAME_REACH", "vote_cards"]

SAME_REACH = 0.6  # of the table's median card height: how far apart two frames may place one card


@dataclass
class _Place:
    """One place on the table and the card each frame saw there (reading index -> card index)."""

    center: tuple[float, float]
    radius: float
    seen: dict[int, int] = field(default_factory=dict)


def _radius(card: ZonedCard) -> float:
    x0, y0, x1, y1 = card.box
    return max(min(x1 - x0, y1 - y0), 2.0) / 2


def _places(readings: Sequence[CardTableReading]) -> list[_Place]:
    """The places cards were seen at, each with the card of every frame that saw one there. A frame's
    card joins the nearest place where the same card was seen, within :data:`SAME_REACH` of the card's
    height (the reader places a card at its visible part's centre, which moves between frames as it
    reads one corner or the other), else the nearest place of any card within half the short side of
    both visible boxes (a card read otherwise there: the vote decides); one card of a frame to one place."""
    places: list[_Place] = []
    labels: list[set[str]] = []
    heights = sorted(max(c.size, 2.0) for r in readings for c in r.cards)
    height = heights[len(heights) // 2] if heights else 2.0
    for r, reading in enumerate(readings):
        taken_cards: set[int] = set()
        taken_places: set[int] = set()
        for same in (True, False):
            pairs = []
            for i, card in enumerate(reading.cards):
                if i in taken_cards:
                    continue
                for p, place in enumerate(places):
                    if p in taken_places or (card.label in labels[p]) != same:
                        continue
                    d = math.hypot(card.center[0] - place.center[0], card.center[1] - place.center[1])
                    if d <= (SAME_REACH * height if same else min(place.radius, _radius(card))):
                        pairs.append((d, i, p))
            for _, i, p in sorted(pairs):  # nearest first
                if i in taken_cards or p in taken_places:
                    continue
                taken_cards.add(i)
                taken_places.add(p)
                places[p].seen[r] = i
                labels[p].add(reading.cards[i].label)
        for i, card in enumerate(reading.cards):
            if i not in taken_cards:
                places.append(_Place(card.center, _radius(card), {r: i}))
                labels.append({card.label})
    return places


def vote_cards(readings: Sequence[CardTableReading], majority: float = MAJORITY) -> CardTableReading:
    """The cards a majority of ``readings`` (frames of one still table) sees, each as the frames voted
    (its confidence the mean of the frames that read it so), unsure where they do not agree.

    >>> from rules.kalooki.cards import Card
    >>> from vision.cards import SeenCard
    >>> def card(text, x, sure=True):
    ...     seen = SeenCard(Card.parse(text), (x, 100.0), (x - 20, 70.0, x + 20, 130.0), 0.0, 0.95)
    ...     return ZonedCard(seen, None)
    >>> def run(*texts, unsure=()):
    ...     cards = tuple(card(t, 100.0 + 30 * i) for i, t in enumerate(texts) if t)
    ...     return CardTableReading(cards, ((tuple(range(len(cards)))),), (), (), unsure)
    >>> str(vote_cards([run("7H", "8H", "9D"), run("7H", "8H", "9H"), run("7H", "8H", "9H")]))
    'melds [7H 8H 9H] loose [] discard -'
    >>> str(vote_cards([run("7H", "8H", "9D"), run("7H", "8H", "9H")]))
    'melds [7H 8H 9D] loose [] discard - uncertain 1'
    """
    if not readings:
        raise ValueError("no readings to vote on")
    if len(readings) == 1:
        return readings[0]
    frames = len(readings)
    cards: list[ZonedCard] = []
    unsure_cards: list[bool] = []
    kept: list[_Place] = []
    for place in _places(readings):
        if 2 * len(place.seen) <= frames:
            continue  # most frames saw no card here: one frame's card is not the table's
        ballots: dict[str, list[tuple[int, int, bool]]] = {}
        for r, i in place.seen.items():
            ballots.setdefault(readings[r].cards[i].label, []).append((r, i, i not in readings[r].uncertain))
        order = list(ballots)  # first seen first: the earlier frame's reading leads a tie
        label = max(order, key=lambda k: (len(ballots[k]), sum(s for *_, s in ballots[k]), -order.index(k)))
        votes = ballots[label]
        confident = sum(s for *_, s in votes)
        sure = len(votes) >= majority * len(place.seen) and 2 * confident > len(votes)
        # The card as the surest of the frames that read it so saw it (its box, turn and candidates).
        r0, i0, _ = max(votes, key=lambda v: (v[2], readings[v[0]].cards[v[1]].confidence))
        lead = readings[r0].cards[i0]
        zones = [readings[r].cards[i].zone for r, i, _ in votes]
        zone = max(dict.fromkeys(zones), key=zones.count)
        mean = sum(readings[r].cards[i].confidence for r, i, _ in votes) / len(votes)
        cards.append(ZonedCard(replace(lead.seen, confidence=mean), zone))
        unsure_cards.append(not sure)
        kept.append(place)
    # No card made up: a card more often sure in the vote than most frames read it is left unsure.
    for label in {c.label for c in cards}:
        counts = sorted(sum(c.label == label for c in r.cards) for r in readings)
        mine = [k for k, c in enumerate(cards) if c.label == label and not unsure_cards[k]]
        if len(mine) > counts[len(counts) // 2]:
            for k in mine:
                unsure_cards[k] = True
    table = [i for i, c in enumerate(cards) if c.zone is None]
    melds, loose = _melds(readings, [kept[i] for i in table], [cards[i] for i in table])
    pile = sorted(
        (i for i, c in enumerate(cards) if c.zone == DISCARD),
        key=lambda i: (-_area(cards[i].box), -cards[i].confidence),
    )
    uncertain = sorted(
        {i for i in table if unsure_cards[i]} | ({pile[0]} if pile and unsure_cards[pile[0]] else set())
    )
    stocks = sorted(r.stock for r in readings)
    return CardTableReading(
        tuple(cards),
        tuple(tuple(table[k] for k in meld) for meld in melds),
        tuple(table[k] for k in loose),
        tuple(pile),
        tuple(uncertain),
        stocks[len(stocks) // 2],
    )


def _melds(
    readings: Sequence[CardTableReading], places: Sequence[_Place], cards: Sequence[ZonedCard]
) -> tuple[list[tuple[int, ...]], list[int]]:
    """The table's voted cards (``places``, ``cards``) grouped as most frames grouped them: two cards are
    of one meld where most of the frames that saw both saw them in one meld (the reader's boxes move
    from frame to frame, so the boxes of cards taken from different frames do not tell); each meld in
    order along its line (as ``vision.cards.group_cards`` orders it), the others loose."""
    n = len(places)
    meld_of: list[dict[int, int]] = [{i: m for m, meld in enumerate(r.melds) for i in meld} for r in readings]

    def together(a: int, b: int) -> bool:
        both = [r for r in places[a].seen if r in places[b].seen]
        same = sum(
            1
            for r in both
            if places[a].seen[r] in meld_of[r]
            and meld_of[r].get(places[a].seen[r]) == meld_of[r].get(places[b].seen[r])
        )
        return bool(both) and 2 * same > len(both)

    pairs = ((a, b) for a in range(n) for b in range(a + 1, n) if together(a, b))
    return lines_of([c.center for c in cards], connected(n, pairs))


def _area(box: Sequence[float]) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])
