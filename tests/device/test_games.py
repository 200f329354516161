"""Whole games driven by events the way a table plays them: taps, dice seen by the camera, seat
buttons — from the home screen to the ranking; the journal replays to the same result."""

from __future__ import annotations

import random

import rules
from device.events import Key
from device.sessions.dice import DiceSession
from device.ui.names import box_name
from tests.device.helpers import check_layout, press, roll, seat_to_move, sheet_texts, start, start_dice, tap


def play_turn(app, rng: random.Random, *, reroll: bool) -> None:
    session = app.session
    assert isinstance(session, DiceSession)
    seat = seat_to_move(session)
    values = [rng.randint(1, 6) for _ in range(5)]
    roll(app, values)
    if reroll:
        # Keep the first two dice in the hold zone and roll the others again.
        again = values[:2] + [rng.randint(1, 6) for _ in range(3)]
        roll(app, [*again[2:], *again[:2]], held=(3, 4))
        assert session.dice is not None and session.dice.values == tuple(again)
        assert session.rolls_used == 2
    check_layout(app)
    choices = session.choices()
    box = max(choices, key=lambda b: (choices[b], b)) if rng.random() < 0.7 else rng.choice(list(choices))
    page = box.partition(":")[0] if ":" in box else None
    if page:
        tap(app, f"×{page}")
    tap(app, box_name(app.tr, session.spec.name, box))
    assert session.selected == box
    filled_before = session.game_state.sheets[seat].get(box)
    assert filled_before is None
    press(app, seat)


def play_game(app, rng: random.Random) -> None:
    while app.session is not None and not app.session.finished:
        play_turn(app, rng, reroll=rng.random() < 0.4)


def assert_journal_matches(app) -> None:
    session = app.session
    stored = app.journal.game(session.game_id)
    actions = [rules.action_from_json(a.action) for a in app.journal.actions(stored.id)]
    replayed = rules.replay(session.options, actions)
    assert replayed.outcome == session.state.outcome
    assert stored.scores == session.state.outcome.scores
    assert stored.finished is not None


def test_a_whole_general_game(make_app) -> None:
    app = make_app()
    rng = random.Random(7)
    tap(app, "Generał (classic)")
    assert app.screen.name == "players"
    tap(app, "+")
    tap(app, "Player 1")
    for key in "ALA":
        tap(app, key)
    tap(app, "Done")
    assert app.screen.name == "players"
    tap(app, "Start")
    session = app.session
    assert session is not None and session.spec.name == "yahtzee" and len(session.players) == 3
    assert session.players[0].name == "Ala"
    play_game(app, rng)
    assert app.screen.name == "end"
    app.step()
    check_layout(app)
    texts = app.canvas.texts()
    outcome = session.state.outcome
    for name, score in zip(("Ala", "Player 2", "Player 3"), outcome.scores, strict=True):
        assert name in texts and str(score) in texts
    assert any(t.startswith("Winner:") for t in texts)
    assert_journal_matches(app)
    tap(app, "Home")
    assert app.screen.name == "home" and app.session is None
    tap(app, "History")
    assert "Ala" in " ".join(app.canvas.texts())


def test_a_whole_kosci_game_in_polish(make_app) -> None:
    app = make_app()
    rng = random.Random(11)
    tap(app, "PL")
    session = start(app, "Kości")
    assert session.spec.name == "poker_dice"
    assert {"Jedynki", "Ratunek", "Kareta", "Dwie pary"} <= sheet_texts(app)
    play_game(app, rng)
    assert app.screen.name == "end"
    app.step()
    assert "Koniec gry" in app.canvas.texts()
    assert_journal_matches(app)


def test_a_whole_triple_general_game_solo(make_app) -> None:
    app = make_app()
    rng = random.Random(5)
    tap(app, "Triple Generał")
    session = start_dice(app, "−")
    assert len(session.players) == 1 and len(session.game_state.sheets[0].boxes) == 39
    play_game(app, rng)
    assert app.screen.name == "end"
    assert_journal_matches(app)


def test_arrows_pick_a_box_and_enter_confirms(make_app) -> None:
    import pygame

    app = make_app()
    session = start_dice(app, "Generał (classic)")
    seat = seat_to_move(session)
    roll(app, (2, 2, 2, 5, 5))
    app.post(Key(pygame.K_RIGHT))
    app.step()
    first = session.selected
    app.post(Key(pygame.K_RIGHT))
    app.step()
    assert session.selected != first and session.selected in session.choices()
    chosen = session.selected
    app.post(Key(pygame.K_RETURN))
    app.step()
    assert chosen is not None and session.game_state.sheets[seat].get(chosen) is not None
