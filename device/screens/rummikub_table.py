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

import numpy as np
import pygame

from device.camera_view import CameraView
from device.events import Event, Key
from device.host import Host
from device.screens.base import screen
from device.screens.rummikub_coach_panel import draw_advice
from device.screens.rummikub_panels import TILE, Panel, panel_of
from device.screens.table import TableScreen
from device.sessions.rummikub import Correcting, Correction, Phase, Picking, Restoring, RummikubSession
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
        self.panels: dict[type[Panel], Panel] = {}

    @property
    def session(self) -> RummikubSession:
        session = self.host.session
        assert isinstance(session, RummikubSession)
        return session

    def enter(self, **_: object) -> None:
        self._pictured = -1

    def handle(self, event: Event) -> None:
        session = self.session
        if isinstance(event, Key) and event.key == pygame.K_d:
            session.draw()
        elif isinstance(event, Key) and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            session.enter_correction() if session.correction is not None else session.enter_rack()
        else:
            super().handle(event)

    # --- drawing -------------------------------------------------------------------------------------

    def panel(self, stage: Phase) -> tuple[Panel, Phase]:
        """The panel of the current state (``device.screens.rummikub_panels``) and the state it draws."""
        kind, shown = panel_of(stage)
        if kind not in self.panels:
            self.panels[kind] = kind(self)
        return self.panels[kind], shown

    def draw(self, canvas: Canvas) -> None:
        canvas.begin()
        session = self.session
        self.keep_before_picture(session)
        status = self.draw_top(canvas)
        self.draw_status(canvas, session, status)
        stage = session.stage
        assert isinstance(stage, Phase)
        panel, shown = self.panel(stage)
        top = canvas.px(64)
        left = pygame.Rect(canvas.px(8), top, canvas.px(292), canvas.height - top - canvas.px(8))
        right = pygame.Rect(left.right + canvas.px(8), top, canvas.width - left.right - canvas.px(16), 0)
        right.height = right.width * 9 // 16
        if panel.picker and isinstance(shown, Picking):
            picker = pygame.Rect(
                canvas.px(8), canvas.height - canvas.px(120), canvas.width - canvas.px(16), 0
            )
            picker.height = canvas.px(112)
            left.height = picker.top - canvas.px(8) - left.top
            right.height = min(right.height, picker.top - canvas.px(8) - right.top)
            self.draw_picker(canvas, session, shown, picker)
        if panel.wide:
            panel.draw(
                canvas, session, shown, pygame.Rect(left.left, top, canvas.width - canvas.px(16), left.height)
            )
            return
        self.draw_camera(canvas, session, right)
        below = pygame.Rect(right.left, right.bottom + canvas.px(6), right.width, 0)
        below.height = left.bottom - below.top
        panel.draw(canvas, session, shown, left)
        if panel.seen and not isinstance(shown, Restoring) and draw_advice(self, canvas, session, below):
            return  # the learning table's advice (or hint) under the camera
        if panel.seen and below.height > canvas.px(60):
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
            zone_labels={"rack": self._("Rack zone")},  # a learning table's (``vision.tile_zones``)
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
        stage = session.stage
        if isinstance(stage, Correcting):
            corr = stage.correction
            tiles = corr.observation.tiles
            for i in corr.unsure:
                if i not in corr.fixes and i != corr.chosen:
                    outline(tiles[i].corners, ACCENT, canvas.px(3), "unsure_tile")
            for i in corr.fixes:
                if i != corr.chosen:
                    outline(tiles[i].corners, GOOD, canvas.px(3), "corrected_tile")
            if corr.chosen is not None:
                outline(tiles[corr.chosen].corners, BUTTON_SELECTED, canvas.px(5), "chosen_tile")
        if isinstance(stage, Restoring) and session.live is not None:
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

    def draw_picker(
        self, canvas: Canvas, session: RummikubSession, picking: Picking, area: pygame.Rect
    ) -> None:
        """Colour and joker above, numbers 1–13 below: a tile in two taps (one for the same colour)."""
        row = (area.height - canvas.px(8)) // 2
        w = (area.width - 4 * canvas.px(6)) // 5
        for n, colour in enumerate(COLOURS):
            rect = pygame.Rect(area.left + n * (w + canvas.px(6)), area.top, w, row)
            chosen = picking.colour == colour
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
        ink = TILE_INK[picking.colour]
        for k in range(13):
            rect = pygame.Rect(area.left + k * (nw + canvas.px(4)), area.top + row + canvas.px(8), nw, row)
            canvas.shape(rect, TILE_FACE, radius=6)
            canvas.text(str(k + 1), rect, size=24, colour=ink, align="center", bold=True)
            canvas.record("button", f"number {k + 1}", rect)
            canvas.target(rect, f"number {k + 1}", partial(session.pick_number, k + 1))

    def colour_name(self, colour: str) -> str:
        names = {"R": self._("red"), "B": self._("blue"), "K": self._("black"), "O": self._("orange")}
        return names[colour]

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
