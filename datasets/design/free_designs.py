"""Printings beyond the families: every trait of a printed deck drawn on its own.

The families (:mod:`.families`) describe the printings sold today, each trait tied to the others
as one region prints them. A reader and a detector that learn only those ties learn the
description, not the card: a printing that ties them otherwise reads as unseen. A **free design**
draws each trait apart, from the ranges of every family and of the printed traits together:

- paper of any family's or printed deck's box for its suit, ink black or red on any suits;
- a frame inset from the card's edge (the card's own paper outside it), one or two lines, thin
  or heavy, or none;
- bars along both long edges, or only one, black or in the ink, with or without ornaments;
- marks in the corners (brackets, dots or triangles);
- an ornament between the ends (a word, a coin on the Generals, a maker's mark, a fish or a bird);
- any proportion from 1:2.8 to 1:4.8, glyphs from small book size to the card's whole width.

A printed training deck that belongs to no family is a free design with :data:`FREE_SHARE`'s
chance, drawn on a stream of its own so every other choice of its seed stays what it was. Like
the families, nothing here is a stand-in deck's held-out trait (:mod:`.standin`: no band, dashed
or zigzag border, no flower or 東南西北中, papers only from boxes tested to lie apart).

>>> d = draw_free_design(np.random.default_rng(2))
>>> d["name"], sorted(d["papers"]), d["bar_sides"] in ("both", "left", "right")
('free', ['G', 'R', 'W', 'Y'], True)
"""

from __future__ import annotations

import numpy as np

from sisepai.datasets.design.families import EMBLEMS, FAMILY_PAPERS, RED_INK, box_colour
from sisepai.datasets.design.printed import PRINTED_PAPERS

FREE_DESIGN = "free"
"""The name a free design goes by where a family's name would stand (``--family free``)."""
FREE_SHARE = 0.4
"""A printed training deck of no family is a free design with this chance."""
CORNER_MARKS = ("brackets", "dots", "triangles")
"""What a free design may print in its four corners."""
BAR_SIDES = ("both", "both", "left", "right")
"""Which long edges carry bars (both twice as often as one)."""
RED_INK_MIN_PAPER = 150
"""Red ink is printed only on a paper at least this light (luma 0-255): red on a dark crimson is
a printing nobody could read."""


def _luminance(rgb: tuple[int, int, int]) -> float:
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b


def paper_boxes(suit: str) -> list:
    """Every (hue, saturation, value) box a family or a printed deck draws ``suit``'s paper from.

    >>> len(paper_boxes("R")) >= 4
    True
    """
    return [box for fam in FAMILY_PAPERS.values() for box in fam[suit]] + list(PRINTED_PAPERS[suit])


def draw_free_design(rng: np.random.Generator) -> dict:
    """One free design, described by the keys of :func:`~.families.draw_family`'s decks: those every
    family prints one way (:data:`~.families.AS_FAMILIES_PRINT`) drawn too."""
    papers = {}
    for suit in "GWYR":
        boxes = paper_boxes(suit)
        papers[suit] = box_colour(rng, boxes[int(rng.integers(len(boxes)))])
    red_suits = "".join(s for s in "WYR" if rng.random() < 0.4) if rng.random() < 0.5 else ""
    red_suits = "".join(s for s in red_suits if _luminance(papers[s]) >= RED_INK_MIN_PAPER)  # legible only
    bars = float(rng.uniform(0.04, 0.13)) if rng.random() < 0.35 else 0.0
    frame = float(rng.uniform(0.03, 0.16)) if rng.random() < 0.5 else 0.0
    return {
        "name": FREE_DESIGN, "papers": papers, "red_ink": {"suits": red_suits, "colour": box_colour(rng, RED_INK)},
        "aspect": float(rng.uniform(2.8, 4.8)), "corner": float(rng.uniform(0.02, 0.2)),
        "char_scale": float(rng.uniform(0.45, 1.0)), "char_offset": float(rng.uniform(0.5, 0.64)),
        "stroke": int(rng.choice([-1, 0, 0, 1, 2])),
        "script": str(rng.choice(["seal", "round"])) if rng.random() < 0.3 else None,
        "brush": float(rng.uniform(0.3, 1.0)) if rng.random() < 0.3 else 0.0,
        "inner_frame": frame, "frame_lines": int(rng.choice([1, 1, 2])),
        "frame_width": float(rng.uniform(0.01, 0.05)),
        "edge_bars": bars, "bar_sides": str(rng.choice(BAR_SIDES)),
        "bar_colour": "ink" if rng.random() < 0.3 else "black",
        "bar_ornament": str(rng.choice(["dots", "diamonds", "none"])),
        "corner_marks": str(rng.choice(CORNER_MARKS)) if rng.random() < 0.35 else None,
        "middle": str(rng.choice(["word", "coin", *EMBLEMS])) if rng.random() < 0.5 else None,
    }
