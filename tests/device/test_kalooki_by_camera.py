"""Kalooki by camera through the session (issue 30): the seat press asks the camera for the table, the
table seen becomes the turn's actions, refusals keep what was seen; the phases are states (issue 35);
unsure cards are entered one at a time on the picker (or decided by the accepted table) and the
reading judged with them, the entries journaled beside the action.

The card reader itself is ``vision.cards``; here the readings are given as :class:`Table` values (what
the reader and the discard pile's zone give), posted as the camera's answers are."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import pytest

from device.events import ButtonEvent, Seen
from device.journal import Journal
from device.readings import HeldReadings
from device.sessions.kalooki import (
    CardPicked,
    CardTapped,
    Correcting,
    Drawing,
    KalookiSession,
    Playing,
    RankPicked,
    ReadingTable,
    SuitPicked,
    Touch,
    TurningUp,
)
from device.sessions.kalooki_camera import CardTable, Corrected, Stop, assess_press, table_prior
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
    confidence: float = 1.0
    candidates: tuple[tuple[Card, float], ...] = ()


@dataclass
class Table:
    """A card table as read: melds (card sequences), loose cards, the unsure ones, the discard top;
    ``read``: what the reader guessed for an unsure card (index → best guess and candidates), where it
    is not the card lying there. The discard pile's top, when unsure, is item ``len(cards)``."""

    seen: list[list[Card]]
    top: Card | None
    unsure: tuple[int, ...] = ()
    read: dict[int, tuple[str, tuple[tuple[Card, float], ...]]] = field(default_factory=dict)
    melds: tuple[tuple[int, ...], ...] = field(init=False)
    loose: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()  # the pile is given by its top alone here

    def __post_init__(self) -> None:
        out, k = [], 0
        for meld in self.seen:
            out.append(tuple(range(k, k + len(meld))))
            k += len(meld)
        self.melds = tuple(out)
        if self.top is not None:
            self.discard = (k,)

    @property
    def uncertain(self) -> tuple[int, ...]:
        return self.unsure

    @property
    def items(self) -> list[Laid]:
        laid = [
            Laid(str(card), (100.0 + 70 * k, 100.0 + 120 * m))
            for m, meld in enumerate(self.seen)
            for k, card in enumerate(meld)
        ]
        if self.top is not None:
            laid.append(Laid(str(self.top), (100.0, 600.0), zone="discard"))
        out = []
        for i, item in enumerate(laid):
            if i in self.unsure:
                label, candidates = self.read.get(i, (item.label, ()))
                item = Laid(label, item.center, item.size, item.zone, 0.4, candidates)
            out.append(item)
        return out

    @property
    def empty(self) -> bool:
        return not self.seen

    def same_as(self, other: Table) -> bool:
        return self.seen == other.seen and self.top == other.top

    @property
    def discard_top(self) -> Card | None:
        return None if self.discard and self.discard[0] in self.unsure else self.top

    def cards_on_table(self) -> list[list[Card]]:
        return [list(m) for m in self.seen]


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KalookiSession:
    """A two-player game at the table, by camera (a card reader is there), at its turn-up."""
    monkeypatch.setattr(KalookiSession, "reader", object())
    journal = Journal.open(tmp_path / "journal.db")
    game = KalookiSession.start(journal, KalookiOptions(players=2), ["Ala", "Ola"], MoveTimer(0))
    assert isinstance(game, KalookiSession)
    return game


@pytest.fixture
def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KalookiSession:
    game = started(tmp_path, monkeypatch)
    game.vote_frames = 0  # one reading judged as it comes (the votes: test_kalooki_vote.py)
    return game


def press(session: KalookiSession, seat: int, table: Table | Corrected) -> None:
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


def drawn(session: KalookiSession) -> None:
    """2C turned up; seat 0 draws from the stock (melds laid before a draw was seen)."""
    press(session, 0, Table([], Card.parse("2C")))
    session.handle(Seen(Table([cards("KH QH JH 10H")], Card.parse("2C")), kind="settled"))
    assert session.history[-1] == DrawStock()


