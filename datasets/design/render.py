"""Render one Four Color Cards face (or back) from a card code and a seeded random deck style.

Every card of a scene shares one :class:`DeckStyle` (one printed deck); styles vary widely
between scenes: aspect 1:3 to 1:6.5, corner radius, frames, ornaments, centre stamps,
one or two characters, every glyph variant, many font families, stroke distortions, suit
colour ranges, ink colours, paper grain, wear and misprint; training decks add the printed-deck
traits of :mod:`.printed` (printed paper colours, borders, seals, brush strokes, print flaws, 卆).

Card coordinates: width ``w`` and height ``h = aspect * w``, the "top" end at y = 0. Each
character sits in an *end region*: ``[0, w] x [0, END_FRACTION * w]`` at the top, and the same
region turned 180° at the bottom.

>>> import numpy as np
>>> style = DeckStyle.random(np.random.default_rng(1))
>>> face = render_face("RH", style, width=48)
>>> face.image.shape[1], face.image.shape[2], len(face.ends) >= 1
(48, 4, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
from PIL import Image, ImageDraw

from sisepai.datasets.design.families import FAMILY_SHARE, apply_family, draw_face_family, draw_family
from sisepai.datasets.design.font_splits import fonts_of
from sisepai.datasets.design.fonts import FontInfo, font_bank, load_font
from sisepai.datasets.design.free_designs import FREE_DESIGN, FREE_SHARE, draw_free_design
from sisepai.datasets.design.glyph_forms import regional_glyphs
from sisepai.datasets.design.planes import plus_channels
from sisepai.datasets.design.printed import (
    SEAL_GLYPHS,
    WORD_GLYPHS,
    abbreviated_soldier,
    brush_mask,
    draw_border,
    draw_middle,
    draw_printed_traits,
    print_flaw,
)
from sisepai.datasets.design.printed import hsv_colour as _hsv
from sisepai.datasets.design.scripts import script_mask
from sisepai.engine.cards import (
    BLACK_GLYPHS,
    CARD_CODES,
    END_FRACTION,  # the ends the reader reads
    JOKER_GLYPHS,
    RED_GLYPHS,
)

STAMP_GLYPHS = "福祿壽禄寿喜財囍春吉"
ASPECTS = (3.0, 6.5)
"""The range of a generated deck's proportions, long side over short (1:3 to 1:6.5)."""



def suit_palette(rng: np.random.Generator) -> dict[str, tuple[int, int, int]]:
    """Background colours for G, W, Y, R and the joker: wide ranges, as real decks fade and vary.

    The ranges of neighbouring suits keep a margin (generator 1.2): green starts at hue 75 and
    saturation 0.3, yellow ends at hue 56, white stays under saturation 0.10 and red over 0.35.
    Under 1.1 a faded green (hue 65, saturation 0.25) could print as the same colour as a yellow
    or, under a warm light, a cream white, so the label was a coin toss that no reader can learn.

    >>> pal = suit_palette(np.random.default_rng(0))
    >>> sorted(pal)
    ['G', 'J', 'R', 'W', 'Y']
    """
    return {
        "G": _hsv(rng.uniform(75, 165), rng.uniform(0.3, 0.85), rng.uniform(0.45, 0.9)),  # incl. yellow-greens
        "W": _hsv(rng.uniform(0, 360), rng.uniform(0.0, 0.10), rng.uniform(0.8, 1.0)),  # pale whites, cream
        "Y": _hsv(rng.uniform(38, 56), rng.uniform(0.5, 1.0), rng.uniform(0.75, 1.0)),
        "R": _hsv(rng.uniform(-12, 12) % 360, rng.uniform(0.35, 0.8), rng.uniform(0.7, 0.98)),  # incl. faded reds
        "J": _hsv(rng.uniform(-10, 8) % 360, rng.uniform(0.7, 1.0), rng.uniform(0.35, 0.62)),  # deeper red
    }


