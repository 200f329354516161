"""What the learning table adds to the Rummikub screen (``device/sessions/rummikub_coach.py``
decides; this draws), and the end-of-hand review screen.

- :func:`draw_coach_controls` — under *Draw* and *+30 s*: while the coach does not know the mover's
  rack, *Read my rack* (the camera) and *Enter my rack* (the picker), saying how many tiles to show;
  once it knows it, *Hint* (first the number of tiles the best move lays, then *Show the move*);
- :func:`draw_rack_entry` — the rack (or the drawn tiles) entered with the tile picker;
- :func:`draw_advice` — under the camera: after each accepted move "Anna: 3 laid, 7 possible" and
  the best move as tiles (the melds to take apart, then the melds to lay), until the next move; a
  hint of the mover's position in its place when asked;
- the ``rummikub_review`` screen — each player's tiles laid against tiles possible, move by move,
  the hints taken, and the moves that cost most.
"""

from __future__ import annotations

import logging
from typing import Protocol

import pygame

from device.host import Host
from device.i18n import Translator
from device.screens.base import Screen, screen
from device.session import GameSession
from device.sessions.rummikub import EnteringRack, RummikubSession
from device.sessions.rummikub_coach import RummikubCoach
from device.ui.canvas import Canvas
from device.ui.theme import ACCENT, GOOD, PANEL, TEXT, TEXT_DIM, WARNING
from device.voice.kinds import CTX, Kind, Params, register_kind, whole_param
from rules.rummikub import Tile
from rules.rummikub.advice import Advice

log = logging.getLogger(__name__)

# The advice said aloud too, where the device has a voice (device/voice): "Ala: 3 tiles laid, 7 possible."


class TileScreen(Protocol):
    """A screen that draws Rummikub's tiles and the coach's panels (the table screen, the puzzle's)."""

    @property
    def host(self) -> Host: ...

    def _(self, msgid: str, **values: object) -> str: ...

    def draw_tile(
        self, canvas: Canvas, tile: Tile, rect: pygame.Rect, *, kind: str = "table_tile"
    ) -> None: ...

    def draw_melds(
        self, canvas: Canvas, melds: list[list[Tile]], area: pygame.Rect, tile: tuple[int, int]
    ) -> None: ...


def _advice_sentence(tr: Translator, p: Params) -> str:
    laid, best = whole_param(p, "laid"), whole_param(p, "best")
    first = tr.npgettext(CTX, "{name}: {n} tile laid,", "{name}: {n} tiles laid,", laid).format(
        n=laid, name=p["name"]
    )
    return first + " " + tr.npgettext(CTX, "{n} possible.", "{n} possible.", best).format(n=best)


register_kind(
    Kind(
        "coach_advice",
        "turn",
        _advice_sentence,
        {"name": "Ala", "laid": 3, "best": 7},
        about="Rummikub's learning table: the tiles laid against the tiles possible, after each move",
    )
)

__all__ = [
    "ReviewScreen",
    "draw_advice",
    "draw_coach_controls",
    "draw_rack_entry",
    "move_lines",
    "wants_picker",
]


def _coach(session: object) -> RummikubCoach | None:
    return session.coach if isinstance(session, RummikubSession) else None


def wants_picker(session: GameSession | None) -> bool:
    """Whether the screen shows the tile picker for a rack being entered."""
    return (
        isinstance(session, RummikubSession)
        and session.coach is not None
        and isinstance(session.stage, EnteringRack)
    )


def draw_coach_controls(
    screen: TileScreen, canvas: Canvas, session: RummikubSession, area: pygame.Rect
) -> bool:
    """The learning table's touches in ``area``; False (nothing drawn) at other tables."""
    coach = _coach(session)
    if coach is None:
        return False
    checking = session.phase != "playing"
    wanted = session.rack_to_show()
    row = min(canvas.px(52), max(canvas.px(48), area.height))
    w = (area.width - canvas.px(8)) // 2
    if wanted is not None:
        canvas.button(
            (area.left, area.top, w, row),
            screen._("Read my rack"),
            None if checking else session.show_rack,
            size=18,
        )
        canvas.button(
            (area.left + w + canvas.px(8), area.top, w, row),
            screen._("Enter my rack"),
            None if checking else session.begin_rack_entry,
            size=18,
        )
        return True
    rack = coach.mover_rack()
    if rack is None:
        return True
    stage = coach.hint_stage()
    label = screen._("Hint") if stage == 0 else screen._("Show the move")
    canvas.button(
        (area.left, area.top, w, row), label, session.hint if stage < 2 and not checking else None, size=20
    )
    canvas.paragraph(
        screen._("Rack known: {n} tiles", n=len(rack)),
        (area.left + w + canvas.px(8), area.top, w, row),
        size=18,
        colour=TEXT_DIM,
    )
    return True


