"""The plain-text picture of a session: the table, the hands (or their counts), the results."""

from __future__ import annotations

from rules.kalooki.cards import cards_text
from rules.kalooki.deal import Deal
from rules.kalooki.session import Session
from rules.outcome import seat_label

__all__ = ["describe"]


def _cents(amount: int) -> str:
    return f"{amount // 100}.{amount % 100:02d}"


def _deal_lines(deal: Deal) -> list[str]:
    top = deal.discard_top
    lines = [
        f"Table of deal {deal.number + 1}: stock {deal.stock_count} cards, discard top {top or '-'}, "
        f"reshuffles {deal.reshuffles}"
    ]
    for index, (meld, owner) in enumerate(zip(deal.table, deal.owners, strict=True)):
        closed = " (closed)" if getattr(meld, "closed", False) else ""
        lines.append(f"  meld {index} by {seat_label(owner)}: {meld}{closed}")
    for seat in range(deal.players):
        known = deal.hands is not None or (deal.revealed and deal.revealed[seat] is not None)
        declared = deal.declared[seat] if deal.declared else None
        cards = (cards_text(deal.hand(seat)) or "-") if known else "(hidden)"
        if declared is not None:
            cards = f"hidden, {declared} points entered"
        state = "has laid the initial meld" if deal.opened[seat] else "has not laid the initial meld"
        count = f"{deal.counts[seat]} card{'' if deal.counts[seat] == 1 else 's'}"
        lines.append(f"  {seat_label(seat)}: {count} in hand ({cards}), {state}")
    return lines


def describe(session: Session) -> str:
    """The last deal's table and hands, every finished deal's penalties and payouts, the totals."""
    options = session.options
    lines = [f"Kalooki, {options.players} players, seed {options.seed}, initial meld {options.initial_meld}"]
    lines += _deal_lines(session.deal)
    for number, result in enumerate(session.results, start=1):
        how = "Kalooki" if result.kalooki else result.termination.value.replace("_", " ")
        lines.append(
            f"Deal {number}: {seat_label(result.winner)} wins ({how}); penalties {list(result.penalties)}"
        )
        if options.pool_cents:
            paid = ", ".join(_cents(a) for a in result.payouts)
            lines.append(f"  pool {_cents(options.pool_cents)} ({options.payout}): {paid}")
    lines.append(f"Penalty totals: {list(session.totals)}")
    if options.pool_cents:
        lines.append(f"Winnings: {', '.join(_cents(a) for a in session.winnings)}")
    if session.outcome is not None:
        winners = ", ".join(seat_label(seat) for seat in session.outcome.winners)
        lines.append(f"Places: {list(session.outcome.places)}; winner: {winners}")
    return "\n".join(lines)
