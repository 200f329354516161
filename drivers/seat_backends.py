"""The seats' backend, chosen by name from the config, the gpiozero way: one factory knows every
backend, so the device asks for :func:`open_seats` and keeps no if/elif of its own.

=============  ===========================================  ====================================
backend        what                                         opened as
=============  ===========================================  ====================================
``gpio``       arcade buttons, LEDs and a buzzer on pins     :class:`~drivers.seats.SeatPanel`
``keyboard``   F1–F4 in the simulator                        :class:`~drivers.seats.KeyboardSeats`
``pods``       seat pods on a serial line                    :class:`~drivers.pods.PodLink`, started
=============  ===========================================  ====================================

The factory reads the settings through two small protocols (the device's ``[seats]`` and ``[serial]``
sections satisfy them), so ``drivers`` still imports nothing of the device. A new backend is one
function registered in :data:`BACKENDS`.

>>> seats = open_seats(Settings(backend="keyboard", count=2), Line(), print)
>>> type(seats).__name__, seats.seats
('KeyboardSeats', 2)
>>> seats.close()
>>> open_seats(Settings(backend="morse", count=2), Line(), print)
Traceback (most recent call last):
...
drivers.errors.SeatError: no seat backend 'morse'; the backends: gpio, keyboard, pods
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from drivers.errors import SeatError
from drivers.pods import PodLink, PodPost
from drivers.seats import KeyboardSeats, PinFactory, SeatPanel, Seats

__all__ = ["BACKENDS", "Line", "LineSettings", "SeatSettings", "Settings", "open_pods", "open_seats"]


class SeatSettings(Protocol):
    """What a backend reads of the seats' settings (``device.config.SeatsConfig``)."""

    @property
    def backend(self) -> str: ...
    @property
    def count(self) -> int: ...
    @property
    def buttons(self) -> Sequence[int]: ...
    @property
    def leds(self) -> Sequence[int]: ...
    @property
    def buzzer(self) -> int | None: ...
    @property
    def bounce_seconds(self) -> float: ...
    @property
    def hold_seconds(self) -> float: ...


class LineSettings(Protocol):
    """The serial line of the seat pods (``device.config.SerialConfig``; ``port`` empty: none)."""

    @property
    def port(self) -> str: ...
    @property
    def baudrate(self) -> int: ...


@dataclass(frozen=True)
class Settings:
    """Seat settings as plain values (tests, tools); the defaults are the config's."""

    backend: str = "gpio"
    count: int = 4
    buttons: Sequence[int] = (17, 27, 22, 23)
    leds: Sequence[int] = (5, 6, 13, 19)
    buzzer: int | None = 18
    bounce_seconds: float = 0.05
    hold_seconds: float = 1.0


@dataclass(frozen=True)
class Line:
    port: str = ""
    baudrate: int = 115200


def open_pods(line: LineSettings, post: PodPost, seats: int) -> PodLink:
    """The seat pods on ``line``, started (raises what :class:`~drivers.pods.PodLink` raises)."""
    if not line.port:
        raise SeatError("the seat pods need a serial port ([serial] port)")
    link = PodLink(line.port, post, line.baudrate, seats=seats)
    try:
        link.start()
    except BaseException:
        link.close()
        raise
    return link


def _gpio(s: SeatSettings, line: LineSettings, post: PodPost, pin_factory: PinFactory) -> Seats:
    buttons, leds = s.buttons[: s.count], s.leds[: s.count]
    return SeatPanel(buttons, leds, s.buzzer, post, s.bounce_seconds, s.hold_seconds, pin_factory)


def _keyboard(s: SeatSettings, line: LineSettings, post: PodPost, pin_factory: PinFactory) -> Seats:
    return KeyboardSeats(s.count, post, s.hold_seconds)


def _pods(s: SeatSettings, line: LineSettings, post: PodPost, pin_factory: PinFactory) -> Seats:
    return open_pods(line, post, s.count)


#: every seat backend by its config name: ``(seats, line, post, pin_factory) -> Seats``
BACKENDS: dict[str, Callable[[SeatSettings, LineSettings, PodPost, PinFactory], Seats]] = {
    "gpio": _gpio,
    "keyboard": _keyboard,
    "pods": _pods,
}


def open_seats(
    settings: SeatSettings,
    line: LineSettings,
    post: PodPost,
    *,
    backend: str | None = None,
    pin_factory: PinFactory = None,
) -> Seats:
    """The seats of ``backend`` (default: ``settings.backend``), opened; :class:`SeatError` for a name
    no backend has, else what the backend raises when its hardware is missing. ``pin_factory``: the
    GPIO pins' (gpiozero's; ``None``: its default, ``GPIOZERO_PIN_FACTORY``)."""
    name = settings.backend if backend is None else backend
    make = BACKENDS.get(name)
    if make is None:
        raise SeatError(f"no seat backend {name!r}; the backends: {', '.join(sorted(BACKENDS))}")
    return make(settings, line, post, pin_factory)
