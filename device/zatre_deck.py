"""Zatre's deck manifest on disk: the 50 cards of a physical deck, counted, as a small JSON file.

The rules never read a file (``rules.zatre.deck`` validates a deck given as a value); this module reads
and writes the manifest and hands the rules its counts. The format, one card per line so that an error
can name its line::

    {
      "name": "counted on the device",
      "cards": {
        "0|1": 1,
        "1|1": 2,
        ...
      }
    }

``cards`` maps each card (either way round: ``4|3`` is ``3|4``) to how many the deck holds, every
count a whole number ≥ 1, exactly 50 cards in all, every half 0–6 (RULES.md §5). A file that breaks
any of that raises :class:`ManifestError` naming the file, the line and what is wrong.

Which deck a new game of Zatre is dealt from (:func:`deck_choice`): the deck the owner counted on the
device (Settings → Zatre → *Count the deck…*: the owner's setting :data:`SETTING`, the path of the file
:func:`write_manifest` wrote), else the config's ``[games.zatre] deck_manifest``, else the assumed
distribution (``rules.zatre.deck.DEFAULT_COUNTS``). The owner's setting overrides the config key as
every setting on the screen does: the config file itself is never rewritten.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from rules.zatre import DECK_SIZE, Card, DeckError, deck_counts
from rules.zatre.deck import check_deck

__all__ = [
    "MANIFEST_NAME",
    "SETTING",
    "TABLE_KEYS",
    "DeckChoice",
    "Manifest",
    "ManifestError",
    "TableKey",
    "deck_choice",
    "deck_from_manifest",
    "manifest_text",
    "parse_manifest",
    "read_manifest",
    "write_manifest",
]

log = logging.getLogger(__name__)

MANIFEST_NAME = "zatre-deck.json"  # in the state directory: the deck counted on the device
PREVIOUS_SUFFIX = ".previous"  # the manifest a new count replaced, kept beside it
SETTING = "zatre_deck_manifest"  # the owner's setting (journal): the path of the counted deck


class ManifestError(DeckError):
    """A manifest file that cannot be used: the message names the file, the line and the problem."""


@dataclass(frozen=True)
class Manifest:
    """A deck read from (or written to) a manifest: its name, how many of each card (``key`` form),
    and the file."""

    counts: Counter[Card]
    name: str = ""
    path: str = ""

    def cards(self) -> tuple[Card, ...]:
        """The deck, sorted (``rules.zatre.check_deck``)."""
        return check_deck(self.counts.elements())

    def texts(self) -> tuple[str, ...]:
        """The cards as the option ``ZatreOptions.deck`` takes them."""
        return tuple(str(card) for card in self.cards())


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, max(0, at)) + 1


def parse_manifest(text: str, source: str = "manifest") -> Manifest:
    """The manifest in ``text``; :class:`ManifestError` names ``source``, the line and the problem.

    >>> m = parse_manifest('{"name": "mine", "cards": {"3|4": 49, "6|0": 1}}')
    >>> m.counts[Card(0, 6)], len(m.cards())
    (1, 50)
    >>> parse_manifest('{"cards": {\\n  "3|4": 48,\\n  "2|2": 1,\\n  "1|9": 1\\n}}', "d")
    Traceback (most recent call last):
    ...
    device.zatre_deck.ManifestError: deck manifest 'd' line 4: not a Zatre card: '1|9' (halves must be 0–6)
    """
    where = f"deck manifest {source!r}"

    def cards_line(key: str | None = None) -> int:
        start = text.find('"cards"')
        if key is None:
            return _line(text, start)
        return _line(text, text.find(json.dumps(key), max(0, start)))

    def no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:  # Any: json.loads's values
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                last = text.rfind(json.dumps(key))
                raise ManifestError(f"{where} line {_line(text, last)}: {key!r} listed more than once")
            seen.add(key)
        return dict(pairs)

    try:
        data = json.loads(text, object_pairs_hook=no_repeats)
    except json.JSONDecodeError as exc:
        raise ManifestError(
            f"{where} line {exc.lineno}: not valid JSON ({exc.msg}, column {exc.colno})"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("cards"), dict):
        raise ManifestError(f"{where} line 1: expected an object with a 'cards' object of counts per card")
    name = data.get("name", "")
    if not isinstance(name, str):
        name_at = _line(text, text.find('"name"'))
        raise ManifestError(f"{where} line {name_at}: 'name' must be a text")
    counts: Counter[Card] = Counter()
    written: dict[Card, str] = {}
    for key, count in data["cards"].items():
        at = f"{where} line {cards_line(key)}"
        try:
            card = Card.parse(key).key
        except ValueError as exc:
            raise ManifestError(f"{at}: {exc}") from None
        if card in written:
            raise ManifestError(
                f"{at}: {key!r} and {written[card]!r} are the same card; list it once with its count"
            )
        written[card] = key
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= DECK_SIZE:
            raise ManifestError(
                f"{at}: the count of {key!r} must be a whole number 1–{DECK_SIZE}, not {count!r}"
            )
        counts[card] = count
    total = sum(counts.values())
    if total != DECK_SIZE:
        raise ManifestError(
            f"{where} line {cards_line()}: 'cards' adds up to {total} cards; "
            f"a Zatre deck has exactly {DECK_SIZE}"
        )
    return Manifest(counts, name, source)


def read_manifest(path: str | os.PathLike[str]) -> Manifest:
    """The manifest in the file at ``path``; :class:`ManifestError` when it cannot be read or used."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ManifestError(f"deck manifest {str(path)!r}: cannot read it ({reason})") from None
    manifest = parse_manifest(text, str(path))
    return Manifest(manifest.counts, manifest.name, str(path))


