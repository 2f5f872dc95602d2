"""Printed-deck traits the generator draws in training: what real printings add to a plain face.

Real decks are printed, not typeset. Their paper comes in brick-ish crimsons, roses, sage and
teal greens, mustard and straw yellows, ivory and blue-grey whites; their borders are dotted,
bracketed or roped; a seal, a medallion or a vine sits between the two ends; the ink bleeds or
drops out, the paper colour is printed off register, and a brush thickens one stroke and thins
the next. Some decks abbreviate 卒 to 卆.

Every trait here is **disjoint from the stand-in decks' held-out traits** (:mod:`.standin`:
salmon, brick, deep and pale green, grey and cream white, ochre and lemon paper; band, dashed and
zigzag borders; flower and 東南西北中 middles; ink shadows, fading and halftone), so the
stand-in test stays a test of traits training never drew. ``tests/datasets/design/test_printed.py``
checks that no printed paper colour falls in a held-out colour box.

>>> rng = np.random.default_rng(3)
>>> traits = draw_printed_traits(rng)
>>> sorted(traits)
['border', 'brush', 'end_frame', 'far_end', 'flaw', 'middle', 'papers', 'script', 'soldier', 'word_mark']
"""

from __future__ import annotations

import cv2
import numpy as np

from sisepai.datasets.design.scripts import SCRIPTS

PRINTED_PAPERS: dict[str, list[tuple[tuple[float, float], tuple[float, float], tuple[float, float]]]] = {
    # suit -> (hue degrees, saturation, value) boxes of printed paper, none inside a held-out box
    "G": [((156, 175), (0.45, 0.85), (0.30, 0.45)),   # dark teal green
          ((148, 170), (0.15, 0.30), (0.60, 0.85)),   # sage
          ((64, 78), (0.40, 0.65), (0.36, 0.52))],    # under a warm white balance: olive
    "W": [((190, 250), (0.02, 0.08), (0.66, 0.80)),   # blue-grey white
          ((56, 66), (0.10, 0.16), (0.90, 1.00)),     # ivory
          ((255, 290), (0.06, 0.14), (0.74, 0.90))],  # under a cool white balance: lavender
    "Y": [((41, 46), (0.55, 0.90), (0.60, 0.72)),     # mustard
          ((44, 54), (0.30, 0.48), (0.88, 1.00))],    # straw
    "R": [((340, 352), (0.20, 0.33), (0.85, 1.00)),   # rose
          ((345, 356), (0.50, 0.68), (0.50, 0.66)),   # dark crimson
          ((15, 26), (0.50, 0.78), (0.30, 0.46))],    # in dim warm light: brown
}
BORDERS = ("dots", "brackets", "rope")
MIDDLES = ("seal", "medallion", "vine", "word")
FLAWS = ("bleed", "dropout", "paper_shift")
SEAL_GLYPHS = "福祿壽喜財吉春"
WORD_GLYPHS = "福祿壽富貴榮華"
"""The small word some decks print between the ends, with dots or stars around it."""
PAPER_SHARE = 0.35
"""Each suit of a printed deck takes a printed paper colour with this chance."""


def hsv_colour(h: float, s: float, v: float) -> tuple[int, int, int]:
    """An RGB colour from HSV with hue in degrees and s, v in 0..1.

    >>> hsv_colour(0, 0, 1)
    (255, 255, 255)
    """
    px = np.uint8([[[int(h / 2) % 180, int(s * 255), int(v * 255)]]])
    r, g, b = cv2.cvtColor(px, cv2.COLOR_HSV2RGB)[0, 0]
    return int(r), int(g), int(b)


def printed_paper(rng: np.random.Generator, suit: str) -> tuple[int, int, int]:
    """One printed paper colour for ``suit`` (G, W, Y or R)."""
    boxes = PRINTED_PAPERS[suit]
    (h0, h1), (s0, s1), (v0, v1) = boxes[int(rng.integers(len(boxes)))]
    return hsv_colour(rng.uniform(h0, h1) % 360, rng.uniform(s0, s1), rng.uniform(v0, v1))


SCRIPT_SHARE = 0.35
"""The share of printed decks (beyond the families and free designs) drawn in a script."""


def draw_printed_traits(rng: np.random.Generator, scripts: tuple[str, ...] | None = None,
                        script_share: float | None = None) -> dict:
    """The printed traits of one deck: each present about half the time (``None`` when absent);
    a script (:mod:`.scripts`) from ``scripts`` (default :data:`~.scripts.SCRIPTS`) on
    ``script_share`` of the decks (default :data:`SCRIPT_SHARE`)."""
    scripts = scripts or SCRIPTS
    script_share = SCRIPT_SHARE if script_share is None else script_share
    return {
        "papers": {s: printed_paper(rng, s) for s in "GWYR" if rng.random() < PAPER_SHARE},
        "border": str(rng.choice(BORDERS)) if rng.random() < 0.45 else None,
        "middle": str(rng.choice(MIDDLES)) if rng.random() < 0.4 else None,
        "flaw": str(rng.choice(FLAWS)) if rng.random() < 0.45 else None,
        "brush": float(rng.uniform(0.3, 1.0)) if rng.random() < 0.3 else 0.0,
        "soldier": "卆" if rng.random() < 0.25 else None,
        # drawn after the traits above, so a seed's earlier traits stay what they were
        "script": str(rng.choice(scripts)) if rng.random() < script_share else None,
        "end_frame": bool(rng.random() < 0.25),
        "far_end": "upright" if rng.random() < 0.15 else "turned",
        "word_mark": str(rng.choice(("dots", "stars"))),
    }


