"""What the referee says: every message kind, its sentence in the players' language, its group.

A message is a *kind* and its parameters (``your_move`` with ``name="Ola"``); :func:`sentence` turns it
into the sentence to speak with the catalogues' ``msgctxt "voice"`` entries (plural forms where a
number is counted). The owner switches whole *groups* on and off (``[voice] messages``): ``turn``,
``timer``, ``refusals``, ``rolls`` (off by default), ``scores``, ``results``; ``test`` is the doctor's
and the settings screen's sentence and is always said.

>>> from device.i18n import Translator
>>> sentence(Translator("en"), "your_move", name="Ola")
'Ola, your move.'
>>> sentence(Translator("pl"), "time_warning", seconds=10)
'Zostało 10 sekund.'
>>> sentence(Translator("en"), "roll", dice=(5, 6, 5, 6, 6))
'Three sixes, two fives.'
>>> sentence(Translator("de"), "game_over", names=("Ala", "Ola"), points=231)
'Ala und Ola gewinnen mit 231 Punkten.'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from device.i18n import Translator

__all__ = [
    "DEFAULT_GROUPS",
    "GROUPS",
    "KINDS",
    "Kind",
    "Params",
    "VoiceParamError",
    "names_text",
    "register_kind",
    "sentence",
    "spoken_refusal",
    "whole_param",
]

# The owner's switches (the settings screen, ``[voice] messages``): which groups of kinds are said.
GROUPS = ("turn", "timer", "refusals", "rolls", "scores", "results")
DEFAULT_GROUPS = ("turn", "timer", "refusals", "scores", "results")  # the roll read aloud: when asked for
CTX = "voice"


class VoiceParamError(ValueError):
    """A message kind given a parameter it does not take, or without one it needs."""


# A message's parameters: from the code (numbers, names, tuples of dice) or typed on the command line
# (``referee voice say``: text), read by each kind with :func:`whole_param` and :func:`_texts`.
Params = Mapping[str, object]


def _whole(value: object, what: str) -> int:
    """``value`` as a whole number (a number, or its text)."""
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"{what} must be a whole number, not {value!r}")


def whole_param(p: Params, key: str) -> int:
    """The whole-number parameter ``key`` (a number, or its text)."""
    return _whole(p[key], key)


def _texts(value: object, what: str) -> list[object]:
    """A list parameter (names, dice): a list, or one text."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, Iterable):
        raise TypeError(f"{what} must be a list, not {value!r}")
    return list(value)


@dataclass(frozen=True)
class Kind:
    """One message kind: ``group`` (the owner's switch), ``move`` (it belongs to the move being played:
    cut short when that move ends), ``sample`` (parameters for ``referee voice say`` and the tests)."""

    name: str
    group: str
    text: Callable[[Translator, Params], str]
    sample: Params = field(default_factory=dict)
    move: bool = False
    about: str = ""


def _n(tr: Translator, singular: str, plural: str, count: int, **values: object) -> str:
    return tr.npgettext(CTX, singular, plural, count).format(n=count, **values)


def _p(tr: Translator, msgid: str, **values: object) -> str:
    return tr.pgettext(CTX, msgid).format(**values)


