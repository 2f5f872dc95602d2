"""How alike two font faces draw our characters: the ink overlap that keeps a held-out face honest.

Each character a card prints (the Xiangqi pieces in every form the generator uses) is drawn in
both faces at one size, centred on its ink, and thresholded. The overlap of
two faces is the mean intersection-over-union of their ink over the characters both have. A fork,
a weight or a near-copy of a face overlaps it far more than an unrelated face does, so a held-out
face must stay under :data:`HOLDOUT_MAX_OVERLAP` against every training face.

>>> bank = font_bank()
>>> a = bank.train[0]
>>> ink_overlap(a, a)
1.0

Run ``python -m sisepai.datasets.design.font_overlap`` for the table of every held-out face against its
closest training face.
"""

from __future__ import annotations

import sys
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from sisepai.datasets.design.fonts import FontInfo, font_bank, load_font

CARD_CHARACTERS = "將帥将帅士仕象相車俥车馬傌马砲炮包卒兵"
"""Every character the generator prints on a card face."""
HOLDOUT_MAX_OVERLAP = 0.6
"""A held-out face overlaps every training face less than this (unrelated pairs: about 0.3 to 0.55)."""


@lru_cache(maxsize=4096)
def ink(file: str, char: str, size: int = 64) -> np.ndarray:
    """``char`` in the face ``file`` at ``size`` px, its ink box centred on a 2*size square, as a
    boolean mask. Scale and stroke weight are kept: a lighter or bolder weight of a face is a
    different face on a card, though a close one."""
    canvas = Image.new("L", (2 * size, 2 * size), 0)
    draw = ImageDraw.Draw(canvas)
    font = load_font(file, size)
    box = draw.textbbox((0, 0), char, font=font)
    draw.text((size - (box[2] - box[0]) / 2 - box[0], size - (box[3] - box[1]) / 2 - box[1]), char, font=font, fill=255)
    return np.asarray(canvas) > 127


def ink_overlap(a: FontInfo, b: FontInfo) -> float:
    """The mean ink IoU of faces ``a`` and ``b`` over the card characters both have (0 when none)."""
    scores = []
    for char in CARD_CHARACTERS:
        if not (a.has(char) and b.has(char)):
            continue
        ma, mb = ink(a.file, char), ink(b.file, char)
        scores.append((ma & mb).sum() / max((ma | mb).sum(), 1))
    return round(float(np.mean(scores)), 3) if scores else 0.0


def closest_training_face(face: FontInfo) -> tuple[FontInfo, float]:
    """The training face that overlaps ``face`` most, and that overlap."""
    best = max(font_bank().train, key=lambda t: ink_overlap(face, t))
    return best, ink_overlap(face, best)


def is_honest(face: FontInfo) -> bool:
    """Whether ``face`` overlaps every training face under :data:`HOLDOUT_MAX_OVERLAP`, to two
    decimals (a face at 0.599 is too close to call)."""
    return round(closest_training_face(face)[1], 2) < HOLDOUT_MAX_OVERLAP


@lru_cache(maxsize=1)
def honest_holdout() -> tuple[FontInfo, ...]:
    """The held-out faces that are no near-copy of a training face (:func:`is_honest`)."""
    return tuple(f for f in font_bank().holdout if is_honest(f))


def main() -> int:
    """Print each held-out face, its closest training face and their overlap."""
    print(f"{'held-out face':28} {'closest training face':30} overlap  honest (< {HOLDOUT_MAX_OVERLAP})")
    for face in font_bank().holdout:
        near, score = closest_training_face(face)
        print(f"{face.family:28} {near.family:30} {score:7.3f}  {'yes' if is_honest(face) else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
