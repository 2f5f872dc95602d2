"""Paper colours outside training's palette, held out as printed: for each suit, colours at least
:data:`~.colour_distance.HELD_OUT_MIN_DELTA_E` (ΔE00) from every paper colour of that suit that
training draws (:func:`.render.suit_palette` and :data:`.printed.PRINTED_PAPERS`), and no nearer
another suit's training papers than their own suit's, so that a player would still name the suit.
They are held out as printed only: training's camera scales each channel of every frame, and so
tinted, a training paper comes within a few ΔE00 of each of them
(:func:`least_delta_e_after_camera`; ``models/evaluation/held_out_eval.py`` measures the test ones).

They are what a deck printed on unusual stock looks like: teal greens, grey and blue-tinted
whites, mustards and oranges, pinks and corals. ``sisepai.models.evaluation.paper_eval`` measures the
recogniser on decks printed on them; ``tests/datasets/design/test_far_papers.py`` measures the distance
again against a fresh sample of training's papers.

>>> colours = far_papers("G", 3, seed=0)
>>> len(colours), all(0 <= c <= 255 for rgb in colours for c in rgb)
(3, True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from sisepai.datasets.design.colour_distance import (
    EXPOSURE,
    HELD_OUT_MIN_DELTA_E,
    WHITE_BALANCE,
    delta_e2000,
    rgb_to_lab,
)
from sisepai.datasets.design.printed import printed_paper
from sisepai.datasets.design.render import _hsv, suit_palette

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
def training_paper_rgb(suit: str, n: int = 6000, seed: int = 0) -> np.ndarray:
    """``n`` paper colours of ``suit`` as training draws them, as sRGB (n + n // 4, 3): the
    generated palette's and the printed papers'."""

    rng = np.random.default_rng(seed)
    colours = [suit_palette(rng)[suit] for _ in range(n)] + [printed_paper(rng, suit) for _ in range(n // 4)]
    return np.array(colours, np.float64)


@lru_cache(maxsize=None)
def training_papers(suit: str, n: int = 6000, seed: int = 0) -> np.ndarray:
    """:func:`training_paper_rgb` as CIELAB (n + n // 4, 3)."""
    return rgb_to_lab(training_paper_rgb(suit, n, seed))


def least_delta_e_after_camera(rgb: tuple[int, int, int], suit: str, n: int = 6000, seed: int = 0,
                               steps: int = 27) -> float:
    """The least ΔE00 from ``rgb`` to a training paper of ``suit`` *as training's camera shows it*:
    each paper times an exposure and a white balance inside :data:`.colour_distance.EXPOSURE` and
    :data:`.colour_distance.WHITE_BALANCE`, the gains that bring it nearest (per exposure of a grid of
    ``steps``, each channel's gain the one that best matches, clipped to its range). Shadows and
    vignetting darken further, so the true least distance is at most this.

    >>> paper = training_paper_rgb("G")[0]
    >>> round(least_delta_e_after_camera(tuple(paper * [0.9, 0.95, 1.0]), "G"), 1)  # a camera's tint of a training paper
    0.0
    """

    target = np.asarray(rgb, np.float64)
    papers = np.maximum(training_paper_rgb(suit, n, seed), 1.0)
    lab = rgb_to_lab(target)
    best = np.inf
    for exposure in np.linspace(*EXPOSURE, steps):
        gains = np.clip(target / (exposure * papers), *WHITE_BALANCE)
        shown = np.clip(papers * exposure * gains, 0, 255)
        best = min(best, float(delta_e2000(lab[None], rgb_to_lab(shown)).min()))
    return best


def distances(rgb: tuple[int, int, int], n: int = 6000, seed: int = 0) -> dict[str, float]:
    """The least ΔE00 from ``rgb`` to each suit's training papers (a sample of ``n``, ``seed``)."""
    lab = rgb_to_lab(np.array([rgb]))[0]
    return {s: float(delta_e2000(lab[None], training_papers(s, n, seed)).min()) for s in SUITS}


def far_papers(suit: str, n: int, seed: int = 0) -> list[tuple[int, int, int]]:
    """``n`` paper colours of ``suit`` held out as printed (see the module), drawn in :data:`SEARCH_BOXES`."""

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
