"""The committed CJK font subsets, split into training fonts and held-out fonts.

>>> bank = FontBank()
>>> len(bank.train) > 20 and len(bank.holdout) >= 5
True
>>> bank.train[0].has("卒")
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parents[1] / "fonts"


@dataclass(frozen=True)
class FontInfo:
    file: str
    family: str
    style: str
    holdout: bool
    glyphs: str

    @property
    def path(self) -> Path:
        return FONT_DIR / self.file

    def has(self, glyph: str) -> bool:
        return glyph in self.glyphs


@lru_cache(maxsize=512)
def load_font(file: str, size: int) -> ImageFont.FreeTypeFont:
    """A PIL font at a pixel size, cached."""
    return ImageFont.truetype(str(FONT_DIR / file), size=size, layout_engine=ImageFont.Layout.BASIC)


def draws_ink(file: str, glyph: str, size: int = 40) -> bool:
    """Whether the font file draws ``glyph`` with ink: some fonts map a character to an empty
    outline, which would print a blank card under a card's label.

    >>> draws_ink("noto-sans-cjk-tc.otf", "將")
    True
    """
    font = load_font(file, size)
    canvas = Image.new("L", (2 * size, 2 * size), 0)
    ImageDraw.Draw(canvas).text((size // 2, size // 2), glyph, font=font, fill=255)
    return int((np.asarray(canvas) > 128).sum()) >= size // 2


class FontBank:
    """All committed fonts; ``fonts(split)`` gives ``train``, ``holdout`` or ``all``."""

    def __init__(self, index: Path = FONT_DIR / "fonts.json"):
        data = json.loads(index.read_text(encoding="utf-8"))
        self.all = [FontInfo(d["file"], d["family"], d["style"], d["holdout"], d["glyphs"]) for d in data]
        self.train = [f for f in self.all if not f.holdout]
        self.holdout = [f for f in self.all if f.holdout]

    def fonts(self, split: str = "train") -> list[FontInfo]:
        """The faces of ``split``: ``train``, ``holdout`` or ``all``. The held-out faces split again
        by look into ``honest`` (the test faces) and ``tune``: :func:`.font_splits.fonts_of`."""
        if split not in ("train", "holdout", "all"):
            raise ValueError(f"font split must be train, holdout or all here (honest and tune: "
                             f"sisepai.datasets.design.font_splits.fonts_of), got {split!r}")
        return getattr(self, split)


@lru_cache(maxsize=1)
def font_bank() -> FontBank:
    """The committed fonts, read once.

    >>> len(font_bank().all) > len(font_bank().train) > 0
    True
    """
    return FontBank()
