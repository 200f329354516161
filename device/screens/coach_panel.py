"""What the coach adds to the dice screens (device/coach.py decides; this only draws).

- :func:`draw_coach_notice` — a strip above the choices: the best hold or box now and, after the
  fact, the loss of the player's previous decision (hints); par and the optimal opponent (solo);
- :func:`coach_hold` / :func:`coach_box` — the dice to hold and the box to mark on the dice screen;
- :func:`draw_grades` — the end screen's grades: points lost per decision, the biggest mistake.

Each draws on a :class:`Wording` (any screen: its host and its words), so that the dice table's panels
can hand it the table they are given.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from device.coach import Coaching, Hint
from device.host import Host
from device.sessions.dice import DiceSession
from device.ui.canvas import Canvas
from device.ui.names import box_label
from device.ui.theme import ACCENT, PANEL, TEXT, TEXT_DIM, WARNING, Colour
from rules.coach.advice import Choice

__all__ = [
    "Wording",
    "choice_text",
    "coach_box",
    "coach_hold",
    "coaching_of",
    "draw_coach_notice",
    "draw_grades",
    "grade_lines",
    "grades_height",
    "hints_on",
]


class Wording(Protocol):
    """What the coach's drawing asks of a screen (``device.screens.base.Screen`` is one): the app it
    runs in and the players' language."""

    @property
    def host(self) -> Host: ...

    def _(self, msgid: str, **values: object) -> str: ...


def choice_text(screen: Wording, game: str, choice: Choice) -> str:
    """``Hold 6 6 6``, ``Reroll all`` or the box's name, in the players' language."""
    if choice.kind == "box":
        return box_label(screen.host.tr, game, str(choice.box))
    if not choice.kept:
        return screen._("Reroll all")
    return screen._("Hold {dice}", dice=" ".join(map(str, choice.kept)))


def _coached(app: Host) -> tuple[DiceSession, Coaching] | None:
    """The app's dice game and its coach (``DiceSession.coaching``: made on first use with the owner's
    setting of that moment); ``None`` without a dice game."""
    session = app.session
    if not isinstance(session, DiceSession):
        return None
    return session, session.coaching(app.settings.coach_mode(session.spec.name), app.config.device.state_dir)


def coaching_of(app: Host) -> Coaching | None:
    """The coach of the app's dice game; ``None`` without a dice game."""
    coached = _coached(app)
    return None if coached is None else coached[1]


def _hint(app: Host) -> Hint | None:
    """The coach's hint now, in hints mode."""
    coached = _coached(app)
    if coached is None:
        return None
    session, coaching = coached
    return coaching.hint(session) if coaching.mode == "hints" and coaching.active else None


def hints_on(app: Host) -> bool:
    """Whether the game shows the coach's hints."""
    coaching = coaching_of(app)
    return coaching is not None and coaching.mode == "hints" and coaching.active


def coach_hold(app: Host) -> tuple[int, ...]:
    """The positions the coach would hold now (hints mode), else nothing."""
    hint = _hint(app)
    return hint.best.hold if hint is not None and hint.best.kind == "hold" else ()


def coach_box(app: Host) -> str | None:
    """The box the coach would enter now (hints mode, when stopping is best)."""
    hint = _hint(app)
    return hint.best.box if hint is not None and hint.best.kind == "box" else None


def notice_lines(screen: Wording) -> list[tuple[str, tuple[int, int, int]]]:
    """The coach's lines for the dice screen now (empty when the coach is off)."""
    coached = _coached(screen.host)
    if coached is None or coached[1].mode == "off":
        return []
    session, coaching = coached
    if coaching.coach is None:
        return [(screen._("Coach: no table yet (referee coach build)"), WARNING)]
    game = session.spec.name
    lines: list[tuple[str, tuple[int, int, int]]] = []
    if coaching.mode == "hints":
        hint = coaching.hint(session)
        if hint is not None:
            text = screen._("Coach: {choice}", choice=choice_text(screen, game, hint.best))
            if hint.margin > 0.005:
                text += "  " + screen._("(next best −{loss})", loss=f"{hint.margin:.1f}")
            lines.append((text, ACCENT))
        last = coaching.last_decision(session)
        if last is not None:
            if last.loss > 0.005:
                best = choice_text(screen, game, last.best)
                lines.append(
                    (screen._("Last choice −{loss}; best: {best}", loss=f"{last.loss:.1f}", best=best), TEXT)
                )
            else:
                lines.append((screen._("Last choice: the best"), TEXT_DIM))
    else:
        turns = min(sheet.filled for sheet in session.game_state.sheets)
        par = coaching.par(session)
        opponent = coaching.opponent_total(session, turns)
        lines.append(
            (
                screen._(
                    "Par {par}; the coach has {points} after {turns} turns",
                    par=f"{par:.1f}",
                    points=opponent,
                    turns=turns,
                ),
                ACCENT,
            )
        )
    if not coaching.exact:
        lines.append((screen._("Triple: the coach's advice is a heuristic"), TEXT_DIM))
    return lines