@dataclass
class DeckStyle:
    """Everything that makes one printed deck look the way it does."""

    aspect: float
    corner: float
    palette: dict[str, tuple[int, int, int]]
    ink: dict[str, tuple[int, int, int]]
    glyphs: dict[str, str]  # code -> character printed
    font: FontInfo
    both_ends: bool
    char_scale: float
    char_offset: float
    frame: int  # 0 none, 1 single line, 2 double line
    frame_inset: float
    ornament: int  # 0 none, 1 dots, 2 lines, 3 diamond
    stamp: str | None
    stamp_shape: int
    stroke: int  # -1 thinner, 0, 1, 2 thicker
    shear: float
    elastic: float
    grain: float
    wear: float
    misprint: float
    joker_faces: str
    back: tuple[int, int, int]
    seed: int = 0
    extra: dict = field(default_factory=dict)
    printed: dict = field(default_factory=dict)  # printed-deck traits, :mod:`.printed`

    @classmethod
    def random(cls, rng: np.random.Generator, font_split: str = "train", printed: bool | None = None,
               family: str | None = None, without_family: str | None = None,
               scripts: tuple[str, ...] | None = None, script_share: float | None = None) -> "DeckStyle":
        """A random deck style. ``printed`` (default: for the training fonts only) adds the
        printed-deck traits of :mod:`.printed`, drawn from their own stream so every other choice
        of a seed stays the same. ``family`` (one of :data:`~.families.FAMILIES`) makes the deck a
        printing of that family whatever the split (printed traits on), as the family tuning check
        draws its decks in the tuning fonts; ``"free"`` makes it a free design
        (:mod:`.free_designs`). ``without_family`` is a family no deck is drawn in (a
        leave-one-family-out training set). ``scripts`` and ``script_share``: the scripts a printed
        deck beyond the families may be drawn in, and on what share of them (default
        :data:`.scripts.SCRIPTS` on :data:`.printed.SCRIPT_SHARE`)."""
        fonts = fonts_of(font_split)
        font = fonts[int(rng.integers(len(fonts)))]
        palette = suit_palette(rng)
        black_ink = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.4), rng.uniform(0.0, 0.22))
        red_ink = _hsv(rng.uniform(-8, 8) % 360, rng.uniform(0.7, 1.0), rng.uniform(0.45, 0.8))
        red_for_red_army = rng.random() < 0.3
        ink = {s: black_ink for s in "GWYR"}
        if red_for_red_army:
            ink["Y"] = red_ink
            ink["R"] = red_ink if rng.random() < 0.5 else black_ink
        ink["J"] = _hsv(rng.uniform(40, 55), rng.uniform(0.5, 0.9), rng.uniform(0.8, 1.0)) if rng.random() < 0.5 \
            else black_ink
        style = cls(
            aspect=float(rng.uniform(*ASPECTS)),
            corner=float(rng.uniform(0.0, 0.16)),
            palette=palette,
            ink=ink,
            glyphs=choose_glyphs(rng, font),
            font=font,
            both_ends=bool(rng.random() < 0.85),
            char_scale=float(rng.uniform(0.62, 0.9)),
            char_offset=float(rng.uniform(0.5, 0.62)),
            frame=int(rng.choice([0, 1, 1, 2])),
            frame_inset=float(rng.uniform(0.04, 0.12)),
            ornament=int(rng.integers(0, 4)),
            stamp=str(rng.choice(list(STAMP_GLYPHS))) if rng.random() < 0.5 else None,
            stamp_shape=int(rng.integers(0, 3)),
            stroke=int(rng.choice([-1, 0, 0, 1, 2])),
            shear=float(rng.uniform(-0.18, 0.18)),
            elastic=float(rng.uniform(0, 1.0)),
            grain=float(rng.uniform(0, 14)),
            wear=float(rng.uniform(0, 1)),
            misprint=float(rng.uniform(0, 0.06)),
            joker_faces=str(rng.choice(["lords", "plain", "same"])),
            back=_hsv(rng.uniform(12, 32), rng.uniform(0.6, 1.0), rng.uniform(0.7, 1.0)),
            seed=int(rng.integers(2**31)),
        )
        if family is not None or (printed if printed is not None else font_split == "train"):
            style.printed = draw_printed_traits(np.random.default_rng([style.seed, 0x9E1]), scripts, script_share)
            style.palette.update(style.printed["papers"])
            family_rng = np.random.default_rng([style.seed, 0xFA11])  # a stream of its own, as above
            if family == FREE_DESIGN:
                apply_family(style, draw_free_design(family_rng))
            elif family_rng.random() < FAMILY_SHARE or family is not None:
                apply_family(style, draw_family(family_rng, family, without_family))
            else:  # a printing beyond the families: each trait drawn on its own, from a stream of its own
                free_rng = np.random.default_rng([style.seed, 0xF4EE])
                if free_rng.random() < FREE_SHARE:
                    apply_family(style, draw_free_design(free_rng))
            name = (style.printed.get("family") or {}).get("name")
            style.glyphs = regional_glyphs(style.glyphs, style.font.has, np.random.default_rng([style.seed, 0x6A1F]),
                                           name)
        return style

    def summary(self) -> dict:
        return {"font": self.font.family, "font_file": self.font.file, "style": self.font.style,
                "holdout_font": self.font.holdout, "aspect": round(self.aspect, 2),
                "both_ends": self.both_ends, "glyphs": "".join(self.glyphs[c] for c in CARD_CODES[:7])
                + "/" + "".join(self.glyphs[c] for c in CARD_CODES[14:21]),
                "family": (self.printed or {}).get("family", {}).get("name")}


