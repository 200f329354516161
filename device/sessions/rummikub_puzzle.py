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

Phases: ``solving``, ``checking`` (the reading asked for), ``over``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from device.events import Seen
from device.i18n import msgid
from device.session import GameSession, SessionArgs, register_session
from device.sessions.rummikub import TILE_READER
from rules import GameState
from rules.rummikub import Meld
from rules.rummikub.puzzle import Answer, NoMove, PuzzleState
from rules.rummikub.tiles import tiles_text
from vision.tiles import TableObservation

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["PuzzleSession"]

PuzzlePhase = Literal["solving", "checking", "over"]


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
        self.awaiting = False
        self.live: TableObservation | None = None

    @property
    def puzzle(self) -> PuzzleState:
        state = self.state
        assert isinstance(state, PuzzleState)
        return state

    @property
    def phase(self) -> PuzzlePhase:
        if self.finished:
            return "over"
        return "checking" if self.awaiting else "solving"

    def on_press(self, seat: int) -> None:
        self.check_answer()

    def check_answer(self) -> None:
        """The seat button or *Check my answer*: the camera reads the table once it is still."""
        if self.phase == "solving":
            self.awaiting = True
            self.request_reading()

    def no_move(self) -> None:
        if self.phase == "solving":
            self.submit(NoMove())

    def on_reading(self, seen: Seen) -> None:
        obs = seen.observation
        if not isinstance(obs, TableObservation):
            return
        self.live = obs
        if seen.kind != "requested" or not self.awaiting:
            return
        self.awaiting = False
        if obs.uncertain:
            self.refuse("answer_unclear", "a tile is not clear: lay it straight and press again")
            return
        self.submit(Answer(tuple(Meld(tuple(m)) for m in obs.table())))

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
