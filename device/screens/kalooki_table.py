"""The Kalooki table: the melds on the table as cards (each a touch target to build on), the discard
pile, the stock and every hand's count, the entry being picked, and the card picker.

The picker (bottom): the ranks A–K; the suits, the joker, ``to`` (a whole run: 7 ♥ *to* 10) and undo;
the recent cards (the last ones used, one tap each); and the phase's actions — *Stock* / *Discard
pile* to draw, *+ Meld* / *Lay down* / *Discard* to play, the turned-up card at the start of a deal,
a loser's hand at its end. At the end of a deal *Points* swaps the picker for a number pad: the loser
types just the penalty points of his hand (*Cards* goes back to the picker). At the start of every deal
after the first the table shows the last deal's penalties, running totals and payouts.

Each state of the session has its panel (``device.screens.kalooki_panels``: the table area, the entry,
the picker or the pad, the phase's buttons); every touch is an event sent to the current state
(``device.sessions.kalooki``: :class:`Touch`, :class:`RankPicked`, …), never a call that changes it.

A reading refused as unsure is corrected on the same screen (``Correcting``): the table area shows the
camera's picture with the unsure cards boxed and the list of the cards to enter, the entry line the
chosen card's meld as read, and the picker's one-tap row the reader's likeliest readings of it.

Target labels for the tests and the simulated players: the ranks ``A`` … ``K``, ``suit S`` …,
``Joker``, ``recent 7H``, ``meld 3`` (the table's meld number 3, 1-based); on the number pad the digits
``0`` … ``9`` and ``<`` (the picker is not drawn beside it); while a reading is corrected, ``card 4``
(card 4 of the reading, 1-based, in the list of the cards to enter) and ``guess 1`` … (the reader's
likeliest readings of the chosen card, its best guess first); on a refused reading, *Correct the
reading*.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import pygame

from device.camera_view import CameraView
from device.events import Event, Key
from device.host import Host
from device.screens.base import screen
from device.screens.kalooki_cards import draw_card, draw_cards, draw_suit, suit_colour
from device.screens.kalooki_panels import Button, Layout, Panel, panel_of
from device.screens.table import TableScreen
from device.sessions.kalooki import (
    CardPicked,
    CardTapped,
    Confirmed,
    Correcting,
    DigitTyped,
    KalookiSession,
    KalookiStage,
    KalookiTouch,
    MeldTapped,
    RankPicked,
    RefusedTable,
    SuitPicked,
    Touch,
    money,
)
from device.ui.camera_panel import CameraPanel
from device.ui.canvas import Canvas
from device.ui.names import seat_colour
from device.ui.theme import (
    ACCENT,
    BACKGROUND,
    BUTTON,
    BUTTON_SELECTED,
    GOOD,
    PANEL,
    TEXT,
    TEXT_DIM,
    WARNING,
    Colour,
)
from rules.kalooki import JOKER
from rules.kalooki.cards import RANK_NAMES, SUITS, Card
from vision.observation import Item

__all__ = ["CHIPS_PER_PAGE", "MELDS_PER_PAGE", "KalookiTableScreen"]

MELDS_PER_PAGE = 9  # three columns of three
CHIPS_PER_PAGE = 8  # the cards to enter of a correction listed at a time (two rows of four)
NOTICE_SECONDS = 8.0


class Picture(NamedTuple):
    """The camera's picture as drawn: its rectangle and the scale from the frame's pixels to it."""

    rect: pygame.Rect
    sx: float
    sy: float


@screen("kalooki_table")
class KalookiTableScreen(TableScreen):
    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.meld_page = 0
        self.panels: dict[type[Panel], Panel] = {}
        self.camera_panel = CameraPanel("seen_card")

    @property
    def session(self) -> KalookiSession:
        session = self.host.session
        assert isinstance(session, KalookiSession)
        return session

    def enter(self, **_: object) -> None:
        self.meld_page = 0

    def send(self, event: KalookiTouch) -> None:
        """A touch, as an event for the current state."""
        self.session.send(event)

    def touch(self, event: KalookiTouch) -> partial[None]:
        """The action of a target: ``event`` sent to the current state when it is tapped."""
        return partial(self.send, event)

    def handle(self, event: Event) -> None:
        if isinstance(event, Key) and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            seat = self.session.current_seat
            self.send(Confirmed(0 if seat is None else seat))
        elif isinstance(event, Key) and event.key == pygame.K_BACKSPACE:
            self.send(Touch("back"))
        elif isinstance(event, Key) and self.session.pad is not None and event.text.isdigit():
            self.send(DigitTyped(int(event.text)))
        else:
            super().handle(event)

    def next_meld_page(self) -> None:
        self.meld_page += 1

    # --- drawing -------------------------------------------------------------------------------------

    def panel(self, stage: KalookiStage) -> tuple[Panel, KalookiStage]:
        """The panel of the current state (``device.screens.kalooki_panels``) and the state it draws."""
        kind, shown = panel_of(stage)
        if kind not in self.panels:
            self.panels[kind] = kind(self)
        return self.panels[kind], shown

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        session = self.session
        status = self.draw_top(canvas)
        deal = session.deal
        canvas.text(
            self._("Deal {n} of {total}", n=deal.number + 1, total=session.kalooki.options.deals),
            (status.left, 0, status.width, status.height),
            size=22,
            colour=ACCENT,
        )
        stage = session.stage
        assert isinstance(stage, KalookiStage)
        panel, shown = self.panel(stage)
        m = canvas.px(8)
        table = pygame.Rect(m, canvas.px(60), canvas.px(560), canvas.px(192))
        side = pygame.Rect(table.right + m, table.top, canvas.width - table.right - 2 * m, table.height)
        self.draw_side(canvas, session, side)
        entry = pygame.Rect(m, table.bottom + canvas.px(4), canvas.width - 2 * m, canvas.px(48))
        below = pygame.Rect(m, entry.bottom + canvas.px(4), entry.width, 0)
        panel.draw(canvas, session, shown, Layout(table, entry, below))

    def draw_melds(self, canvas: Canvas, session: KalookiSession, area: pygame.Rect, help: str) -> None:
        """The melds on the table, nine a page, each a target that builds the entry on it; ``help``
        while there is none."""
        canvas.shape(area, PANEL, radius=8)
        melds = session.deal.table
        if not melds:
            canvas.paragraph(
                help,
                area.inflate(-canvas.px(16), -canvas.px(16)),
                size=20,
                colour=TEXT_DIM,
            )
            return
        pages = -(-len(melds) // MELDS_PER_PAGE)
        first = (self.meld_page % pages) * MELDS_PER_PAGE
        gap = canvas.px(4)
        w = (area.width - 4 * gap) // 3
        h = (area.height - 4 * gap) // 3
        colours = self.host.config.seats.colours
        for n, index in enumerate(range(first, min(len(melds), first + MELDS_PER_PAGE))):
            rect = pygame.Rect(
                area.left + gap + (n % 3) * (w + gap), area.top + gap + (n // 3) * (h + gap), w, h
            )
            owner = session.deal.owners[index]
            canvas.shape(rect, BUTTON, radius=6)
            canvas.shape((rect.left, rect.top, canvas.px(6), rect.height), seat_colour(colours, owner))
            cards = rect.inflate(-canvas.px(12), -canvas.px(8))
            cards.left += canvas.px(4)
            draw_cards(canvas, cards, melds[index].cards, width=32)
            canvas.record("meld", " ".join(str(c) for c in melds[index].cards), rect)
            canvas.target(rect, f"meld {index + 1}", self.touch(MeldTapped(index)))

    def camera_view(self) -> CameraView | None:
        camera = self.host.camera
        return camera.view() if camera is not None else None

    def draw_camera_picture(self, canvas: Canvas, inner: pygame.Rect) -> Picture | None:
        """The camera's picture at the left of ``inner``, 16:9 and as high as it (its zones named, its
        own cards not labelled); where it lies and its scale, or None without a camera view."""
        view = self.camera_view()
        if view is None:
            return None
        pic = pygame.Rect(inner.left, inner.top, inner.height * 16 // 9, inner.height)
        self.camera_panel.draw(
            canvas,
            pic,
            view,
            no_camera=self._("No camera"),
            camera_label=self._("Camera"),
            zone_labels={"stock": self._("Stock"), "discard": self._("Discard pile")},
            labelled=False,
        )
        return Picture(pic, pic.width / view.frame_size[0], pic.height / view.frame_size[1])

    @staticmethod
    def card_box(canvas: Canvas, picture: Picture, item: Item) -> pygame.Rect:
        """The box around a card of the reading on the camera's picture."""
        pic, sx, sy = picture
        x, y = item.center
        box = pygame.Rect(0, 0, max(4, round(item.size * sx)), max(4, round(item.size * sy)))
        box.center = (round(pic.left + x * sx), round(pic.top + y * sy))
        return box.inflate(canvas.px(6), canvas.px(6)).clip(pic)

    def draw_reading(self, canvas: Canvas, refused: RefusedTable, area: pygame.Rect) -> None:
        """The table the camera saw at a refused press: its picture with the cards boxed, the unsure
        ones marked in yellow and the refused meld outlined in red; beside it the reading as cards, meld
        by meld (loose cards alone), marked and outlined the same way."""
        canvas.shape(area, PANEL, radius=8)
        table = refused.table
        unsure = set(table.uncertain)
        red = set(refused.outline) if refused.reason != "unsure" else set()
        inner = area.inflate(-canvas.px(8), -canvas.px(8))
        picture = self.draw_camera_picture(canvas, inner)
        if picture is not None:
            pic = picture.rect
            for i, item in enumerate(table.items):
                if i not in unsure and i not in red:
                    continue
                box = self.card_box(canvas, picture, item)
                colour = WARNING if i in red else ACCENT
                pygame.draw.rect(canvas.surface, colour, box, width=max(2, canvas.px(3)))
                canvas.record("refused_card" if i in red else "unsure_card", item.label, box)
            inner.left, inner.width = pic.right + canvas.px(8), inner.right - pic.right - canvas.px(8)
        word = self._("Seen:")
        canvas.text(word, (inner.left, inner.top, inner.width, canvas.px(22)), size=18, colour=TEXT_DIM)
        w, h, gap = canvas.px(28), canvas.px(40), canvas.px(10)
        x, y = inner.left, inner.top + canvas.px(24)
        for group in [*table.melds, *((i,) for i in table.loose)]:
            need = len(group) * w
            if x > inner.left and x + need > inner.right:
                x, y = inner.left, y + h + canvas.px(6)
            if y + h > inner.bottom:
                break
            rects = []
            for i in group:
                card = _card(table.items[i].label)
                rect = pygame.Rect(x, y, w - 1, h)
                if card is not None:
                    draw_card(canvas, rect, card)
                if i in unsure:
                    pygame.draw.rect(canvas.surface, ACCENT, rect, width=max(2, canvas.px(3)))
                    canvas.text("?", rect, size=24, bold=True, colour=ACCENT, align="center")
                rects.append(rect)
                x += w
            if red & set(group):
                box = rects[0].unionall(rects[1:]).inflate(canvas.px(4), canvas.px(4))
                pygame.draw.rect(canvas.surface, WARNING, box, width=max(2, canvas.px(3)), border_radius=4)
                canvas.record("refused_meld", " ".join(table.items[i].label for i in group), box)
            x += gap
        if table.discard:  # the discard pile's top, as read
            top = table.discard[0]
            label = self._("Discard pile")
            if table.melds or table.loose:
                y = min(y + h + canvas.px(6), inner.bottom - h)
            text = canvas.text(
                label, (inner.left, y, inner.width - w - canvas.px(8), h), size=18, colour=TEXT_DIM
            )
            rect = pygame.Rect(text.right + canvas.px(8), y, w - 1, h)
            card = _card(table.items[top].label)
            if card is not None:
                draw_card(canvas, rect, card)
            if top in unsure:
                pygame.draw.rect(canvas.surface, ACCENT, rect, width=max(2, canvas.px(3)))
                canvas.text("?", rect, size=24, bold=True, colour=ACCENT, align="center")

    def draw_correction(self, canvas: Canvas, stage: Correcting, area: pygame.Rect) -> None:
        """A reading being corrected: the camera's picture with the cards to enter boxed (yellow: still
        to enter, green: entered), and beside it the list
        of those cards, eight at a time around the chosen one: ``?`` over the reader's best guess, or
        the card entered; each a target that puts the picker on it. The chosen card is framed white in
        the list and in a double line (dark and yellow) on the picture."""
        canvas.shape(area, PANEL, radius=8)
        corr = stage.correction
        table = corr.table
        items = table.items
        required = corr.listed()
        inner = area.inflate(-canvas.px(8), -canvas.px(8))
        picture = self.draw_camera_picture(canvas, inner)
        if picture is not None:
            pic = picture.rect
            for i in sorted(required, key=lambda k: k == corr.chosen):  # the chosen one drawn last
                item = items[i]
                box = self.card_box(canvas, picture, item)
                if i == corr.chosen:  # a double line: seen on a white card and on a dark table alike
                    pygame.draw.rect(
                        canvas.surface,
                        BACKGROUND,
                        box.inflate(canvas.px(4), canvas.px(4)),
                        width=max(3, canvas.px(6)),
                    )
                    pygame.draw.rect(canvas.surface, ACCENT, box, width=max(2, canvas.px(3)))
                else:
                    colour = GOOD if i in corr.fixes else ACCENT
                    pygame.draw.rect(canvas.surface, colour, box, width=max(1, canvas.px(2)))
                if i not in corr.fixes:
                    canvas.record("unsure_card", item.label, box)
            inner.left, inner.width = pic.right + canvas.px(8), inner.right - pic.right - canvas.px(8)
        at = required.index(corr.chosen) if corr.chosen in required else len(required) - 1
        canvas.text(
            self._("Card {n} of {total}", n=at + 1, total=len(required)),
            (inner.left, inner.top, inner.width, canvas.px(22)),
            size=18,
            colour=TEXT_DIM,
        )
        gap = canvas.px(6)
        w, h = canvas.px(48), canvas.px(60)
        per_row = max(1, (inner.width + gap) // (w + gap))
        per_page = min(CHIPS_PER_PAGE, per_row * 2)
        first = max(0, at) // per_page * per_page
        for n, i in enumerate(required[first : first + per_page]):
            rect = pygame.Rect(
                inner.left + (n % per_row) * (w + gap),
                inner.top + canvas.px(26) + (n // per_row) * (h + gap),
                w,
                h,
            )
            entered = corr.fixes.get(i)
            if entered is not None:
                draw_card(canvas, rect, entered)
                pygame.draw.rect(canvas.surface, GOOD, rect, width=max(2, canvas.px(3)), border_radius=4)
            else:
                canvas.shape(rect, BUTTON, radius=6)
                top = pygame.Rect(rect.left, rect.top, rect.width, rect.height // 2)
                canvas.text("?", top, size=24, bold=True, colour=ACCENT, align="center")
                bottom = pygame.Rect(rect.left, top.bottom, rect.width, rect.height - top.height)
                canvas.text(items[i].label, bottom, size=18, colour=TEXT_DIM, align="center")
            if i == corr.chosen:
                pygame.draw.rect(
                    canvas.surface,
                    TEXT,
                    rect.inflate(canvas.px(4), canvas.px(4)),
                    width=max(2, canvas.px(3)),
                    border_radius=6,
                )
            canvas.record("correction_card", items[i].label, rect)
            canvas.target(rect, f"card {i + 1}", self.touch(CardTapped(i)))

    def draw_correction_entry(self, canvas: Canvas, stage: Correcting, area: pygame.Rect) -> None:
        """The card the picker is on, in its meld as read (the other cards to enter as ``?``, those
        entered as entered), with the rank or suit waiting; then the message line."""
        corr = stage.correction
        table = corr.table
        picker = stage.picker
        label = pygame.Rect(area.left, area.top, canvas.px(136), area.height)
        canvas.text(self._("Seen:"), label, size=18, colour=TEXT_DIM)
        cards = pygame.Rect(label.right, area.top, canvas.px(340), area.height)
        chosen = corr.chosen
        groups = [*table.melds, *((i,) for i in table.loose), *((i,) for i in table.discard[:1])]
        group = next((g for g in groups if chosen in g), ())
        required = set(corr.listed())
        w = canvas.px(32)
        step = w if len(group) * w <= cards.width else max(4, (cards.width - w) // max(1, len(group) - 1))
        x = cards.left
        for i in group:
            rect = pygame.Rect(x, cards.top, w, cards.height)
            shown = corr.fixes.get(i) if i in required else corr.prior.get(i) or _card(table.items[i].label)
            if i == chosen:
                pygame.draw.rect(
                    canvas.surface, TEXT, rect, width=max(2, canvas.px(3)), border_radius=canvas.px(4)
                )
                if picker.suit is not None:
                    draw_suit(
                        canvas.surface, rect.inflate(-canvas.px(8), -canvas.px(16)), picker.suit, ACCENT
                    )
                else:
                    hint = RANK_NAMES[picker.rank] if picker.rank is not None else "?"
                    canvas.text(hint, rect, size=20, bold=True, colour=ACCENT, align="center")
            elif shown is not None:
                draw_card(canvas, rect, shown)
            else:
                pygame.draw.rect(canvas.surface, ACCENT, rect, width=2, border_radius=canvas.px(4))
                canvas.text("?", rect, size=20, bold=True, colour=ACCENT, align="center")
            x += step
        message = pygame.Rect(
            cards.right + canvas.px(8), area.top, area.right - cards.right - canvas.px(8), area.height
        )
        text = self.message()
        if text:
            canvas.paragraph(text, message, size=18, colour=WARNING if self.trouble() else ACCENT)

    def draw_result(self, canvas: Canvas, session: KalookiSession, area: pygame.Rect) -> None:
        """The last deal: who went out, every penalty, the running totals and the payouts."""
        canvas.shape(area, PANEL, radius=8)
        result = session.kalooki.results[-1]
        number = len(session.kalooki.results)
        winner = session.players[result.winner].name
        title = self._("Deal {n}: {name} went out", n=number, name=winner)
        if result.kalooki:
            title += " — " + self._("Kalooki! +25 for every other player")
        inner = area.inflate(-canvas.px(16), -canvas.px(8))
        canvas.text(
            title, (inner.left, inner.top, inner.width, canvas.px(28)), size=20, colour=ACCENT, bold=True
        )
        pool = session.kalooki.options.pool_cents
        heads = [self._("Player"), self._("Penalty"), self._("Total")]
        if pool:
            heads.append(self._("Payout"))
        col = inner.width // len(heads)
        row_h = canvas.px(26)
        y = inner.top + canvas.px(30)
        for c, text in enumerate(heads):
            canvas.text(text, (inner.left + c * col, y, col - 4, row_h), size=18, colour=TEXT_DIM)
        totals = session.kalooki.totals
        for seat, player in enumerate(session.players):
            y += row_h
            values = [player.name, str(result.penalties[seat]), str(totals[seat])]
            if pool:
                values.append(money(result.payouts[seat]))
            for c, text in enumerate(values):
                role = "name" if c == 0 else "score"
                canvas.text(text, (inner.left + c * col, y, col - 4, row_h), size=24, bold=c == 0, role=role)

    def draw_side(self, canvas: Canvas, session: KalookiSession, area: pygame.Rect) -> None:
        deal = session.deal
        canvas.shape(area, PANEL, radius=8)
        inner = area.inflate(-canvas.px(12), -canvas.px(8))
        top = deal.discard_top
        card = pygame.Rect(inner.left, inner.top, canvas.px(40), canvas.px(56))
        if top is not None:
            draw_card(canvas, card, top)
        else:
            pygame.draw.rect(canvas.surface, TEXT_DIM, card, width=1, border_radius=canvas.px(4))
        text = pygame.Rect(card.right + canvas.px(8), inner.top, inner.right - card.right - canvas.px(8), 0)
        canvas.text(
            self._("Discard pile"), (text.left, text.top, text.width, canvas.px(26)), size=18, colour=TEXT_DIM
        )
        canvas.text(
            self._("Stock {n}", n=deal.stock_count),
            (text.left, text.top + canvas.px(28), text.width, canvas.px(26)),
            size=18,
            colour=TEXT_DIM,
        )
        y = card.bottom + canvas.px(6)
        row_h = min(canvas.px(44), (inner.bottom - y) // max(1, len(session.players)))
        for seat, player in enumerate(session.players):
            colour = ACCENT if seat == deal.to_move else TEXT
            mark = " · " + self._("opened") if deal.opened[seat] else ""
            count = deal.counts[seat]
            cards = self._("1 card") if count == 1 else self._("{n} cards", n=count)
            canvas.paragraph(  # on two lines where one is too short (long names, longer words)
                f"{player.name}: {cards}{mark}", (inner.left, y, inner.width, row_h), size=18, colour=colour
            )
            y += row_h

    def draw_entry(
        self, canvas: Canvas, session: KalookiSession, area: pygame.Rect, hand_of: str | None = None
    ) -> None:
        """The entry's cards (the melds kept for one lay-down apart), what waits for its other half, and
        the message line; labelled *Entry*, or *Hand of* the loser ``hand_of`` at a deal's end."""
        picker = session.picker
        label = pygame.Rect(area.left, area.top, canvas.px(136), area.height)
        if hand_of is not None:
            canvas.paragraph(self._("Hand of {name}", name=hand_of), label, size=24, colour=ACCENT)
        else:
            canvas.text(self._("Entry"), label, size=18, colour=TEXT_DIM)
        cards = pygame.Rect(label.right, area.top, canvas.px(340), area.height)
        shown = [c for group in picker.groups for c in (*group, None)] + list(picker.cards)
        x = cards.left
        w = canvas.px(32)
        step = w if len(shown) * w <= cards.width else max(4, (cards.width - w) // max(1, len(shown) - 1))
        for card in shown:
            if card is None:
                x += canvas.px(8)  # the gap between the melds kept for one lay-down
                continue
            draw_card(canvas, pygame.Rect(x, cards.top, w, cards.height), card)
            x += step
        waiting = picker.rank is not None or picker.suit is not None or picker.to
        if waiting:
            hint = RANK_NAMES[picker.rank] if picker.rank is not None else self._("to") if picker.to else ""
            box = pygame.Rect(x + canvas.px(4), cards.top, w, cards.height)
            pygame.draw.rect(canvas.surface, ACCENT, box, width=2, border_radius=canvas.px(4))
            if picker.suit is not None:
                draw_suit(canvas.surface, box.inflate(-canvas.px(8), -canvas.px(16)), picker.suit, ACCENT)
            else:
                canvas.text(hint, box, size=18, colour=ACCENT, align="center")
        message = pygame.Rect(
            cards.right + canvas.px(8), area.top, area.right - cards.right - canvas.px(8), area.height
        )
        text = self.message()
        if text:
            canvas.paragraph(text, message, size=18, colour=WARNING if self.trouble() else ACCENT)

    def draw_entry_points(self, canvas: Canvas, typed: str, area: pygame.Rect) -> None:
        """The points typed so far for the loser named, beside the refusal line."""
        label = pygame.Rect(area.left, area.top, canvas.px(96), area.height)
        canvas.text(self._("Points"), label, size=18, colour=ACCENT)
        box = pygame.Rect(label.right, area.top, canvas.px(120), area.height)
        pygame.draw.rect(canvas.surface, ACCENT, box, width=2, border_radius=canvas.px(6))
        canvas.text(typed, box.inflate(-canvas.px(12), 0), size=30, bold=True, align="right")
        message = pygame.Rect(
            box.right + canvas.px(12), area.top, area.right - box.right - canvas.px(12), area.height
        )
        text = self.message()
        if text:
            canvas.paragraph(text, message, size=18, colour=WARNING if self.trouble() else ACCENT)

    def draw_pad(self, canvas: Canvas, area: pygame.Rect, actions: list[Button]) -> None:
        """The number pad: the digits in one row, undo and how a hand is counted, the phase's actions."""
        gap = canvas.px(4)
        h = canvas.px(52)
        w = (area.width - 9 * gap) // 10
        for i, digit in enumerate((1, 2, 3, 4, 5, 6, 7, 8, 9, 0)):
            rect = pygame.Rect(area.left + i * (w + gap), area.top, w, h)
            canvas.button(rect, str(digit), self.touch(DigitTyped(digit)), size=26)
        y = area.top + h + gap
        back = pygame.Rect(area.left, y, w, h)
        canvas.button(back, "<", self.touch(Touch("back")), size=24)
        canvas.paragraph(
            self._("The cards left in the hand: 2–10 their value, J, Q, K 10, ace 11, joker 25."),
            (back.right + canvas.px(12), y + canvas.px(4), area.right - back.right - canvas.px(12), h),
            size=18,
            colour=TEXT_DIM,
        )
        self.draw_actions(canvas, pygame.Rect(area.left, y + h + gap, area.width, h), actions)

    def status_line(self) -> str:
        session = self.session
        if session.timed_out is not None and session.timer.now() - session.timed_out[1] < NOTICE_SECONDS:
            return self._("Time is up for {name}.", name=session.players[session.timed_out[0]].name)
        stage = session.stage
        assert isinstance(stage, KalookiStage)
        panel, shown = self.panel(stage)
        return panel.status(session, shown)

    def draw_picker(
        self, canvas: Canvas, session: KalookiSession, area: pygame.Rect, actions: list[Button]
    ) -> None:
        """The card picker: the ranks; the suits, the joker, ``to``, undo and the recent cards; then the
        phase's ``actions``."""
        picker = session.picker
        gap = canvas.px(4)
        h = canvas.px(52)
        w = (area.width - 12 * gap) // 13
        y = area.top
        for i, rank in enumerate(range(1, 14)):
            name = RANK_NAMES[rank]
            canvas.button(
                (area.left + i * (w + gap), y, w, h),
                name,
                self.touch(RankPicked(rank)),
                selected=picker.rank == rank,
                size=24,
            )
        y += h + gap
        x = area.left
        sw = canvas.px(58)
        for suit in SUITS:
            rect = pygame.Rect(x, y, sw, h)
            canvas.shape(rect, BUTTON_SELECTED if picker.suit == suit else (235, 235, 230), radius=8)
            draw_suit(canvas.surface, rect.inflate(-canvas.px(22), -canvas.px(14)), suit, suit_colour(suit))
            canvas.record("button", f"suit {suit}", rect)
            canvas.target(rect, f"suit {suit}", self.touch(SuitPicked(suit)))
            x += sw + gap
        canvas.button((x, y, canvas.px(72), h), "Joker", self.touch(CardPicked(JOKER)), size=20)
        x += canvas.px(72) + gap
        canvas.button(
            (x, y, canvas.px(56), h), self._("to"), self.touch(Touch("to")), selected=picker.to, size=20
        )
        x += canvas.px(56) + gap
        canvas.button((x, y, canvas.px(52), h), "<", self.touch(Touch("back")), size=24)
        x += canvas.px(52) + gap
        correcting = session.correction is not None
        for n, card in enumerate(session.offered()):
            if x + canvas.px(48) > area.right:
                break
            draw_card(
                canvas,
                pygame.Rect(x, y, canvas.px(48), h),
                card,
                action=self.touch(CardPicked(card)),
                label=f"guess {n + 1}" if correcting else f"recent {card}",
            )
            x += canvas.px(48) + gap
        y += h + gap
        self.draw_actions(canvas, pygame.Rect(area.left, y, area.width, h), actions)

    def draw_actions(self, canvas: Canvas, row: pygame.Rect, actions: list[Button]) -> None:
        """The phase's buttons, then the melds' pages (when more than one) and *Clear*."""
        gap = canvas.px(6)
        buttons: list[tuple[str, partial[None], Colour | None]] = [
            (label, self.touch(event), colour) for label, event, colour in actions
        ]
        pages = -(-len(self.session.deal.table) // MELDS_PER_PAGE)
        if pages > 1:
            buttons.append(
                (
                    self._("Melds {n} of {total}", n=self.meld_page % pages + 1, total=pages),
                    partial(self.next_meld_page),
                    None,
                )
            )
        buttons.append((self._("Clear"), self.touch(Touch("clear")), None))
        w = (row.width - gap * (len(buttons) - 1)) // len(buttons)
        for i, (label, action, colour) in enumerate(buttons):
            canvas.button(
                (row.left + i * (w + gap), row.top, w, row.height), label, action, colour=colour, size=20
            )


def _card(label: str) -> Card | None:
    """The card a reading's label names (``None``: not a card)."""
    try:
        return Card.parse(label)
    except ValueError:
        return None
