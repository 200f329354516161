"""Seat buttons, their LEDs and the buzzer: gpiozero on the Pi, keyboard keys in the simulator.

Both implementations post ``ButtonEvent(seat, kind)`` (seat 0-based; ``press``, ``hold`` once after
``hold_seconds``, ``release``) to one ``post`` callable and show an ``LedPattern`` per seat.

On the Pi, each seat is an arcade button between its BCM pin and ground (internal pull-up; debounced by
the pin driver) and an LED on another pin; one active buzzer. Tests use gpiozero's ``MockFactory``::

    panel = SeatPanel(buttons=(17, 27), leds=(5, 6), buzzer=18, post=events.put)
    panel.set_led(0, LedPattern.PULSE)   # seat 1: your turn
    panel.beep(count=2)

In the simulator the device feeds key presses (F1..F4) to ``KeyboardSeats`` and draws its LEDs.
"""

from __future__ import annotations

import enum
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from drivers.errors import SeatError
from drivers.events import ButtonEvent, guarded
from drivers.lifecycle import Closeable

ButtonPost = Callable[[ButtonEvent], None]  # the seat buttons post only button events
# gpiozero has no type information: its pin factory and its devices (Button, LED, PWMLED, Buzzer) are
# untyped here, named for what they are.
PinFactory = Any
GpioDevice = Any

__all__ = [
    "Beep",
    "ButtonPost",
    "GpioDevice",
    "KeyboardSeats",
    "LedPattern",
    "PinFactory",
    "SeatPanel",
    "Seats",
]


class LedPattern(enum.Enum):
    OFF = "off"
    ON = "on"
    PULSE = "pulse"  # slow pulse: "your turn"
    BLINK = "blink"  # fast blink: "10 s left"


# Seconds. A pulse fades in and out once every two seconds; a blink flashes about three times a second.
PULSE_FADE_SECONDS = 1.0
BLINK_ON_SECONDS = 0.15
BLINK_OFF_SECONDS = 0.15


@dataclass(frozen=True)
class Beep:
    count: int
    on_time: float
    off_time: float


class Seats(Protocol):
    """What the device needs from the seats, whichever backend drives them (``seats.backend``:
    ``gpio`` = :class:`SeatPanel`, ``keyboard`` = :class:`KeyboardSeats`, ``pods`` =
    ``drivers.pods.PodLink``). Buttons arrive as ``ButtonEvent`` on the ``post`` each was given."""

    @property
    def seats(self) -> int: ...

    @property
    def closed(self) -> bool: ...

    def set_led(self, seat: int, pattern: LedPattern) -> None: ...

    def led_pattern(self, seat: int) -> LedPattern: ...

    def beep(self, count: int = 1, on_time: float = 0.1, off_time: float = 0.1) -> None: ...

    def show_clock(self, seat: int, seconds_left: float | None) -> None:
        """The seconds left on the seat's clock display (``None`` blanks it); seats without one ignore it."""

    def close(self) -> None: ...


