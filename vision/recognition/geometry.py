"""Card geometry: end regions of a card polygon, straightened crops, point-in-polygon.

>>> import numpy as np
>>> card = np.float32([[0, 0], [10, 0], [10, 60], [0, 60]])
>>> [e.round(1).tolist() for e in card_ends(card)][0]
[[0.0, 0.0], [10.0, 0.0], [10.0, 11.5], [0.0, 11.5]]
"""

from __future__ import annotations

import cv2
import numpy as np

from sisepai.engine.cards import END_FRACTION


def order_upright(poly: np.ndarray) -> np.ndarray:
    """Reorder a quadrilateral so corners 0-1 are a short edge and the order is clockwise in
    image coordinates (y down): then a warp to a box keeps the picture unmirrored."""
    p = np.asarray(poly, np.float32)
    e1, e2 = p[1] - p[0], p[2] - p[1]
    area2 = e1[0] * e2[1] - e1[1] * e2[0]
    if area2 < 0:
        p = p[::-1].copy()
    edges = [np.linalg.norm(p[(i + 1) % 4] - p[i]) for i in range(4)]
    if edges[0] + edges[2] > edges[1] + edges[3]:
        p = np.roll(p, -1, axis=0)
    return p


def card_ends(poly: np.ndarray, fraction: float = END_FRACTION) -> list[np.ndarray]:
    """The two end regions of a card polygon, each with the card's edge first (TL, TR, BR, BL)."""
    p = order_upright(poly)
    a, b, c, d = p
    width = (np.linalg.norm(b - a) + np.linalg.norm(c - d)) / 2
    length = (np.linalg.norm(d - a) + np.linalg.norm(c - b)) / 2
    t = min(fraction * width / max(length, 1e-6), 0.5)
    top = np.float32([a, b, b + (c - b) * t, a + (d - a) * t])
    bottom = np.float32([c, d, d + (a - d) * t, c + (b - c) * t])
    return [top, bottom]


def straighten(image: np.ndarray, quad: np.ndarray, size: int, margin: float = 0.08) -> np.ndarray:
    """Warp a quadrilateral (TL, TR, BR, BL) to a ``size`` square, with a small margin."""
    q = np.float32(quad)
    centre = q.mean(0)
    q = centre + (q - centre) * (1 + margin)
    # warp from a small region of interest: far faster than from the whole frame
    h, w = image.shape[:2]
    x0, y0 = np.floor(q.min(0)).astype(int) - 2
    x1, y1 = np.ceil(q.max(0)).astype(int) + 3
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return np.zeros((size, size, image.shape[2]), image.dtype)
    roi = image[y0:y1, x0:x1]
    dst = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    M = cv2.getPerspectiveTransform(q - np.float32([x0, y0]), dst)
    # shrinking a large region: blur first so the warp does not alias
    scale = max(x1 - x0, y1 - y0) / size
    if scale > 2:
        roi = cv2.GaussianBlur(roi, (0, 0), scale / 3)
    return cv2.warpPerspective(roi, M, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def side_lengths(polys: np.ndarray) -> np.ndarray:
    """The four side lengths of a quadrilateral (4, 2), or of each of many (N, 4, 2).

    >>> side_lengths(np.float32([[0, 0], [20, 0], [20, 120], [0, 120]])).tolist()
    [120.0, 20.0, 120.0, 20.0]
    """
    return np.linalg.norm(polys - np.roll(polys, 1, axis=-2), axis=-1)


def inside(point: np.ndarray, poly: np.ndarray) -> bool:
    return cv2.pointPolygonTest(np.float32(poly).reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) >= 0


def first_holder(points: np.ndarray, polys) -> np.ndarray:
    """For each point, the index of the first convex quadrilateral of ``polys`` that holds it
    (its edges included), or -1: :func:`inside` for many points and outlines at once.

    >>> cards = [np.float32([[0, 0], [20, 0], [20, 80], [0, 80]]), np.float32([[10, 10], [40, 10], [40, 90], [10, 90]])]
    >>> first_holder(np.float32([[5, 5], [30, 50], [15, 20], [60, 60]]), cards).tolist()
    [0, 1, 0, -1]
    """
    points = np.asarray(points, np.float64).reshape(-1, 2)
    if not len(points) or not len(polys):
        return np.full(len(points), -1)
    corners = np.asarray(polys, np.float64).reshape(-1, 4, 2)
    edges = np.roll(corners, -1, axis=1) - corners
    rel = points[:, None, None, :] - corners[None]
    cross = edges[None, ..., 0] * rel[..., 1] - edges[None, ..., 1] * rel[..., 0]
    held = (cross >= 0).all(-1) | (cross <= 0).all(-1)
    return np.where(held.any(1), held.argmax(1), -1)


def groups_along(values: np.ndarray, step: float) -> list[list[int]]:
    """Indices of ``values`` (positions along one axis) in rows, nearest first: a new row starts
    where a value lies more than ``step`` past the mean of the row so far.

    >>> groups_along(np.array([0.0, 52.0, 3.0, 49.0, 1.0]), 20)
    [[0, 4, 2], [3, 1]]
    """
    if not len(values):
        return []
    order = [int(i) for i in np.argsort(values, kind="stable")]
    rows, current = [], [order[0]]
    for i in order[1:]:
        if values[i] - np.mean(values[current]) > step:
            rows.append(current)
            current = [i]
        else:
            current.append(i)
    rows.append(current)
    return rows
