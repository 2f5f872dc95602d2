"""Two card ends found apart, that are one card: a card whose whole outline the detector missed.

A plain card (a joker with a pattern in place of a character, or a card half under a hand) is
sometimes found only as its two ends. Read apart, they are two cards: two announcements of one
joker in a video, a false card in a photo. Two lone ends are one card when they read the same
card, lie on one line along the card's length at a card's length apart, are as wide as each other,
and the paper between them has their colour (a hand or the table between two cards does not).

>>> a = np.float32([[0, 0], [30, 0], [30, 35], [0, 35]])    # an end, 30 px wide
>>> b = a + np.float32([0, 100])                             # another, 100 px further down
>>> card_of_ends(a, b).round().tolist()                      # one card, 30 x 135
[[30.0, 135.0], [0.0, 135.0], [0.0, 0.0], [30.0, 0.0]]
>>> card_of_ends(a, a + np.float32([40, 0])) is None         # side by side: two cards
True
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from sisepai.vision.recognition.geometry import inside, order_upright, side_lengths, straighten
from sisepai.vision.recognition.palette import paper_lab

MIN_LENGTHS = 1.3
"""The least distance between two ends of one card, in card widths (ends' centres; a short 1:3.2
card's are 2.05 widths apart, and a detected end's box may reach into the card's middle)."""
MAX_LENGTHS = 6.0
"""The most distance between two ends of one card, in card widths (a 1:6.5 card: 5.35)."""
MAX_TURN_DEGREES = 15.0
"""How far each end's edge may turn from the line joining the two ends."""
MAX_WIDTH_RATIO = 1.4
"""How much wider one end may be than the other."""
PAPER_SHARE = 0.6
"""The share of the strip between the ends that must have the ends' paper colour."""
PAPER_CHROMA = 14.0
"""How near (CIELAB a*b*) a pixel's colour must be to the ends' paper to count as paper."""
PAPER_LIGHTNESS = 35.0
"""How near in CIELAB lightness (0-255 scale) a pixel must be to the ends' paper."""


def _axis_and_width(end: np.ndarray, direction: np.ndarray) -> tuple[float, float, float] | None:
    """For an end box and a unit direction: (cosine of the edge nearest the direction, the box's
    extent along it, its extent across it)."""
    p = np.float32(end)
    e1, e2 = p[1] - p[0], p[2] - p[1]
    n1, n2 = float(np.linalg.norm(e1)), float(np.linalg.norm(e2))
    if n1 < 1e-3 or n2 < 1e-3:
        return None
    c1, c2 = abs(float(e1 @ direction)) / n1, abs(float(e2 @ direction)) / n2
    return (c1, n1, n2) if c1 >= c2 else (c2, n2, n1)


LENGTH_TOLERANCE = 0.12
"""With a known card length, how far (a share of it) the outline two ends make may differ from it."""


def card_of_ends(a: np.ndarray, b: np.ndarray, card_length: float | None = None) -> np.ndarray | None:
    """The outline of the one card whose two ends ``a`` and ``b`` (4-corner boxes) are, when the
    geometry allows it, else None. ``card_length``: the length of the picture's cards, when
    known (from its whole cards, or an enrolled deck's shape); the outline must then be that long
    within :data:`LENGTH_TOLERANCE`. The colour check is :func:`paper_between`."""
    ca, cb = np.float32(a).mean(0), np.float32(b).mean(0)
    d = float(np.linalg.norm(cb - ca))
    if d < 1e-3:
        return None
    u = (cb - ca) / d
    fa, fb = _axis_and_width(a, u), _axis_and_width(b, u)
    if fa is None or fb is None:
        return None
    cos_min = float(np.cos(np.radians(MAX_TURN_DEGREES)))
    if fa[0] < cos_min or fb[0] < cos_min:
        return None
    wa, wb = fa[2], fb[2]
    if max(wa, wb) > MAX_WIDTH_RATIO * min(wa, wb):
        return None
    width = (wa + wb) / 2
    if not MIN_LENGTHS * width <= d <= MAX_LENGTHS * width:
        return None
    n = np.float32([-u[1], u[0]])
    start, stop = ca - u * fa[1] / 2, cb + u * fb[1] / 2
    if card_length is not None and abs(float(np.linalg.norm(stop - start)) - card_length) > LENGTH_TOLERANCE * card_length:
        return None
    half = n * width / 2
    return order_upright(np.float32([start - half, start + half, stop + half, stop - half]))


def paper_between(image_rgb: np.ndarray, a: np.ndarray, b: np.ndarray, paper_lab: np.ndarray) -> float:
    """The share of the strip between the centres of ends ``a`` and ``b`` (its middle 40% of the
    length, 60% of the width) whose colour is near ``paper_lab`` (L, a*, b* as OpenCV's 8-bit
    LAB, a* and b* centred on 0).

    >>> img = np.zeros((60, 200, 3), np.uint8); img[:] = (200, 30, 40)   # a red card, lying down
    >>> a = np.float32([[0, 10], [35, 10], [35, 40], [0, 40]]); b = a + np.float32([150, 0])
    >>> lab = cv2.cvtColor(img[:1, :1].copy(), cv2.COLOR_RGB2LAB)[0, 0].astype(np.float32) - [0, 128, 128]
    >>> paper_between(img, a, b, lab)
    1.0
    >>> img[:, 60:140] = (40, 120, 40)                                  # a green table between
    >>> paper_between(img, a, b, lab)
    0.0
    """
    ca, cb = np.float32(a).mean(0), np.float32(b).mean(0)
    d = cb - ca
    length = float(np.linalg.norm(d))
    if length < 1e-3:
        return 0.0
    u = d / length
    n = np.float32([-u[1], u[0]])
    _, _, width = _axis_and_width(a, u) or (0.0, 0.0, 0.0)
    p0, p1, half = ca + d * 0.3, ca + d * 0.7, n * width * 0.3
    strip = np.float32([p0 - half, p0 + half, p1 + half, p1 - half])
    crop = straighten(np.ascontiguousarray(image_rgb), strip, 12, margin=0.0)
    lab = cv2.cvtColor(crop, cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32) - np.float32([0, 128, 128])
    near = (np.linalg.norm(lab[:, 1:] - paper_lab[1:], axis=1) <= PAPER_CHROMA) \
        & (np.abs(lab[:, 0] - paper_lab[0]) <= PAPER_LIGHTNESS)
    return float(near.mean())


def end_paper(image_rgb: np.ndarray, end: np.ndarray) -> np.ndarray:
    """An end's paper colour as (L, a*, b*) (:func:`.palette.paper_lab` of its inner part)."""
    return paper_lab(straighten(np.ascontiguousarray(image_rgb), np.float32(end), 12, margin=-0.15))


def pair_lone_ends(image_rgb: np.ndarray, ends: list[np.ndarray], codes: list[int],
                   card_length: float | None = None) -> list[tuple[int, int, np.ndarray]]:
    """Which lone ends are two ends of one card: ``(i, j, card outline)`` for each such pair, each
    end in one pair at most (the nearest pairs first), and no other end inside the card. ``codes``:
    each end's read card kind; ``card_length``: as :func:`card_of_ends`.

    >>> img = np.zeros((100, 300, 3), np.uint8); img[:] = (30, 120, 40)   # green felt
    >>> img[20:55, 40:240] = (140, 20, 30)                                 # a plain joker on it
    >>> a = np.float32([[40, 20], [80, 20], [80, 55], [40, 55]]); b = a + np.float32([160, 0])
    >>> [(i, j) for i, j, _ in pair_lone_ends(img, [a, b, a + np.float32([0, 40])], [28, 28, 28])]
    [(0, 1)]
    """
    options = []
    for i in range(len(ends)):
        for j in range(i + 1, len(ends)):
            if codes[i] != codes[j]:
                continue
            card = card_of_ends(ends[i], ends[j], card_length)
            if card is not None:
                options.append((float(np.linalg.norm(ends[i].mean(0) - ends[j].mean(0))), i, j, card))
    pairs, used = [], set()
    papers: dict[int, np.ndarray] = {}
    for _, i, j, card in sorted(options, key=lambda o: o[0]):
        if i in used or j in used:
            continue
        if any(inside(ends[k].mean(0), card) for k in range(len(ends)) if k not in (i, j)):
            continue  # a third end between them: a column of overlapping cards, not one card
        for k in (i, j):
            if k not in papers:
                papers[k] = end_paper(image_rgb, ends[k])
        paper = (papers[i] + papers[j]) / 2
        if paper_between(image_rgb, ends[i], ends[j], paper) >= PAPER_SHARE:
            pairs.append((i, j, card))
            used.update((i, j))
    return pairs


PAIR_MIN_CARDS = 3
"""Whole cards a picture needs before its card length is known (:func:`picture_card_length`)."""


def picture_card_length(card_polys: Sequence[np.ndarray], min_cards: int = PAIR_MIN_CARDS) -> float | None:
    """The length of a picture's cards: the median long side of its whole cards, when it has at
    least ``min_cards`` of them; else None (two lone ends are then paired only when of the
    :data:`~sisepai.vision.recognition.profile.PAIRED_KINDS`).

    >>> box = np.float32([[0, 0], [30, 0], [30, 100], [0, 100]])
    >>> picture_card_length([box, box + 5, box + 9]), picture_card_length([box])
    (100.0, None)
    """
    if len(card_polys) < min_cards:
        return None
    return float(np.median([side_lengths(np.float32(p)).max() for p in card_polys]))
