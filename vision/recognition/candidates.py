"""The cards a picture may hold, before and after the floors: each outline with its reading, one
sighting of each card kept, and those sure enough reported as :class:`Detections`."""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from sisepai.vision.recognition.detections import Detections
from sisepai.vision.recognition.reader import NUM_CARDS, colour_rank_confidence

MIN_CONFIDENCE = 0.25
"""A card is reported only when its confidence (the detector's times the reading's) is at least
this: the best of 0.15 to 0.4 on the tuning scenes (``docs/training-logs/recognizer-floors.md``).
The live assistant tracks only readings of 0.4 and more anyway."""
MIN_END_CONFIDENCE = 0.4
"""The floor for a card seen only by one lone end (a card in a fan, or one whose outline the
detector missed): one reading of half-hidden ink, where a whole card has two. Chosen on the
tuning scenes with the shipped models (``docs/training-logs/recognizer-floors.md``)."""


class Candidate(NamedTuple):
    """One possible card in a picture, before the floors and duplicates are applied: its outline,
    its reading (29 card kinds, then "not a card"), the detector's confidence in the outline, and
    whether the outline is a whole ``card`` or a lone ``end``."""

    polygon: np.ndarray
    probs: np.ndarray
    det_conf: float
    kind: str

    def with_probs(self, probs: np.ndarray) -> "Candidate":
        return self._replace(probs=probs)


def drop_duplicates(cand: list, overlap: float = 0.6) -> list:
    """:class:`Candidate` readings without the second sighting of one card: the same
    card kind, overlapping by more than ``overlap`` of the smaller outline (a card found twice, or a
    card and its own end); the more confident one stays.

    >>> sq = lambda x: np.float32([[x, 0], [x + 10, 0], [x + 10, 10], [x, 10]])
    >>> p = np.eye(30)[3]
    >>> found = [Candidate(sq(0), p, 0.5, "card"), Candidate(sq(2), p, 0.9, "end"), Candidate(sq(30), p, 0.4, "card")]
    >>> [c.det_conf for c in drop_duplicates(found)]
    [0.9, 0.4]
    """

    def score(c):
        return c[2] * float(np.max(c[1][:NUM_CARDS]))  # det_conf times the reading's belief

    kept: list = []
    for c in sorted(cand, key=score, reverse=True):
        polygon, probs = c[0], c[1]
        code = int(np.argmax(probs[:NUM_CARDS]))
        a = np.float32(polygon)
        dup = False
        for k in kept:
            if int(np.argmax(k[1][:NUM_CARDS])) != code:
                continue
            b = np.float32(k[0])
            inter, _ = cv2.intersectConvexConvex(cv2.convexHull(a), cv2.convexHull(b))
            if inter > overlap * min(cv2.contourArea(a), cv2.contourArea(b)):
                dup = True
                break
        if not dup:
            kept.append(c)
    return kept


def passing(cand: list[Candidate], min_card_prob: float, min_confidence: float = MIN_CONFIDENCE,
            min_end_confidence: float = MIN_END_CONFIDENCE) -> tuple[Detections, list[int]]:
    """The candidates that pass, as :class:`Detections`: sure enough to compete (``min_card_prob``),
    not a second sighting of a surer one, and over the confidence floor (a lone end's floor is its
    own); with the indices of the doubtful ones (confidence under 0.5), which a zoomed-out look may
    read again.

    >>> sq = np.float32([[0, 0], [10, 0], [10, 40], [0, 40]])
    >>> det, unsure = passing([Candidate(sq, np.eye(30)[3], 0.9, "card"), Candidate(sq + 50, np.eye(30)[5], 0.3, "end")], 0.35)
    >>> det.codes, unsure
    (['GR'], [])
    """
    # too doubtful readings go first, so that they cannot hide a same-code reading as its duplicate
    sure = [c for c in cand if float(np.max(c.probs[:NUM_CARDS])) >= min_card_prob]
    kept: list[tuple[Candidate, int, float]] = []
    for c in drop_duplicates(sure):
        cid = int(np.argmax(c.probs[:NUM_CARDS]))
        confidence = c.det_conf * float(c.probs[cid])
        if confidence >= (min_end_confidence if c.kind == "end" else min_confidence):
            kept.append((c, cid, confidence))
    if not kept:
        return Detections.empty(), []
    colour, rank = zip(*(colour_rank_confidence(c.probs, cid) for c, cid, _ in kept))
    det = Detections(np.stack([c.polygon for c, _, _ in kept]), np.array([conf for _, _, conf in kept]),
                     np.array([cid for _, cid, _ in kept]), np.array(colour), np.array(rank),
                     np.array([c.kind for c, _, _ in kept], dtype=object),
                     np.stack([c.probs[:NUM_CARDS] for c, _, _ in kept]),
                     np.array([c.det_conf for c, _, _ in kept]))
    unsure = [i for i in range(len(det)) if det.confidence[i] < 0.5]
    return det, unsure
