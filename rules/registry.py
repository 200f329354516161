"""The registry of games by name, and ``replay``: a game is its options plus its actions.

:func:`replay` rebuilds a game that must replay whole (an error is the caller's); :func:`replay_prefix`
the longest prefix of stored records that still does (a journal of an older rule version, a damaged
one): the session's resume and the journal's repair and salvage use it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, Self

from rules.actions import Action, action_from_json
from rules.options import Options
from rules.outcome import Outcome

__all__ = [
    "LANGUAGES",
    "GameSpec",
    "GameState",
    "Replayed",
    "find_game",
    "game_of",
    "games",
    "get_game",
    "register",
    "replay",
    "replay_prefix",
]

LANGUAGES = ("pl", "hu", "de", "en")


class GameState(Protocol):
    """What every game's immutable state offers."""

    @property
    def options(self) -> Options: ...

    @property
    def outcome(self) -> Outcome | None:
        """``None`` while the game is on."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat (0-based) to act now; ``None`` when the game is over or nobody is to act (a dealer's
        step, the end of a hand before the racks are shown). The device lights this seat, runs its move
        timer and books the time of the next action to it."""
        ...

    def apply(self, action: Action) -> Self:
        """The state after ``action``; raises ``IllegalAction`` and leaves ``self`` unchanged."""
        ...


@dataclass(frozen=True)
class GameSpec:
    """A game as the device and the CLI see it.

    ``titles`` holds the display name in every language of ``LANGUAGES``; ``variants`` the display
    names of the values of the options' ``variant_field`` (``variant``; Zatre's is ``information``), if
    it has one — the first is the device's when none is chosen. ``auto_play`` plays a whole
    game with random (seeded by ``options.seed``) but legal moves and returns the final state;
    ``describe`` prints a state (the sheets, the table, the scores) as plain text.
    """

    name: str
    titles: Mapping[str, str]
    options_type: type[Options]
    new_game: Callable[[Options], GameState]
    auto_play: Callable[[Options], GameState]
    describe: Callable[[GameState], str]
    variants: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    variant_field: str = "variant"

    def variant_of(self, options: Mapping[str, object]) -> str | None:
        """The variant a game's options (as a dict) name, ``None`` for a game without variants."""
        value = options.get(self.variant_field) if self.variants else None
        return value if isinstance(value, str) else None

    def __post_init__(self) -> None:
        missing = [lang for lang in LANGUAGES if lang not in self.titles]
        if missing:
            raise ValueError(f"game {self.name!r} has no title in {missing}")

    def title(self, lang: str = "en", variant: str | None = None) -> str:
        """The game's name in ``lang`` as every screen, the history, the export and the command line
        show it: a variant's own name where the game has variants (``variant`` ``None``: the first,
        the default one), else the game's."""
        if self.variants:
            titles = self.variants.get(variant or next(iter(self.variants)))
            if titles is not None:
                return titles.get(lang, titles.get("en", str(variant)))
        return self.titles.get(lang, self.titles["en"])


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    if spec.name in _GAMES and _GAMES[spec.name] is not spec:
        raise ValueError(f"game {spec.name!r} is registered twice")
    _GAMES[spec.name] = spec
    return spec


def get_game(name: str) -> GameSpec:
    """The game registered under ``name``; ``KeyError`` names the known games."""
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}") from None


def games() -> list[GameSpec]:
    return list(_GAMES.values())


def _folded(text: str) -> str:
    """``text`` as the command line compares game names: any case, without accents (ł as l), the
    separators ``_ - :`` and runs of spaces as one space.

    >>> _folded("  Kości (poker_dice) "), _folded("GENERAŁ:triple")
    ('kosci (poker dice)', 'general triple')
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("ł", "l"))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.replace("_", " ").replace("-", " ").replace(":", " ").split())


def find_game(text: str) -> tuple[str, str | None]:
    """``(game, variant)`` named by ``text``, in any case and with or without accents: a game's name
    (``poker_dice``), ``game:variant`` (``yahtzee:triple``), or the name a screen shows in any language
    (``Kości``, ``Triple Generał``, ``Generał (klasyczny)``); a game's shortest name without its
    parenthesis too (``Generał``, ``Zatre``). ``KeyError`` names the choices.

    >>> find_game("kosci"), find_game("Rummikub"), find_game("triple generał")
    (('poker_dice', None), ('rummikub', None), ('yahtzee', 'triple'))
    """
    wanted = _folded(text)
    names: dict[str, tuple[str, str | None]] = {}
    shorts: dict[str, tuple[str, str | None]] = {}
    for spec in _GAMES.values():
        titles: list[tuple[str, str | None, str]] = [(spec.name, None, spec.name)]
        titles += [(spec.name, None, t) for t in spec.titles.values()]
        for variant, variant_titles in spec.variants.items():
            titles.append((spec.name, variant, f"{spec.name}:{variant}"))
            titles += [(spec.name, variant, t) for t in variant_titles.values()]
        for game, kind, title in titles:
            names.setdefault(_folded(title), (game, kind))
            short = _folded(title.split("(")[0].split("–")[0])
            if short:
                shorts.setdefault(short, (game, None))
    for short, found in shorts.items():
        names.setdefault(short, found)
    if wanted in names:
        return names[wanted]
    shown = sorted({spec.title("en", v) for spec in _GAMES.values() for v in (spec.variants or [None])})
    raise KeyError(
        f"unknown game {text!r}; games: {', '.join(sorted(_GAMES))} "
        f"(or as the screens name them, in any case: {', '.join(shown)})"
    )


def game_of(options: Options) -> GameSpec:
    for spec in _GAMES.values():
        if type(options) is spec.options_type:
            return spec
    raise KeyError(f"no game uses options of type {type(options).__name__}")


def replay(options: Options, actions: Iterable[Action]) -> GameState:
    """Rebuild a game's state from its options and its actions, exactly."""
    state = game_of(options).new_game(options)
    for act in actions:
        state = state.apply(act)
    return state


@dataclass(frozen=True)
class Replayed:
    """The longest prefix of a game's records that replays: the ``state`` after it, its ``actions``,
    and why the replay stopped before the end (``stopped``: the error, or ``None`` when every record
    applied). Records after the game ended are not applied."""

    state: GameState
    actions: tuple[Action, ...]
    stopped: str | None = None


def replay_prefix(options: Options, records: Iterable[dict[str, Any] | str]) -> Replayed:
    """Replay the actions' JSON records (:func:`~rules.actions.action_to_json`) from the game's
    start up to the first that does not decode or apply, or the game's end.

    >>> from rules.yahtzee.game import YahtzeeOptions
    >>> roll = {"kind": "dice.roll", "dice": "1 2 3 4 5", "held": []}
    >>> done = replay_prefix(YahtzeeOptions(players=1), [roll, '{"kind": "dice.roll"', roll])
    >>> len(done.actions), done.state.dice, done.stopped is not None
    (1, Roll(values=(1, 2, 3, 4, 5)), True)
    """
    state = game_of(options).new_game(options)
    actions: list[Action] = []
    for record in records:
        if state.outcome is not None:
            return Replayed(state, tuple(actions), "the game had ended before it")
        try:
            act = action_from_json(record)
            state = state.apply(act)
        except ValueError as error:  # RulesError (IllegalAction, NotationError) is a ValueError
            return Replayed(state, tuple(actions), str(error))
        actions.append(act)
    return Replayed(state, tuple(actions))
