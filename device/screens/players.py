"""Players: how many, their names (on-screen keyboard) and seat colours, then start the game.

Player *n* sits at seat *n*: the seat's button confirms his moves and the seat's colour marks him on
every screen.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pygame

import rules
from device.events import Event, Key
from device.host import Host
from device.screens.base import Screen, screen
from device.sessions.rummikub_coach import journaled_position
from device.ui.canvas import Canvas
from device.ui.names import seat_colour
from device.ui.theme import TEXT_DIM
from rules.rummikub import RummikubOptions
from rules.rummikub.advice import table_text
from rules.rummikub.puzzle import PuzzleOptions
from rules.rummikub.tiles import tiles_text

KEY_ROWS = ("1234567890", "QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM")
EXTRA_LETTERS = {"pl": "ĄĆĘŁŃÓŚŹŻ", "hu": "ÁÉÍÓÖŐÚÜŰ", "de": "ÄÖÜ", "en": ""}
MAX_NAME = 12


@screen("players")
class PlayersScreen(Screen):
    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.game = ""
        self.variant: str | None = None
        self.count = 2
        self.names: list[str] = []
        self.editing: int | None = None
        self.hands: int | None = None  # a game of several hands (Rummikub): how many
        self.difficulty: str | None = None  # a Rummikub puzzle's: easy, medium, hard
        self.from_games = False  # a Rummikub puzzle from a move of the players' learning-table games

    def enter(self, game: str = "", variant: str | None = None, **_: object) -> None:
        if game:
            self.game, self.variant = game, variant
        spec = rules.get_game(self.game)
        self.count = max(spec.options_type.MIN_PLAYERS, min(self.count, self.max_players()))
        self.names = [self._("Player {n}", n=i + 1) for i in range(4)]
        self.editing = None
        defaults = self.host.settings.game_options(self.game)
        self.hands = defaults.hands if isinstance(defaults, RummikubOptions) else None
        self.difficulty = defaults.difficulty if isinstance(defaults, PuzzleOptions) else None
        self.from_games = False

    def set_hands(self, hands: int) -> None:
        """A game of ``hands`` hands (1–20; the rules' range)."""
        self.hands = max(1, min(hands, 20))

    def max_players(self) -> int:
        return min(rules.get_game(self.game).options_type.MAX_PLAYERS, self.host.settings.seats)

    def set_count(self, count: int) -> None:
        low = rules.get_game(self.game).options_type.MIN_PLAYERS
        self.count = max(low, min(count, self.max_players()))

    def start(self) -> None:
        overrides: dict[str, object] = {
            "players": self.count,
            "seed": self.host.game_seed(),
        }
        if self.variant is not None:
            overrides[rules.get_game(self.game).variant_field] = self.variant
        if self.hands is not None:
            overrides["hands"] = self.hands
        if self.difficulty is not None:
            overrides["difficulty"] = self.difficulty
            position = journaled_position(self.host.journal) if self.from_games else None
            if position is not None:
                overrides["table"], overrides["rack"] = table_text(position[0]), tiles_text(position[1])
        options = self.host.settings.game_options(self.game, **overrides)
        names = [n.strip() or self._("Player {n}", n=i + 1) for i, n in enumerate(self.names[: self.count])]
        self.host.start_game(options, names)

    def type_text(self, text: str) -> None:
        if self.editing is not None and len(self.names[self.editing]) < MAX_NAME:
            self.names[self.editing] += text

    def type_key(self, key: str) -> None:
        """A key of the on-screen keyboard: a capital first letter (of each word), small ones after it."""
        if self.editing is not None:
            name = self.names[self.editing]
            self.type_text(key if not name or name.endswith(" ") else key.lower())

    def backspace(self) -> None:
        if self.editing is not None:
            self.names[self.editing] = self.names[self.editing][:-1]

    def edit(self, i: int) -> None:
        self.editing = i
        if self.names[i] == self._("Player {n}", n=i + 1):
            self.names[i] = ""

    def handle(self, event: Event) -> None:
        if isinstance(event, Key) and self.editing is not None:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE):
                self.stop_editing()
            elif event.key == pygame.K_BACKSPACE:
                self.backspace()
            elif event.text.isprintable() and event.text:
                self.type_text(event.text)
            return
        if isinstance(event, Key) and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.start()
            return
        super().handle(event)

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        spec = rules.get_game(self.game)
        title = spec.title(self.tr.language, self.variant)
        area = self.header(canvas, title)
        m = canvas.px(16)
        top = area.top + canvas.px(8)
        if self.editing is not None:
            self.draw_keyboard(canvas, area)
            return
        self.stepper(canvas, (m, top), self._("Players"), self.count, self.set_count, 150)
        if self.hands is not None:
            self.stepper(
                canvas, (m + canvas.px(380), top), self._("Hands"), self.hands, self.set_hands, 110, "hands "
            )
        if self.difficulty is not None:
            self.draw_difficulty(canvas, top)
        row_h = canvas.px(56)
        for i in range(self.count):
            y = top + canvas.px(64) + i * (row_h + canvas.px(6))
            colour = seat_colour(self.host.config.seats.colours, i)
            canvas.shape((m, y, canvas.px(56), row_h), colour, radius=8)
            canvas.text(str(i + 1), (m, y, canvas.px(56), row_h), size=26, align="center", bold=True)
            canvas.button(
                (m + canvas.px(68), y, canvas.px(360), row_h),
                self.names[i],
                partial(self.edit, i),
                size=26,
            )
            canvas.text(
                self._("Seat {n}", n=i + 1),
                (m + canvas.px(440), y, canvas.px(160), row_h),
                size=20,
                colour=TEXT_DIM,
            )
        start = pygame.Rect(
            canvas.width - m - canvas.px(200), canvas.height - canvas.px(72), canvas.px(200), canvas.px(60)
        )
        canvas.button(start, self._("Start"), self.start, size=30, colour=(22, 163, 74))

    def set_difficulty(self, difficulty: str) -> None:
        self.difficulty, self.from_games = difficulty, False

    def set_from_games(self) -> None:
        self.from_games = not self.from_games

    def draw_difficulty(self, canvas: Canvas, top: int) -> None:
        """A puzzle's difficulty (dealt with a known optimum), or a move of the players' own games."""
        words = {"easy": self._("easy"), "medium": self._("medium"), "hard": self._("hard")}
        x = canvas.px(290)
        w = canvas.px(116)
        for i, (key, word) in enumerate(words.items()):
            canvas.button(
                (x + i * (w + canvas.px(6)), top, w, canvas.px(52)),
                word,
                partial(self.set_difficulty, key),
                selected=key == self.difficulty and not self.from_games,
                size=22,
            )
        canvas.button(
            (canvas.px(16), canvas.height - canvas.px(72), canvas.px(300), canvas.px(60)),
            self._("A move of our games"),
            self.set_from_games,
            selected=self.from_games,
            size=22,
        )

    def stepper(
        self,
        canvas: Canvas,
        at: tuple[int, int],
        label: str,
        value: int,
        change: Callable[[int], None],
        label_width: int,
        name: str = "",
    ) -> None:
        """``label  −  value  +`` in one row from ``at``; ``name`` prefixes the two targets' names
        (``hands +``) where a screen has two steppers."""
        x, top = at
        canvas.text(label, (x, top, canvas.px(label_width), canvas.px(52)), size=26)
        x += canvas.px(label_width + 10)
        canvas.button((x, top, canvas.px(64), canvas.px(52)), "−", lambda: change(value - 1), size=32)
        canvas.relabel(f"{name}−")
        canvas.text(
            str(value),
            (x + canvas.px(70), top, canvas.px(48), canvas.px(52)),
            size=32,
            align="center",
            bold=True,
        )
        canvas.button(
            (x + canvas.px(124), top, canvas.px(64), canvas.px(52)), "+", lambda: change(value + 1), size=32
        )
        canvas.relabel(f"{name}+")

    def draw_keyboard(self, canvas: Canvas, area: pygame.Rect) -> None:
        assert self.editing is not None
        m = canvas.px(12)
        field = pygame.Rect(m, area.top + canvas.px(6), canvas.width - 2 * m, canvas.px(48))
        canvas.shape(field, seat_colour(self.host.config.seats.colours, self.editing), radius=8)
        canvas.text(self.names[self.editing] + "_", field.inflate(-canvas.px(16), 0), size=30, bold=True)
        rows = [*KEY_ROWS, EXTRA_LETTERS.get(self.tr.language, "")]
        gap = canvas.px(4)
        key_w = (canvas.width - 2 * m - gap * 9) // 10
        key_h = canvas.px(52)
        y = field.bottom + canvas.px(8)
        for row in rows:
            if not row:
                continue
            x = m + (10 - len(row)) * (key_w + gap) // 2
            for ch in row:
                canvas.button(
                    (x, y, key_w, key_h),
                    ch,
                    partial(self.type_key, ch),
                    size=24,
                )
                x += key_w + gap
            y += key_h + gap
        wide = (canvas.width - 2 * m - 2 * gap) // 3
        canvas.button((m, y, wide, key_h), self._("Space"), lambda: self.type_text(" "), size=22)
        canvas.button((m + wide + gap, y, wide, key_h), "<", self.backspace, size=26)
        canvas.button(
            (m + 2 * (wide + gap), y, wide, key_h),
            self._("Done"),
            self.stop_editing,
            size=24,
            colour=(22, 163, 74),
        )

    def back(self) -> None:
        if self.editing is not None:
            self.stop_editing()
        else:
            self.host.show("home")

    def stop_editing(self) -> None:
        """The name typed, without spaces around it; a blank one is the seat's default name again (the
        button shows the name the game will use, never an empty button)."""
        if self.editing is not None:
            i = self.editing
            self.names[i] = " ".join(self.names[i].split()) or self._("Player {n}", n=i + 1)
        self.editing = None
