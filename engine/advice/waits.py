"""The cards a hand waits for, with how many of each are still unseen.

>>> [(w.card, w.unseen) for w in waits("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC")][:3]
[('GK', 3), ('GP', 3), ('WK', 3)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..cards import CARD_CODES, NUM_KINDS, counts_of
from ..decompose import can_split
from ..rules import Rules, resolve_rules
from ..scoring import HandLike, MeldLike, prepare_hand, to_ids
from .distance import _plus


@dataclass(frozen=True)
class Wait:
    """A card kind that would complete the hand, and how many copies are still unseen."""

    card: str
    unseen: int

    def to_dict(self) -> dict:
        return {"card": self.card, "unseen": self.unseen}


def unseen_counts(seen: Sequence[int], rules: Rules) -> list[int]:
    """Copies of each kind not yet seen, given a count vector of every card seen."""
    return [max(0, cap - n) for cap, n in zip(rules.copy_limits, seen)]


def waits_counts(counts: Sequence[int], exposed_cards: int, seen: Sequence[int], rules: Rules) -> list[Wait]:
    """:func:`waits` on count vectors; ``seen`` counts every visible card, the hand's included."""
    if sum(counts) + exposed_cards + 1 != rules.hand_size:
        return []
    unseen = unseen_counts(seen, rules)
    out = []
    for k in range(NUM_KINDS):
        cap = rules.copies_of(k)
        if counts[k] + 1 > cap:
            continue
        if can_split(_plus(counts, k), rules.allow_general_pair):
            out.append(Wait(CARD_CODES[k], unseen[k]))
    return out


def waits(
    cards: HandLike,
    exposed: Sequence[MeldLike] = (),
    visible: HandLike = (),
    rules: Rules | str | None = None,
) -> list[Wait]:
    """Card kinds that would make a 20-card hand a win, with the copies still unseen.

    ``visible`` lists other cards already face up on the table (others' melds, discards).
    """
    r = resolve_rules(rules)
    ids, melds = prepare_hand(cards, exposed, r)
    counts = counts_of(ids)
    seen = counts_of(ids + [c for m in melds for c in m.cards] + to_ids(visible))
    return waits_counts(counts, sum(len(m) for m in melds), seen, r)


# --- discards and melds ----------------------------------------------------------------------