def choose_glyphs(rng: np.random.Generator, font: FontInfo) -> dict[str, str]:
    """The character each card kind prints in this deck: standard, unified armies, swapped
    soldiers, 包/砲/炮 cannons, simplified forms, all limited to what the font has."""
    black = dict(BLACK_GLYPHS)
    red = dict(RED_GLYPHS)
    if rng.random() < 0.25:  # one character for both armies
        red["R"] = black["R"]
    if rng.random() < 0.25:
        red["H"] = black["H"]
    if rng.random() < 0.3:
        black["C"] = "包"
    if rng.random() < 0.15:
        black["P"], red["P"] = red["P"], black["P"]  # soldiers swapped between armies
    if rng.random() < 0.25:
        black["K"] = "将"
    if rng.random() < 0.1:
        red["K"] = "帅"
        black["R"], black["H"] = "车", "马"
    alternatives = {"將": "将", "将": "將", "帥": "帅", "帅": "帥", "車": "车", "车": "車", "俥": "車",
                    "馬": "马", "马": "馬", "傌": "馬", "包": "砲", "砲": "炮", "炮": "砲", "仕": "士", "兵": "卒"}
    out: dict[str, str] = {}
    for code in CARD_CODES[:-1]:
        suit, rank = code
        g = (black if suit in "GW" else red)[rank]
        while not font.has(g) and g in alternatives:
            g = alternatives[g]
        out[code] = g
    out["J"] = ""
    return out


MIN_INK_KEPT = 0.6
"""Thin-stroke decks keep at least this share of a character's ink."""


