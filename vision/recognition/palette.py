"""The deck's own colours: each suit's paper colour, learned from the cards read surely, re-ranks
the reader's suit for the cards read less surely.

A suit's colour is not one fixed hue. Decks print yellow-greens, orange yellows, pale pinks, and a
camera's white balance moves them all. The reader sees one card end at a time, so a lime green
card under a warm light reads as yellow. Next to the deck's true yellow cards, it is plainly
not yellow. A :class:`SuitPalette` keeps, for each suit (and the joker), the paper colours of the
cards read with no doubt, in a picture (one photo) or over the last minute (a video). Another
card's suit belief is then weighted by how near its paper is to each suit's colour.

Colours are CIELAB chroma (a*, b*): paper brightness changes with shadows, its chroma much less.

Over a video, the palette also finds a suit that the reader calls by another's name on every
card, sure of it: a pale green paper read as white beside the deck's true whites. One deck
prints each suit on one paper, so one suit read on two papers in one frame, while another suit
is read nowhere, is two suits (:meth:`SuitPalette.find_split`).

>>> import numpy as np
>>> palette = SuitPalette(min_samples=2)
>>> sure_yellow, sure_white = np.eye(30)[14], np.eye(30)[7]  # YK and WK, read with no doubt
>>> palette.learn([np.array([12.0, 70.0]), np.array([0.0, 3.0])] * 2, [sure_yellow, sure_white] * 2)
>>> doubtful = np.zeros(30); doubtful[[14, 0]] = [0.7, 0.3]  # YK or GK?
>>> out = palette.rerank(doubtful, np.array([-30.0, 65.0]))  # a lime paper: not this deck's yellow
>>> int(np.argmax(out))  # GK
0
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Sequence

import cv2
import numpy as np

from sisepai.engine.cards import CARD_CODES, JOKER

SUITS = ("G", "W", "Y", "R", "J")
"""The palette's groups: the four suits and the joker (which has its own deeper red)."""
_GROUP = np.array([SUITS.index(code[0]) for code in CARD_CODES])  # class id -> palette group


def paper_lab(crop_rgb: np.ndarray) -> np.ndarray:
    """A card end's paper colour as (L, a*, b*), OpenCV's 8-bit CIELAB with a* and b* centred on 0:
    the median of its brighter half of pixels (the character's ink is the darker part)."""
    return paper_of_pixels(cv2.cvtColor(np.ascontiguousarray(crop_rgb), cv2.COLOR_RGB2LAB).reshape(-1, 3))


def paper_of_pixels(lab: np.ndarray) -> np.ndarray:
    """The paper's (L, a*, b*) among some pixels, each OpenCV's 8-bit CIELAB (an ``(N, 3)`` array):
    the median of the brighter half, a* and b* centred on 0."""
    lab = lab.astype(np.float32)
    bright = lab[lab[:, 0] >= median_rows(lab[:, 0])]
    return median_rows(bright) - np.float32([0, 128, 128])


def median_rows(values: np.ndarray) -> np.ndarray:
    """``np.median(values, axis=0)``, the same numbers, in a quarter of its time on a crop's pixels.

    >>> x = np.float32([[3, 1], [1, 4], [2, 2], [9, 0]])
    >>> median_rows(x).tolist(), np.median(x, axis=0).tolist()
    ([2.5, 1.5], [2.5, 1.5])
    """
    n = len(values)
    ordered = np.sort(values, axis=0)
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / values.dtype.type(2)


def paper_colour(crop_rgb: np.ndarray) -> np.ndarray:
    """The (a*, b*) chroma of a card end's paper (:func:`paper_lab` without the lightness).

    >>> crop = np.zeros((12, 12, 3), np.uint8); crop[:] = (167, 223, 37); crop[4:8] = (40, 48, 49)
    >>> paper_colour(crop).round().tolist()  # a lime green paper, dark ink
    [-42.0, 76.0]
    """
    return paper_lab(crop_rgb)[1:]


SUIT_PROTOTYPES = {"G": (-30.0, 26.0), "W": (0.0, 0.0), "Y": (0.0, 53.0), "R": (35.0, 16.0)}
"""Where each suit's paper lies on average: the median (a*, b*) of 600 training crops of each suit
(generator 1.3). Only the direction from one suit to another is used (:func:`one_colour_per_suit`)."""


