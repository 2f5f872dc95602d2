"""Advice for a hand, one concept a module: :mod:`.distance` (to a win), :mod:`.waits`,
:mod:`.discards` and :mod:`.claiming` (a shown card); :func:`advise` puts them together.

>>> hand = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC"
>>> distance_to_win(hand)
1
>>> [(w.card, w.unseen) for w in waits(hand)][:3]
[('GK', 3), ('GP', 3), ('WK', 3)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..cards import NUM_KINDS, check_copies, counts_of
from ..claims import Claim, Relation, claims, win_points
from ..rules import Rules, resolve_rules
from ..scoring import HandLike, MeldLike, one_card, prepare_hand, to_ids
from .claiming import MeldAdvice, _exposed_points, best_meld, meld_options
from .discards import DiscardAdvice, best_discard, discard_distances, discard_options
from .distance import distance_counts, distance_to_win
from .waits import Wait, unseen_counts, waits, waits_counts

__all__ = ["Advice", "DiscardAdvice", "MeldAdvice", "Wait", "advise", "best_discard", "best_meld", "discard_distances",
           "discard_options", "distance_counts", "distance_to_win", "meld_options", "unseen_counts", "waits",
           "waits_counts", "win_points"]


@dataclass(frozen=True)
class Advice:
    """Everything the engine can tell about a hand and, optionally, a shown card."""

    distance: int
    waits: tuple[Wait, ...]
    claims: tuple[Claim, ...] = ()
    best: MeldAdvice | None = None
    discard: DiscardAdvice | None = None

    def to_dict(self) -> dict:
        return {
            "distance": self.distance,
            "waits": [w.to_dict() for w in self.waits],
            "claims": [c.to_dict() for c in self.claims],
            "best": self.best.to_dict() if self.best else None,
            "discard": self.discard.to_dict() if self.discard else None,
        }


def advise(
    cards: HandLike,
    shown: str | int | None = None,
    exposed: Sequence[MeldLike] = (),
    visible: HandLike = (),
    relation: Relation = "own",
    rules: Rules | str | None = None,
) -> Advice:
    """Distance, waits, and (with a shown card) claims and the best meld; with a 21-card hand and
    no shown card, the best discard.

    >>> a = advise("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC", shown="YK")
    >>> a.distance, a.claims[0].kind.value, a.best.wins
    (1, 'zhimo', True)
    """
    r = resolve_rules(rules)
    ids, melds = prepare_hand(cards, exposed, r)
    counts = counts_of(ids)
    exposed_cards = sum(len(m) for m in melds)
    visible_ids = to_ids(visible)
    shown_id = None if shown is None else one_card(shown)
    seen = counts_of(ids + [c for m in melds for c in m.cards] + visible_ids + ([shown_id] if shown_id is not None else []))
    check_copies([k for k in range(NUM_KINDS) for _ in range(seen[k])], r.packs, r.jokers)
    dist = distance_counts(counts, exposed_cards, r)
    wts = tuple(waits_counts(counts, exposed_cards, seen, r))
    if shown_id is not None:
        cl = tuple(claims(counts, shown_id, relation, exposed_cards, r.hand_size, r.allow_general_pair))
        best = meld_options(counts, shown_id, relation, exposed_cards, seen, r, _exposed_points(melds, r))[0]
        return Advice(dist, wts, cl, best, best.discard)
    discard = None
    if sum(counts) + exposed_cards >= r.hand_size:
        options = discard_options(counts, exposed_cards, seen, r)
        discard = options[0] if options else None
    return Advice(dist, wts, (), None, discard)
