"""A Kalooki session: several deals with running penalty totals (and prize-pool winnings).

The session is the game state the registry, the journal and the device see: its options plus its
actions rebuild it exactly. When a deal ends the next one is dealt at once (full mode) or waits for
its turned-up card (referee mode). The session ends after ``options.deals`` deals; the lowest
penalty total wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.actions import Action
from rules.errors import IllegalAction
from rules.kalooki.deal import Deal, DealResult, new_deal
from rules.kalooki.options import KalookiOptions
from rules.outcome import Outcome, Termination

__all__ = ["Session", "new_session"]


@dataclass(frozen=True)
class Session:
    """The current (or, at the end, the last) deal and the results of the finished deals."""

    options: KalookiOptions
    deal: Deal
    results: tuple[DealResult, ...] = ()

    @property
    def totals(self) -> tuple[int, ...]:
        """Running penalty totals, one per seat."""
        return tuple(sum(r.penalties[seat] for r in self.results) for seat in range(self.options.players))

    @property
    def winnings(self) -> tuple[int, ...]:
        """Prize-pool winnings in cents over the finished deals, one per seat."""
        return tuple(sum(r.payouts[seat] for r in self.results) for seat in range(self.options.players))

    @property
    def to_move(self) -> int | None:
        """The seat to act in the current deal; ``None`` between deals and once the session is over."""
        return None if self.outcome is not None else self.deal.to_move

    @property
    def outcome(self) -> Outcome | None:
        if len(self.results) < self.options.deals:
            return None
        termination = self.results[0].termination if self.options.deals == 1 else Termination.ROUNDS_PLAYED
        return Outcome.from_scores(termination, self.totals, higher_is_better=False)

    def apply(self, action: Action) -> Session:
        """The session after ``action``; ``IllegalAction`` leaves it unchanged."""
        if self.outcome is not None:
            raise IllegalAction("game_over", "the session is over")
        deal = self.deal.apply(action)
        if deal.result is None:
            return replace(self, deal=deal)
        results = (*self.results, deal.result)
        if len(results) < self.options.deals:
            deal = new_deal(self.options, len(results))
        return replace(self, deal=deal, results=results)


def new_session(options: KalookiOptions) -> Session:
    return Session(options, new_deal(options, 0))
