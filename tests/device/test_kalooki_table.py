"""Kalooki at the table (referee mode): entries tapped on the card picker through the real loop, each
refusal by its rule, the deal's penalties and payouts on screen equal to ``kalooki.payouts``, resume on
the same journal, the screens' structure, and whole games played by the simulated players' taps."""

from __future__ import annotations

import csv
import io
import json

import pytest

import rules
from device.app import App
from device.config import ConfigError, config_from_dict
from device.events import Event, Tap
from device.export import to_csv, to_json
from device.i18n import LANGUAGES, Translator
from device.sessions.kalooki import KalookiSession, Picker, money
from device.sessions.kalooki_sim import KalookiTable
from device.simulator import Simulator
from device.ui.names import refusal_text
from rules.kalooki import Card, parse_cards, payouts
from tests.device.conftest import make_config
from tests.device.helpers import check_layout, labels, phase_of, press, tap

SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def start(app: App) -> KalookiSession:
    tap(app, "Kalooki")
    tap(app, "Start")
    session = app.session
    assert isinstance(session, KalookiSession) and app.screen.name == "kalooki_table"
    assert session.kalooki.options.mode == "referee"  # the hands are the players'
    return session


def taps(app: App, *steps: str) -> None:
    """Tap each target: ``7 ♥ to 10`` style steps (a suit symbol taps that suit)."""
    for step in steps:
        words = step.replace("recent ", "recent_").replace("meld ", "meld_").split()
        for word in (w.replace("_", " ") for w in words):
            label = f"suit {SUIT[word]}" if word in SUIT else app.tr.format(word) if word == "to" else word
            app.step()
            target = next((t for t in app.canvas.targets if t.label == label), None)
            assert target is not None, (label, labels(app))
            app.post(Tap(target.rect.center))
            app.step()


def button(app: App, text: str) -> None:
    tap(app, app.tr.format(text))


def refused(app: App, code: str) -> None:
    session = app.session
    assert session is not None and session.refusal is not None, code
    assert session.refusal.code == code, session.refusal
    refusal = session.refusal
    app.step()
    # The rule has its sentence, Kalooki's own unless every game shares it (not_your_turn).
    assert refusal.key == (code if code == "not_your_turn" else f"kalooki_{code}")
    assert app.tr.pgettext("rule", refusal.key) != refusal.key
    sentence = refusal_text(app.tr, refusal)
    shown = " ".join(app.canvas.texts())
    assert sentence.split()[0] in shown, (sentence, shown)


def test_the_picker_makes_cards_runs_and_undoes() -> None:
    picker = Picker()
    picker.tap_rank(7)
    picker.tap_suit("H")
    picker.tap_to()
    picker.tap_rank(10)
    assert picker.cards == parse_cards("7H 8H 9H 10H")
    picker.tap_suit("S")
    picker.tap_rank(1)  # suit first, then rank
    picker.tap_to()
    picker.tap_rank(3)
    assert picker.cards[-3:] == parse_cards("AS 2S 3S")
    picker.keep_meld()
    picker.tap_rank(11)
    picker.tap_suit("D")
    picker.tap_to()
    picker.tap_rank(1)  # up to the high ace
    assert picker.melds()[-1] == tuple(parse_cards("JD QD KD AD"))
    picker.back()
    picker.back()
    picker.back()
    picker.back()
    assert picker.melds() == (tuple(parse_cards("7H 8H 9H 10H AS 2S 3S")),)
    picker.back()
    assert picker.groups == [] and len(picker.cards) == 7


@pytest.fixture
def money_app(make_app, tmp_path):
    config = make_config(tmp_path, games={"kalooki": {"deals": 2, "pool_cents": 1000, "payout": "slice"}})
    return make_app(config=config)


