"""The font faces of each split, the held-out faces told apart by look.

The committed fonts (:mod:`.fonts`) are training or held-out faces. A held-out face that draws our
characters like a training face (:mod:`.font_overlap`) would not test anything new, so the
held-out faces split again: ``honest`` (no near-copy of a training face: the test faces) and
``tune`` (the others, for choosing, never a test face). :mod:`.splits` says which split draws which.

>>> honest, tune = {f.file for f in fonts_of("honest")}, {f.file for f in fonts_of("tune")}
>>> bool(honest) and not honest & tune
True
"""

from __future__ import annotations

from sisepai.datasets.design.font_overlap import honest_holdout
from sisepai.datasets.design.fonts import FontInfo, font_bank

FONT_SPLITS = ("train", "holdout", "honest", "tune", "all")


def fonts_of(split: str = "train") -> list[FontInfo]:
    """The faces of ``split``, one of :data:`FONT_SPLITS`."""
    if split == "honest":
        return list(honest_holdout())
    if split == "tune":
        honest = {f.file for f in honest_holdout()}
        return [f for f in font_bank().holdout if f.file not in honest]
    if split not in FONT_SPLITS:
        raise ValueError(f"font split must be one of {', '.join(FONT_SPLITS)}, got {split!r}")
    return font_bank().fonts(split)
