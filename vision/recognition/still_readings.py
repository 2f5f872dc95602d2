"""Video only: the readings of still cards, kept while each card's look stays the same, so the
cost of reading follows what changes on the table, not the table.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import cv2
import numpy as np

from sisepai.vision.recognition.geometry import straighten


def card_signature(rgb: np.ndarray, outline: np.ndarray) -> np.ndarray:
    """A card's look in brief: its straightened face averaged down to 8 x 8 colours (float32),
    so that a camera's noise averages out and another card, or a hand, does not.

    >>> img = np.full((100, 100, 3), 200, np.uint8); img[40:60, 45:55] = 30
    >>> card = np.float32([[40, 20], [60, 20], [60, 80], [40, 80]])
    >>> sig = card_signature(img, card)
    >>> sig.shape, float(np.abs(sig - card_signature(img, card)).max())
    ((8, 8, 3), 0.0)
    """
    face = straighten(rgb, outline, 32, margin=0.0).astype(np.float32)
    return cv2.resize(face, (8, 8), interpolation=cv2.INTER_AREA)


STEADY_CHANGE = 14.0
"""A card's look (:func:`card_signature`) has changed when some colour of it moved by more than
this many levels since it was read."""


class StillReadings:
    """Video only: the readings of cards that have not changed, kept while they stay so.

    A camera over a table sees the same still cards frame after frame, so the cost of reading
    should follow what changes, not the table. A card whose four corners each lie within
    ``max_shift`` pixels of a card read before, and whose look (:func:`card_signature`) is within
    :data:`STEADY_CHANGE` of its look when it was read, keeps that reading. A card laid on
    another, a hand over it or new light is read afresh. ``max_age`` (frames) bounds how long a
    reading is kept (None: while the card is steady). Only for consecutive frames of one video:
    pictures that are not frames of one scene must not share readings.

    >>> cache = StillReadings(max_shift=2.0)
    >>> card, look = np.float32([[0, 0], [10, 0], [10, 60], [0, 60]]), np.zeros((8, 8, 3), np.float32)
    >>> ends = np.ones((2, 30), np.float32)
    >>> cache.lookup([card], [look]) == [None]
    True
    >>> cache.remember([card], [ends], [0], looks=[look])
    >>> cache.lookup([card + 1.5], [look])[0].probs is ends, cache.lookup([card + 5], [look])[0] is None
    (True, True)
    >>> cache.lookup([card], [look + 40])[0] is None  # another card laid there, or a hand over it
    True
    """

    class Kept(NamedTuple):
        probs: np.ndarray  # the two end readings
        age: int  # frames since they were read
        colours: list | None  # the two ends' paper colours, when measured
        look: np.ndarray | None  # the card's look when it was read

    def __init__(self, max_shift: float = 3.0, max_age: int | None = None, max_change: float = STEADY_CHANGE):
        self.max_shift = max_shift
        self.max_age = max_age
        self.max_change = max_change
        self._last: list[tuple[np.ndarray, "StillReadings.Kept"]] = []

    def lookup(self, polys: Sequence[np.ndarray],
               looks: Sequence[np.ndarray | None] | None = None) -> list["StillReadings.Kept | None"]:
        """For each card outline (and its look now), the reading kept for it, or None."""
        looks = looks if looks is not None else [None] * len(polys)
        return [next((kept for old, kept in self._last
                      if (self.max_age is None or kept.age < self.max_age)
                      and float(np.abs(old - poly).max()) <= self.max_shift
                      and (look is None or kept.look is None
                           or float(np.abs(kept.look - look).max()) <= self.max_change)), None)
                for poly, look in zip(polys, looks)]

    def remember(self, polys: Sequence[np.ndarray], probs: Sequence[np.ndarray], ages: Sequence[int],
                 colours: Sequence[list | None] | None = None, looks: Sequence[np.ndarray | None] | None = None) -> None:
        """This frame's cards, their two end readings, how many frames each reading is old, and
        (optionally) the two ends' paper colours and each card's look when it was read."""
        n = len(polys)
        colours = colours if colours is not None else [None] * n
        looks = looks if looks is not None else [None] * n
        self._last = [(p, self.Kept(*kept)) for p, *kept in zip(polys, probs, ages, colours, looks)]