def test_a_deal_entered_by_taps_with_every_refusal_and_the_payouts(money_app) -> None:
    app = money_app
    session = start(app)
    press(app, 1)
    refused(app, "pick_one_card")  # the turned-up card: one card
    taps(app, "A ♠")
    button(app, "Turned-up card")
    assert session.deal.discard_top == Card.parse("AS") and session.phase == "draw"
    press(app, 1)
    refused(app, "not_your_turn")
    press(app, 0)
    refused(app, "draw_first")
    button(app, "Stock")
    assert phase_of(session) == "play" and session.deal.counts[0] == 14
    button(app, "Lay down")
    refused(app, "pick_cards_first")
    taps(app, "2 ♥ to 4")
    button(app, "Lay down")
    refused(app, "opening_too_low")
    assert "9" in " ".join(app.canvas.texts())  # worth 9 of the 51 needed
    button(app, "Clear")
    taps(app, "2 ♥ 5 ♠ 9 ♣")
    button(app, "Lay down")
    refused(app, "invalid_meld")
    button(app, "Clear")
    taps(app, "10 ♥ to K")
    button(app, "+ Meld")
    taps(app, "A ♥ A ♦ recent AS")  # the turned-up card is offered among the recent ones
    button(app, "Lay down")
    assert len(session.deal.table) == 2 and session.deal.opened[0] and session.deal.counts[0] == 7
    meld_texts = [d.text for d in app.canvas.log if d.kind == "meld"]
    assert meld_texts == ["10H JH QH KH", "AH AD AS"]
    taps(app, "A ♣")
    taps(app, "meld 2")  # built on the set of aces
    assert session.deal.table[1].cards == tuple(parse_cards("AH AD AS AC"))
    taps(app, "A ♠")
    button(app, "Discard")
    refused(app, "too_many_copies")  # a third ace of spades: the two decks hold two
    button(app, "Clear")
    taps(app, "5 ♣ 6 ♣")
    button(app, "Discard")
    refused(app, "pick_one_card")
    taps(app, "<")
    press(app, 0)  # the seat button discards the entry's one card and ends the turn
    assert session.deal.discard_top == Card.parse("5C") and session.current_seat == 1
    button(app, "Discard pile")
    taps(app, "recent 5C")
    taps(app, "meld 1")
    refused(app, "not_opened")
    taps(app, "<", "9 ♦")
    press(app, 1)
    # Seat 0 goes out: a new meld, two cards built on the run (below it and above it), the discard.
    button(app, "Stock")
    taps(app, "2 ♣ to 4")
    button(app, "Lay down")
    taps(app, "9 ♥", "meld 1", "A ♥", "meld 1")
    assert session.deal.table[0].cards == tuple(parse_cards("9H 10H JH QH KH AH"))
    assert session.deal.counts[0] == 1
    taps(app, "8 ♠")
    press(app, 0)
    assert phase_of(session) == "reveal" and session.revealing() == 1
    app.step()
    assert any("holds 13 cards" in t for t in app.canvas.texts())
    taps(app, "2 ♠ to 10")
    button(app, "Enter hand")
    refused(app, "hand_count")  # 9 cards for a hand of 13
    taps(app, "J ♦ to A")
    button(app, "Enter hand")
    assert len(session.kalooki.results) == 1 and phase_of(session) == "turn_up"
    result = session.kalooki.results[0]
    penalty = sum(range(2, 11)) + 10 + 10 + 10 + 11
    assert result.penalties == (0, penalty) and not result.kalooki
    expected = payouts(1000, [0, penalty], winner=0, formula="slice")
    assert list(result.payouts) == expected == [988, 12]
    app.step()
    texts = app.canvas.texts()
    assert {money(988), money(12), str(penalty)} <= set(texts)
    check_layout(app)


def test_a_run_is_built_at_either_end_and_a_joker_released(make_app) -> None:
    app = make_app()
    session = start(app)
    taps(app, "K ♣")
    press(app, 0)
    button(app, "Stock")
    taps(app, "5 ♥ Joker 7 ♥ 8 ♥ 9 ♥ 10 ♥ J ♥")
    button(app, "Lay down")
    assert session.deal.opened[0]
    taps(app, "4 ♥")
    taps(app, "meld 1")  # built at the low end
    taps(app, "6 ♥")
    taps(app, "meld 1")  # the card the joker stands for: the joker is released into the hand
    assert session.deal.jokers_owed == 1
    taps(app, "Q ♥")
    taps(app, "meld 1")
    taps(app, "8 ♠")
    press(app, 0)
    refused(app, "joker_not_laid")
    taps(app, "<", "Joker")
    taps(app, "meld 1")
    assert session.deal.table[0].cards[-1].is_joker and session.deal.jokers_owed == 0
    taps(app, "8 ♠")
    press(app, 0)
    assert session.current_seat == 1


def test_a_game_resumes_on_a_new_app_at_the_same_point(make_app) -> None:
    app = make_app()
    session = start(app)
    taps(app, "K ♣")
    press(app, 0)
    button(app, "Discard pile")
    taps(app, "9 ♠ to J")
    button(app, "+ Meld")
    taps(app, "Q ♦ Q ♠ Q ♥")
    button(app, "Lay down")
    state = session.kalooki
    app.journal.close()
    again = make_app()
    resumed = again.session
    assert isinstance(resumed, KalookiSession) and again.screen.name == "kalooki_table"
    assert resumed.kalooki == state and resumed.phase == "play"
    taps(again, "4 ♦")
    press(again, 0)
    assert resumed.current_seat == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_screens_keep_their_structure(make_app, language) -> None:
    app = make_app()
    app.set_language(language)
    tap(app, rules.get_game("kalooki").title(language))
    tap(app, Translator(language).format("Start"))
    check_layout(app)
    taps(app, "K ♣")
    press(app, 0)
    check_layout(app)
    button(app, "Stock")
    taps(app, "9 ♠ to J")
    check_layout(app)
    button(app, "Lay down")
    check_layout(app)  # refused: the sentence fits too


