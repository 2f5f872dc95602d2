"""A second look at a picture the first look read poorly: zoomed out when it showed little or
cards far larger than at table distance (a close-up, a scanned sheet), and read as one card when it
is one (a scan cut to the card, or a card alone on a scanner bed)."""

from __future__ import annotations

import cv2
import numpy as np

from sisepai.vision.recognition.detections import Detections
from sisepai.vision.recognition.detector import Boxes
from sisepai.vision.recognition.geometry import side_lengths

ZOOM_OUT_MIN_CONFIDENCE = 0.4
"""A first look with no reading this confident is looked at again zoomed out."""
LARGE_CARD_WIDTH = 85 / 1280
"""A first look whose cards are wider than this, in median, as a share of the picture's long
side, is looked at again zoomed out. The detector learned cards at most 0.086 of the long side
wide (fans; tables at most 0.042), and it breaks larger, well-separated cards, as on a
flatbed scan of a sheet of cards, into pieces that are each read as a card."""
ZOOM_TARGET_WIDTH = 40 / 1280
"""The median card width (share of the long side) that the zoomed-out look of a picture of large
cards aims at: that of cards in a finished hand at table distance."""
CARD_PICTURE_ASPECT = (2.8, 7.5)
"""A picture this much longer than wide may be one card filling it (a scan or a close-up cut to
the card): it is also read as that one card."""
CARD_PICTURE_MIN_CONFIDENCE = 0.6
"""Reading a card-shaped picture as one card wins when it is this sure, and surer than every card
the detector's looks found."""


def zoomed_out(image: np.ndarray, factor: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The picture centred on a canvas ``factor`` times its size, filled with its border colour,
    then scaled back to the picture's size: ``(canvas, offset, scale)``, where a canvas point is
    ``picture point * scale + offset``.

    >>> img = np.zeros((100, 200, 3), np.uint8)
    >>> canvas, offset, scale = zoomed_out(img, 4.0)
    >>> canvas.shape, offset.tolist(), scale
    ((100, 200, 3), [75.0, 37.0], 0.25)
    """

    h, w = image.shape[:2]
    scale = 1.0 / factor
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    canvas = np.empty_like(image)
    canvas[:] = np.median(border, axis=0).astype(np.uint8)
    y, x = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
    canvas[y:y + small.shape[0], x:x + small.shape[1]] = small
    return canvas, np.float32([x, y]), small.shape[1] / w


def median_card_width(det: Detections, shape: tuple[int, ...]) -> float:
    """The median short side of the reported outlines, as a share of the picture's long side
    (0 for none).

    >>> card = np.float32([[0, 0], [20, 0], [20, 120], [0, 120]])
    >>> median_card_width(Detections(np.stack([card]), np.ones(1), np.zeros(1)), (400, 1000, 3))
    0.02
    """
    if not len(det):
        return 0.0
    return float(np.median(side_lengths(det.polygons).min(axis=1))) / max(shape[:2])


def _card_box(outline: np.ndarray) -> Boxes | None:
    """``outline`` as a one-card :class:`Boxes`, when it has a card's shape."""
    sides = side_lengths(outline)
    if sides.min() < 8 or not CARD_PICTURE_ASPECT[0] <= sides.max() / sides.min() <= CARD_PICTURE_ASPECT[1]:
        return None
    return Boxes(np.float32(outline)[None], np.ones(1, np.float32), np.zeros(1, np.int64))


def picture_as_card(image: np.ndarray) -> Boxes | None:
    """The whole picture as one card's outline (a scan cut to the card), when it has a card's
    shape (:data:`CARD_PICTURE_ASPECT`); otherwise None.

    >>> picture_as_card(np.zeros((600, 120, 3), np.uint8)).polygons[0].tolist()
    [[0.0, 0.0], [119.0, 0.0], [119.0, 599.0], [0.0, 599.0]]
    >>> picture_as_card(np.zeros((720, 1280, 3), np.uint8)) is None
    True
    """
    h, w = image.shape[:2]
    return _card_box(np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]))


def card_on_plain_ground(image: np.ndarray, tolerance: int = 40) -> Boxes | None:
    """The outline of one card lying alone on a plain ground (a scanner bed, a sheet of paper):
    the smallest rotated rectangle around the region that differs from the picture's border
    colour, when the border is plain, that region is at least 80% of all such regions, it fills
    a good part of the picture, and it has a card's shape; otherwise None.

    >>> bed = np.full((300, 200, 3), 245, np.uint8); bed[40:260, 80:124] = (40, 40, 200)
    >>> box = card_on_plain_ground(bed)
    >>> np.round(np.sort(box.polygons[0], axis=0)[[0, -1]]).tolist()  # its corners span the card
    [[80.0, 40.0], [123.0, 259.0]]
    """

    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]).astype(np.int16)
    ground = np.median(border, axis=0)
    if np.mean(np.abs(border - ground).max(axis=1) > tolerance) > 0.05:
        return None  # not a plain ground
    scale = min(1.0, 400 / max(image.shape[:2]))  # the outline needs no more detail than this
    if scale < 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    differs = cv2.absdiff(image, np.full_like(image, ground.astype(np.uint8))).max(axis=2) > tolerance
    mask = cv2.morphologyEx(differs.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    areas = [cv2.contourArea(c) for c in contours]
    largest = contours[int(np.argmax(areas))]
    if max(areas) < 0.8 * sum(areas):
        return None  # more than one thing lies there
    rect = cv2.minAreaRect(largest)
    if rect[1][0] * rect[1][1] < 0.05 * image.shape[0] * image.shape[1]:
        return None
    return _card_box(cv2.boxPoints(rect) / scale)


def mean_square(confidence: np.ndarray) -> float:
    """The mean squared confidence of a look's cards (0 for none): a few sure cards beat many
    doubtful ones.

    >>> mean_square(np.array([0.5, 1.0])), mean_square(np.array([]))
    (0.625, 0.0)
    """
    return float((confidence ** 2).mean()) if len(confidence) else 0.0
