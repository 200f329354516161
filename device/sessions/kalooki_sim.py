"""Kalooki's simulated table: simulated players who hold real hands and enter what they lay with the
card picker, tap by tap.

The device referees (hands are counts), so the table keeps the cards itself: a full-information shadow
of the same game (``mode="full"``, the same seed) deals and holds the hands, and the players choose
their turns on it with the engine's random legal player (``rules.kalooki.auto.random_turn``). Every
action is then entered through the Kalooki table screen — taps at the centres of the drawn targets
(``kalooki_plan.next_tap``), one per frame, the seat button for the discard — and whatever the device
recorded is played on the shadow too, so both see the same table. The turned-up card of each deal and
the losers' hands at its end come from the shadow (every other loser types just their points on the
number pad). :attr:`KalookiTable.taps` counts the screen taps of
each turn (from the draw to the discard, the seat press not counted) for ``bench/card_tables.py``.
"""

from __future__ import annotations

import logging
import random

from device.session import GameSession
from device.sessions.kalooki import KalookiSession
from device.sessions.kalooki_plan import BUTTONS, next_tap
from device.sessions.simulated import SimulatedTable, TableHost, register_table
from drivers.events import ButtonEvent
from rules import Action
from rules.kalooki import Deal, Discard, HandPoints, RevealHand, Session, TurnUp, hand_penalty, new_session
from rules.kalooki.auto import random_turn

__all__ = ["KalookiTable"]

log = logging.getLogger(__name__)


@register_table
class KalookiTable(SimulatedTable):
    games = ("kalooki",)

    def __init__(self, host: TableHost, rng: random.Random, *, camera: bool) -> None:
        super().__init__(host, rng, camera=camera)
        self.shadow: Session | None = None
        self.synced = 0  # the device's actions played on the shadow
        self.ended: Deal | None = None  # the shadow's last finished deal (its hands are revealed)
        self.plan: list[Action] = []  # the rest of this turn's actions
        self.plan_seq = -1
        self.turn_taps = 0
        self.taps: list[int] = []
        self._waiting = -1
        self._refusal: object = None  # the last refusal seen (the next one makes the player change plan)
        self._pending_check: tuple[int, int] | None = None

    @classmethod
    def autoplay_options(cls, game: str, rng: random.Random) -> dict[str, object]:
        """Autoplay plays for money: two deals with a pool, either formula."""
        return {"deals": 2, "pool_cents": 1000, "payout": rng.choice(["slice", "proportional"])}

    def _sync(self, session: KalookiSession) -> None:
        if self.shadow is None or self.synced > session.seq:
            self.shadow = new_session(session.kalooki.options.replace(mode="full"))
            self.synced = 0
        for act in session.history[self.synced :]:
            self.synced += 1
            if isinstance(act, TurnUp | RevealHand | HandPoints):
                continue  # the shadow deals and knows its hands
            after = self.shadow.deal.apply(act)
            if after.result is not None:
                self.ended = after
            self.shadow = self.shadow.apply(act)

    def wanted(self, session: KalookiSession) -> Action | None:
        """The next action of the simulated players."""
        assert self.shadow is not None
        phase = session.phase
        if phase == "turn_up":
            return TurnUp(self.shadow.deal.discards[0])
        if phase == "reveal":
            seat = session.revealing()
            assert seat is not None and self.ended is not None
            hand = self.ended.hand(seat)
            if (session.deal.number + seat) % 2 == 1:
                return HandPoints(seat, hand_penalty(hand))
            return RevealHand(seat, hand)
        if phase == "draw" and self.plan_seq != session.seq:
            self.plan = random_turn(self.shadow.deal, self.rng)
            self.turn_taps = 0
        self.plan_seq = session.seq
        return self.plan[0] if self.plan else None

    def play(self, session: GameSession) -> None:
        host = self.host
        if not isinstance(session, KalookiSession) or session.finished:
            return
        if host.screen != session.table_screen:
            host.show_game()
            return
        if host.frames <= self._waiting + 1:
            return
        before = session.seq
        self._sync(session)
        act = self.wanted(session)
        if act is None:
            return
        if session.refusal is not None and session.refusal is not self._refusal and self.plan:
            self._refusal = session.refusal
            # The device refused the shadow's plan (their tables differ): end the turn with a discard.
            assert self.shadow is not None
            log.info("simulated player: %s refused (%s); discarding", act, session.refusal.code)
            hand = self.shadow.deal.hand(self.shadow.deal.turn)
            self.plan = [Discard(self.rng.choice(hand))]
            return
        label = next_tap(session, act)
        if label == "seat":
            seat = session.current_seat
            assert seat is not None
            self.taps.append(self.turn_taps)
            host.post(ButtonEvent(seat, "press", "autoplay"))
            self._after(session, before)
            return
        if label in BUTTONS:
            label = host.text(label)
        labels = host.labels()
        if label not in labels and label.startswith("meld "):
            pager = host.text("Melds {n} of {total}", n="", total="").split()[0]
            label = next((shown for shown in labels if shown.startswith(pager)), label)
        if label not in labels:
            return  # not drawn yet
        if session.phase in ("draw", "play"):
            self.turn_taps += 1
        host.tap(label)
        self._after(session, before)

    def _after(self, session: KalookiSession, before: int) -> None:
        self._waiting = self.host.frames
        self._pending_check = (before, len(self.plan))

    def poll(self, session: GameSession) -> None:
        """After an action was entered, the turn's plan moves on."""
        if not isinstance(session, KalookiSession):
            return
        check = self._pending_check
        if (
            check is not None
            and session.seq > check[0]
            and self.plan
            and session.phase in ("draw", "play", "turn_up", "reveal", "over")
        ):
            last = session.history[-1]
            if not isinstance(last, TurnUp | RevealHand | HandPoints):
                self.plan.pop(0)
            self._pending_check = None
