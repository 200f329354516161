"""The Kalooki table: the melds on the table as cards (each a touch target to build on), the discard
pile, the stock and every hand's count, the entry being picked, and the card picker.

The picker (bottom): the ranks A–K; the suits, the joker, ``to`` (a whole run: 7 ♥ *to* 10) and undo;
the recent cards (the last ones used, one tap each); and the phase's actions — *Stock* / *Discard
pile* to draw, *+ Meld* / *Lay down* / *Discard* to play, the turned-up card at the start of a deal,
a loser's hand at its end. At the end of a deal *Points* swaps the picker for a number pad: the loser
types just the penalty points of his hand (*Cards* goes back to the picker). At the start of every deal
after the first the table shows the last deal's penalties, running totals and payouts.

Target labels for the tests and the simulated players: the ranks ``A`` … ``K``, ``suit S`` …,
``Joker``, ``recent 7H``, ``meld 3`` (the table's meld number 3, 1-based); on the number pad the digits
``0`` … ``9`` and ``<`` (the picker is not drawn beside it).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pygame

from device.events import Event, Key
from device.host import Host
from device.screens.base import screen
from device.screens.kalooki_cards import draw_card, draw_cards, draw_suit, suit_colour
from device.screens.table import TableScreen
from device.sessions.kalooki import KalookiSession, money
from device.ui.canvas import Canvas
from device.ui.names import seat_colour
from device.ui.theme import ACCENT, BUTTON, BUTTON_SELECTED, GOOD, PANEL, TEXT, TEXT_DIM, WARNING, Colour
from rules.kalooki import JOKER
from rules.kalooki.cards import RANK_NAMES, SUITS

__all__ = ["MELDS_PER_PAGE", "KalookiTableScreen"]

MELDS_PER_PAGE = 9  # three columns of three
NOTICE_SECONDS = 8.0


@screen("kalooki_table")
class KalookiTableScreen(TableScreen):
    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.meld_page = 0

    @property
    def session(self) -> KalookiSession:
        session = self.host.session
        assert isinstance(session, KalookiSession)
        return session

    def enter(self, **_: object) -> None:
        self.meld_page = 0

    def handle(self, event: Event) -> None:
        if isinstance(event, Key) and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            seat = self.session.current_seat
            self.session.confirm(0 if seat is None else seat)
        elif isinstance(event, Key) and event.key == pygame.K_BACKSPACE:
            if self.session.pad is not None:
                self.session.pad_back()
            else:
                self.session.picker.back()
        elif isinstance(event, Key) and self.session.pad is not None and event.text.isdigit():
            self.session.pad_digit(int(event.text))
        else:
            super().handle(event)

    # --- the actions (touch targets return nothing) ---------------------------------------------------

    def rank(self, rank: int) -> None:
        self.session.picker.tap_rank(rank)

    def suit(self, suit: str) -> None:
        self.session.picker.tap_suit(suit)

    def joker(self) -> None:
        self.session.picker.add(JOKER)

    def meld(self, index: int) -> None:
        self.session.on_meld(index)

    def draw_from(self, stock: bool) -> None:
        self.session.draw(stock)

    def lay_down(self) -> None:
        self.session.lay_down()

    def discard(self) -> None:
        self.session.discard()

    def reveal(self) -> None:
        self.session.reveal()

    def enter_points(self) -> None:
        self.session.enter_points()

    def next_meld_page(self) -> None:
        self.meld_page += 1

    # --- drawing -------------------------------------------------------------------------------------

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
        m = canvas.px(8)
        table = pygame.Rect(m, canvas.px(60), canvas.px(560), canvas.px(192))
        side = pygame.Rect(table.right + m, table.top, canvas.width - table.right - 2 * m, table.height)
        if deal.phase == "turn_up" and session.kalooki.results:
            self.draw_result(canvas, session, table)
        else:
            self.draw_melds(canvas, session, table)
        self.draw_side(canvas, session, side)
        entry = pygame.Rect(m, table.bottom + canvas.px(4), canvas.width - 2 * m, canvas.px(48))
        below = pygame.Rect(m, entry.bottom + canvas.px(4), entry.width, 0)
        if session.pad is not None and session.revealing() is not None:
            self.draw_entry_points(canvas, session, entry)
            self.draw_pad(canvas, session, below)
        else:
            self.draw_entry(canvas, session, entry)
            self.draw_picker(canvas, session, below)

    def draw_melds(self, canvas: Canvas, session: KalookiSession, area: pygame.Rect) -> None:
        canvas.shape(area, PANEL, radius=8)
        melds = session.deal.table
        if not melds:
            canvas.paragraph(
                self.help_text(session),
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
            canvas.target(rect, f"meld {index + 1}", partial(self.meld, index))

    def help_text(self, session: KalookiSession) -> str:
        phase = session.deal.phase
        if phase == "turn_up":
            return self._("A new deal: enter the card turned up from the stock, then the seat button.")
        if phase == "draw":
            return self._("Draw: tap Stock or Discard pile.")
        return self._(
            "Pick the cards you lay, then Lay down, or tap a meld to build on it; then the discard."
        )

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

    def draw_entry(self, canvas: Canvas, session: KalookiSession, area: pygame.Rect) -> None:
        picker = session.picker
        label = pygame.Rect(area.left, area.top, canvas.px(136), area.height)
        seat = session.revealing()
        if seat is not None:
            name = session.players[seat].name
            canvas.paragraph(self._("Hand of {name}", name=name), label, size=24, colour=ACCENT)
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

    def draw_entry_points(self, canvas: Canvas, session: KalookiSession, area: pygame.Rect) -> None:
        """The points typed so far for the loser named, beside the refusal line."""
        seat = session.revealing()
        assert seat is not None
        label = pygame.Rect(area.left, area.top, canvas.px(96), area.height)
        canvas.text(self._("Points"), label, size=18, colour=ACCENT)
        box = pygame.Rect(label.right, area.top, canvas.px(120), area.height)
        pygame.draw.rect(canvas.surface, ACCENT, box, width=2, border_radius=canvas.px(6))
        canvas.text(session.pad or "", box.inflate(-canvas.px(12), 0), size=30, bold=True, align="right")
        message = pygame.Rect(
            box.right + canvas.px(12), area.top, area.right - box.right - canvas.px(12), area.height
        )
        text = self.message()
        if text:
            canvas.paragraph(text, message, size=18, colour=WARNING if self.trouble() else ACCENT)

    def draw_pad(self, canvas: Canvas, session: KalookiSession, area: pygame.Rect) -> None:
        """The number pad: the digits in one row, undo and how a hand is counted, the phase's actions."""
        gap = canvas.px(4)
        h = canvas.px(52)
        w = (area.width - 9 * gap) // 10
        for i, digit in enumerate((1, 2, 3, 4, 5, 6, 7, 8, 9, 0)):
            rect = pygame.Rect(area.left + i * (w + gap), area.top, w, h)
            canvas.button(rect, str(digit), partial(session.pad_digit, digit), size=26)
        y = area.top + h + gap
        back = pygame.Rect(area.left, y, w, h)
        canvas.button(back, "<", session.pad_back, size=24)
        canvas.paragraph(
            self._("The cards left in the hand: 2–10 their value, J, Q, K 10, ace 11, joker 25."),
            (back.right + canvas.px(12), y + canvas.px(4), area.right - back.right - canvas.px(12), h),
            size=18,
            colour=TEXT_DIM,
        )
        self.draw_actions(canvas, session, pygame.Rect(area.left, y + h + gap, area.width, h))

    def status_line(self) -> str:
        session = self.session
        if session.timed_out is not None and session.timer.now() - session.timed_out[1] < NOTICE_SECONDS:
            return self._("Time is up for {name}.", name=session.players[session.timed_out[0]].name)
        seat = session.revealing()
        if seat is not None and session.pad is not None:
            return self._(
                "{name} holds {n} cards: type their points, then Enter points.",
                name=session.players[seat].name,
                n=session.deal.counts[seat],
            )
        if seat is not None:
            return self._(
                "{name} holds {n} cards: enter them, or their points (Points).",
                name=session.players[seat].name,
                n=session.deal.counts[seat],
            )
        return ""

    def draw_picker(self, canvas: Canvas, session: KalookiSession, area: pygame.Rect) -> None:
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
                partial(self.rank, rank),
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
            canvas.target(rect, f"suit {suit}", partial(self.suit, suit))
            x += sw + gap
        canvas.button((x, y, canvas.px(72), h), "Joker", self.joker, size=20)
        x += canvas.px(72) + gap
        canvas.button((x, y, canvas.px(56), h), self._("to"), picker.tap_to, selected=picker.to, size=20)
        x += canvas.px(56) + gap
        canvas.button((x, y, canvas.px(52), h), "<", picker.back, size=24)
        x += canvas.px(52) + gap
        for card in session.recent():
            if x + canvas.px(48) > area.right:
                break
            draw_card(
                canvas,
                pygame.Rect(x, y, canvas.px(48), h),
                card,
                action=partial(picker.add, card),
                label=f"recent {card}",
            )
            x += canvas.px(48) + gap
        y += h + gap
        self.draw_actions(canvas, session, pygame.Rect(area.left, y, area.width, h))

    def draw_actions(self, canvas: Canvas, session: KalookiSession, row: pygame.Rect) -> None:
        phase = session.phase
        gap = canvas.px(6)
        buttons: list[tuple[str, Callable[[], None] | None, Colour | None]] = []
        if phase == "turn_up":
            buttons.append((self._("Turned-up card"), self.discard, GOOD))
        elif phase == "draw":
            buttons.append((self._("Stock"), partial(self.draw_from, True), GOOD))
            buttons.append((self._("Discard pile"), partial(self.draw_from, False), None))
        elif phase == "play":
            buttons.append((self._("+ Meld"), session.keep_meld, None))
            buttons.append((self._("Lay down"), self.lay_down, None))
            buttons.append((self._("Discard"), self.discard, GOOD))
        elif phase == "reveal" and session.pad is not None:
            buttons.append((self._("Enter points"), self.enter_points, GOOD))
            buttons.append((self._("Cards"), partial(session.use_pad, False), None))
        elif phase == "reveal":
            buttons.append((self._("Enter hand"), self.reveal, GOOD))
            buttons.append((self._("Points"), partial(session.use_pad, True), None))
        pages = -(-len(session.deal.table) // MELDS_PER_PAGE)
        if pages > 1:
            buttons.append(
                (
                    self._("Melds {n} of {total}", n=self.meld_page % pages + 1, total=pages),
                    self.next_meld_page,
                    None,
                )
            )
        clear = session.clear_pad if session.pad is not None else session.picker.clear
        buttons.append((self._("Clear"), clear, None))
        w = (row.width - gap * (len(buttons) - 1)) // len(buttons)
        for i, (label, action, colour) in enumerate(buttons):
            canvas.button(
                (row.left + i * (w + gap), row.top, w, row.height), label, action, colour=colour, size=20
            )
