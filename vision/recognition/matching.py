"""Readings matched to the cards a picture holds, and the F1 of the match: the one rule every
measurement of the recogniser uses (its evaluation, enrolment's check, the tuning of its floors).

A prediction may take a card when the codes agree and its centre lies inside the card's outline;
each card is taken once.
"""

from __future__ import annotations

import numpy as np

from .geometry import inside


def card_matching(pred_codes, pred_centers, pred_conf, truth) -> dict[int, int]:
    """The maximum bipartite matching of :func:`match_cards`, as {truth index: prediction index}."""
    options = [[j for j, t in enumerate(truth) if t["card"] == pred_codes[i] and inside(pred_centers[i], t["corners"])]
               for i in range(len(pred_codes))]
    owner: dict[int, int] = {}  # truth index -> prediction index

    def augment(i: int, seen: set[int]) -> bool:
        for j in options[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in np.argsort(-np.asarray(pred_conf, dtype=float)):
        augment(int(i), set())
    return owner


def match_cards(pred_codes, pred_centers, pred_conf, truth) -> tuple[int, int, int, list[str]]:
    """Match predictions to ground-truth cards: (tp, fp, fn, misreads as "TRUE->READ").

    A prediction may take a card when the codes agree and its centre lies inside the card's
    outline; each card is taken once. Cards in a meld overlap, so one centre often lies inside
    several cards: the matching is a maximum bipartite matching (augmenting paths, most confident
    predictions first), not a greedy one, which would let the first prediction take the card a
    later one needed. An unmatched prediction whose centre lies inside a card left unmatched is a
    misread of that card.

    >>> sq = lambda x: [[x, 0], [x + 10, 0], [x + 10, 30], [x, 30]]
    >>> truth = [{"card": "GP", "corners": sq(0)}, {"card": "GP", "corners": sq(5)}]
    >>> match_cards(["GP", "GP"], [(7, 5), (3, 5)], [0.9, 0.8], truth)[:3]  # greedy would give (1, 1, 1)
    (2, 0, 0)
    """
    def within(i: int, j: int) -> bool:
        return inside(pred_centers[i], truth[j]["corners"])

    owner = card_matching(pred_codes, pred_centers, pred_conf, truth)
    order = [int(i) for i in np.argsort(-np.asarray(pred_conf, dtype=float))]
    matched = set(owner.values())
    misreads = []
    taken = set(owner)
    for i in order:
        if i in matched:
            continue
        j = next((j for j in range(len(truth)) if j not in taken and within(i, j)), None)
        if j is not None:
            taken.add(j)
            misreads.append(f"{truth[j]['card']}->{pred_codes[i]}")
    tp = len(matched)
    return tp, len(pred_codes) - tp, len(truth) - tp, misreads


def f1_score(tp: int, fp: int, fn: int) -> float:
    """F1 from counts.

    >>> f1_score(8, 2, 2)
    0.8
    """
    p, r = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
    return round(2 * p * r / max(p + r, 1e-9), 4)


OPTIONAL_MIN_VISIBLE = 0.3
"""A face-up card not labelled (under half a character shows) but showing at least this share of a
character may be read without penalty: a player names a card from a third of its character, the
detector is taught such ends (``sisepai.models.training.prepare.END_MIN_VISIBLE``), and the
second camera's scenes draw the line there too. Read wrong, it is false."""


def optional_readings(pred_codes, pred_centers, pred_conf, truth: list[dict], cards: list[dict]) -> int:
    """Predictions no needed card took that read an optional card right: one marked ``optional``
    (the second camera's scenes mark the cards a reader may not name), or a face-up card not
    labelled that shows :data:`OPTIONAL_MIN_VISIBLE` of a character. Neither found nor false.

    >>> sq = lambda x: [[x, 0], [x + 10, 0], [x + 10, 30], [x, 30]]
    >>> cards = [{"card": "GP", "corners": sq(0), "labelled": True},
    ...          {"card": "RK", "corners": sq(20), "labelled": False, "optional": True}]
    >>> optional_readings(["GP", "RK", "RK"], [(5, 5), (25, 5), (26, 6)], [0.9, 0.8, 0.7], cards[:1], cards)
    1
    """
    optional = [c for c in cards if c.get("optional") or (c.get("face_up") and not c.get("labelled")
                                                          and c.get("char_visible", 0.0) >= OPTIONAL_MIN_VISIBLE)]
    if not optional:
        return 0
    taken = set(card_matching(pred_codes, pred_centers, pred_conf, truth).values())
    left = [i for i in range(len(pred_codes)) if i not in taken]
    owner = card_matching([pred_codes[i] for i in left], [pred_centers[i] for i in left],
                          [pred_conf[i] for i in left], optional)
    return len(owner)
