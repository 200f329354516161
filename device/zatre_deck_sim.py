"""The simulator's box of Zatre cards, for the owner's deck count (``device.screens.zatre_deck``).

While the deck count shows, the synthetic camera films the cards the simulated owner has laid on the
table (``vision.zatre_synth.render_loose_cards`` at the camera's size, loose and face up). The box holds
:data:`SIMULATED_BOX` — not the assumed deck, so that a count visibly learns the box. Keys:

- **N** — the cards on the table are taken away and the next batch of the box is laid (up to
  :data:`BATCH` cards);
- **H** — a hand over one card of the batch, or taken away again (the card cannot be read);
- **X** — a card from another box laid with the batch, or taken away again (one card too many);
- **R** — the batch taken away last is laid again (after *Undo last batch*, when the owner had
  already taken it away); the cards on the table go back into the box.

Without a camera (``--no-camera``) the box posts what lies on the table as a reading each time it
changes, as a settled camera would.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np
import pygame

from device.events import Key, Seen
from device.sessions.simulated import TableHost
from rules.zatre import Card, deck_from_counts
from vision.zatre import LooseCards, SeenCard

__all__ = ["BATCH", "DECK_SCREEN", "SIMULATED_BOX", "DeckBox"]

DECK_SCREEN = "zatre_deck"  # the owner's deck count (device/screens/zatre_deck.py)
BATCH = 12
PITCH = 0.085  # of the frame's height: a half-cell, the camera a little nearer than over a game
# The simulated physical deck: the doubles 1|1–6|6 once, the other pairs of 1–6 twice, every blank
# card 0|0–0|6 twice (6 + 30 + 14 = 50) — unlike the assumed deck, so the count shows what it learned.
SIMULATED_BOX: Mapping[str, int] = {
    **{f"{a}|{b}": 1 if a == b else 2 for a in range(1, 7) for b in range(a, 7)},
    **{f"0|{b}": 2 for b in range(7)},
}
STRANGER = Card(6, 6)  # the card of another box


class DeckBox:
    """The box and the table of the simulated owner who counts his deck."""

    def __init__(self, host: TableHost, rng: random.Random, *, camera: bool) -> None:
        self.host = host  # the appliance as a simulated table sees it
        self.camera = camera
        self.box = list(deck_from_counts(SIMULATED_BOX, "the simulated box"))
        rng.shuffle(self.box)
        self.box = [card.turned() if rng.random() < 0.5 else card for card in self.box]
        self.table: list[Card] = []  # the batch lying on the table
        self.aside: list[list[Card]] = []  # the batches taken away, in order
        self.hand = False
        self.stranger = False
        self.layout = 0  # each new scene is laid (rendered) afresh
        self._frame: tuple[object, np.ndarray] | None = None
        self._posted: object = None

    # --- the owner's hands ---------------------------------------------------------------------------

    def on_key(self, event: Key) -> bool:
        if not event.down:
            return event.key in (pygame.K_n, pygame.K_h, pygame.K_x, pygame.K_r)
        if event.key == pygame.K_n:
            self.next_batch()
        elif event.key == pygame.K_h:
            self.hand = not self.hand and bool(self.table)
        elif event.key == pygame.K_x:
            self.stranger = not self.stranger
        elif event.key == pygame.K_r:
            self.lay_again()
        else:
            return False
        self.layout += 1
        return True

    def next_batch(self) -> None:
        if self.table:
            self.aside.append(self.table)
        self.table, self.box = self.box[:BATCH], self.box[BATCH:]
        self.hand = self.stranger = False

    def lay_again(self) -> None:
        if not self.aside:
            return
        if self.table:
            self.box = self.table + self.box
        self.table = self.aside.pop()
        self.hand = self.stranger = False

    @property
    def lying(self) -> list[Card]:
        """Every card on the table, the stranger last."""
        return [*self.table, *([STRANGER] if self.stranger else [])]

    def scene_key(self) -> object:
        return (tuple(self.lying), self.hand, self.layout)

    # --- what the camera sees ------------------------------------------------------------------------

    def camera_frame(self) -> np.ndarray | None:
        cards = self.lying
        if not cards:
            return None
        key = self.scene_key()
        if self._frame is not None and self._frame[0] == key:
            return self._frame[1]
        from vision.zatre_synth import render_loose_cards

        size = self.host.camera_size  # the synthetic calibration's play area is the camera's frame
        frame, _ = render_loose_cards(
            cards,
            seed=1000 + self.layout,
            size=size,
            covered=[0] if self.hand else [],
            pitch=PITCH * size[1],
            tilt=3.0,
            blur=0.5,
        )
        self._frame = (key, frame)
        return frame

    def reading(self) -> LooseCards:
        """What lies on the table as a perfect reading (no camera): the card under the hand unsure."""
        cards = []
        for i, card in enumerate(self.lying):
            x, y = 200.0 + 260 * (i % 6), 200.0 + 200 * (i // 6)
            corners = ((x - 80, y - 40), (x + 80, y - 40), (x + 80, y + 40), (x - 80, y + 40))
            hidden = self.hand and i == 0
            values = None if hidden else (card.key.first, card.key.second)
            cards.append(
                SeenCard(values, (x, y), 160.0, corners, 0.0 if hidden else 1.0, "partly hidden" * hidden)
            )
        return LooseCards(tuple(cards), tuple(i for i, c in enumerate(cards) if not c.sure))

    def poll(self) -> None:
        """Without a camera: the table as it now lies, posted once per change."""
        if self.camera:
            return
        key = self.scene_key()
        if key != self._posted:
            self._posted = key
            self.host.post(Seen(self.reading()))
