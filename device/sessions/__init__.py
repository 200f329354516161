"""The games the appliance can referee: each module here registers what it defines when imported (a
session in ``device.session.SESSIONS``, one module per family of games; a simulated table, ``*_sim``
beside its session, in ``device.sessions.simulated.TABLES``). Importing this package imports them all
(``device.discover``): a new game's session is a new module here, and no list changes."""

from device.discover import import_all

MODULES = import_all(__name__, __path__)

__all__ = ["MODULES"]
