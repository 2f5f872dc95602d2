"""The families of printed decks sold today, each drawn by its own code with its own ranges.

A printed training deck (:mod:`.printed`) belongs to one family with :data:`FAMILY_SHARE`'s chance.
A family sets what its printings share, and :func:`draw_face_family` paints what a plain face lacks:

- ``vietnamese`` (Tứ Sắc, Cantonese See Sek): a book, seal or rounded script of any size well
  inside the card, often a small word (福 祿 壽 …) between the two ends, often an inner frame, the
  far end printed turned; cards 1:2.9-1:4.2, soft papers;
- ``taiwanese`` (四色牌, 九支仔): heavy square glyphs that fill the card's width; black bars along
  both long edges with small light ornaments in them; a coin (a ring with a square hole) on the
  Generals; red ink on the yellow and red suits; an orange "red" suit; short cards, 1:2.8-1:3.6;
- ``singapore`` (Singapore and Malaysian printings): bold brush glyphs much larger than a book
  font sets them; red ink on white or yellow cards; orange for red; a maker's mark, a fish or a
  bird between the ends.

Every family has rounded corners. The scene adds what every plastic-coated deck shows on a table
(:func:`gloss`, :func:`bend_shading`) and heaps of cards (:func:`sisepai.datasets.scenes.scene.layout_heap`).

Every family's papers, borders and middles stay apart from the stand-in decks' held-out traits
(:mod:`.standin`: salmon, brick, deep and pale green, grey and cream white, ochre and lemon paper;
band, dashed and zigzag borders; flower and 東南西北中 middles). ``tests/datasets/design/test_families.py``
checks the papers against those boxes and that each family draws what it promises.

>>> rng = np.random.default_rng(5)
>>> fam = draw_family(rng, "taiwanese")
>>> fam["name"], fam["edge_bars"] > 0, fam["papers"]["R"] == fam["papers"]["R"]
('taiwanese', True, True)
"""

from __future__ import annotations

import cv2
import numpy as np

from sisepai.datasets.design.printed import hsv_colour

FAMILIES = ("vietnamese", "taiwanese", "singapore")
FAMILY_SHARE = 0.5
"""A printed training deck belongs to one of :data:`FAMILIES` with this chance."""

FAMILY_PAPERS: dict[str, dict[str, list[tuple[tuple[float, float], tuple[float, float], tuple[float, float]]]]] = {
    # family -> suit -> (hue degrees, saturation, value) boxes; none inside a stand-in (held-out) box
    "vietnamese": {
        "G": [((152, 175), (0.30, 0.60), (0.45, 0.75))],    # sea green
        "W": [((190, 260), (0.0, 0.06), (0.84, 1.0))],      # cool white
        "Y": [((44, 54), (0.45, 0.80), (0.80, 1.0))],       # warm yellow
        "R": [((338, 356), (0.35, 0.60), (0.80, 1.0))],     # pink red
    },
    "taiwanese": {
        "G": [((150, 172), (0.45, 0.85), (0.45, 0.78))],    # strong green
        "W": [((190, 260), (0.0, 0.05), (0.88, 1.0))],      # white
        "Y": [((44, 54), (0.60, 0.95), (0.85, 1.0))],       # yolk yellow
        "R": [((17, 27), (0.60, 0.92), (0.86, 1.0))],       # orange
    },
    "singapore": {
        "G": [((152, 172), (0.35, 0.75), (0.50, 0.80))],
        "W": [((190, 260), (0.0, 0.05), (0.88, 1.0))],
        "Y": [((44, 54), (0.50, 0.90), (0.85, 1.0))],
        "R": [((17, 27), (0.55, 0.90), (0.86, 1.0))],        # orange
    },
}
EMBLEMS = ("mark", "fish", "bird")
"""What a Singapore or Malaysian printing puts between the ends (no flower: that is a stand-in trait)."""
RED_INK = ((352, 368), (0.75, 1.0), (0.55, 0.85))
"""(hue, saturation, value) of the red ink families print on some suits (hue past 360 wraps)."""


