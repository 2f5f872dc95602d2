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
    by at least ``min_contrast`` (CIELAB), or whose own outermost band does, and whose margin is
    plain (:func:`plain_margin`): an inner frame printed on a face cut to its edges has the face's
    paper on both sides (:func:`inside_is`), black bars printed along the long edges lie on two
    sides only, and a frame printed round black bars across both ends is one card with them
    (:func:`outermost`); none is taken for a margin.

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
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    margin = border_colour(lab, 3)
    boxes = outermost([b for b in find_cards(bgr) if min_share <= cv2.contourArea(b) / area <= max_share])
    if not boxes:  # a pale card on a pale bed: too little contrast for the card finder. Only with a wide
        # margin (the card under FAINT_SHARE of the scan): a face cut to its edges may print a faint panel
        faint = faint_card(lab, margin, min_share, FAINT_SHARE)
        return straighten_card(bgr, faint) if faint is not None and plain_margin(bgr, faint) else face_rgb
    if len(boxes) != 1 or not plain_margin(bgr, np.float32(boxes[0])):
        return face_rgb
    outer = paper_beyond(lab, np.float32(boxes[0]), margin)
    if outer is not None:  # the blob was a frame printed inset on the card: the card is its paper around it
        return straighten_card(bgr, outer)
    if inside_is(bgr, np.float32(boxes[0]), margin):
        return face_rgb  # a frame printed on a face cut to its edges: what lies around it is the face's own paper
    card = straighten_card(bgr, boxes[0])
    bars = printed_bars(face_rgb.shape[:2], card.shape[:2], margin)
    if bars:  # the paper between a face's black bars: the card is wider by the bars
        return straighten_card(bgr, widened(np.float32(boxes[0]), bars))
    card_lab = cv2.cvtColor(card, cv2.COLOR_RGB2LAB).astype(np.float32)
    k = max(2, min(card.shape[:2]) // 12)
    edge = np.median(np.concatenate([card_lab[k:2 * k].reshape(-1, 3), card_lab[-2 * k:-k].reshape(-1, 3)]), axis=0)
    b = max(2, min(card.shape[:2]) // 40)  # and its outermost band all round: a paper margin outside black end bars
    rim = np.median(np.concatenate([card_lab[:b].reshape(-1, 3), card_lab[-b:].reshape(-1, 3),
                                    card_lab[:, :b].reshape(-1, 3), card_lab[:, -b:].reshape(-1, 3)]), axis=0)
    contrast = max(float(np.linalg.norm(edge - margin)), float(np.linalg.norm(rim - margin)))
    return card if contrast >= min_contrast else face_rgb


def inside_is(image_bgr: np.ndarray, box: np.ndarray, colour_lab: np.ndarray) -> bool:
    """Is the paper inside ``box`` (the median of its middle) ``colour_lab`` within
    :data:`MARGIN_AGREEMENT`: a margin of the card's own paper, not a bed of another colour?

    >>> face = np.full((200, 60, 3), (200, 225, 235), np.uint8); face[5:195, 5:55] = 20; face[8:192, 8:52] = (200, 225, 235)
    >>> lab = cv2.cvtColor(face, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> inside_is(face, np.float32([[5, 5], [54, 5], [54, 194], [5, 194]]), lab[0, 0])
    True
    """
    card = cv2.cvtColor(straighten_card(image_bgr, box), cv2.COLOR_RGB2LAB).astype(np.float32)
    h, w = card.shape[:2]
    middle = card[h // 5:h - h // 5, w // 5:w - w // 5].reshape(-1, 3)
    return float(np.linalg.norm(np.median(middle, axis=0) - colour_lab)) <= MARGIN_AGREEMENT


def outermost(boxes: list[np.ndarray]) -> list[np.ndarray]:
    """The card-shaped blobs found, less those lying inside another (a frame or a panel printed on
    the card found with it): one card, not two.

    >>> outer = np.float32([[0, 0], [100, 0], [100, 400], [0, 400]]); inner = outer * 0.8 + 10
    >>> len(outermost([inner, outer]))
    1
    """
    kept = []
    for b in boxes:
        inside_another = any(o is not b and cv2.contourArea(o) > cv2.contourArea(b)
                             and all(cv2.pointPolygonTest(np.float32(o), (float(x), float(y)), False) >= 0 for x, y in b)
                             for o in boxes)
        if not inside_another:
            kept.append(b)
    return kept


FAINT_SHARE = 0.8
"""Most of a scan a card found by its faint difference from the bed may cover (a face already cut to
its edges can print a panel as faint as a pale card on a pale bed, with a thin margin around it)."""
PAPER_RING = 6.0
"""Least the band just outside a found outline differs from the bed (CIELAB ΔE) for it to be the
card's own paper around a printed frame, not the bed."""


def paper_beyond(lab: np.ndarray, box: np.ndarray, bed: np.ndarray) -> np.ndarray | None:
    """The card's outline when ``box`` is a frame printed inset on it: the band just outside
    ``box`` is one colour, not the bed's (``bed``, CIELAB) but the card's paper, and the card is
    what differs from the bed around it (found at a contrast a pale card on a pale bed still
    has). None when the band is the bed.

    >>> bed = np.full((420, 160, 3), 250, np.uint8); bed[30:390, 30:130] = (200, 225, 235)  # cream on white
    >>> bed[37:383, 37:123] = 20; bed[39:381, 39:121] = (200, 225, 235)  # a frame 7 px in
    >>> lab = cv2.cvtColor(bed, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> out = paper_beyond(lab, np.float32([[37, 37], [122, 37], [122, 382], [37, 382]]), border_colour(lab, 3))
    >>> sorted(int(round(v)) for v in cv2.minAreaRect(out)[1])  # the card, 100 x 360, not the frame
    [99, 359]
    """
    h, w = lab.shape[:2]
    ring = np.zeros((h, w), np.uint8)
    cv2.fillPoly(ring, [np.int32(widened(widened(box, 8), 8, along=True))], 255)
    cv2.fillPoly(ring, [np.int32(widened(widened(box, 2), 2, along=True))], 0)
    band = lab[ring > 0]
    if len(band) < 20:
        return None
    paper = np.median(band, axis=0)
    if float(np.linalg.norm(paper - bed)) < PAPER_RING or float(np.median(np.linalg.norm(band - paper, axis=1))) > 8:
        return None
    outer = faint_card(lab, bed, cv2.contourArea(box) / (h * w), 0.97)
    if outer is None or cv2.contourArea(outer) <= cv2.contourArea(box):
        return None
    order = [int(np.argmin(np.linalg.norm(outer - p, axis=1))) for p in box]  # the box's corner order
    return outer[order] if len(set(order)) == 4 else None


def faint_card(lab: np.ndarray, bed: np.ndarray, min_share: float = 0.2, max_share: float = 0.97) -> np.ndarray | None:
    """The outline of the one card-shaped blob that differs from ``bed`` (CIELAB) by as little as
    half of :data:`PAPER_RING`, covering ``min_share`` to ``max_share`` of the picture; None if
    there is no such blob. A pale card on a pale bed, which the card finder's contrast misses.

    >>> bed = np.full((420, 160, 3), 250, np.uint8); bed[30:390, 30:130] = (200, 225, 235)
    >>> lab = cv2.cvtColor(bed, cv2.COLOR_BGR2LAB).astype(np.float32)
    >>> sorted(int(round(v)) for v in cv2.minAreaRect(faint_card(lab, border_colour(lab, 3)))[1])
    [99, 359]
    """
    h, w = lab.shape[:2]
    mask = (np.linalg.norm(lab - bed, axis=2) > PAPER_RING / 2).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    biggest = max(contours, key=cv2.contourArea)
    rect = cv2.minAreaRect(biggest)
    share = rect[1][0] * rect[1][1] / (h * w)
    if not min_share <= share <= max_share or cv2.contourArea(biggest) < 0.9 * rect[1][0] * rect[1][1]:
        return None  # not the one whole rectangle of a card
    return cv2.boxPoints(rect).astype(np.float32)


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


def widened(box: np.ndarray, extra: float, along: bool = False) -> np.ndarray:
    """``box`` (4 corners) made ``extra`` pixels wider across its short side (``along``: longer
    along its long side), about its centre.

    >>> widened(np.float32([[10, 0], [30, 0], [30, 100], [10, 100]]), 10).round(1).tolist()
    [[5.0, 0.0], [35.0, 0.0], [35.0, 100.0], [5.0, 100.0]]
    """
    (cx, cy), (w, h), angle = cv2.minAreaRect(np.float32(box))
    if (w < h) != along:
        w += extra
    else:
        h += extra
    out = cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)
    # the same corner order as the box given: each new corner next to its old one
    order = [int(np.argmin(np.linalg.norm(out - p, axis=1))) for p in np.float32(box)]
    return out[order]