class SeatPanel(Closeable):
    """The seat buttons, LEDs and buzzer on GPIO, through gpiozero.

    ``pin_factory`` is gpiozero's (``None``: the default, chosen by ``GPIOZERO_PIN_FACTORY``). LEDs use
    PWM where the pins support it (a real pulse); otherwise a pulse is shown as a slow blink.
    Using the panel after ``close()`` raises ``DriverClosed``; a bad or busy pin raises ``SeatError``.
    """

    what = "the seat panel"

    def __init__(
        self,
        buttons: Sequence[int],
        leds: Sequence[int],
        buzzer: int | None,
        post: ButtonPost,
        bounce_seconds: float = 0.05,
        hold_seconds: float = 1.0,
        pin_factory: PinFactory = None,
    ) -> None:
        if len(leds) != len(buttons):
            raise ValueError(f"{len(buttons)} buttons but {len(leds)} LEDs; every seat needs both")
        from gpiozero import LED, PWMLED, Button, Buzzer
        from gpiozero.exc import GPIOZeroError, PinPWMUnsupported

        self._post = guarded(post)
        self._lock = threading.Lock()
        self._buttons: list[GpioDevice] = []
        self._leds: list[GpioDevice] = []
        self._pwm: list[bool] = []
        self._patterns = [LedPattern.OFF] * len(buttons)
        self._buzzer: GpioDevice = None
        what = ""
        try:
            for seat, pin in enumerate(buttons):
                what = f"seat {seat + 1} button on BCM {pin}"
                button = Button(
                    pin,
                    pull_up=True,
                    bounce_time=bounce_seconds or None,
                    hold_time=hold_seconds,
                    pin_factory=pin_factory,
                )
                button.when_pressed = self._poster(seat, "press")
                button.when_held = self._poster(seat, "hold")
                button.when_released = self._poster(seat, "release")
                self._buttons.append(button)
            for seat, pin in enumerate(leds):
                what = f"seat {seat + 1} LED on BCM {pin}"
                try:
                    self._leds.append(PWMLED(pin, pin_factory=pin_factory))
                    self._pwm.append(True)
                except PinPWMUnsupported:
                    self._leds.append(LED(pin, pin_factory=pin_factory))
                    self._pwm.append(False)
            if buzzer is not None:
                what = f"buzzer on BCM {buzzer}"
                self._buzzer = Buzzer(buzzer, pin_factory=pin_factory)
        except GPIOZeroError as exc:
            self.close()
            raise SeatError(f"{what}: {exc}") from exc

    def _poster(self, seat: int, kind: Literal["press", "hold", "release"]) -> Callable[[], None]:
        def post() -> None:
            self._post(ButtonEvent(seat, kind, "gpio"))

        return post

    @property
    def seats(self) -> int:
        return len(self._buttons)

    def is_pressed(self, seat: int) -> bool:
        """Whether the seat's button is down right now (a stuck or miswired button reads as pressed)."""
        self._check_open()
        return bool(self._buttons[seat].is_pressed)

    def set_led(self, seat: int, pattern: LedPattern) -> None:
        """Show ``pattern`` on the seat's LED; setting the pattern it already shows changes nothing."""
        with self._lock:
            self._check_open()
            if self._patterns[seat] == pattern:
                return
            self._patterns[seat] = pattern
            led, pwm = self._leds[seat], self._pwm[seat]
            if pattern is LedPattern.OFF:
                led.off()
            elif pattern is LedPattern.ON:
                led.on()
            elif pattern is LedPattern.BLINK:
                led.blink(on_time=BLINK_ON_SECONDS, off_time=BLINK_OFF_SECONDS)
            elif pwm:
                led.pulse(fade_in_time=PULSE_FADE_SECONDS, fade_out_time=PULSE_FADE_SECONDS)
            else:
                led.blink(on_time=PULSE_FADE_SECONDS, off_time=PULSE_FADE_SECONDS)

    def led_pattern(self, seat: int) -> LedPattern:
        return self._patterns[seat]

    def beep(self, count: int = 1, on_time: float = 0.1, off_time: float = 0.1) -> None:
        """Sound the buzzer ``count`` times in the background; a panel without a buzzer stays silent."""
        with self._lock:
            self._check_open()
            if self._buzzer is not None:
                self._buzzer.beep(on_time=on_time, off_time=off_time, n=count, background=True)

    def show_clock(self, seat: int, seconds_left: float | None) -> None:
        """GPIO seats have no clock display."""

    def _release(self) -> None:
        with self._lock:
            for device in [*self._buttons, *self._leds, self._buzzer]:
                if device is not None:
                    device.close()
            self._buttons, self._leds, self._buzzer = [], [], None


class KeyboardSeats(Closeable):
    """The simulator's seats: the device forwards key presses, and draws the LEDs this records.

    Keys need no debounce; a hold is posted once a key has been down ``hold_seconds``, noticed by
    ``poll(now)`` (called every frame) or at the latest when the key comes up.

    >>> events = []
    >>> seats = KeyboardSeats(seats=2, post=events.append, hold_seconds=1.0)
    >>> seats.key(1, True, at=10.0); seats.poll(10.5); seats.poll(11.0); seats.key(1, False, at=11.2)
    >>> [e.kind for e in events]
    ['press', 'hold', 'release']
    """

    what = "the keyboard seats"

    def __init__(self, seats: int, post: ButtonPost, hold_seconds: float = 1.0) -> None:
        self._post = post
        self._hold_seconds = hold_seconds
        self._down_since: list[float | None] = [None] * seats
        self._held = [False] * seats
        self._patterns = [LedPattern.OFF] * seats
        self.beeps: deque[Beep] = deque(maxlen=16)

    @property
    def seats(self) -> int:
        return len(self._patterns)

    def key(self, seat: int, down: bool, at: float) -> None:
        """A seat's key went down or up at monotonic time ``at``; key repeats are ignored."""
        self._check_open()
        since = self._down_since[seat]
        if down and since is None:
            self._down_since[seat] = at
            self._held[seat] = False
            self._post(ButtonEvent(seat, "press", "keyboard"))
        elif not down and since is not None:
            self.poll(at)
            self._down_since[seat] = None
            self._post(ButtonEvent(seat, "release", "keyboard"))

    def poll(self, now: float) -> None:
        """Post ``hold`` for keys down at least ``hold_seconds`` (once per press)."""
        for seat, since in enumerate(self._down_since):
            if since is not None and not self._held[seat] and now - since >= self._hold_seconds:
                self._held[seat] = True
                self._post(ButtonEvent(seat, "hold", "keyboard"))

    def set_led(self, seat: int, pattern: LedPattern) -> None:
        self._check_open()
        self._patterns[seat] = pattern

    def led_pattern(self, seat: int) -> LedPattern:
        return self._patterns[seat]

    def beep(self, count: int = 1, on_time: float = 0.1, off_time: float = 0.1) -> None:
        self._check_open()
        self.beeps.append(Beep(count, on_time, off_time))

    def show_clock(self, seat: int, seconds_left: float | None) -> None:
        """The simulator draws no seat clocks (the screen shows the move time)."""
