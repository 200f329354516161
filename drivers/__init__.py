"""Hardware behind small interfaces, each with a real and a fake implementation.

- ``drivers.seats``: seat buttons, LEDs, buzzer — ``SeatPanel`` (gpiozero) / ``KeyboardSeats``;
  ``drivers.seat_backends.open_seats``: the backend the config names (gpio, keyboard, pods), opened;
- ``drivers.camera``: ``CameraChain`` over Picamera2, USB webcams, a folder of images, a synthetic source
  (each a ``drivers.lifecycle.Closeable``, like every driver);
- ``drivers.pods``: ``PodLink`` to serial seat pods / ``drivers.pod_sim.SimulatedPod`` on a pty;
- ``drivers.watchdog``: ``Watchdog``, systemd's ``sd_notify``;
- ``drivers.events``: what drivers post to the device's one queue; ``drivers.errors``: what they raise.

Drivers import nothing of ours but ``drivers.*``; only ``device`` wires them together.
"""

from drivers.camera import CameraChain, open_source
from drivers.errors import CameraError, DriverClosed, DriverError, PodError, PodProtocolError, SeatError
from drivers.events import ButtonEvent, CameraBack, CameraLost, DriverEvent, PodConnected, PodLost
from drivers.pods import PodLink
from drivers.seat_backends import open_seats
from drivers.seats import KeyboardSeats, LedPattern, SeatPanel
from drivers.watchdog import Watchdog

__all__ = [
    "ButtonEvent",
    "CameraBack",
    "CameraChain",
    "CameraError",
    "CameraLost",
    "DriverClosed",
    "DriverError",
    "DriverEvent",
    "KeyboardSeats",
    "LedPattern",
    "PodConnected",
    "PodError",
    "PodLink",
    "PodLost",
    "PodProtocolError",
    "SeatError",
    "SeatPanel",
    "Watchdog",
    "open_seats",
    "open_source",
]
