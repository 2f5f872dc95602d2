"""A face scanned with a margin of scanner bed or table, cut to the card: the plain margin goes,
and the face's printed frame, bars and ornaments stay, at the scan's own proportions.

>>> bed = np.full((400, 200, 3), 250, np.uint8); bed[40:360, 60:140] = (40, 140, 60)
>>> trim_face(bed[..., ::-1]).shape[:2]
(319, 79)
"""

from __future__ import annotations

import cv2
import numpy as np

from sisepai.vision.decks.grid import border_colour, find_cards, straighten_card


MARGIN_SIDES = 3
"""A scan's plain margin lies on at least this many sides of the card: a printed frame or bars
along the two long edges are part of the face, and are never cut away."""
MARGIN_AGREEMENT = 14.0
"""Most a plain margin's sides differ in colour (CIELAB, ΔE): one bed or table all round."""
MARGIN_SPREAD = 12.0
"""Most a plain margin's colour varies inside one side (CIELAB, the median distance to its median)."""


def plain_margin(image_bgr: np.ndarray, box: np.ndarray, min_sides: int = MARGIN_SIDES) -> bool:
    """Is what lies outside ``box`` (a card's outline in ``image_bgr``) a plain margin of one colour
    on at least ``min_sides`` sides, as a scanner bed or a table is? A face's printed black bars
    along its long edges are not: they lie on two sides only, or differ from the paper beyond the ends.

    >>> bed = np.full((400, 200, 3), 250, np.uint8); bed[40:360, 60:140] = (40, 140, 60)
    >>> plain_margin(bed, np.float32([[60, 40], [140, 40], [140, 360], [60, 360]]))
    True
    >>> bars = np.full((400, 120, 3), (0, 200, 230), np.uint8); bars[:, :12] = 20; bars[:, -12:] = 20
    >>> plain_margin(bars, np.float32([[12, 0], [108, 0], [108, 400], [12, 400]]))
    False
    """
    h, w = image_bgr.shape[:2]
    lab = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    x0, y0 = np.floor(box.min(0)).astype(int) - 1
    x1, y1 = np.ceil(box.max(0)).astype(int) + 1
    strips = [lab[:, :x0] if x0 >= 2 else None, lab[:, x1:] if w - x1 >= 2 else None,
              lab[:y0] if y0 >= 2 else None, lab[y1:] if h - y1 >= 2 else None]
    sides = [s.reshape(-1, 3) for s in strips if s is not None and s.size]
    if len(sides) < min_sides:
        return False
    colours = [np.median(s, axis=0) for s in sides]
    if any(float(np.median(np.linalg.norm(s - c, axis=1))) > MARGIN_SPREAD for s, c in zip(sides, colours)):
        return False
    return max(float(np.linalg.norm(a - b)) for a in colours for b in colours) <= MARGIN_AGREEMENT


def trim_face(face_rgb: np.ndarray, min_share: float = 0.2, max_share: float = 0.97,
              min_contrast: float = 25.0) -> np.ndarray:
    """A face scan with a margin of scanner bed around the card, cut and straightened to the card;
    a face already cut to its edges comes back as it is. The card is the one card-shaped blob
    covering ``min_share`` to ``max_share`` of the picture whose own edge differs from the margin
    by at least ``min_contrast`` (CIELAB), and whose margin is plain (:func:`plain_margin`): an
    inner frame printed on a face cut to its edges has the face's paper on both sides, and black
    bars printed along the long edges lie on two sides only; neither is taken for a margin.

    >>> bed = np.full((400, 200, 3), 250, np.uint8); bed[40:360, 60:140] = (40, 140, 60)
    >>> trim_face(bed).shape
    (319, 79, 3)
    >>> framed = np.full((320, 80, 3), (40, 140, 60), np.uint8); framed[20:300, 10:70] = 230
    >>> framed[24:296, 14:66] = (40, 140, 60)  # a printed frame: paper on both sides of it
    >>> trim_face(framed).shape
    (320, 80, 3)
    """
    bgr = np.ascontiguousarray(face_rgb[..., ::-1])
    area = face_rgb.shape[0] * face_rgb.shape[1]
    boxes = [b for b in find_cards(bgr) if min_share <= cv2.contourArea(b) / area <= max_share]
    if len(boxes) != 1 or not plain_margin(bgr, np.float32(boxes[0])):
        return face_rgb
    card = straighten_card(bgr, boxes[0])
    margin = border_colour(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32), 3)
    bars = printed_bars(face_rgb.shape[:2], card.shape[:2], margin)
    if bars:  # the paper between a face's black bars: the card is wider by the bars
        return straighten_card(bgr, widened(np.float32(boxes[0]), bars))
    card_lab = cv2.cvtColor(card, cv2.COLOR_RGB2LAB).astype(np.float32)
    k = max(2, min(card.shape[:2]) // 12)
    edge = np.median(np.concatenate([card_lab[k:2 * k].reshape(-1, 3), card_lab[-2 * k:-k].reshape(-1, 3)]), axis=0)
    return card if float(np.linalg.norm(edge - margin)) >= min_contrast else face_rgb


DARK_MARGIN = 45.0
"""A margin darker than this (CIELAB L*, 0-255 as OpenCV gives it) cannot be told from printed
black ink by its colour."""


def printed_bars(scan_hw: tuple[int, int], card_hw: tuple[int, int], margin_lab: np.ndarray) -> float:
    """How much wider than ``card_hw`` the face is (pixels, both bars together) when a cut would take
    printed bars off it; 0 when it would not. On a dark bed (or a scan with a dark border) a face's
    black bars along its long edges merge with the margin, and the card found is the paper between
    them: more is then cut from the long sides than from the ends, where a bed's margin is about
    even all round. The face is taken as wide as that even margin leaves it.

    >>> dark = np.float32([20, 128, 128])
    >>> printed_bars((433, 126), (426, 95), dark)  # 31 px off the sides, 7 off the ends: 24 px of bars
    24.0
    >>> printed_bars((487, 180), (426, 119), dark)  # a bed even all round: no bars
    0.0
    >>> printed_bars((433, 126), (426, 95), np.float32([240, 128, 128]))  # a light bed is never ink
    0.0
    """
    if float(margin_lab[0]) > DARK_MARGIN:
        return 0.0
    (sh, sw), (ch, cw) = sorted(scan_hw, reverse=True), sorted(card_hw, reverse=True)  # long side first
    extra = float((sw - cw) - max(sh - ch, 0))
    return extra if extra > max(4.0, 0.06 * cw) else 0.0


def widened(box: np.ndarray, extra: float) -> np.ndarray:
    """``box`` (4 corners) made ``extra`` pixels wider across its short side, about its centre.

    >>> widened(np.float32([[10, 0], [30, 0], [30, 100], [10, 100]]), 10).round(1).tolist()
    [[5.0, 0.0], [35.0, 0.0], [35.0, 100.0], [5.0, 100.0]]
    """
    (cx, cy), (w, h), angle = cv2.minAreaRect(np.float32(box))
    if w < h:
        w += extra
    else:
        h += extra
    out = cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)
    # the same corner order as the box given: each new corner next to its old one
    order = [int(np.argmin(np.linalg.norm(out - p, axis=1))) for p in np.float32(box)]
    return out[order]
