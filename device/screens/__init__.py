"""The screens of the appliance; importing this package imports every module here (``device.discover``),
and each registers its screens in ``SCREENS`` by name (``@screen``): a new game's screen is a new module
here, and no list changes."""

from device.discover import import_all
from device.screens.base import SCREENS, Screen, screen

MODULES = import_all(__name__, __path__)

__all__ = ["MODULES", "SCREENS", "Screen", "screen"]
