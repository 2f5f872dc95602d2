"""Paper colours training never draws, held out by look: for each suit, colours at least
:data:`~.colour_distance.HELD_OUT_MIN_DELTA_E` (ΔE00) from every paper colour of that suit that
training draws (:func:`.render.suit_palette` and :data:`.printed.PRINTED_PAPERS`), and no nearer
another suit's training papers than their own suit's, so that a player would still name the suit.

They are what a deck printed on unusual stock looks like: teal greens, grey and blue-tinted
whites, mustards and oranges, pinks and corals. ``sisepai.models.evaluation.paper_eval`` measures the
recogniser on decks printed on them; ``tests/datasets/test_far_papers.py`` measures the distance
again against a fresh sample of training's papers.

>>> colours = far_papers("G", 3, seed=0)
>>> len(colours), all(0 <= c <= 255 for rgb in colours for c in rgb)
(3, True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .colour_distance import HELD_OUT_MIN_DELTA_E, delta_e2000, rgb_to_lab

SUITS = "GWYR"
MARGIN = 1.0
"""Drawn colours keep HELD_OUT_MIN_DELTA_E + MARGIN from the sample of training's papers, so a
fresh sample cannot bring one under the limit."""
SEARCH_BOXES = {
    # suit -> where to look, as (hue range in degrees, saturation range, value range); light
    # enough that black ink reads on them, as it does on every training paper
    "G": [((168, 205), (0.4, 0.9), (0.5, 0.85))],      # teals and sea greens
    "W": [((0, 360), (0.0, 0.06), (0.5, 0.68)),        # greys
          ((190, 260), (0.1, 0.2), (0.85, 1.0))],      # blue-tinted whites
    "Y": [((38, 58), (0.6, 1.0), (0.5, 0.66)),         # mustards
          ((22, 34), (0.7, 1.0), (0.85, 1.0))],        # oranges
    "R": [((305, 340), (0.3, 0.7), (0.8, 1.0)),        # pinks
          ((14, 22), (0.6, 0.9), (0.85, 1.0))],        # corals
}


@lru_cache(maxsize=None)
def training_papers(suit: str, n: int = 6000, seed: int = 0) -> np.ndarray:
    """``n`` paper colours of ``suit`` as training draws them, as CIELAB (n + n // 4, 3): the
    generated palette's and the printed papers'."""
    from .printed import printed_paper
    from .render import suit_palette

    rng = np.random.default_rng(seed)
    colours = [suit_palette(rng)[suit] for _ in range(n)] + [printed_paper(rng, suit) for _ in range(n // 4)]
    return rgb_to_lab(np.array(colours))


def distances(rgb: tuple[int, int, int], n: int = 6000, seed: int = 0) -> dict[str, float]:
    """The least ΔE00 from ``rgb`` to each suit's training papers (a sample of ``n``, ``seed``)."""
    lab = rgb_to_lab(np.array([rgb]))[0]
    return {s: float(delta_e2000(lab[None], training_papers(s, n, seed)).min()) for s in SUITS}


def far_papers(suit: str, n: int, seed: int = 0) -> list[tuple[int, int, int]]:
    """``n`` paper colours of ``suit`` held out by look (see the module), drawn in :data:`SEARCH_BOXES`."""
    from .render import _hsv

    rng = np.random.default_rng([seed, SUITS.index(suit), 0xFA2])
    out: list[tuple[int, int, int]] = []
    for _ in range(200 * n):
        (h0, h1), (s0, s1), (v0, v1) = SEARCH_BOXES[suit][int(rng.integers(len(SEARCH_BOXES[suit])))]
        rgb = _hsv(rng.uniform(h0, h1) % 360, rng.uniform(s0, s1), rng.uniform(v0, v1))
        d = distances(rgb)
        if d[suit] >= HELD_OUT_MIN_DELTA_E + MARGIN and d[suit] <= min(d[s] for s in SUITS if s != suit):
            out.append(tuple(int(c) for c in rgb))
            if len(out) == n:
                return out
    raise RuntimeError(f"found only {len(out)} of {n} far papers for {suit}: widen SEARCH_BOXES")
