"""Driving the headless app the way players do: taps on labelled targets, seat buttons, dice seen."""

from __future__ import annotations

from collections.abc import Sequence

from device.app import App
from device.events import Tap
from device.session import GameSession
from device.sessions.dice import BoxPicked, DiceSession
from device.sessions.dice_events import DiceSeen, SeenDie
from device.ui.canvas import MIN_TARGET
from drivers.events import ButtonEvent


def labels(app: App) -> list[str]:
    return [t.label for t in app.canvas.targets]


def tap(app: App, label: str, nth: int = -1) -> None:
    """Tap the ``nth`` drawn target with this label (default: the last, the topmost), then draw."""
    app.step()
    matching = [t for t in app.canvas.targets if t.label == label]
    if matching:
        app.post(Tap(matching[nth].rect.center))
        app.step()
        return
    raise AssertionError(f"no target {label!r} on {app.screen.name}: {labels(app)}")


def start(app: App, game: str = "Generał (classic)") -> GameSession:
    """From the home screen: tap the game, then Start on the players screen; the game's session."""
    tap(app, game)
    tap(app, "Start")
    assert app.session is not None, f"{game} did not start: {labels(app)}"
    return app.session


def start_dice(app: App, game: str = "Generał (classic)") -> DiceSession:
    """:func:`start` for a dice game: its session, as the dice session it is."""
    session = start(app, game)
    assert isinstance(session, DiceSession)
    return session


def pick_box(session: GameSession | None, box: str | None) -> None:
    """A box tapped on the dice table: ``BoxPicked``, an event for the dice session's current state."""
    assert isinstance(session, DiceSession) and box is not None
    session.send(BoxPicked(box))


def seat_to_move(session: GameSession) -> int:
    """The seat to move (a game on: there is one)."""
    seat = session.current_seat
    assert seat is not None
    return seat


def phase_of(session: GameSession) -> str:
    """The session's phase now (read afresh: an assertion on an earlier phase does not narrow it)."""
    return session.phase


def press(app: App, seat: int) -> None:
    app.post(ButtonEvent(seat, "press", "test"))
    app.step()


def roll(app: App, values: Sequence[int], held: Sequence[int] = ()) -> None:
    app.post(DiceSeen(tuple(SeenDie(v, held=i in held) for i, v in enumerate(values))))
    app.step()


def check_layout(app: App) -> None:
    """Structure of the frame just drawn: nothing off-screen, every touch target large enough."""
    width, height = app.canvas.width, app.canvas.height
    for drawn in app.canvas.log:
        x, y, w, h = drawn.rect
        assert x >= 0 and y >= 0 and x + w <= width and y + h <= height, (app.screen.name, drawn)
    for target in app.canvas.targets:
        assert target.rect.width >= MIN_TARGET and target.rect.height >= MIN_TARGET, (app.screen.name, target)
        assert app.canvas.rect.contains(target.rect), (app.screen.name, target)


def sheet_texts(app: App) -> set[str]:
    """Every text of the score sheets, page by page (the sheets are paged, not shrunk)."""
    screen = app.screen
    seen: set[str] = set()
    for page in range(12):  # more than any sheet has; the page number wraps around
        screen.sheet_page = page  # type: ignore[attr-defined]
        app.step()
        seen |= set(app.canvas.texts())
    return seen