def box_colour(rng: np.random.Generator, box) -> tuple[int, int, int]:
    (h0, h1), (s0, s1), (v0, v1) = box
    return hsv_colour(rng.uniform(h0, h1) % 360, rng.uniform(s0, s1), rng.uniform(v0, v1))


AS_FAMILIES_PRINT = {"frame_lines": 1, "frame_width": None, "bar_sides": "both", "bar_colour": "black",
                     "corner_marks": None}
"""The traits every family prints one way and a free design (:mod:`.free_designs`) varies: a frame of
one line ``w // 50`` thick (``frame_width`` None), black bars on both long edges, no corner marks."""


def draw_family(rng: np.random.Generator, name: str | None = None, without: str | None = None) -> dict:
    """The traits of one deck of family ``name`` (default: one drawn at random, never ``without``:
    a family left out of a candidate's training, to measure it on a printing it never saw).

    Every key is always present, so a deck's description is the same shape whatever its family:
    ``name``, ``papers``, ``red_ink`` (the suits printed in red ink and its colour), ``aspect``,
    ``corner``, ``char_scale``, ``char_offset``, ``stroke``, ``brush``, ``script``, ``inner_frame``,
    ``middle`` (``word``, ``coin``, or an emblem), ``edge_bars`` (a fraction of the width; 0: none)
    and ``bar_ornament``, and the traits every family prints one way (:data:`AS_FAMILIES_PRINT`).
    """
    name = name or str(rng.choice([f for f in FAMILIES if f != without]))
    if name not in FAMILIES:
        raise ValueError(f"unknown deck family {name!r} (known: {', '.join(FAMILIES)})")
    papers = {s: box_colour(rng, boxes[int(rng.integers(len(boxes)))]) for s, boxes in FAMILY_PAPERS[name].items()}
    red = box_colour(rng, RED_INK)
    out = {"name": name, "papers": papers, "red_ink": {"suits": "", "colour": red}, "edge_bars": 0.0,
           "bar_ornament": None, "inner_frame": 0.0, "script": None, "brush": 0.0, "middle": None,
           **AS_FAMILIES_PRINT}
    if name == "vietnamese":
        # drawn wide, so that the real tuning deck (the printing this family was first drawn from:
        # seal script, an inner frame, 1:3.2) is one point inside the family, not its centre
        out.update(aspect=rng.uniform(2.9, 4.2), corner=rng.uniform(0.04, 0.18), char_scale=rng.uniform(0.45, 0.85),
                   char_offset=rng.uniform(0.5, 0.64), stroke=int(rng.choice([-1, 0, 0, 1])),
                   script=str(rng.choice(["seal", "round"])) if rng.random() < 0.5 else None,
                   inner_frame=rng.uniform(0.04, 0.12) if rng.random() < 0.6 else 0.0,
                   middle="word" if rng.random() < 0.7 else None)
        if rng.random() < 0.3:
            out["red_ink"]["suits"] = "YR"
    elif name == "taiwanese":
        out.update(aspect=rng.uniform(2.8, 3.6), corner=rng.uniform(0.08, 0.2), char_scale=rng.uniform(0.86, 0.98),
                   char_offset=rng.uniform(0.5, 0.58), stroke=int(rng.choice([1, 2, 2])),
                   edge_bars=rng.uniform(0.05, 0.12), bar_ornament=str(rng.choice(["dots", "diamonds", "none"])),
                   middle="coin")
        out["red_ink"]["suits"] = str(rng.choice(["YR", "Y", "R", "YR"]))
    else:
        out.update(aspect=rng.uniform(3.1, 4.5), corner=rng.uniform(0.08, 0.2), char_scale=rng.uniform(0.9, 1.0),
                   char_offset=rng.uniform(0.5, 0.6), stroke=int(rng.choice([1, 1, 2])),
                   brush=rng.uniform(0.6, 1.0), middle=str(rng.choice(EMBLEMS)))
        out["red_ink"]["suits"] = str(rng.choice(["WY", "YR", "WYR", "Y"]))
    return out