def test_autoplay_plays_whole_games_through_the_picker(make_app, clock, monkeypatch) -> None:
    monkeypatch.setattr(KalookiTable, "mode", "picker")  # every action tapped (the camera path: its own test)
    app = make_app()
    sim = Simulator(app, seed=4, autoplay="kalooki")
    posted: list[object] = []
    real = app.post

    def recording(event: Event) -> None:
        posted.append(event)
        real(event)

    app.post = recording
    results_seen = set()
    for _ in range(20000):
        sim.poll()
        app.step()
        clock.advance(0.1)
        session = app.session
        if app.screen.name == "kalooki_table":
            check_layout(app)
            assert isinstance(session, KalookiSession)
            if session.phase == "turn_up" and session.kalooki.results:
                last = session.kalooki.results[-1]
                if len(session.kalooki.results) not in results_seen:
                    results_seen.add(len(session.kalooki.results))
                    texts = set(app.canvas.texts())
                    assert {money(a) for a in last.payouts} <= texts
        if app.screen.name == "end":
            break
    session = app.session
    assert isinstance(session, KalookiSession) and session.finished and app.screen.name == "end"
    options = session.kalooki.options
    for result in session.kalooki.results:
        expected = payouts(options.pool_cents, list(result.penalties), result.winner, options.payout)
        assert list(result.payouts) == expected and sum(expected) == options.pool_cents
    shown = " ".join(app.canvas.texts())
    for player, won in zip(session.players, session.kalooki.winnings, strict=True):
        assert f"{player.name} wins {money(won)}" in shown
    kinds = {type(a) for a in session.history}
    assert {rules.kalooki.RevealHand, rules.kalooki.HandPoints} <= kinds  # cards, or points on the pad
    table = sim.table
    assert isinstance(table, KalookiTable) and table.taps
    assert any(isinstance(e, Tap) for e in posted)
    # The export: each deal's payouts and each player's winnings, as rules.kalooki.payouts has them
    # and as the end screen shows them.
    expected_deals = [
        payouts(options.pool_cents, list(r.penalties), r.winner, options.payout)
        for r in session.kalooki.results
    ]
    winnings = [sum(deal[seat] for deal in expected_deals) for seat in range(len(session.players))]
    shown = " ".join(app.canvas.texts())
    for player, won in zip(session.players, winnings, strict=True):
        assert f"{player.name} wins {money(won)}" in shown
    rows = [r for r in csv.DictReader(io.StringIO(to_csv(app.journal))) if r["game"] == "kalooki"]
    assert [int(r["payout_cents"]) for r in rows] == winnings
    assert [r["player"] for r in rows] == [p.name for p in session.players]
    game = next(g for g in json.loads(to_json(app.journal))["games"] if g["game"] == "kalooki")
    assert [d["payouts"] for d in game["deals"]] == expected_deals
    assert [d["penalties"] for d in game["deals"]] == [list(r.penalties) for r in session.kalooki.results]
    assert game["payouts"] == winnings and game["pool_cents"] == options.pool_cents == 1000
    assert game["payout"] == options.payout
    replayed = rules.replay(
        options, [rules.action_from_json(a.action) for a in app.journal.actions(session.game_id)]
    )
    assert replayed.outcome == session.state.outcome


