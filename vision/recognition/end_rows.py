"""The rows of one picture's reading: every end the reader reads, and what each row belongs to.

The reader reads straightened ends, a row each. A picture's whole cards come first, each read at
both ends; then each detected end outside every whole card (a card in a fan) is a row of its own;
a detected end inside a card adds a row later when the card's two ends leave it unsure.
:class:`EndRows` keeps that bookkeeping, so each step of a reading asks for a card's rows or an
end's row and never counts them itself.

>>> import numpy as np
>>> box = lambda x, y, w, h: np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
>>> rows = EndRows([box(0, 0, 60, 10)], [box(2, 0, 10, 10), box(100, 0, 12, 10)], owner=[0, -1])
>>> crop = np.zeros((48, 48, 3), np.uint8)
>>> rows.add_card(0, [crop, crop], [box(0, 0, 12, 10), box(48, 0, 12, 10)])
>>> rows.add_end(1, crop), rows.card_rows(0), rows.lone_ends()
(2, [0, 1], [1])
>>> rows.add_end(0, crop), rows.views_of(0)  # an end inside card 0, read too: a third view of it
(3, [0, 1, 3])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np


@dataclass
class EndRows:
    """One picture's reading rows. ``card_polys``: the whole cards' outlines, upright;
    ``end_polys``: the detected ends'; ``owner``: the card each detected end lies in, or -1.
    Rows are added card by card (:meth:`add_card`, both ends) before any detected end
    (:meth:`add_end`); ``crops[row]`` is ``None`` where a still card's reading is reused, and
    ``quads[row]`` the outline the row comes from. ``probs`` holds the reader's belief for each
    row once read, ``colours`` each row's paper colour once measured."""

    card_polys: list[np.ndarray]
    end_polys: list[np.ndarray]
    owner: list[int]
    crops: list[np.ndarray | None] = field(default_factory=list)
    quads: list[np.ndarray] = field(default_factory=list)
    probs: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    colours: list[np.ndarray | None] = field(default_factory=list)
    end_row: list[int] = field(default_factory=list)  # each detected end's row, -1 while not read on its own

    def __post_init__(self) -> None:
        if not self.end_row:
            self.end_row = [-1] * len(self.end_polys)

    @property
    def card_count(self) -> int:
        return len(self.card_polys)

    def add_card(self, k: int, crops: Sequence[np.ndarray | None], quads: Sequence[np.ndarray]) -> None:
        """Card ``k``'s two end rows (cards are added in order, before any detected end)."""
        if len(self.crops) != 2 * k or len(crops) != 2:
            raise ValueError(f"card {k}'s two ends come after the {k} cards before it, before any end")
        self.crops.extend(crops)
        self.quads.extend(quads)

    def add_end(self, j: int, crop: np.ndarray) -> int:
        """A row for detected end ``j``, read on its own; its row number."""
        row = len(self.crops)
        self.end_row[j] = row
        self.crops.append(crop)
        self.quads.append(self.end_polys[j])
        return row

    def card_rows(self, k: int) -> list[int]:
        """Card ``k``'s two end rows."""
        return [2 * k, 2 * k + 1]

    def card_probs(self, k: int) -> np.ndarray:
        """Card ``k``'s two end readings, a ``(2, classes)`` view of :attr:`probs`."""
        return self.probs[2 * k:2 * k + 2]

    def card_colours(self, k: int) -> list[np.ndarray | None]:
        """Card ``k``'s two ends' paper colours (``None`` where not measured)."""
        return self.colours[2 * k:2 * k + 2]

    def set_card_colours(self, k: int, colours: Sequence[np.ndarray | None]) -> None:
        self.colours[2 * k:2 * k + 2] = colours

    def rows_after_cards(self) -> range:
        """Every row after the whole cards' ends."""
        return range(2 * self.card_count, len(self.crops))

    def fresh_rows(self) -> list[int]:
        """The rows with a crop to read (not a still card's reused reading)."""
        return [row for row, crop in enumerate(self.crops) if crop is not None]

    def ends_in(self, cards: set[int]) -> list[int]:
        """The detected ends that lie in any of ``cards``."""
        return [j for j, o in enumerate(self.owner) if o in cards]

    def lone_ends(self) -> list[int]:
        """The detected ends outside every whole card."""
        return [j for j, o in enumerate(self.owner) if o < 0]

    def views_of(self, k: int) -> list[int]:
        """Every row that reads card ``k``: its two ends, then each detected end inside it that
        was read."""
        return self.card_rows(k) + [self.end_row[j] for j, o in enumerate(self.owner) if o == k and self.end_row[j] >= 0]

    def end_probs(self, j: int) -> np.ndarray:
        """Detected end ``j``'s reading (it must have a row)."""
        return self.probs[self.end_row[j]]
