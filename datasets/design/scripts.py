"""Script shapes that no book font draws: a character redrawn the way a card printer's hand does.

Real decks print their characters in seal-like or clerical shapes, or in strokes of one width with
round ends, rather than in a book face. Fonts for those scripts are rarely open, so the shapes are
drawn from any font's glyph mask:

- ``round``: the glyph's skeleton traced again with a round pen, every stroke one width;
- ``clerical``: wide and low, with heavier horizontal strokes (隸書's flat build);
- ``seal``: tall and narrow, round even strokes that wander a little (篆書's drawn look);
- ``nib``: the skeleton traced with a broad flat pen held at one angle, so a stroke's width
  follows its direction (the thick and thin of a brush or an edged pen);
- ``flared``: thin strokes ending in heavy terminals (the wedge and dot ends of woodblock and
  decorative printing).

The first three are drawn by default; ``nib`` and ``flared`` only where a generation names them
(``sisepai dataset generate --scripts``), so default scenes stay what they were.

>>> mask = np.zeros((48, 48), np.uint8); mask[20:28, 6:42] = 255; mask[6:42, 20:28] = 255
>>> [round(float((script_mask(mask, k, np.random.default_rng(0)) > 127).mean()), 2) > 0.05 for k in ALL_SCRIPTS]
[True, True, True, True, True]
"""

from __future__ import annotations

import cv2
import numpy as np

SCRIPTS = ("round", "clerical", "seal")
"""The scripts a printed deck may be drawn in by default."""
ALL_SCRIPTS = SCRIPTS + ("nib", "flared")
"""Every script :func:`script_mask` draws."""


def skeleton(mask: np.ndarray) -> np.ndarray:
    """The morphological skeleton of a binary mask (0/255): the union, over erosions, of what an
    opening takes away.

    >>> m = np.zeros((20, 20), np.uint8); m[8:13, 2:18] = 255
    >>> s = skeleton(m); bool(s[10, 10]), int(s[8, 10])
    (True, 0)
    """
    binary = (mask > 127).astype(np.uint8) * 255
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    out = np.zeros_like(binary)
    while binary.any():
        eroded = cv2.erode(binary, cross)
        out |= cv2.subtract(binary, cv2.dilate(eroded, cross))
        binary = eroded
    return out


def round_pen(radius: int) -> np.ndarray:
    """A round pen's footprint, ``2 * radius + 1`` px across, for :func:`cv2.dilate`.

    >>> round_pen(1).shape
    (3, 3)
    """
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def round_strokes(mask: np.ndarray, width: float) -> np.ndarray:
    """The glyph redrawn with a round pen ``width`` px wide along its skeleton."""
    pen = round_pen(max(1, int(round(width / 2))))
    return cv2.GaussianBlur(cv2.dilate(skeleton(mask), pen), (0, 0), 0.6)


def thin_skeleton(mask: np.ndarray, prune: int = 0) -> np.ndarray:
    """A one-pixel skeleton of a binary mask (0/255), its spurs shorter than ``prune`` px cut off
    (a thick stroke's corners leave short ones).

    >>> m = np.zeros((20, 30), np.uint8); m[7:14, 3:27] = 255
    >>> s = thin_skeleton(m); int((s > 0).sum()) < 30, int((s[:, 15] > 0).sum())
    (True, 1)
    """
    from skimage.morphology import skeletonize  # lazy: only the scripts that trace a thin skeleton

    skel = skeletonize(mask > 127).astype(np.uint8) * 255
    for _ in range(prune):
        ends = stroke_ends(skel)
        if not ends.any():
            break
        skel = cv2.subtract(skel, ends)
    return skel


