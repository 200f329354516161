from __future__ import annotations

import queue
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.errors import DriverClosed, DriverError, SeatError
from drivers.events import ButtonEvent
from drivers.seats import BLINK_ON_SECONDS, KeyboardSeats, LedPattern, SeatPanel


def assert_pattern(pin: Any, expected: list[tuple[float, float]]) -> None:
    """The pin went through the ``expected`` states (value exactly), each held at least its time.

    gpiozero's ``assert_states_and_times`` also bounds each time from above (50 ms), a wall-clock
    assertion that a busy machine breaks (a blink's 150 ms seen as 210 under load): a thread sleeps at
    least as long as asked, never less, so only the lower bound is the pattern's (5 ms of timer slack)."""
    states = list(pin.states)[: len(expected)]
    assert [round(s.state, 6) for s in states] == [round(v, 6) for _, v in expected], states
    for state, (seconds, _) in zip(states, expected, strict=True):
        assert state.timestamp >= seconds - 0.005, (state, seconds)


def panel(factory: MockFactory, events: queue.Queue[Any], **kw: Any) -> SeatPanel:
    args: dict[str, Any] = {
        "buttons": (17, 27),
        "leds": (5, 6),
        "buzzer": 18,
        "post": events.put,
        "hold_seconds": 0.2,
        "pin_factory": factory,
    }
    return SeatPanel(**{**args, **kw})


def test_press_hold_release_arrive_as_events(pwm_factory: MockFactory) -> None:
    events: queue.Queue[Any] = queue.Queue()
    with panel(pwm_factory, events) as p:
        pin = pwm_factory.pin(27)
        pin.drive_low()
        assert events.get(timeout=5) == ButtonEvent(1, "press", "gpio")
        assert p.is_pressed(1) and not p.is_pressed(0)
        assert events.get(timeout=5) == ButtonEvent(1, "hold", "gpio")
        pin.drive_high()
        assert events.get(timeout=5) == ButtonEvent(1, "release", "gpio")
        pwm_factory.pin(17).drive_low()
        pwm_factory.pin(17).drive_high()
        assert [events.get(timeout=5) for _ in range(2)] == [
            ButtonEvent(0, "press", "gpio"),
            ButtonEvent(0, "release", "gpio"),
        ]
    assert events.empty()  # a short press is never a hold


def test_buttons_are_pulled_up_and_debounced_by_the_pin(pwm_factory: MockFactory) -> None:
    with panel(pwm_factory, queue.Queue(), bounce_seconds=0.05):
        pin = pwm_factory.pin(17)
        assert pin.pull == "up"
        assert pin.bounce == 0.05


def test_blink_pattern_with_times(pwm_factory: MockFactory) -> None:
    with panel(pwm_factory, queue.Queue()) as p:
        led = pwm_factory.pin(6)
        led.clear_states()
        p.set_led(1, LedPattern.BLINK)
        led.wait_states(5)
        t = BLINK_ON_SECONDS
        assert_pattern(led, [(0.0, 0), (0.0, 1), (t, 0), (t, 1), (t, 0)])
        assert p.led_pattern(1) is LedPattern.BLINK
        assert p.led_pattern(0) is LedPattern.OFF


def test_pulse_fades_in_at_25_steps_a_second(pwm_factory: MockFactory) -> None:
    with panel(pwm_factory, queue.Queue()) as p:
        led = pwm_factory.pin(5)
        led.clear_states()
        p.set_led(0, LedPattern.PULSE)
        led.wait_states(5)
        assert_pattern(led, [(0.0, 0), (0.04, 0.04), (0.04, 0.08), (0.04, 0.12), (0.04, 0.16)])


def test_on_off_and_repeated_patterns(pwm_factory: MockFactory) -> None:
    with panel(pwm_factory, queue.Queue()) as p:
        led = pwm_factory.pin(5)
        led.clear_states()
        p.set_led(0, LedPattern.ON)
        p.set_led(0, LedPattern.ON)  # the same pattern again changes nothing
        p.set_led(0, LedPattern.OFF)
        led.assert_states([0, 1, 0])
        assert len(led.states) == 3


def test_beep_counts_with_times(pwm_factory: MockFactory) -> None:
    with panel(pwm_factory, queue.Queue()) as p:
        buzzer = pwm_factory.pin(18)
        buzzer.clear_states()
        p.beep(count=2, on_time=0.1, off_time=0.1)
        buzzer.wait_states(5)
        assert_pattern(buzzer, [(0.0, 0), (0.0, 1), (0.1, 0), (0.1, 1), (0.1, 0)])


