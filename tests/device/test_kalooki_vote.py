"""Kalooki by camera, the table decides what one photo cannot: a press whose reading cannot decide (cards
unsure, accepted cards not seen, a reading that would be refused) is read again over the session's vote
frames and put to the vote (``vision.card_vote``, the card reader's ``GameReader.vote``) before it is
judged; once per press."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.events import ButtonEvent, Seen
from device.readings import HeldReadings
from device.sessions.kalooki import CARD_READER, VOTE_FRAMES, Correcting, KalookiSession, ReadingTable
from rules.kalooki import Card, DrawStock, LayDown
from tests.device.test_kalooki_by_camera import Table, cards, started
from vision.card_vote import vote_cards

OPENING = [cards("KH QH JH 10H"), cards("9S 9D 9C")]


@pytest.fixture
def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> KalookiSession:
    return started(tmp_path, monkeypatch)  # with the session's vote frames


def requests(session: KalookiSession) -> list[int]:
    readings = session.readings
    assert isinstance(readings, HeldReadings)
    return readings.requests


def drawn(session: KalookiSession) -> None:
    """2C turned up (a sure reading: judged at once); seat 0 draws from the stock."""
    session.handle(ButtonEvent(0, "press"))
    session.handle(Seen(Table([], Card.parse("2C")), kind="requested"))
    session.handle(Seen(Table([cards("KH QH JH 10H")], Card.parse("2C")), kind="settled"))
    assert session.history[-1] == DrawStock()
    requests(session).clear()


def test_the_card_reader_votes_and_the_session_asks_for_its_frames() -> None:
    assert CARD_READER.vote is vote_cards
    assert VOTE_FRAMES >= 3 and ReadingTable.frames == 1


def test_a_sure_legal_reading_is_judged_at_once(session: KalookiSession) -> None:
    drawn(session)
    session.handle(ButtonEvent(0, "press"))
    session.handle(Seen(Table(OPENING, Card.parse("4D")), kind="requested"))
    assert requests(session) == [1] and session.votes == 0
    assert isinstance(session.history[-2], LayDown) and session.refusal is None


def test_an_unsure_card_is_read_again_over_frames_and_the_vote_judged(session: KalookiSession) -> None:
    drawn(session)
    before = len(session.history)
    session.handle(ButtonEvent(0, "press"))
    session.handle(Seen(Table(OPENING, Card.parse("4D"), unsure=(5,)), kind="requested"))
    # Not refused, nothing picked: the table read again over the vote's frames.
    assert requests(session) == [1, VOTE_FRAMES] and session.votes == 1
    stage = session.stage
    assert isinstance(stage, ReadingTable) and stage.voting == VOTE_FRAMES
    assert session.refusal is None and len(session.history) == before
    session.handle(Seen(Table(OPENING, Card.parse("4D")), kind="requested"))  # the frames' vote: all sure
    assert session.refusal is None and isinstance(session.history[-2], LayDown)


def test_the_vote_still_unsure_opens_the_correction_without_reading_again(session: KalookiSession) -> None:
    drawn(session)
    session.handle(ButtonEvent(0, "press"))
    session.handle(Seen(Table(OPENING, Card.parse("4D"), unsure=(5,)), kind="requested"))
    session.handle(Seen(Table(OPENING, Card.parse("4D"), unsure=(5,)), kind="requested"))
    assert requests(session) == [1, VOTE_FRAMES]  # once per press
    assert session.refusal is not None and session.refusal.code == "cards_unsure"
    assert isinstance(session.stage, Correcting)


@pytest.mark.parametrize(
    ("seen", "code"),
    [
        ([cards("KH QH JH")], "opening_too_low"),  # the rules would refuse it
        ([cards("QH JH 10H"), cards("9S 9D 9C")], None),  # legal: not read again
    ],
)
def test_a_reading_the_rules_would_refuse_is_read_again_first(
    session: KalookiSession, seen: list[list[Card]], code: str | None
) -> None:
    drawn(session)
    session.handle(ButtonEvent(0, "press"))
    session.handle(Seen(Table(seen, Card.parse("4D")), kind="requested"))
    assert requests(session) == ([1, VOTE_FRAMES] if code else [1])
    if code:
        assert session.refusal is None  # not yet: the frames vote first
        session.handle(Seen(Table(seen, Card.parse("4D")), kind="requested"))
        assert session.refusal is not None and session.refusal.code == code


def test_cards_of_the_accepted_table_not_seen_are_read_again(session: KalookiSession) -> None:
    drawn(session)
    session.handle(ButtonEvent(0, "press"))
    session.handle(Seen(Table(OPENING, Card.parse("4D")), kind="requested"))
    assert len(session.deal.table) == 2
    session.handle(Seen(Table(OPENING, Card.parse("4D")), kind="settled"))
    # Seat 1: draws, and one frame misses the set's last card (an unsure card elsewhere).
    session.handle(ButtonEvent(1, "press"))
    short = Table([cards("KH QH JH 10H"), cards("9S 9D"), cards("5C 6C 7C")], Card.parse("8D"), unsure=(6,))
    session.handle(Seen(short, kind="requested"))
    assert requests(session)[-1] == VOTE_FRAMES and session.refusal is None


def test_no_vote_frames_no_vote(session: KalookiSession) -> None:
    session.vote_frames = 0
    drawn(session)
    session.handle(ButtonEvent(0, "press"))
    session.handle(Seen(Table(OPENING, Card.parse("4D"), unsure=(5,)), kind="requested"))
    assert requests(session) == [1] and session.refusal is not None and session.refusal.code == "cards_unsure"
