"""A script of input events for the simulator: ``referee --simulate --script FILE``.

One event per line, played in order through pygame's event queue (so they travel the same way as a
person's keys and taps):

- ``key NAME`` — a pygame key name (``r``, ``1``, ``f1``, ``space``, ``return``): pressed, released the
  next frame;
- ``tap TEXT`` — a tap on the button showing TEXT in the current language (or named TEXT for the tests,
  ``start 1`` for *Ala starts*), waiting up to ``TAP_PATIENCE`` seconds for it to appear;
- ``wait SECONDS`` — let the appliance run SECONDS, then until the camera has read the table as it now
  lies (a settled or empty reading of a frame taken after those seconds), so that a slow machine plays
  the script as a fast one does; at most ``WAIT_LIMIT`` seconds more, else the script stops and says
  that it ran out of time (without a camera the seconds alone);
- ``shot FILE.png`` — save the screen as last drawn (at the window's size, 800×480 by default) to FILE,
  relative to the working directory; its folder is made if needed;
- ``#`` starts a comment; blank lines are skipped.

The run ends when the script has ended (``--stay`` keeps the appliance running after it).

>>> [str(step) for step in parse_script("tap Start\\nkey r  # roll\\nwait 1.5\\nshot a.png\\n")]
['tap Start', 'key r', 'wait 1.5', 'shot a.png']
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

import pygame

if TYPE_CHECKING:
    from device.app import App

__all__ = ["TAP_PATIENCE", "WAIT_LIMIT", "ScriptError", "ScriptPlayer", "Step", "load_script", "parse_script"]

TAP_PATIENCE = 5.0  # s: a screen may take a few frames to show the button a tap names
WAIT_LIMIT = 60.0  # s: after a wait's seconds, how long the camera may take to read the table


@runtime_checkable
class FilmedFrames(Protocol):
    """What a ``wait`` asks of the camera (``device.vision_worker.Vision``): the newest frame's number,
    and whether the reader settled on a frame after that one."""

    def newest_seq(self) -> int: ...

    def settled_since(self, seq: int) -> bool: ...


class ScriptError(ValueError):
    """A line of a script that cannot be read or played; the message names the line."""


@dataclass(frozen=True)
class Step:
    kind: Literal["key", "tap", "wait", "shot"]
    text: str  # the key name, the button text, or the seconds as written
    line: int
    key: int = 0
    seconds: float = 0.0

    def __str__(self) -> str:
        return f"{self.kind} {self.text}"


def _key_code(name: str) -> int:
    with warnings.catch_warnings():  # pygame warns that it is not initialised; names need no display
        warnings.simplefilter("ignore")
        return int(pygame.key.key_code(name))


def parse_script(text: str, source: str = "script") -> list[Step]:
    steps = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        kind, _, arg = line.partition(" ")
        arg = arg.strip()
        where = f"{source} line {number}"
        if kind not in ("key", "tap", "wait", "shot"):
            raise ScriptError(
                f"{where}: {kind!r} is not an event (key NAME, tap TEXT, wait SECONDS, shot FILE.png)"
            )
        if not arg:
            raise ScriptError(f"{where}: {kind} needs {'a key name' if kind == 'key' else 'an argument'}")
        if kind == "shot" and Path(arg).suffix.lower() not in (".png", ".bmp", ".jpg", ".jpeg"):
            raise ScriptError(f"{where}: shot needs a .png (or .bmp, .jpg) file name, got {arg!r}")
        if kind == "key":
            try:
                code = _key_code(arg)
            except ValueError:
                raise ScriptError(
                    f"{where}: {arg!r} is not a pygame key name (r, 1, f1, space, return)"
                ) from None
            steps.append(Step("key", arg, number, key=code))
        elif kind == "wait":
            try:
                seconds = float(arg)
            except ValueError:
                raise ScriptError(f"{where}: wait needs seconds, got {arg!r}") from None
            if not seconds >= 0:
                raise ScriptError(f"{where}: wait needs seconds >= 0, got {arg!r}")
            steps.append(Step("wait", arg, number, seconds=seconds))
        elif kind == "shot":
            steps.append(Step("shot", arg, number))
        else:
            steps.append(Step("tap", arg, number))
    return steps


def load_script(path: str | Path) -> list[Step]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(f"cannot read the script {path}: {exc.strerror or exc}") from None
    return parse_script(text, str(path))


class ScriptPlayer:
    """Plays the steps, one per frame at most: :meth:`poll` before the loop reads pygame's events.

    ``app`` is the appliance (its canvas has the buttons of the frame last drawn); ``post`` puts an
    event on pygame's queue (``pygame.event.post``, or a list's append in tests)."""

    def __init__(
        self,
        steps: list[Step],
        app: App,
        clock: Callable[[], float],
        post: Callable[[pygame.event.Event], object] = pygame.event.post,
    ) -> None:
        self.steps = list(steps)
        self.app = app
        self.clock = clock
        self.post = post
        self._index = 0
        self._until: float | None = None  # a wait's end, or a tap's patience
        self._mark: int | None = None  # a wait's seconds are over: the camera's newest frame then
        self._release: int | None = None

    @property
    def done(self) -> bool:
        return self._index >= len(self.steps) and self._release is None

    @property
    def position(self) -> str:
        """Where the script is: its step, or that it is done (for a run that ends before it)."""
        if self._index >= len(self.steps):
            return "done"
        step = self.steps[self._index]
        return f"line {step.line} ({step})"

    def poll(self) -> None:
        if self._release is not None:
            self.post(pygame.event.Event(pygame.KEYUP, key=self._release, mod=0, unicode="", scancode=0))
            self._release = None
            return
        if self._index >= len(self.steps):
            return
        step = self.steps[self._index]
        now = self.clock()
        if step.kind == "wait":
            self._wait(step, now)
            return
        if step.kind == "shot":
            path = Path(step.text)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                pygame.image.save(self.app.canvas.surface, str(path))
            except (OSError, pygame.error) as exc:
                raise ScriptError(f"line {step.line}: cannot save the screen to {path}: {exc}") from None
            self._next()
            return
        if step.kind == "key":
            unicode = step.text if len(step.text) == 1 else ""
            self.post(pygame.event.Event(pygame.KEYDOWN, key=step.key, mod=0, unicode=unicode, scancode=0))
            self._release = step.key
            self._next()
            return
        targets = [t for t in self.app.canvas.targets if step.text in (t.label, t.shown)]
        if targets:
            pos = targets[-1].rect.center
            self.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
            self._next()
            return
        if self._until is None:
            self._until = now + TAP_PATIENCE
        if now >= self._until:
            shown = ", ".join(repr(t.shown or t.label) for t in self.app.canvas.targets)
            raise ScriptError(
                f"line {step.line}: no button {step.text!r} on the {self.app.screen.name} screen "
                f"(buttons: {shown})"
            )

    def _wait(self, step: Step, now: float) -> None:
        feed = self.app.camera
        camera = feed if isinstance(feed, FilmedFrames) else None
        if self._until is None:
            self._until = now + step.seconds
        if self._mark is None:
            if now < self._until:
                return
            if camera is None:
                self._next()
                return
            # The seconds are over: from now on the camera films the table as it lies.
            self._mark = camera.newest_seq()
            self._until = now + WAIT_LIMIT
        if camera is None or camera.settled_since(self._mark):  # (a camera gone: nothing to wait for)
            self._next()
        elif now >= self._until:
            raise ScriptError(
                f"line {step.line}: ran out of time: {WAIT_LIMIT:g} s after 'wait {step.text}' the camera "
                f"had still not read the table (a settled or empty reading; is the machine that slow?)"
            )

    def _next(self) -> None:
        self._index += 1
        self._until = None
        self._mark = None
