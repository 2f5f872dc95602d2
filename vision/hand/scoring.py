"""Score a photographed hand: the recognised cards read as one legal winning hand, with the doubt
made explicit.

The cards are read as a whole (:mod:`.hand_reading`): the likeliest reading that is a win under
the rules, and the runner-up. ``unsure`` names the cards the two disagree on, or that were read
with little belief, each with its likely alternatives, so a user confirms a hand in a tap or two.

>>> import numpy as np
>>> from sisepai.vision.recognition.detections import Detections
>>> ids = [0, 1, 2]
>>> d = Detections(np.zeros((3, 4, 2)), np.ones(3), np.array(ids))
>>> reading = score_detections(d)
>>> reading.winning, reading.cards
(False, ('GK', 'GA', 'GE'))
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from sisepai.engine.cards import CARD_CODES, counts_of
from sisepai.engine.decompose import BestTable
from sisepai.engine.rules import Rules
from sisepai.engine.scoring import ClaimCheck, check_claim, score
from sisepai.vision.hand.reading import UNSURE_BELOW, decode_hand, unsure_cards
from sisepai.vision.recognition.detections import Detections


def _points(ids: list[int], rules: Rules) -> tuple[int | None, list[list[str]] | None]:
    if len(ids) != rules.hand_size:
        return None, None
    if any(n > lim for n, lim in zip(counts_of(ids), rules.copy_limits)):
        return None, None
    best = BestTable.for_rules(rules).best(counts_of(ids))
    if best is None:
        return None, None
    return best[0], [m.codes for m in best[1]]


@dataclass(frozen=True)
class UnsureCard:
    """A card of a finished hand to ask the user about: read as ``card`` at ``index``, maybe one of
    ``alternatives`` (likeliest first; "none": not a card). ``alternative`` is the likeliest real
    card among them, and ``points_if_alternative`` the hand's points if it is that card."""

    index: int
    card: str
    alternatives: tuple[str, ...]
    confidence: float | None = None
    alternative: str | None = None
    points_if_alternative: int | None = None
    missed: bool = False
    """The hand needs a card here that no detection gave."""

    def to_dict(self) -> dict:
        out = {"index": self.index, "card": self.card, "alternatives": list(self.alternatives)}
        if self.missed:
            out["missed"] = True
        return {**out, "confidence": self.confidence, "alternative": self.alternative,
                "points_if_alternative": self.points_if_alternative}


@dataclass(frozen=True)
class HandReading:
    """A photographed finished hand, read as a whole: its cards, whether they win and for how
    many points, the cards in doubt, the next likeliest winning reading, and a claim's check.

    >>> reading = HandReading(("GK",), False)
    >>> reading.sure, reading.to_dict()["unsure"]
    (True, [])
    """

    cards: tuple[str, ...]
    winning: bool
    points: int | None = None
    melds: tuple[tuple[str, ...], ...] | None = None
    unsure: tuple[UnsureCard, ...] = ()
    runner_up: tuple[tuple[str, ...], int] | None = None
    """The next likeliest winning reading: its cards and points."""
    margin: float | None = None
    """The log-likelihood gap to the runner-up."""
    timed_out: bool = False
    claimed: ClaimCheck | None = None

    @property
    def sure(self) -> bool:
        """No card to ask about."""
        return not self.unsure

    def to_dict(self) -> dict:
        """The one JSON shape of a finished hand's reading (the CLI's ``--json`` and ``/api/score-image``)."""
        out = {"cards": list(self.cards), "winning": self.winning, "points": self.points,
               "melds": [list(m) for m in self.melds] if self.melds is not None else None,
               "unsure": [u.to_dict() for u in self.unsure],
               "runner_up": {"cards": list(self.runner_up[0]), "points": self.runner_up[1]} if self.runner_up else None,
               "margin": self.margin}
        if self.timed_out:
            out["timed_out"] = True
        if self.claimed is not None:
            out["claimed"] = self.claimed.to_dict()
        return out


def _read_alone(det: Detections, rules: Rules) -> HandReading:
    """Each card's own likeliest reading, every detection kept (scored only at exactly 21 cards)."""
    order = np.argsort(det.centers[:, 0]) if len(det) else np.zeros(0, int)
    ids = [int(det.class_id[i]) for i in order]
    points, melds = _points(ids, rules)
    unsure = []
    for pos, i in enumerate(order):
        if det.confidence[i] >= UNSURE_BELOW:
            continue
        alternatives = tuple(c for c, _ in det.top_k(int(i), 3) if c != CARD_CODES[ids[pos]])
        unsure.append(UnsureCard(pos, CARD_CODES[ids[pos]], alternatives, round(float(det.confidence[i]), 3)))
    return HandReading(tuple(CARD_CODES[i] for i in ids), points is not None, points,
                       tuple(tuple(m) for m in melds) if melds is not None else None, tuple(unsure))


def score_detections(det: Detections, rules: Rules | None = None, exposed_cards: int = 0,
                     size: tuple[int, int] | None = None, claimed: int | None = None, decode: bool = True) -> HandReading:
    """The cards of a finished hand read as one winning hand (a :class:`HandReading`), its claim
    checked when a score is ``claimed``.

    ``unsure``: the cards the runner-up reads otherwise or that were read with little belief, each
    with its alternatives and the points if it is the likeliest of them. ``decode=False`` reads each
    card alone (no hand constraint).
    """
    rules = rules or Rules.preset("seesek")
    result = decode_hand(det, rules, exposed_cards=exposed_cards, size=size) if decode else None
    if result is None:
        reading = _read_alone(det, rules)
    elif result.best is None:
        reading = replace(_read_alone(det, rules), winning=False, points=None, melds=None)
    else:
        best = result.best
        unsure = []
        for u in unsure_cards(result):
            alt = next((a for a in u["alternatives"] if a != "none"), None)
            trial = list(best.cards)
            if alt is not None:
                trial[u["index"]] = alt
            unsure.append(UnsureCard(u["index"], u["card"], tuple(u["alternatives"]), u.get("probability"), alt,
                                     _points([CARD_CODES.index(c) for c in trial], rules)[0] if alt else None,
                                     u.get("missed", False)))
        reading = HandReading(tuple(best.cards), True, best.points, tuple(tuple(m) for m in best.melds), tuple(unsure),
                              (tuple(result.runner_up.cards), result.runner_up.points) if result.runner_up else None,
                              result.margin, bool(result.timed_out))
    if claimed is not None:
        reading = replace(reading, claimed=_check(reading, claimed, rules))
    return reading


def _check(reading: HandReading, claimed: int, rules: Rules) -> ClaimCheck:
    """A claimed score against a finished hand's reading (:func:`sisepai.engine.scoring.check_claim`,
    with the reading's runner-up as the alternative); a hand that does not win reads 0 points."""
    read = score(list(reading.cards), rules=rules) if reading.winning else None
    return check_claim(claimed, read, reading.runner_up)
