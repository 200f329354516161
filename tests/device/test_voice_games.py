"""The scripted games in the simulator say, in order, what a person at the table expects — in each of
the four languages, checked from the speech worker's log.

The expected sentences are built here from the game's journal (whose move, the dice, the box and its
points) and from what the script does at each of its first turns (a refusal, the clock's warning, a
timeout); the narrator is not asked. A few of them are also spelled out word for word.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from device.i18n import LANGUAGES, Translator
from device.simulator import Simulator
from device.voice import sentence
from rules.dice import Choose, RollDice
from tests.device.conftest import make_config
from tests.device.voice_games import Driver, log_kinds_and_texts, voiced

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "docs" / "scripts"
NAMES = ["Ala", "Ola"]


def general_expected(session: Any) -> list[tuple[str, dict[str, Any]]]:
    """What the Generał script's game should make the referee say, from its journal: each turn whose
    move it is, each roll read aloud, the box and its points; the script's refusals, warnings and
    timeouts in its first four turns; the winner."""
    state = session.spec.new_game(session.options)
    turns: list[dict[str, Any]] = []
    for act in session.history:
        player = state.to_move
        if state.rolls_used == 0 and isinstance(act, RollDice):
            turns.append({"player": player, "rolls": [], "box": None})
        if isinstance(act, RollDice):
            turns[-1]["rolls"].append(act.dice.values)
        elif isinstance(act, Choose):
            turns[-1]["box"], turns[-1]["points"] = act.box, state.choices()[act.box]
        state = state.apply(act)
    assert len(turns) == 26
    said: list[tuple[str, dict[str, Any]]] = []
    for number, turn in enumerate(turns, start=1):
        name = NAMES[turn["player"]]
        assert name == NAMES[(number - 1) % 2]
        rolls = [("roll", {"dice": dice}) for dice in turn["rolls"]]
        box = {"name": name, "game": "yahtzee", "box": turn["box"], "points": turn["points"]}
        said.append(("your_move", {"name": name}))
        if number == 1:
            said += rolls
            said.append(("refusal", {"rule": "choose_box_first", "details": {}}))
            said.append(("refusal", {"rule": "not_your_turn", "details": {"seat": 1, "to_move": 0}}))
            said.append(("score", box))
        elif number == 2:
            said.append(("refusal", {"rule": "roll_first", "details": {}}))
            said += rolls
            said.append(("score", box))
        elif number == 3:
            said.append(("time_warning", {"seconds": 10}))
            said.append(("timeout_roll", {"name": name}))
            said += rolls
            said.append(("timeout_box", box))
        elif number == 4:
            said += rolls
            said.append(("time_warning", {"seconds": 10}))
            said.append(("timeout_box", box))
        else:
            said += rolls
            said.append(("score", box))
    outcome = session.state.outcome
    winners = [NAMES[s] for s in outcome.winners]
    said.append(("game_over", {"names": winners, "points": outcome.scores[outcome.winners[0]]}))
    return said


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_scripted_general_game_says_what_the_table_expects(
    language: str, make_app, clock, tmp_path: Path
) -> None:
    config = make_config(tmp_path, device={"state_dir": str(tmp_path), "language": language})
    app = make_app(config=config)
    log = tmp_path / "voice.log"
    voice = voiced(app, log, messages=["turn", "timer", "refusals", "rolls", "scores", "results"])
    try:
        sim = Simulator(app, seed=7)
        app.set_move_seconds("yahtzee", 30)
        options = app.settings.game_options("yahtzee", players=2, seed=7)
        app.start_game(options, list(NAMES))
        driver = Driver(app, sim, clock, voice)
        driver.frame()
        driver.play_file(SCRIPTS / "general-voice.txt", "yahtzee")
        session = app.session
        assert session is not None and session.finished
        said = log_kinds_and_texts(log)
    finally:
        voice.close()
    tr = Translator(language)
    expected = [(kind, sentence(tr, kind, **params)) for kind, params in general_expected(session)]
    assert said == expected
    words = {
        "pl": ("Ala, twój ruch.", "Najpierw wybierz kategorię na ekranie.", "Zostało 10 sekund."),
        "hu": ("Ala, te jössz.", "Előbb válassz rovatot a képernyőn.", "Még 10 másodperc."),
        "de": ("Ala, du bist dran.", "Wähle zuerst ein Feld auf dem Bildschirm.", "Noch 10 Sekunden."),
        "en": ("Ala, your move.", "Choose a box on the screen first.", "10 seconds left."),
    }[language]
    texts = [text for _, text in said]
    assert texts[0] == words[0] and words[1] in texts and words[2] in texts
    assert said[-1][0] == "game_over" and any(name in said[-1][1] for name in NAMES)


def rummikub_expected(session: Any, script: str) -> list[tuple[str, dict[str, Any] | None]]:
    """What the Rummikub script's game should make the referee say, from its journal: whose move it
    is, the tiles laid or drawn, what each timeout did (and the restore), a hand's and the game's
    winner; the loose tile refused in the first player's second move; a tie in a starting draw is
    refused (``None``: its drawn number is the simulated table's)."""
    from rules.rummikub import Draw, NextHand, Play, Start, Timeout

    reads = [part.count("tap Read the drawn tiles") for part in script.split("tap Next hand")]
    state = session.spec.new_game(session.options)
    said: list[tuple[str, dict[str, Any] | None]] = []
    moves = [0, 0]
    hand = 0

    def next_move(after: Any) -> None:
        if after.to_move is not None:
            moves[after.to_move] += 1
            said.append(("your_move", {"name": NAMES[after.to_move]}))

    for act in session.history:
        before, state = state, state.apply(act)
        mover = before.to_move
        name = NAMES[mover] if mover is not None else ""
        moved = abs(state.rack_counts[mover] - before.rack_counts[mover]) if mover is not None else 0
        if isinstance(act, Start):
            said += [("refusal", None)] * (reads[hand] - 1)
            next_move(state)
        elif isinstance(act, Play | Draw):
            if mover == 0 and moves[0] == 2:
                said.append(("refusal", {"rule": "rummikub_invalid_meld_too_few", "details": {}}))
            if isinstance(act, Play):
                said.append(("tiles_laid", {"name": name, "tiles": moved}))
            else:
                said.append(("tile_drawn", {"name": name}))
            next_move(state)
        elif isinstance(act, Timeout):
            said.append(("time_warning", {"seconds": 10}))
            if act.manipulated:
                said.append(("timeout_restore", {"name": name, "tiles": moved}))
                said += [("restore_table", {}), ("table_restored", {})]
            else:
                said.append(("timeout_draw", {"name": name, "tiles": moved}))
            next_move(state)
        elif isinstance(act, NextHand):
            hand += 1
        if state.between_hands and not before.between_hands:
            last = state.hand_scores[-1]
            winners = [NAMES[s] for s, points in enumerate(last) if points == max(last)]
            said.append(("hand_over", {"names": winners, "points": max(last)}))
    outcome = session.state.outcome
    winners = [NAMES[s] for s in outcome.winners]
    said.append(("game_over", {"names": winners, "points": outcome.scores[outcome.winners[0]]}))
    return said


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_scripted_rummikub_game_says_what_the_table_expects(
    language: str, make_app, clock, tmp_path: Path
) -> None:
    from tests.device.voice_games import RUMMIKUB_OPTIONS, RUMMIKUB_SEED

    config = make_config(tmp_path, device={"state_dir": str(tmp_path), "language": language})
    app = make_app(config=config)
    log = tmp_path / "voice.log"
    voice = voiced(app, log)
    script = (SCRIPTS / "rummikub-voice.txt").read_text(encoding="utf-8")
    try:
        sim = Simulator(app, seed=RUMMIKUB_SEED)
        app.start_game(app.settings.game_options("rummikub", **RUMMIKUB_OPTIONS), list(NAMES))
        driver = Driver(app, sim, clock, voice)
        driver.frame()
        driver.play_file(SCRIPTS / "rummikub-voice.txt", "rummikub")
        session = app.session
        assert session is not None and session.finished
        said = log_kinds_and_texts(log)
    finally:
        voice.close()
    tr = Translator(language)
    expected = rummikub_expected(session, script)
    assert [kind for kind, _ in said] == [kind for kind, _ in expected]
    for (kind, text), (_, params) in zip(said, expected, strict=True):
        if params is None:  # a tie in the starting draw: both drew the same number
            ties = [
                sentence(tr, "refusal", rule="rummikub_start_tie", details={"names": "Ala, Ola", "number": n})
                for n in range(14)
            ]
            assert text in ties
        else:
            assert text == sentence(tr, kind, **params), kind
    kinds = [kind for kind, _ in said]
    for wanted in (
        "timeout_restore",
        "restore_table",
        "table_restored",
        "timeout_draw",
        "hand_over",
        "refusal",
    ):
        assert wanted in kinds, wanted
    words = {
        "pl": (
            "Przywróćcie stół do stanu sprzed ruchu.",
            "Stół przywrócony.",
            "To nie jest układ: mniej niż trzy płytki.",
        ),
        "hu": (
            "Állítsátok vissza az asztalt, ahogy volt.",
            "Az asztal visszaállt.",
            "Ez nem kombináció: háromnál kevesebb lapka.",
        ),
        "de": (
            "Legt den Tisch zurück, wie er war.",
            "Tisch wiederhergestellt.",
            "Das ist keine Kombination: weniger als drei Steine.",
        ),
        "en": ("Restore the table as it was.", "Table restored.", "Not a meld: fewer than three tiles."),
    }[language]
    texts = [text for _, text in said]
    assert all(w in texts for w in words)
    assert texts.index(words[0]) + 1 == texts.index(words[1])  # restored right after "restore the table"
