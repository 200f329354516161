"""Catalogues: every text the screens draw is translated in pl, hu and de; box names as players know
them; the language switches at run time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import device
from device.i18n import LANGUAGES, LOCALE_DIR, Translator, load_catalogue, parse_po
from device.ui.names import box_name
from rules import poker_dice, yahtzee
from tests.device.helpers import sheet_texts, start, tap

SOURCE = Path(device.__file__).parent
# A text to translate: the first argument of a translating call — ``self._``, ``screen._`` (a panel's
# screen), ``_``, ``gettext`` — one string or adjacent strings the compiler joins.
LITERAL = r'"(?:[^"\\\n]|\\.)*"'
CALL = re.compile(
    r"(?:(?<![\w.])\w+\._|(?<![\w.])_|(?<!p)gettext|tr\.format|(?<![\w.])msgid)\(\s*"
    rf"((?:{LITERAL}\s*)+)"
)
REFUSAL_CODES = (
    "game_over",
    "no_roll",
    "roll_first",
    "too_many_rolls",
    "nothing_to_hold",
    "invalid_hold",
    "held_die_changed",
    "unknown_box",
    "box_filled",
    "joker_forced",
    "voluntary_zero",
    "unknown_action",
    "not_your_turn",
    "choose_box_first",
    "no_camera",
)


def texts_in_code() -> set[str]:
    found: set[str] = set()
    for path in SOURCE.rglob("*.py"):
        for literals in CALL.findall(path.read_text(encoding="utf-8")):
            text = "".join(re.findall(r'"((?:[^"\\\n]|\\.)*)"', literals))
            if text:
                found.add(text)
    return found


def test_the_code_has_texts_to_translate() -> None:
    assert {"Choose a game", "Roll {n} of {total}", "Winner: {names}", "Review"} <= texts_in_code()


@pytest.mark.parametrize("language", ["pl", "hu", "de"])
def test_every_screen_text_is_translated(language: str) -> None:
    catalogue = load_catalogue(language)
    missing = sorted(t for t in texts_in_code() if catalogue.lookup("", t) is None)
    assert not missing


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_box_bonus_and_refusal_has_a_text(language: str) -> None:
    tr = Translator(language)
    catalogue = load_catalogue(language)
    bonuses = {"yahtzee": ("upper", "yahtzee_bonus"), "poker_dice": ("small", "large", "joker")}
    for game, boxes in (("yahtzee", yahtzee.BOXES), ("poker_dice", poker_dice.BOXES)):
        for box in (*boxes, *bonuses[game]):
            english = box.replace("_", " ").capitalize()
            assert language == "en" or catalogue.lookup(game, english) is not None, (game, box)
    for code in REFUSAL_CODES:
        assert tr.pgettext("rule", code) != code, (language, code)


@pytest.mark.parametrize("language", LANGUAGES)
def test_placeholders_survive_translation(language: str) -> None:
    catalogue = load_catalogue(language)
    for (_, msgid), msgstr in catalogue.messages.items():
        assert set(re.findall(r"{\w+}", msgid)) == set(re.findall(r"{\w+}", msgstr)) or msgid.islower(), msgid


def test_polish_box_names_as_players_know_them() -> None:
    tr = Translator("pl")
    general = [box_name(tr, "yahtzee", b) for b in yahtzee.BOXES]
    assert general[:6] == ["Jedynki", "Dwójki", "Trójki", "Czwórki", "Piątki", "Szóstki"]
    assert general[-2:] == ["Generał", "Szansa"]
    kosci = [box_name(tr, "poker_dice", b) for b in poker_dice.BOXES[6:]]
    assert kosci == [
        "Para",
        "Dwie pary",
        "Trójka",
        "Mały strit",
        "Duży strit",
        "Full",
        "Kareta",
        "Poker",
        "Ratunek",
    ]


def test_po_parser_reads_contexts_continuations_and_skips_fuzzy() -> None:
    text = """
msgid ""
msgstr "Language: pl\\n"

msgctxt "yahtzee"
msgid "Chance"
msgstr "Sza"
"nsa"

#, fuzzy
msgid "Back"
msgstr "Nie"

msgid "Say \\"hi\\""
msgstr "Powiedz \\"cześć\\""
"""
    assert parse_po(text) == {("yahtzee", "Chance"): "Szansa", ("", 'Say "hi"'): 'Powiedz "cześć"'}
    with pytest.raises(ValueError, match="line 2"):
        parse_po('msgid "a"\nnonsense\n')


def test_catalogues_are_valid_po_files() -> None:
    for language in LANGUAGES:
        path = LOCALE_DIR / language / "LC_MESSAGES" / "referee.po"
        assert parse_po(path.read_text(encoding="utf-8")) or language == "en"


def test_language_switch_at_run_time(make_app) -> None:
    app = make_app()
    start(app, "Generał (classic)")
    tap(app, "Sheets")
    assert "Chance" in sheet_texts(app)
    tap(app, "Menu")
    for d in "0000":
        tap(app, d)
    tap(app, "OK")
    tap(app, "HU")
    tap(app, "Vissza")
    assert app.screen.name == "dice_table"
    assert {"Esély", "Egyesek", "Összesen"} <= sheet_texts(app)
    assert app.journal.setting("language") == "hu"


@pytest.mark.parametrize("language", LANGUAGES)
def test_kalooki_refusals_are_its_own_sentences(language: str) -> None:
    """Kalooki's refusal codes are short words other games use too (Rummikub refuses an
    ``invalid_meld`` of tiles): its sentences are keyed ``kalooki_<code>``, every one translated."""
    from device.sessions.kalooki import KalookiSession
    from rules import kalooki

    tr = Translator(language)
    catalogue = load_catalogue(language)
    own = KalookiSession.own_rule_texts
    assert set(kalooki.CODES) - {"game_over"} <= own and "not_your_turn" not in own
    for code in own:
        key = KalookiSession.rule_key(code)
        assert key == f"kalooki_{code}" and tr.pgettext("rule", key) != key, (language, code)
        assert catalogue.lookup("rule", code) is None, (language, code)  # no sentence another game would get
    assert KalookiSession.rule_key("game_over") == "game_over"
