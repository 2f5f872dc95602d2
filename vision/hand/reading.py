"""Read a finished hand as a whole: the likeliest reading that is a legal winning hand.

Each card is read alone by the recogniser; a finished hand is more than its cards. Here each
detection may be any of its ``top_k`` readings or "not a card", and a card may have been missed.
The decoder finds the reading with the highest joint log-likelihood that is a win under the rules:
exactly the hand size less the exposed cards, no more copies or jokers than the deck holds, and a
split of every card into melds. It also finds the runner-up (another hand) and the margin between
them, so that the user is asked about the few cards that decide.

Readings are enumerated best first (a k-best enumeration of independent choices: each detection's
options sorted by their cost, every combination reached from exactly one parent), and checked with
the engine's component tables until the best and the runner-up are found or ``time_cap`` passes.

Layout prior: a finished hand lies in rows of meld groups. A card cut by the picture's edge, or
far from every row, is more likely a stray card or a false find, so its "not a card" option costs
less (:data:`EDGE_DOUBT`, :data:`OFF_ROW_DOUBT`).

>>> import numpy as np
>>> from sisepai.vision.recognition.detections import Detections
>>> hand = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK".split()
>>> from sisepai.engine.cards import CARD_CODES
>>> ids = [CARD_CODES.index(c) for c in hand]
>>> probs = np.eye(29)[ids] * 0.97 + 0.001
>>> probs[12] = np.eye(29)[CARD_CODES.index("GC")] * 0.55 + np.eye(29)[CARD_CODES.index("GP")] * 0.4
>>> boxes = np.array([[[x, 0], [x + 10, 0], [x + 10, 40], [x, 40]] for x in range(0, 210, 10)])
>>> det = Detections(boxes, np.full(21, 0.9), np.argmax(probs, 1), probs=probs,
...                  detector_confidence=np.full(21, 0.95))
>>> det.codes[12]  # read alone: a Cannon, and the hand would not be a win
'GC'
>>> result = decode_hand(det)
>>> result.best.cards[12], result.best.points  # read as a hand: the fourth Soldier
('GP', 11)
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field

import numpy as np

from sisepai.engine.cards import CARD_CODES, counts_of
from sisepai.engine.decompose import BestTable
from sisepai.engine.rules import Rules
from sisepai.vision.recognition.detections import Detections
from sisepai.vision.recognition.geometry import groups_along

NOT_A_CARD = -1
MISSED = -2
TOP_K = 3
MIN_PROB = 1e-4
"""A reading under this probability is not a candidate."""
MISS_COST = 4.0
"""The cost (negative log-likelihood) of a card the detector missed, before its kind."""
EDGE_DOUBT = 0.5
"""A card cut by the picture's edge: its card readings are weighted by this."""
OFF_ROW_DOUBT = 0.5
"""A card far from every row of the hand: its card readings are weighted by this."""
MELD_TIE = 0.01
"""Among equally likely completions by missed cards, each meld of the hand costs this much."""
MOST_MISSED = 2
"""At most this many missed cards are filled in: a photo missing more is not read as a whole."""
TIME_CAP = 0.25
"""Seconds the search may take; the best found by then is returned, marked ``timed_out``."""
_clock = time.perf_counter  # the search's clock, one name so a test can drive it
UNSURE_BELOW = 0.6
"""A card whose chosen reading has less than this share of its options' probability (or, read
alone, less than this confidence) is unsure: the user is asked about it."""


@dataclass(frozen=True)
class Option:
    """One choice for one detection: a card kind, or not a card; and its cost (-log p)."""

    kind: int
    cost: float


@dataclass
class HandChoice:
    """One reading of the whole hand."""

    cards: list[str]
    """The cards, in the order of the detections (left to right), missed cards last."""
    sources: list[int | None]
    """For each card, the detection it was read from (None for a card taken as missed)."""
    cost: float
    points: int
    melds: list[list[str]]


@dataclass
class HandDecoding:
    best: HandChoice | None
    runner_up: HandChoice | None
    margin: float | None
    """The runner-up's cost less the best's: a log-likelihood gap (None without a runner-up)."""
    options: list[list[Option]] = field(default_factory=list)
    choice: list[int] = field(default_factory=list)
    """For each detection, the index of its option in the best reading."""
    tried: int = 0
    timed_out: bool = False
    seconds: float = 0.0