def colour_groups(colours: Sequence[np.ndarray | None], radius: float) -> list[list[int]]:
    """Indices of ``colours`` linked by chains of steps under ``radius`` (single linkage), largest
    group first; ``None`` colours are in no group.

    >>> colour_groups([np.array([0.0, 0]), np.array([2.0, 0]), None, np.array([20.0, 0])], 3.0)
    [[0, 1], [3]]
    """
    idx = [i for i, c in enumerate(colours) if c is not None]
    if not idx:
        return []
    points = np.stack([colours[i] for i in idx]).astype(np.float32)
    near = np.linalg.norm(points[:, None] - points[None], axis=2) < radius
    label = np.arange(len(idx))
    while True:  # each point takes the smallest label among its neighbours until nothing changes
        new = np.where(near, label[None, :], len(idx)).min(axis=1)
        new = new[new]
        if np.array_equal(new, label):
            break
        label = new
    groups: dict[int, list[int]] = {}
    for k, i in enumerate(idx):
        groups.setdefault(int(label[k]), []).append(i)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


def one_colour_per_suit(probs: Sequence[np.ndarray], colours: Sequence[np.ndarray | None], radius: float = 4.0,
                        min_gap: float = 10.0, min_size: int = 2, doubt: float = 0.95,
                        min_other: float = 0.02) -> list[np.ndarray]:
    """One deck prints each suit on one paper. Two colour groups of one picture (at least
    ``min_size`` papers within chains of ``radius``; ``min_gap`` apart) may both be read mostly as
    one suit S while a suit T is read nowhere else: a lime green deck beside its true yellows, under
    a warm light. The group read less surely as S (its mean S belief under ``doubt``), lying from the
    other towards T's usual colour (``SUIT_PROTOTYPES``), and giving T at least ``min_other`` belief
    on average, is then T: its members' S and T beliefs are swapped (the ranks read stay).

    A suit's papers also differ across one picture (light, shadows, half-hidden ends), so a group
    read surely as S is never moved. Video uses the :class:`SuitPalette` (:meth:`SuitPalette.observe`),
    which splits a suit only on evidence from several frames: its light changes.

    >>> yk, gk = np.eye(30)[14], np.eye(30)[0]  # YK and GK
    >>> doubtful = 0.8 * yk + 0.2 * gk
    >>> yellow, lime = np.array([-18.0, 74.0]), np.array([-18.0, 63.0])
    >>> out = one_colour_per_suit([yk, yk, doubtful, doubtful], [yellow, yellow, lime, lime])
    >>> [int(np.argmax(p)) for p in out]  # the lime pair is the deck's green
    [14, 14, 0, 0]
    """
    out = [np.asarray(p).copy() for p in probs]
    belief = [SuitPalette._group_belief(p) for p in out]
    groups = [g for g in colour_groups(colours, radius) if len(g) >= min_size]
    suit = [int(np.argmax(np.sum([belief[i] for i in g], axis=0))) for g in groups]
    for ia, a in enumerate(groups):
        for ib, b in enumerate(groups):
            s = suit[ia]
            if ia == ib or suit[ib] != s or SUITS[s] not in SUIT_PROTOTYPES:
                continue
            sure_a, sure_b = (float(np.mean([np.log(belief[i][s] + 1e-6) for i in g])) for g in (a, b))
            ca, cb = (np.median([colours[i] for i in g], axis=0) for g in (a, b))
            if sure_a <= sure_b or np.linalg.norm(ca - cb) < min_gap or np.mean([belief[i][s] for i in b]) >= doubt:
                continue
            read_elsewhere = {int(np.argmax(belief[i])) for i in range(len(out)) if i not in b}
            home = np.float32(SUIT_PROTOTYPES[SUITS[s]])
            others = [t for t, name in enumerate(SUITS)
                      if name in SUIT_PROTOTYPES and t != s and t not in read_elsewhere
                      and float(np.dot(cb - ca, np.float32(SUIT_PROTOTYPES[name]) - home)) > 0
                      and np.mean([belief[i][t] for i in b]) >= min_other]
            if not others:
                continue
            t = max(others, key=lambda t: sum(np.log(belief[i][t] + 1e-6) for i in b))
            rows_s, rows_t = np.flatnonzero(_GROUP == s), np.flatnonzero(_GROUP == t)  # ranks in the same order
            for i in b:
                out[i][rows_s], out[i][rows_t] = out[i][rows_t].copy(), out[i][rows_s].copy()
                belief[i] = SuitPalette._group_belief(out[i])
            suit[ib] = t
    return out


