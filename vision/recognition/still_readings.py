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


def same_look(before: np.ndarray, now: np.ndarray, max_change: float = STEADY_CHANGE) -> bool:
    """Whether a card's look (:func:`card_signature`) is the same as before, but for the light:
    ``before`` brightened or dimmed as a whole to ``now``'s level, no colour of it moved by more
    than ``max_change``. A lamp switched or a drifting light leaves a card's look; another card
    laid there, or a hand over it, does not.

    >>> card = np.full((8, 8, 3), 200, np.float32); card[2:6, 3:5] = 40
    >>> other = np.full((8, 8, 3), 200, np.float32); other[1:3, 1:7] = 40  # another character
    >>> same_look(card, card * 0.85), same_look(card, other * 0.85)
    (True, False)
    """
    gain = float(np.clip(now.mean() / max(float(before.mean()), 1.0), 0.5, 2.0))
    return float(np.abs(before * gain - now).max()) <= max_change


VIEW_MIN_CARDS = 4
"""A camera's move is told from at least this many cards seen before and now."""
VIEW_REACH = 24.0
"""A bumped camera moves a card at most this many pixels (a shift and a small turn)."""


def view_move(before: Sequence[np.ndarray], now: Sequence[np.ndarray], tolerance: float = 3.0) -> np.ndarray | None:
    """How the camera's view moved from the card outlines ``before`` to those ``now``: a turn, a
    shift and a scale (a 2x3 matrix) that brings at least half of the cards before, and at least
    :data:`VIEW_MIN_CARDS`, within ``tolerance`` pixels of a card now; None if none does.

    >>> cards = [np.float32([[x, y], [x + 20, y], [x + 20, y + 80], [x, y + 80]]) for x, y in
    ...          [(100, 100), (300, 120), (500, 400), (900, 300), (700, 600)]]
    >>> move = view_move(cards, [c + (9, -5) for c in cards])
    >>> move.round(2).tolist()
    [[1.0, -0.0, 9.0], [0.0, 1.0, -5.0]]
    >>> view_move(cards, cards[:1]) is None
    True
    """
    if len(before) < VIEW_MIN_CARDS or len(now) < VIEW_MIN_CARDS:
        return None
    a = np.float32([p.mean(0) for p in before])
    b = np.float32([p.mean(0) for p in now])
    dist = np.linalg.norm(a[:, None] - b[None], axis=2)
    nearest = dist.argmin(axis=1)
    pairs = [(i, int(j)) for i, j in enumerate(nearest) if dist[i, j] <= VIEW_REACH]
    if len(pairs) < VIEW_MIN_CARDS:
        return None
    src, dst = a[[i for i, _ in pairs]], b[[j for _, j in pairs]]
    move, inliers = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=tolerance)
    if move is None or int(inliers.sum()) < max(VIEW_MIN_CARDS, len(before) / 2):
        return None
    return move.astype(np.float32)


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
        colours: list | None  # each end's paper colour as measured when read (None where it was not)
        look: np.ndarray | None  # the card's look when it was read

    def __init__(self, max_shift: float = 3.0, max_age: int | None = None, max_change: float = STEADY_CHANGE):
        self.max_shift = max_shift
        self.max_age = max_age
        self.max_change = max_change
        self._last: list[tuple[np.ndarray, "StillReadings.Kept"]] = []

    def lookup(self, polys: Sequence[np.ndarray],
               looks: Sequence[np.ndarray | None] | None = None) -> list["StillReadings.Kept | None"]:
        """For each card outline (and its look now), the reading kept for it, or None. When most
        cards are not where they were, the camera may have moved: the cards kept are moved as
        the view moved (:func:`view_move`) and looked up again."""
        looks = looks if looks is not None else [None] * len(polys)
        olds = [old for old, _ in self._last]
        found = self._find(olds, polys, looks, [None] * len(polys))
        if len(olds) >= VIEW_MIN_CARDS and sum(k is None for k in found) > len(found) / 2:
            move = view_move(olds, polys, self.max_shift)
            if move is not None:
                found = self._find([cv2.transform(old[None], move)[0] for old in olds], polys, looks, found)
        return found

    def _find(self, olds: list, polys: Sequence[np.ndarray], looks: Sequence, found: list) -> list:
        """``found``, each None filled with the first kept reading whose outline (from ``olds``) lies
        within ``max_shift`` of the card's and whose look is the card's (all outlines at once)."""
        if not olds or not len(polys):
            return found
        shift = np.abs(np.asarray(polys, np.float32)[:, None] - np.asarray(olds, np.float32)[None]).max(axis=(2, 3))
        out = list(found)
        for k, (near, look) in enumerate(zip(shift <= self.max_shift, looks)):
            if out[k] is not None:
                continue
            for j in np.flatnonzero(near):
                kept = self._last[j][1]
                if (self.max_age is None or kept.age < self.max_age) and \
                        (look is None or kept.look is None or same_look(kept.look, look, self.max_change)):
                    out[k] = kept
                    break
        return out

    def remember(self, polys: Sequence[np.ndarray], probs: Sequence[np.ndarray], ages: Sequence[int],
                 colours: Sequence[list | None] | None = None, looks: Sequence[np.ndarray | None] | None = None) -> None:
        """This frame's cards, their two end readings, how many frames each reading is old, and
        (optionally) the two ends' paper colours and each card's look when it was read."""
        n = len(polys)
        colours = colours if colours is not None else [None] * n
        looks = looks if looks is not None else [None] * n
        self._last = [(p, self.Kept(*kept)) for p, *kept in zip(polys, probs, ages, colours, looks)]