def test_a_loser_types_just_his_points_on_the_number_pad(make_app, tmp_path) -> None:
    config = make_config(tmp_path, games={"kalooki": {"deals": 2, "pool_cents": 1000, "payout": "slice"}})
    app = make_app(config=config)
    session = start(app)
    for act in (
        rules.kalooki.TurnUp(Card.parse("AS")),
        rules.kalooki.DrawStock(),
        rules.kalooki.LayDown(
            tuple(tuple(parse_cards(m)) for m in ("2H 3H 4H 5H 6H 7H 8H", "10S JS QS", "KD KC KH"))
        ),
        rules.kalooki.Discard(Card.parse("9C")),
    ):
        assert session.submit(act), session.refusal
    assert session.phase == "reveal" and session.revealing() == 1 and session.deal.kalooki
    button(app, "Points")
    assert session.pad == ""
    shown = labels(app)
    assert {str(d) for d in range(10)} <= set(shown) and "A" not in shown and "suit S" not in shown
    assert any("type their points" in t for t in app.canvas.texts())
    check_layout(app)
    button(app, "Enter points")
    refused(app, "type_points_first")
    taps(app, "9 9 9 9")  # three digits at most
    assert session.pad == "999"
    button(app, "Enter points")
    refused(app, "impossible_points")  # 13 cards: at most the two jokers, the 7 aces unseen, four tens
    assert any("167" in t for t in app.canvas.texts())
    check_layout(app)  # the refusal fits beside the pad
    taps(app, "< < <")
    assert session.pad == ""
    button(app, "Cards")
    assert session.pad is None and "A" in labels(app)
    button(app, "Points")
    taps(app, "1 2 0")
    press(app, 1)  # the seat button enters the points, as Enter points does
    assert len(session.kalooki.results) == 1 and session.phase == "turn_up" and session.pad is None
    assert session.history[-1] == rules.kalooki.HandPoints(1, 120)
    assert session.recent() == []  # a new deal: none of the last deal's cards are offered
    result = session.kalooki.results[0]
    assert result.kalooki and result.penalties == (0, 120 + 25)
    assert list(result.payouts) == payouts(1000, [0, 145], winner=0) == [1000, 0]
    app.step()
    assert {"145", money(1000), money(0)} <= set(app.canvas.texts())
    stored = [rules.action_from_json(a.action) for a in app.journal.actions(session.game_id)]
    assert stored[-1] == rules.kalooki.HandPoints(1, 120)
    assert rules.replay(session.options, stored) == session.kalooki
    state = session.kalooki
    app.journal.close()
    resumed = make_app(config=config).session  # the journal replays the points entered
    assert isinstance(resumed, KalookiSession) and resumed.kalooki == state


def test_the_move_timer_is_off_unless_set_then_30_to_120_seconds(make_app, tmp_path) -> None:
    app = make_app()
    session = start(app)
    assert session.timer.limit_seconds == 0 and not session.timer.enabled  # off by default
    app.journal.close()
    config = make_config(tmp_path / "timed", games={"kalooki": {"timer_seconds": 60}})
    app = make_app(config=config)
    assert start(app).timer.limit_seconds == 60
    screen = app.screens["settings"]
    app.show("settings")
    screen.unlocked = True
    assert screen.game == "kalooki"
    seen = []
    for _ in range(4):  # the steps up: never more than 120 s
        tap(app, "+", nth=0)
        seen.append(app.settings.timer_seconds("kalooki"))
    assert seen == [90, 120, 120, 120] and app.session.timer.limit_seconds == 120
    for _ in range(6):
        tap(app, "−", nth=0)
    assert app.settings.timer_seconds("kalooki") == 0 and "Off" in app.canvas.texts()
    tap(app, "+", nth=0)
    assert app.settings.timer_seconds("kalooki") == 30  # the least, once on
    app.settings.set_timer("kalooki", 180)  # saved by an older version
    assert app.settings.timer_seconds("kalooki") == 120
    for bad in (10, 180):
        with pytest.raises(ConfigError, match=r"games\.kalooki\.timer_seconds: .*30–120"):
            config_from_dict({"games": {"kalooki": {"timer_seconds": bad}}})
    with pytest.raises(ConfigError, match=r"games\.kalooki\.move_seconds"):
        config_from_dict({"games": {"kalooki": {"move_seconds": 200}}})


@pytest.mark.parametrize("players", [4, 5])
def test_the_end_screen_keeps_every_winning_above_the_buttons(make_app, tmp_path, players) -> None:
    table = {"deals": 2, "pool_cents": 10000, "max_players": 5}
    app = make_app(config=make_config(tmp_path, games={"kalooki": table}))
    options = app.settings.game_options("kalooki", players=players, seed=11)
    names = ["Aleksandra", "Ola", "Jan", "Eva", "Zbigniew"][:players]
    app.start_game(options, names)
    session = app.session
    assert isinstance(session, KalookiSession)
    journal: list[rules.Action] = []
    rules.kalooki.auto_play(session.kalooki.options, journal)  # the same seed: the same cards
    for act in journal:
        assert session.submit(act), (act, session.refusal)
    app.step()
    assert session.finished and app.screen.name == "end"
    check_layout(app)
    buttons = [d for d in app.canvas.log if d.kind == "button" and d.text in ("New game", "Home")]
    notes = [d for d in app.canvas.log if d.kind == "text" and " wins " in d.text]
    assert len(notes) == players and len(buttons) == 2
    top = min(b.rect[1] for b in buttons)
    assert all(d.rect[1] + d.rect[3] <= top for d in notes), (notes, top)
    for player, won in zip(session.players, session.kalooki.winnings, strict=True):
        assert f"{player.name} wins {money(won)}" in [d.text for d in notes]
