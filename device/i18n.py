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

Counted texts have plural forms (``msgid_plural``, ``msgstr[N]``), chosen by each language's rule
(:data:`PLURAL_RULES`, the catalogue's ``Plural-Forms`` header): Polish has three.

>>> pl = Translator("pl")
>>> [pl.npgettext("voice", "{n} second left.", "{n} seconds left.", n).format(n=n) for n in (1, 3, 5)]
['Została 1 sekunda.', 'Zostały 3 sekundy.', 'Zostało 5 sekund.']
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

__all__ = [
    "LANGUAGES",
    "LOCALE_DIR",
    "PLURAL_RULES",
    "Catalogue",
    "Translator",
    "msgid",
    "parse_po",
    "parse_po_plurals",
]

LANGUAGES = ("pl", "hu", "de", "en")
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "referee"

# Each language's gettext plural rule: the index of the ``msgstr[N]`` for a count, and the
# ``Plural-Forms`` header its catalogue declares (a test keeps the two in step).
PLURAL_RULES: dict[str, tuple[str, Callable[[int], int]]] = {
    "pl": (
        "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
        lambda n: 0 if n == 1 else 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2,
    ),
    "hu": ("nplurals=2; plural=(n != 1);", lambda n: int(n != 1)),
    "de": ("nplurals=2; plural=(n != 1);", lambda n: int(n != 1)),
    "en": ("nplurals=2; plural=(n != 1);", lambda n: int(n != 1)),
}


@dataclass(frozen=True)
class Catalogue:
    """One language: ``(context, msgid) -> msgstr``; ``context`` is ``""`` when there is none."""

    language: str
    messages: dict[tuple[str, str], str]
    # Counted texts: ``(context, msgid) -> (msgid_plural, the forms msgstr[0], msgstr[1], …)``.
    plurals: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = field(default_factory=dict)

    def lookup(self, context: str, msgid: str) -> str | None:
        text = self.messages.get((context, msgid))
        return text or None

    def lookup_plural(self, context: str, msgid: str, n: int) -> str | None:
        """The form of a counted text for ``n``, or ``None`` when the catalogue does not have it."""
        entry = self.plurals.get((context, msgid))
        if entry is None:
            return None
        forms = entry[1]
        index = PLURAL_RULES[self.language][1](n) if self.language in PLURAL_RULES else int(n != 1)
        return forms[min(index, len(forms) - 1)] or None


def parse_po(text: str) -> dict[tuple[str, str], str]:
    """The translated entries of a ``.po`` file (untranslated and fuzzy entries are left out; counted
    entries are :func:`parse_po_plurals`'s).

    >>> parse_po('msgctxt "yahtzee"\\nmsgid "Chance"\\nmsgstr "Szansa"\\n')
    {('yahtzee', 'Chance'): 'Szansa'}
    """
    return _parse(text)[0]


def parse_po_plurals(text: str) -> dict[tuple[str, str], tuple[str, tuple[str, ...]]]:
    """The translated counted entries of a ``.po`` file: ``(context, msgid) -> (msgid_plural, forms)``.

    >>> parse_po_plurals('msgid "a tile"\\nmsgid_plural "{n} tiles"\\nmsgstr[0] "a"\\nmsgstr[1] "b"\\n')
    {('', 'a tile'): ('{n} tiles', ('a', 'b'))}
    """
    return _parse(text)[1]


def _parse(
    text: str,
) -> tuple[dict[tuple[str, str], str], dict[tuple[str, str], tuple[str, tuple[str, ...]]]]:
    out: dict[tuple[str, str], str] = {}
    plurals: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {}
    entry: dict[str, str] = {}
    field = ""
    fuzzy = False

    def flush() -> None:
        nonlocal entry, fuzzy
        msgid = entry.get("msgid")
        key = (entry.get("msgctxt", ""), msgid or "")
        if msgid and "msgid_plural" in entry:
            forms: list[str] = []
            while f"msgstr[{len(forms)}]" in entry:
                forms.append(entry[f"msgstr[{len(forms)}]"])
            if forms and all(forms) and not fuzzy:
                plurals[key] = (entry["msgid_plural"], tuple(forms))
        elif msgid and entry.get("msgstr", "") and not fuzzy:
            out[key] = entry["msgstr"]
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
        if keyword in ("msgctxt", "msgid", "msgstr", "msgid_plural") or _PLURAL_FORM.fullmatch(keyword):
            if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in entry):
                flush()
            field = keyword
            entry[field] = _po_string(rest, number)
        elif line.startswith('"') and field:
            entry[field] += _po_string(line, number)
        else:
            raise ValueError(f"line {number}: cannot read {raw!r}")
    flush()
    return out, plurals


_PLURAL_FORM = re.compile(r"msgstr\[[0-9]\]")


def _po_string(token: str, number: int) -> str:
    token = token.strip()
    if not (len(token) >= 2 and token[0] == token[-1] == '"'):
        raise ValueError(f"line {number}: expected a quoted string, got {token!r}")
    value = ast.literal_eval(token)
    if not isinstance(value, str):
        raise ValueError(f"line {number}: expected a string, got {token!r}")
    return value


@cache
def msgid(text: str) -> str:
    """``text`` unchanged: marks a sentence kept untranslated, to be translated where it is shown
    (gettext's ``gettext_noop``: a session's end-screen notes and button). The catalogue test finds
    its sentence as it finds those of ``tr.format`` calls.

    >>> msgid("Review")
    'Review'
    """
    return text


def load_catalogue(language: str, locale_dir: Path = LOCALE_DIR) -> Catalogue:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; allowed values: {', '.join(LANGUAGES)}")
    path = locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    messages, plurals = _parse(path.read_text(encoding="utf-8"))
    return Catalogue(language, messages, plurals)


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

    def ngettext(self, msgid: str, plural: str, n: int) -> str:
        """The form of a counted text for ``n`` (English's two forms when the catalogue lacks it)."""
        return self.npgettext("", msgid, plural, n)

    def npgettext(self, context: str, msgid: str, plural: str, n: int) -> str:
        found = self._catalogue.lookup_plural(context, msgid, n)
        if found is None and context:
            found = self._catalogue.lookup_plural("", msgid, n)
        return found or (msgid if n == 1 else plural)

    def format(self, msgid: str, **values: object) -> str:
        """``gettext`` then ``str.format``: ``tr.format("Turn {n}", n=3)``."""
        return self.gettext(msgid).format(**values)

    def nformat(self, msgid: str, plural: str, n: int, **values: object) -> str:
        """``ngettext`` then ``str.format`` with ``n`` and ``values``:
        ``tr.nformat("Pool {n} tile", "Pool {n} tiles", 4)``.

        >>> [Translator("pl").nformat("+{n} tile more", "+{n} tiles more", n) for n in (1, 3, 5, 22)]
        ['+1 płytka więcej', '+3 płytki więcej', '+5 płytek więcej', '+22 płytki więcej']
        """
        return self.ngettext(msgid, plural, n).format(n=n, **values)
