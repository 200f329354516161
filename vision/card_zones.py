"""A card table's zones: the stock and the discard pile, and a reading of the table that knows them.

The stock and the discard pile lie in two named zones of the calibrated play area (``Calibration``'s
``named_zones``, in play-area pixels, stored in ``calibration.json`` under ``zones`` as the dice games'
hold zone is under ``hold_zone``). Where a calibration has none, :func:`with_card_zones` adds them at
the places printed on the play mat (:data:`ZONE_FRACTIONS`: the bottom-left corner, the stock left of
the discard pile; the simulated table, ``vision.cards_synth.render_kalooki_table``, lays its piles
there too).

:func:`read_card_table` reads a frame with the card reader (``vision.cards.read_cards``) and sorts the
cards by zone (:class:`CardTableReading`): a card whose centre lies in the discard pile's zone is of the
pile (its top card is the one seen largest: the others show a sliver at most), in the stock's zone it
is of the stock; every other card is on the table, grouped into melds and loose cards again among
themselves. The reading is what the Kalooki session wants of a table (``device.sessions.kalooki_camera
.CardTable``): the melds, the loose cards, the unsure ones (of the table, and the pile's top), the
discard pile's top card, and the table as card sequences.

>>> from rules.kalooki.cards import Card
>>> from vision.cards import SeenCard
>>> def at(card, x, y): return SeenCard(Card.parse(card), (x, y), (x - 20, y - 30, x + 20, y + 30), 0.0, 1.0)
>>> calibration = with_card_zones(Calibration.identity((1000, 500)))
>>> reading = sort_by_zone(CardObservation((at("7H", 100, 100), at("8H", 130, 100), at("2C", 210, 430))),
...                        calibration)
>>> [[str(c) for c in m] for m in reading.cards_on_table()], str(reading.discard_top)
([['7H', '8H']], '2C')
>>> [c.zone for c in reading.cards]
[None, None, 'discard']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rules.kalooki.cards import Card
from vision.calibration import Calibration
from vision.cards import COPIES, CardCopyError, CardObservation, SeenCard, group_cards, read_cards

__all__ = [
    "CARD_ZONES",
    "DISCARD",
    "STOCK",
    "ZONE_FRACTIONS",
    "CardTableReading",
    "ZonedCard",
    "read_card_table",
    "sort_by_zone",
    "with_card_zones",
]

STOCK, DISCARD = "stock", "discard"
CARD_ZONES = (STOCK, DISCARD)
# Each zone as shares of the play area's width and height (x0, y0, x1, y1): the bottom-left corner.
ZONE_FRACTIONS: dict[str, tuple[float, float, float, float]] = {
    STOCK: (0.0, 0.75, 0.135, 1.0),
    DISCARD: (0.135, 0.75, 0.27, 1.0),
}


def with_card_zones(calibration: Calibration) -> Calibration:
    """``calibration`` with the stock's and the discard pile's zones: its own where it has them, else
    at :data:`ZONE_FRACTIONS` of its play area."""
    return calibration.with_zones(ZONE_FRACTIONS)


@dataclass(frozen=True)
class ZonedCard:
    """A face-up card as seen (``vision.cards.SeenCard``) and the zone its centre lies in (``None``: on
    the table)."""

    seen: SeenCard
    zone: str | None

    @property
    def card(self) -> Card:
        return self.seen.card

    @property
    def label(self) -> str:
        return self.seen.label

    @property
    def center(self) -> tuple[float, float]:
        return self.seen.center

    @property
    def size(self) -> float:
        return self.seen.size

    @property
    def box(self) -> tuple[float, float, float, float]:
        return self.seen.box

    @property
    def confidence(self) -> float:
        return self.seen.confidence

    @property
    def candidates(self) -> tuple[tuple[Card, float], ...]:
        return self.seen.candidates


@dataclass(frozen=True)
class CardTableReading:
    """A card table as read, its cards sorted by zone.

    ``cards``: every face-up card seen (with its zone); ``melds`` and ``loose``: the table's cards (no
    zone) as melds (indices in order along their line) and cards apart; ``discard``: the discard pile's
    cards, its top first; ``uncertain``: the table's unsure cards and the pile's top if it is unsure
    (what lies under the top does not count); ``stock``: the face-down cards seen in the stock's zone."""

    cards: tuple[ZonedCard, ...]
    melds: tuple[tuple[int, ...], ...] = ()
    loose: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    uncertain: tuple[int, ...] = ()
    stock: int = 0

    @property
    def items(self) -> tuple[ZonedCard, ...]:
        return self.cards

    @property
    def empty(self) -> bool:
        return not self.cards

    @property
    def discard_top(self) -> Card | None:
        """The discard pile's top card (``None``: none seen there, or its top unsure)."""
        if not self.discard or self.discard[0] in self.uncertain:
            return None
        return self.cards[self.discard[0]].card

    def cards_on_table(self) -> list[list[Card]]:
        """The table: one card sequence per meld, then each loose card on its own. Raises
        ``CardCopyError`` (a ``ValueError``) naming the card when the table and the pile's top show a
        third copy of one."""
        table = [[self.cards[i].card for i in m] for m in self.melds] + [
            [self.cards[i].card] for i in self.loose
        ]
        shown = [c for meld in table for c in meld] + ([self.discard_top] if self.discard_top else [])
        counts: dict[Card, int] = {}
        for card in shown:
            counts[card] = counts.get(card, 0) + 1
        over = sorted(card for card, n in counts.items() if n > COPIES)
        if over:
            names = ", ".join(f"{counts[c]} × {c}" for c in over)
            raise CardCopyError(f"{names} on the table: two decks hold only {COPIES} of each card")
        return table

    def same_as(self, other: CardTableReading) -> bool:
        """The same table and the same top of the discard pile (for settling)."""
        return (
            sorted(c.label for c in self.cards) == sorted(c.label for c in other.cards)
            and _melds(self) == _melds(other)
            and self.discard_top == other.discard_top
        )

    def __str__(self) -> str:
        melds = " | ".join(" ".join(str(self.cards[i].card) for i in m) for m in self.melds)
        loose = " ".join(str(self.cards[i].card) for i in self.loose)
        top = self.discard_top
        return f"melds [{melds}] loose [{loose}] discard {top if top else '-'}" + (
            f" uncertain {len(self.uncertain)}" if self.uncertain else ""
        )