def draw_coach_notice(screen: Wording, canvas: Canvas, area: pygame.Rect) -> pygame.Rect:
    """Draw the coach's strip at the top of ``area``; returns the area left below it."""
    lines = notice_lines(screen)
    if not lines:
        return area
    line_h = canvas.px(24)
    box = pygame.Rect(area.left, area.top, area.width, line_h * len(lines) + canvas.px(8))
    canvas.shape(box, PANEL, radius=canvas.px(8))
    for i, (text, colour) in enumerate(lines):
        canvas.text(
            text,
            (box.left + canvas.px(8), box.top + canvas.px(4) + i * line_h, box.width - canvas.px(16), line_h),
            size=18,
            colour=colour,
        )
    return pygame.Rect(
        area.left, box.bottom + canvas.px(6), area.width, area.bottom - box.bottom - canvas.px(6)
    )


def grade_lines(screen: Wording) -> list[tuple[str, Colour, int]]:
    """The end screen's grades as lines (text, colour, indent in baseline px); none without a coach."""
    coached = _coached(screen.host)
    if coached is None or not coached[1].active:
        return []
    session, coaching = coached
    game = session.spec.name
    heading = (
        screen._("Against optimal play") if coaching.exact else screen._("Against the coach (heuristic)")
    )
    lines: list[tuple[str, Colour, int]] = [(heading, TEXT_DIM, 0)]
    if coaching.mode == "solo":
        turns = len(session.game_state.sheets[0].boxes)
        par = coaching.par(session)
        opponent = coaching.opponent_total(session, turns)
        text = screen._("Par {par}; the optimal opponent scored {points}", par=f"{par:.1f}", points=opponent)
        lines.append((text, ACCENT, 0))
    for grade in coaching.grades(session):
        name = session.players[grade.seat].name
        text = screen._(
            "{name}: {loss} lost per decision ({total} in {n})",
            name=name,
            loss=f"{grade.per_decision:.2f}",
            total=f"{grade.lost:.1f}",
            n=grade.decisions,
        )
        lines.append((text, TEXT, 0))
        worst = grade.biggest
        if worst is None:
            lines.append((screen._("No mistake"), TEXT_DIM, 12))
        else:
            text = screen._(
                "Worst, turn {turn}: {made}; best {best} (−{loss})",
                turn=worst.turn,
                made=choice_text(screen, game, worst.made),
                best=choice_text(screen, game, worst.best),
                loss=f"{worst.loss:.1f}",
            )
            lines.append((text, WARNING, 12))
    return lines


GRADE_LINE = 20  # baseline px per line of the grades (18 px text)


def _wrapped(screen: Wording, canvas: Canvas, width: int) -> list[tuple[str, Colour, int]]:
    """The grade lines wrapped to ``width`` px at 18 px: a long line goes on two, never smaller."""
    out = []
    for text, colour, indent in grade_lines(screen):
        for part in canvas.wrap(text, width - canvas.px(indent), 18):
            out.append((part, colour, indent))
    return out


def grades_height(screen: Wording, canvas: Canvas, width: int) -> int:
    """The height :func:`draw_grades` needs in ``width`` px (0 when the game had no coach)."""
    return canvas.px(GRADE_LINE) * len(_wrapped(screen, canvas, width))


def draw_grades(screen: Wording, canvas: Canvas, area: pygame.Rect) -> bool:
    """The end screen's grades in ``area``; False (nothing drawn) when the game had no coach."""
    lines = _wrapped(screen, canvas, area.width)
    line_h = canvas.px(GRADE_LINE)
    for i, (text, colour, indent) in enumerate(lines):
        if area.top + (i + 1) * line_h > area.bottom:
            break  # the chart keeps its least height: the last lines give way
        x = area.left + canvas.px(indent)
        canvas.text(text, (x, area.top + i * line_h, area.right - x, line_h), size=18, colour=colour)
    return bool(lines)