def draw_rack_entry(
    screen: TileScreen, canvas: Canvas, session: RummikubSession, entry: list[Tile], area: pygame.Rect
) -> None:
    """The rack (or the drawn tiles) being entered with the picker below (``entry``: so far)."""
    wanted = session.rack_to_show()
    missing, count = wanted if wanted is not None else (0, 0)
    canvas.paragraph(
        screen._("Tiles to enter: {n}. Pick them below, then Done.", n=missing),
        (area.left, area.top, area.width, canvas.px(48)),
        size=18,
    )
    y = area.top + canvas.px(52)
    tw = min(canvas.px(20), area.width // max(1, missing))
    for k, tile in enumerate(entry):
        rect = pygame.Rect(area.left + k * tw, y, tw - 1, canvas.px(28))
        screen.draw_tile(canvas, tile, rect, kind="entered_tile")
    canvas.text(
        screen._("{n} of {count} entered", n=len(entry), count=missing),
        (area.left, y + canvas.px(30), area.width, canvas.px(22)),
        size=18,
        colour=TEXT_DIM,
    )
    y += canvas.px(56)
    w = (area.width - 2 * canvas.px(8)) // 3
    canvas.button(
        (area.left, y, w, canvas.px(52)), screen._("Remove last"), session.unpick if entry else None, size=18
    )
    canvas.button(
        (area.left + w + canvas.px(8), y, w, canvas.px(52)),
        screen._("Cancel"),
        session.cancel_rack_entry,
        size=18,
    )
    done = session.enter_shown_rack if entry and len(entry) in (missing, count) else None
    canvas.button(
        (area.left + 2 * (w + canvas.px(8)), y, w, canvas.px(52)),
        screen._("Done"),
        done,
        size=18,
        colour=GOOD if done else None,
    )


def _rows(lengths: list[int], width: int, tile_w: int, gap: int) -> int:
    """How many rows melds of these lengths take, laid as the table screen lays them."""
    rows, x = 1, 0
    for n in lengths:
        need = n * tile_w
        if x and x + need > width:
            rows, x = rows + 1, 0
        x += need + gap
    return rows


def move_lines(screen: TileScreen, canvas: Canvas, advice: Advice, area: pygame.Rect) -> None:
    """The best move as tiles: the melds to take apart, then the melds to lay (new and rearranged)."""
    y = area.top
    th = canvas.px(28)
    parts = []
    if advice.changed_melds:
        parts.append((screen._("Take apart:"), [list(m) for m in advice.changed_melds]))
    parts.append((screen._("Lay:"), [list(m) for m in advice.new_melds]))
    label_w = canvas.px(96)
    for label, melds in parts:
        if y + th > area.bottom:
            break
        canvas.text(label, (area.left, y, label_w, th), size=18, colour=TEXT_DIM)
        rows = _rows([len(m) for m in melds], area.width - label_w, canvas.px(20), canvas.px(8))
        height = min(rows * (th + canvas.px(4)), area.bottom - y)
        screen.draw_melds(
            canvas, melds, pygame.Rect(area.left + label_w, y, area.width - label_w, height), (20, 28)
        )
        y += height + canvas.px(4)


def _say(screen: TileScreen, coach: RummikubCoach, index: int, *, name: str, laid: int, best: int) -> None:
    """Say the advice of the move at ``index`` once (where the device has a voice)."""
    voice = screen.host.voice
    if voice is None or coach.spoken >= index:
        return
    coach.spoken = index
    try:
        voice.speak("coach_advice", name=name, laid=laid, best=best)
    except Exception:  # the voice never stops the game
        log.exception("coach: the advice could not be said")


def draw_advice(screen: TileScreen, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> bool:
    """Under the camera: a hint asked now, or the advice after the last move; False when there is
    nothing to show (the screen then draws what it would)."""
    coach = _coach(session)
    if coach is None or session.refusal is not None or wants_picker(session) or area.height < canvas.px(60):
        return False
    line = canvas.px(26)
    wanted = session.rack_to_show()
    if wanted is not None and coach.last_move() is None and session.phase == "playing":
        missing, count = wanted
        canvas.shape(area, PANEL, radius=6)
        inner = area.inflate(-canvas.px(8), -canvas.px(6))
        text = (
            screen._(
                "Coach: before you move, lay your {n} tiles face up in the rack zone and touch Read my rack"
                " (then take them back), or Enter my rack.",
                n=count,
            )
            if missing == count
            else screen._(
                "Coach: show the {n} tiles you drew: lay them in the rack zone and touch Read my rack,"
                " or Enter my rack.",
                n=missing,
            )
        )
        canvas.paragraph(text, inner, size=18, colour=ACCENT)
        return True
    stage = coach.hint_stage()
    if stage:
        advice = coach.now()
        canvas.shape(area, PANEL, radius=6)
        inner = area.inflate(-canvas.px(8), -canvas.px(6))
        if advice is None:
            text = screen._("Hint: thinking…")
        elif advice.move is None:
            text = screen._("Hint: no tile can be laid: draw")
        elif not advice.opened and not advice.can_open:
            text = screen._("Hint: you cannot open yet")
        else:
            text = screen._("Hint: the best move lays {n}", n=advice.tiles_possible)
        canvas.text(text, (inner.left, inner.top, inner.width, line), size=20, colour=ACCENT)
        if advice is not None and advice.move is not None and stage >= 2:
            move_lines(
                screen,
                canvas,
                advice,
                pygame.Rect(inner.left, inner.top + line, inner.width, inner.height - line),
            )
        return True
    move = coach.last_move()
    if move is None:
        return False
    advice = coach.advice_for(move)
    canvas.shape(area, PANEL, radius=6)
    inner = area.inflate(-canvas.px(8), -canvas.px(6))
    name = session.players[move.seat].name
    if advice is None:
        canvas.text(
            screen._("Coach: thinking…"), (inner.left, inner.top, inner.width, line), size=20, colour=TEXT_DIM
        )
        return True
    best = advice.tiles_possible
    _say(screen, coach, move.index, name=name, laid=move.laid, best=best)
    colour = GOOD if move.laid >= best else WARNING
    if not advice.opened and not advice.can_open:
        text = screen._(
            "{name}: could not open yet (best {value} of 30)", name=name, value=advice.opening_value
        )
        colour = GOOD
    else:
        text = screen._("{name}: {n} laid, {best} possible", name=name, n=move.laid, best=best)
    canvas.text(text, (inner.left, inner.top, inner.width, line), size=20, colour=colour, bold=True)
    if wanted is not None:  # the next player still has to show his rack: say so on the last line
        canvas.text(
            screen._("Next: show your rack (Read my rack or Enter my rack)"),
            (inner.left, inner.bottom - line, inner.width, line),
            size=18,
            colour=ACCENT,
        )
        inner.height -= line
    if advice.move is not None and move.laid < best:
        move_lines(
            screen,
            canvas,
            advice,
            pygame.Rect(inner.left, inner.top + line, inner.width, inner.height - line),
        )
    elif advice.move is not None:
        canvas.text(
            screen._("The best move."),
            (inner.left, inner.top + line, inner.width, line),
            size=18,
            colour=TEXT_DIM,
        )
    return True


# --- the review ------------------------------------------------------------------------------------


@screen("rummikub_review")
class ReviewScreen(Screen):
    """Each player's hand against what his racks allowed (the hand just scored, or the whole game)."""

    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.hand: int | None = None

    def enter(self, hand: int | None = None, **_: object) -> None:
        self.hand = hand

    def back(self) -> None:
        self.host.show_game()

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        session = self.host.session
        coach = _coach(session)
        title = (
            self._("Review of hand {n}", n=self.hand)
            if self.hand is not None
            else self._("Review of the game")
        )
        area = self.header(canvas, title)
        if session is None or coach is None:
            return
        review = coach.review(self.hand)
        m = canvas.px(16)
        y = area.top + canvas.px(6)
        line = canvas.px(26)
        players = len(review.seats)
        block = (area.height - canvas.px(40)) // max(1, players)
        for seat_review in review.seats:
            name = session.players[seat_review.seat].name
            canvas.text(
                self._(
                    "{name}: {n} laid of {best} possible · hints {hints}",
                    name=name,
                    n=seat_review.laid,
                    best=seat_review.possible,
                    hints=seat_review.hints,
                ),
                (m, y, canvas.width - 2 * m, line),
                size=24,
                bold=True,
            )
            yy = y + line
            per_move = " ".join(f"{mv.laid}/{a.tiles_possible}" for mv, a in seat_review.moves)
            canvas.text(
                self._("Moves (laid/possible): {moves}", moves=per_move or "–"),
                (m + canvas.px(12), yy, canvas.width - 2 * m, line - canvas.px(4)),
                size=18,
                colour=TEXT_DIM,
            )
            yy += line - canvas.px(4)
            for mv, advice in seat_review.costliest(max(0, (block - 2 * line) // line)):
                if yy + line > y + block:
                    break
                canvas.text(
                    self._(
                        "Move {turn}: {n} laid, {best} possible — best: {tiles}",
                        turn=mv.turn,
                        n=mv.laid,
                        best=advice.tiles_possible,
                        tiles=" ".join(map(str, advice.placed)),
                    ),
                    (m + canvas.px(12), yy, canvas.width - 2 * m, line - canvas.px(4)),
                    size=18,
                    colour=WARNING,
                )
                yy += line - canvas.px(4)
            if seat_review.unknown_moves:
                canvas.text(
                    self._("{n} moves without the rack shown (not counted)", n=seat_review.unknown_moves),
                    (m + canvas.px(12), yy, canvas.width - 2 * m, line - canvas.px(4)),
                    size=18,
                    colour=TEXT_DIM,
                )
            y += block
        if review.pending:
            canvas.text(
                self._("Still thinking about {n} moves…", n=review.pending),
                (m, canvas.height - canvas.px(32), canvas.width - 2 * m, canvas.px(26)),
                size=18,
                colour=TEXT,
            )
