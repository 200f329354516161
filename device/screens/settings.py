"""Settings, behind the owner's PIN: language, the move timer and the rule preset per game, the camera,
the number of seats; during a game also pause/resume of the move timer and leaving the game.

The PIN is asked each time the screen is entered; a wrong PIN clears the entry. After
:data:`FREE_ATTEMPTS` wrong PINs in a row each further one locks the pad for a growing time
(:func:`pin_delay`: 5 s, 10 s, 20 s … up to 15 minutes), shown on the screen; the count of wrong PINs is
kept in the journal, so a restart does not reset it. While the PIN is the default ``0000`` the unlocked
screen says so.
"""

from __future__ import annotations

from functools import partial

import pygame

import rules
from device.events import Event, Key
from device.host import Host
from device.i18n import LANGUAGES
from device.screens.base import Screen, screen
from device.screens.home import game_entries
from device.settings import timer_steps
from device.ui.canvas import Canvas
from device.ui.theme import PANEL, TEXT_DIM, WARNING
from device.ui.widgets import pin_pad

# The coach modes (device/coach.py) and their names on screen.
COACH_MODE_NAMES = {"off": "Off", "hints": "Hints", "solo": "Solo"}

DEFAULT_PIN = "0000"
FREE_ATTEMPTS = 3  # wrong PINs before the pad locks (a typo or two costs nothing)
FIRST_DELAY = 5.0
MAX_DELAY = 900.0
FAILURES_SETTING = "pin_failures"


def pin_delay(failures: int) -> float:
    """Seconds the pad stays locked after ``failures`` wrong PINs in a row.

    >>> [pin_delay(n) for n in (1, 2, 3, 4, 5, 6, 20)]
    [0.0, 0.0, 5.0, 10.0, 20.0, 40.0, 900.0]
    """
    if failures < FREE_ATTEMPTS:
        return 0.0
    return min(MAX_DELAY, FIRST_DELAY * 2 ** min(failures - FREE_ATTEMPTS, 20))


# The rules presets and camera sources in words a player understands (the ids are the config's). A
# game shows the presets its options module has (``preset_names``): Kalooki and Zatre only ``seed``.
PRESET_WORDS = {"seed": "House rules", "official": "Official rules"}
SOURCE_WORDS = {"": "Auto", "synthetic": "Simulated", "picamera2": "Pi camera"}


