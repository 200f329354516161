"""From the game's events to the referee's sentences — never from a screen's drawing.

The app calls :meth:`Narrator.poll` once per frame, after the frame's events went to the session. It
hears each action the session took (a session listener: the action with the state before and after
it) and compares what the session says now with what it said a frame ago: a new refusal, the move
timer's warning, the timeout and what it did, a table to restore and restored, a hand or the game
over, a new move. In that order it speaks, through the :class:`~device.voice.speaker.Speaker`:

1. a move that ended: its sentence is cut short (``Speaker.end_move``);
2. what the actions did: a roll read (when the owner asks for it), a box and its points, tiles laid,
   a tile drawn, what the timeout did;
3. a refusal's rule; the timer's warning;
4. Rummikub: "restore the table", "table restored"; a hand's winner; the game's winner;
5. whose move it is (after a timeout that changed the table: once it is restored).

Games are told apart by their rules' actions and by what their sessions already keep for their
screens (the dice's ``timeout_entry``, Zatre's, Kalooki's ``timed_out``); no session changes for it.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from device.timer import WARNING_SECONDS
from device.voice.kinds import Params
from device.voice.speaker import Speaker
from rules import Action, GameState

if TYPE_CHECKING:
    from device.app import App
    from device.session import GameSession, Refusal
    from device.sessions.dice import TimeoutEntry
    from device.sessions.zatre import TimeoutLay

__all__ = ["Narrator", "TimeoutMarks"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TimeoutMarks:
    """What a game shows of the move timer's last timeout (compared frame to frame: a new one is said
    once): the dice's box entered, or the best box to come on the roll; Zatre's cards laid; the Kalooki
    seat whose time ran out (and when)."""

    box: TimeoutEntry | None = None
    on_roll: bool = False
    lay: TimeoutLay | None = None
    timed_out: tuple[int, float] | None = None


class Narrator:
    def __init__(self, app: App, speaker: Speaker) -> None:
        self.app = app
        self.speaker = speaker
        self._session: GameSession | None = None
        self._actions: list[tuple[Action, GameState, GameState]] = []
        self._state: GameState | None = None
        self._move = 0  # the move being played (its sentences are cut short when it ends)
        self._seat: int | None = None  # the seat whose move was announced
        self._turn_over = False  # an action ended the turn though the seat stays (one player alone)
        self._refusal: Refusal | None = None
        self._warned = False
        self._restoring = False
        self._phase = ""
        self._finished = False
        self._marks = TimeoutMarks()
        self._logged = ""

    # --- attaching -----------------------------------------------------------------------------------

    def poll(self) -> None:
        """Once per frame. The voice never stops the game: an error here is logged once and the frame
        goes on (silent)."""
        try:
            self.speaker.poll()
            session = self.app.session
            if session is not self._session:
                self._attach(session)
            if session is not None:
                self._narrate(session)
        except Exception as exc:
            problem = f"{type(exc).__name__}: {exc}"
            if problem != self._logged:
                self._logged = problem
                log.exception("voice: the narrator failed; the game goes on")

    def _attach(self, session: GameSession | None) -> None:
        if self._seat is not None:
            self.speaker.end_move(self._move)
        self._session = session
        self._actions = []
        self._seat = None
        self._turn_over = False
        if session is None:
            return
        self._state = session.state
        self._refusal = session.refusal
        self._warned = session.timer.warning()
        self._restoring = session.phase == "restore"
        self._phase = session.phase
        self._finished = session.finished
        self._marks = self._timeout_marks(session)
        session.listeners.append(self._on_action)

    def _on_action(self, session: GameSession, act: Action) -> None:
        if session is not self._session or self._state is None:
            return
        self._actions.append((act, self._state, session.state))
        self._state = session.state

    # --- each frame ----------------------------------------------------------------------------------

    def _narrate(self, session: GameSession) -> None:
        seat, finished = session.current_seat, session.finished
        if self._seat is not None and (seat != self._seat or finished or self._turn_over):
            self.speaker.end_move(self._move)
        timeouts = self._new_timeouts(session)
        actions, self._actions = self._actions, []
        for act, before, after in actions:
            self._action(session, act, before, after, timeouts)
        for kind, params in timeouts.values():
            self._say(kind, move=None, **params)
        refusal = session.refusal
        if refusal is not None and refusal is not self._refusal:
            self._say("refusal", move=self._move, rule=refusal.key, details=refusal.details)
        self._refusal = refusal
        phase = session.phase
        restoring = phase == "restore"
        if restoring and not self._restoring:
            self._say("restore_table")
        elif self._restoring and not restoring and not finished:
            self._say("table_restored")
        if phase == "hand_over" and self._phase != "hand_over":
            self._hand_over(session)
        if finished and not self._finished:
            self._game_over(session)
        new_move = seat is not None and (seat != self._seat or self._turn_over or self._restoring)
        if new_move and not finished and not restoring and seat is not None:
            self._move += 1
            self._seat = seat
            self._warned = False
            self._say("your_move", move=self._move, name=session.players[seat].name)
        elif seat is None or finished:
            self._seat = None
        self._turn_over = False
        warning = session.timer.warning() and seat is not None and not finished
        if warning and not self._warned:
            left = session.timer.remaining() or 0.0
            self._say("time_warning", move=self._move, seconds=min(int(WARNING_SECONDS), math.ceil(left)))
        self._warned = warning
        self._restoring, self._phase, self._finished = restoring, phase, finished

    def _say(self, kind: str, *, move: int | None = None, **params: object) -> None:
        self.speaker.speak(kind, move=move, **params)

    # --- what the actions did ------------------------------------------------------------------------

    def _action(
        self,
        session: GameSession,
        act: Action,
        before: GameState,
        after: GameState,
        timeouts: dict[str, tuple[str, Params]],
    ) -> None:
        from rules.dice import Choose, RollDice
        from rules.dice_game import DiceGame
        from rules.kalooki import HandPoints
        from rules.rummikub import Draw, Play, RummikubState, Timeout
        from rules.zatre import Lay, ZatreState

        player = before.to_move
        name = session.players[player].name if player is not None else ""
        if isinstance(act, RollDice):
            self._say("roll", dice=act.dice.values)
        elif isinstance(act, Choose) and player is not None:
            self._turn_over = True
            timed = timeouts.get("dice")
            if timed is not None and timed[1]["box"] == act.box:
                self._say(timed[0], move=None, **timed[1])
                del timeouts["dice"]
                return
            points = before.choices().get(act.box, 0) if isinstance(before, DiceGame) else 0
            self._say("score", name=name, game=session.spec.name, box=act.box, points=points)
        elif isinstance(act, Lay) and player is not None:
            timed = timeouts.pop("zatre", None)
            if timed is not None:
                self._say(timed[0], move=None, **timed[1])
                return
            if isinstance(before, ZatreState) and isinstance(after, ZatreState):
                gained = after.sheets[player].total - before.sheets[player].total
                self._say("points", name=name, points=gained)
        elif isinstance(act, HandPoints):
            self._say("penalty", name=session.players[act.seat].name, points=act.points)
        elif isinstance(act, Play | Draw | Timeout) and player is not None:
            moved = 1
            if isinstance(before, RummikubState) and isinstance(after, RummikubState):
                moved = abs(after.rack_counts[player] - before.rack_counts[player])
            if isinstance(act, Play):
                self._say("tiles_laid", name=name, tiles=moved)
            elif isinstance(act, Draw):
                self._say("tile_drawn", name=name)
            else:
                self._say("timeout_restore" if act.manipulated else "timeout_draw", name=name, tiles=moved)

    def _timeout_marks(self, session: GameSession) -> TimeoutMarks:
        """What each game keeps of a timeout for its screen (compared frame to frame)."""
        from device.sessions.dice import DiceSession
        from device.sessions.kalooki import KalookiSession
        from device.sessions.zatre import ZatreSession

        if isinstance(session, DiceSession):
            return TimeoutMarks(box=session.timeout_entry, on_roll=session.choose_best_on_roll)
        if isinstance(session, ZatreSession):
            return TimeoutMarks(lay=session.timeout_entry)
        if isinstance(session, KalookiSession):
            return TimeoutMarks(timed_out=session.timed_out)
        return TimeoutMarks()

    def _new_timeouts(self, session: GameSession) -> dict[str, tuple[str, Params]]:
        """The timeouts the session took since the last frame, by game: dice (a box entered), a roll
        still to come, Zatre (the best cards laid), Kalooki (the time is up)."""
        marks, old = self._timeout_marks(session), self._marks
        self._marks = marks
        out: dict[str, tuple[str, Params]] = {}
        box = marks.box
        if box is not None and box is not old.box:
            params = {
                "name": session.players[box.seat].name,
                "game": session.spec.name,
                "box": box.box,
                "points": box.points,
            }
            out["dice"] = ("timeout_box", params)
        lay = marks.lay
        if lay is not None and lay is not old.lay:
            out["zatre"] = ("timeout_lay", {"name": session.players[lay.seat].name, "points": lay.points})
        if marks.on_roll and not old.on_roll and session.current_seat is not None:
            out["roll"] = ("timeout_roll", {"name": session.players[session.current_seat].name})
        timed_out = marks.timed_out
        if timed_out is not None and timed_out != old.timed_out:
            out["kalooki"] = ("timeout", {"name": session.players[timed_out[0]].name})
        return out

    # --- results -------------------------------------------------------------------------------------

    def _game_over(self, session: GameSession) -> None:
        outcome = session.state.outcome
        if outcome is None or not outcome.winners:
            return
        names = [session.players[s].name for s in outcome.winners]
        self._say("game_over", names=names, points=outcome.scores[outcome.winners[0]])

    def _hand_over(self, session: GameSession) -> None:
        from rules.rummikub import RummikubState

        state = session.state
        hands = state.hand_scores if isinstance(state, RummikubState) else ()
        if not hands:
            return
        last = hands[-1]
        best = max(last)
        names = [session.players[s].name for s, points in enumerate(last) if points == best]
        self._say("hand_over", names=names, points=best)
