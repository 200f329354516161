"""Export of the finished games: CSV (one row per player per game, for a spreadsheet) and JSON (every
game with its options, players, scores and actions, enough to replay it, and the readings the players
corrected), and every corrected reading as CSV (``to_corrections_csv``: the misreads, to count and
learn from).

A game's session may add to its games (``GameSession.exported``, from the replayed final state):
Kalooki played for a prize pool adds each deal's penalties and payouts and each player's winnings
(``payouts``, in cents), which the CSV has in its ``payout_cents`` column (empty for other games).

>>> import tempfile, pathlib
>>> from device.journal import Journal
>>> j = Journal.open(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite3", wall=lambda: 0.0)
>>> gid = j.start_game("yahtzee", {"players": 2}, ["Ala", "Ola"])
>>> j.finish(gid, (120, 150), (2, 1))
>>> print(to_csv(j).splitlines()[1])
1,yahtzee,1970-01-01T00:00:00+00:00,1970-01-01T00:00:00+00:00,1,Ala,120,2,,Generał (classic)
"""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

import rules
from device import sessions  # noqa: F401 - registers every game's session
from device.journal import Journal, StoredCorrection, StoredGame
from device.session import SESSIONS

__all__ = ["CORRECTION_COLUMNS", "CSV_COLUMNS", "exported", "to_corrections_csv", "to_csv", "to_json"]

CSV_COLUMNS = (
    "game_id",
    "game",
    "started",
    "finished",
    "seat",
    "player",
    "score",
    "place",
    "payout_cents",
    "title",
)


def title(game: StoredGame) -> str:
    """The game's name as the screens show it in English (``Triple Generał``; ``GameSpec.title``)."""
    try:
        spec = rules.get_game(game.game)
    except KeyError:
        return game.game
    variant = game.options.get("variant")
    return spec.title("en", variant if isinstance(variant, str) else None)


CORRECTION_COLUMNS = (
    "game_id",
    "game",
    "seq",
    "kind",
    "item",
    "read",
    "entered",
    "confidence",
    "sure",
    "misread",
)


def _iso(t: float | None) -> str:
    return "" if t is None else datetime.fromtimestamp(t, UTC).isoformat()


def exported(journal: Journal, game: StoredGame) -> dict[str, object]:
    """What the game's session adds to a finished game (``GameSession.exported``, from the game
    replayed); a game that no longer replays (an older rule version) adds nothing."""
    session = SESSIONS.get(game.game)
    if session is None:
        return {}
    try:
        options = session.stored_options(game)
        history = [rules.action_from_json(a.action) for a in journal.actions(game.id)]
        state = rules.replay(options, history)
    except (ValueError, rules.IllegalAction):
        return {}
    return {**session.exported(state), **session.reviewed(options, history, list(game.players))}


def to_csv(journal: Journal) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for g in journal.games(finished_only=True):
        scores = g.scores or ()
        places = g.places or ()
        added = exported(journal, g).get("payouts")
        payouts = added if isinstance(added, list | tuple) else ()  # Kalooki's: cents per seat
        for seat, (name, score, place) in enumerate(zip(g.players, scores, places, strict=False)):
            paid = payouts[seat] if seat < len(payouts) else ""
            row = [
                g.id,
                g.game,
                _iso(g.started),
                _iso(g.finished),
                seat + 1,
                name,
                score,
                place,
                paid,
                title(g),
            ]
            writer.writerow(row)
    return out.getvalue()


# Seats are numbered as a person reads them, from 1 (the screens, the CSV's seat, a game's ``seats``
# and a Kalooki deal's ``winner`` here); lists in seat order (players, scores, places, payouts) are
# plain JSON arrays, and ``actions`` are the rules' own records, replayable as they are, in which a
# player is his position in ``players`` (from 0). docs/export.md says the same.
SEATS_NOTE = (
    "seat numbers count from 1 (seats, winner), as on the screens and in the CSV; inside actions (the "
    "rules' replayable records) a player is his position in players, from 0"
)


def to_json(journal: Journal) -> str:
    games: list[dict[str, object]] = []
    for g in journal.games(finished_only=True):
        scores, places = g.scores or (), g.places or ()
        games.append(
            {
                "id": g.id,
                "game": g.game,
                "title": title(g),
                "options": g.options,
                "players": list(g.players),
                "seats": [
                    {"seat": i + 1, "player": name, "score": score, "place": place}
                    for i, (name, score, place) in enumerate(zip(g.players, scores, places, strict=False))
                ],
                "started": _iso(g.started),
                "finished": _iso(g.finished),
                "scores": list(g.scores or ()),
                "places": list(g.places or ()),
                "actions": [a.action for a in journal.actions(g.id)],
                "corrections": [_correction(c) for c in journal.corrections(g.id)],
                **exported(journal, g),
            }
        )
    return json.dumps({"about": SEATS_NOTE, "games": games}, ensure_ascii=False, indent=1)


def _correction(stored: StoredCorrection) -> dict[str, object]:
    fix = stored.fix
    return {
        "seq": stored.seq,
        "kind": fix.kind,
        "item": fix.item,
        "read": fix.read,
        "entered": fix.entered,
        "confidence": fix.confidence,
        "sure": fix.sure,
    }


def to_corrections_csv(journal: Journal) -> str:
    """Every reading the players corrected, of every game (finished or not), one row per item: what
    the reader read (empty: nothing), what they entered, the reader's confidence, whether it was sure,
    and whether it was a misread (``read != entered``; an unsure reading confirmed is none). Counting
    the rows with ``sure`` and ``misread`` both 1 counts the confident misreads.

    >>> import tempfile, pathlib
    >>> from device.journal import ReadingFix
    >>> j = Journal.open(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite3", wall=lambda: 0.0)
    >>> gid = j.start_game("rummikub", {"players": 2}, ["Ala", "Ola"])
    >>> j.append(gid, 1, {"kind": "demo"}, corrections=[ReadingFix(3, "tile", "R6", "R9", 0.97, True)])
    >>> print(to_corrections_csv(j).splitlines()[1])
    1,rummikub,1,tile,3,R6,R9,0.97,1,1
    """
    games = {g.id: g.game for g in journal.games()}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CORRECTION_COLUMNS)
    for c in journal.corrections():
        fix = c.fix
        confidence = "" if fix.confidence is None else fix.confidence
        row = [c.game_id, games.get(c.game_id, ""), c.seq, fix.kind, fix.item, fix.read, fix.entered]
        writer.writerow([*row, confidence, int(fix.sure), int(fix.misread)])
    return out.getvalue()
