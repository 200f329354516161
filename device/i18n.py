"""Translations: gettext catalogues (``device/locale/<lang>/LC_MESSAGES/referee.po``), switchable at run time.

The ``.po`` files are the source and are read directly at start (a few kB, parsed in milliseconds), so a
fresh clone needs no ``msgfmt``. Message ids are the English texts; box names and other words that mean
different things in different games carry a context (``msgctxt "poker_dice"``).

>>> tr = Translator("pl")
>>> tr.pgettext("poker_dice", "Chance")
'Ratunek'
>>> tr.set_language("de")
>>> tr.gettext("Players")
'Spieler'
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["LANGUAGES", "LOCALE_DIR", "Catalogue", "Translator", "parse_po"]

LANGUAGES = ("pl", "hu", "de", "en")
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "referee"


@dataclass(frozen=True)
class Catalogue:
    """One language: ``(context, msgid) -> msgstr``; ``context`` is ``""`` when there is none."""

    language: str
    messages: dict[tuple[str, str], str]

    def lookup(self, context: str, msgid: str) -> str | None:
        text = self.messages.get((context, msgid))
        return text or None


def parse_po(text: str) -> dict[tuple[str, str], str]:
    """The translated entries of a ``.po`` file (untranslated and fuzzy entries are left out).

    >>> parse_po('msgctxt "yahtzee"\\nmsgid "Chance"\\nmsgstr "Szansa"\\n')
    {('yahtzee', 'Chance'): 'Szansa'}
    """
    out: dict[tuple[str, str], str] = {}
    entry: dict[str, str] = {}
    field = ""
    fuzzy = False

    def flush() -> None:
        nonlocal entry, fuzzy
        msgid = entry.get("msgid")
        msgstr = entry.get("msgstr", "")
        if msgid and msgstr and not fuzzy:
            out[(entry.get("msgctxt", ""), msgid)] = msgstr
        entry = {}
        fuzzy = False

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            flush()
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid", "msgstr"):
            if keyword in ("msgctxt", "msgid") and "msgstr" in entry:
                flush()
            field = keyword
            entry[field] = _po_string(rest, number)
        elif line.startswith('"') and field:
            entry[field] += _po_string(line, number)
        else:
            raise ValueError(f"line {number}: cannot read {raw!r}")
    flush()
    return out


def _po_string(token: str, number: int) -> str:
    token = token.strip()
    if not (len(token) >= 2 and token[0] == token[-1] == '"'):
        raise ValueError(f"line {number}: expected a quoted string, got {token!r}")
    value = ast.literal_eval(token)
    if not isinstance(value, str):
        raise ValueError(f"line {number}: expected a string, got {token!r}")
    return value


@cache
def load_catalogue(language: str, locale_dir: Path = LOCALE_DIR) -> Catalogue:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; allowed values: {', '.join(LANGUAGES)}")
    path = locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    return Catalogue(language, parse_po(path.read_text(encoding="utf-8")))


class Translator:
    """The current language of the appliance; screens ask it for every text at draw time, so a switch
    takes effect on the next frame. Texts missing from a catalogue fall back to the English id."""

    def __init__(self, language: str = "en") -> None:
        self._catalogue = load_catalogue(language)

    @property
    def language(self) -> str:
        return self._catalogue.language

    def set_language(self, language: str) -> None:
        self._catalogue = load_catalogue(language)

    def gettext(self, msgid: str) -> str:
        return self._catalogue.lookup("", msgid) or msgid

    def pgettext(self, context: str, msgid: str) -> str:
        return self._catalogue.lookup(context, msgid) or self._catalogue.lookup("", msgid) or msgid

    def format(self, msgid: str, **values: object) -> str:
        """``gettext`` then ``str.format``: ``tr.format("Turn {n}", n=3)``."""
        return self.gettext(msgid).format(**values)