def test_unsure_cards_are_refused_and_the_correction_opens_on_the_first(session: KalookiSession) -> None:
    drawn(session)
    before = len(session.history)
    press(session, 0, Table([cards("KH QH JH 10H"), cards("9S 9D 9C")], Card.parse("4D"), unsure=(5,)))
    assert session.refusal is not None and session.refusal.code == "cards_unsure"
    assert len(session.history) == before  # nothing entered
    stage = session.stage
    assert isinstance(stage, Correcting) and session.phase == "play"
    corr = stage.correction
    assert corr.required() == (5,) and corr.chosen == 5 and session.correction is corr


NINES = Table(
    [cards("KH QH JH 10H"), cards("9S 9D 9C")],
    Card.parse("4D"),
    unsure=(4, 5),
    read={
        4: ("9C", ((Card.parse("9C"), 0.55), (Card.parse("9S"), 0.4))),
        5: ("9H", ((Card.parse("9H"), 0.5), (Card.parse("9D"), 0.3))),
    },
)


def test_each_unsure_card_tapped_and_picked_then_the_reading_is_judged_and_journaled(
    session: KalookiSession,
) -> None:
    drawn(session)
    press(session, 0, NINES)
    assert isinstance(session.stage, Correcting) and session.correction is not None
    assert session.offered() == [Card.parse("9C"), Card.parse("9S")]  # the reader's likeliest readings
    session.send(CardTapped(5))  # the second one first
    session.send(RankPicked(9))
    session.send(SuitPicked("D"))
    corr = session.correction
    assert isinstance(session.stage, Correcting) and corr is not None and corr.chosen == 4
    assert len(session.history) == 2  # nothing entered until every card is
    session.send(CardPicked(Card.parse("9S")))  # one of the readings offered
    assert session.refusal is None, session.refusal
    assert [type(a).__name__ for a in session.history[-2:]] == ["LayDown", "Discard"]
    assert [str(m) for m in session.deal.table] == ["10H JH QH KH", "9S 9D 9C"]
    assert session.deal.turn == 1 and isinstance(session.stage, Drawing)
    fixes = session.journal.corrections(session.game_id)
    lay_down_seq = session.seq - 1
    assert [(c.seq, c.fix.item, c.fix.kind, c.fix.read, c.fix.entered) for c in fixes] == [
        (lay_down_seq, 4, "card", "9C", "9S"),
        (lay_down_seq, 5, "card", "9H", "9D"),
    ]
    assert all(c.fix.confidence == 0.4 and not c.fix.sure and c.fix.misread for c in fixes)


def test_a_wrong_entry_is_refused_by_the_rule_and_entered_again(session: KalookiSession) -> None:
    drawn(session)
    press(session, 0, NINES)
    session.send(RankPicked(8))  # 9S entered as 8S: 8S 9D 9C is no meld
    session.send(SuitPicked("S"))
    session.send(CardPicked(Card.parse("9D")))
    assert session.refusal is not None and session.refusal.code == "invalid_meld"
    stage = session.stage
    assert isinstance(stage, Playing) and stage.refused is not None and stage.refused.reason == "rule"
    assert stage.refused.outline == (0, 1, 2, 3, 4, 5, 6)  # the lay-down's melds
    assert [i.label for i in stage.refused.table.items][4:6] == ["8S", "9D"]  # as entered
    assert len(session.history) == 2 and session.journal.corrections(session.game_id) == []
    session.send(Touch("correct"))  # Correct the reading: the correction again, on the first entered
    corr = session.correction
    assert isinstance(session.stage, Correcting) and corr is not None and corr.chosen == 4
    assert corr.fixes == {4: Card.parse("8S"), 5: Card.parse("9D")}
    session.send(RankPicked(9))
    session.send(SuitPicked("S"))
    assert session.refusal is None and [str(m) for m in session.deal.table] == ["10H JH QH KH", "9S 9D 9C"]
    fixes = [(c.fix.item, c.fix.read, c.fix.entered) for c in session.journal.corrections(session.game_id)]
    assert fixes == [(4, "9C", "9S"), (5, "9H", "9D")]  # what was read, what was entered at last


