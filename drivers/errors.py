"""One hierarchy of driver errors, each also inheriting the matching builtin.

Callers catch broadly (``DriverError``) or precisely (``CameraError``); code that only knows builtins
still works (a ``CameraError`` is an ``OSError``). Drivers raise these from calls made by the device,
and turn failures in their own threads into events instead (``CameraLost``, ``PodLost``).

>>> issubclass(CameraError, OSError) and issubclass(CameraError, DriverError)
True
"""

from __future__ import annotations

__all__ = ["CameraError", "DriverClosed", "DriverError", "PodError", "PodProtocolError", "SeatError"]


class DriverError(Exception):
    """Any failure of a hardware driver."""


class DriverClosed(DriverError, RuntimeError):
    """A driver was used after ``close()``."""


class SeatError(DriverError, OSError):
    """A seat button, LED or the buzzer could not be set up (a bad or busy pin, no GPIO access)."""


class CameraError(DriverError, OSError):
    """A camera source could not be opened or stopped delivering frames."""


class PodError(DriverError, OSError):
    """The serial seat pods could not be reached."""


class PodProtocolError(PodError, ValueError):
    """A line from a pod broke the protocol (bad checksum, unknown message, wrong version)."""
