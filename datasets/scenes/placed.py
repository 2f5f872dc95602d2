"""A card on the table plane, and the cards a layout deals: what every layout module shares.

>>> import numpy as np
>>> Placed("GK", 0.0, 0.0, 0.0, 10.0, "table").corners(3.0).tolist()
[[-5.0, -15.0], [5.0, -15.0], [5.0, 15.0], [-5.0, 15.0]]
>>> len(deal_codes(np.random.default_rng(0), 5))
5
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sisepai.engine.cards import CARD_CODES


@dataclass
class Placed:
    """A card on the table plane."""

    code: str | None  # None: a face-down card
    cx: float
    cy: float
    angle: float  # degrees; 0 = the card's top end points up the frame
    width: float
    zone: str
    meld: int | None = None

    def corners(self, aspect: float) -> np.ndarray:
        """TL, TR, BR, BL in plane coords (TL-TR is the card's top end)."""
        w, h = self.width, self.width * aspect
        local = np.float32([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        a = np.radians(self.angle)
        rot = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        return local @ rot.T + np.float32([self.cx, self.cy])


@dataclass
class Laid:
    """What every layout returns: its cards on the table plane, the held fans the hands are drawn
    from (:class:`~.held.HeldFan`; none but for held and distant fans), and whether a heap is
    photographed close up."""

    cards: list[Placed]
    fans: list = field(default_factory=list)
    close: bool = False


def deal_codes(rng: np.random.Generator, n: int, jokers: int = 5) -> list[str]:
    """``n`` cards dealt at random from a whole deck (four of each kind and ``jokers`` jokers)."""
    deck = [c for c in CARD_CODES[:-1] for _ in range(4)] + ["J"] * jokers
    idx = rng.permutation(len(deck))[:n]
    return [deck[i] for i in idx]
