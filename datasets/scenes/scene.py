"""Scenes: cards laid out on a table (``table``), held in fans (``fan``) or laid down as a finished
hand (``hand``), with clutter, seen through a :class:`~.camera.Camera`.

A scene is built in *table-plane* coordinates (pixels, centred on the frame centre), projected
by the camera's homography, and labelled from a z-buffer, so every label knows how much of its
card and of each character is visible.

**Label rule.** A card gets a detection label only when it is face up and at least
:data:`LABEL_MIN_CHAR_VISIBLE` (half) of one of its characters is visible in the frame. A card
whose characters are hidden (under another card, a cup, a hand, or outside the frame) is still
listed in the JSON ground truth, with ``labelled: false``, but no label asks a model to read it.

>>> scene = make_scene(seed=1, index=0, layout="table", size=(640, 360))
>>> scene.image.shape, scene.layout
((360, 640, 3), 'table')
>>> all(0.0 <= c["char_visible"] <= 1.0 for c in scene.cards)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from sisepai.datasets.design.deck_faces import printed_face
from sisepai.datasets.design.families import bend_shading, gloss
from sisepai.datasets.design.fonts import font_bank, load_font
from sisepai.datasets.design.render import DeckStyle, render_back, render_face
from sisepai.datasets.scenes.backgrounds import background
from sisepai.datasets.scenes.camera import Camera
from sisepai.datasets.scenes.held import DISTANT_LABEL_MIN, draw_hand, layout_distant, layout_heap, layout_held
from sisepai.datasets.scenes.phone import depth_of_field, phone_look
from sisepai.datasets.scenes.placed import Laid, Placed, deal_codes
from sisepai.datasets.scenes.spec import LAYOUTS, SceneSpec
from sisepai.engine import is_winning
from sisepai.engine.cards import CARD_CODES, END_FRACTION
from sisepai.engine.melds import all_melds

ALL_LAYOUTS = LAYOUTS + ("heap", "held", "distant")
"""Every layout the generator knows: ``heap`` lays cards in a pile, as a player tips them out,
``held`` a tight fan held in a player's hand, and ``distant`` such fans seen small from across the
table (:mod:`.held`)."""
HEAP_SURFACES = ("wood", "felt", "cloth", "plastic")
"""The surfaces a heap is tipped out on."""
LABEL_MIN_CHAR_VISIBLE = 0.5
"""A card is labelled only if at least this fraction of one of its characters is visible."""
GENERATOR_VERSION = "1.11"
PLAIN_BACKGROUND = (255, 0, 255)

CLUTTER_TEXT = "中國国人大天上下日月山水火木金土東西南北發发白紅红綠绿黃黄黑一二三四五六七八九十百千萬万元福壽"


@dataclass
class Scene:
    image: np.ndarray  # RGB uint8
    cards: list[dict]
    layout: str
    style: DeckStyle
    camera: Camera
    clutter: list[dict] = field(default_factory=list)

    def labelled(self) -> list[dict]:
        return [c for c in self.cards if c["labelled"]]


# --- layouts ----------------------------------------------------------------------------------

def winning_hand_melds(rng: np.random.Generator) -> list[list[str]]:
    """A real winning hand (21 cards, valid melds, within the deck's copies), as melds."""
    melds = all_melds()
    pyrng = random.Random(int(rng.integers(2**31)))
    while True:
        counts = [0] * 29
        out: list[list[str]] = []
        size = 0
        for _ in range(300):
            if size == 21:
                hand = [c for m in out for c in m]
                assert is_winning(hand)
                return out
            m = pyrng.choice(melds)
            if size + len(m) > 21 or any(counts[i] + m.cards.count(i) > (5 if i == 28 else 4) for i in set(m.cards)):
                continue
            for i in m.cards:
                counts[i] += 1
            size += len(m)
            out.append(m.codes)


def _row(rng, codes_groups, start, direction, angle, cw, aspect, zone, meld_base, gap_scale=1.0, cascade=False):
    """Lay groups of cards along ``direction`` from ``start``; returns Placed cards."""
    out = []
    pos = np.float32(start)
    d = np.float32(direction) / np.linalg.norm(direction)
    across = np.float32([-d[1], d[0]])
    for g, group in enumerate(codes_groups):
        for k, code in enumerate(group):
            jitter = rng.normal(0, 0.05 * cw, 2)
            if cascade:
                p = pos + across * (k * cw * aspect * rng.uniform(0.22, 0.3)) + d * (k * cw * rng.uniform(0.0, 0.15))
            else:
                p = pos + d * (k * cw * rng.uniform(0.62, 1.08))
            out.append(Placed(code, float(p[0] + jitter[0]), float(p[1] + jitter[1]),
                              angle + float(rng.normal(0, 3)), cw, zone, None if meld_base is None else meld_base + g))
        n = len(group)
        pos = pos + d * (cw * (n * 0.95 + rng.uniform(0.3, 1.2) * gap_scale))
    return out


def layout_table(rng: np.random.Generator, w: int, h: int, aspect: float) -> Laid:
    """Draw pile, a shown card, each seat's exposed melds and discards."""
    ch = h * rng.uniform(0.15, 0.27)
    cw = ch / aspect
    cards: list[Placed] = []
    # face-down draw pile, a little fanned
    pcx, pcy = rng.uniform(-0.12, 0.12) * w, rng.uniform(-0.1, 0.1) * h
    pile_angle = rng.uniform(0, 180)
    spread = rng.uniform(0, 0.25) * cw
    for k in range(int(rng.integers(5, 16))):
        a = np.radians(pile_angle)
        cards.append(Placed(None, pcx + k * spread * np.cos(a) + rng.normal(0, 1), pcy + k * spread * np.sin(a),
                            pile_angle + rng.normal(0, 4), cw, "pile"))
    codes = iter(deal_codes(rng, 80))
    # the freshly shown card beside the pile
    cards.append(Placed(next(codes), pcx + rng.choice([-1, 1]) * cw * rng.uniform(1.8, 3.0),
                        pcy + rng.uniform(-0.4, 0.4) * ch, rng.uniform(-30, 30) + rng.choice([0, 90, 180]), cw, "center"))
    meld_id = 0
    seats = {"S": (0, 1), "N": (0, -1), "E": (1, 0), "W": (-1, 0)}
    for seat, (sx, sy) in seats.items():
        if rng.random() < 0.15:
            continue
        inward = np.float32([-sx, -sy])
        along = np.float32([1, 0]) if sx == 0 else np.float32([0, 1])
        angle = {"S": 0.0, "N": 180.0, "E": -90.0, "W": 90.0}[seat]
        edge = np.float32([sx * (w / 2 - ch * 0.62), sy * (h / 2 - ch * 0.62)])
        n_melds = int(rng.integers(0, 5))
        groups = [_sample_meld(rng) for _ in range(n_melds)]
        if groups:
            length = sum(len(g) for g in groups) * cw * 1.1
            start = edge - along * length / 2 + along * rng.normal(0, cw)
            cards += _row(rng, groups, start, along, angle, cw, aspect, seat, meld_id)
            meld_id += len(groups)
        n_disc = int(rng.integers(0, 7))
        if n_disc:
            start = edge + inward * ch * rng.uniform(1.05, 1.4) - along * n_disc * cw * 0.55
            cards += _row(rng, [[next(codes)] for _ in range(n_disc)], start, along, angle + rng.normal(0, 4),
                          cw, aspect, seat, None, gap_scale=0.3)
    return Laid(cards)


def _sample_meld(rng: np.random.Generator) -> list[str]:
    melds = [m for m in all_melds() if len(m) >= 2]
    return melds[int(rng.integers(len(melds)))].codes


def layout_fan(rng: np.random.Generator, w: int, h: int, aspect: float) -> Laid:
    """One or two hands of cards held in fans, heavily overlapped."""
    cards: list[Placed] = []
    n_fans = 1 if rng.random() < 0.75 else 2
    for f in range(n_fans):
        ch = h * rng.uniform(0.3, 0.6) / (1.0 if n_fans == 1 else 1.25)
        cw = ch / aspect
        n = int(rng.integers(8, 22))
        px = rng.uniform(-0.25, 0.25) * w + (0 if n_fans == 1 else (-0.25 + 0.5 * f) * w)
        py = rng.uniform(0.0, 0.3) * h
        total = rng.uniform(35, 110)
        base = rng.uniform(-25, 25) + (180 if rng.random() < 0.1 else 0)
        face_down = rng.random() < 0.15  # an opponent's hand, seen from behind
        codes = deal_codes(rng, n)
        radius_jitter = rng.uniform(0, 0.12)
        for k, code in enumerate(codes):
            theta = base - total / 2 + total * k / max(n - 1, 1) + rng.normal(0, 0.8)
            a = np.radians(theta)
            r = ch * (0.5 - rng.uniform(0.02, 0.12) + rng.normal(0, radius_jitter))
            cx = px + r * np.sin(a)
            cy = py - r * np.cos(a)
            cards.append(Placed(None if face_down else code, float(cx), float(cy), float(theta), cw,
                                f"fan{f}"))
    return Laid(cards)


def layout_hand(rng: np.random.Generator, w: int, h: int, aspect: float) -> Laid:
    """A finished 21-card winning hand laid down in melds (rows, or cascades showing the ends)."""
    melds = winning_hand_melds(rng)
    ch = h * rng.uniform(0.22, 0.42)
    cw = ch / aspect
    cascade = rng.random() < 0.4
    rows = 1 if cascade else int(rng.integers(1, 3))
    per_row = int(np.ceil(len(melds) / rows))
    angle = float(rng.choice([0, 0, 0, 90, 180, -90]) + rng.normal(0, 6))
    cards: list[Placed] = []
    for r in range(rows):
        groups = melds[r * per_row:(r + 1) * per_row]
        row_len = sum(len(g) for g in groups) * cw * (0.9 if not cascade else 0.5) + len(groups) * cw * 0.8
        a = np.radians(angle)
        along = np.float32([np.cos(a), np.sin(a)])
        down = np.float32([-np.sin(a), np.cos(a)])
        offset = (r - (rows - 1) / 2) * ch * 1.1
        start = -along * row_len / 2 + down * offset + np.float32(rng.normal(0, 0.04, 2) * [w, h])
        cards += _row(rng, groups, start, along, angle, cw, aspect, "hand", r * 100, cascade=cascade)
    return Laid(cards)


LAYOUT_FUNCS = {"table": layout_table, "fan": layout_fan, "hand": layout_hand, "heap": layout_heap, "held": layout_held,
                "distant": layout_distant}
LABEL_MIN_BY_LAYOUT = {"distant": DISTANT_LABEL_MIN}
"""Layouts whose cards are labelled from a smaller share of a character than
:data:`LABEL_MIN_CHAR_VISIBLE`."""


# --- clutter ----------------------------------------------------------------------------------

def _draw_clutter(img: np.ndarray, idmap: np.ndarray, rng: np.random.Generator, style: DeckStyle,
                  scale: float, on_top: bool) -> list[dict]:
    h, w = img.shape[:2]
    items = []
    n = int(rng.integers(0, 5)) if not on_top else int(rng.random() < 0.35)
    for _ in range(n):
        kind = str(rng.choice(["coin", "chip", "cup", "paper", "poker_back", "hand"] if on_top
                              else ["coin", "chip", "cup", "paper", "poker_back"]))
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        mask = np.zeros((h, w), np.uint8)
        if kind in ("coin", "chip"):
            r = int(scale * rng.uniform(0.4, 0.9))
            col = (rng.uniform(150, 220), rng.uniform(120, 180), rng.uniform(40, 90)) if kind == "coin" \
                else tuple(rng.uniform(20, 235, 3))
            cv2.circle(mask, (x, y), r, 255, -1)
            cv2.circle(img, (x, y), r, tuple(float(c) for c in col), -1, cv2.LINE_AA)
            cv2.circle(img, (x, y), int(r * 0.7), tuple(float(c) * 0.8 for c in col), 2, cv2.LINE_AA)
        elif kind == "cup":
            r = int(scale * rng.uniform(1.2, 2.2))
            col = tuple(float(c) for c in rng.uniform(30, 240, 3))
            cv2.circle(mask, (x, y), r, 255, -1)
            cv2.circle(img, (x, y), r, col, -1, cv2.LINE_AA)
            cv2.circle(img, (x, y), int(r * 0.8), tuple(c * 0.5 for c in col), -1, cv2.LINE_AA)
        elif kind == "paper":
            pw, ph = int(scale * rng.uniform(2, 4)), int(scale * rng.uniform(2.5, 5))
            rect = cv2.boxPoints(((x, y), (pw, ph), float(rng.uniform(0, 180)))).astype(np.int32)
            cv2.fillConvexPoly(mask, rect, 255)
            paper = np.full_like(img, int(rng.uniform(200, 250)))
            from PIL import Image, ImageDraw

            f = font_bank().all[int(rng.integers(len(font_bank().all)))]
            size = max(8, int(scale * rng.uniform(0.25, 0.5)))
            canvas = Image.new("L", (pw, ph), 0)
            draw = ImageDraw.Draw(canvas)
            font = load_font(f.file, size)
            chars = [c for c in CLUTTER_TEXT if f.has(c)] or ["一"]
            for yy in range(2, ph - size, size + 2):
                draw.text((2, yy), "".join(rng.choice(chars) for _ in range(max(1, pw // size))), font=font, fill=255)
            text = np.asarray(canvas)
            tx0, ty0 = x - pw // 2, y - ph // 2
            sub = np.zeros((h, w), np.uint8)
            xs0, ys0 = max(tx0, 0), max(ty0, 0)
            xs1, ys1 = min(tx0 + pw, w), min(ty0 + ph, h)
            if xs1 > xs0 and ys1 > ys0:
                sub[ys0:ys1, xs0:xs1] = text[ys0 - ty0:ys1 - ty0, xs0 - tx0:xs1 - tx0]
            paper[sub > 0] = 20
            img[mask > 0] = paper[mask > 0]
        elif kind == "poker_back":
            pw, ph = int(scale * 1.6), int(scale * 2.3)
            rect = cv2.boxPoints(((x, y), (pw, ph), float(rng.uniform(0, 180)))).astype(np.int32)
            cv2.fillConvexPoly(mask, rect, 255)
            col = (180, 30, 40) if rng.random() < 0.5 else (30, 50, 160)
            cv2.fillConvexPoly(img, rect, col)
            cv2.polylines(img, [rect], True, (240, 240, 240), 2)
        else:  # a hand reaching over the table
            ax, ay = int(scale * rng.uniform(1.2, 2.0)), int(scale * rng.uniform(0.8, 1.3))
            ang = float(rng.uniform(0, 180))
            skin = (rng.uniform(150, 235), rng.uniform(100, 180), rng.uniform(80, 150))
            cv2.ellipse(mask, (x, y), (ax, ay), ang, 0, 360, 255, -1)
            cv2.ellipse(img, (x, y), (ax, ay), ang, 0, 360, tuple(float(c) for c in skin), -1, cv2.LINE_AA)
        if on_top:
            idmap[mask > 0] = -2
        items.append({"kind": kind, "center": [x, y], "on_top": on_top})
    return items


# --- composition ------------------------------------------------------------------------------

def _polygon_area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return float(abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))) / 2)


def _shown_mask(idmap: np.ndarray, poly: np.ndarray, idx: int) -> tuple[np.ndarray, int, int]:
    """Where the z-buffer shows card ``idx`` inside ``poly``: a boolean mask of the polygon's
    bounding box in the frame, and that box's top-left corner (x, y)."""
    h, w = idmap.shape
    x0, y0 = np.floor(poly.min(0)).astype(int)
    x1, y1 = np.ceil(poly.max(0)).astype(int) + 1
    x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1c <= x0c or y1c <= y0c:
        return np.zeros((0, 0), bool), 0, 0
    mask = np.zeros((y1c - y0c, x1c - x0c), np.uint8)
    cv2.fillConvexPoly(mask, np.round(poly - [x0c, y0c]).astype(np.int32), 1)
    return (idmap[y0c:y1c, x0c:x1c] == idx) & (mask > 0), x0c, y0c


def _shown_pixels(idmap: np.ndarray, poly: np.ndarray, idx: int) -> tuple[np.ndarray, np.ndarray]:
    """The frame pixels inside ``poly`` where the z-buffer shows card ``idx``, as (ys, xs)."""
    shown, x0, y0 = _shown_mask(idmap, poly, idx)
    ys, xs = np.nonzero(shown)
    return ys + y0, xs + x0


def _visible_fraction(idmap: np.ndarray, poly: np.ndarray, idx: int) -> float:
    area = _polygon_area(poly)
    if area < 1:
        return 0.0
    return min(1.0, int(np.count_nonzero(_shown_mask(idmap, poly, idx)[0])) / area)


def visible_strip(idmap: np.ndarray, ends: list[dict], idx: int) -> list[list[float]] | None:
    """The visible part of card ``idx``'s most visible end: the oriented box (4 corners) around its
    pixels the z-buffer shows, or None when none show. In a held fan it is the strip beside the
    next card, where the character shows."""
    if not ends:
        return None
    best = max(ends, key=lambda e: e["visible"])
    if best["visible"] <= 0:
        return None
    ys, xs = _shown_pixels(idmap, np.float32(best["corners"]), idx)
    if len(xs) < 3:
        return None
    box = cv2.boxPoints(cv2.minAreaRect(np.float32(np.stack([xs, ys], 1))))
    return np.round(box, 2).tolist()


def _paste(frame: np.ndarray, rgba: np.ndarray, src: np.ndarray, dst: np.ndarray) -> None:
    """Warp ``rgba`` so its corners ``src`` land on ``dst`` in ``frame`` (clipped to a ROI)."""
    h, w = frame.shape[:2]
    x0, y0 = np.floor(dst.min(0)).astype(int) - 1
    x1, y1 = np.ceil(dst.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    M = cv2.getPerspectiveTransform(src.astype(np.float32), (dst - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(rgba, M, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA
                                 if abs(np.linalg.det(M[:2, :2])) < 0.5 else cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    # over a transparent pixel the frame stays, under an opaque one the card shows; only the
    # pixels in between are mixed (the same arithmetic, on fewer pixels)
    alpha = warped[..., 3]
    roi = frame[y0:y1, x0:x1]
    np.copyto(roi, warped[..., :3], where=(alpha == 255)[..., None])
    part = alpha - np.uint8(1) < 254  # 1..254, in one pass: 0 wraps round to 255
    if part.any():
        a = alpha[part].astype(np.float32)[:, None] / 255.0
        roi[part] = (roi[part].astype(np.float32) * (1 - a) + warped[..., :3][part].astype(np.float32) * a).astype(np.uint8)


def scene_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of scene ``index`` of a dataset with ``seed``: independent of worker count."""
    return np.random.default_rng([seed, index, 0x5E5E])


def make_scene(seed: int, index: int, layout: str | None = None, *, spec: SceneSpec | None = None,
               **options) -> Scene:
    """Build scene ``index`` of a dataset: deterministic in (seed, index, ``layout``, ``spec``).
    ``layout`` names the scene's layout (default: one of ``spec.layouts``, drawn); ``spec`` says how
    scenes are drawn (:class:`~.spec.SceneSpec`), and ``options`` change its fields
    (``make_scene(1, 0, "table", plain=True)``)."""
    spec = replace(spec or SceneSpec(), **options)
    deck, plain = spec.deck, spec.plain
    rng = scene_rng(seed, index)
    w, h = spec.size
    layout = layout or str(spec.layouts[int(rng.integers(len(spec.layouts)))])
    style = DeckStyle.random(rng, spec.font_split, printed=spec.printed, family=spec.family,
                             without_family=spec.without_family, scripts=spec.scripts, script_share=spec.script_share)
    if deck is not None:
        style.aspect = deck.aspect
    camera = Camera.random(rng, w, h, max_tilt=spec.max_tilt)
    if plain:
        camera.exposure, camera.white_balance, camera.blur, camera.motion = 1.0, (1.0, 1.0, 1.0), 0.0, 0
        camera.noise, camera.shadow, camera.glare, camera.vignette, camera.jpeg = 0.0, False, False, 0.0, 100
    H = camera.homography()
    laid = LAYOUT_FUNCS[layout](rng, w, h, style.aspect)
    placed, fans, close_heap = laid.cards, laid.fans, laid.close
    # background: a plane texture larger than the frame, projected by the camera
    bw, bh = int(w * 0.9), int(h * 0.9)  # drawn at half scale over 1.8x the frame
    surface = str(rng.choice(HEAP_SURFACES)) if layout == "heap" else None
    bg = np.full((bh, bw, 3), PLAIN_BACKGROUND, np.uint8) if plain else background(rng, bw, bh, surface, spec.photos)
    T = np.array([[2, 0, -bw], [0, 2, -bh], [0, 0, 1]], np.float64)
    frame = cv2.warpPerspective(bg, H @ T, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    idmap = np.full((h, w), -1, np.int32)
    # mean projected card width decides the resolution faces are rendered at
    proj_widths = []
    projected = []
    for p in placed:
        c = cv2.perspectiveTransform(p.corners(style.aspect)[None].astype(np.float64), H)[0]
        projected.append(c)
        proj_widths.append(np.linalg.norm(c[1] - c[0]))
    face_w = int(np.clip(np.median(proj_widths) * 1.4 if proj_widths else 40, 16, 160))
    clutter = [] if plain else _draw_clutter(frame, idmap, rng, style, face_w * 1.2, on_top=False)
    faces: dict[str, object] = {}
    back = render_back(style, face_w, rng)
    fh = back.shape[0]
    src = np.float32([[0, 0], [face_w, 0], [face_w, fh], [0, fh]])
    order = list(range(len(placed)))
    cards = []
    # a printed training deck is plastic-coated and handled: glossy streaks, bent cards; drawn from
    # a stream of their own, so every other choice of the scene stays what it was
    finish_rng = np.random.default_rng([seed, index, 0x6105])
    glossy = bool(style.printed) and deck is None and finish_rng.random() < 0.5
    bent = bool(style.printed) and deck is None and finish_rng.random() < 0.35
    for i in order:
        p, dst = placed[i], projected[i]
        if p.code is None:
            _paste(frame, back, src, dst)
        else:
            if p.code not in faces:
                if deck is not None and p.code in deck.faces:
                    faces[p.code] = printed_face(deck, p.code, face_w, rng)
                else:
                    faces[p.code] = render_face(p.code, style, face_w, rng)
            image = faces[p.code].image
            if glossy and finish_rng.random() < 0.6:
                image = gloss(image, finish_rng, float(finish_rng.uniform(0.3, 0.85)))
            if bent and finish_rng.random() < 0.5:
                image = bend_shading(image, finish_rng, float(finish_rng.uniform(0.3, 1.0)))
            _paste(frame, image, src, dst)
        cv2.fillConvexPoly(idmap, np.round(dst).astype(np.int32), i)
    if fans:
        clutter += draw_hand(frame, idmap, fans, H, rng)
    if not plain:
        clutter += _draw_clutter(frame, idmap, rng, style, face_w * 1.2, on_top=True)
    # labels from the z-buffer
    label_min = LABEL_MIN_BY_LAYOUT.get(layout, LABEL_MIN_CHAR_VISIBLE)
    for i, (p, dst) in enumerate(zip(placed, projected)):
        face = faces.get(p.code) if p.code else None
        Hc = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        ends = []
        end_polys = face.ends if face else [np.float32([[0, 0], [face_w, 0], [face_w, END_FRACTION * face_w],
                                                         [0, END_FRACTION * face_w]])]
        for region in end_polys:
            poly = cv2.perspectiveTransform(region[None].astype(np.float64), Hc)[0]
            ends.append({"corners": np.round(poly, 2).tolist(), "visible": round(_visible_fraction(idmap, poly, i), 4)})
        visible = _visible_fraction(idmap, dst, i)
        char_visible = max((e["visible"] for e in ends), default=0.0) if p.code else 0.0
        cards.append({
            "card": p.code if p.code else "back",
            "class_id": CARD_CODES.index(p.code) if p.code else -1,
            "face_up": p.code is not None,
            "corners": np.round(dst, 2).tolist(),
            "ends": ends,
            "visible": round(visible, 4),
            "char_visible": round(char_visible, 4),
            "labelled": bool(p.code is not None and char_visible >= label_min),
            "zone": p.zone,
            "meld": p.meld,
        })
        if fans and p.code:
            cards[-1]["strip"] = visible_strip(idmap, ends, i)
    if close_heap and not plain:
        frame = phone_look(depth_of_field(frame, rng), rng)
    image = camera.develop(frame, rng)
    return Scene(image, cards, layout, style, camera, clutter)
