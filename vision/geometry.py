"""Card geometry: end regions of a card polygon, straightened crops, point-in-polygon.

>>> import numpy as np
>>> card = np.float32([[0, 0], [10, 0], [10, 60], [0, 60]])
>>> [e.round(1).tolist() for e in card_ends(card)][0]
[[0.0, 0.0], [10.0, 0.0], [10.0, 11.5], [0.0, 11.5]]
"""

from __future__ import annotations

import cv2
import numpy as np

END_FRACTION = 1.15  # the same as sisepai.datasets.render.END_FRACTION


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
    dst = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    M = cv2.getPerspectiveTransform(q, dst)
    return cv2.warpPerspective(image, M, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def inside(point: np.ndarray, poly: np.ndarray) -> bool:
    return cv2.pointPolygonTest(np.float32(poly).reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) >= 0


def polygon_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals."""
    a32, b32 = np.float32(a), np.float32(b)
    inter, _ = cv2.intersectConvexConvex(a32, b32)
    union = cv2.contourArea(a32) + cv2.contourArea(b32) - inter
    return float(inter / union) if union > 0 else 0.0