@screen("settings")
class SettingsScreen(Screen):
    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.entered = ""
        self.unlocked = False
        self.wrong = False
        self.confirm_leave = False
        self.game_index = 0
        failures = host.journal.setting(FAILURES_SETTING, 0)
        self.failures = failures if isinstance(failures, int) else 0
        self.locked_until = host.clock() + pin_delay(self.failures)

    def enter(self, unlocked: bool = False, **_: object) -> None:
        """``unlocked``: back from the owner's own sub-screen (the voice), the PIN already given."""
        self.entered = ""
        self.unlocked = unlocked
        self.wrong = False
        session = self.host.session
        if session is not None:
            variant = session.spec.variant_of(session.options.to_dict())  # Zatre's: information
            shown = (session.spec.name, None if variant is None else str(variant))
            for i, (name, kind, _title) in enumerate(self.games()):
                if (name, kind) == shown or (name == shown[0] and kind is None):
                    self.game_index = i
                    break

    def games(self) -> list[tuple[str, str | None, str]]:
        """The games as the home screen lists them (variants apart, by the same names); a variant's
        settings are its game's (the timer, the preset, the coach)."""
        return game_entries(self.tr.language)

    @property
    def game(self) -> str:
        games = self.games()
        return games[self.game_index % len(games)][0]

    @property
    def game_title(self) -> str:
        games = self.games()
        return games[self.game_index % len(games)][2]

    def back(self) -> None:
        self.host.show_game()

    # --- PIN -----------------------------------------------------------------------------------------

    def lock_left(self) -> float:
        """Seconds until the pad takes a PIN again (0: now)."""
        return max(0.0, self.locked_until - self.host.clock())

    def digit(self, d: str) -> None:
        if self.lock_left() > 0:
            return
        self.wrong = False
        if len(self.entered) < 8:
            self.entered += d

    def erase(self) -> None:
        self.entered = self.entered[:-1]

    def check(self) -> None:
        if self.lock_left() > 0:
            self.entered = ""
            return
        if self.entered == self.host.config.device.owner_pin:
            self.unlocked = True
            self._count_failures(0)
        else:
            self.wrong = True
            self._count_failures(self.failures + 1)
        self.entered = ""

    def _count_failures(self, failures: int) -> None:
        if failures != self.failures:
            self.failures = failures
            self.host.journal.set_setting(FAILURES_SETTING, failures)
        self.locked_until = self.host.clock() + pin_delay(failures)

    def handle(self, event: Event) -> None:
        if isinstance(event, Key) and not self.unlocked:
            if len(event.text) == 1 and event.text in "0123456789":
                self.digit(event.text)
                return
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.check()
                return
            if event.key == pygame.K_BACKSPACE:
                self.erase()
                return
        super().handle(event)

    # --- changes -------------------------------------------------------------------------------------

    def next_game(self) -> None:
        self.game_index = (self.game_index + 1) % len(self.games())

    def move_seconds(self) -> int:
        """The move time limit of the game shown: the one being played, else a new one with the preset
        chosen here (``Settings.move_seconds``: the owner's, the config's or the rule's)."""
        session = self.host.session
        if session is not None and session.spec.name == self.game:
            return self.host.settings.move_seconds(session.options)
        return self.host.settings.timer_seconds(self.game)

    def step_timer(self, step: int) -> None:
        current = self.move_seconds()
        steps = sorted({*timer_steps(self.game), current})
        value = steps[max(0, min(len(steps) - 1, steps.index(current) + step))]
        self.host.set_move_seconds(self.game, value)

    def presets(self) -> list[str]:
        """The rule presets of the game shown, as its options module names them."""
        return rules.get_game(self.game).options_type.preset_names()

    def set_preset(self, preset: str) -> None:
        if preset in self.presets():
            self.host.settings.set_preset(self.game, preset)

    def next_coach_mode(self) -> None:
        """The coach of the game shown (a dice game): off → hints → solo → off (a game keeps the mode
        it started with)."""
        mode = self.host.settings.coach_mode(self.game)
        modes = list(COACH_MODE_NAMES)
        self.host.settings.set_coach(
            self.game, modes[(modes.index(mode) + 1) % len(modes)] if mode in modes else "off"
        )

    def toggle_learning(self) -> None:
        """Rummikub's learning table (the coach at the table), per game; a game keeps what it started
        with (it is in its options)."""
        settings = self.host.settings
        settings.set_learning(self.game, not settings.learning.get(self.game, False))

    def open_voice(self) -> None:
        self.host.show("voice_settings")

    def open_deck_count(self) -> None:
        self.host.show("zatre_deck")

    def set_camera(self, source: str) -> None:
        self.host.settings.set("camera_source", source)

    def set_seats(self, count: int) -> None:
        self.host.settings.set("seats", max(1, min(count, self.host.config.seats.count)))

    def toggle_pause(self) -> None:
        session = self.host.session
        if session is None:
            return
        if session.timer.paused:
            session.timer.resume()
        else:
            session.timer.pause()

    def leave_game(self) -> None:
        """Asks first: a tap too many must not end a game."""
        self.confirm_leave = True

    def confirm_leave_game(self, leave: bool) -> None:
        self.confirm_leave = False
        if leave:
            self.host.end_session()

    def draw_leave_question(self, canvas: Canvas) -> None:
        box = canvas.rect.inflate(-canvas.px(120), -canvas.px(160))
        canvas.shape(box, PANEL, radius=12)
        inner = box.inflate(-canvas.px(32), -canvas.px(32))
        canvas.text(
            self._("Leave this game?"),
            (inner.left, inner.top, inner.width, canvas.px(40)),
            size=30,
            bold=True,
        )
        canvas.paragraph(
            self._("It stays in the history but cannot be resumed."),
            (inner.left, inner.top + canvas.px(48), inner.width, canvas.px(60)),
            size=22,
        )
        w = (inner.width - canvas.px(16)) // 2
        y = inner.bottom - canvas.px(60)
        canvas.button(
            (inner.left, y, w, canvas.px(60)),
            self._("Leave game"),
            partial(self.confirm_leave_game, True),
            colour=WARNING,
            size=22,
        )
        canvas.button(
            (inner.left + w + canvas.px(16), y, w, canvas.px(60)),
            self._("Keep playing"),
            partial(self.confirm_leave_game, False),
            size=22,
        )

    # --- drawing -------------------------------------------------------------------------------------

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        area = self.header(canvas, self._("Settings"))
        if not self.unlocked:
            self.draw_pin(canvas, area)
        elif self.confirm_leave:
            self.draw_leave_question(canvas)
        else:
            self.draw_settings(canvas, area)

    def draw_pin(self, canvas: Canvas, area: pygame.Rect) -> None:
        m = canvas.px(24)
        canvas.text(
            self._("Owner PIN"), (m, area.top + canvas.px(16), canvas.px(300), canvas.px(40)), size=28
        )
        canvas.text(
            "•" * len(self.entered), (m, area.top + canvas.px(64), canvas.px(300), canvas.px(48)), size=40
        )
        if self.wrong:
            canvas.text(
                self._("Wrong PIN"),
                (m, area.top + canvas.px(120), canvas.px(300), canvas.px(40)),
                size=24,
                colour=WARNING,
            )
        left = self.lock_left()
        if left > 0:
            canvas.paragraph(
                self._("Too many wrong PINs: wait {n} s", n=max(1, int(left + 0.999))),
                (m, area.top + canvas.px(168), canvas.px(340), canvas.px(80)),
                size=22,
                colour=WARNING,
            )
        pad = pygame.Rect(
            canvas.width - canvas.px(400),
            area.top + canvas.px(8),
            canvas.px(376),
            area.height - canvas.px(16),
        )
        pin_pad(canvas, pad, self.digit, self.erase, self.check, self._("OK"))

    def draw_settings(self, canvas: Canvas, area: pygame.Rect) -> None:
        m = canvas.px(16)
        label_w = canvas.px(200)
        row_h = canvas.px(52)
        gap = canvas.px(8)
        y = area.top + gap
        if self.host.config.device.owner_pin == DEFAULT_PIN:
            warning_h = canvas.px(24)
            canvas.text(
                self._("The owner PIN is still 0000: set device.owner_pin in the config file"),
                (m, area.top, canvas.width - 2 * m, warning_h),
                size=18,
                colour=WARNING,
            )
            y = area.top + warning_h
        x0 = m + label_w
        settings = self.host.settings

        def label(text: str) -> None:
            canvas.text(text, (m, y, label_w - gap, row_h), size=22, colour=TEXT_DIM)

        label(self._("Language"))
        w = canvas.px(80)
        for i, lang in enumerate(LANGUAGES):
            canvas.button(
                (x0 + i * (w + gap), y, w, row_h),
                lang.upper(),
                partial(self.host.set_language, lang),
                selected=lang == self.tr.language,
            )
        vx = x0 + len(LANGUAGES) * (w + gap) + canvas.px(16)
        canvas.button((vx, y, canvas.width - vx - m, row_h), self._("Voice…"), self.open_voice, size=20)
        y += row_h + gap
        label(self._("Game"))
        canvas.button((x0, y, canvas.px(260), row_h), self.game_title, self.next_game, size=22)
        cx = x0 + canvas.px(260) + gap
        if settings.has_learning(self.game):
            if settings.preset(self.game) == "tournament":
                canvas.button(
                    (cx, y, canvas.width - cx - m, row_h),
                    self._("Learning table: not in tournaments"),
                    None,
                    size=18,
                )
            else:
                on = bool(settings.learning.get(self.game))
                learning = self._("Learning table: {state}", state=self._("On") if on else self._("Off"))
                canvas.button(
                    (cx, y, canvas.width - cx - m, row_h),
                    learning,
                    self.toggle_learning,
                    size=20,
                    selected=on,
                )
        elif self.game == "zatre":  # the owner's deck count (device/screens/zatre_deck.py)
            session = self.host.session
            free = session is None or session.finished  # the camera reads the game's table during a game
            canvas.button(
                (cx, y, canvas.width - cx - m, row_h),
                self._("Count the deck…") if free else self._("Count the deck: between games"),
                self.open_deck_count if free else None,
                size=20,
            )
        elif settings.has_coach(self.game):  # a game without a coach (Zatre, Kalooki) shows none
            mode = settings.coach_mode(self.game)
            coach = self._("Coach: {mode}", mode=self._(COACH_MODE_NAMES.get(mode, "Off")))
            canvas.button((cx, y, canvas.width - cx - m, row_h), coach, self.next_coach_mode, size=20)
        y += row_h + gap
        label(self._("Move timer"))
        seconds = self.move_seconds()
        canvas.button((x0, y, canvas.px(64), row_h), "−", lambda: self.step_timer(-1), size=30)
        shown = self._("Off") if seconds == 0 else self._("{n} s", n=seconds)
        canvas.text(shown, (x0 + canvas.px(72), y, canvas.px(112), row_h), size=24, align="center")
        canvas.button(
            (x0 + canvas.px(192), y, canvas.px(64), row_h), "+", lambda: self.step_timer(1), size=30
        )
        y += row_h + gap
        label(self._("Rule preset"))
        presets = self.presets()
        pw = min(canvas.px(150), (canvas.width - x0 - m) // len(presets) - gap)
        for i, preset in enumerate(presets):
            word = (
                self._(PRESET_WORDS[preset])
                if preset in PRESET_WORDS
                else preset.replace("_", " ").capitalize()
            )
            canvas.button(
                (x0 + i * (pw + gap), y, pw, row_h),
                word,
                partial(self.set_preset, preset),
                selected=settings.preset(self.game) == preset,
                size=20,
                wrap=True,
            )
        y += row_h + gap
        label(self._("Camera"))
        sources = ["", *self.host.config.camera.sources]
        cw = min(canvas.px(130), (canvas.width - x0 - m - canvas.px(150)) // len(sources) - gap)
        for i, source in enumerate(sources):
            name = self._(SOURCE_WORDS[source]) if source in SOURCE_WORDS else source.replace("usb:", "USB ")
            canvas.button(
                (x0 + i * (cw + gap), y, cw, row_h),
                name,
                partial(self.set_camera, source),
                selected=settings.camera_source == source,
                size=18,
                wrap=True,
            )
        note = pygame.Rect(
            x0 + len(sources) * (cw + gap), y, canvas.width - m - x0 - len(sources) * (cw + gap), row_h
        )
        words = self._("from the next start")
        lines = len(canvas.wrap(words, note.width, 18))  # the note centred beside the buttons
        note.top += max(0, (row_h - lines * canvas.fonts.font(canvas.px(18)).get_linesize()) // 2)
        canvas.paragraph(words, note, size=18, colour=TEXT_DIM)
        y += row_h + gap
        label(self._("Seats"))
        canvas.button((x0, y, canvas.px(64), row_h), "−", lambda: self.set_seats(settings.seats - 1), size=30)
        canvas.text(
            str(settings.seats), (x0 + canvas.px(72), y, canvas.px(48), row_h), size=26, align="center"
        )
        canvas.button(
            (x0 + canvas.px(128), y, canvas.px(64), row_h),
            "+",
            lambda: self.set_seats(settings.seats + 1),
            size=30,
        )
        session = self.host.session
        if session is not None and not session.finished:
            bx = x0 + canvas.px(216)  # the two buttons end 16 px from the screen's edge
            pause = self._("Resume timer") if session.timer.paused else self._("Pause timer")
            canvas.button((bx, y, canvas.px(168), row_h), pause, self.toggle_pause, size=20)
            canvas.button(
                (bx + canvas.px(176), y, canvas.px(168), row_h),
                self._("Leave game"),
                self.leave_game,
                size=20,
                colour=WARNING,
            )
