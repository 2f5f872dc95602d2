"""A second look at a still picture turned half round: the detector is a convolutional network,
not the same under a half turn, so some cards it misses one way up it finds the other way up
(a fanned end, a card in a heap). The first look's boxes stand; the turned look adds the outlines it alone found.

>>> import numpy as np
>>> a = Boxes(np.float32([[[0, 0], [10, 0], [10, 40], [0, 40]]]), np.float32([0.9]), np.int64([0]))
>>> b = Boxes(np.float32([[[1, 0], [11, 0], [11, 40], [1, 40]], [[50, 0], [60, 0], [60, 40], [50, 40]]]),
...           np.float32([0.8, 0.6]), np.int64([0, 1]))
>>> m = merge_looks(a, b)
>>> [round(float(c), 2) for c in m.confidence], m.part.tolist()  # the first look's card, and the new end
([0.9, 0.6], [0, 1])
"""

from __future__ import annotations

import cv2
import numpy as np

from sisepai.vision.recognition.detector import Boxes

MERGE_IOU = 0.3
"""An outline of the turned look overlapping one of the first look's by more than this is the
same outline."""


def turned_half(image: np.ndarray) -> np.ndarray:
    """The picture turned half round."""
    return cv2.rotate(image, cv2.ROTATE_180)


def unturn_half(boxes: Boxes, width: int, height: int) -> Boxes:
    """Boxes found in a picture turned half round, in the picture's own coordinates (continuous:
    pixel ``i`` spans ``[i, i + 1]``).

    >>> b = unturn_half(Boxes(np.float32([[[0, 0], [2, 0], [2, 1], [0, 1]]]), np.float32([1]), np.int64([0])), 10, 5)
    >>> b.polygons[0].tolist()
    [[10.0, 5.0], [8.0, 5.0], [8.0, 4.0], [10.0, 4.0]]
    """
    polygons = np.asarray(boxes.polygons, np.float32).copy()
    polygons[..., 0] = width - polygons[..., 0]
    polygons[..., 1] = height - polygons[..., 1]
    return Boxes(polygons, boxes.confidence, boxes.part)


def _rect(polygon: np.ndarray):
    return cv2.minAreaRect(np.asarray(polygon, np.float32))


def rotated_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two oriented 4-corner outlines.

    >>> sq = np.float32([[0, 0], [4, 0], [4, 4], [0, 4]])
    >>> rotated_iou(sq, sq + [2, 0])
    0.3333333333333333
    """
    ra, rb = _rect(a), _rect(b)
    area_a, area_b = ra[1][0] * ra[1][1], rb[1][0] * rb[1][1]
    kind, points = cv2.rotatedRectangleIntersection(ra, rb)
    if kind == cv2.INTERSECT_NONE or points is None or len(points) < 3:
        return 0.0
    inter = float(cv2.contourArea(cv2.convexHull(points)))
    union = area_a + area_b - inter
    return inter / union if union > 0 else 0.0


def merge_looks(first: Boxes, second: Boxes, iou: float = MERGE_IOU) -> Boxes:
    """The first look's outlines, and those of the second that are new: whose centre lies in no
    outline of the first and that overlap none of them by more than ``iou``. Where both looks found
    a card, the first look's outline stands, so the turned look only adds what was missed."""
    if not len(second) or not len(first):
        return first if len(first) else second
    first_polygons = np.asarray(first.polygons, np.float32)
    new = []
    for i, poly in enumerate(np.asarray(second.polygons, np.float32)):
        centre = tuple(float(v) for v in poly.mean(0))
        inside = any(cv2.pointPolygonTest(fp, centre, False) >= 0 for fp in first_polygons)
        if not inside and all(rotated_iou(poly, fp) <= iou for fp in first_polygons):
            new.append(i)
    if not new:
        return first
    return Boxes(np.concatenate([first_polygons, second.polygons[new]]),
                 np.concatenate([first.confidence, second.confidence[new]]),
                 np.concatenate([first.part, second.part[new]]))
