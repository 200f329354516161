"""History and statistics: the finished games and the games left (marked *left*, with the scores so
far), newest first; per game and player name over the finished games, games played, won, best and
average score; and the camera's misreads the players corrected (what it read, what they entered, how
often, how often it had been sure) — all from the journal."""

from __future__ import annotations

import time
from collections import Counter

import pygame

import rules
from device.host import Host
from device.journal import game_key
from device.screens.base import Screen, screen
from device.ui.canvas import Canvas
from device.ui.theme import TEXT_DIM, Colour

PAGE = 6


@screen("history")
class HistoryScreen(Screen):
    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.tab = "games"
        self.page = 0
        self._rows: dict[str, list[list[str]]] = {}  # per tab, read from the journal once
        self._as_of: tuple[int, int, str] | None = None

    def enter(self, **_: object) -> None:
        self.page = 0
        self._rows = {}

    def rows(self) -> list[list[str]]:
        """The tab's rows, queried when the screen is shown and again only when a game moved on (the
        game goes on while the history shows) or the language changed — never on every frame."""
        session = self.host.session
        as_of = (id(session), -1 if session is None else session.seq, self.tr.language)
        if as_of != self._as_of:
            self._rows, self._as_of = {}, as_of
        if self.tab not in self._rows:
            tabs = {"games": self.game_rows, "stats": self.stat_rows, "misreads": self.misread_rows}
            self._rows[self.tab] = tabs[self.tab]()
        return self._rows[self.tab]

    def set_tab(self, tab: str) -> None:
        self.tab, self.page = tab, 0

    def set_page(self, page: int) -> None:
        self.page = max(0, page)

    def title(self, game: str) -> str:
        """A game's name as the home screen shows it; ``game:variant`` names the variant (classic and
        triple Generał are different games for the history and the statistics)."""
        name, _, variant = game.partition(":")
        try:
            spec = rules.get_game(name)
        except KeyError:
            return game
        return spec.title(self.tr.language, variant or None)

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        area = self.header(canvas, self._("History"))
        m = canvas.px(16)
        tab_w = canvas.px(180)
        top = area.top + canvas.px(8)
        canvas.button(
            (m, top, tab_w, canvas.px(52)),
            self._("Games"),
            lambda: self.set_tab("games"),
            selected=self.tab == "games",
        )
        canvas.button(
            (m + tab_w + canvas.px(8), top, tab_w, canvas.px(52)),
            self._("Statistics"),
            lambda: self.set_tab("stats"),
            selected=self.tab == "stats",
        )
        canvas.button(
            (m + 2 * (tab_w + canvas.px(8)), top, tab_w, canvas.px(52)),
            self._("Misreads"),
            lambda: self.set_tab("misreads"),
            selected=self.tab == "misreads",
        )
        body = pygame.Rect(m, top + canvas.px(60), canvas.width - 2 * m, canvas.height - top - canvas.px(128))
        rows = self.rows()
        pages = max(1, (len(rows) - 1) // PAGE + 1) if rows else 1
        self.page = min(self.page, pages - 1)
        shown = rows[self.page * PAGE : (self.page + 1) * PAGE]
        row_h = body.height // (PAGE + 1)
        header = {
            "games": [self._("Date"), self._("Game"), self._("Result")],
            "stats": [
                self._("Game"),
                self._("Player"),
                self._("Played"),
                self._("Won"),
                self._("Best"),
                self._("Average"),
            ],
            "misreads": [
                self._("Reader"),
                self._("Read"),
                self._("Entered"),
                self._("Times"),
                self._("Sure"),
            ],
        }[self.tab]
        self.draw_row(canvas, body.left, body.top, body.width, row_h, header, TEXT_DIM)
        for i, row in enumerate(shown):
            self.draw_row(canvas, body.left, body.top + (i + 1) * row_h, body.width, row_h, row, None)
        if not rows:
            canvas.text(
                self._("No finished games yet.")
                if self.tab != "misreads"
                else self._("The players have corrected no reading yet."),
                (body.left, body.top + row_h, body.width, row_h),
                size=22,
                colour=TEXT_DIM,
            )
        bottom = canvas.height - canvas.px(64)
        canvas.button(
            (m, bottom, canvas.px(120), canvas.px(52)),
            "<",
            (lambda: self.set_page(self.page - 1)) if self.page > 0 else None,
            size=28,
        )
        canvas.text(
            f"{self.page + 1} / {pages}",
            (m + canvas.px(130), bottom, canvas.px(100), canvas.px(52)),
            size=22,
            align="center",
        )
        canvas.button(
            (m + canvas.px(240), bottom, canvas.px(120), canvas.px(52)),
            ">",
            (lambda: self.set_page(self.page + 1)) if self.page < pages - 1 else None,
            size=28,
        )

    def draw_row(
        self, canvas: Canvas, x: int, y: int, width: int, height: int, cells: list[str], colour: Colour | None
    ) -> None:
        weights = {3: [2, 2, 6], 5: [3, 3, 3, 2, 2]}.get(len(cells), [5, 4, 2, 2, 2, 3])
        # Statistics: a player's name and his figures are read from across the table (24 px).
        roles = {3: [""] * 3, 5: [""] * 5}.get(len(cells), ["", "name", "score", "score", "score", "score"])
        total = sum(weights)
        for cell, weight, role in zip(cells, weights, roles, strict=True):
            w = width * weight // total
            if colour is None:
                canvas.text(cell, (x, y, w - canvas.px(6), height), size=24 if role else 20, role=role)
            else:
                canvas.text(cell, (x, y, w - canvas.px(6), height), size=18, colour=colour)
            x += w

    def game_rows(self) -> list[list[str]]:
        rows = []
        for g in reversed(self.host.journal.history()):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.finished or g.started))
            if g.scores is None:
                result = ", ".join(g.players)
            else:
                result = ", ".join(
                    f"{name}: {score}" for name, score in zip(g.players, g.scores, strict=False)
                )
            if g.finished is None:  # left: the scores so far
                result = self._("left: {result}", result=result)
            rows.append([when, self.title(game_key(g)), result])
        return rows

    def stat_rows(self) -> list[list[str]]:
        return [
            [self.title(s.game), s.player, str(s.played), str(s.won), str(s.best), f"{s.average:.1f}"]
            for s in self.host.journal.statistics()
        ]

    def misread_rows(self) -> list[list[str]]:
        """The readings the players corrected to something else, most frequent first: the reader (tile,
        die, card), what it read, what they entered, how often, and how many of those it had been sure
        of (a confident misread: the reader's worst mistake, the one its threshold is meant to prevent).
        Unsure readings the players confirmed as read are no misreads and are not listed."""
        seen: Counter[tuple[str, str, str]] = Counter()
        sure: Counter[tuple[str, str, str]] = Counter()
        for stored in self.host.journal.corrections():
            fix = stored.fix
            if fix.misread:
                key = (fix.kind, fix.read, fix.entered)
                seen[key] += 1
                sure[key] += fix.sure
        kinds = {"tile": self._("Tile"), "die": self._("Die"), "card": self._("Card")}
        return [
            [kinds.get(kind, kind), read, entered, str(n), str(sure[(kind, read, entered)])]
            for (kind, read, entered), n in sorted(seen.items(), key=lambda kv: (-kv[1], kv[0]))
        ]
