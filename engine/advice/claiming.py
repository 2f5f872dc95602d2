"""What to do with a shown card: each claim on it with its outcome, or letting it go."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..cards import counts_of
from ..claims import Claim, Relation, claims, hand_after, win_points
from ..decompose import meld_points
from ..rules import Rules, resolve_rules
from ..scoring import HandLike, MeldLike, one_card, prepare_hand, to_ids
from .discards import DiscardAdvice, discard_options
from .distance import distance_counts


@dataclass(frozen=True)
class MeldAdvice:
    """What to do with a shown card: the claim to make (or ``None`` to let it go), then the discard."""

    claim: Claim | None
    discard: DiscardAdvice | None
    distance: int
    wins: bool = False
    points: int | None = None

    def to_dict(self) -> dict:
        return {
            "claim": self.claim.to_dict() if self.claim else None,
            "discard": self.discard.to_dict() if self.discard else None,
            "distance": self.distance,
            "wins": self.wins,
            "points": self.points,
        }


def meld_options(
    counts: Sequence[int],
    shown: int,
    relation: Relation,
    exposed_cards: int,
    seen: Sequence[int],
    rules: Rules,
    exposed_points: int = 0,
) -> list[MeldAdvice]:
    """Every claim on ``shown`` with its outcome, best first, then the option to let it go.

    Wins come first, the highest scoring first (``exposed_points``: the points of the melds
    already exposed, part of every win's total).
    """
    options: list[MeldAdvice] = []
    for claim in claims(counts, shown, relation, exposed_cards, rules.hand_size, rules.allow_general_pair):
        rest = hand_after(counts, claim.meld, shown)
        new_exposed = exposed_cards + len(claim.meld)
        if claim.wins:
            pts = win_points(counts, claim.meld, shown, relation, exposed_points, rules)
            options.append(MeldAdvice(claim, None, 0, True, pts))
            continue
        discards = discard_options(rest, new_exposed, seen, rules)
        if discards:
            options.append(MeldAdvice(claim, discards[0], discards[0].distance))
    options.sort(key=lambda o: (not o.wins, -(o.points or 0), o.distance, o.claim.priority if o.claim else 9,
                                -(o.discard.live_waits if o.discard else 0)))
    let_go = MeldAdvice(None, None, distance_counts(counts, exposed_cards, rules))
    # Melding only helps when it brings the hand closer (or wins); otherwise let the card go.
    better = [o for o in options if o.wins or o.distance <= let_go.distance]
    return better + [let_go] + [o for o in options if o not in better]


def best_meld(
    cards: HandLike,
    shown: str | int,
    exposed: Sequence[MeldLike] = (),
    visible: HandLike = (),
    relation: Relation = "own",
    rules: Rules | str | None = None,
) -> MeldAdvice:
    """The best thing to do with a shown card: a claim and a discard, or let it go.

    >>> advice = best_meld("WR WC GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J YK", "WH")
    >>> advice.wins, str(advice.claim.meld)
    (True, 'WR WH WC')
    """
    r = resolve_rules(rules)
    ids, melds = prepare_hand(cards, exposed, r)
    shown_id = one_card(shown)
    seen = counts_of(ids + [c for m in melds for c in m.cards] + to_ids(visible) + [shown_id])
    return meld_options(counts_of(ids), shown_id, relation, sum(len(m) for m in melds), seen, r,
                        _exposed_points(melds, r))[0]


def _exposed_points(melds: Sequence, rules: Rules) -> int:
    """Points of melds already exposed, counted as :func:`~.scoring.score` counts them."""
    return sum(meld_points(m, rules, exposed=True) for m in melds)
