"""A game session's phases as explicit states: each phase is a small object that owns its data and says
what it does on enter, on each event and on exit; the session holds the current one.

After pibooth's state machine (a state's entry, do and exit actions, the machine doing the
transitions), but smaller and event-driven: nothing runs each frame. :meth:`State.handle` gets every
event of the game while the state is current (a seat button, a reading of the table, the move timer, a
touch the screen turned into an event) and returns the next state, or ``None`` to stay (having changed
its own data, or nothing). :class:`StateMachine` makes every transition — the state's ``exit``, the
new one's ``enter`` — logs it and keeps the last ones for the tests (:attr:`StateMachine.transitions`).

What a phase needs lives on its state and nowhere else: the correction being made is the correcting
state's, the rack being entered the entering state's. Leaving the state drops it, so a combination the
flags of old allowed (a correction kept across the next reading, a rack being entered while the table
is being restored) cannot be written down.

The rules' state stays the rules' (``GameSession.state``); the session's state is
``GameSession.stage`` (its machine's :attr:`StateMachine.state`), and ``GameSession.phase`` is the
stage's :attr:`State.phase`, the name the screens, the voice and the simulated tables know.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

__all__ = ["State", "StateMachine", "Transition"]

log = logging.getLogger(__name__)

S = TypeVar("S")

KEPT_TRANSITIONS = 64  # the last transitions kept for the tests and the failsafe's log


class State(Generic[S]):
    """One phase of a game. ``S``: the session it belongs to, handed to each call (a state keeps no
    reference to it, so a state is a plain value the tests can build)."""

    name: ClassVar[str] = ""  # the phase's name; a state whose name depends on its data overrides phase

    @property
    def phase(self) -> str:
        return self.name

    def enter(self, session: S) -> None:
        """The state became current (the move timer paused, a reading asked for, …)."""

    def handle(self, session: S, event: object) -> State[S] | None:
        """One event while current: the next state, or ``None`` to stay."""
        return None

    def exit(self, session: S) -> None:
        """The state is left for another."""

    def label(self) -> str:
        """How the transitions' log names the state (its class; a state may add what tells it apart)."""
        return type(self).__name__


@dataclass(frozen=True)
class Transition:
    """One transition: from which state to which, and the event (or action) that caused it."""

    before: str
    after: str
    cause: str

    def __str__(self) -> str:
        return f"{self.before} -> {self.after} ({self.cause})"


class StateMachine(Generic[S]):
    """The current state of one session and the one place its transitions are made."""

    def __init__(self, session: S, initial: State[S], *, name: str = "") -> None:
        self.session = session
        self.name = name or type(session).__name__
        self.state: State[S] = initial
        self.transitions: deque[Transition] = deque(maxlen=KEPT_TRANSITIONS)
        initial.enter(session)

    def handle(self, event: object) -> bool:
        """Give ``event`` to the current state; returns whether the state changed."""
        before = self.state
        after = before.handle(self.session, event)
        if after is not None:
            self.go(after, cause=type(event).__name__)
        return self.state is not before

    def go(self, after: State[S], *, cause: str) -> None:
        """Leave the current state for ``after`` (also when it is the same object: exit, then enter)."""
        before = self.state
        before.exit(self.session)
        self.state = after
        transition = Transition(before.label(), after.label(), cause)
        self.transitions.append(transition)
        log.info("%s: %s", self.name, transition)
        after.enter(self.session)
