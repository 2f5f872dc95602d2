"""Score a photographed hand: the recognised cards, split and scored, with the doubt made explicit.

>>> import numpy as np
>>> from sisepai.vision.detections import Detections
>>> ids = [0, 1, 2]
>>> d = Detections(np.zeros((3, 4, 2)), np.ones(3), np.array(ids))
>>> score_detections(d)["winning"]
False
"""

from __future__ import annotations

import numpy as np

from sisepai.engine.cards import CARD_CODES, counts_of
from sisepai.engine.decompose import BestTable
from sisepai.engine.rules import Rules

from .detections import Detections

UNSURE = 0.6


def _points(ids: list[int], rules: Rules) -> tuple[int | None, list[list[str]] | None]:
    if len(ids) != rules.hand_size:
        return None, None
    if any(n > (rules.jokers if k == 28 else rules.copies) for k, n in enumerate(counts_of(ids))):
        return None, None
    best = BestTable.for_rules(rules).best(counts_of(ids))
    if best is None:
        return None, None
    return best[0], [m.codes for m in best[1]]


def score_detections(det: Detections, rules: Rules | None = None) -> dict:
    """``{"cards", "winning", "points", "melds", "unsure"}`` for the cards of a finished hand.

    Each card read with confidence under 0.6 is listed in ``unsure`` with the next most likely
    reading and what the hand would score if that were the card.
    """
    rules = rules or Rules.preset("seesek")
    order = np.argsort(det.centers[:, 0]) if len(det) else np.zeros(0, int)
    ids = [int(det.class_id[i]) for i in order]
    points, melds = _points(ids, rules)
    unsure = []
    for pos, i in enumerate(order):
        if det.confidence[i] >= UNSURE:
            continue
        best_alt, best_pts = None, None
        for alt in range(len(CARD_CODES)):
            if alt == det.class_id[i]:
                continue
            trial = list(ids)
            trial[pos] = alt
            pts, _ = _points(trial, rules)
            if pts is not None and (best_pts is None or pts > best_pts):
                best_alt, best_pts = alt, pts
        unsure.append({"card": CARD_CODES[ids[pos]], "confidence": round(float(det.confidence[i]), 3),
                       "alternative": CARD_CODES[best_alt] if best_alt is not None else None,
                       "points_if_alternative": best_pts})
    return {"cards": [CARD_CODES[i] for i in ids], "winning": points is not None, "points": points,
            "melds": melds, "unsure": unsure}
