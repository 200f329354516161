"""How rule ids appear on screen: box and bonus names in the players' language, seat colours, times.

Box ids are the rules' (``full_house``, triple ``2:chance``); their English text is the id in words
(``Full house``) and is the catalogue's ``msgid``, with the game as context, because the same box has
different names in different games (Polish: *Szansa* in Generał, *Ratunek* in Kości).

>>> from device.i18n import Translator
>>> box_label(Translator("pl"), "poker_dice", "four_of_a_kind")
'Kareta'
>>> box_label(Translator("pl"), "yahtzee", "2:yahtzee")
'Generał ×2'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from device.i18n import Translator
from device.ui.theme import Colour, parse_colour

if TYPE_CHECKING:
    from device.session import Refusal

__all__ = ["box_column", "box_label", "box_name", "clock_text", "refusal_text", "seat_colour"]


def box_base(box: str) -> str:
    """A box id without its triple column: ``"2:upper"`` → ``"upper"``."""
    return box.partition(":")[2] if ":" in box else box


def box_name(tr: Translator, game: str, box: str) -> str:
    """The name of a box without its triple column."""
    return tr.pgettext(game, box_base(box).replace("_", " ").capitalize())


def box_column(box: str) -> int:
    """The triple column of a box id (1–3), 1 for the one-column games."""
    return int(box.partition(":")[0]) if ":" in box else 1


def box_label(tr: Translator, game: str, box: str) -> str:
    name = box_name(tr, game, box)
    return f"{name} ×{box_column(box)}" if ":" in box else name


def seat_colour(colours: tuple[str, ...], seat: int) -> Colour:
    return parse_colour(colours[seat % len(colours)])


def clock_text(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour on).

    >>> clock_text(75.4), clock_text(3600)
    ('1:15', '1:00:00')
    """
    total = int(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def refusal_text(tr: Translator, refusal: Refusal) -> str:
    """A refused action in the players' language, by its sentence's key (the rule code, or the game's
    own ``kalooki_invalid_meld``); the rules' English message when the catalogue has no sentence. A
    sentence with plural forms is counted by the refusal's first whole-number detail (``wanted``)."""
    text = tr.pgettext("rule", refusal.key)
    count = next((v for v in refusal.details.values() if type(v) is int), None)
    if count is not None:
        counted = tr.npgettext("rule", refusal.key, refusal.key, count)
        text = counted if counted != refusal.key else text
    if text == refusal.key:
        return f"{refusal.message} [{refusal.code}]"
    return text.format(**detail_texts(tr, refusal.details)) if refusal.details else text


def detail_texts(tr: Translator, details: dict[str, object]) -> dict[str, object]:
    """A refusal's details as its sentence shows them: a list of tiles or cards as one text, a word
    the rules name (a colour: ``blue``) in the players' language (``msgctxt "detail"``).

    >>> detail_texts(Translator("de"), {"tiles": ["R5", "J"], "colour": "blue", "value": 12})
    {'tiles': 'R5 J', 'colour': 'blau', 'value': 12}
    """
    shown: dict[str, object] = {}
    for name, value in details.items():
        if isinstance(value, (list, tuple)):
            value = " ".join(map(str, value))
        elif isinstance(value, str):
            value = tr.pgettext("detail", value)
        shown[name] = value
    return shown
