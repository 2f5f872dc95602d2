"""Stand-in decks: printed decks in font faces the recogniser never saw, each saved as its face
images exactly as ``sisepai deck add`` takes them.

A stand-in deck is the generator's face drawing with other choices than training makes. What
makes it a deck the recogniser never saw is measured, not named (``tests/datasets/design/test_standin.py``
measures each claim, and :data:`HELD_OUT_BY_LOOK` lists what holds):

- **fonts**, held out by look: test decks print in the honest held-out faces (their ink overlaps
  every training face's less than :data:`~.font_overlap.HOLDOUT_MAX_OVERLAP`, see
  :mod:`.font_overlap`), measured on the faces as drawn, before the camera, whose blur and
  small sizes bring any two faces nearer; tuning decks print in the other held-out faces, so no
  test font ever helps choose a threshold;
- **paper colours** from other boxes than training's (salmon, brick, deep and pale greens, ochre,
  lemon, grey and cream whites), but *not held out by look*: each lies within ΔE00 1-2 of a
  colour training draws as printed, and at none once training's camera has tinted it
  (``models/evaluation/held_out_eval.py``);
- **traits** training's code does not draw: a border band, a dashed or zigzag border, a flower or
  a circled character (東 南 西 北 中) in the middle, misregistered, faded and halftone print.
  Their shapes are not held out by look either: each border lies on a training frame, and the
  middles cover the place and size of training's seals;
- **proportions** from 1:3 to 1:6.4, inside the range training draws.

So a stand-in deck tests a new face in familiar colours and layouts; a printed deck with papers
or ornaments unlike any training draws is not among them. Papers outside training's palette (as
printed) are measured apart, on decks in the training fonts (:mod:`.far_papers`, :mod:`sisepai.models.evaluation.paper_eval`).

>>> deck = standin_deck(0, "test", width=60)
>>> len(deck.faces) >= 28, 3.0 <= deck.aspect <= 6.6
(True, True)

``python -m sisepai.datasets.design.standin OUT`` writes the test and tuning decks as folders of faces.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from sisepai.datasets.design.font_splits import fonts_of
from sisepai.datasets.design.render import DeckStyle, _blend, _glyph_mask, _hsv, choose_glyphs, render_face
from sisepai.datasets.design.splits import STANDIN_DECKS
from sisepai.engine.cards import CARD_CODES, END_FRACTION
from sisepai.faces.deck import DeckFaces

HELD_OUT_BY_LOOK = ("font",)
"""What of a stand-in deck lies outside training by measurement: its font face. Its papers (ΔE00),
border and middle shapes and proportions are measured alike training's."""
TEST_DECKS = STANDIN_DECKS["test"]
TUNE_DECKS = STANDIN_DECKS["tune"]
STANDIN_PAPERS = {
    # suit -> (hue range, saturation range, value range): other boxes than render.suit_palette's
    # and printed.PRINTED_PAPERS', though colours in them look like training's (ΔE00 under 2.5)
    "G": [((95, 150), (0.55, 0.85), (0.28, 0.42)),    # deep green
          ((80, 140), (0.16, 0.28), (0.7, 0.9))],     # pale green
    "W": [((30, 60), (0.02, 0.08), (0.64, 0.78)),     # grey white
          ((38, 50), (0.11, 0.16), (0.9, 1.0))],      # cream
    "Y": [((28, 36), (0.55, 0.9), (0.7, 0.9)),        # ochre
          ((56, 62), (0.55, 0.9), (0.85, 1.0))],      # lemon
    "R": [((4, 16), (0.2, 0.32), (0.85, 1.0)),        # salmon
          ((2, 12), (0.5, 0.75), (0.5, 0.66))],       # brick, dusty red
}
MIDDLE_GLYPHS = "東南西北中"


