"""A card's reading from the readings of its ends: beliefs multiplied, doubtful ends set aside,
and the end that shows another card lying over it left out.

>>> end = np.zeros(30); end[3] = 0.9; end[29] = 0.1     # an end read as GR
>>> int(np.argmax(card_reading([end, end])))
3
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from sisepai.vision.recognition.reader import NUM_CARDS

COVERED_SURE = 0.5
""":func:`covered_ends` takes an end for another card's only when both ends' readings are at least
this sure: a covered end shows half a character and reads less surely. Chosen on the tuning scenes
and videos (``docs/training-logs/recognizer-floors.md``)."""


def joint_belief(readings: Sequence[np.ndarray]) -> np.ndarray:
    """Several readings of one card combined: their card-kind beliefs multiplied, then normalised."""
    joint = np.exp(np.sum([np.log(p[:NUM_CARDS] + 1e-6) for p in readings], axis=0))
    return joint / max(joint.sum(), 1e-12)


def card_reading(readings: Sequence[np.ndarray]) -> np.ndarray:
    """One whole card's reading (29 card kinds, then 'none') from the readings of its ends: those
    that look like a card end are combined (:func:`joint_belief`). When none does (a face-down
    pile the detector took for a face-up card), the least doubtful one is kept with its doubt:
    its card-kind beliefs sum to 1 - doubt, so a deck palette cannot make a card of it.

    >>> end = np.zeros(30); end[[28, 29]] = [0.1, 0.9]  # "not a card end", a little like a joker
    >>> card_reading([end, end]).round(2)[[28, 29]].tolist()
    [0.1, 0.9]
    >>> joker = np.zeros(30); joker[[28, 29]] = [0.8, 0.2]
    >>> card_reading([end, joker]).round(2)[[28, 29]].tolist()  # one end reads: a joker
    [1.0, 0.0]
    """
    usable = [p for p in readings if p[-1] < 0.5]
    if usable:
        return np.append(joint_belief(usable), 0.0)
    best = min(readings, key=lambda p: p[-1])
    doubt = float(best[-1])
    return np.append(joint_belief([best]) * (1.0 - doubt), doubt)


def covered_ends(card_polys: Sequence[np.ndarray], quads: Sequence[np.ndarray], probs: np.ndarray,
                 sure: float = COVERED_SURE) -> set[int]:
    """The end readings of whole cards (rows ``2k`` and ``2k + 1`` of ``probs`` and ``quads`` for
    card ``k``) that show another card's character: a card's ends never show two kinds. When they
    surely disagree, and another card lies over one end (a quarter of it or more) but not the
    other, and reads as that end does, that end is the other card's (a meld laid across the blank
    ends of a row of discards). ``sure``: the least belief of each end's reading
    (:data:`COVERED_SURE`).

    >>> box = lambda x, y, w, h: np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
    >>> cards = [box(0, 0, 60, 10), box(50, -20, 10, 60)]  # a card lying across another's right end
    >>> quads = [box(0, 0, 12, 10), box(48, 0, 12, 10), box(50, -20, 10, 12), box(50, 28, 10, 12)]
    >>> probs = np.zeros((4, 30)); probs[[0, 1, 2, 3], [3, 7, 7, 29]] = 0.9  # GR | WK, and WK | blank
    >>> covered_ends(cards, quads, probs)  # the first card's right end shows the WK lying over it
    {1}
    """

    def overlap(a: np.ndarray, b: np.ndarray) -> float:
        inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
        return float(inter) / max(float(cv2.contourArea(np.float32(a))), 1e-6)

    def kind(k: int) -> int:
        return int(np.argmax(card_reading([probs[2 * k], probs[2 * k + 1]])[:NUM_CARDS]))

    out: set[int] = set()
    for k, poly in enumerate(card_polys):
        ends = (2 * k, 2 * k + 1)
        read = [int(np.argmax(probs[r][:NUM_CARDS])) for r in ends]
        if read[0] == read[1] or min(float(probs[r][c]) for r, c in zip(ends, read)) < sure:
            continue
        for j, other in enumerate(card_polys):
            if j == k or overlap(poly, other) <= 0:
                continue
            over = [overlap(quads[r], other) for r in ends]
            for e in (0, 1):
                if over[e] >= 0.25 and over[1 - e] < 0.05 and kind(j) == read[e]:
                    out.add(ends[e])
    return out


def sure_from_ends(end_probs: np.ndarray, sure: float) -> bool:
    """Whether a card's two end readings already agree on one kind with at least ``sure``.

    >>> end = np.zeros(30); end[3] = 1.0
    >>> sure_from_ends(np.stack([end, end]), 0.99), sure_from_ends(np.zeros((2, 30)) + 1 / 30, 0.99)
    (True, False)
    """
    usable = [p for p in end_probs if p[-1] < 0.5]
    return bool(usable) and float(joint_belief(usable).max()) >= sure