def nib_strokes(mask: np.ndarray, width: float, angle: float) -> np.ndarray:
    """The glyph redrawn along its skeleton with a flat pen ``width`` px across, held at ``angle``
    degrees: strokes across the pen's edge come out wide, strokes along it thin.

    >>> m = np.zeros((40, 40), np.uint8); m[18:22, 4:36] = 255; m[4:36, 18:22] = 255
    >>> out = nib_strokes(m, 8, 0.0) > 127
    >>> int(out[:, 10].sum()) < int(out[10, :].sum())  # the flat pen: a thin horizontal, a wide vertical
    True
    """
    length = max(3, int(round(width)))
    thick = max(1, int(round(width * 0.28)))
    size = length + 2
    pen = np.zeros((size, size), np.uint8)
    c = size // 2
    cv2.ellipse(pen, (c, c), (length // 2, max(0, thick // 2)), float(angle), 0, 360, 1, -1)
    return cv2.GaussianBlur(cv2.dilate(thin_skeleton(mask, prune=int(width // 2)), pen), (0, 0), 0.6)


def stroke_ends(skel: np.ndarray) -> np.ndarray:
    """The points of a skeleton (0/255) with one neighbour at most: where its strokes end.

    >>> s = np.zeros((9, 9), np.uint8); s[4, 2:7] = 255
    >>> [tuple(int(v) for v in p) for p in np.argwhere(stroke_ends(s) > 0)]
    [(4, 2), (4, 6)]
    """
    on = (skel > 0).astype(np.float32)
    neighbours = cv2.filter2D(on, -1, np.ones((3, 3), np.float32), borderType=cv2.BORDER_CONSTANT) - on
    return ((on > 0) & (neighbours <= 1)).astype(np.uint8) * 255


def flared_strokes(mask: np.ndarray, width: float, end: float) -> np.ndarray:
    """The glyph redrawn with thin round strokes ``width`` px wide, each stroke ending in a
    heavier round terminal ``end`` px across."""
    skel = thin_skeleton(mask, prune=int(end / 2))
    thin = cv2.dilate(skel, round_pen(max(1, int(width / 2))))
    blobs = cv2.dilate(stroke_ends(skel), round_pen(max(1, int(round(end / 2)))))
    return cv2.GaussianBlur(cv2.max(thin, blobs), (0, 0), 0.6)


def _reshape(mask: np.ndarray, sx: float, sy: float) -> np.ndarray:
    """The mask scaled by (sx, sy) about its centre, in a canvas of the same size."""
    n = mask.shape[0]
    M = np.float32([[sx, 0, (1 - sx) * n / 2], [0, sy, (1 - sy) * n / 2]])
    return cv2.warpAffine(mask, M, (mask.shape[1], n), flags=cv2.INTER_LINEAR)


def script_mask(mask: np.ndarray, kind: str, rng: np.random.Generator) -> np.ndarray:
    """A glyph mask (square, 0..255) drawn in script ``kind`` (one of :data:`SCRIPTS`)."""
    n = mask.shape[0]
    ink = float((mask > 127).sum())
    # a stroke's width: the glyph's ink over its skeleton's length
    length = max(1.0, float((skeleton(mask) > 0).sum()))
    width = float(np.clip(ink / length, n / 40, n / 9))
    if kind == "round":
        return round_strokes(mask, width * rng.uniform(0.9, 1.2))
    if kind == "clerical":
        wide = _reshape(mask, rng.uniform(1.12, 1.25), rng.uniform(0.74, 0.84))
        k = max(2, int(width * rng.uniform(0.5, 0.9)))
        return cv2.dilate(wide, np.ones((max(1, k // 3), k), np.uint8))  # horizontals heavier
    if kind == "seal":
        tall = _reshape(mask, rng.uniform(0.78, 0.88), rng.uniform(1.08, 1.16))
        amp = n * 0.03
        dx = cv2.GaussianBlur(rng.uniform(-1, 1, (n, n)).astype(np.float32), (0, 0), n / 5) * amp * 8
        dy = cv2.GaussianBlur(rng.uniform(-1, 1, (n, n)).astype(np.float32), (0, 0), n / 5) * amp * 8
        xs, ys = np.meshgrid(np.arange(n, dtype=np.float32), np.arange(n, dtype=np.float32))
        wandered = cv2.remap(tall, xs + dx, ys + dy, cv2.INTER_LINEAR)
        return round_strokes(wandered, max(width, n / 20) * rng.uniform(0.85, 1.05))
    if kind == "nib":
        return nib_strokes(mask, max(width, n / 16) * rng.uniform(1.3, 1.9), rng.uniform(-60, 60))
    if kind == "flared":
        return flared_strokes(mask, max(1.0, width * rng.uniform(0.5, 0.8)), width * rng.uniform(1.4, 2.2))
    raise ValueError(f"unknown script {kind!r} (known: {', '.join(ALL_SCRIPTS)})")