def _paper(rng: np.random.Generator, suit: str) -> tuple[int, int, int]:
    (h0, h1), (s0, s1), (v0, v1) = STANDIN_PAPERS[suit][int(rng.integers(len(STANDIN_PAPERS[suit])))]
    return _hsv(rng.uniform(h0, h1), rng.uniform(s0, s1), rng.uniform(v0, v1))


def _fonts(split: str):
    return fonts_of("honest" if split == "test" else "tune")


def standin_style(index: int, split: str = "test") -> tuple[DeckStyle, dict]:
    """The generator style of stand-in deck ``index`` of ``split`` (``test`` or ``tune``), with its
    held-out paper colours, and the extra traits to draw over its faces."""
    rng = np.random.default_rng([index, 0 if split == "test" else 1, 0x57A4D])
    fonts = _fonts(split)
    style = DeckStyle.random(rng, "holdout")
    style.font = fonts[index % len(fonts)]
    style.glyphs = choose_glyphs(rng, style.font)
    style.palette = {s: _paper(rng, s) for s in "GWYR"} | {"J": style.palette["J"]}
    style.aspect = float((3.0, 4.0, 5.3, 6.4, 3.6, 4.8)[index % 6] + rng.uniform(-0.1, 0.1))
    style.frame, style.ornament, style.stamp = 0, 0, None  # their own frames and middles instead
    style.both_ends = True
    style.joker_faces = "lords"
    style.misprint = float(rng.uniform(0, 0.03))
    traits = {
        "border": ("band", "dashed", "zigzag", "band")[index % 4],
        "middle": ("flower", "glyph", "glyph", "flower")[(index + (split == "tune")) % 4],
        "middle_glyph": MIDDLE_GLYPHS[int(rng.integers(len(MIDDLE_GLYPHS)))],
        "misregister": bool(index % 2 == 0),
        "fade": float(rng.uniform(0.0, 0.35)),
        "halftone": bool(index % 3 != 1),
        "jokers": bool(index % 2 == 0 or split == "tune"),
        "accent": _hsv(rng.uniform(200, 250), rng.uniform(0.5, 0.9), rng.uniform(0.4, 0.7)),
    }
    return style, traits