def test_a_press_while_correcting_reads_the_table_again(session: KalookiSession) -> None:
    drawn(session)
    press(session, 0, NINES)
    session.send(RankPicked(9))
    press(session, 0, Table([cards("KH QH JH 10H"), cards("9S 9D 9C")], Card.parse("4D")))  # straightened
    assert session.refusal is None and session.deal.turn == 1
    assert session.journal.corrections(session.game_id) == []  # nothing corrected


def test_cancel_shows_the_reading_and_correct_opens_the_correction_again(
    session: KalookiSession,
) -> None:
    drawn(session)
    press(session, 0, NINES)
    session.send(CardPicked(Card.parse("9S")))
    session.send(Touch("cancel"))
    stage = session.stage
    assert isinstance(stage, Playing) and stage.refused is not None and stage.refused.outline == (5,)
    session.send(Touch("correct"))
    corr = session.correction
    assert corr is not None and corr.fixes == {4: Card.parse("9S")} and corr.chosen == 5
    session.send(CardPicked(Card.parse("9D")))
    assert session.refusal is None and session.deal.turn == 1


def test_the_turned_up_card_unsure_is_picked(session: KalookiSession) -> None:
    press(session, 0, Table([], Card.parse("2C"), unsure=(0,), read={0: ("2S", ())}))
    assert isinstance(session.stage, Correcting) and session.phase == "turn_up"
    session.send(RankPicked(2))
    session.send(SuitPicked("C"))
    assert session.deal.discard_top == Card.parse("2C") and isinstance(session.stage, Drawing)
    [fix] = session.journal.corrections(session.game_id)
    assert (fix.fix.read, fix.fix.entered) == ("2S", "2C")


def laid_by_seat_0(session: KalookiSession) -> None:
    """Seat 0 has laid 10H–KH and three nines and discarded 4D; seat 1 drew it (the pile's 2C shows)."""
    drawn(session)
    press(session, 0, Table([cards("KH QH JH 10H"), cards("9S 9D 9C")], Card.parse("4D")))
    session.handle(Seen(Table([cards("KH QH JH 10H"), cards("9S 9D 9C")], Card.parse("2C")), kind="settled"))
    assert session.history[-1] == DrawDiscard() and session.deal.turn == 1


def test_an_unsure_card_on_an_unchanged_meld_is_the_accepted_card(session: KalookiSession) -> None:
    laid_by_seat_0(session)
    # Seat 1 lays three fours; the reader is unsure of the 10H and the 9D it read as 10D and 9H, and
    # gives the accepted cards reasonable probability: they are the accepted cards; the fours are sure.
    # The press is judged without a card asked for: the rules refuse the opening, not the camera.
    table = Table(
        [cards("KH QH JH 10H"), cards("9S 9D 9C"), cards("4S 4H 4C")],
        Card.parse("8S"),
        unsure=(3, 5),
        read={
            3: ("10D", ((Card.parse("10D"), 0.6), (Card.parse("10H"), 0.3))),
            5: ("9H", ((Card.parse("9H"), 0.8), (Card.parse("9D"), 0.1))),
        },
    )
    press(session, 1, table)
    assert session.refusal is not None and session.refusal.code == "opening_too_low"
    # An opening worth it: taken; the table's decisions are journaled where they were misreads.
    seen = [*table.seen[:2], cards("KS KD KC"), cards("QS QD QC")]
    press(session, 1, Table(seen, table.top, table.unsure, table.read))
    assert session.refusal is None and [str(m) for m in session.deal.table][2:] == ["KS KD KC", "QS QD QC"]
    notes = [(c.fix.item, c.fix.kind, c.fix.read, c.fix.entered) for c in session.journal.corrections()]
    assert notes == [(3, "card_table", "10D", "10H"), (5, "card_table", "9H", "9D")]