def layout_doubt(det: Detections, size: tuple[int, int] | None) -> np.ndarray:
    """A weight per detection (1, or less for a card cut by the picture's edge or far from the
    rows of the hand).

    >>> sq = lambda x, y: [[x, y], [x + 10, y], [x + 10, y + 40], [x, y + 40]]
    >>> d = Detections(np.array([sq(20 + 20 * k, 50) for k in range(5)] + [sq(40, 300), sq(0, 150)]),
    ...                np.ones(7), np.zeros(7))
    >>> layout_doubt(d, (400, 400)).round(2).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.25]
    """
    n = len(det)
    weight = np.ones(n)
    if not n:
        return weight
    polys = det.polygons
    if size is not None:
        w, h = size
        cut = (polys[..., 0].min(1) <= 1) | (polys[..., 1].min(1) <= 1) | (polys[..., 0].max(1) >= w - 2) | \
              (polys[..., 1].max(1) >= h - 2)
        weight[cut] *= EDGE_DOUBT
    # rows run across the cards' long axis: a card's place down the rows is its centre projected on it
    sides_a, sides_b = polys[:, 1] - polys[:, 0], polys[:, 2] - polys[:, 1]
    long_side = np.where((np.linalg.norm(sides_a, axis=1) > np.linalg.norm(sides_b, axis=1))[:, None], sides_a, sides_b)
    length = float(np.median(np.linalg.norm(long_side, axis=1)))
    axis = long_side / np.maximum(np.linalg.norm(long_side, axis=1, keepdims=True), 1e-6)
    axis *= np.where(axis @ axis[0] < 0, -1.0, 1.0)[:, None]  # one sense for all
    down = np.mean(axis, axis=0)
    down /= max(float(np.linalg.norm(down)), 1e-6)
    ys = det.centers @ down
    rows = groups_along(ys, 0.5 * length)
    main = [r for r in rows if len(r) >= 3]
    if main:
        for r in rows:
            if len(r) < 3:
                far = min(abs(float(np.mean(ys[r])) - float(np.mean(ys[m]))) for m in main)
                if far > 1.5 * length:
                    weight[r] *= OFF_ROW_DOUBT
    return weight


def detection_options(det: Detections, weights: np.ndarray | None = None, top_k: int = TOP_K) -> list[list[Option]]:
    """Each detection's options, cheapest first: its ``top_k`` card readings and "not a card".

    A card reading costs -log(detector confidence x weight x reader probability); "not a card"
    costs -log of the rest.
    """
    weights = np.ones(len(det)) if weights is None else weights
    out = []
    for i in range(len(det)):
        p = np.clip(det.probs[i], 0, 1) * float(det.detector_confidence[i]) * float(weights[i])
        kinds = [int(k) for k in np.argsort(-p)[:top_k] if p[k] >= MIN_PROB]
        options = [Option(k, -math.log(float(p[k]))) for k in kinds]
        options.append(Option(NOT_A_CARD, -math.log(max(1.0 - float(p.sum()), MIN_PROB))))
        out.append(sorted(options, key=lambda o: o.cost))
    return out


def completions(counts: list[int], missing: int, limits: list[int], table: BestTable) -> list[tuple[list[int], int]]:
    """The kinds of ``missing`` missed cards that make ``counts`` a win, with the hand's points.

    >>> from sisepai.engine.cards import parse_card_ids
    >>> from sisepai.engine.rules import Rules
    >>> rules = Rules.preset("seesek")
    >>> counts = counts_of(parse_card_ids("GK GA J"))
    >>> [(CARD_CODES[k[0]], p) for k, p in completions(counts, 1, [4] * 28 + [5], BestTable.for_rules(rules))]
    [('GA', 4), ('GE', 4)]
    """
    if any(c > lim for c, lim in zip(counts, limits)):
        return []
    if missing == 0:
        points = table.best_points(counts)
        return [] if points is None else [([], points)]
    out = []
    for k in range(len(CARD_CODES)):
        if counts[k] >= limits[k]:
            continue
        counts[k] += 1
        for rest, points in completions(counts, missing - 1, limits, table):
            if not rest or rest[0] >= k:  # each set of kinds once, in order
                out.append(([k] + rest, points))
        counts[k] -= 1
    return out


