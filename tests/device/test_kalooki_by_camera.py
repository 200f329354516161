"""Kalooki by camera through the session (issue 30): the seat press asks the camera for the table, the
table seen becomes the turn's actions, refusals keep what was seen; the phases are states (issue 35).

The card reader itself is ``vision.cards``; here the readings are given as :class:`Table` values (what
the reader and the discard pile's zone give), posted as the camera's answers are."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from device.events import ButtonEvent, Seen
from device.journal import Journal
from device.readings import HeldReadings
from device.sessions.kalooki import (
    CardPicked,
    Drawing,
    KalookiSession,
    Playing,
    ReadingTable,
    Touch,
    TurningUp,
)
from device.sessions.kalooki_camera import CardTable
from device.timer import MoveTimer
from rules.kalooki import Card, DrawDiscard, DrawStock, KalookiOptions, parse_cards
from vision.observation import Observation


@dataclass(frozen=True)
class Laid:
    """One card as the reader gives it (``vision.observation.Item``), laid in a row per meld."""

    label: str
    center: tuple[float, float]
    size: float = 60.0
    zone: str | None = None


@dataclass
class Table:
    """A card table as read: melds (card sequences), loose cards, the unsure ones, the discard top."""

    seen: list[list[Card]]
    top: Card | None
    unsure: tuple[int, ...] = ()
    melds: tuple[tuple[int, ...], ...] = field(init=False)
    loose: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()  # the pile is given by its top alone here

    def __post_init__(self) -> None:
        out, k = [], 0
        for meld in self.seen:
            out.append(tuple(range(k, k + len(meld))))
            k += len(meld)
        self.melds = tuple(out)

    @property
    def uncertain(self) -> tuple[int, ...]:
        return self.unsure

    @property
    def items(self) -> list[Laid]:
        return [
            Laid(str(card), (100.0 + 70 * k, 100.0 + 120 * m))
            for m, meld in enumerate(self.seen)
            for k, card in enumerate(meld)
        ]

    @property
    def empty(self) -> bool:
        return not self.seen

    def same_as(self, other: Table) -> bool:
        return self.seen == other.seen and self.top == other.top

    @property
    def discard_top(self) -> Card | None:
        return self.top

    def cards_on_table(self) -> list[list[Card]]:
        return [list(m) for m in self.seen]


def cards(text: str) -> list[Card]:
    return parse_cards(text)


@pytest.fixture
def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KalookiSession:
    monkeypatch.setattr(KalookiSession, "reader", object())  # a card reader is there
    journal = Journal.open(tmp_path / "journal.db")
    started = KalookiSession.start(journal, KalookiOptions(players=2), ["Ala", "Ola"], MoveTimer(0))
    assert isinstance(started, KalookiSession)
    return started


def press(session: KalookiSession, seat: int, table: Table) -> None:
    """The seat button, then the camera's answer to the request it made."""
    readings = session.readings
    assert isinstance(readings, HeldReadings)
    asked = len(readings.requests)
    session.handle(ButtonEvent(seat, "press"))
    assert len(readings.requests) == asked + 1, "the press asked the camera"
    assert isinstance(session.stage, ReadingTable)
    session.handle(Seen(table, kind="requested"))


def test_the_fake_reading_is_a_card_table_and_an_observation() -> None:
    assert isinstance(Table([], None), CardTable) and isinstance(Table([], None), Observation)


def test_a_whole_turn_by_camera_draw_lay_down_discard(session: KalookiSession) -> None:
    assert isinstance(session.stage, TurningUp) and session.phase == "turn_up"
    press(session, 0, Table([], Card.parse("2C")))
    assert isinstance(session.stage, Drawing) and session.deal.discard_top == Card.parse("2C")
    # Seat 0 draws from the stock (nothing to see), lays an initial meld of two melds, discards 4D.
    press(session, 0, Table([cards("KH QH JH 10H"), cards("9S 9D 9C")], Card.parse("4D")))
    assert session.refusal is None, session.refusal
    assert [str(m) for m in session.deal.table] == ["10H JH QH KH", "9S 9D 9C"]
    assert session.deal.discard_top == Card.parse("4D") and session.deal.turn == 1
    assert session.history[-4:] and [type(a).__name__ for a in session.history[-3:]] == [
        "DrawStock",
        "LayDown",
        "Discard",
    ]
    assert session.deal.counts[0] == 13 + 1 - 7 - 1
    assert isinstance(session.stage, Drawing)


