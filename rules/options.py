"""Rule options: one frozen dataclass per game, with named presets.

Every game's options class derives from :class:`Options`. ``players`` and ``seed`` are part of the
options so that a game is exactly its options plus its actions (``rules.replay``). The other fields are
the rule variants of RULES.md, each marked *(option)* there. ``PRESETS`` maps a preset name to the
field values that differ from the class defaults; ``seed`` (the default preset, following the seed
text) is always the class defaults.

Every number has its range, written on its type: ``Annotated[int, Range(0, 10)]``. :func:`coerce` (the
config file) and ``Options.__post_init__`` (every options object) check it in one place,
:func:`_check`, so a value out of range is the same :class:`~rules.errors.OptionError` everywhere.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo(Options):
...     joker: Literal["forced", "free"] = "forced"
...     PRESETS: ClassVar[dict[str, dict[str, Any]]] = {"official": {"joker": "free"}}
>>> Demo.preset("official", players=3).joker
'free'
>>> Demo.from_dict({"joker": "sometimes"})
Traceback (most recent call last):
...
rules.errors.OptionError: joker: 'sometimes' is not allowed; allowed values: 'forced', 'free'
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, Self

from rules.errors import OptionError

__all__ = ["MAX_SEED", "Options", "Range", "check_fields", "coerce", "numeric_range"]

MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Range:
    """The allowed values of a number, both ends included: ``Annotated[int, Range(0, 10)]``."""

    low: int | float
    high: int | float

    def check(self, key: str, value: int | float) -> None:
        if not self.low <= value <= self.high:
            raise OptionError(key, f"{value!r} is out of range {_number(self.low)}–{_number(self.high)}")


def _number(x: int | float) -> str:
    return str(x) if isinstance(x, int) else f"{x:g}"


def numeric_range(tp: Any) -> Range | None:
    """The :class:`Range` written on a type (``Annotated[int, Range(...)]``, optionally ``| None``)."""
    if typing.get_origin(tp) is Annotated:
        return next((m for m in tp.__metadata__ if isinstance(m, Range)), None)
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        found = [numeric_range(a) for a in typing.get_args(tp)]
        return next((r for r in found if r is not None), None)
    return None


def check_fields(obj: Any, prefix: str = "") -> None:
    """Check every field of the dataclass ``obj`` against its type (and its range): ``OptionError``
    naming ``prefix + field``."""
    hints = typing.get_type_hints(type(obj), include_extras=True)
    for field in dataclasses.fields(obj):
        _check(prefix + field.name, hints[field.name], getattr(obj, field.name))


@dataclass(frozen=True)
class Options:
    """Base of every game's options: the table set-up plus the rule variants."""

    players: int = 2  # bounded by the class: MIN_PLAYERS–MAX_PLAYERS
    seed: Annotated[int, Range(0, MAX_SEED)] = 0

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    MIN_PLAYERS: ClassVar[int] = 1
    MAX_PLAYERS: ClassVar[int] = 4

    def __post_init__(self) -> None:
        check_fields(self)
        if not self.MIN_PLAYERS <= self.players <= self.MAX_PLAYERS:
            raise OptionError(
                "players", f"{self.players} players; allowed: {self.MIN_PLAYERS}–{self.MAX_PLAYERS}"
            )

    @classmethod
    def preset_names(cls) -> list[str]:
        return ["seed", *[name for name in cls.PRESETS if name != "seed"]]

    @classmethod
    def preset(cls, name: str = "seed", **overrides: Any) -> Self:
        """The options of a named preset, with ``overrides`` (field values) applied on top."""
        if not isinstance(name, str):
            allowed = ", ".join(repr(n) for n in cls.preset_names())
            raise OptionError("preset", f"{name!r} is not a preset name; allowed values: {allowed}")
        if name != "seed" and name not in cls.PRESETS:
            allowed = ", ".join(repr(n) for n in cls.preset_names())
            raise OptionError("preset", f"{name!r} is not a preset; allowed values: {allowed}")
        values = {**cls.PRESETS.get(name, {}), **overrides}
        return cls.from_dict(values)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Options from a plain mapping (a config table); unknown keys and bad values name the key."""
        names = [f.name for f in dataclasses.fields(cls)]
        for key in data:
            if key not in names:
                raise OptionError(key, f"unknown option; allowed keys: {', '.join(names)}")
        hints = typing.get_type_hints(cls, include_extras=True)
        return cls(**{key: _from_plain(hints[key], value) for key, value in data.items()})

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @property
    def move_limit_seconds(self) -> int:
        """The move time limit the rules set (0: none); Rummikub's ``move_seconds``."""
        return 0

    @classmethod
    def move_seconds_allowed(cls) -> tuple[int, int] | None:
        """The least and the most seconds a move may be given when the timer is on, where the rules
        bound it (Kalooki: 30–120); ``None`` where they do not."""
        return None

    @classmethod
    def fit_move_seconds(cls, seconds: int) -> int:
        """``seconds`` (0: off) brought within :meth:`move_seconds_allowed`.

        >>> Options.fit_move_seconds(300)
        300
        """
        allowed = cls.move_seconds_allowed()
        if allowed is None or seconds <= 0:
            return max(0, seconds)
        return min(max(seconds, allowed[0]), allowed[1])

    def replace(self, **changes: Any) -> Self:
        return dataclasses.replace(self, **changes)


