"""A Rummikub solo puzzle at the table (``rules.rummikub.puzzle``), through the camera.

The screen shows the position the device dealt: the table to lay out and the rack. The player lays
the table out with a real set, works out his move with the rack's tiles, takes the rack tiles he
does not use off the table, and presses his seat button (or *Check my answer*): the camera reads the
table once it is still, and the reading is the answer (``Answer``), checked as a turn and scored
against the exact optimum. A reading the camera is unsure of is never guessed: the screen asks to
straighten the tiles and press again; a refused answer (a meld that is none, a table tile missing, a
tile not of the rack) is named and he tries again. *No move* says he sees none. The end screen then
shows the score (the share of the optimum, in percent: the history and the statistics keep it) and
the best answer.

Its phases are states (``device.states``): :class:`Solving`, :class:`Checking` (the reading asked for
through the camera port on enter, awaited), :class:`Over`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal, cast, get_args

from device.events import Seen
from device.i18n import msgid
from device.session import GameSession, SessionArgs, register_session
from device.sessions.rummikub import TILE_READER
from device.states import State
from drivers.events import ButtonEvent
from rules import Action, GameState
from rules.rummikub import Meld
from rules.rummikub.puzzle import Answer, NoMove, PuzzleState
from rules.rummikub.tiles import tiles_text
from vision.tiles import TableObservation

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["Checking", "Over", "PuzzleSession", "Solving"]

PuzzlePhase = Literal["solving", "checking", "over"]


class Solving(State["PuzzleSession"]):
    """The player works out his move and lays it; his seat button asks for the reading."""

    name: ClassVar[str] = "solving"

    def handle(self, session: PuzzleSession, event: object) -> State[PuzzleSession] | None:
        if isinstance(event, ButtonEvent) and event.kind == "press":
            return Checking()
        if isinstance(event, Seen) and isinstance(event.observation, TableObservation):
            session.live = event.observation
        return None


class Checking(State["PuzzleSession"]):
    """The answer read: the reading asked for on enter; the requested reading is the answer."""

    name: ClassVar[str] = "checking"

    def enter(self, session: PuzzleSession) -> None:
        session.request_reading()

    def handle(self, session: PuzzleSession, event: object) -> State[PuzzleSession] | None:
        if not isinstance(event, Seen) or not isinstance(event.observation, TableObservation):
            return None
        obs = session.live = event.observation
        if event.kind != "requested":
            return None
        if obs.uncertain:
            session.refuse("answer_unclear", "a tile is not clear: lay it straight and press again")
            return Solving()
        if not session.submit(Answer(tuple(Meld(tuple(m)) for m in obs.table()))):
            return Solving()
        return None  # answered: over (acted)


class Over(State["PuzzleSession"]):
    name: ClassVar[str] = "over"


@register_session
class PuzzleSession(GameSession):
    game = "rummikub_puzzle"
    table_screen = "rummikub_puzzle"
    reader = TILE_READER
    own_rule_texts = frozenset(
        {"answer_unclear", "invalid_meld", "no_tile_played", "not_on_rack", "tile_removed"}
    )

    def __init__(self, **kwargs: Unpack[SessionArgs]) -> None:
        super().__init__(**kwargs)
        self.live: TableObservation | None = None

    def initial_stage(self) -> State[PuzzleSession]:
        return Over() if self.finished else Solving()

    def acted(self, act: Action) -> None:
        assert self.machine is not None
        self.machine.go(self.initial_stage(), cause=type(act).__name__)

    @property
    def puzzle(self) -> PuzzleState:
        state = self.state
        assert isinstance(state, PuzzleState)
        return state

    @property
    def phase(self) -> PuzzlePhase:
        phase = super().phase
        assert phase in get_args(PuzzlePhase)
        return cast(PuzzlePhase, phase)

    @property
    def awaiting(self) -> bool:
        """Whether the answer's reading is awaited (:class:`Checking`)."""
        return isinstance(self.stage, Checking)

    def check_answer(self) -> None:
        """The seat button or *Check my answer*: the camera reads the table once it is still."""
        if isinstance(self.stage, Solving) and self.machine is not None:
            self.machine.go(Checking(), cause="check_answer")

    def no_move(self) -> None:
        if isinstance(self.stage, Solving):
            self.submit(NoMove())

    def end_notes(self) -> list[tuple[str, dict[str, object]]]:
        """The end screen's line: the tiles laid against the optimum (*Best answer* shows the move)."""
        puzzle = self.puzzle
        return [(msgid("Laid {n}, the best lays {best}"), {"n": puzzle.laid, "best": puzzle.optimum})]

    def end_button(self) -> tuple[str, str] | None:
        """The puzzle's best answer, as tiles."""
        return (msgid("Best answer"), "rummikub_puzzle_answer")

    @classmethod
    def exported(cls, state: GameState) -> dict[str, object]:
        """The puzzle in the export: the position, the optimum, the answer."""
        if not isinstance(state, PuzzleState):
            return {}
        return {
            "puzzle": {
                "difficulty": state.difficulty,
                "table": [str(m) for m in state.table],
                "rack": tiles_text(state.rack),
                "optimum": state.optimum,
                "best": tiles_text(state.advice.placed),
                "best_table": [str(m) for m in state.advice.table_after],
                "laid": state.laid,
                "answer": [str(m) for m in state.answer or ()],
            }
        }