def manifest_text(counts: Mapping[Card, int], name: str) -> str:
    """The JSON text of a manifest, one card per line (lowest first), ending in a newline.

    >>> print(manifest_text(Counter({Card(4, 3): 2, Card(0, 6): 1}), "two"), end="")
    {
      "name": "two",
      "cards": {
        "0|6": 1,
        "3|4": 2
      }
    }
    """
    merged: Counter[Card] = Counter()
    for card, count in counts.items():
        merged[card.key] += count
    cards = {str(card): merged[card] for card in sorted(merged) if merged[card] > 0}
    return json.dumps({"name": name, "cards": cards}, indent=2, ensure_ascii=False) + "\n"


def write_manifest(path: str | os.PathLike[str], counts: Mapping[Card, int], name: str) -> Manifest:
    """Write the deck of ``counts`` to ``path``, whole or not at all: checked first (exactly 50 valid
    cards, else :class:`ManifestError` and nothing written), then written to a temporary file in the
    same folder, flushed to the disk and renamed over ``path``. A file already at ``path`` is kept as
    ``<path>.previous`` (one earlier count is never lost by a new one)."""
    target = Path(path)
    try:
        cards = check_deck(card for card, n in counts.items() for _ in range(max(0, n)))
    except DeckError as exc:
        raise ManifestError(f"deck manifest {str(target)!r}: not written: {exc}") from None
    text = manifest_text(counts, name)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".new", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if target.exists():
            previous = target.with_name(target.name + PREVIOUS_SUFFIX)
            with contextlib.suppress(OSError):
                previous.unlink()
            os.link(target, previous)
        os.replace(temporary, target)
        _fsync_dir(target.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return Manifest(deck_counts(cards), name, str(target))


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


DeckSource = Literal["counted", "config", "assumed"]


@dataclass(frozen=True)
class DeckChoice:
    """The deck a new game of Zatre is dealt from, where it came from, and why a counted deck is not
    used when it cannot be (``problem``: its error, the next deck in line used instead)."""

    source: DeckSource
    cards: tuple[str, ...]  # ZatreOptions.deck: empty for the assumed deck
    path: str = ""
    problem: str = ""

    @property
    def words(self) -> str:
        """The deck in a few words for the screen and the log."""
        if self.source == "assumed":
            return "the assumed deck (not counted)"
        return f"the deck counted in {Path(self.path).name}"


# A key of a game's config table besides its rule options, and how it is read into the table at load:
# the table in, the table read out; ValueError: why the value cannot be used (``device.config``).
TableKey = Callable[[Mapping[str, object]], dict[str, object]]


def deck_from_manifest(table: Mapping[str, object]) -> dict[str, object]:
    """Zatre's config key ``[games.zatre] deck_manifest`` (the path of a deck manifest counted from a
    physical deck) read into the option ``deck`` once, at load: a journal keeps the 50 cards a game
    was dealt from, whatever later happens to the file. The path stays in the table (a key of the
    table, not a rule option) so that the device can say which deck it deals."""
    if "deck" in table:
        raise ValueError("give the deck as deck or as deck_manifest, not both")
    path = table["deck_manifest"]
    if not isinstance(path, str) or not path:
        raise ValueError(f"{path!r} is not the path of a manifest file")
    return {**table, "deck": list(read_manifest(path).texts())}


TABLE_KEYS: Mapping[str, TableKey] = {"deck_manifest": deck_from_manifest}


def deck_choice(owner_path: str, config_table: Mapping[str, object]) -> DeckChoice:
    """The deck of a new game: the owner's counted manifest (``owner_path``, read now; a file that
    cannot be used is named in ``problem`` and the next in line is used), else the config's
    ``deck_manifest`` (already read into ``deck`` by the config), else the assumed deck."""
    problem = ""
    if owner_path:
        try:
            manifest = read_manifest(owner_path)
            return DeckChoice("counted", manifest.texts(), owner_path)
        except ManifestError as exc:
            problem = str(exc)
            log.error("Zatre: the counted deck is not used: %s", exc)
    configured = config_table.get("deck")
    if isinstance(configured, list | tuple) and configured:  # the config read the manifest into it
        path = str(config_table.get("deck_manifest", ""))
        return DeckChoice("config", tuple(str(c) for c in configured), path, problem)
    return DeckChoice("assumed", (), "", problem)
