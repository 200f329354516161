"""The games the appliance can referee: importing this package registers their sessions in
``device.session.SESSIONS`` (one module per family of games)."""

from device.sessions import dice, zatre

__all__ = ["dice", "zatre"]