def decode_hand(det: Detections, rules: Rules | None = None, exposed_cards: int = 0,
                size: tuple[int, int] | None = None, top_k: int = TOP_K, time_cap: float = TIME_CAP,
                miss_cost: float = MISS_COST, max_missed: int = 1) -> HandDecoding:
    """The likeliest winning reading of a finished hand, and the runner-up (see the module).

    Branch and bound over the detections' options, cheapest first; a reading with fewer cards
    than the hand holds is completed by missed cards (each costing ``miss_cost``, at most
    ``max_missed`` more than the detections are short), of every kind that makes it a win.
    """
    rules = rules or Rules.preset("seesek")
    table = BestTable.for_rules(rules)  # built once per rule set (a first call builds it): not the search's time
    start = _clock()
    target = rules.hand_size - exposed_cards
    order = [int(i) for i in np.argsort(det.centers[:, 0])] if len(det) else []
    options = detection_options(det, layout_doubt(det, size), top_k)
    items = [options[i] for i in order]
    most_missed = min(MOST_MISSED, max(0, target - len(det)) + max_missed)
    limits = rules.copy_limits
    if len(det) + most_missed < target:  # too many cards out of sight to read the hand as a whole
        return HandDecoding(None, None, None, options, [0] * len(det), 0, False, round(_clock() - start, 4))
    found: list[tuple[float, list[int], tuple[int, ...], list[int], int]] = []  # (cost, hand, state, missed, points)

    def consider(cost: float, state: tuple[int, ...]) -> None:
        kinds = [items[j][s].kind for j, s in enumerate(state) if items[j][s].kind >= 0]
        missing = target - len(kinds)
        if not 0 <= missing <= most_missed:
            return
        total = cost + missing * miss_cost
        if len(found) >= 2 and total >= found[1][0]:
            return
        for missed, points in completions(counts_of(kinds), missing, limits, table):
            hand = sorted(kinds + missed)
            if any(f[1] == hand for f in found):
                continue
            # a missed card is likelier one of a meld's cards than a meld of its own (a lone
            # General or joker): among completions, fewer melds cost a little less
            melds = len(table.best(counts_of(hand))[1]) if missed else 0
            found.append((total + MELD_TIE * melds, hand, state, missed, points))
            found.sort(key=lambda f: f[0])
            del found[2:]

    root = tuple(0 for _ in items)
    heap = [(sum(o[0].cost for o in items), 0, root)]  # (cost, first item a successor may change, state)
    tried, timed_out = 0, False
    while heap:
        cost, last, state = heapq.heappop(heap)
        if len(found) >= 2 and cost >= found[1][0]:
            break  # nothing left can beat the runner-up
        tried += 1
        consider(cost, state)
        for j in range(last, len(items)):
            if state[j] + 1 < len(items[j]):
                nxt = state[:j] + (state[j] + 1,) + state[j + 1:]
                heapq.heappush(heap, (cost + items[j][state[j] + 1].cost - items[j][state[j]].cost, j, nxt))
        if _clock() - start > time_cap:  # checked at every reading: one reading costs well under a millisecond
            timed_out = True
            break

    def choice_of(total: float, state: tuple[int, ...], missed: list[int]) -> HandChoice:
        cards, sources = [], []
        for j, s in enumerate(state):
            kind = items[j][s].kind
            if kind >= 0:
                cards.append(CARD_CODES[kind])
                sources.append(order[j])
        cards += [CARD_CODES[k] for k in missed]
        sources += [None] * len(missed)
        best = table.best(counts_of([CARD_CODES.index(c) for c in cards]))
        return HandChoice(cards, sources, round(total, 4), best[0], [m.codes for m in best[1]])

    best = choice_of(found[0][0], found[0][2], found[0][3]) if found else None
    runner = choice_of(found[1][0], found[1][2], found[1][3]) if len(found) > 1 else None
    choice = [0] * len(det)
    if found:
        for j, s in enumerate(found[0][2]):
            choice[order[j]] = s
    return HandDecoding(best, runner, round(runner.cost - best.cost, 4) if best and runner else None, options,
                        choice, tried, timed_out, round(_clock() - start, 4))


def unsure_cards(result: HandDecoding, below: float = UNSURE_BELOW) -> list[dict]:
    """The cards to ask the user about: each card of the best reading that the runner-up reads
    otherwise, or whose chosen reading has under ``below`` of its options' probability; with its
    likely alternatives, likeliest first ("none": not a card)."""
    if result.best is None:
        return []
    other = {}
    if result.runner_up is not None:
        other = {src: card for card, src in zip(result.runner_up.cards, result.runner_up.sources) if src is not None}
    out = []
    for index, (card, src) in enumerate(zip(result.best.cards, result.best.sources)):
        if src is None:
            out.append({"index": index, "card": card, "alternatives": ["none"], "missed": True})
            continue
        opts = result.options[src]
        probs = np.exp(-np.array([o.cost for o in opts]))
        share = float(probs[result.choice[src]] / probs.sum())
        if share >= below and other.get(src, card) == card:
            continue
        alternatives = [CARD_CODES[o.kind] if o.kind >= 0 else "none" for k, o in enumerate(opts) if k != result.choice[src]]
        if src in other and other[src] != card:  # the runner-up's reading first
            alternatives = [other[src]] + [a for a in alternatives if a != other[src]]
        out.append({"index": index, "card": card, "probability": round(share, 3), "alternatives": alternatives})
    return out
