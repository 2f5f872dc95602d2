"""Photos of a deck laid out in the enrolment grid, on the tables players use, with the truth.

``sisepai deck cut`` and ``sisepai deck add`` take a photo of one card of each kind in a grid (4
rows of 7, G W Y R by K A E R H C P, and a joker alone in a fifth row). This module makes such
photos from a deck's faces, on eight kinds of table a family plays on: felt, wood light and dark,
cloths of one colour (some close to a suit's paper: red cloth under the Red cards, lime under the
Green), a patterned tiled floor, and a dark blue table. A phone's view: a little perspective,
uneven light, noise and JPEG. Each photo comes with every card's true outline, so a cut can be
checked face by face.

>>> import numpy as np
>>> from sisepai.faces.deck import DeckFaces, FACE_CODES
>>> deck = DeckFaces({c: np.full((240, 70, 3), 230, np.uint8) for c in FACE_CODES})
>>> photo = grid_photo(deck, "green felt", seed=0, size=(800, 600))
>>> photo.image.shape, len(photo.outlines)
((600, 800, 3), 28)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

GRID_ROWS = "GWYR"
"""The grid's rows, top to bottom: one suit each."""
GRID_COLUMNS = "KAERHCP"
"""The grid's columns, left to right: one rank each."""
TABLE_KINDS = ("green felt", "medium wood", "white cloth", "red cloth", "dark wood", "dark blue",
               "tiled floor", "lime cloth")
"""The tables the photos are taken on."""


def grid_codes(joker: bool) -> list[list[str]]:
    """The card codes of the grid, row by row.

    >>> grid_codes(True)[0][:3], grid_codes(True)[-1]
    (['GK', 'GA', 'GE'], ['J'])
    """
    return [[f"{s}{r}" for r in GRID_COLUMNS] for s in GRID_ROWS] + ([["J"]] if joker else [])


@dataclass
class GridPhoto:
    """A grid photo (BGR, as a camera file gives) and each card's true outline (4x2 corners)."""

    image: np.ndarray
    outlines: dict[str, np.ndarray]


def _noise(rng: np.random.Generator, h: int, w: int, sigma: float) -> np.ndarray:
    return cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), sigma)


