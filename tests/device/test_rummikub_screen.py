"""The Rummikub screen as a new player meets it (issue 36): nothing of the last hand or of a move taken
back stays on the screen, the before table's tiles and what is hidden of them do not overlap, and every
tile's colour is also a letter, large enough to be read from a seat."""

from __future__ import annotations

import pygame

from device.screens.rummikub_table import JOKER_INK, MARKS, TILE_INK, RummikubTableScreen
from device.sessions.rummikub import RummikubSession
from rules.rummikub import parse_tiles
from rules.rummikub.tiles import Tile
from tests.device.conftest import make_config
from tests.device.helpers import phase_of, press, tap
from tests.device.test_rummikub_table import read, seen, start_game

MELDS = ["R1 R2 R3 R4 R5", "B9 B10 B11 B12 B13", "K7 O7 R7 B7"]
RACK = "K5 K6 K7 K8 K9 K10 K11 K12 K13 O1 O2 O3 O4 O5"


def kinds(app) -> list[str]:
    return [d.kind for d in app.canvas.log]


def test_the_next_hand_shows_nothing_of_the_last(make_app, tmp_path) -> None:
    app = make_app(config=make_config(tmp_path, games={"rummikub": {"hands": 2}}))
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    read(app, seen(MELDS))  # seat 1 lays his whole rack: the hand ends
    tap(app, "Read the rack")
    read(app, seen(MELDS, RACK.split()))
    assert session.phase == "hand_over"
    tap(app, "Next hand")
    assert phase_of(session) == "start"
    app.step()
    texts = " ".join(app.canvas.texts())
    assert "laid" not in texts, texts  # the last hand's line
    tap(app, "start 2")
    assert phase_of(session) == "playing" and not session.before
    app.step()
    assert "The table is empty." in app.canvas.texts()
    assert "seen_tile_drawn" not in kinds(app)  # Seen: not the last hand's table


def test_a_refused_move_taken_back_leaves_no_red_on_the_screen(make_app) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    read(app, seen(["R10 R11 R12"], ["B5"]))  # a loose tile: refused, outlined in red
    assert session.refusal is not None and session.refusal.code == "invalid_meld"
    app.step()
    assert "refused_tile" in kinds(app) and "refused_meld" in kinds(app)
    read(app, seen([]), kind="settled")  # he takes his tiles back: the table as it was
    assert isinstance(app.session, RummikubSession)
    assert "refused_tile" not in kinds(app) and "refused_meld" not in kinds(app)
    read(app, seen(["R10 R11 R12"], ["B5"]), kind="settled")  # laid again, not yet pressed
    assert "refused_tile" not in kinds(app)


def test_the_count_of_hidden_tiles_covers_no_tile(make_app) -> None:
    app = make_app()
    start_game(app)
    tap(app, "start 1")
    screen = app.screen
    assert isinstance(screen, RummikubTableScreen)
    runs = [f"{c}{n} {c}{n + 1} {c}{n + 2}" for c in "RBKO" for n in (1, 4, 7, 10)] * 2
    melds = [parse_tiles(run) for run in runs]  # a table far larger than the panel
    canvas = app.canvas
    for tile in ((20, 28), (24, 32), (30, 40)):
        for height in (120, 162, 170, 200):
            canvas.begin()
            area = pygame.Rect(12, 94, 284, height)
            screen.draw_melds(canvas, melds, area, tile)
            tiles = [pygame.Rect(d.rect) for d in canvas.log if d.kind == "table_tile"]
            more = [d for d in canvas.log if d.kind == "text" and d.text.startswith("+")]
            assert tiles and len(more) == 1, (tile, height)
            count = pygame.Rect(more[0].rect)
            assert count.collidelist(tiles) == -1, (tile, height, count)
            assert area.contains(count) and all(area.contains(t) for t in tiles)
            hidden = int(more[0].text.split()[0][1:])
            assert len(tiles) + hidden == sum(map(len, melds)), (tile, height)


def test_every_tile_shows_its_colour_as_a_shape_too_and_is_large_enough(make_app) -> None:
    app = make_app()
    session = start_game(app)
    tap(app, "start 1")
    press(app, 0)
    table = ["R10 R11 R12", "B10 K10 O10"]
    read(app, seen(table))  # seat 1 opens: the before table of seat 2's move
    assert session.current_seat == 1 and len(session.before) == 2
    read(app, seen([*table, "K1 K2 J"]), kind="settled")  # what the camera sees now
    app.step()
    log = app.canvas.log
    tiles = [d for d in log if d.kind in ("table_tile", "seen_tile_drawn")]
    assert {d.kind for d in tiles} == {"table_tile", "seen_tile_drawn"} and len(tiles) == 6 + 9
    marks = [d for d in log if d.kind == "tile_mark"]
    surface = app.canvas.surface
    for d in tiles:
        rect = pygame.Rect(d.rect)
        assert rect.height >= 28, d  # a tile at least 28 px high on the main view
        inside = [m for m in marks if rect.contains(pygame.Rect(m.rect))]
        tile = Tile.parse(d.text)
        assert [m.text for m in inside] == [MARKS["J" if tile.is_joker else tile.colour]], d
        ink = JOKER_INK if tile.is_joker else TILE_INK[tile.colour]
        mark = pygame.Rect(inside[0].rect)
        assert surface.get_at(mark.center)[:3] == ink, d  # the shape is drawn, in the tile's ink
    assert len({MARKS[c] for c in "RBKOJ"}) == 5  # five colours (and the joker), five shapes
    # The picker's colour buttons show the same marks: the legend.
    press(app, 1)
    read(app, seen([*table, "K1 K2 J"], unsure=[6]))
    read(app, seen([*table, "K1 K2 J"], unsure=[6]))  # the vote of the next frames: still unsure
    assert session.phase == "correcting"
    app.step()
    legend = [d.text for d in app.canvas.log if d.kind == "tile_mark"]
    assert {"circle", "square", "triangle", "diamond"} <= set(legend)
