"""pygame input becomes device events; seat LEDs follow the turn and the clock."""

from __future__ import annotations

import pygame

from device.events import EventQueue, Key, Quit, Tap, from_pygame
from device.seat_signals import SeatSignals
from drivers.events import ButtonEvent
from drivers.seats import LedPattern
from tests.device.helpers import pick_box, roll, seat_to_move, start_dice


def test_touch_mouse_keys_and_quit_are_converted() -> None:
    size = (800, 480)
    finger = pygame.event.Event(pygame.FINGERDOWN, x=0.5, y=0.25, finger_id=0, touch_id=0, dx=0, dy=0)
    assert from_pygame(finger, size) == Tap((400, 120))
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 20), button=1)
    assert from_pygame(click, size) == Tap((10, 20))
    right = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 20), button=3)
    assert from_pygame(right, size) is None
    down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, unicode="r", mod=0, scancode=0)
    assert from_pygame(down, size) == Key(pygame.K_r, "r")
    up = pygame.event.Event(pygame.KEYUP, key=pygame.K_F1, unicode="", mod=0, scancode=0)
    assert from_pygame(up, size) == Key(pygame.K_F1, "", down=False)
    assert from_pygame(pygame.event.Event(pygame.QUIT), size) == Quit()


def test_queue_keeps_order_across_threads() -> None:
    import threading

    queue = EventQueue()

    def post_all(seat: int) -> None:
        for i in range(100):
            queue.post(ButtonEvent(seat, "press", str(i)))

    threads = [threading.Thread(target=post_all, args=(s,)) for s in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    events = queue.drain()
    assert len(events) == 300
    for s in range(3):
        assert [int(e.source) for e in events if isinstance(e, ButtonEvent) and e.seat == s] == list(
            range(100)
        )
    assert queue.drain() == []


def test_button_hold_and_release_do_not_confirm(make_app) -> None:
    app = make_app()
    session = start_dice(app, "Generał (classic)")
    roll(app, (6, 6, 6, 6, 6))
    pick_box(session, "yahtzee")
    for kind in ("hold", "release"):
        app.post(ButtonEvent(seat_to_move(session), kind))
        app.step()
    assert session.seq == 1


def test_leds_light_the_current_seat_only() -> None:
    sent: list[tuple[int, str]] = []

    class Panel:
        def set_led(self, seat: int, pattern: LedPattern) -> None:
            sent.append((seat, pattern.name))

        def beep(self, count: int = 1, on_time: float = 0.1, off_time: float = 0.1) -> None:
            raise OSError("buzzer wire cut")

        def show_clock(self, seat: int, seconds_left: float | None) -> None:
            pass  # no clock display

    signals = SeatSignals([Panel()], 3)
    signals.show(1)
    assert sent == [(0, "OFF"), (1, "ON"), (2, "OFF")]
    signals.show(1)
    assert len(sent) == 3  # only changes go to the panel
    signals.show(1, warning=True)
    signals.show(1, paused=True)
    assert sent[3:] == [(1, "BLINK"), (1, "PULSE")]
    signals.beep(2)  # a broken buzzer is logged, never raised


def test_pod_clocks_show_the_seconds_left_of_the_current_seat() -> None:
    clocks: list[tuple[int, int | None]] = []

    class Pods:
        def set_led(self, seat: int, pattern: LedPattern) -> None:
            pass

        def show_clock(self, seat: int, seconds_left: float | None) -> None:
            clocks.append((seat, None if seconds_left is None else int(seconds_left)))

        def beep(self, count: int = 1, on_time: float = 0.1, off_time: float = 0.1) -> None:
            pass

    signals = SeatSignals([Pods()], 2)
    signals.show(0, seconds_left=30.0)
    signals.show(0, seconds_left=29.6)  # still "0:30" on the pod: nothing sent
    signals.show(0, seconds_left=28.9)
    signals.show(1, seconds_left=30.0)  # the previous seat's clock goes blank
    assert clocks == [(0, 30), (0, 29), (0, None), (1, 30)]