def test_the_discard_pile_watched_in_the_draw_tells_where_the_card_came_from(session: KalookiSession) -> None:
    press(session, 0, Table([], Card.parse("2C")))
    press(session, 0, Table([], Card.parse("4D")))  # seat 0 drew from the stock, discarded 4D
    assert session.deal.turn == 1
    session.handle(Seen(Table([], Card.parse("2C")), kind="settled"))  # seat 1 takes the 4D: 2C shows
    assert session.history[-1] == DrawDiscard() and isinstance(session.stage, Playing)
    session.handle(Seen(Table([], Card.parse("2C")), kind="settled"))  # nothing more happens
    assert session.history[-1] == DrawDiscard()


def test_melds_laid_before_a_draw_was_seen_mean_the_stock(session: KalookiSession) -> None:
    press(session, 0, Table([], Card.parse("2C")))
    session.handle(Seen(Table([cards("KH QH JH 10H")], Card.parse("2C")), kind="settled"))
    assert session.history[-1] == DrawStock()


def test_unsure_cards_are_refused_and_outlined_nothing_entered(session: KalookiSession) -> None:
    press(session, 0, Table([], Card.parse("2C")))
    session.handle(Seen(Table([cards("KH QH JH 10H")], Card.parse("2C")), kind="settled"))
    before = len(session.history)
    press(session, 0, Table([cards("KH QH JH 10H"), cards("9S 9D 9C")], Card.parse("4D"), unsure=(5,)))
    assert session.refusal is not None and session.refusal.code == "cards_unsure"
    assert len(session.history) == before
    stage = session.stage
    assert isinstance(stage, Playing) and stage.refused is not None and stage.refused.outline == (5,)


def test_an_illegal_opening_is_refused_by_its_rule_with_the_melds_outlined(session: KalookiSession) -> None:
    press(session, 0, Table([], Card.parse("2C")))
    press(session, 0, Table([cards("2H 3H 4H"), cards("5S 5D 5C")], Card.parse("4D")))
    assert session.refusal is not None and session.refusal.code == "opening_too_low"
    stage = session.stage
    assert isinstance(stage, Playing) and stage.refused is not None
    assert stage.refused.outline == (0, 1, 2, 3, 4, 5) and stage.refused.reason == "rule"
    assert [type(a).__name__ for a in session.history[-1:]] == ["DrawStock"]  # the draw stands


def test_a_card_taken_from_a_meld_is_refused_naming_it(session: KalookiSession) -> None:
    press(session, 0, Table([], Card.parse("2C")))
    press(session, 0, Table([cards("KH QH JH 10H"), cards("9S 9D 9C")], Card.parse("4D")))
    session.handle(Seen(Table([cards("KH QH JH 10H"), cards("9S 9D 9C")], Card.parse("2C")), kind="settled"))
    assert session.history[-1] == DrawDiscard()
    press(session, 1, Table([cards("KH QH JH"), cards("9S 9D 9C")], Card.parse("8S")))
    assert session.refusal is not None and session.refusal.code == "table_changed"
    named = session.refusal.details["cards"]
    assert isinstance(named, list | tuple | str) and "10H" in named


def test_a_press_with_a_card_picked_discards_it_as_before(session: KalookiSession) -> None:
    """The picker stays the way to play: a card picked and the seat button is the discard."""
    press(session, 0, Table([], Card.parse("2C")))
    session.send(Touch("stock"))
    session.send(CardPicked(Card.parse("4D")))
    session.handle(ButtonEvent(0, "press"))
    assert session.deal.discard_top == Card.parse("4D") and session.deal.turn == 1


def test_without_a_reader_the_press_never_asks_the_camera(session: KalookiSession, monkeypatch) -> None:
    monkeypatch.setattr(KalookiSession, "reader", None)
    session.send(CardPicked(Card.parse("2C")))
    session.handle(ButtonEvent(0, "press"))
    readings = session.readings
    assert isinstance(readings, HeldReadings) and readings.requests == []
    assert session.deal.discard_top == Card.parse("2C")


def test_resume_mid_turn_comes_back_in_the_state_the_deal_calls_for(session: KalookiSession) -> None:
    press(session, 0, Table([], Card.parse("2C")))
    session.handle(Seen(Table([cards("KH QH JH 10H")], Card.parse("2C")), kind="settled"))
    resumed = KalookiSession.resume(session.journal, session.journal.game(session.game_id), MoveTimer(0))
    assert isinstance(resumed, KalookiSession) and isinstance(resumed.stage, Playing)
    assert resumed.deal == session.deal and resumed.picker.cards == []
