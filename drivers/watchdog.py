"""systemd's readiness and watchdog notifications (``sd_notify``), without libsystemd.

systemd passes ``NOTIFY_SOCKET`` (an AF_UNIX datagram socket; a leading ``@`` means the abstract
namespace) and, with ``WatchdogSec=``, ``WATCHDOG_USEC``. The event loop calls ``ping()`` every frame;
a ``WATCHDOG=1`` datagram goes out at most every half interval, so a hung loop gets the service
restarted. Outside systemd every call is a no-op.

>>> wd = Watchdog.from_env({})
>>> wd.enabled, wd.interval
(False, None)
>>> wd.ping()
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

__all__ = ["Watchdog"]

log = logging.getLogger(__name__)


class Watchdog:
    """Sends ``READY=1``, ``WATCHDOG=1``, ``STATUS=…`` and ``STOPPING=1`` to systemd.

    ``address`` is the value of ``NOTIFY_SOCKET`` (``None``: disabled); ``interval`` is the watchdog
    period in seconds (``None``: no watchdog, but readiness and status are still sent).
    Sending never raises: a lost notification is logged, and systemd's own timeout decides.
    """

    def __init__(
        self,
        address: str | None,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._address = address
        self.interval = interval if address else None
        self._clock = clock
        self._last_ping: float | None = None
        self._sock: socket.socket | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Watchdog:
        """The watchdog systemd asked for in the environment; disabled when ``NOTIFY_SOCKET`` is unset."""
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        interval: float | None = None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        # WATCHDOG_PID names the process the watchdog is meant for; a child that inherited it must not ping.
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            interval = int(usec) / 1_000_000
        return cls(address, interval)

    @property
    def enabled(self) -> bool:
        return self._address is not None

    def ready(self) -> None:
        self._send("READY=1")

    def status(self, text: str) -> None:
        self._send("STATUS=" + text.replace("\n", " "))

    def stopping(self) -> None:
        self._send("STOPPING=1")

    def ping(self) -> None:
        """Called every frame; tells systemd the loop is alive at most every half interval."""
        if self.interval is None:
            return
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < self.interval / 2:
            return
        self._last_ping = now
        self._send("WATCHDOG=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _send(self, message: str) -> None:
        if self._address is None:
            return
        # A leading "@" names a socket in Linux's abstract namespace, spelled with a NUL byte.
        target = "\0" + self._address[1:] if self._address.startswith("@") else self._address
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message.encode(), target)
        except OSError as exc:
            log.warning("sd_notify %s to %s failed: %s", message, self._address, exc)
