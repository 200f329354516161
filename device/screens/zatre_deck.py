"""The owner's Zatre deck count (Settings → Zatre → *Count the deck…*, behind the PIN): the box's cards
laid face up a batch at a time, read by the camera, counted into the deck manifest new games are dealt
from.

Left: the camera's view with each card of the batch outlined (green: read; red with a ``?``: cannot be
read), and what to do now. Right: the count so far (*n of 50*), the batch on the table, and the deck as
counted so far — a triangle of the 28 possible cards (row: the lower half, column: the higher; the
batch on the table in yellow as ``+k``). Below: *Add batch*, *Undo last batch*, *Save*. The phases are
``device.zatre_deck_flow``'s states; this screen draws the one it is given.

The camera reads loose cards (``vision.read_loose_cards``) while this screen shows (``Screen.reader``),
and its readings come here, not to a game: the count is made between games. Leaving with *Back* keeps
the count made so far until the appliance stops; nothing is written before *Save*.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import ClassVar

import numpy as np
import pygame

from device.camera_view import GameReader
from device.events import Event, Seen
from device.host import Host
from device.screens.base import Screen, screen
from device.ui.canvas import Canvas
from device.ui.theme import ACCENT, GOOD, PANEL, TEXT, TEXT_DIM, WARNING
from device.zatre_deck import MANIFEST_NAME
from device.zatre_deck_flow import DECK_READER, BatchRead, Complete, DeckCount, Laying, Refused
from rules.zatre import DECK_SIZE, Card
from rules.zatre.cards import MAX_HALF
from vision.observation import Observation
from vision.zatre import LooseCards

__all__ = ["ZatreDeckScreen"]

BATCH_HINT = 12  # the cards a batch is best laid in: apart, all in view


@screen("zatre_deck")
class ZatreDeckScreen(Screen):
    reader: ClassVar[GameReader[Observation] | None] = DECK_READER

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.count = DeckCount()
        self._seq = -1
        self._preview: pygame.Surface | None = None

    def enter(self, **_: object) -> None:
        state = self.count.state
        if isinstance(state, Complete) and state.saved is not None:
            self.count = DeckCount()  # a new count after one was saved

    def back(self) -> None:
        self.host.show("settings", unlocked=True)

    @property
    def between_games(self) -> bool:
        session = self.host.session
        return session is None or session.finished

    # --- events --------------------------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        if isinstance(event, Seen):
            if isinstance(event.observation, LooseCards) and self.between_games:
                self.count.seen(event.observation)
            return
        super().handle(event)

    def add(self) -> None:
        self.count.add()

    def undo(self) -> None:
        self.count.undo()

    def save(self) -> None:
        path = Path(self.host.config.device.state_dir) / MANIFEST_NAME
        day = datetime.date.today().isoformat()
        manifest = self.count.save(path, f"counted on the device, {day}")
        if manifest is not None:
            self.host.settings.set_zatre_deck(manifest.path)

    # --- words ---------------------------------------------------------------------------------------

    def message(self) -> tuple[str, tuple[int, int, int]]:
        """What to do now, and its colour."""
        state = self.count.state
        if not self.between_games:
            return self._("Finish or leave the game first: the camera reads its table."), WARNING
        if isinstance(state, Complete):
            if state.saved is not None:
                return self._("Saved: new games of Zatre are dealt from this deck."), GOOD
            if state.error:
                return self._("Not saved: {reason}", reason=state.error), WARNING
            return self._("All {n} cards counted: save the deck.", n=DECK_SIZE), GOOD
        if isinstance(state, Refused):
            batch = state.reading
            if state.why == "unreadable":
                return (
                    self._("Refused: cards that cannot be read (outlined): {n}. Nothing was counted.",
                           n=len(batch.uncertain)),
                    WARNING,
                )  # fmt: skip
            if state.why == "too_many":
                more = len(batch.cards)
                return (
                    self._("Refused: {n} more make {total}, a deck has {max}. Nothing was counted.",
                           n=more, total=self.count.total + more, max=DECK_SIZE),
                    WARNING,
                )  # fmt: skip
            return self._("Refused: no card was read. Nothing was counted."), WARNING
        if isinstance(state, BatchRead):
            batch = state.reading
            if batch.uncertain:
                unsure = len(batch.uncertain)
                return self._("Cards that cannot be read (outlined): {n}. Straighten them or move your hand away.", n=unsure), ACCENT  # noqa: E501  # fmt: skip
            return self._("Read: {n} cards. Add them to the count?", n=len(batch.cards)), TEXT
        if isinstance(state, Laying) and state.added is not None:
            return self._("Batch added: take the cards away and lay the next ones."), GOOD
        if isinstance(state, Laying) and state.undone:
            return self._("Last batch taken off the count: lay it again."), ACCENT
        return self._("Lay up to {n} cards face up, apart, where the camera sees them.", n=BATCH_HINT), TEXT

    def deck_now(self) -> str:
        """Which deck new games are dealt from now."""
        deck = self.host.settings.zatre_deck()
        if deck.source == "counted":
            words = self._("New games use the counted deck ({file})", file=Path(deck.path).name)
        elif deck.source == "config":
            words = self._("New games use the config's deck ({file})", file=Path(deck.path).name)
        else:
            words = self._("New games use the assumed deck (not counted)")
        if deck.problem:
            words += " " + self._("The counted deck cannot be read: {problem}", problem=deck.problem)
        return words

    # --- drawing -------------------------------------------------------------------------------------

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        area = self.header(canvas, self._("Zatre: count the deck"))
        m, gap = canvas.px(8), canvas.px(8)
        preview = pygame.Rect(m, area.top + gap, canvas.px(416), canvas.px(234))
        self.draw_camera(canvas, preview)
        text, colour = self.message()
        buttons_top = canvas.height - canvas.px(64)
        canvas.paragraph(
            text,
            (m, preview.bottom + gap, preview.width, buttons_top - preview.bottom - 2 * gap),
            size=20,
            colour=colour,
        )
        right = pygame.Rect(preview.right + canvas.px(12), area.top + gap, 0, 0)
        right.width = canvas.width - m - right.left
        self.draw_count(canvas, right, buttons_top - gap)
        self.draw_buttons(canvas, buttons_top)

    def draw_camera(self, canvas: Canvas, rect: pygame.Rect) -> None:
        canvas.shape(rect, PANEL)
        camera = self.host.camera
        view = camera.view() if camera is not None else None
        if view is None:
            canvas.paragraph(
                self._("No camera: the deck is counted with the camera."),
                rect.inflate(-canvas.px(16), -canvas.px(16)),
                size=20,
                colour=TEXT_DIM,
            )
            return
        if view.seq != self._seq or self._preview is None or self._preview.get_size() != rect.size:
            image = np.ascontiguousarray(view.image)
            surface = pygame.image.frombuffer(image.tobytes(), (image.shape[1], image.shape[0]), "RGB")
            self._preview = pygame.transform.smoothscale(surface, rect.size)
            self._seq = view.seq
        canvas.image(self._preview, rect, "camera")
        batch = self.count.state.batch
        if batch is None:
            return
        sx, sy = rect.width / view.frame_size[0], rect.height / view.frame_size[1]
        for card in batch.cards:
            points = [(rect.left + x * sx, rect.top + y * sy) for x, y in card.corners]
            colour = GOOD if card.sure else WARNING
            pygame.draw.polygon(canvas.surface, colour, points, width=2 if card.sure else 4)
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            box = pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1).clip(rect)
            canvas.record("deck_card", card.label, box)
            if not card.sure:
                tag = pygame.Rect(0, 0, canvas.px(26), canvas.px(26))
                tag.bottomleft = (box.right - canvas.px(4), box.top + canvas.px(4))
                tag = tag.clamp(rect)
                pygame.draw.rect(canvas.surface, WARNING, tag, border_radius=canvas.px(6))
                canvas.text("?", tag, size=22, bold=True, align="center")

    def draw_count(self, canvas: Canvas, rect: pygame.Rect, bottom: int) -> None:
        count = self.count
        total = count.total
        canvas.text(
            self._("Counted: {n} of {total}", n=total, total=DECK_SIZE),
            (rect.left, rect.top, rect.width, canvas.px(36)),
            size=28,
            bold=True,
            colour=GOOD if total == DECK_SIZE else ACCENT,
        )
        batch = count.state.batch
        pending = batch.counts() if batch is not None and not isinstance(count.state, Complete) else None
        if batch is not None and pending is not None:
            line = self._("On the table: {n} cards, {k} unsure", n=len(batch.cards), k=len(batch.uncertain))
        else:
            line = self._("Batches added: {n}", n=len(count.batches))
        canvas.text(line, (rect.left, rect.top + canvas.px(38), rect.width, canvas.px(26)), size=20)
        # The deck so far: row = the lower half, column = the higher (the 28 cards a deck can hold).
        counted = count.counts()
        cell_w = rect.width // (MAX_HALF + 2)
        cell_h = canvas.px(25)
        top = rect.top + canvas.px(70)
        for value in range(MAX_HALF + 1):
            canvas.text(
                str(value),
                (rect.left + (value + 1) * cell_w, top, cell_w, cell_h),
                size=18,
                colour=TEXT_DIM,
                align="center",
            )
            canvas.text(
                str(value), (rect.left, top + (value + 1) * cell_h, cell_w, cell_h), size=18, colour=TEXT_DIM,
                align="center",
            )  # fmt: skip
        for low in range(MAX_HALF + 1):
            for high in range(low, MAX_HALF + 1):
                card = Card(low, high)
                cell = pygame.Rect(
                    rect.left + (high + 1) * cell_w, top + (low + 1) * cell_h, cell_w - 2, cell_h - 2
                )
                canvas.shape(cell, PANEL)
                n = counted.get(card, 0)
                more = pending.get(card, 0) if pending is not None else 0
                if more:
                    text = f"{n}+{more}" if n else f"+{more}"
                    canvas.text(text, cell, size=18, colour=ACCENT, align="center", bold=True)
                elif n:
                    canvas.text(str(n), cell, size=18, colour=TEXT, align="center")
                canvas.record("deck_count", f"{card}={n}+{more}", cell)
        note_top = top + (MAX_HALF + 2) * cell_h + canvas.px(4)
        canvas.paragraph(self.deck_now(), (rect.left, note_top, rect.width, bottom - note_top), size=18,
                         colour=TEXT_DIM)  # fmt: skip

    def draw_buttons(self, canvas: Canvas, top: int) -> None:
        m, gap = canvas.px(8), canvas.px(8)
        height = canvas.px(56)
        width = (canvas.width - 2 * m - 2 * gap) // 3
        state = self.count.state
        open_ = self.between_games and not (isinstance(state, Complete) and state.saved is not None)
        can_add = open_ and isinstance(state, BatchRead | Refused)
        canvas.button((m, top, width, height), self._("Add batch"), self.add if can_add else None, size=22)
        can_undo = open_ and bool(self.count.batches)
        canvas.button(
            (m + width + gap, top, width, height), self._("Undo last batch"), self.undo if can_undo else None,
            size=22,
        )  # fmt: skip
        last = (m + 2 * (width + gap), top, canvas.width - m - (m + 2 * (width + gap)), height)
        if isinstance(state, Complete) and state.saved is not None:
            canvas.button(last, self._("Done"), self.back, size=22, colour=GOOD)
        else:
            complete = open_ and isinstance(state, Complete)
            canvas.button(last, self._("Save"), self.save if complete else None, size=22,
                          colour=GOOD if complete else None)  # fmt: skip