def test_an_unsure_new_card_is_not_taken_nor_a_card_the_reader_contradicts(session: KalookiSession) -> None:
    laid_by_seat_0(session)
    table = Table(
        [cards("KH QH JH 10H"), cards("9S 9D 9C"), cards("KS KD KC")],
        Card.parse("8S"),
        unsure=(3, 8),
        read={
            3: ("10D", ((Card.parse("10D"), 0.97), (Card.parse("10H"), 0.02))),  # contradicts 10H
            8: ("KD", ((Card.parse("KD"), 0.9),)),  # a new card: read, never taken as read
        },
    )
    press(session, 1, table)
    corr = session.correction
    assert corr is not None and corr.required() == (3, 8) and corr.prior == {}
    # The accepted table changed nothing of the reading: the same reading with the 10H sure decides it.
    table.unsure = (8,)
    press(session, 1, table)
    corr = session.correction
    assert corr is not None and corr.required() == (8,)


def test_a_confident_misread_is_corrected_on_the_refused_meld(session: KalookiSession) -> None:
    """Every card sure, one misread (9S read as 8S): refused by the rule; Correct the reading lists the
    refused melds' cards, the one tapped is entered, the reading judged; journaled as a sure misread."""
    drawn(session)
    misread = Table([cards("KH QH JH 10H"), cards("8S 9D 9C")], Card.parse("4D"))
    press(session, 0, misread)
    assert session.refusal is not None and session.refusal.code == "invalid_meld"
    session.send(Touch("correct"))
    corr = session.correction
    assert corr is not None and corr.listed() == (0, 1, 2, 3, 4, 5, 6) and corr.complete
    session.send(CardTapped(4))
    session.send(RankPicked(9))
    session.send(SuitPicked("S"))
    assert session.refusal is None and session.deal.turn == 1
    [fix] = session.journal.corrections(session.game_id)
    assert (fix.fix.read, fix.fix.entered, fix.fix.sure, fix.fix.confidence) == ("8S", "9S", True, 1.0)


def test_an_unsure_card_lying_where_an_accepted_card_lay_is_it_however_grouped(
    session: KalookiSession,
) -> None:
    """The reader orders the run otherwise (QH KH JH 10H) and is unsure of its cards: no row holds the
    accepted run in its order, but each card lies where the accepted card lay at the last press and its
    reading agrees: decided. A game resumed (the places are not journaled): the seen meld holds exactly
    the run's four cards, each reading agrees with one of them: decided by the row in any order."""
    laid_by_seat_0(session)
    assert [p.card for p in session.placed] == cards("KH QH JH 10H 9S 9D 9C")
    table = Table([cards("KH QH JH 10H"), cards("9S 9D 9C")], Card.parse("8S"), unsure=(0, 1, 2, 3))
    table.melds = ((1, 0, 2, 3), (4, 5, 6))
    press(session, 1, table)
    assert session.refusal is None and session.deal.discard_top == Card.parse("8S")  # no card asked
    resumed = KalookiSession.resume(session.journal, session.journal.game(session.game_id), MoveTimer(0))
    assert isinstance(resumed, KalookiSession) and resumed.placed == ()
    decided = table_prior(resumed.deal.table, cast(CardTable, table), resumed.placed)
    assert decided == dict(enumerate(cards("KH QH JH 10H")))


