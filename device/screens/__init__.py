"""The screens of the appliance; importing this package registers them in ``SCREENS`` by name."""

from device.screens import (
    correction,
    dice_table,
    end,
    failsafe,
    history,
    home,
    kalooki_table,
    players,
    rummikub_coach_panel,
    rummikub_puzzle,
    rummikub_table,
    settings,
    voice_settings,
    zatre_deck,
    zatre_table,
)
from device.screens.base import SCREENS, Screen, screen

__all__ = [
    "SCREENS",
    "Screen",
    "correction",
    "dice_table",
    "end",
    "failsafe",
    "history",
    "home",
    "kalooki_table",
    "players",
    "rummikub_coach_panel",
    "rummikub_puzzle",
    "rummikub_table",
    "screen",
    "settings",
    "voice_settings",
    "zatre_deck",
    "zatre_table",
]
