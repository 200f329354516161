"""What the owner changes on the settings screen: the config file's values, overridden at run time.

The overrides live in the journal's ``settings`` table (one database holds all the state the appliance
keeps), so they survive a restart; the config file itself is never rewritten.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import rules
from device.config import GAME_TABLE_KEYS, TABLE_KEYS, Config, move_seconds
from device.journal import Journal
from device.zatre_deck import SETTING as DECK_SETTING
from device.zatre_deck import DeckChoice, deck_choice
from rules import Options

# ``move_seconds`` is the config's (``Config.timer_seconds`` needs it too), named here for its callers.
__all__ = ["TIMER_STEPS", "Settings", "move_seconds", "timer_steps"]

# The timer choices offered on screen (seconds; 0 = off).
TIMER_STEPS = (0, 30, 45, 60, 90, 120, 180)


def timer_steps(game: str) -> tuple[int, ...]:
    """The timer choices of ``game``: off, and the steps its rules allow (Kalooki: 30–120 s).

    >>> timer_steps("kalooki"), timer_steps("yahtzee")[-1]
    ((0, 30, 45, 60, 90, 120), 180)
    """
    allowed = rules.get_game(game).options_type.move_seconds_allowed()
    if allowed is None:
        return TIMER_STEPS
    return tuple(s for s in TIMER_STEPS if s == 0 or allowed[0] <= s <= allowed[1])


def _whole(value: object) -> int:
    """A stored whole number (the journal keeps settings as JSON)."""
    if not isinstance(value, int | float | str):
        raise ValueError(f"a stored setting is not a number: {value!r}")
    return int(value)


def _table(value: object) -> dict[str, object]:
    """A stored table of settings (per game: timers, presets, ...); anything else: none."""
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


@dataclass
class Settings:
    config: Config
    journal: Journal
    language: str = "en"
    seats: int = 4
    camera_source: str = ""  # "" = the config's priority chain; else one source of it
    timers: dict[str, int] = field(default_factory=dict)
    presets: dict[str, str] = field(default_factory=dict)
    coach: str = "off"  # the dice coach's mode for a game not set on its own (older journals: one switch)
    coaches: dict[str, str] = field(default_factory=dict)  # the coach per game: off / hints / solo
    voice: dict[str, object] = field(
        default_factory=dict
    )  # the owner's voice settings (device/voice/settings.py)
    learning: dict[str, bool] = field(default_factory=dict)  # Rummikub's learning table, per game
    zatre_deck_manifest: str = ""  # the deck the owner counted (device/zatre_deck.py), its file's path
    _deck_cache: tuple[object, DeckChoice] | None = field(default=None, repr=False)

    @classmethod
    def load(cls, config: Config, journal: Journal) -> Settings:
        s = cls(config, journal, language=config.device.language, seats=config.seats.count)
        s.language = str(journal.setting("language", s.language))
        s.seats = _whole(journal.setting("seats", s.seats))
        s.camera_source = str(journal.setting("camera_source", ""))
        s.timers = {str(k): _whole(v) for k, v in _table(journal.setting("timers", {})).items()}
        s.presets = {str(k): str(v) for k, v in _table(journal.setting("presets", {})).items()}
        s.coach = str(journal.setting("coach", "off"))
        s.coaches = {str(k): str(v) for k, v in _table(journal.setting("coaches", {})).items()}
        s.voice = _table(journal.setting("voice", {}))
        s.learning = {str(k): bool(v) for k, v in _table(journal.setting("learning", {})).items()}
        s.zatre_deck_manifest = str(journal.setting(DECK_SETTING, "") or "")
        return s

    def set(self, key: str, value: object) -> None:
        setattr(self, key, value)
        self.journal.set_setting(key, value)

    def zatre_deck(self) -> DeckChoice:
        """The deck a new game of Zatre is dealt from, and where it comes from (``deck_choice``: the
        owner's counted deck, else the config's ``deck_manifest``, else the assumed deck). The file is
        read again when it changes."""
        path = self.zatre_deck_manifest
        try:
            stat = os.stat(path) if path else None
            key: object = (path, stat.st_mtime_ns, stat.st_size) if stat else (path, None)
        except OSError:
            key = (path, "missing")
        if self._deck_cache is None or self._deck_cache[0] != key:
            self._deck_cache = (key, deck_choice(path, self.config.games.get("zatre", {})))
        return self._deck_cache[1]

    def set_zatre_deck(self, path: str) -> None:
        """The owner's counted deck (the manifest at ``path``; empty: back to the config's or the
        assumed deck), for the games started from now on."""
        self.zatre_deck_manifest = path
        self._deck_cache = None
        self.journal.set_setting(DECK_SETTING, path)

    def move_seconds(self, options: Options) -> int:
        """The move time limit of a game played with ``options`` (see :func:`move_seconds`)."""
        game = rules.game_of(options).name
        owner = self.timers.get(game)
        return move_seconds(
            options, config=self.config.config_timer(game), owner=None if owner is None else int(owner)
        )

    def timer_seconds(self, game: str) -> int:
        """The move time limit of a new game of ``game`` (the preset chosen on screen)."""
        return self.move_seconds(self.game_options(game))

    def set_timer(self, game: str, seconds: int) -> None:
        self.set("timers", {**self.timers, game: seconds})

    def preset(self, game: str) -> str:
        """The preset a new game of ``game`` is played with: the owner's choice, else the config's, else
        ``seed`` — only ever one of the game's own presets (a choice saved for a preset the game no
        longer has, or never had, falls back to the config's)."""
        names = rules.get_game(game).options_type.preset_names()
        chosen = self.presets.get(game)
        if chosen in names:
            return str(chosen)
        configured = str(self.config.games.get(game, {}).get("preset", "seed"))
        return configured if configured in names else "seed"

    def set_preset(self, game: str, preset: str) -> None:
        if preset not in rules.get_game(game).options_type.preset_names():
            raise ValueError(f"{game} has no preset {preset!r}")
        self.set("presets", {**self.presets, game: preset})

    @staticmethod
    def has_coach(game: str) -> bool:
        """Whether ``game`` has the dice coach (``rules.coach``: Generał, triple Generał and Kości)."""
        from rules.coach.games import coach_game

        try:
            coach_game(rules.get_game(game).options_type())
        except ValueError:
            return False
        return True

    def coach_mode(self, game: str) -> str:
        """The coach of a new game of ``game``: the owner's choice for that game (``off`` for a game
        without a coach; before one is chosen, the one switch older versions kept)."""
        if not self.has_coach(game):
            return "off"
        return self.coaches.get(game, self.coach)

    def set_coach(self, game: str, mode: str) -> None:
        if not self.has_coach(game):
            raise ValueError(f"{game} has no coach")
        self.set("coaches", {**self.coaches, game: mode})

    @staticmethod
    def has_learning(game: str) -> bool:
        """Whether ``game`` has a learning table (an option ``learning``: Rummikub)."""
        fields = rules.get_game(game).options_type.__dataclass_fields__
        return "learning" in fields

    def learning_on(self, game: str) -> bool:
        """Whether a new game of ``game`` is a learning table: the owner's setting (off by default),
        never under the ``tournament`` preset."""
        return self.has_learning(game) and bool(self.learning.get(game)) and self.preset(game) != "tournament"

    def set_learning(self, game: str, on: bool) -> None:
        self.set("learning", {**self.learning, game: on})

    def camera_sources(self) -> tuple[str, ...]:
        if self.camera_source and self.camera_source in self.config.camera.sources:
            return (self.camera_source,)
        return self.config.camera.sources

    def game_options(self, game: str, **overrides: object) -> Options:
        """The rules options for a new game: config table, the preset chosen on screen, ``overrides``."""
        spec = rules.get_game(game)
        own = (*TABLE_KEYS, *GAME_TABLE_KEYS.get(game, ()))
        table = {k: v for k, v in self.config.games.get(game, {}).items() if k not in own}
        if game == "zatre":
            deck = self.zatre_deck()
            table.pop("deck", None)
            if deck.cards:
                table["deck"] = deck.cards
        if self.learning_on(game):
            table["learning"] = True
        elif self.has_learning(game):
            table["learning"] = False  # off unless the owner turned it on (the config cannot)
        return spec.options_type.preset(self.preset(game), **{**table, **overrides})