def test_without_pwm_a_pulse_is_a_slow_blink() -> None:
    factory = MockFactory()  # plain pins: no PWM
    with panel(factory, queue.Queue(), buzzer=None) as p:
        led = factory.pin(5)
        p.set_led(0, LedPattern.PULSE)
        p.beep()  # no buzzer: silent, no error
        assert led.state == 1
        assert p.led_pattern(0) is LedPattern.PULSE


def test_a_busy_pin_is_a_seat_error_naming_it(pwm_factory: MockFactory) -> None:
    with pytest.raises(SeatError, match="seat 2 button on BCM 17") as info:
        panel(pwm_factory, queue.Queue(), buttons=(17, 17))
    assert isinstance(info.value, OSError)
    # everything the failed panel claimed was released: a good panel can take the pins now
    panel(pwm_factory, queue.Queue()).close()


def test_mismatched_pin_lists_are_refused(pwm_factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="2 buttons but 1 LEDs"):
        panel(pwm_factory, queue.Queue(), leds=(5,))


def test_closed_panel_refuses_use(pwm_factory: MockFactory) -> None:
    p = panel(pwm_factory, queue.Queue())
    p.close()
    p.close()
    with pytest.raises(DriverClosed):
        p.set_led(0, LedPattern.ON)
    with pytest.raises(DriverError):
        p.beep()


def test_keyboard_seats_press_hold_release() -> None:
    events: list[ButtonEvent] = []
    seats = KeyboardSeats(seats=4, post=events.append, hold_seconds=1.0)
    seats.key(2, True, at=5.0)
    seats.key(2, True, at=5.1)  # key repeat
    seats.poll(5.9)
    assert [e.kind for e in events] == ["press"]
    seats.poll(6.0)
    seats.poll(6.5)
    seats.key(2, False, at=7.0)
    seats.key(2, False, at=7.1)
    assert events == [ButtonEvent(2, k, "keyboard") for k in ("press", "hold", "release")]


def test_keyboard_hold_is_noticed_on_release_without_polls() -> None:
    events: list[ButtonEvent] = []
    seats = KeyboardSeats(seats=1, post=events.append, hold_seconds=1.0)
    seats.key(0, True, at=0.0)
    seats.key(0, False, at=3.0)
    seats.key(0, True, at=4.0)
    seats.key(0, False, at=4.2)
    assert [e.kind for e in events] == ["press", "hold", "release", "press", "release"]


def test_keyboard_records_leds_and_beeps() -> None:
    with KeyboardSeats(seats=2, post=lambda e: None) as seats:
        seats.set_led(1, LedPattern.BLINK)
        seats.beep(3)
        assert [seats.led_pattern(s) for s in range(2)] == [LedPattern.OFF, LedPattern.BLINK]
        assert seats.beeps[-1].count == 3
        assert seats.seats == 2
    with pytest.raises(DriverClosed):
        seats.set_led(0, LedPattern.ON)


def test_every_driver_shares_one_lifecycle(pwm_factory: MockFactory) -> None:
    from drivers.camera import CameraChain
    from drivers.lifecycle import Closeable
    from drivers.pods import PodLink

    drivers: list[Closeable] = [
        panel(pwm_factory, queue.Queue()),
        KeyboardSeats(2, lambda event: None),
        CameraChain(["synthetic"]),
        PodLink("loop://", lambda event: None),
    ]
    for driver in drivers:
        with driver as same:
            assert same is driver and not driver.closed
        assert driver.closed
        driver.close()  # again: nothing happens
        with pytest.raises(DriverClosed):
            driver.__enter__()
    with pytest.raises(DriverClosed, match="the pod link is closed"):
        drivers[3].set_led(0, LedPattern.ON)  # type: ignore[attr-defined]
    with pytest.raises(DriverClosed, match="the camera chain is closed"):
        drivers[2].start()  # type: ignore[attr-defined]


def test_the_pods_are_seats() -> None:
    from drivers.pods import PodLink
    from drivers.seats import Seats

    link: Seats = PodLink("loop://", lambda event: None, seats=2)
    link.set_led(1, LedPattern.PULSE)
    assert link.seats == 2 and link.led_pattern(1) is LedPattern.PULSE
    assert link.led_pattern(0) is LedPattern.OFF
    with pytest.raises(ValueError):
        link.set_led(2, LedPattern.ON)
    link.close()