def table_surface(kind: str, rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A ``h x w`` RGB table of ``kind`` (one of :data:`TABLE_KINDS`)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    if kind in ("medium wood", "dark wood"):
        base = np.float32([150, 95, 55]) if kind == "medium wood" else np.float32([70, 42, 28])
        angle = rng.uniform(-0.2, 0.2)
        v = -xx * np.sin(angle) + yy * np.cos(angle)
        grain = np.sin((v + _noise(rng, h, w, 20) * 60) / rng.uniform(3, 6)) * 0.5 + 0.5
        img = base * (0.8 + 0.25 * grain + 0.04 * fine)[..., None]
    elif kind == "tiled floor":
        tile = int(rng.integers(60, 110))
        a, b = np.float32([205, 200, 190]), np.float32([120, 95, 80])
        checker = ((xx // tile + yy // tile) % 2)[..., None]
        img = a * checker + b * (1 - checker)
        img = img + _noise(rng, h, w, 3)[..., None] * 18
        img[(xx % tile < 3) | (yy % tile < 3)] = (70, 70, 70)  # grout
    else:
        base = {"green felt": (30, 105, 50), "white cloth": (235, 233, 226), "red cloth": (165, 40, 40),
                "dark blue": (25, 35, 80), "lime cloth": (150, 185, 70)}[kind]
        weave = np.sin(xx * 1.3) * np.sin(yy * 1.3) * 5 if "cloth" in kind else 0.0
        img = np.float32(base) + (_noise(rng, h, w, 12) * 25 + fine * 4 + weave)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def grid_photo(deck, table: str, seed: int = 0, size: tuple[int, int] = (1600, 1200), joker: bool | None = None,
               drop: tuple[str, ...] = (), tilt: float = 4.0, jpeg: int = 88) -> GridPhoto:
    """The deck's faces (:class:`~sisepai.faces.deck.DeckFaces`) in the grid on ``table``.

    Each card lies a little turned (up to ``tilt`` degrees), some upside down; the camera looks a
    little from the side; ``drop`` leaves cards out (to check what a cut says of a missing one).
    """
    joker = deck.has_joker if joker is None else joker
    return laid_out_photo(deck, grid_codes(joker), table, seed, size, drop, tilt, jpeg)


def laid_out_photo(deck, codes: list[list[str]], table: str, seed: int = 0, size: tuple[int, int] = (1600, 1200),
                   drop: tuple[str, ...] = (), tilt: float = 4.0, jpeg: int = 88) -> GridPhoto:
    """The deck's cards laid out in rows on ``table`` (``codes``: the rows, top to bottom, at most
    7 cards each), as :func:`grid_photo` lays the grid, e.g. a finished hand laid down meld by meld.
    A card laid twice has its second outline under ``CODE#2``, its third under ``CODE#3``.

    >>> import numpy as np
    >>> from sisepai.faces.deck import DeckFaces, FACE_CODES
    >>> deck = DeckFaces({c: np.full((240, 70, 3), 230, np.uint8) for c in FACE_CODES})
    >>> sorted(laid_out_photo(deck, [["GP", "GP", "GK"]], "medium wood", size=(800, 600)).outlines)
    ['GK', 'GP', 'GP#2']
    """
    if table not in TABLE_KINDS:
        raise ValueError(f"unknown table {table!r}; one of {', '.join(TABLE_KINDS)}")
    rng = np.random.default_rng([seed, TABLE_KINDS.index(table), 0x6121D])
    W, H = size
    rows = len(codes)
    # the cards fill most of the frame, as a player frames the grid
    card_h = min(0.86 * H / (rows + 0.35 * (rows - 1)), 0.86 * W / (7 + 0.5 * 6) * deck.aspect)
    card_w = card_h / deck.aspect
    gap_x, gap_y = card_w * rng.uniform(0.35, 0.6), card_h * rng.uniform(0.15, 0.35)
    grid_w, grid_h = 7 * card_w + 6 * gap_x, rows * card_h + (rows - 1) * gap_y
    x0, y0 = (W - grid_w) / 2, (H - grid_h) / 2
    img = table_surface(table, rng, W, H).astype(np.float32)
    outlines = {}
    shadow = np.zeros((H, W), np.float32)
    layers = []
    for r, row in enumerate(codes):
        for c, code in enumerate(row):
            if code in drop:
                continue
            cx = x0 + c * (card_w + gap_x) + card_w / 2 + rng.normal(0, card_w * 0.06)
            cy = y0 + r * (card_h + gap_y) + card_h / 2 + rng.normal(0, card_h * 0.03)
            angle = rng.uniform(-tilt, tilt) + (180.0 if rng.random() < 0.3 else 0.0)
            corners = cv2.boxPoints(((cx, cy), (card_w, card_h), angle)).astype(np.float32)
            copies = sum(1 for laid, _ in layers if laid.split("#")[0] == code)
            layers.append((f"{code}#{copies + 1}" if copies else code, corners))
            cv2.fillConvexPoly(shadow, np.int32(corners + card_w * 0.03), 1.0, cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, card_w * 0.04))
    img *= (1 - 0.3 * shadow)[..., None]
    for code, corners in layers:
        face = deck.faces[code.split("#")[0]].astype(np.float32)
        fh, fw = face.shape[:2]
        src = np.float32([[0, fh], [0, 0], [fw, 0], [fw, fh]])  # boxPoints' order: bottom-left first
        M = cv2.getPerspectiveTransform(src, corners)
        warped = cv2.warpPerspective(face, M, (W, H), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.ones((fh, fw), np.float32), M, (W, H))[..., None]
        img = img * (1 - mask) + warped * mask
        outlines[code] = corners
    # the phone: a little perspective, uneven light, noise, JPEG
    s = 0.04
    src = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
    dst = (src + rng.uniform(-s, s, (4, 2)) * (W, H)).astype(np.float32)
    P = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(img, P, (W, H), borderMode=cv2.BORDER_REFLECT)
    outlines = {k: cv2.perspectiveTransform(v[None], P)[0] for k, v in outlines.items()}
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    g = rng.uniform(-1, 1, 2)
    light = 1 + 0.15 * (g[0] * (xx / W - 0.5) + g[1] * (yy / H - 0.5)) * 2
    img = img * light[..., None] + rng.normal(0, 3, img.shape).astype(np.float32)
    rgb = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(rgb[..., ::-1]), [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    return GridPhoto(cv2.imdecode(buf, cv2.IMREAD_COLOR), outlines)
