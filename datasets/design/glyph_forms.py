"""Every regional form of each piece a printed deck may write, and which a family favours.

Printings differ in more than their faces' colours: Taiwanese decks write the black Cannon 包
(said *bāo*), old or ornate ones 礮; one character may serve both armies (仕 for both Advisors,
相 for both Elephants, 兵 for both Soldiers), and simplified printings write 将 帅 车 马. A printed
deck draws its forms here, from a stream of its own (so every other choice of its seed stays the
same); a family then sets the forms its printings share (:data:`FAMILY_FORMS`). A form the deck's
font lacks falls back to the nearest it has (:data:`FALLBACK`).

>>> import numpy as np
>>> glyphs = {"GC": "砲", "WC": "砲", "YC": "炮", "RC": "炮", "GA": "士", "YA": "仕"}
>>> regional_glyphs(glyphs, lambda g: True, np.random.default_rng(0), "taiwanese")["GC"]
'包'
"""

from __future__ import annotations

from typing import Callable

import numpy as np

FORMS: dict[str, dict[str, tuple[tuple[str, float], ...]]] = {
    # piece -> army -> (form, chance) drawn in turn; the first that comes up is written
    "K": {"black": (("将", 0.1),), "red": (("帅", 0.1), ("將", 0.05))},
    "A": {"black": (("仕", 0.15),), "red": (("士", 0.15),)},
    "E": {"black": (("相", 0.15),), "red": (("象", 0.1),)},
    "R": {"black": (("俥", 0.08), ("车", 0.08)), "red": (("車", 0.2), ("车", 0.05))},
    "H": {"black": (("傌", 0.08), ("马", 0.08)), "red": (("馬", 0.2), ("马", 0.05))},
    "C": {"black": (("包", 0.2), ("礮", 0.06), ("炮", 0.1)), "red": (("砲", 0.15), ("包", 0.05))},
    "P": {"black": (("兵", 0.1),), "red": (("卒", 0.1),)},
}
"""The forms besides each army's own (:data:`sisepai.engine.cards.BLACK_GLYPHS` and ``RED_GLYPHS``)."""

FAMILY_FORMS: dict[str, dict[tuple[str, str], tuple[str, float]]] = {
    # family -> (army, piece) -> (form, chance)
    "taiwanese": {("black", "C"): ("包", 0.85), ("red", "A"): ("仕", 0.9), ("red", "E"): ("相", 0.9)},
    "vietnamese": {("black", "C"): ("砲", 0.8), ("red", "C"): ("炮", 0.8)},
    "singapore": {("black", "K"): ("將", 0.7), ("black", "C"): ("炮", 0.4)},
}
"""The forms a family's printings favour (docs/datasets.md gives a source for each)."""

FALLBACK = {"礮": "砲", "包": "砲", "砲": "炮", "炮": "砲", "将": "將", "帅": "帥", "车": "車", "马": "馬",
            "俥": "車", "傌": "馬", "仕": "士", "相": "象", "象": "相", "兵": "卒", "卒": "兵", "將": "将", "帥": "帅"}


def regional_glyphs(glyphs: dict[str, str], has: Callable[[str], bool], rng: np.random.Generator,
                    family: str | None = None) -> dict[str, str]:
    """``glyphs`` (card code -> character) with regional forms drawn by ``rng`` and ``family``'s
    favoured ones; ``has(char)`` says whether the deck's font draws a character."""
    out = dict(glyphs)
    for piece, armies in FORMS.items():
        for army, suits in (("black", "GW"), ("red", "YR")):
            form = next((f for f, chance in armies[army] if rng.random() < chance), None)
            favoured = FAMILY_FORMS.get(family or "", {}).get((army, piece))
            if favoured and rng.random() < favoured[1]:
                form = favoured[0]
            if form is None:
                continue
            seen = {form}
            while not has(form) and form in FALLBACK and FALLBACK[form] not in seen:
                form = FALLBACK[form]
                seen.add(form)
            if has(form):
                for suit in suits:
                    out[suit + piece] = form
    return out
