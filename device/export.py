"""Export of the finished games: CSV (one row per player per game, for a spreadsheet) and JSON (every
game with its options, players, scores and actions, enough to replay it).

A game's session may add to its games (``GameSession.exported``, from the replayed final state):
Kalooki played for a prize pool adds each deal's penalties and payouts and each player's winnings
(``payouts``, in cents), which the CSV has in its ``payout_cents`` column (empty for other games).

>>> import tempfile, pathlib
>>> from device.journal import Journal
>>> j = Journal.open(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite3", wall=lambda: 0.0)
>>> gid = j.start_game("yahtzee", {"players": 2}, ["Ala", "Ola"])
>>> j.finish(gid, (120, 150), (2, 1))
>>> print(to_csv(j).splitlines()[1])
1,yahtzee,1970-01-01T00:00:00+00:00,1970-01-01T00:00:00+00:00,1,Ala,120,2,
"""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

import rules
from device import sessions  # noqa: F401 - registers every game's session
from device.journal import Journal, StoredGame
from device.session import SESSIONS

__all__ = ["CSV_COLUMNS", "exported", "to_csv", "to_json"]

CSV_COLUMNS = ("game_id", "game", "started", "finished", "seat", "player", "score", "place", "payout_cents")


def _iso(t: float | None) -> str:
    return "" if t is None else datetime.fromtimestamp(t, UTC).isoformat()


def exported(journal: Journal, game: StoredGame) -> dict[str, Any]:
    """What the game's session adds to a finished game (``GameSession.exported``, from the game
    replayed); a game that no longer replays (an older rule version) adds nothing."""
    session = SESSIONS.get(game.game)
    if session is None:
        return {}
    try:
        options = session.stored_options(game)
        state = rules.replay(options, [rules.action_from_json(a.action) for a in journal.actions(game.id)])
    except (ValueError, rules.IllegalAction):
        return {}
    return session.exported(state)


def to_csv(journal: Journal) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for g in journal.games(finished_only=True):
        scores = g.scores or ()
        places = g.places or ()
        payouts = exported(journal, g).get("payouts") or ()
        for seat, (name, score, place) in enumerate(zip(g.players, scores, places, strict=False)):
            paid = payouts[seat] if seat < len(payouts) else ""
            row = [g.id, g.game, _iso(g.started), _iso(g.finished), seat + 1, name, score, place, paid]
            writer.writerow(row)
    return out.getvalue()


def to_json(journal: Journal) -> str:
    games: list[dict[str, Any]] = []
    for g in journal.games(finished_only=True):
        games.append(
            {
                "id": g.id,
                "game": g.game,
                "options": g.options,
                "players": list(g.players),
                "started": _iso(g.started),
                "finished": _iso(g.finished),
                "scores": list(g.scores or ()),
                "places": list(g.places or ()),
                "actions": [a.action for a in journal.actions(g.id)],
                **exported(journal, g),
            }
        )
    return json.dumps({"games": games}, ensure_ascii=False, indent=1)