def _glyph_mask(char: str, font: FontInfo, size: int, style: DeckStyle, rng: np.random.Generator) -> np.ndarray:
    """A grayscale mask (0..255) of one character with stroke distortions, ``size`` px square."""
    pad = size // 4
    canvas = Image.new("L", (size + 2 * pad, size + 2 * pad), 0)
    draw = ImageDraw.Draw(canvas)
    f = load_font(font.file, size)
    box = draw.textbbox((0, 0), char, font=f)
    tw, th = box[2] - box[0], box[3] - box[1]
    draw.text(((size + 2 * pad - tw) / 2 - box[0], (size + 2 * pad - th) / 2 - box[1]), char, font=f, fill=255)
    mask = np.asarray(canvas, dtype=np.uint8).copy()
    k = max(1, size // 28)
    if style.stroke > 0:
        mask = cv2.dilate(mask, np.ones((k * style.stroke + 1, k * style.stroke + 1), np.uint8))
    elif style.stroke < 0:
        # thinner strokes, but never so thin that the character fades away: a light Ming face at
        # 20 px loses most of its ink to one erosion (generator 1.0 drew such cards blank)
        thin = cv2.erode(mask, np.ones((k + 1, k + 1), np.uint8))
        if thin.sum() >= MIN_INK_KEPT * mask.sum():
            mask = thin
    n = mask.shape[0]
    shear = style.shear + rng.uniform(-0.04, 0.04)
    M = np.float32([[1, shear, -shear * n / 2], [0, 1, 0]])
    mask = cv2.warpAffine(mask, M, (n, n), flags=cv2.INTER_LINEAR)
    if style.elastic > 0.2:
        amp = style.elastic * size * 0.035
        dx = cv2.GaussianBlur(rng.uniform(-1, 1, (n, n)).astype(np.float32), (0, 0), size / 7) * amp * 6
        dy = cv2.GaussianBlur(rng.uniform(-1, 1, (n, n)).astype(np.float32), (0, 0), size / 7) * amp * 6
        xs, ys = np.meshgrid(np.arange(n, dtype=np.float32), np.arange(n, dtype=np.float32))
        mask = cv2.remap(mask, xs + dx, ys + dy, cv2.INTER_LINEAR)
    return mask


def _char_mask(char: str, size: int, style: DeckStyle, rng: np.random.Generator) -> np.ndarray:
    """The mask of a card's character with the deck's printed traits: 卒 abbreviated to 卆 and
    brush-modulated strokes, when the deck has them."""
    font = style.font
    if char == "卒" and style.printed.get("soldier") and font.has("九") and font.has("十"):
        mask = abbreviated_soldier(size, lambda c, s: _glyph_mask(c, font, s, style, rng))
    else:
        mask = _glyph_mask(char, font, size, style, rng)
    if style.printed.get("script"):
        mask = script_mask(mask, style.printed["script"], rng)
    if style.printed.get("brush"):
        mask = brush_mask(mask, style.printed["brush"], rng)
    return mask


def _blend(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[int, int, int], alpha: float = 1.0) -> None:
    """Paint ``colour`` through ``mask`` at (x, y) into ``img`` (clipped at the edges)."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, img.shape[1]), min(y + h, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    inked = mask[y0 - y:y1 - y, x0 - x:x1 - x] > 0  # elsewhere the paper stays as it is
    m = (mask[y0 - y:y1 - y, x0 - x:x1 - x][inked].astype(np.float32) / 255.0 * alpha)[:, None]
    roi = img[y0:y1, x0:x1, :3]
    roi[inked] = (roi[inked].astype(np.float32) * (1 - m) + np.float32(colour) * m).astype(np.uint8)


@dataclass
class Face:
    """A rendered card: RGBA image and the end regions (4 corners each, card pixel coords)."""

    image: np.ndarray
    ends: list[np.ndarray]
    code: str


def _base(width: int, height: int, colour: tuple[int, int, int], style: DeckStyle, rng: np.random.Generator) -> np.ndarray:
    img = np.zeros((height, width, 4), np.uint8)
    img[..., :3] = colour
    if style.grain > 0:
        noise = cv2.GaussianBlur(rng.normal(0, style.grain, (height, width)).astype(np.float32), (0, 0), 0.7)
        paper = plus_channels(cv2.merge([noise] * 3), np.float32(colour))  # the paper is one colour
        img[..., :3] = np.clip(paper, 0, 255, out=paper).astype(np.uint8)
    img[..., 3] = rounded_alpha(width, height, int(style.corner * width))
    return img


def rounded_alpha(width: int, height: int, radius: int) -> np.ndarray:
    """A card's opacity: 255 inside a ``width`` x ``height`` rectangle with corners of ``radius``.

    >>> rounded_alpha(10, 20, 3)[0, 0], rounded_alpha(10, 20, 3)[10, 5]
    (np.uint8(0), np.uint8(255))
    """
    alpha = np.zeros((height, width), np.uint8)
    r = radius
    if r > 0:
        cv2.rectangle(alpha, (r, 0), (width - 1 - r, height - 1), 255, -1)
        cv2.rectangle(alpha, (0, r), (width - 1, height - 1 - r), 255, -1)
        for cx, cy in ((r, r), (width - 1 - r, r), (r, height - 1 - r), (width - 1 - r, height - 1 - r)):
            cv2.circle(alpha, (cx, cy), r, 255, -1, lineType=cv2.LINE_AA)
    else:
        alpha[:] = 255
    return alpha


def _wear(img: np.ndarray, style: DeckStyle, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    for _ in range(int(style.wear * 6)):
        x, y = int(rng.integers(w)), int(rng.integers(h))
        colour = tuple(int(c) for c in np.clip(img[y, x, :3].astype(int) + rng.integers(-60, 60), 0, 255))
        if rng.random() < 0.5:
            cv2.circle(img, (x, y), int(rng.integers(1, max(2, w // 10))), colour + (255,), -1)
        else:
            x2, y2 = x + int(rng.integers(-w, w)), y + int(rng.integers(-w, w))
            cv2.line(img, (x, y), (x2, y2), colour + (255,), 1, cv2.LINE_AA)
    if style.wear > 0.6:  # darkened, dusty edges
        edge = np.zeros((h, w), np.float32)
        cv2.rectangle(edge, (0, 0), (w - 1, h - 1), 1.0, max(1, w // 16))
        edge = cv2.GaussianBlur(edge, (0, 0), max(1, w / 20))
        img[..., :3] = (img[..., :3] * (1 - 0.35 * edge[..., None] * style.wear)).astype(np.uint8)


def render_face(code: str, style: DeckStyle, width: int, rng: np.random.Generator | None = None) -> Face:
    """Render the face of ``code`` at ``width`` px in ``style``."""
    rng = rng if rng is not None else np.random.default_rng(style.seed + CARD_CODES.index(code))
    height = int(round(width * style.aspect))
    suit = "J" if code == "J" else code[0]
    img = _base(width, height, style.palette[suit], style, rng)
    ink = style.ink[suit]
    if style.frame:
        inset = max(1, int(style.frame_inset * width))
        cv2.rectangle(img, (inset, inset), (width - 1 - inset, height - 1 - inset), ink + (255,), 1, cv2.LINE_AA)
        if style.frame == 2:
            inset2 = inset + max(2, width // 20)
            cv2.rectangle(img, (inset2, inset2), (width - 1 - inset2, height - 1 - inset2), ink + (255,), 1, cv2.LINE_AA)
    printed = style.printed
    if printed.get("border"):
        draw_border(img, printed["border"], ink)
    end_depth = END_FRACTION * width
    mid_top, mid_bot = int(end_depth), int(height - end_depth)
    if printed.get("family"):
        draw_face_family(img, printed["family"], code, ink, style.palette[suit], mid_top, mid_bot)
    if printed.get("middle") and code != "J":
        seal = None
        if printed["middle"] in ("seal", "word"):
            bank = SEAL_GLYPHS if printed["middle"] == "seal" else WORD_GLYPHS
            choices = [g for g in bank if style.font.has(g)]
            glyph = choices[style.seed % len(choices)] if choices else None  # one word for the deck
            seal = _glyph_mask(glyph, style.font, int(width * 0.4), style, rng) if glyph else None
        draw_middle(img, printed["middle"], mid_top, mid_bot, ink, style.palette[suit], seal,
                    printed.get("word_mark", "dots"))
    elif style.ornament and mid_bot - mid_top > width * 0.4:
        cx = width // 2
        if style.ornament == 1:
            for y in range(mid_top + width // 4, mid_bot - width // 8, max(3, width // 5)):
                cv2.circle(img, (cx, y), max(1, width // 18), ink + (255,), -1, cv2.LINE_AA)
        elif style.ornament == 2:
            for x in (width // 3, 2 * width // 3):
                cv2.line(img, (x, mid_top + width // 5), (x, mid_bot - width // 5), ink + (255,), 1, cv2.LINE_AA)
        else:
            cy = (mid_top + mid_bot) // 2
            d = width // 3
            pts = np.int32([[cx, cy - d], [cx + d, cy], [cx, cy + d], [cx - d, cy]])
            cv2.polylines(img, [pts], True, ink + (255,), 1, cv2.LINE_AA)
    if style.stamp and code != "J" and not printed.get("middle") and mid_bot - mid_top > width * 0.6:
        size = int(width * 0.42)
        cy = (mid_top + mid_bot) // 2
        stamp_ink = _hsv(0, 0.9, 0.75)
        if style.stamp_shape == 0:
            cv2.circle(img, (width // 2, cy), int(size * 0.75), stamp_ink + (255,), 1, cv2.LINE_AA)
        elif style.stamp_shape == 1:
            cv2.rectangle(img, (width // 2 - int(size * 0.7), cy - int(size * 0.7)),
                          (width // 2 + int(size * 0.7), cy + int(size * 0.7)), stamp_ink + (255,), 1)
        font = style.font if style.font.has(style.stamp) else font_bank().train[0]
        m = _glyph_mask(style.stamp, font, size, style, rng)
        _blend(img, m, width // 2 - m.shape[1] // 2, cy - m.shape[0] // 2, stamp_ink, 0.9)
    if code == "J":
        char = {"lords": str(rng.choice(list(JOKER_GLYPHS))), "same": "公", "plain": ""}[style.joker_faces]
    else:
        char = style.glyphs[code]
    ends: list[np.ndarray] = []
    top = np.float32([[0, 0], [width, 0], [width, end_depth], [0, end_depth]])
    bottom = np.float32([[width, height], [0, height], [0, height - end_depth], [width, height - end_depth]])
    size = int(width * style.char_scale)
    if char:
        mask = _char_mask(char, size, style, rng)
        mh, mw = mask.shape
        for k, region in enumerate((top, bottom) if style.both_ends else (top,)):
            jx = rng.normal(0, style.misprint * width)
            jy = rng.normal(0, style.misprint * width)
            cy = style.char_offset * width + jy
            # the far end is printed turned, to read from the other side; some decks print it upright
            m = mask if k == 0 or printed.get("far_end") == "upright" else mask[::-1, ::-1]
            if k == 0:
                _blend(img, m, int(width / 2 - mw / 2 + jx), int(cy - mh / 2), ink)
            else:
                _blend(img, m, int(width / 2 - mw / 2 - jx), int(height - cy - mh / 2), ink)
            if printed.get("end_frame"):  # a thin frame around each end's character
                mid = cy if k == 0 else height - cy
                half = int(min(size * 0.56, width * 0.44))
                cv2.rectangle(img, (width // 2 - half, int(mid - half)), (width // 2 + half, int(mid + half)),
                              ink + (255,), 1, cv2.LINE_AA)
            ends.append(region)
    else:
        # a plain joker face: a pattern instead of a character; its ends still carry the look
        for k in range(3):
            cv2.circle(img, (width // 2, int(height * (0.3 + 0.2 * k))), width // 4, ink + (255,), 1, cv2.LINE_AA)
        ends.append(top)
        if style.both_ends:
            ends.append(bottom)
    _wear(img, style, rng)
    if printed.get("flaw"):
        print_flaw(img, printed["flaw"], style.palette[suit], rng)
    return Face(img, ends, code)


def render_back(style: DeckStyle, width: int, rng: np.random.Generator) -> np.ndarray:
    """The orange back of a card, RGBA."""
    height = int(round(width * style.aspect))
    img = _base(width, height, style.back, style, rng)
    darker = tuple(int(c * 0.75) for c in style.back)
    step = max(3, width // 6)
    for y in range(-width, height, step):
        cv2.line(img, (0, y), (width, y + width), darker + (255,), 1, cv2.LINE_AA)
    cv2.rectangle(img, (2, 2), (width - 3, height - 3), darker + (255,), 1)
    return img