def draw_border(img: np.ndarray, kind: str, colour: tuple[int, int, int]) -> None:
    """A printed border inside the card's edge: a row of dots, corner brackets, or a rope (two
    lines with ticks between)."""
    h, w = img.shape[:2]
    inset = max(2, w // 12)
    c = tuple(colour) + (255,)
    if kind == "dots":
        step, r = max(4, w // 7), max(1, w // 30)
        for x in range(inset, w - inset + 1, step):
            for y in (inset, h - 1 - inset):
                cv2.circle(img, (x, y), r, c, -1, cv2.LINE_AA)
        for y in range(inset, h - inset + 1, step):
            for x in (inset, w - 1 - inset):
                cv2.circle(img, (x, y), r, c, -1, cv2.LINE_AA)
    elif kind == "brackets":
        arm = max(4, w // 4)
        for x, dx in ((inset, 1), (w - 1 - inset, -1)):
            for y, dy in ((inset, 1), (h - 1 - inset, -1)):
                cv2.line(img, (x, y), (x + dx * arm, y), c, max(1, w // 40), cv2.LINE_AA)
                cv2.line(img, (x, y), (x, y + dy * arm), c, max(1, w // 40), cv2.LINE_AA)
    elif kind == "rope":
        gap = max(2, w // 24)
        for d in (0, gap):
            cv2.rectangle(img, (inset + d, inset + d), (w - 1 - inset - d, h - 1 - inset - d), c, 1, cv2.LINE_AA)
        step = max(3, w // 10)
        for y in range(inset, h - inset, step):
            for x in (inset, w - 1 - inset - gap):
                cv2.line(img, (x, y), (x + gap, y + gap), c, 1, cv2.LINE_AA)
    else:
        raise ValueError(f"unknown printed border {kind!r} (known: {', '.join(BORDERS)})")


def draw_middle(img: np.ndarray, kind: str, top: int, bottom: int, ink: tuple[int, int, int],
                paper: tuple[int, int, int], glyph_mask: np.ndarray | None = None, mark: str = "dots") -> None:
    """An ornament between the two ends (rows ``top``..``bottom``): a filled seal with a glyph
    reversed out of it (``glyph_mask``), a medallion of rings and spokes, a vine with leaves, or a
    small word (``glyph_mask``) printed in ink with ``mark`` (dots or stars) above and below."""
    w = img.shape[1]
    if bottom - top < w * 0.6:
        return
    cx, cy = w // 2, (top + bottom) // 2
    if kind == "seal":
        red = (190, 30, 30, 255)
        half = max(3, int(w * 0.24))
        cv2.rectangle(img, (cx - half, cy - half), (cx + half, cy + half), red, -1)
        if glyph_mask is not None:
            m = cv2.resize(glyph_mask, (2 * half - 2, 2 * half - 2), interpolation=cv2.INTER_AREA)
            y0, x0 = cy - half + 1, cx - half + 1
            a = (m.astype(np.float32) / 255)[..., None]
            roi = img[y0:y0 + m.shape[0], x0:x0 + m.shape[1], :3].astype(np.float32)
            img[y0:y0 + m.shape[0], x0:x0 + m.shape[1], :3] = (roi * (1 - a) + np.float32(paper) * a).astype(np.uint8)
    elif kind == "medallion":
        r = max(4, int(w * 0.3))
        for k in (1.0, 0.7, 0.4):
            cv2.circle(img, (cx, cy), max(2, int(r * k)), tuple(ink) + (255,), 1, cv2.LINE_AA)
        for a in np.linspace(0, np.pi, 4, endpoint=False):
            dx, dy = int(r * np.cos(a)), int(r * np.sin(a))
            cv2.line(img, (cx - dx, cy - dy), (cx + dx, cy + dy), tuple(ink) + (255,), 1, cv2.LINE_AA)
    elif kind == "vine":
        ys = np.arange(top + w // 4, bottom - w // 4)
        if len(ys) < 2:
            return
        xs = cx + (w * 0.18) * np.sin((ys - ys[0]) / max(4.0, w * 0.35))
        cv2.polylines(img, [np.int32(np.stack([xs, ys], 1))], False, tuple(ink) + (255,), 1, cv2.LINE_AA)
        for k in range(0, len(ys), max(4, w // 3)):
            axes = (max(2, w // 12), max(1, w // 24))
            cv2.ellipse(img, (int(xs[k]) + (axes[0] if k % 2 else -axes[0]), int(ys[k])), axes, 30, 0, 360,
                        (60, 130, 60, 255), -1, cv2.LINE_AA)
    elif kind == "word":
        c = tuple(ink) + (255,)
        if glyph_mask is not None:
            side = max(4, int(w * 0.42))
            m = cv2.resize(glyph_mask, (side, side), interpolation=cv2.INTER_AREA)
            y0, x0 = cy - side // 2, cx - side // 2
            a = (m.astype(np.float32) / 255)[..., None]
            roi = img[y0:y0 + side, x0:x0 + side, :3].astype(np.float32)
            img[y0:y0 + side, x0:x0 + side, :3] = (roi * (1 - a) + np.float32(ink) * a).astype(np.uint8)
        r = max(1, w // 16)
        for y in (cy - int(w * 0.42), cy + int(w * 0.42)):
            if mark == "stars":
                draw_star(img, (cx, y), max(2, w // 9), c)
            else:
                for x in (cx - 2 * r - 1, cx + 2 * r + 1):
                    cv2.circle(img, (x, y), r, c, -1, cv2.LINE_AA)
    else:
        raise ValueError(f"unknown printed middle {kind!r} (known: {', '.join(MIDDLES)})")


def draw_star(img: np.ndarray, centre: tuple[int, int], radius: int, colour: tuple[int, ...]) -> None:
    """A filled five-pointed star of ``radius`` px at ``centre``."""
    a = np.linspace(-np.pi / 2, 1.5 * np.pi, 10, endpoint=False)
    r = np.where(np.arange(10) % 2 == 0, radius, radius * 0.42)
    pts = np.stack([centre[0] + r * np.cos(a), centre[1] + r * np.sin(a)], 1)
    cv2.fillPoly(img, [np.int32(np.round(pts))], colour, cv2.LINE_AA)


def brush_mask(mask: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
    """A glyph mask as a brush would print it: strokes thicker in some places, thinner in others
    (a smooth random field chooses between a dilated and an eroded mask)."""
    n = mask.shape[0]
    k = max(2, n // 14)
    thick = cv2.dilate(mask, np.ones((k, k), np.uint8))
    thin = cv2.erode(mask, np.ones((max(2, k // 2), max(2, k // 2)), np.uint8))
    if thin.sum() < 0.6 * mask.sum():  # a light face loses its strokes to erosion: keep them
        thin = mask
    field = cv2.GaussianBlur(rng.normal(0, 1, (n, n)).astype(np.float32), (0, 0), n / 6)
    field = np.clip(0.5 + strength * field / (field.std() + 1e-6), 0, 1)
    return (thick * field + thin * (1 - field)).astype(np.uint8)


def abbreviated_soldier(size: int, render) -> np.ndarray:
    """卆, the abbreviated 卒, built from 九 over 十 when a font lacks it: ``render(char, size)``
    gives a square glyph mask. The two parts share one ``size``-square mask."""
    upper = render("九", size)
    lower = render("十", size)
    n = upper.shape[0]
    out = np.zeros_like(upper)
    top_h, low_h, low_w = int(n * 0.56), int(n * 0.52), int(n * 0.8)
    out[:top_h] = cv2.resize(upper, (n, top_h), interpolation=cv2.INTER_AREA)
    low = cv2.resize(lower, (low_w, low_h), interpolation=cv2.INTER_AREA)
    x0 = (n - low_w) // 2
    out[n - low_h:, x0:x0 + low_w] = np.maximum(out[n - low_h:, x0:x0 + low_w], low)
    return out


def print_flaw(img: np.ndarray, kind: str, paper: tuple[int, int, int], rng: np.random.Generator) -> None:
    """A printing flaw over a face (RGBA, in place): ink that bleeds into the paper, ink that drops
    out in specks, or the paper colour printed off register (a pale sliver along two edges)."""
    h, w = img.shape[:2]
    rgb = img[..., :3]
    ink = np.linalg.norm(rgb.astype(np.float32) - np.float32(paper), axis=2) > 60
    if kind == "bleed":
        grown = cv2.dilate(ink.astype(np.uint8), np.ones((2, 2), np.uint8)).astype(bool) & ~ink
        if ink.any():
            colour = rgb[ink].mean(axis=0)
            rgb[grown] = (rgb[grown] * 0.45 + colour * 0.55).astype(np.uint8)
        img[..., :3] = cv2.GaussianBlur(rgb, (0, 0), 0.7)
    elif kind == "dropout":
        specks = (rng.random((h, w)) < 0.06) & ink
        rgb[specks] = (rgb[specks] * 0.3 + np.float32(paper) * 0.7).astype(np.uint8)
    elif kind == "paper_shift":
        dx, dy = int(rng.integers(1, max(2, w // 14))), int(rng.integers(1, max(2, w // 10)))
        pale = (rgb.astype(np.float32) * 0.25 + 255 * 0.75).astype(np.uint8)
        rgb[:dy] = np.where(ink[:dy, :, None], rgb[:dy], pale[:dy])
        rgb[:, :dx] = np.where(ink[:, :dx, None], rgb[:, :dx], pale[:, :dx])
    else:
        raise ValueError(f"unknown print flaw {kind!r} (known: {', '.join(FLAWS)})")