def coerce(key: str, tp: Any, value: Any) -> Any:
    """``value`` from a config file or JSON as a field of type ``tp`` holds it (lists become tuples),
    or ``OptionError`` naming ``key`` (``key[i]`` for a list item) and what is allowed."""
    value = _from_plain(tp, value)
    _check(key, tp, value)
    return value


def _from_plain(tp: Any, value: Any) -> Any:
    """Lists (from TOML or JSON) back into the tuples that a tuple-typed field holds."""
    if typing.get_origin(tp) is Annotated:
        return _from_plain(typing.get_args(tp)[0], value)
    if isinstance(value, list) and typing.get_origin(tp) is tuple:
        args = typing.get_args(tp)
        item = args[0] if args else Any
        return tuple(_from_plain(item, v) for v in value)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _check(key: str, tp: Any, value: Any) -> None:
    origin = typing.get_origin(tp)
    if origin is Annotated:
        _check(key, typing.get_args(tp)[0], value)
        for mark in tp.__metadata__:
            if isinstance(mark, Range):
                mark.check(key, value)
        return
    if origin is Literal:
        allowed = typing.get_args(tp)
        if value not in allowed:
            listed = ", ".join(repr(a) for a in allowed)
            raise OptionError(key, f"{value!r} is not allowed; allowed values: {listed}")
        return
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return
        choices = [arg for arg in args if arg is not type(None)]
        if len(choices) == 1:
            _check(key, choices[0], value)
            return
        for arg in choices:
            try:
                _check(key, arg, value)
                return
            except OptionError:
                continue
        raise OptionError(key, f"{value!r} does not fit {tp}")
    if origin is tuple:
        if not isinstance(value, tuple):
            raise OptionError(key, f"expected a list, got {value!r}")
        args = typing.get_args(tp)
        item = args[0] if args else Any
        for i, v in enumerate(value):
            _check(f"{key}[{i}]", item, v)
        return
    if tp is Any:
        return
    if tp is bool:
        if not isinstance(value, bool):
            raise OptionError(key, f"expected true or false, got {value!r}")
        return
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(key, f"expected a whole number, got {value!r}")
        return
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise OptionError(key, f"expected a number, got {value!r}")
        return
    if tp is str:
        if not isinstance(value, str):
            raise OptionError(key, f"expected a string, got {value!r}")
        return
    if isinstance(tp, type) and not isinstance(value, tp):
        raise OptionError(key, f"expected {tp.__name__}, got {value!r}")