def names_text(tr: Translator, names: Sequence[str]) -> str:
    """Several names as a sentence says them: ``Ala, Ola and Ela``.

    >>> names_text(Translator("pl"), ["Ala", "Ola", "Ela"])
    'Ala, Ola i Ela'
    """
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return _p(tr, "{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


# The faces of a die as counted in a roll (``Three sixes``); the count itself is a word of the
# catalogue (``msgctxt "voice count"``), so the grammar of the count agrees with the face's noun.
FACES = {
    1: ("{count} one", "{count} ones"),
    2: ("{count} two", "{count} twos"),
    3: ("{count} three", "{count} threes"),
    4: ("{count} four", "{count} fours"),
    5: ("{count} five", "{count} fives"),
    6: ("{count} six", "{count} sixes"),
}
COUNT_WORDS = ("one", "two", "three", "four", "five")  # a roll has five dice


def roll_text(tr: Translator, dice: Sequence[int]) -> str:
    """A roll as a person reads it out: the most frequent faces first, higher faces before lower."""
    counts = Counter(int(d) for d in dice)
    if not counts or any(face not in FACES for face in counts):
        raise VoiceParamError(f"dice must be values 1–6, got {list(dice)}")
    parts = []
    for face, count in sorted(counts.items(), key=lambda fc: (-fc[1], -fc[0])):
        word = tr.pgettext("voice count", COUNT_WORDS[count - 1]) if count <= len(COUNT_WORDS) else str(count)
        singular, plural = FACES[face]
        parts.append(tr.npgettext(CTX, singular, plural, count).format(count=word))
    text = _p(tr, "{items}.", items=", ".join(parts))
    return text[:1].upper() + text[1:]


def spoken_refusal(tr: Translator, key: str, details: Mapping[str, object]) -> str:
    """A refusal's rule as said aloud: its spoken form (``msgctxt "spoken"``, where the written one
    names tiles as ``R5 B5`` or counts with ``card(s)``), else the screen's sentence."""
    from device.ui.names import detail_texts

    count = details.get("wanted")
    plural = SPOKEN_PLURALS.get(key)
    if plural is not None and isinstance(count, int):
        return tr.npgettext("spoken", plural[0], plural[1], count).format(**detail_texts(tr, dict(details)))
    spoken = tr.pgettext("spoken", key)
    if spoken == key:
        spoken = tr.pgettext("rule", key)
        if spoken == key:
            return _p(tr, "That move is not allowed.")
    try:
        return spoken.format(**detail_texts(tr, dict(details)))
    except (KeyError, IndexError):
        return spoken  # a sentence naming a detail this refusal does not carry: said as it stands


# Refusals whose written sentence counts with "(s)": their spoken forms have plural forms.
SPOKEN_PLURALS = {"wrong_card_count": ("This turn lays one card.", "This turn lays {wanted} cards.")}


def _your_move(tr: Translator, p: Params) -> str:
    return _p(tr, "{name}, your move.", name=p["name"])


def _time_warning(tr: Translator, p: Params) -> str:
    seconds = whole_param(p, "seconds")
    return _n(tr, "{n} second left.", "{n} seconds left.", seconds)


def _timeout_box(tr: Translator, p: Params) -> str:
    from device.ui.names import box_name

    box = box_name(tr, str(p["game"]), str(p["box"]))
    points = whole_param(p, "points")
    return _n(
        tr,
        "Time! {box} for {name}: {n} point.",
        "Time! {box} for {name}: {n} points.",
        points,
        box=box,
        name=p["name"],
    )


def _timeout_roll(tr: Translator, p: Params) -> str:
    return _p(tr, "Time! {name}, your roll goes into the best box.", name=p["name"])


def _timeout_draw(tr: Translator, p: Params) -> str:
    tiles = whole_param(p, "tiles")
    return _n(tr, "Time! {name} draws a tile.", "Time! {name} draws {n} tiles.", tiles, name=p["name"])


def _timeout_restore(tr: Translator, p: Params) -> str:
    tiles = whole_param(p, "tiles")
    return _n(
        tr,
        "Time! The table goes back; one tile for {name}.",
        "Time! The table goes back; {n} tiles for {name}.",
        tiles,
        name=p["name"],
    )


def _timeout_lay(tr: Translator, p: Params) -> str:
    points = whole_param(p, "points")
    return _n(
        tr,
        "Time! The best cards are laid for {name}: {n} point.",
        "Time! The best cards are laid for {name}: {n} points.",
        points,
        name=p["name"],
    )


def _timeout(tr: Translator, p: Params) -> str:
    return _p(tr, "Time is up, {name}.", name=p["name"])


def _restore_table(tr: Translator, p: Params) -> str:
    return _p(tr, "Restore the table as it was.")


def _table_restored(tr: Translator, p: Params) -> str:
    return _p(tr, "Table restored.")


def _refusal(tr: Translator, p: Params) -> str:
    details = p.get("details", {})
    if not isinstance(details, Mapping):
        raise VoiceParamError("details must be a mapping of the refusal's details")
    return spoken_refusal(tr, str(p["rule"]), details)


def _roll(tr: Translator, p: Params) -> str:
    dice = p["dice"]
    if isinstance(dice, str):
        return roll_text(tr, [int(d) for d in dice.split()] if all(d.isdigit() for d in dice.split()) else [])
    return roll_text(tr, [_whole(d, "dice") for d in _texts(dice, "dice")])


def _score(tr: Translator, p: Params) -> str:
    from device.ui.names import box_base, box_name

    game, box, points = str(p["game"]), str(p["box"]), whole_param(p, "points")
    name = box_name(tr, game, box)
    if box_base(box) in TOP_BOXES and points > 0:
        return _n(
            tr,
            "{box}! {n} point for {name}.",
            "{box}! {n} points for {name}.",
            points,
            box=name,
            name=p["name"],
        )
    return _n(tr, "{name}: {box}, {n} point.", "{name}: {box}, {n} points.", points, box=name, name=p["name"])


TOP_BOXES = ("yahtzee", "poker")  # Generał, Kości's poker: said with an exclamation


def _tiles_laid(tr: Translator, p: Params) -> str:
    tiles = whole_param(p, "tiles")
    return _n(tr, "{name} laid a tile.", "{name} laid {n} tiles.", tiles, name=p["name"])


def _tile_drawn(tr: Translator, p: Params) -> str:
    return _p(tr, "{name} draws a tile.", name=p["name"])


def _points(tr: Translator, p: Params) -> str:
    points = whole_param(p, "points")
    return _n(tr, "{name} scores {n} point.", "{name} scores {n} points.", points, name=p["name"])


def _penalty(tr: Translator, p: Params) -> str:
    points = whole_param(p, "points")
    return _n(tr, "{name}: {n} penalty point.", "{name}: {n} penalty points.", points, name=p["name"])


def _winners(p: Params) -> list[str]:
    return [str(n) for n in _texts(p["names"], "names")]


def _hand_over(tr: Translator, p: Params) -> str:
    names = _winners(p)
    return _n(
        tr,
        "The hand is over: {names} wins it with {points}.",
        "The hand is over: {names} win it with {points}.",
        len(names),
        names=names_text(tr, names),
        points=whole_param(p, "points"),
    )


def _game_over(tr: Translator, p: Params) -> str:
    names = _winners(p)
    points = whole_param(p, "points")
    if len(names) == 1:
        return _n(tr, "{names} wins with {n} point.", "{names} wins with {n} points.", points, names=names[0])
    return _n(
        tr, "{names} win with {n} point.", "{names} win with {n} points.", points, names=names_text(tr, names)
    )


def _test(tr: Translator, p: Params) -> str:
    return _p(tr, "This is the referee's voice.")


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("your_move", "turn", _your_move, {"name": "Ola"}, move=True, about="whose move it is"),
        Kind(
            "time_warning",
            "timer",
            _time_warning,
            {"seconds": 10},
            move=True,
            about="the move timer's warning",
        ),
        Kind(
            "timeout_box",
            "timer",
            _timeout_box,
            {"name": "Ala", "game": "yahtzee", "box": "chance", "points": 23},
            about="dice: the time ran out, the best box was entered",
        ),
        Kind(
            "timeout_roll",
            "timer",
            _timeout_roll,
            {"name": "Ala"},
            about="dice: the time ran out before the roll; the roll goes into the best box",
        ),
        Kind(
            "timeout_draw",
            "timer",
            _timeout_draw,
            {"name": "Ala", "tiles": 1},
            about="Rummikub: the time ran out, the table untouched: the player draws",
        ),
        Kind(
            "timeout_restore",
            "timer",
            _timeout_restore,
            {"name": "Ala", "tiles": 3},
            about="Rummikub: the time ran out on a changed table: it goes back, penalty tiles",
        ),
        Kind("restore_table", "timer", _restore_table, about="Rummikub: the table is to be put back"),
        Kind(
            "table_restored", "timer", _table_restored, about="Rummikub: the camera sees the table restored"
        ),
        Kind(
            "timeout_lay",
            "timer",
            _timeout_lay,
            {"name": "Ala", "points": 4},
            about="Zatre: the time ran out, the best cards were laid",
        ),
        Kind("timeout", "timer", _timeout, {"name": "Ala"}, about="Kalooki: the time ran out"),
        Kind(
            "refusal",
            "refusals",
            _refusal,
            {"rule": "rummikub_invalid_meld_group_colour", "details": {"colour": "blue"}},
            move=True,
            about="a refused move: its rule in a short sentence",
        ),
        Kind(
            "roll", "rolls", _roll, {"dice": (5, 5, 6, 6, 6)}, about="dice: the roll as read (off by default)"
        ),
        Kind(
            "score",
            "scores",
            _score,
            {"name": "Ala", "game": "yahtzee", "box": "yahtzee", "points": 50},
            about="dice: the box entered and its points",
        ),
        Kind(
            "tiles_laid", "scores", _tiles_laid, {"name": "Ala", "tiles": 3}, about="Rummikub: a play taken"
        ),
        Kind("tile_drawn", "scores", _tile_drawn, {"name": "Ala"}, about="Rummikub: a draw taken"),
        Kind(
            "points",
            "scores",
            _points,
            {"name": "Ala", "points": 7},
            about="Zatre: the points of a turn laid",
        ),
        Kind(
            "penalty",
            "scores",
            _penalty,
            {"name": "Ala", "points": 35},
            about="Kalooki: the penalty points of a hand entered",
        ),
        Kind(
            "hand_over",
            "results",
            _hand_over,
            {"names": ("Ala",), "points": 42},
            about="Rummikub: a hand scored, its winner",
        ),
        Kind(
            "game_over",
            "results",
            _game_over,
            {"names": ("Ala",), "points": 231},
            about="the end of the game with the winner",
        ),
        Kind("test", "test", _test, about="the doctor's and the settings screen's test sentence"),
    )
}


def sentence(tr: Translator, kind: str, **params: object) -> str:
    """The sentence of ``kind`` with ``params`` in ``tr``'s language."""
    found = KINDS.get(kind)
    if found is None:
        raise VoiceParamError(f"{kind!r} is not a message kind; kinds: {', '.join(KINDS)}")
    try:
        return found.text(tr, params)
    except KeyError as exc:
        raise VoiceParamError(f"{kind} needs the parameter {exc.args[0]}") from None
    except (TypeError, ValueError) as exc:
        raise VoiceParamError(f"{kind}: {exc}") from None


def register_kind(kind: Kind) -> Kind:
    """Add a message kind (the coach's advice, a new game's events): its sentences go in the
    catalogues with ``msgctxt "voice"`` like the others, its group is one of :data:`GROUPS`."""
    if kind.group not in (*GROUPS, "test"):
        raise ValueError(f"{kind.name}: {kind.group!r} is not a group; groups: {', '.join(GROUPS)}")
    if kind.name in KINDS and KINDS[kind.name] != kind:
        raise ValueError(f"{kind.name!r} is a message kind already")
    KINDS[kind.name] = kind
    return kind