def _melds(reading: CardTableReading) -> list[str]:
    out = []
    for meld in reading.melds:
        words = [reading.cards[i].label for i in meld]
        out.append(" ".join(min(words, words[::-1])))
    return sorted(out)


def _zone_of(calibration: Calibration | None, point: tuple[float, float]) -> str | None:
    """The card zone a frame point lies in (through the calibration's homography), or ``None``."""
    # The card zones only: a dice table's hold zone may overlap them (one calibration for every game).
    return None if calibration is None else calibration.frame_zone(point, CARD_ZONES)


def sort_by_zone(observation: CardObservation, calibration: Calibration | None) -> CardTableReading:
    """The reading ``observation`` (frame pixels) with its cards sorted by the calibration's card zones."""
    zoned = tuple(ZonedCard(c, _zone_of(calibration, c.center)) for c in observation.cards)
    unsure = set(observation.uncertain)
    table = [i for i, c in enumerate(zoned) if c.zone is None]
    melds, loose = group_cards([zoned[i].seen for i in table])
    pile = sorted(
        (i for i, c in enumerate(zoned) if c.zone == DISCARD),
        key=lambda i: (-_area(zoned[i].box), -zoned[i].confidence),
    )
    uncertain = sorted(
        {i for i in table if i in unsure} | ({pile[0]} if pile and pile[0] in unsure else set())
    )
    stock = sum(1 for b in observation.backs if _zone_of(calibration, b) == STOCK)
    return CardTableReading(
        zoned,
        tuple(tuple(table[k] for k in meld) for meld in melds),
        tuple(table[k] for k in loose),
        tuple(pile),
        tuple(uncertain),
        stock,
    )


def _area(box: Sequence[float]) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def read_card_table(frame: np.ndarray, calibration: Calibration | None = None) -> CardTableReading:
    """A card table read (``vision.cards.read_cards``) and sorted by the calibration's card zones (at the
    play mat's places where it has none: :func:`with_card_zones`); with no calibration, no zones (every
    card on the table). Raises ``FrameError`` for a frame that is not a readable BGR image."""
    zoned = None if calibration is None else with_card_zones(calibration)
    return sort_by_zone(read_cards(frame, zoned), zoned)
