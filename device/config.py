"""The one config file (TOML), validated at start: every error names the key and the allowed values.

The file is ``/etc/tabletop-referee/config.toml`` unless ``--config`` or ``$TABLETOP_REFEREE_CONFIG``
names another. Every key is optional; a missing file means all defaults. See ``config.example.toml``.

>>> load_config_text('[device]\\nlanguage = "pl"').device.language
'pl'
>>> load_config_text('[device]\\nlanguage = "fr"')
Traceback (most recent call last):
...
device.config.ConfigError: device.language: 'fr' is not allowed; allowed values: 'pl', 'hu', 'de', 'en'
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from device.zatre_deck import TABLE_KEYS as ZATRE_TABLE_KEYS
from device.zatre_deck import TableKey
from rules.errors import OptionError
from rules.options import Options, Range, check_fields, coerce

__all__ = [
    "DEFAULT_PATH",
    "CameraConfig",
    "Config",
    "ConfigError",
    "DeviceConfig",
    "DisplayConfig",
    "SeatsConfig",
    "SerialConfig",
    "VoiceConfig",
    "config_path",
    "game_table_keys",
    "load_config",
    "load_config_text",
    "move_seconds",
]

DEFAULT_PATH = Path("/etc/tabletop-referee/config.toml")
Language = Literal["pl", "hu", "de", "en"]
Pin = Annotated[int, Range(2, 27)]  # a BCM pin number of the 40-pin header
TimerSeconds = Annotated[int, Range(0, 3600)]  # a game table's ``timer_seconds`` (0 = off)
PIN_PATTERN = re.compile(r"[0-9]{4,8}")  # ASCII digits: what the 0–9 pad and a keyboard can type


class ConfigError(ValueError):
    """A broken config: ``key`` is the dotted path of the offending key (``seats.buttons[2]``)."""

    def __init__(self, key: str, message: str) -> None:
        if not key or key.endswith("."):
            key += '""'  # an empty key, written the way TOML writes it
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True)
class DeviceConfig:
    language: Language = "en"
    owner_pin: str = "0000"
    state_dir: str = "/var/lib/tabletop-referee"
    journal: str = ""  # empty: <state_dir>/journal.sqlite3

    def __post_init__(self) -> None:
        _check_section(self, "device")
        if not PIN_PATTERN.fullmatch(self.owner_pin):
            raise ConfigError(
                "device.owner_pin", f"{self.owner_pin!r} must be 4–8 digits 0–9 (what the PIN pad can type)"
            )

    @property
    def journal_path(self) -> Path:
        return Path(self.journal) if self.journal else Path(self.state_dir) / "journal.sqlite3"


@dataclass(frozen=True)
class DisplayConfig:
    width: Annotated[int, Range(320, 7680)] = 800
    height: Annotated[int, Range(240, 4320)] = 480
    fullscreen: bool = True
    fps: Annotated[int, Range(1, 120)] = 30

    def __post_init__(self) -> None:
        _check_section(self, "display")


CAMERA_KINDS = ("picamera2", "usb", "folder", "synthetic")


@dataclass(frozen=True)
class CameraConfig:
    """``sources`` is a priority chain: ``picamera2``, ``usb:0`` / ``usb:/dev/video2``,
    ``folder:/path/to/images``, ``synthetic``. The first that opens is used."""

    sources: tuple[str, ...] = ("picamera2", "usb:0", "synthetic")
    width: Annotated[int, Range(160, 4608)] = 1280  # the Camera Module 3's largest is 4608×2592
    height: Annotated[int, Range(120, 3456)] = 720
    calibration: str = ""  # empty: <state_dir>/calibration.json

    def __post_init__(self) -> None:
        _check_section(self, "camera")
        if not self.sources:
            raise ConfigError("camera.sources", "needs at least one source")
        for i, src in enumerate(self.sources):
            kind, _, arg = src.partition(":")
            if kind not in CAMERA_KINDS:
                allowed = ", ".join(repr(k) for k in CAMERA_KINDS)
                raise ConfigError(
                    f"camera.sources[{i}]", f"{src!r} is not a camera; allowed kinds: {allowed}"
                )
            if kind in ("usb", "folder") and not arg:
                raise ConfigError(f"camera.sources[{i}]", f"{kind} needs an argument, e.g. '{kind}:0'")


# BCM pin numbers, chosen to avoid I2C, SPI, UART and the PWM audio pins (docs/install.md, the wiring).
DEFAULT_BUTTONS = (17, 27, 22, 23)
DEFAULT_LEDS = (5, 6, 13, 19)
DEFAULT_BUZZER = 18


@dataclass(frozen=True)
class SeatsConfig:
    # Which driver the seats are: GPIO buttons and LEDs, keyboard keys (F1–F4), or the serial seat pods
    # ([serial] port). ``referee --simulate`` plays with the keyboard whatever the file says.
    backend: Literal["gpio", "keyboard", "pods"] = "gpio"
    count: Annotated[int, Range(1, 4)] = 4
    buttons: tuple[Pin, ...] = DEFAULT_BUTTONS
    leds: tuple[Pin, ...] = DEFAULT_LEDS
    buzzer: Pin | None = DEFAULT_BUZZER
    bounce_seconds: Annotated[float, Range(0, 1)] = 0.05
    hold_seconds: Annotated[float, Range(0.2, 10)] = 1.0
    colours: tuple[str, ...] = ("#d62828", "#1d4ed8", "#15803d", "#f59e0b")

    def __post_init__(self) -> None:
        _check_section(self, "seats")
        for name in ("buttons", "leds"):
            pins = getattr(self, name)
            if len(pins) < self.count:
                raise ConfigError(f"seats.{name}", f"lists {len(pins)} pins for {self.count} seats")
        used = [*self.buttons[: self.count], *self.leds[: self.count]]
        if self.buzzer is not None:
            used.append(self.buzzer)
        dup = sorted({p for p in used if used.count(p) > 1})
        if dup:
            raise ConfigError("seats", f"BCM pins used twice: {dup}")
        for i, colour in enumerate(self.colours):
            if not (len(colour) == 7 and colour.startswith("#")):
                raise ConfigError(f"seats.colours[{i}]", f"{colour!r} is not a colour like '#d62828'")
            try:
                int(colour[1:], 16)
            except ValueError:
                raise ConfigError(
                    f"seats.colours[{i}]", f"{colour!r} is not a colour like '#d62828'"
                ) from None
        if len(self.colours) < self.count:
            raise ConfigError(
                "seats.colours", f"lists {len(self.colours)} colours for {self.count} seats; one per seat"
            )


@dataclass(frozen=True)
class SerialConfig:
    """Seat pods or a clock display on a serial line; ``port`` empty means none."""

    port: str = ""
    baudrate: Literal[9600, 19200, 38400, 57600, 115200, 230400] = 115200

    def __post_init__(self) -> None:
        _check_section(self, "serial")


VoiceGroup = Literal["turn", "timer", "refusals", "rolls", "scores", "results"]  # device.voice.kinds.GROUPS


@dataclass(frozen=True)
class VoiceConfig:
    """The referee's voice (``device/voice``): espeak-ng through ALSA. ``enabled``: on where a sound
    device exists (without one the game goes on silent). ``messages``: the groups of sentences said;
    ``rolls`` (the roll read aloud) is off by default. The owner changes all four on the settings screen."""

    enabled: bool = True
    volume: Annotated[int, Range(0, 200)] = 100  # espeak-ng's amplitude; 100 is its normal loudness
    speed: Annotated[int, Range(80, 400)] = 160  # words per minute
    messages: tuple[VoiceGroup, ...] = ("turn", "timer", "refusals", "scores", "results")
    device: str = ""  # the ALSA device aplay plays on (``aplay -L``); empty: the default
    log: str = ""  # a file that gets one line per sentence spoken (``--voice-log`` overrides it)

    def __post_init__(self) -> None:
        _check_section(self, "voice")
        seen = [g for i, g in enumerate(self.messages) if g in self.messages[:i]]
        if seen:
            raise ConfigError("voice.messages", f"{seen[0]!r} is listed twice")


def move_seconds(options: Options, *, config: int | None = None, owner: int | None = None) -> int:
    """The one answer to "how long may a move take" (seconds, 0 = no limit): the owner's setting on the
    screen (``device.settings``), else the config file's ``timer_seconds`` for the game, else the rule
    option of the ``options`` the game is played with (its preset: Rummikub's ``move_seconds``), else
    none — within what the game's rules allow when on (``Options.fit_move_seconds``: Kalooki 30–120 s).
    Here, not in ``device.settings``, so that the config (:meth:`Config.timer_seconds`) and the settings
    both use it without importing each other.

    >>> from rules.rummikub import RummikubOptions
    >>> move_seconds(RummikubOptions()), move_seconds(RummikubOptions(move_seconds=90))
    (60, 90)
    >>> move_seconds(RummikubOptions(), config=45), move_seconds(RummikubOptions(), config=45, owner=0)
    (45, 0)
    >>> from rules.kalooki import KalookiOptions
    >>> move_seconds(KalookiOptions()), move_seconds(KalookiOptions(), owner=180)
    (0, 120)
    """
    if owner is not None:
        chosen = owner
    elif config is not None:
        chosen = config
    else:
        chosen = options.move_limit_seconds
    return type(options).fit_move_seconds(chosen)


@dataclass(frozen=True)
class Config:
    device: DeviceConfig = field(default_factory=DeviceConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    seats: SeatsConfig = field(default_factory=SeatsConfig)
    serial: SerialConfig = field(default_factory=SerialConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    # Per game: the rule preset and option overrides, plus the move timer (``timer_seconds``, 0 = off).
    # Validated against the game's options class; kept as plain mappings so the file stays readable.
    games: dict[str, dict[str, object]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.seats.backend == "pods" and not self.serial.port:
            raise ConfigError("seats.backend", "'pods' needs the pods' serial line: set serial.port")

    def game_options(self, game: str, **overrides: object) -> Options:
        """The rules options of ``game`` from its table (preset + overrides), plus ``overrides``."""
        import rules

        spec = rules.get_game(game)
        table = self.games.get(game, {})
        own = (*TABLE_KEYS, *GAME_TABLE_KEYS.get(game, ()))
        rule_values = {k: v for k, v in table.items() if k not in own}
        return spec.options_type.preset(str(table.get("preset", "seed")), **{**rule_values, **overrides})

    def timer_seconds(self, game: str, options: Options | None = None) -> int:
        """The move timer in seconds (0 = off) before the owner's setting: the table's
        ``timer_seconds`` if set, else the rule option of ``options`` (default: the file's preset;
        Rummikub's 60 s ``move_seconds``, RULES.md §3), else off (:func:`move_seconds`)."""
        return move_seconds(options or self.game_options(game), config=self.config_timer(game))

    def config_timer(self, game: str) -> int | None:
        """The game table's ``timer_seconds``, or ``None`` when the file does not set one."""
        table = self.games.get(game, {})
        seconds = table.get("timer_seconds")
        return seconds if isinstance(seconds, int) else None  # checked at load: whole seconds


_SECTIONS: dict[str, type] = {
    "device": DeviceConfig,
    "display": DisplayConfig,
    "camera": CameraConfig,
    "seats": SeatsConfig,
    "serial": SerialConfig,
    "voice": VoiceConfig,
}


def config_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    if explicit:
        return Path(explicit)
    env = os.environ.get("TABLETOP_REFEREE_CONFIG")
    return Path(env) if env else DEFAULT_PATH


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Read and validate the config file; a missing file gives the defaults."""
    p = config_path(path)
    if not p.exists():
        return Config()
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(p), f"cannot read the config file: {exc}") from exc
    return load_config_text(text, str(p))


def load_config_text(text: str, source: str = "(file)") -> Config:
    """The config of ``text``; ``source`` (the file's path) names where invalid TOML is."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, f"not valid TOML: {exc}") from exc
    return config_from_dict(data)


def config_from_dict(data: Mapping[str, object]) -> Config:
    allowed = [*_SECTIONS, "games"]
    values: dict[str, Any] = {}  # Any: each a section's dataclass (or the games' tables), made by _section
    for key, value in data.items():
        if key not in allowed:
            raise ConfigError(key, f"unknown section; allowed sections: {', '.join(allowed)}")
        if not isinstance(value, dict):
            raise ConfigError(key, "must be a table, e.g. [" + key + "]")
        if key == "games":
            values["games"] = _games(value)
        else:
            values[key] = _section(key, _SECTIONS[key], value)
    return Config(**values)


# A game table's keys besides its rule options: the device's own for every game, and a game's own, each
# with how it is read into the table once, at load (a TableKey, from the game's own module: Zatre's
# ``deck_manifest`` in ``device.zatre_deck``). A game with keys of its own adds its module's here.
TABLE_KEYS: tuple[str, ...] = ("preset", "timer_seconds")
GAME_TABLE_KEYS: dict[str, Mapping[str, TableKey]] = {"zatre": ZATRE_TABLE_KEYS}
AT_THE_TABLE = ("players", "seed")  # rule options chosen at the table for each game, never in the file


def game_table_keys(game: str) -> list[str]:
    """Every key ``[games.GAME]`` accepts, sorted: the table's own keys and the rule options."""
    import rules

    options = [f.name for f in dataclasses.fields(rules.get_game(game).options_type)]
    return sorted({*TABLE_KEYS, *GAME_TABLE_KEYS.get(game, ()), *options} - set(AT_THE_TABLE))


def _games(data: dict[str, object]) -> dict[str, dict[str, object]]:
    import rules

    known = [g.name for g in rules.games()]
    out: dict[str, dict[str, object]] = {}
    for name, table in data.items():
        key = f"games.{name}"
        if name not in known:
            raise ConfigError(key, f"unknown game; allowed values: {', '.join(known)}")
        if not isinstance(table, dict):
            raise ConfigError(key, "must be a table")
        accepted = game_table_keys(name)
        for k in table:
            if k in AT_THE_TABLE:
                raise ConfigError(f"{key}.{k}", "is chosen at the table, not in the config")
            if k not in accepted:
                raise ConfigError(f"{key}.{k}", f"unknown key; allowed keys: {', '.join(accepted)}")
        timer = table.get("timer_seconds", 0)
        try:
            coerce(f"{key}.timer_seconds", TimerSeconds, timer)
        except OptionError as exc:
            raise ConfigError(exc.key, f"{exc.message} (whole seconds, 0 = off)") from None
        preset = table.get("preset", "seed")
        spec = rules.get_game(name)
        bounds = spec.options_type.move_seconds_allowed()
        if (
            bounds is not None
            and isinstance(timer, int)
            and timer > 0
            and not bounds[0] <= timer <= bounds[1]
        ):
            raise ConfigError(
                f"{key}.timer_seconds", f"{timer} s; allowed: 0 (off) or {bounds[0]}–{bounds[1]} for {name}"
            )
        if not isinstance(preset, str):
            allowed = ", ".join(repr(n) for n in spec.options_type.preset_names())
            raise ConfigError(f"{key}.preset", f"{preset!r} is not a preset name; allowed values: {allowed}")
        for own_key, read in GAME_TABLE_KEYS.get(name, {}).items():
            if own_key in table:
                try:
                    table = read(table)
                except ValueError as exc:
                    raise ConfigError(f"{key}.{own_key}", str(exc)) from None
        own = (*TABLE_KEYS, *GAME_TABLE_KEYS.get(name, ()))
        rule_values = {k: v for k, v in table.items() if k not in own}
        try:
            spec.options_type.preset(preset, **_tuples(rule_values))
        except OptionError as exc:
            raise ConfigError(f"{key}.{exc.key}", exc.message) from exc
        out[name] = dict(table)
    return out


def _tuples(values: dict[str, object]) -> dict[str, object]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}


def _check_section(obj: object, section: str) -> None:
    """The one check of every field's type and range (``rules.options``), named ``section.key``."""
    try:
        check_fields(obj, prefix=f"{section}.")
    except OptionError as exc:
        raise ConfigError(exc.key, exc.message) from None


def _section(name: str, cls: type, data: dict[str, object]) -> object:
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = {f.name for f in dataclasses.fields(cls)}
    kwargs: dict[str, object] = {}
    for key, value in data.items():
        dotted = f"{name}.{key}"
        if key not in fields:
            raise ConfigError(dotted, f"unknown key; allowed keys: {', '.join(sorted(fields))}")
        kwargs[key] = _convert(dotted, hints[key], value)
    return cls(**kwargs)


def _convert(key: str, tp: object, value: object) -> object:
    try:
        return coerce(key, tp, value)
    except OptionError as exc:
        raise ConfigError(exc.key, exc.message) from None
