"""Score a photographed hand: the recognised cards read as one legal winning hand, with the doubt
made explicit.

The cards are read as a whole (:mod:`.hand_reading`): the likeliest reading that is a win under
the rules, and the runner-up. ``unsure`` names the cards the two disagree on, or that were read
with little belief, each with its likely alternatives, so a user confirms a hand in a tap or two.

>>> import numpy as np
>>> from sisepai.vision.recognition.detections import Detections
>>> ids = [0, 1, 2]
>>> d = Detections(np.zeros((3, 4, 2)), np.ones(3), np.array(ids))
>>> out = score_detections(d)
>>> out["winning"], out["cards"]
(False, ['GK', 'GA', 'GE'])
"""

from __future__ import annotations

import numpy as np

from sisepai.engine.cards import CARD_CODES, counts_of
from sisepai.engine.decompose import BestTable
from sisepai.engine.rules import Rules
from sisepai.engine.scoring import check_claim as check, score

from sisepai.vision.recognition.detections import Detections
from sisepai.vision.hand.reading import decode_hand, unsure_cards

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


def _read_alone(det: Detections, rules: Rules) -> dict:
    """Each card's own likeliest reading, every detection kept (scored only at exactly 21 cards)."""
    order = np.argsort(det.centers[:, 0]) if len(det) else np.zeros(0, int)
    ids = [int(det.class_id[i]) for i in order]
    points, melds = _points(ids, rules)
    unsure = []
    for pos, i in enumerate(order):
        if det.confidence[i] >= UNSURE:
            continue
        alternatives = [c for c, _ in det.top_k(int(i), 3) if c != CARD_CODES[ids[pos]]]
        unsure.append({"index": pos, "card": CARD_CODES[ids[pos]], "confidence": round(float(det.confidence[i]), 3),
                       "alternatives": alternatives})
    return {"cards": [CARD_CODES[i] for i in ids], "winning": points is not None, "points": points,
            "melds": melds, "unsure": unsure, "runner_up": None, "margin": None}


def score_detections(det: Detections, rules: Rules | None = None, exposed_cards: int = 0,
                     size: tuple[int, int] | None = None, claimed: int | None = None, decode: bool = True) -> dict:
    """``{"cards", "winning", "points", "melds", "unsure", "runner_up", "margin"}`` for the cards
    of a finished hand (and ``"claimed"`` when a score is claimed).

    ``unsure``: ``[{"index", "card", "alternatives", ...}]``, ``index`` into ``cards``; each
    entry also says ``alternative`` (the likeliest other reading) and ``points_if_alternative``.
    ``runner_up``: the next likeliest winning hand ``{"cards", "points"}``, and ``margin`` the
    log-likelihood gap to it. ``decode=False`` reads each card alone (no hand constraint).
    """
    rules = rules or Rules.preset("seesek")
    if not decode:
        return _read_alone(det, rules)
    result = decode_hand(det, rules, exposed_cards=exposed_cards, size=size)
    if result.best is None:
        out = _read_alone(det, rules)
        out["winning"], out["points"], out["melds"] = False, None, None
    else:
        best = result.best
        unsure = unsure_cards(result)
        for u in unsure:
            u["confidence"] = u.get("probability")
            alt = next((a for a in u["alternatives"] if a != "none"), None)
            u["alternative"] = alt
            trial = list(best.cards)
            if alt is not None:
                trial[u["index"]] = alt
            u["points_if_alternative"] = _points([CARD_CODES.index(c) for c in trial], rules)[0] if alt else None
        out = {"cards": best.cards, "winning": True, "points": best.points, "melds": best.melds, "unsure": unsure,
               "runner_up": {"cards": result.runner_up.cards, "points": result.runner_up.points}
               if result.runner_up else None,
               "margin": result.margin}
        if result.timed_out:
            out["timed_out"] = True
    if claimed is not None:
        out["claimed"] = check_claim(out, claimed, rules)
    return out


def check_claim(reading: dict, claimed: int, rules: Rules | None = None) -> dict:
    """Whether a claimed score agrees with a finished hand's reading; if not, the disputed meld
    (:func:`sisepai.engine.scoring.check_claim`, with the reading's runner-up as the alternative).

    >>> check_claim({"points": 11, "cards": "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK".split(),
    ...              "runner_up": None, "winning": True}, 11)
    {'claimed': 11, 'agrees': True, 'points_read': 11}
    """
    if not reading.get("winning"):
        return {"claimed": claimed, "agrees": reading.get("points") == claimed, "points_read": reading.get("points")}
    runner = reading.get("runner_up")
    read = score(reading["cards"], rules=rules or Rules.preset("seesek"))
    return check(claimed, read, (runner["cards"], runner["points"]) if runner else None).to_dict()