def apply_family(style, family: dict) -> None:
    """Set a :class:`~sisepai.datasets.design.render.DeckStyle`'s shared choices to ``family``'s (in place):
    its papers, inks, proportions, corners and glyph size; the rest of the face is
    :func:`draw_face_family`'s."""
    style.palette.update(family["papers"])
    for suit in family["red_ink"]["suits"]:
        style.ink[suit] = tuple(family["red_ink"]["colour"])
    style.aspect = float(family["aspect"])
    style.corner = float(family["corner"])
    style.char_scale = float(family["char_scale"])
    style.char_offset = float(family["char_offset"])
    style.stroke = int(family["stroke"])
    style.both_ends = True
    style.ornament, style.stamp = 0, None
    style.frame = 0
    printed = style.printed
    printed["family"] = family
    printed["script"] = family["script"]
    printed["brush"] = family["brush"]
    printed["middle"] = "word" if family["middle"] == "word" else None
    printed["border"] = None
    printed["end_frame"] = False
    printed["far_end"] = "turned"


def draw_face_family(img: np.ndarray, family: dict, code: str, ink: tuple[int, int, int],
                     paper: tuple[int, int, int], mid_top: int, mid_bottom: int) -> None:
    """What ``family`` prints on the face of ``code`` besides its characters (RGBA, in place):
    an inner frame, black edge bars with their ornaments, a coin on the Generals, an emblem."""
    h, w = img.shape[:2]
    colour = tuple(int(v) for v in ink) + (255,)
    if family["inner_frame"]:
        inset = max(2, int(family["inner_frame"] * w))
        thick = max(1, int(family["frame_width"] * w)) if family["frame_width"] else max(1, w // 50)
        cv2.rectangle(img, (inset, inset), (w - 1 - inset, h - 1 - inset), colour, thick, cv2.LINE_AA)
        if family["frame_lines"] == 2:
            inner = inset + thick + max(2, w // 25)
            cv2.rectangle(img, (inner, inner), (w - 1 - inner, h - 1 - inner), colour, 1, cv2.LINE_AA)
    if family["edge_bars"]:
        _edge_bars(img, family, colour, paper)
    if family["corner_marks"]:
        _corner_marks(img, family["corner_marks"], colour)
    middle = family["middle"]
    if middle in (None, "word") or mid_bottom - mid_top < w * 0.5 or code == "J":
        return
    cx, cy = w // 2, (mid_top + mid_bottom) // 2
    c = tuple(int(v) for v in ink) + (255,)
    r = max(3, int(w * 0.22))
    if middle == "coin":
        if code[1] != "K":
            return
        gold = (196, 150, 40, 255)
        cv2.circle(img, (cx, cy), r, gold, -1, cv2.LINE_AA)
        cv2.circle(img, (cx, cy), r, c, 1, cv2.LINE_AA)
        q = max(1, r // 3)
        cv2.rectangle(img, (cx - q, cy - q), (cx + q, cy + q), tuple(int(v) for v in paper) + (255,), -1)
    elif middle == "mark":
        half = max(3, int(w * 0.18))
        cv2.rectangle(img, (cx - half, cy - 2 * half), (cx + half, cy + 2 * half), (190, 30, 30, 255), 1, cv2.LINE_AA)
        for k in (-1, 1):
            cv2.line(img, (cx - half // 2, cy + k * half), (cx + half // 2, cy + k * half), (190, 30, 30, 255), 1,
                     cv2.LINE_AA)
    elif middle == "fish":
        cv2.ellipse(img, (cx, cy), (max(2, r // 2), r), 0, 0, 360, c, -1, cv2.LINE_AA)
        tail = np.int32([[cx, cy + r - 1], [cx - r // 2, cy + r + r // 2], [cx + r // 2, cy + r + r // 2]])
        cv2.fillConvexPoly(img, tail, c, cv2.LINE_AA)
    else:  # a bird: a body and two swept wings
        cv2.ellipse(img, (cx, cy), (max(2, r // 3), max(3, r * 2 // 3)), 0, 0, 360, c, -1, cv2.LINE_AA)
        for s in (-1, 1):
            wing = np.int32([[cx, cy], [cx + s * r, cy - r // 2], [cx + s * r // 2, cy + r // 4]])
            cv2.fillConvexPoly(img, wing, c, cv2.LINE_AA)


def gloss(img: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A plastic-coated card under a lamp (RGBA in, a copy out): a soft specular streak across the
    face, whitening the paper and the ink alike, ``strength`` 0..1 at its brightest."""
    h, w = img.shape[:2]
    out = img.copy()
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, np.pi)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    d = (xs - cx) * np.cos(a) + (ys - cy) * np.sin(a)
    along = (xs - cx) * -np.sin(a) + (ys - cy) * np.cos(a)
    width = rng.uniform(0.08, 0.35) * w
    length = rng.uniform(0.5, 2.0) * w
    spot = np.exp(-(d / width) ** 2 - (along / length) ** 2) * strength
    rgb = out[..., :3].astype(np.float32)
    out[..., :3] = np.clip(rgb + (255 - rgb) * spot[..., None], 0, 255).astype(np.uint8)
    return out


def _edge_bars(img: np.ndarray, family: dict, ink: tuple[int, ...], paper: tuple[int, int, int]) -> None:
    """Bars along one or both long edges (black or in the ink), with light ornaments in them."""
    h, w = img.shape[:2]
    bar = max(2, int(round(family["edge_bars"] * w)))
    colour = ink[:3] if family["bar_colour"] == "ink" else (20, 18, 16)
    sides = family["bar_sides"]
    centres = [x for x, side in ((bar // 2, "left"), (w - 1 - bar // 2, "right")) if sides in (side, "both")]
    if sides in ("left", "both"):
        img[:, :bar, :3] = colour
    if sides in ("right", "both"):
        img[:, w - bar:, :3] = colour
    light = tuple(int(c) for c in paper) + (255,)
    step = max(4, int(w * 0.35))
    if family["bar_ornament"] == "dots":
        for y in range(step // 2, h, step):
            for x in centres:
                cv2.circle(img, (x, y), max(1, bar // 3), light, -1, cv2.LINE_AA)
    elif family["bar_ornament"] == "diamonds":
        for y in range(step // 2, h, step):
            for x in centres:
                r = max(1, bar // 2 - 1)
                cv2.fillConvexPoly(img, np.int32([[x, y - r], [x + r, y], [x, y + r], [x - r, y]]), light, cv2.LINE_AA)


def _corner_marks(img: np.ndarray, kind: str, ink: tuple[int, ...]) -> None:
    """Marks in the four corners, inside the rounded edge: brackets, dots or small triangles."""
    h, w = img.shape[:2]
    m, size = max(2, w // 10), max(3, w // 7)
    for x, dx in ((m, 1), (w - 1 - m, -1)):
        for y, dy in ((m, 1), (h - 1 - m, -1)):
            if kind == "brackets":
                cv2.line(img, (x, y), (x + dx * size, y), ink, max(1, w // 60), cv2.LINE_AA)
                cv2.line(img, (x, y), (x, y + dy * size), ink, max(1, w // 60), cv2.LINE_AA)
            elif kind == "dots":
                cv2.circle(img, (x + dx * size // 3, y + dy * size // 3), max(1, size // 4), ink, -1, cv2.LINE_AA)
            else:
                tri = np.int32([[x, y], [x + dx * size, y], [x, y + dy * size]])
                cv2.fillConvexPoly(img, tri, ink, cv2.LINE_AA)


def bend_shading(img: np.ndarray, rng: np.random.Generator, depth: float) -> np.ndarray:
    """A bent card (RGBA in, a copy out): light that falls off across the curve, ``depth`` 0..1."""
    h, w = img.shape[:2]
    out = img.copy()
    x = np.linspace(-1, 1, w, dtype=np.float32)
    phase = rng.uniform(-0.8, 0.8)
    shade = 1 - depth * 0.35 * (np.sin((x + phase) * np.pi / 2) + 1) / 2
    out[..., :3] = (out[..., :3].astype(np.float32) * shade[None, :, None]).astype(np.uint8)
    return out