SPLIT_RADIUS = 4.0
"""A suit's papers in one frame lie within chains of steps under this (a*b* units)."""
SPLIT_GAP = 10.0
"""Two papers of one suit lie at least this far apart to be two suits' (a*b* units)."""
SPLIT_COSINE = 0.8
"""... and the step between them points from one suit's usual colour to the other's this well."""
SPLIT_FRAMES = 5
"""Frames that must show a split before the palette takes it."""
STILL_SPLIT_RADIUS = 8.0
"""A still picture's papers of one suit lie within chains of steps under this (a*b* units): one
picture's light spreads a paper wider than the steps between a video's frames
(:attr:`~.profile.ReadingProfile.split_in_picture`)."""


class SuitPalette:
    """Each suit's paper colour from surely-read cards, and the re-ranking of doubtful ones.

    ``sigma``: how far (in a*b* units) one suit's papers spread under one light. ``window``: how
    many recent sure cards each suit remembers (a video's light changes slowly). A suit whose
    colour is not known yet is taken to lie ``unknown_sigmas`` away: a card far from every known
    suit's colour may be a suit not seen yet (but not a joker: jokers are too few to be missed).
    Distances count at most ``far_sigmas``. The palette only chooses among the reader's own
    candidates: a card kind the reader gave less than ``min_belief`` is never promoted to first, and
    nor is a joker (a shadowed red card or a hand over a card has a joker's colour).
    """

    def __init__(self, sigma: float = 6.0, min_samples: int = 3, sure: float = 0.99, window: int = 40,
                 unknown_sigmas: float = 2.0, far_sigmas: float = 4.0, min_belief: float = 0.002,
                 split_frames: int = SPLIT_FRAMES):
        self.sigma = sigma
        self.min_belief = min_belief
        self.min_samples = min_samples
        self.sure = sure
        self.unknown_sigmas = unknown_sigmas
        self.far_sigmas = far_sigmas
        self.window = window
        self.samples: list[deque] = [deque(maxlen=window) for _ in SUITS]
        self.split_frames = split_frames
        self.split_votes: Counter = Counter()  # (S, T) -> frames that showed T's paper read as S
        self.splits: dict[int, int] = {}  # S -> T: this deck's T paper is read as S (see :meth:`observe`)

    def observe(self, colours: Sequence[np.ndarray | None], probs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """One video frame's readings: find a suit read on two papers (:meth:`find_split`), give
        the papers of a split suit to their own suit (:meth:`unsplit`), learn from the sure
        readings and re-rank the rest (:meth:`rerank_all`).

        >>> white, green = np.array([12.0, -7.0]), np.array([-10.0, 1.0])  # a pale green read as white
        >>> wk, wp = np.eye(30)[7], np.eye(30)[13]
        >>> palette = SuitPalette()
        >>> for _ in range(SPLIT_FRAMES):
        ...     out = palette.observe([white, white, green, green], [wk, wp, wk, wp])
        >>> [CARD_CODES[int(np.argmax(p))] for p in out]
        ['WK', 'WP', 'GK', 'GP']
        """
        self.find_split(colours, probs)
        probs = self.unsplit(probs, colours)
        self.learn(colours, probs)
        return self.rerank_all(probs, colours)

    def find_split(self, colours: Sequence[np.ndarray | None], probs: Sequence[np.ndarray],
                   radius: float = SPLIT_RADIUS, gap: float = SPLIT_GAP) -> None:
        """One deck prints each suit on one paper. When one frame's sure readings of a suit S lie
        on two papers (groups of at least two within chains of ``radius``, at least ``gap``
        apart), while a suit T is read nowhere in the frame, and the step from
        one paper to the other points from S's usual colour to T's (``SUIT_PROTOTYPES``, cosine
        at least :data:`SPLIT_COSINE`), the second paper is T's: a reader sure of S on a deck
        whose T paper it never saw. After ``split_frames`` such frames the palette takes it: T's
        colour is that paper's, S's the other's (:meth:`unsplit` then moves the readings)."""
        beliefs = [self._group_belief(p) for p in probs]
        read = {int(np.argmax(b)) for b in beliefs}
        for s, name in enumerate(SUITS):
            if name not in SUIT_PROTOTYPES or s in self.splits:
                continue
            idx = [i for i, (c, b) in enumerate(zip(colours, beliefs))
                   if c is not None and int(np.argmax(b)) == s and b[s] >= self.sure]
            groups = [[idx[k] for k in g] for g in colour_groups([colours[i] for i in idx], radius)
                      if len(g) >= 2]
            if len(groups) < 2:
                continue
            a, b = groups[:2]
            ca, cb = (np.median([colours[i] for i in g], axis=0) for g in (a, b))
            if float(np.linalg.norm(cb - ca)) < gap:
                continue
            best: tuple | None = None  # (cosine, T, S's group and paper, T's group and paper)
            for own, other, c_own, c_other in ((a, b, ca, cb), (b, a, cb, ca)):
                step = c_other - c_own
                for t, other_name in enumerate(SUITS):
                    if other_name not in SUIT_PROTOTYPES or t == s or t in read or t in self.splits.values():
                        continue
                    way = np.float32(SUIT_PROTOTYPES[other_name]) - np.float32(SUIT_PROTOTYPES[name])
                    cos = float(np.dot(step, way) / (np.linalg.norm(step) * np.linalg.norm(way)))
                    if cos >= SPLIT_COSINE and (best is None or cos > best[0]):
                        best = (cos, t, own, c_own, other, c_other)
            if best is None:
                continue
            _, t, own, c_own, other, c_other = best
            self.split_votes[(s, t)] += 1
            if self.split_votes[(s, t)] >= self.split_frames:
                self.splits[s] = t
                kept = [x for x in self.samples[s] if np.linalg.norm(x - c_own) < np.linalg.norm(x - c_other)]
                self.samples[s] = deque(kept + [np.asarray(colours[i], np.float32) for i in own], maxlen=self.window)
                self.samples[t] = deque((np.asarray(colours[i], np.float32) for i in other), maxlen=self.window)

    def unsplit(self, probs: Sequence[np.ndarray], colours: Sequence[np.ndarray | None]) -> list[np.ndarray]:
        """Each reading of a split suit S (:meth:`find_split`) whose paper lies nearer T's colour
        than S's is T's: its S and T beliefs are swapped (the rank read stays)."""
        if not self.splits:
            return list(probs)
        centres = {g: np.median(np.stack(self.samples[g]), axis=0) for pair in self.splits.items() for g in pair
                   if self.samples[g]}  # a split's two papers, however few their samples yet
        out = []
        for p, c in zip(probs, colours):
            s = int(np.argmax(self._group_belief(p)))
            t = self.splits.get(s)
            if t is not None and c is not None and s in centres and t in centres \
                    and np.linalg.norm(c - centres[t]) < np.linalg.norm(c - centres[s]):
                p = np.asarray(p).copy()
                rows_s, rows_t = np.flatnonzero(_GROUP == s), np.flatnonzero(_GROUP == t)  # ranks in the same order
                p[rows_s], p[rows_t] = p[rows_t].copy(), p[rows_s].copy()
            out.append(p)
        return out

    def learn(self, colours: Sequence[np.ndarray | None], probs: Sequence[np.ndarray]) -> None:
        """Remember the paper colour of every card whose suit (joker included) is read with at
        least ``sure`` belief."""
        for colour, p in zip(colours, probs):
            if colour is None:
                continue
            group = self._group_belief(p)
            best = int(np.argmax(group))
            if group[best] >= self.sure:
                self.samples[best].append(np.asarray(colour, np.float32))

    def centres(self) -> dict[str, np.ndarray]:
        """Each suit's learned paper colour (the median of its samples), for suits seen enough."""
        return {SUITS[g]: np.median(np.stack(s), axis=0) for g, s in enumerate(self.samples)
                if len(s) >= self.min_samples}

    def rerank_all(self, probs: Sequence[np.ndarray], colours: Sequence[np.ndarray | None]) -> list[np.ndarray]:
        """:meth:`rerank` for many readings at once (the suit colours are worked out once)."""
        centres = self.centres()
        return [self.rerank(p, c, centres) for p, c in zip(probs, colours)]

    def rerank(self, probs: np.ndarray, colour: np.ndarray | None,
               centres: dict[str, np.ndarray] | None = None) -> np.ndarray:
        """``probs`` (29 card kinds, then any extra classes such as 'none') weighted by how near
        ``colour`` lies to each suit's paper colour; unchanged while fewer than two suits are known."""
        centres = self.centres() if centres is None else centres
        if colour is None or len(centres) < 2:
            return probs
        d2 = np.full(len(SUITS), self.unknown_sigmas ** 2)
        for name, centre in centres.items():
            d2[SUITS.index(name)] = min(float(np.sum((colour - centre) ** 2)) / self.sigma ** 2, self.far_sigmas ** 2)
        if "J" not in centres:  # jokers are few: an unseen joker colour is no evidence for one
            d2[SUITS.index("J")] = min(d2[SUITS.index(name)] for name in centres)
        weight = np.exp(-0.5 * (d2 - d2.min()))
        out = probs.astype(np.float64)
        n = len(_GROUP)
        out[:n] = out[:n] * weight[_GROUP]
        total = out[:n].sum()
        if total <= 0:
            return probs
        out[:n] *= probs[:n].sum() / total
        best = int(np.argmax(out[:n]))
        if probs[best] < self.min_belief or (best == JOKER and int(np.argmax(probs[:n])) != JOKER):
            return probs  # not the reader's own candidate, or a joker made from a colour alone
        return out.astype(probs.dtype)

    @staticmethod
    def _group_belief(p: np.ndarray) -> np.ndarray:
        return np.bincount(_GROUP, weights=p[:len(_GROUP)], minlength=len(SUITS))


def crop_paper_colour(crop_rgb: np.ndarray, size: int = 48) -> np.ndarray:
    """The (a*, b*) paper colour of a straightened end crop as the recogniser measures it: the
    middle of the crop (its margin cut) at 12x12 pixels."""
    if crop_rgb.shape[:2] != (size, size):
        crop_rgb = cv2.resize(crop_rgb, (size, size), interpolation=cv2.INTER_AREA)
    m = round(size * 0.14)
    return paper_colour(cv2.resize(np.ascontiguousarray(crop_rgb[m:-m, m:-m]), (12, 12), interpolation=cv2.INTER_AREA))


UNCOVERED_MIN_SHARE = 0.3
"""The share of an end's middle that must lie outside every whole card for its paper to be measured
there (:func:`uncovered_paper_colour`); below it, the end is measured as a whole."""


def uncovered_paper_colour(rgb: np.ndarray, quad: np.ndarray, covers: Sequence[np.ndarray],
                           middle: float = 0.78, min_share: float = UNCOVERED_MIN_SHARE) -> np.ndarray | None:
    """The (a*, b*) paper colour of the part of an end's middle that no outline of ``covers`` lies
    on: a card in a fan shows an end that the card over it partly covers, and the whole end's
    colour is then partly the top card's. ``None`` where no cover overlaps the end's middle (measure
    the end as a whole) or too little of it is left (``min_share``). ``middle``: the share of the
    end's size about its centre that is measured, as :func:`crop_paper_colour` cuts the crop's margin.

    >>> img = np.zeros((100, 100, 3), np.uint8); img[:, :50] = (200, 90, 110); img[:, 50:] = (60, 170, 90)
    >>> end = np.float32([[20, 20], [80, 20], [80, 80], [20, 80]])  # half a pink paper, half a green card's
    >>> green_card = np.float32([[50, 0], [100, 0], [100, 100], [50, 100]])
    >>> [round(v) for v in uncovered_paper_colour(img, end, [green_card])]  # the pink paper alone
    [46, 10]
    >>> [round(v) for v in paper_colour(img[:, :50])]  # as the pink paper measures on its own
    [46, 10]
    >>> uncovered_paper_colour(img, end, []) is None  # nothing covers it
    True
    """
    q = np.float32(quad)
    centre = q.mean(0)
    q = centre + (q - centre) * middle
    h, w = rgb.shape[:2]
    x0, y0 = np.maximum(np.floor(q.min(0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(q.max(0)).astype(int) + 1, [w, h])
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    near = [np.float32(poly) for poly in covers]
    near = [poly for poly in near if poly[:, 0].max() >= x0 and poly[:, 0].min() < x1
            and poly[:, 1].max() >= y0 and poly[:, 1].min() < y1]
    if not near:  # no cover comes near the end: the common case, settled without drawing
        return None
    offset = np.float32([x0, y0])
    end = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(end, np.round(q - offset).astype(np.int32), 1)
    covered = np.zeros_like(end)
    for poly in near:
        cv2.fillConvexPoly(covered, np.round(poly - offset).astype(np.int32), 1)
    area = int(end.sum())
    seen = (end > 0) & (covered == 0)
    if area == 0 or not (covered[end > 0]).any() or seen.sum() < max(min_share * area, 9):
        return None
    return paper_of_pixels(cv2.cvtColor(np.ascontiguousarray(rgb[y0:y1, x0:x1]), cv2.COLOR_RGB2LAB)[seen])[1:]


def deck_colours(crops: Sequence[np.ndarray], class_ids: Sequence[int]) -> dict[str, list[float]]:
    """Each suit's (and the joker's) median paper colour over labelled end crops of one deck, as
    :func:`crop_paper_colour` measures it: what :func:`rerank_by_deck_colours` starts from.

    >>> green, white = np.full((48, 48, 3), (90, 170, 90), np.uint8), np.full((48, 48, 3), 235, np.uint8)
    >>> {k: [round(v) for v in c] for k, c in deck_colours([green, white], [0, 7]).items()}
    {'G': [-41, 34], 'W': [0, 0]}
    """
    by_suit: dict[str, list[np.ndarray]] = {}
    for crop, cid in zip(crops, class_ids):
        if 0 <= cid < len(_GROUP):
            by_suit.setdefault(SUITS[_GROUP[cid]], []).append(crop_paper_colour(crop))
    return {s: [round(float(v), 2) for v in np.median(np.stack(by_suit[s]), axis=0)] for s in SUITS if s in by_suit}


DECK_COLOUR_SIGMA = 5.0
"""How far (a*b* units) one paper of an enrolled deck spreads in one picture, once the picture's
cast is taken off (:func:`rerank_by_deck_colours`). Chosen on the five enrolled tuning decks (5, 8
and 12 tried; ``docs/training-logs/recognizer-floors.md``)."""
DECK_CAST_SURE = 0.9
"""The suit belief of the cards whose papers tell a picture's cast (:func:`picture_cast`)."""


def picture_cast(probs: Sequence[np.ndarray], colours: Sequence[np.ndarray | None],
                 deck: dict[str, Sequence[float]], sure: float = DECK_CAST_SURE) -> np.ndarray | None:
    """How one picture's light moves an enrolled deck's papers: the median, over the cards whose
    suit is read with at least ``sure`` belief, of the step from that suit's enrolled paper to the
    paper seen; ``None`` with fewer than two such cards.

    >>> wk, rk = np.eye(30)[7], np.eye(30)[21]
    >>> deck = {"W": [0.0, 8.0], "R": [10.0, 8.0]}
    >>> picture_cast([wk, rk, wk], [np.array([6.0, 12.0]), np.array([15.0, 13.0]), np.array([5.0, 12.0])], deck).tolist()
    [5.0, 4.0]
    """
    sure_papers = SuitPalette(sure=sure, window=max(len(probs), 1))  # the palette's own rule of a sure reading
    sure_papers.learn(colours, probs)
    steps = [seen - np.float32(deck[SUITS[g]]) for g, papers in enumerate(sure_papers.samples) if SUITS[g] in deck
             for seen in papers]
    return np.median(np.stack(steps), axis=0) if len(steps) >= 2 else None


def rerank_by_deck_colours(probs: Sequence[np.ndarray], colours: Sequence[np.ndarray | None],
                           deck: dict[str, Sequence[float]], sigma: float = DECK_COLOUR_SIGMA,
                           sure: float = DECK_CAST_SURE) -> list[np.ndarray]:
    """One picture of an enrolled deck: each card's suit weighted by how near its paper lies to
    each suit's enrolled paper, moved by the picture's cast (:func:`picture_cast`). A camera's
    cast moves every paper alike, so a pale pink and a cream stay apart in one picture where a
    single end's colour is ambiguous. The weighting is :meth:`SuitPalette.rerank`'s (within
    ``sigma``, only among the reader's own candidates, never to a joker); the ranks read stay.
    Readings are left as read while fewer than two cards tell the cast.

    >>> wk, rk = np.eye(30)[7], np.eye(30)[21]
    >>> deck = {"W": [0.0, 8.0], "R": [10.0, 8.0]}
    >>> cast = np.array([8.0, 3.0])  # a warm light: the deck's cream looks like its pink
    >>> doubtful = 0.4 * wk + 0.6 * rk
    >>> colours = [np.float32(deck["W"]) + cast] * 3 + [np.float32(deck["R"]) + cast] * 2
    >>> out = rerank_by_deck_colours([wk, wk, doubtful, rk, rk], colours, deck)
    >>> [CARD_CODES[int(np.argmax(p))] for p in out]  # the third card's paper is the picture's cream
    ['WK', 'WK', 'WK', 'RK', 'RK']
    """
    cast = picture_cast(probs, colours, deck, sure)
    if cast is None:
        return list(probs)
    palette = SuitPalette(sigma=sigma)
    centres = {s: np.float32(deck[s]) + cast for s in SUITS if s in deck}
    return [palette.rerank(np.asarray(p), c, centres) for p, c in zip(probs, colours)]
