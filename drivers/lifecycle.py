"""One lifecycle for every driver: ``close()`` (idempotent), ``closed``, a context manager, and
``DriverClosed`` when a closed driver is used — the gpiozero way, written once.

A driver derives from :class:`Closeable`, releases its hardware in :meth:`Closeable._release` and
calls :meth:`Closeable._check_open` at the top of every method that needs the hardware.

>>> class Lamp(Closeable):
...     what = "the lamp"
...     def on(self) -> str:
...         self._check_open()
...         return "on"
>>> with Lamp() as lamp:
...     lamp.on()
'on'
>>> lamp.closed
True
>>> lamp.on()
Traceback (most recent call last):
...
drivers.errors.DriverClosed: the lamp is closed
"""

from __future__ import annotations

import threading
from types import TracebackType
from typing import ClassVar, Self

from drivers.errors import DriverClosed

__all__ = ["Closeable"]

_CLOSING = threading.Lock()  # closing is rare: one lock for every driver makes close() run once


class Closeable:
    """The base of every driver: see the module docstring."""

    what: ClassVar[str] = "the driver"  # how DriverClosed names it

    _closed: bool = False

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release the hardware; closing again does nothing. Safe from any thread."""
        with _CLOSING:
            if self._closed:
                return
            self._closed = True
        self._release()

    def _release(self) -> None:
        """What closing does (stop threads, free pins); called once."""

    def _check_open(self) -> None:
        if self._closed:
            raise DriverClosed(f"{self.what} is closed")

    def __enter__(self) -> Self:
        self._check_open()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