def _border(img: np.ndarray, kind: str, colour: tuple[int, int, int], width: int) -> None:
    h, w = img.shape[:2]
    inset = max(2, w // 14)
    if kind == "band":
        cv2.rectangle(img, (inset, inset), (w - 1 - inset, h - 1 - inset), colour, max(2, w // 18))
    elif kind == "dashed":
        step = max(4, w // 8)
        for x in range(inset, w - inset, 2 * step):
            for y in (inset, h - 1 - inset):
                cv2.line(img, (x, y), (min(x + step, w - inset), y), colour, max(1, w // 40))
        for y in range(inset, h - inset, 2 * step):
            for x in (inset, w - 1 - inset):
                cv2.line(img, (x, y), (x, min(y + step, h - inset)), colour, max(1, w // 40))
    else:  # zigzag
        step = max(4, w // 10)
        for x0 in (inset, w - 1 - inset):
            pts = [(x0 + (step // 2 if k % 2 else 0) * (1 if x0 == inset else -1), inset + k * step)
                   for k in range((h - 2 * inset) // step + 1)]
            cv2.polylines(img, [np.int32(pts)], False, colour, 1, cv2.LINE_AA)


def _middle(img: np.ndarray, traits: dict, style: DeckStyle, ink: tuple[int, int, int]) -> None:
    h, w = img.shape[:2]
    top, bottom = int(END_FRACTION * w), int(h - END_FRACTION * w)
    if bottom - top < w * 0.5:
        return
    cx, cy = w // 2, (top + bottom) // 2
    r = max(3, int(w * 0.16))
    if traits["middle"] == "flower":
        for k in range(5):
            a = 2 * np.pi * k / 5
            cv2.circle(img, (int(cx + r * np.cos(a)), int(cy + r * np.sin(a))), max(2, r // 2), traits["accent"], -1, cv2.LINE_AA)
        cv2.circle(img, (cx, cy), max(2, r // 2), (230, 190, 40), -1, cv2.LINE_AA)
    else:
        size = int(w * 0.38)
        glyph = traits["middle_glyph"] if style.font.has(traits["middle_glyph"]) else "中"
        mask = _glyph_mask(glyph, style.font, size, style, np.random.default_rng(0))
        cv2.circle(img, (cx, cy), int(size * 0.72), traits["accent"], 1, cv2.LINE_AA)
        _blend(img, mask, cx - mask.shape[1] // 2, cy - mask.shape[0] // 2, traits["accent"], 0.9)


def scanned_face(code: str, style: DeckStyle, width: int) -> np.ndarray:
    """The face of ``code`` in ``style`` as an RGB image ``width`` px wide, cut to the card's
    edges as a scan is: white where the corners round off."""
    rgba = render_face(code, style, width, np.random.default_rng(style.seed + CARD_CODES.index(code))).image
    img = rgba[..., :3].copy()
    img[rgba[..., 3] < 128] = 255
    return img


def standin_face(code: str, style: DeckStyle, traits: dict, width: int) -> np.ndarray:
    """One face of a stand-in deck as an RGB image ``width`` px wide, cut to the card's edges."""
    paper = np.float32(style.palette["J" if code == "J" else code[0]])
    img = scanned_face(code, style, width)
    ink = style.ink["J" if code == "J" else code[0]]
    distance = np.linalg.norm(img.astype(np.float32) - paper, axis=2)
    ink_mask = (distance > 60).astype(np.float32)
    if traits["fade"] > 0:  # faded ink: the character drifts towards the paper
        f = traits["fade"] * ink_mask[..., None]
        img = (img * (1 - f) + paper * f).astype(np.uint8)
    if traits["misregister"]:  # a second plate printed off register: a coloured shadow
        shift = max(1, width // 40)
        shadow = np.roll(np.roll(ink_mask, shift, axis=0), shift, axis=1) * (1 - ink_mask) * 0.55
        img = (img * (1 - shadow[..., None]) + np.float32((200, 40, 40)) * shadow[..., None]).astype(np.uint8)
    _border(img, traits["border"], ink if traits["border"] != "band" else traits["accent"], width)
    _middle(img, traits, style, ink)
    if traits["halftone"]:  # coarse print: a dot screen and a soft press
        ys, xs = np.mgrid[:img.shape[0], :img.shape[1]]
        screen = 0.92 + 0.08 * ((np.sin(xs * 1.3) * np.sin(ys * 1.3)) > 0)
        img = cv2.GaussianBlur((img * screen[..., None]).astype(np.uint8), (0, 0), 0.6)
    return img


def standin_deck(index: int, split: str = "test", width: int = 120) -> DeckFaces:
    """Stand-in deck ``index`` of ``split`` (``test``: honest held-out fonts; ``tune``: the other
    held-out fonts), its faces ``width`` px wide."""
    style, traits = standin_style(index, split)
    codes = [c for c in CARD_CODES if c != "J" or traits["jokers"]]
    return DeckFaces({c: standin_face(c, style, traits, width) for c in codes})


def main(argv: list[str] | None = None) -> int:
    """Write the stand-in decks under OUT/test-K and OUT/tune-K, one CODE.png a face."""
    p = argparse.ArgumentParser(prog="python -m sisepai.datasets.design.standin", description=main.__doc__)
    p.add_argument("out", type=Path)
    p.add_argument("--width", type=int, default=120, help="face width in pixels (default 120)")
    args = p.parse_args(argv)
    for split, n in (("test", TEST_DECKS), ("tune", TUNE_DECKS)):
        for k in range(n):
            standin_deck(k, split, args.width).save(args.out / f"{split}-{k}")
            print(f"{args.out / f'{split}-{k}'}: {standin_style(k, split)[0].font.family}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
