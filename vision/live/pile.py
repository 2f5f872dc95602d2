"""The face-down draw pile, counted in backs per frame: a draw is a card shown after the pile shrank.

>>> pile = DrawPile()
>>> for backs in (12, 12, 12): pile.see(backs)
>>> pile.action("S"), pile.size()
('discard', 12)
>>> for backs in (11, 11, 11, 11, 11, 11, 11, 11, 11, 11): pile.see(backs)
>>> pile.action("E"), pile.action(None)
('draw', None)
"""

from __future__ import annotations

from collections import deque

import numpy as np

from sisepai.engine.cards import SEATS


class DrawPile:
    """The pile's size, as the median of the last 15 frames' count of backs."""

    def __init__(self) -> None:
        self.history: deque = deque(maxlen=15)
        self.at_last_show: int | None = None

    def see(self, backs: int) -> None:
        """One frame's count of card backs."""
        self.history.append(backs)

    def size(self) -> int:
        return int(np.median(self.history)) if self.history else 0

    def action(self, seat: str | None) -> str | None:
        """``draw`` when the pile shrank since the last card shown, else ``discard``; None for a
        card of no known seat."""
        pile = self.size()
        drew = self.at_last_show is not None and pile < self.at_last_show
        self.at_last_show = pile
        return ("draw" if drew else "discard") if seat in SEATS else None
