"""Cut a deck's faces from photos of its cards laid out in a grid.

The layout (``sisepai deck add --help`` and the web page show it): one card of each kind, face
up, on a plain table or sheet of a colour unlike the cards, with a gap between cards:

    row 1:  G將  G士  G象  G車  G馬  G包  G卒      (Green:  K A E R H C P)
    row 2:  W將  W士  W象  W車  W馬  W包  W卒      (White)
    row 3:  Y帥  Y仕  Y相  Y俥  Y傌  Y炮  Y兵      (Yellow)
    row 4:  R帥  R仕  R相  R俥  R傌  R炮  R兵      (Red)
    row 5:  J                                       (a joker, when the deck has them)

Cards may stand either way up. Several photos are read in order, as if one tall photo: a photo of
rows 1-2 then one of rows 3-4 works. Each card is found as a long, narrow blob that differs from
the table's colour (the median colour of the picture's border), straightened and turned upright.

>>> import numpy as np
>>> sheet = np.full((700, 900, 3), (40, 110, 40), np.uint8)
>>> for r in range(4):
...     for c in range(7):
...         sheet[30 + r * 160:30 + r * 160 + 140, 30 + c * 120:30 + c * 120 + 40] = 230
>>> faces = cut_grid([sheet])
>>> len(faces), faces["GK"].shape
(28, (139, 39, 3))
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from sisepai.datasets.deck_faces import ASPECT_RANGE, FACE_CODES, DeckError

from .geometry import groups_along

GRID_ROWS = "GWYR"
GRID_COLUMNS = "KAERHCP"
MIN_CARD_AREA = 0.002
"""A card covers at least this share of the photo."""


def border_colour(lab: np.ndarray, width: int) -> np.ndarray:
    """The median colour of a picture's outer ``width`` pixels on all four sides (any colour space).

    >>> img = np.zeros((20, 20, 3), np.float32); img[:] = 5; img[6:14, 6:14] = 9
    >>> border_colour(img, 4).tolist()
    [5.0, 5.0, 5.0]
    """
    return np.median(np.concatenate([lab[:width].reshape(-1, 3), lab[-width:].reshape(-1, 3),
                                     lab[:, :width].reshape(-1, 3), lab[:, -width:].reshape(-1, 3)]), axis=0)


def table_mask(image_bgr: np.ndarray, tolerance: float = 38.0) -> np.ndarray:
    """Pixels that differ from the table's colour (the median of the picture's border), cleaned."""
    lab = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    table = border_colour(lab, 4)
    mask = (np.linalg.norm(lab - table, axis=2) > tolerance).astype(np.uint8) * 255
    k = max(3, min(image_bgr.shape[:2]) // 200)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))


def find_cards(image_bgr: np.ndarray) -> list[np.ndarray]:
    """The card outlines in a grid photo: rotated rectangles (4x2 corners) of card shape."""
    mask = table_mask(image_bgr)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    area = image_bgr.shape[0] * image_bgr.shape[1]
    cards = []
    for c in contours:
        (cx, cy), (w, h), angle = cv2.minAreaRect(c)
        if min(w, h) < 8 or w * h < MIN_CARD_AREA * area:
            continue
        if not ASPECT_RANGE[0] <= max(w, h) / min(w, h) <= ASPECT_RANGE[1]:
            continue
        if cv2.contourArea(c) < 0.8 * w * h:  # two cards touching, or a hand in the picture
            continue
        cards.append(cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32))
    return cards


def straighten_card(image_bgr: np.ndarray, box: np.ndarray) -> np.ndarray:
    """The card inside ``box``, warped to an upright (portrait) RGB image at its own resolution."""
    pts = np.float32(box)
    sides = [np.linalg.norm(pts[(i + 1) % 4] - pts[i]) for i in range(4)]
    if sides[0] > sides[1]:  # make the first side a short one: the card's top edge
        pts = np.roll(pts, -1, axis=0)
        sides = sides[1:] + sides[:1]
    w, h = int(round((sides[0] + sides[2]) / 2)), int(round((sides[1] + sides[3]) / 2))
    # start at the top-left corner of the short edge that lies higher in the picture
    if pts[[2, 3], 1].mean() < pts[[0, 1], 1].mean():
        pts = np.roll(pts, 2, axis=0)
    if pts[0, 0] > pts[1, 0]:
        pts = pts[[1, 0, 3, 2]]
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    warped = cv2.warpPerspective(image_bgr, cv2.getPerspectiveTransform(pts, dst), (w, h), flags=cv2.INTER_AREA)
    return np.ascontiguousarray(warped[..., ::-1])


def _rows(boxes: list[np.ndarray]) -> list[list[np.ndarray]]:
    """Boxes grouped into rows (a new row where the centres' y jumps by over half a card's length),
    each row left to right."""
    if not boxes:
        return []
    centres = np.float32([b.mean(0) for b in boxes])
    lengths = np.float32([max(np.linalg.norm(b[1] - b[0]), np.linalg.norm(b[2] - b[1])) for b in boxes])
    rows = groups_along(centres[:, 1], 0.5 * float(np.median(lengths)))
    return [[boxes[i] for i in sorted(r, key=lambda i: centres[i, 0])] for r in rows]


def cut_grid(images_bgr: Sequence[np.ndarray]) -> dict[str, np.ndarray]:
    """The faces in grid photos, keyed by code: 28, or 29 with a joker in a fifth row.

    Raises :class:`DeckError` saying how many cards each row held when the grid is not 4 rows of 7
    (and at most one joker).
    """
    rows: list[list[np.ndarray]] = []
    for image in images_bgr:
        rows += [[straighten_card(image, b) for b in row] for row in _rows(find_cards(image))]
    counts = [len(r) for r in rows]
    if len(rows) not in (4, 5) or counts[:4] != [7] * 4 or (len(rows) == 5 and counts[4] != 1):
        found = sum(counts)
        raise DeckError(f"found {found} card{'s' * (found != 1)} in {len(rows)} row{'s' * (len(rows) != 1)} "
                        f"({', '.join(map(str, counts)) or 'none'}); the grid is 4 rows of 7 "
                        f"(G W Y R; K A E R H C P), and a joker alone in a fifth row, on a plain table, "
                        f"cards apart")
    faces = {f"{suit}{rank}": rows[r][c] for r, suit in enumerate(GRID_ROWS) for c, rank in enumerate(GRID_COLUMNS)}
    assert tuple(faces) == FACE_CODES
    if len(rows) == 5:
        faces["J"] = rows[4][0]
    return faces


def trim_face(face_rgb: np.ndarray, min_share: float = 0.2, max_share: float = 0.97,
              min_contrast: float = 25.0) -> np.ndarray:
    """A face scan with a margin of scanner bed around the card, cut and straightened to the card;
    a face already cut to its edges comes back as it is. The card is the one card-shaped blob
    covering ``min_share`` to ``max_share`` of the picture whose own edge differs from the margin
    by at least ``min_contrast`` (CIELAB): an inner frame printed on a face cut to its edges has
    the face's paper on both sides, and is not taken for the card.

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
    if len(boxes) != 1:
        return face_rgb
    card = straighten_card(bgr, boxes[0])
    margin = border_colour(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32), 3)
    card_lab = cv2.cvtColor(np.ascontiguousarray(card[..., ::-1]), cv2.COLOR_BGR2LAB).astype(np.float32)
    k = max(2, min(card.shape[:2]) // 12)
    edge = np.median(np.concatenate([card_lab[k:2 * k].reshape(-1, 3), card_lab[-2 * k:-k].reshape(-1, 3)]), axis=0)
    return card if float(np.linalg.norm(edge - margin)) >= min_contrast else face_rgb