def test_a_run_built_on_is_decided_by_its_row_only_in_its_order(session: KalookiSession) -> None:
    """An accepted run seen with a card more (built on this turn) is matched only in its order: the
    reader's order of an unsure card there is not overruled (the new card could lie anywhere). The
    same run seen alone, its unsure card placed between its neighbours, is decided in any order."""
    laid_by_seat_0(session)
    run = session.deal.table[0]
    alone = Table([cards("QH KH JH 10H")], Card.parse("8S"), unsure=(0,))
    assert table_prior([run], cast(CardTable, alone)) == {0: Card.parse("QH")}
    built = Table([cards("QH KH JH 10H 9H")], Card.parse("8S"), unsure=(0,))
    assert table_prior([run], cast(CardTable, built)) == {}
    in_order = Table([cards("KH QH JH 10H 9H")], Card.parse("8S"), unsure=(1,))
    assert table_prior([run], cast(CardTable, in_order)) == {1: Card.parse("QH")}


def test_a_table_short_of_cards_is_refused_before_any_card_is_asked(session: KalookiSession) -> None:
    """The 9C not seen and the 10H unsure (read as 10D, the accepted card not among its readings): no
    move takes a card off the table, so the press is refused at once, naming the cards to look for."""
    laid_by_seat_0(session)
    table = Table(
        [cards("KH QH JH 10H"), cards("9S 9D")],
        Card.parse("8S"),
        unsure=(3,),
        read={3: ("10D", ((Card.parse("10D"), 0.99),))},
    )
    press(session, 1, table)
    assert session.refusal is not None and session.refusal.code == "table_changed"
    assert session.refusal.details["cards"] == "9C 10H" and session.correction is None
    stage = session.stage
    assert isinstance(stage, Playing) and stage.refused is not None and stage.refused.reason == "mismatch"


def test_a_game_killed_while_correcting_resumes_to_the_accepted_table(session: KalookiSession) -> None:
    laid_by_seat_0(session)
    accepted = session.deal
    table = Table(
        [cards("KH QH JH 10H"), cards("9S 9D 9C"), cards("KS KD KC")], Card.parse("8S"), unsure=(9, 10)
    )
    press(session, 1, table)
    session.send(CardPicked(Card.parse("KS")))  # one of two entered: then the power goes
    assert isinstance(session.stage, Correcting)
    resumed = KalookiSession.resume(session.journal, session.journal.game(session.game_id), MoveTimer(0))
    assert isinstance(resumed, KalookiSession) and isinstance(resumed.stage, Playing)
    assert resumed.deal == accepted and resumed.correction is None
    assert session.journal.corrections(session.game_id) == []


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


def test_a_reading_s_turn_is_judged_whole_a_refused_discard_keeps_the_release_out(
    session: KalookiSession,
) -> None:
    """Seat 1 opens, releases the joker of seat 0's set with the two missing nines and discards without
    laying the joker: the discard breaks a rule (``joker_not_laid``), so nothing of the reading is
    entered — not the opening, not the release — and the table stays as last accepted; the draw
    stands. Laid right (the joker built on the run), the same press is accepted whole."""
    press(session, 0, Table([], Card.parse("2C")))
    opening = [cards("10H JH QH KH"), cards("9S 9C JOKER")]
    press(session, 0, Table(opening, Card.parse("4D")))
    assert session.refusal is None and session.deal.turn == 1
    accepted = session.deal.table
    laid = [cards("10H JH QH KH"), cards("9S 9C 9H 9D"), cards("KS KD KC"), cards("QS QD QC")]
    press(session, 1, Table(laid, Card.parse("8S")))
    assert session.refusal is not None and session.refusal.code == "joker_not_laid"
    assert session.deal.table == accepted and session.deal.discard_top == Card.parse("4D")
    assert [type(a).__name__ for a in session.history[-2:]] == ["Discard", "DrawStock"]  # the draw stands
    stage = session.stage
    assert isinstance(stage, Playing) and stage.refused is not None and stage.refused.reason == "rule"
    laid[0] = cards("10H JH QH KH JOKER")
    press(session, 1, Table(laid, Card.parse("8S")))
    assert session.refusal is None and session.deal.turn == 0
    kinds = [type(a).__name__ for a in session.history[-4:]]
    assert kinds == ["LayDown", "ReleaseJoker", "Build", "Discard"], kinds


