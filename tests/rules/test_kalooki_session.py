"""A Kalooki session: several deals, running totals, the outcome, the registry and the CLI."""

from __future__ import annotations

import pytest

import rules
from device.cli import main
from rules import IllegalAction
from rules.kalooki import DrawStock, HandPoints, KalookiOptions, RevealHand, auto_play, describe, new_session
from rules.outcome import Termination


def test_a_session_of_three_deals_keeps_running_totals() -> None:
    options = KalookiOptions(players=3, seed=4, deals=3, pool_cents=3000)
    session = auto_play(options)
    assert len(session.results) == 3
    assert session.totals == tuple(sum(r.penalties[s] for r in session.results) for s in range(3))
    assert sum(session.winnings) == 3 * 3000
    assert [r.penalties[r.winner] for r in session.results] == [0, 0, 0]
    outcome = session.outcome
    assert outcome is not None and outcome.termination == Termination.ROUNDS_PLAYED
    assert outcome.scores == session.totals
    assert min(session.totals) in [session.totals[w] for w in outcome.winners]
    with pytest.raises(IllegalAction) as info:
        session.apply(DrawStock())
    assert info.value.code == "game_over"


def test_deals_rotate_the_first_player() -> None:
    session = new_session(KalookiOptions(players=3, seed=4, deals=3))
    assert session.deal.turn == 0 and session.outcome is None
    assert rules.kalooki.new_deal(session.options, 1).turn == 1


def test_registered_game() -> None:
    spec = rules.get_game("kalooki")
    assert set(spec.titles) == set(rules.LANGUAGES)
    options = spec.options_type.preset("seed", players=2, seed=9)
    final = spec.auto_play(options)
    assert final.outcome is not None
    assert final == rules.kalooki.auto_play(KalookiOptions(players=2, seed=9))
    assert "Penalty totals" in spec.describe(final)


def test_referee_play_prints_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "kalooki", "--players", "3", "--seed", "1", "--auto"]) == 0
    out = capsys.readouterr().out
    assert "Kalooki, 3 players, seed 1" in out
    assert "wins" in out and "Places" in out


def test_describe_hides_hands_in_referee_mode_until_revealed() -> None:
    session = auto_play(KalookiOptions(players=2, seed=2, mode="referee", pool_cents=1000))
    text = describe(session)
    assert "(hidden)" not in text
    assert "pool 10.00 (slice)" in text
    assert "(hidden)" in describe(new_session(KalookiOptions(players=2, mode="referee")))


def test_a_referee_session_with_points_entered_replays_from_its_actions() -> None:
    options = KalookiOptions(players=3, seed=5, deals=2, mode="referee", pool_cents=1000)
    journal: list[rules.Action] = []
    final = auto_play(options, journal)
    points = [a for a in journal if isinstance(a, HandPoints)]
    assert points and any(isinstance(a, RevealHand) for a in journal)
    stored = [rules.action_to_json(a) for a in journal]
    assert rules.replay(options, [rules.action_from_json(a) for a in stored]) == final
    full = auto_play(options.replace(mode="full"))  # the same cards, every hand known
    assert [r.penalties for r in final.results] == [r.penalties for r in full.results]
