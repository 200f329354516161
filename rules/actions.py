"""Actions: small frozen value objects that round-trip through JSON.

A game is exactly its options plus its list of actions; the journal stores each action as the JSON
object of :func:`action_to_json` and :func:`action_from_json` reads it back. Every concrete action
class is registered under a unique ``kind`` (``"yahtzee.roll"``) with the :func:`action` decorator.

Fields may be ``int``, ``str``, ``bool``, ``float``, ``None``, tuples of those, nested tuples, and
value objects that have a text form (``str(x)``) and a ``parse`` classmethod (``Roll``, ``Tile``, ...).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from rules.errors import NotationError

__all__ = [
    "Action",
    "action",
    "action_from_json",
    "action_kinds",
    "action_to_json",
    "actions_from_json",
    "actions_to_json",
]


class Action:
    """Base of every action; subclasses are frozen dataclasses decorated with :func:`action`."""

    kind: ClassVar[str] = ""


_REGISTRY: dict[str, type[Action]] = {}
A = TypeVar("A", bound=type[Action])


def action(kind: str) -> Callable[[A], A]:
    """Register a frozen dataclass as an action under ``kind`` (unique across all games)."""

    def register(cls: A) -> A:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} must be a dataclass")
        if kind in _REGISTRY and _REGISTRY[kind] is not cls:
            raise ValueError(f"action kind {kind!r} is registered twice")
        cls.kind = kind
        _REGISTRY[kind] = cls
        return cls

    return register


def action_kinds() -> dict[str, type[Action]]:
    """Every registered action kind and its class (a copy: registering goes through :func:`action`)."""
    return dict(_REGISTRY)


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    if hasattr(type(value), "parse"):
        return str(value)
    raise TypeError(f"cannot encode {value!r} in an action")


def _decode(tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    if tp is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _decode(arg, value)
            except (TypeError, ValueError) as exc:
                errors.append(exc)
        raise ValueError(f"{value!r} fits none of {tp}: {errors}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise TypeError(f"expected a list for {tp}, got {value!r}")
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        if len(args) != len(value):
            raise ValueError(f"expected {len(args)} items for {tp}, got {value!r}")
        return tuple(_decode(a, v) for a, v in zip(args, value, strict=True))
    if origin is typing.Literal:
        if value not in typing.get_args(tp):
            raise ValueError(f"{value!r} is not one of {typing.get_args(tp)}")
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise TypeError(f"expected a bool, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"expected an int, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"expected a number, got {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise TypeError(f"expected a string, got {value!r}")
        return value
    if isinstance(tp, type) and hasattr(tp, "parse"):
        if isinstance(value, tp):
            return value
        if not isinstance(value, str):
            raise TypeError(f"expected the text form of {tp.__name__}, got {value!r}")
        return tp.parse(value)
    raise TypeError(f"unsupported field type {tp!r}")


@functools.cache
def _schema(kind: str) -> tuple[dict[str, Any], tuple[dataclasses.Field[Any], ...]]:
    """The field types and fields of an action kind, resolved once (a replay decodes thousands)."""
    cls = _REGISTRY[kind]
    return typing.get_type_hints(cls), dataclasses.fields(typing.cast(Any, cls))


def action_to_json(act: Action) -> dict[str, Any]:
    """The JSON object of an action: ``{"kind": ..., field: value, ...}``."""
    if type(act).kind not in _REGISTRY:
        raise TypeError(f"{type(act).__name__} is not a registered action")
    data: dict[str, Any] = {"kind": type(act).kind}
    for field in dataclasses.fields(act):  # type: ignore[arg-type]
        data[field.name] = _encode(getattr(act, field.name))
    return data


def action_from_json(data: dict[str, Any] | str) -> Action:
    """Rebuild an action from :func:`action_to_json` output (a dict or its JSON text).

    Raises ``ValueError`` naming the kind and field when the data does not fit.
    """
    if isinstance(data, str):
        data = load_json(data)
    if not isinstance(data, dict) or "kind" not in data:
        raise NotationError(f"not an action: {_short(data)}")
    kind = data["kind"]
    if not isinstance(kind, str):
        raise NotationError(f"an action's kind must be text, got {_short(kind)}")
    cls = _REGISTRY.get(kind)
    if cls is None:
        raise NotationError(f"unknown action kind {kind!r}")
    hints, fields = _schema(kind)
    kwargs = {}
    for field in fields:
        if field.name in data:
            try:
                kwargs[field.name] = _decode(hints[field.name], data[field.name])
            except (TypeError, ValueError) as exc:
                raise NotationError(f"{kind}.{field.name}: {exc}") from exc
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise NotationError(f"{kind}: missing field {field.name!r}")
    unknown = set(data) - {"kind"} - {f.name for f in fields}
    if unknown:
        raise NotationError(f"{kind}: unknown fields {sorted(unknown)}")
    return cls(**kwargs)


def load_json(text: str) -> Any:
    """``json.loads`` whose every failure is a ``ValueError``: not JSON, or nested too deeply for the
    parser (a 100,000-deep array would otherwise raise ``RecursionError``)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise NotationError("not an action: JSON nested too deeply") from None
    except ValueError as exc:
        raise NotationError(f"not valid JSON: {exc}") from None


def _short(value: Any, limit: int = 80) -> str:
    try:
        text = repr(value)
    except RecursionError:
        text = "(nested too deeply)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def actions_to_json(acts: typing.Iterable[Action]) -> str:
    return json.dumps([action_to_json(a) for a in acts], separators=(",", ":"))


def actions_from_json(text: str) -> list[Action]:
    items = load_json(text)
    if not isinstance(items, list):
        raise NotationError("expected a JSON list of actions")
    return [action_from_json(item) for item in items]