def test_a_legal_opening_is_not_entered_when_a_build_of_the_same_reading_is_refused(
    session: KalookiSession,
) -> None:
    """A lay-down worth enough and a card no meld takes on the accepted set, in one reading: the build
    is refused by its rule with its meld outlined, and the opening is not entered either."""
    press(session, 0, Table([], Card.parse("2C")))
    press(session, 0, Table([cards("10H JH QH KH"), cards("9S 9D 9C")], Card.parse("4D")))
    accepted = session.deal.table
    laid = [cards("10H JH QH KH"), cards("9S 9D 9C 8S"), cards("KS KD KC"), cards("QS QD QC")]
    press(session, 1, Table(laid, Card.parse("5H")))
    assert session.refusal is not None and session.refusal.code == "invalid_build"
    assert session.deal.table == accepted and not session.deal.opened[1]
    stage = session.stage
    assert isinstance(stage, Playing) and stage.refused is not None
    assert stage.refused.outline == (4, 5, 6, 7)  # the set built on, as seen


THREE_OF_KH = [cards("KH QH JH 10H"), cards("KH KS KH")]


@pytest.mark.parametrize(
    ("turned_up", "table", "stop"),
    [
        (False, Table([], None), "nothing_turned_up"),
        (False, Table([], Card.parse("2C")), None),
        (False, Table([], Card.parse("2C"), unsure=(0,)), "cards_unsure"),
        (True, Table([cards("KH QH JH 10H")], Card.parse("2C"), unsure=(1,)), "cards_unsure"),
        (
            True,
            Corrected(cast(CardTable, Table(THREE_OF_KH, Card.parse("4D"))), {}),
            "too_many_copies",
        ),  # the real check
        (True, Table([cards("KH QH JH 10H")], Card.parse("2C")), "draw_first"),
        (True, Table([cards("2H 3H 4H"), cards("5S 5D 5C")], Card.parse("4D")), "rule"),
        (True, Table([cards("KH QH JH 10H"), cards("9S 9D 9C")], Card.parse("4D")), None),
        (True, Table([], Card.parse("4D")), None),
    ],
)
def test_a_press_is_assessed_before_anything_is_entered_and_judged_as_assessed(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    turned_up: bool,
    table: Table | Corrected,
    stop: Stop | None,
) -> None:
    """``assess_press`` says what judging a reading comes to without entering anything (the vote asks it
    whether one photo decides), and the press is then judged as it said: taken whole, or refused by the
    rule it names (``cards_unsure`` and the turn-up's own refusal under their codes)."""
    game = started(tmp_path, monkeypatch)
    game.vote_frames = 0
    if turned_up:
        press(game, 0, Table([], Card.parse("2C")))
    before, entered = game.kalooki, len(game.history)
    verdict = assess_press(game.kalooki, cast(CardTable, table))
    assert verdict.stop == stop and verdict.decided is (stop is None)
    assert game.kalooki == before and len(game.history) == entered  # pure: nothing entered or refused
    assert game.refusal is None
    press(game, 0, table)
    code = {"rule": "opening_too_low", "draw_first": "draw_first"}.get(str(stop), stop)
    assert (game.refusal.code if game.refusal is not None else None) == code
    if stop is None:
        assert len(game.history) > entered and isinstance(game.stage, Drawing)
    elif stop != "rule":
        assert len(game.history) == entered  # nothing entered (a refused opening keeps its draw)


def test_a_table_short_of_cards_is_assessed_lacking_them(session: KalookiSession) -> None:
    laid_by_seat_0(session)
    short = Table([cards("KH QH JH 10H"), cards("9S 9D")], Card.parse("8S"))
    verdict = assess_press(session.kalooki, cast(CardTable, short))
    assert verdict.lacking == (1, cards("9C")) and not verdict.decided
    unsure = Table([cards("KH QH JH 10H"), cards("9S 9D")], Card.parse("8S"), unsure=(3,))
    assert assess_press(session.kalooki, cast(CardTable, unsure)).stop == "cards_lacking"
