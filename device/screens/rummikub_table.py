"""The Rummikub table: the before table drawn small, the camera's picture with what it read, and each
phase's touches (see ``device.sessions.rummikub`` for the phases).

At 800×480: the top bar; on the left the before table as tiles, the racks' counts and the touches of
the phase (*Draw*, *+30 s*, *Announce*; *Read the drawn tiles* and *X starts*; *Read the rack*; *Next
hand*; *Correct the reading* after a refusal); on the right the camera picture with the reading, the
refused meld outlined in red, unsure tiles in yellow (picked ones in green, the chosen one in the
selection colour) and, while the table is being restored, what differs from the before table. The
tile picker (colours and joker, numbers 1–13) fills the bottom while a reading is corrected (its
tiles a page at a time, any of them can be tapped) or a rack is entered by hand.

Targets are labelled for the tests and the simulated players: ``start 2`` (seat 2 starts), ``tile 3``
(the third tile of the reading, while correcting), ``page back`` / ``page on``, ``colour R``,
``number 7``, ``joker``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pygame

from device.camera_view import CameraView
from device.events import Event, Key
from device.host import Host
from device.screens.base import screen
from device.screens.rummikub_coach_panel import (
    draw_advice,
    draw_coach_controls,
    draw_rack_entry,
    wants_picker,
)
from device.screens.table import TableScreen
from device.sessions.rummikub import Correction, RummikubSession
from device.ui.camera_panel import CameraPanel
from device.ui.canvas import Canvas
from device.ui.shapes import draw_star
from device.ui.theme import ACCENT, BUTTON_SELECTED, GOOD, PANEL, TEXT, TEXT_DIM, WARNING, Colour
from rules.rummikub import Tile
from vision.tiles import TableObservation

__all__ = ["MARKS", "TILE_INK", "RummikubTableScreen", "draw_mark", "tiles_layout"]

TILE_FACE: Colour = (245, 240, 225)
TILE_INK: dict[str, Colour] = {"R": (200, 30, 30), "B": (30, 90, 200), "K": (20, 20, 20), "O": (230, 120, 0)}
JOKER_INK: Colour = (120, 30, 160)
COLOURS = ("R", "B", "K", "O")
# Each colour's mark, as tile sets for colour-blind players print one under the number; the joker's star.
MARKS: dict[str, str] = {"R": "circle", "B": "square", "K": "triangle", "O": "diamond", "J": "star"}
NOTICE_SECONDS = 6.0
TILE = (24, 32)  # baseline px of a tile on the main view and the restore view: readable from a seat


def tiles_layout(
    melds: list[list[Tile]], width: int, tile: tuple[int, int], gap: int
) -> list[list[tuple[int, int]]]:
    """Where each tile of each meld goes (left, top offsets) when melds are laid in rows of ``width``
    px, ``gap`` px apart, never split across rows.

    >>> tiles_layout([[Tile.parse("R1")] * 3, [Tile.parse("B2")] * 3], 100, (20, 30), 10)
    [[(0, 0), (20, 0), (40, 0)], [(0, 34), (20, 34), (40, 34)]]
    """
    tw, th = tile
    x = y = 0
    out = []
    for meld in melds:
        need = len(meld) * tw
        if x and x + need > width:
            x, y = 0, y + th + 4
        out.append([(x + k * tw, y) for k in range(len(meld))])
        x += need + gap
    return out


def draw_mark(canvas: Canvas, colour: str, rect: pygame.Rect, ink: Colour) -> None:
    """The mark of a tile colour (``R``, ``B``, ``K``, ``O``; ``J`` the joker) filling ``rect``:
    a circle, a square, a triangle, a diamond, a star."""
    shape = MARKS[colour]
    x, y, w, h = rect
    cx, cy = rect.center
    if shape == "circle":
        pygame.draw.circle(canvas.surface, ink, rect.center, min(w, h) // 2)
    elif shape == "square":
        pygame.draw.rect(canvas.surface, ink, rect.inflate(-max(1, w // 8), -max(1, h // 8)))
    elif shape == "triangle":
        pygame.draw.polygon(canvas.surface, ink, [(cx, y), (x + w - 1, y + h - 1), (x, y + h - 1)])
    elif shape == "diamond":
        pygame.draw.polygon(canvas.surface, ink, [(cx, y), (x + w - 1, cy), (cx, y + h - 1), (x, cy)])
    else:
        draw_star(canvas.surface, rect, ink)
    canvas.record("tile_mark", shape, rect)


@screen("rummikub_table")
class RummikubTableScreen(TableScreen):
    def __init__(self, host: Host) -> None:
        super().__init__(host)
        self.camera_panel = CameraPanel("seen_tile")
        self.before_picture: pygame.Surface | None = None  # the camera's picture of the before table
        self._pictured = -1  # the camera view last looked at (its seq)

    @property
    def session(self) -> RummikubSession:
        session = self.host.session
        assert isinstance(session, RummikubSession)
        return session

    def enter(self, **_: Any) -> None:
        self._pictured = -1

    def handle(self, event: Event) -> None:
        session = self.session
        if isinstance(event, Key) and event.key == pygame.K_d:
            session.draw()
        elif isinstance(event, Key) and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if session.correction is not None:
                session.enter_correction()
            elif session.phase == "reveal":
                session.enter_rack()
        else:
            super().handle(event)

    # --- drawing -------------------------------------------------------------------------------------

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        session = self.session
        self.keep_before_picture(session)
        status = self.draw_top(canvas)
        self.draw_status(canvas, session, status)
        phase = session.phase
        top = canvas.px(64)
        left = pygame.Rect(canvas.px(8), top, canvas.px(292), canvas.height - top - canvas.px(8))
        right = pygame.Rect(left.right + canvas.px(8), top, canvas.width - left.right - canvas.px(16), 0)
        right.height = right.width * 9 // 16
        if phase in ("correcting", "reveal") or wants_picker(session):
            picker = pygame.Rect(
                canvas.px(8), canvas.height - canvas.px(120), canvas.width - canvas.px(16), 0
            )
            picker.height = canvas.px(112)
            left.height = picker.top - canvas.px(8) - left.top
            right.height = min(right.height, picker.top - canvas.px(8) - right.top)
            self.draw_picker(canvas, session, picker)
        if phase == "hand_over":
            self.draw_hand_over(
                canvas, session, pygame.Rect(left.left, top, canvas.width - canvas.px(16), left.height)
            )
            return
        self.draw_camera(canvas, session, right)
        below = pygame.Rect(right.left, right.bottom + canvas.px(6), right.width, 0)
        below.height = left.bottom - below.top
        if phase == "start":
            self.draw_start(canvas, session, left)
        elif phase == "restore":
            self.draw_restore(canvas, session, left)
        elif phase == "correcting":
            self.draw_correcting(canvas, session, left)
        elif phase == "reveal":
            self.draw_reveal(canvas, session, left)
        elif wants_picker(session):
            draw_rack_entry(self, canvas, session, left)
        else:
            self.draw_move(canvas, session, left)
        if phase in ("playing", "checking") and draw_advice(self, canvas, session, below):
            return  # the learning table's advice (or hint) under the camera
        if phase in ("playing", "checking", "restore") and below.height > canvas.px(60):
            seen = pygame.Rect(below.left, below.top, below.width, below.height - canvas.px(48))
            self.draw_seen(canvas, session, seen)
            below.top, below.height = seen.bottom + canvas.px(2), canvas.px(46)
        if below.height > canvas.px(24):
            self.draw_message(canvas, below)

    def keep_before_picture(self, session: RummikubSession) -> None:
        """The camera's latest picture that shows the accepted table exactly, which the restore view
        shows: taken from every new reading of it, never from one of a table the player changed
        (at a timeout the camera sees the changed table, not the one to restore)."""
        view = self.camera_view()
        if view is None or view.seq == self._pictured:
            return
        self._pictured = view.seq
        obs = view.observation
        if not isinstance(obs, TableObservation) or not session.is_before(obs):
            return
        image = np.ascontiguousarray(view.image)
        self.before_picture = pygame.image.frombuffer(
            image.tobytes(), (image.shape[1], image.shape[0]), "RGB"
        ).copy()

    def camera_view(self) -> CameraView | None:
        camera = self.host.camera
        return camera.view() if camera is not None else None

    def draw_status(self, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> None:
        state = session.rummikub
        opts = state.options
        hand = (
            self._("Hand {n} of {total}", n=state.hand, total=opts.hands)
            if opts.target_score == 0
            else self._("Hand {n} · to {target}", n=state.hand, target=opts.target_score)
        )
        canvas.text(hand, (area.left, canvas.px(2), area.width, canvas.px(26)), size=20, colour=ACCENT)
        canvas.text(
            self.tr.nformat("Pool {n} tile", "Pool {n} tiles", state.pool_count),
            (area.left, canvas.px(28), area.width, canvas.px(24)),
            size=18,
            colour=TEXT_DIM,
        )

    def draw_camera(self, canvas: Canvas, session: RummikubSession, rect: pygame.Rect) -> None:
        view = self.camera_view()
        self.camera_panel.draw(
            canvas,
            rect,
            view,
            no_camera=self._("No camera"),
            camera_label=self._("Camera"),
            zone_labels={},
            moving=self._("Moving…"),
            labelled=False,
        )
        if view is None:
            return
        sx, sy = rect.width / view.frame_size[0], rect.height / view.frame_size[1]

        def outline(corners: tuple[tuple[float, float], ...], colour: Colour, width: int, kind: str) -> None:
            points = [
                (
                    min(max(rect.left + x * sx, rect.left), rect.right - 1),
                    min(max(rect.top + y * sy, rect.top), rect.bottom - 1),
                )
                for x, y in corners
            ]
            pygame.draw.polygon(canvas.surface, colour, points, width=width)
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            canvas.record(
                kind, "", pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
            )

        refused = session.refused
        if refused is not None and session.refusal is not None:
            for i in session.offending():
                outline(refused.tiles[i].corners, WARNING, canvas.px(4), "refused_tile")
        corr = session.correction
        if corr is not None:
            tiles = corr.observation.tiles
            for i in corr.unsure:
                if i not in corr.fixes and i != corr.chosen:
                    outline(tiles[i].corners, ACCENT, canvas.px(3), "unsure_tile")
            for i in corr.fixes:
                if i != corr.chosen:
                    outline(tiles[i].corners, GOOD, canvas.px(3), "corrected_tile")
            if corr.chosen is not None:
                outline(tiles[corr.chosen].corners, BUTTON_SELECTED, canvas.px(5), "chosen_tile")
        if session.phase == "restore" and session.live is not None:
            for i in session.differs():
                outline(session.live.tiles[i].corners, WARNING, canvas.px(4), "differs_tile")

    # --- tiles ---------------------------------------------------------------------------------------

    def draw_tile(self, canvas: Canvas, tile: Tile, rect: pygame.Rect, *, kind: str = "table_tile") -> None:
        """A tile: its number in its colour and, below it, its colour's mark (a shape, as on the tile
        sets printed for colour-blind players), so red and orange, black and blue are told apart by
        shape too; the joker is a ``J`` over a star."""
        canvas.shape(rect, TILE_FACE, radius=3)
        ink = JOKER_INK if tile.is_joker else TILE_INK[tile.colour]
        band = max(6, rect.height * 3 // 10)  # the mark's part of the face, at the bottom
        number = pygame.Rect(rect.left, rect.top + 1, rect.width, rect.height - band - 1)
        canvas.text(
            "J" if tile.is_joker else str(tile.number),
            number,
            size=max(18, round(number.height / canvas.scale)),
            colour=ink,
            align="center",
            bold=True,
        )
        side = min(band, rect.width - 4)
        mark = pygame.Rect(0, 0, side, side)
        mark.midbottom = (rect.centerx, rect.bottom - max(1, band // 6))
        draw_mark(canvas, "J" if tile.is_joker else tile.colour, mark, ink)
        canvas.record(kind, str(tile), rect)

    def draw_melds(
        self, canvas: Canvas, melds: list[list[Tile]], area: pygame.Rect, tile: tuple[int, int]
    ) -> None:
        """Melds as tiles in rows; what does not fit the area is left out, and a line of its own at the
        bottom, which no tile covers, says how many tiles that is."""
        tw, th = canvas.px(tile[0]), canvas.px(tile[1])
        places = tiles_layout(melds, area.width, (tw, th), canvas.px(8))
        fits = all(area.top + y + th <= area.bottom for spots in places for _, y in spots)
        line = canvas.px(22)
        bottom = area.bottom if fits else area.bottom - line
        hidden = 0
        for meld, spots in zip(melds, places, strict=True):
            for t, (x, y) in zip(meld, spots, strict=True):
                rect = pygame.Rect(area.left + x, area.top + y, tw - 1, th)
                if rect.bottom > bottom:
                    hidden += 1
                    continue
                self.draw_tile(canvas, t, rect)
        if hidden:
            canvas.text(
                self.tr.nformat("+{n} tile more", "+{n} tiles more", hidden),
                (area.left, area.bottom - line, area.width, line),
                size=18,
                colour=TEXT_DIM,
                align="right",
            )

    def draw_seen(self, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> None:
        """The camera's reading as tiles, meld by meld (loose tiles alone), the refused meld outlined."""
        obs = session.refused if session.refused is not None and session.refusal is not None else session.live
        if obs is None or not obs.tiles:
            return
        groups = [*obs.melds, *((i,) for i in obs.loose)]
        melds = [[obs.tiles[i].tile for i in g] for g in groups]
        tw, th = canvas.px(TILE[0]), canvas.px(TILE[1])
        word = self._("Seen:")
        label = pygame.Rect(area.left, area.top, canvas.fonts.font(canvas.px(18)).size(word)[0] + 6, th)
        canvas.text(word, label, size=18, colour=TEXT_DIM)
        inner = pygame.Rect(label.right, area.top, area.width - label.width, area.height)
        places = tiles_layout(melds, inner.width, (tw, th), canvas.px(6))
        offending = set(session.offending()) if obs is session.refused else set()
        unsure = set(obs.uncertain)
        for group, meld, spots in zip(groups, melds, places, strict=True):
            rects = []
            for index, t, (x, y) in zip(group, meld, spots, strict=True):
                rect = pygame.Rect(inner.left + x, inner.top + y, tw - 1, th)
                if rect.bottom > inner.bottom:
                    break
                self.draw_tile(canvas, t, rect, kind="seen_tile_drawn")
                if index in unsure:
                    pygame.draw.rect(canvas.surface, ACCENT, rect, width=2)
                rects.append(rect)
            if rects and offending & set(group):
                box = rects[0].unionall(rects[1:]).inflate(canvas.px(4), canvas.px(4))
                pygame.draw.rect(canvas.surface, WARNING, box, width=max(2, canvas.px(3)), border_radius=4)
                canvas.record("refused_meld", " ".join(str(t) for t in meld), box)

    def before_melds(self, session: RummikubSession) -> list[list[Tile]]:
        return [list(m) for m in session.before]

    # --- the phases ----------------------------------------------------------------------------------

    def draw_racks(self, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> None:
        state = session.rummikub
        parts = []
        for p in session.players:
            mark = "" if state.opened[p.seat] else "*" if state.announced[p.seat] else "°"
            parts.append(f"{p.name} {state.rack_counts[p.seat]}{mark}")
        canvas.paragraph(
            self._("Racks: {racks} (° not opened, * announced)", racks=" · ".join(parts)),
            area,
            size=18,
            colour=TEXT_DIM,
        )

    def draw_move(self, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> None:
        canvas.text(
            self._("Before this move"),
            (area.left, area.top, area.width, canvas.px(24)),
            size=18,
            colour=TEXT_DIM,
        )
        table = pygame.Rect(area.left, area.top + canvas.px(26), area.width, canvas.px(170))
        canvas.shape(table, PANEL, radius=6)
        melds = self.before_melds(session)
        if melds:
            self.draw_melds(canvas, melds, table.inflate(-canvas.px(8), -canvas.px(8)), TILE)
        else:
            canvas.text(self._("The table is empty."), table, size=20, colour=TEXT_DIM, align="center")
        y = table.bottom + canvas.px(4)
        self.draw_racks(canvas, session, pygame.Rect(area.left, y, area.width, canvas.px(44)))
        y += canvas.px(46)
        state = session.rummikub
        seat = session.current_seat
        checking = session.phase == "checking"
        w = (area.width - canvas.px(8)) // 2
        canvas.button(
            (area.left, y, w, canvas.px(52)), self._("Draw"), None if checking else session.draw, size=22
        )
        left = state.extensions_left(seat) if seat is not None else 0
        extend = session.extend if left > 0 and session.timer.enabled and not checking else None
        canvas.button(
            (area.left + w + canvas.px(8), y, w, canvas.px(52)),
            self._("+{s} s", s=state.options.extension_seconds),
            extend,
            size=22,
            sublabel=self._("{n} left", n=left),
        )
        y += canvas.px(58)
        if seat is not None and not state.opened[seat] and not state.announced[seat]:
            canvas.button(
                (area.left, y, area.width, canvas.px(48)),
                self._("Announce: I open next turn"),
                partial(session.announce, seat),
                size=18,
            )
            y += canvas.px(52)
        if session.can_dispute() and area.bottom - y >= canvas.px(48):
            canvas.button(
                (area.left, y, area.width, canvas.px(48)),
                self._("Correct the reading"),
                session.dispute,
                size=20,
            )
            return
        if draw_coach_controls(self, canvas, session, pygame.Rect(area.left, y, area.width, area.bottom - y)):
            return
        hint = (
            self._("Reading the table…")
            if checking
            else self._("Lay your tiles, then press your seat button. Hold it to draw.")
        )
        canvas.paragraph(
            hint,
            (area.left, y, area.width, area.bottom - y),
            size=18,
            colour=ACCENT if checking else TEXT_DIM,
        )

    def draw_start(self, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> None:
        names = ", ".join(session.players[s].name for s in session.contenders)
        canvas.paragraph(
            self._(
                "Who starts? {names}: each lays a drawn tile before the camera, seat order from the left.",
                names=names,
            ),
            (area.left, area.top, area.width, canvas.px(96)),
            size=20,
        )
        y = area.top + canvas.px(100)
        canvas.button(
            (area.left, y, area.width, canvas.px(56)),
            self._("Read the drawn tiles"),
            session.read_start,
            size=22,
            colour=GOOD,
        )
        y += canvas.px(64)
        canvas.text(
            self._("Or choose who starts:"),
            (area.left, y, area.width, canvas.px(24)),
            size=18,
            colour=TEXT_DIM,
        )
        y += canvas.px(28)
        w = (area.width - canvas.px(8)) // 2
        for n, p in enumerate(session.players):
            rect = (area.left + (n % 2) * (w + canvas.px(8)), y + (n // 2) * canvas.px(58), w, canvas.px(52))
            canvas.button(
                rect,
                self._("{name} starts", name=p.name),
                partial(session.choose_starter, p.seat),
                size=24,
                wrap=True,
            )
            canvas.relabel(f"start {p.seat + 1}")

    def draw_restore(self, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> None:
        title = self._("Time is up: restore the table")
        lines = canvas.wrap(title, area.width, 20, bold=True)
        for i, line in enumerate(lines[:2]):
            canvas.text(
                line,
                (
                    area.left,
                    area.top + i * canvas.px(22),
                    area.width,
                    canvas.px(22 if len(lines) > 1 else 26),
                ),
                size=20,
                colour=WARNING,
                bold=True,
            )
        y = area.top + canvas.px(28 if len(lines) == 1 else 46)
        if self.before_picture is not None:
            pic = pygame.Rect(area.left, y, area.width, area.width * 9 // 16)
            canvas.image(pygame.transform.smoothscale(self.before_picture, pic.size), pic, self._("Before"))
            y = pic.bottom + canvas.px(4)
        table = pygame.Rect(area.left, y, area.width, canvas.px(96))
        melds = self.before_melds(session)
        if melds:
            self.draw_melds(canvas, melds, table, TILE)
        else:
            canvas.text(self._("The table was empty."), table, size=18, colour=TEXT_DIM)
        y = table.bottom + canvas.px(4)
        missing = " ".join(str(t) for t in session.missing())
        extra = " ".join(str(session.live.tiles[i].tile) for i in session.differs()) if session.live else ""
        lines = []
        if missing:
            lines.append(self._("Missing: {tiles}", tiles=missing))
        if extra:
            lines.append(self._("Take away: {tiles}", tiles=extra))
        if not lines:
            lines.append(self._("Lay the melds as they were."))
        canvas.paragraph(" ".join(lines), (area.left, y, area.width, canvas.px(50)), size=18, colour=ACCENT)
        y += canvas.px(54)
        # The players' word: the camera lost, or a misread of the restored table it cannot confirm.
        canvas.button(
            (area.left, y, area.width, canvas.px(52)),
            self._("Table restored"),
            session.table_restored,
            size=22,
        )

    def draw_correcting(self, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> None:
        corr = session.correction
        assert corr is not None
        if corr.unsure:
            text = self._("Unsure tiles: straighten them and press again, or tap each and pick what it is.")
        else:
            text = self._("Tap a tile the camera misread and pick what it is, then Check.")
        canvas.paragraph(text, (area.left, area.top, area.width, canvas.px(66)), size=18)
        y = area.top + canvas.px(68)
        pages = corr.pages()
        if len(pages) > 1:
            arrow = canvas.px(56)
            canvas.button((area.left, y, arrow, canvas.px(48)), "<", partial(session.turn_page, -1), size=22)
            canvas.relabel("page back")
            canvas.button(
                (area.right - arrow, y, arrow, canvas.px(48)), ">", partial(session.turn_page, 1), size=22
            )
            canvas.relabel("page on")
            canvas.text(
                self._("Page {n} of {total}", n=corr.page + 1, total=len(pages)),
                (area.left + arrow, y, area.width - 2 * arrow, canvas.px(48)),
                size=18,
                colour=TEXT_DIM,
                align="center",
            )
            y += canvas.px(52)
        self.draw_chips(canvas, corr, pygame.Rect(area.left, y, area.width, canvas.px(108)))
        y = area.bottom - canvas.px(52)
        w = (area.width - canvas.px(8)) // 2
        canvas.button(
            (area.left, y, w, canvas.px(52)),
            self._("Check"),
            session.enter_correction if corr.complete else None,
            colour=GOOD if corr.complete else None,
            size=22,
        )
        canvas.button(
            (area.left + w + canvas.px(8), y, w, canvas.px(52)),
            self._("Cancel"),
            session.cancel_correction,
            size=22,
        )

    def draw_chips(self, canvas: Canvas, corr: Correction, area: pygame.Rect) -> None:
        """A chip per tile of the page: what it was read as (or picked), tap to choose it. An unsure
        tile not yet picked shows its reading with a question mark."""
        size = canvas.px(50)
        gap = canvas.px(6)
        per_row = max(1, (area.width + gap) // (size + gap))
        page = corr.pages()[corr.page]
        for n, i in enumerate(page):
            rect = pygame.Rect(
                area.left + (n % per_row) * (size + gap), area.top + (n // per_row) * (size + gap), size, size
            )
            if rect.bottom > area.bottom:
                break
            tile = corr.fixes.get(i)
            if tile is not None:
                self.draw_tile(canvas, tile, rect, kind="picked_tile")
                pygame.draw.rect(canvas.surface, GOOD, rect, width=canvas.px(3), border_radius=4)
            elif i in corr.unsure:
                canvas.shape(rect, PANEL, radius=4)
                seen = corr.observation.tiles[i].tile
                canvas.text(f"{seen}?", rect, size=18, colour=ACCENT, align="center")
            else:
                self.draw_tile(canvas, corr.observation.tiles[i].tile, rect, kind="read_tile")
            if i == corr.chosen:
                pygame.draw.rect(canvas.surface, BUTTON_SELECTED, rect, width=canvas.px(4), border_radius=4)
            canvas.target(rect, f"tile {i + 1}", partial(self.session.choose_tile, i))

    def draw_reveal(self, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> None:
        seat = session.to_reveal()
        if seat is None:
            return
        name = session.players[seat].name
        count = session.rummikub.rack_counts[seat]
        if session.correction is not None:
            self.draw_correcting(canvas, session, area)
            return
        canvas.paragraph(
            self._(
                "{name}: lay your {n} tiles face up in front of the camera, or enter them below.",
                name=name,
                n=count,
            ),
            (area.left, area.top, area.width, canvas.px(72)),
            size=18,
        )
        y = area.top + canvas.px(74)
        canvas.button(
            (area.left, y, area.width, canvas.px(52)),
            self._("Read the rack"),
            session.read_rack,
            size=22,
            colour=GOOD,
        )
        y += canvas.px(58)
        entry = session.rack_entry
        tw, th = canvas.px(22), canvas.px(30)
        per_row = max(1, area.width // tw)
        for k, t in enumerate(entry[: 2 * per_row]):  # two rows; the count says how many there are
            rect = pygame.Rect(area.left + (k % per_row) * tw, y + (k // per_row) * (th + 4), tw - 1, th)
            self.draw_tile(canvas, t, rect, kind="entered_tile")
        y += 2 * (th + 4)
        canvas.text(
            self._("{n} of {count} entered", n=len(entry), count=count),
            (area.left, y, area.width, canvas.px(22)),
            size=18,
            colour=TEXT_DIM,
        )
        y += canvas.px(26)
        w = (area.width - canvas.px(8)) // 2
        canvas.button(
            (area.left, y, w, canvas.px(48)),
            self._("Remove last"),
            session.unpick if entry else None,
            size=18,
        )
        done = session.enter_rack if len(entry) == count else None
        canvas.button(
            (area.left + w + canvas.px(8), y, w, canvas.px(48)),
            self._("Done"),
            done,
            size=20,
            colour=GOOD if done else None,
        )

    def draw_picker(self, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> None:
        """Colour and joker above, numbers 1–13 below: a tile in two taps (one for the same colour)."""
        row = (area.height - canvas.px(8)) // 2
        w = (area.width - 4 * canvas.px(6)) // 5
        for n, colour in enumerate(COLOURS):
            rect = pygame.Rect(area.left + n * (w + canvas.px(6)), area.top, w, row)
            chosen = session.picker_colour == colour
            canvas.button(
                rect,
                self.colour_name(colour),
                partial(session.pick_colour, colour),
                colour=TILE_INK[colour],
                selected=chosen,
                size=20,
            )
            canvas.relabel(f"colour {colour}")
            side = canvas.px(14)  # the colour's mark in the corner: the legend of the tiles' marks
            draw_mark(
                canvas,
                colour,
                pygame.Rect(rect.left + canvas.px(6), rect.top + canvas.px(6), side, side),
                TEXT,
            )
        canvas.button(
            (area.left + 4 * (w + canvas.px(6)), area.top, w, row),
            self._("Joker"),
            session.pick_joker,
            size=20,
            text_colour=TEXT,
        )
        canvas.relabel("joker")
        nw = (area.width - 12 * canvas.px(4)) // 13
        ink = TILE_INK[session.picker_colour]
        for k in range(13):
            rect = pygame.Rect(area.left + k * (nw + canvas.px(4)), area.top + row + canvas.px(8), nw, row)
            canvas.shape(rect, TILE_FACE, radius=6)
            canvas.text(str(k + 1), rect, size=24, colour=ink, align="center", bold=True)
            canvas.record("button", f"number {k + 1}", rect)
            canvas.target(rect, f"number {k + 1}", partial(session.pick_number, k + 1))

    def colour_name(self, colour: str) -> str:
        names = {"R": self._("red"), "B": self._("blue"), "K": self._("black"), "O": self._("orange")}
        return names[colour]

    def draw_hand_over(self, canvas: Canvas, session: RummikubSession, area: pygame.Rect) -> None:
        state = session.rummikub
        canvas.text(
            self._("Hand {n} is over", n=state.hand),
            (area.left, area.top, area.width, canvas.px(32)),
            size=26,
            colour=ACCENT,
            bold=True,
        )
        y = area.top + canvas.px(40)
        hands = state.hand_scores
        shown = hands[-6:]
        cols = len(shown) + 2
        cw = area.width // cols
        heads = [
            self._("Player"),
            *(self._("Hand {n}", n=len(hands) - len(shown) + k + 1) for k in range(len(shown))),
            self._("Total"),
        ]
        for c, head in enumerate(heads):
            canvas.text(
                head, (area.left + c * cw, y, cw - canvas.px(4), canvas.px(28)), size=18, colour=TEXT_DIM
            )
        totals = state.totals
        for r, p in enumerate(session.players):
            ry = y + canvas.px(32) * (r + 1)
            cells = [p.name, *(str(h[p.seat]) for h in shown), str(totals[p.seat])]
            for c, cell in enumerate(cells):
                canvas.text(
                    cell,
                    (area.left + c * cw, ry, cw - canvas.px(4), canvas.px(28)),
                    size=24,
                    bold=c in (0, cols - 1),
                    role="name" if c == 0 else "score",
                )
        y += canvas.px(32) * (len(session.players) + 1) + canvas.px(12)
        canvas.button(
            (area.left, y, canvas.px(240), canvas.px(56)),
            self._("Next hand"),
            session.next_hand,
            size=22,
            colour=GOOD,
        )
        if session.coach is not None:
            canvas.button(
                (area.left + canvas.px(256), y, canvas.px(240), canvas.px(56)),
                self._("Review"),
                partial(self.host.show, "rummikub_review", hand=state.hand),
                size=22,
            )

    # --- the refusal line ----------------------------------------------------------------------------

    def status_line(self) -> str:
        session = self.session
        verdict = session.verdict
        if verdict is None or session.timer.now() - verdict.at > NOTICE_SECONDS:
            return ""
        name = session.players[verdict.seat].name
        if verdict.kind == "play" and verdict.tiles == 1:
            return self._("{name} laid a tile.", name=name)
        if verdict.kind == "play":
            return self._("{name} laid {n} tiles.", name=name, n=verdict.tiles)
        if verdict.kind == "draw":
            return self._("{name} drew a tile.", name=name)
        return self._("Time ran out: {name} draws {n}.", name=name, n=verdict.tiles)

    def draw_message(self, canvas: Canvas, area: pygame.Rect) -> None:
        text = self.message()
        if text:
            canvas.paragraph(text, area, size=20, colour=WARNING if self.trouble() else TEXT)
