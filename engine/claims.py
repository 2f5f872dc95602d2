"""Claims on a shown card (a draw or a discard) and their priority (RULES.md, 0 to 4).

>>> from .cards import parse_card_ids, counts_of
>>> hand = counts_of(parse_card_ids("WH WH WR WC"))
>>> [(c.kind.value, c.priority, str(c.meld)) for c in claims(hand, parse_card_ids("WH")[0], "other")]
[('pong', 2, 'WH WH WH')]
>>> [(c.kind.value, str(c.meld)) for c in claims(hand, parse_card_ids("WH")[0], "previous")]
[('pong', 'WH WH WH'), ('chi', 'WR WH WC')]
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Literal, Sequence

from .decompose import BestTable, can_split, meld_points
from .errors import SisepaiError
from .melds import GROUP_KINDS, Meld, MeldKind, melds_with

if TYPE_CHECKING:
    from .rules import Rules

Relation = Literal["own", "previous", "other"]
"""Whose card it is, seen from the claimer: their own draw, the previous player's, or another's."""
RELATIONS = ("own", "previous", "other")


class ClaimKind(str, Enum):
    ZHIMO = "zhimo"
    HU = "hu"
    GAN = "gan"
    PONG = "pong"
    OWN_GROUP = "own-group"
    CHI = "chi"
    OWN_PAIR = "own-pair"


PRIORITY = {
    ClaimKind.ZHIMO: 0, ClaimKind.HU: 1, ClaimKind.GAN: 2, ClaimKind.PONG: 2,
    ClaimKind.OWN_GROUP: 3, ClaimKind.CHI: 4, ClaimKind.OWN_PAIR: 5,
}
"""Lower wins. ``own-pair`` (a pair from one's own draw) is a plain meld with no claim right: 5."""


@dataclass(frozen=True)
class Claim:
    """A claim a player may make: its kind, priority and the meld it lays down."""

    kind: ClaimKind
    meld: Meld

    @property
    def priority(self) -> int:
        return PRIORITY[self.kind]

    @property
    def wins(self) -> bool:
        return self.kind in (ClaimKind.ZHIMO, ClaimKind.HU)

    def to_dict(self) -> dict:
        return {"claim": self.kind.value, "priority": self.priority, "meld": self.meld.codes,
                "wins": self.wins}


def claims(
    counts: Sequence[int],
    shown: int,
    relation: Relation,
    exposed_cards: int = 0,
    hand_size: int = 21,
    allow_general_pair: bool = False,
) -> list[Claim]:
    """Every claim a hand (count vector of concealed cards) has on a shown card, best first.

    ``exposed_cards`` is how many cards the player already has in exposed melds; a claim wins
    when the concealed rest splits fully and the hand totals ``hand_size`` cards.
    """
    if relation not in RELATIONS:
        raise SisepaiError(f"relation must be one of {', '.join(RELATIONS)}, got {relation!r}")
    out: list[Claim] = []
    total = sum(counts) + 1 + exposed_cards
    for meld in melds_with(shown, counts, allow_general_pair):
        rest = hand_after(counts, meld, shown)
        if total == hand_size and can_split(rest, allow_general_pair):
            out.append(Claim(ClaimKind.ZHIMO if relation == "own" else ClaimKind.HU, meld))
            continue
        kind = _claim_kind(meld, relation)
        if kind is not None:
            out.append(Claim(kind, meld))
    out.sort(key=lambda c: (c.priority, -len(c.meld), c.meld.cards))
    return out


def hand_after(counts: Sequence[int], meld: Meld, shown: int) -> list[int]:
    """The concealed count vector left after laying down ``meld`` made with the ``shown`` card.

    >>> from .cards import counts_of, parse_card_ids
    >>> rest = hand_after(counts_of(parse_card_ids("WH WH GK")), Meld.parse("WH WH WH"), parse_card_ids("WH")[0])
    >>> sum(rest)
    1
    """
    rest = list(counts)
    need = list(meld.cards)
    need.remove(shown)
    for c in need:
        rest[c] -= 1
    return rest


def _claim_kind(meld: Meld, relation: Relation) -> ClaimKind | None:
    if meld.kind == MeldKind.QUAD:
        return ClaimKind.GAN
    if meld.kind == MeldKind.TRIPLE:
        return ClaimKind.PONG
    if relation == "own":
        if meld.kind in GROUP_KINDS or meld.kind == MeldKind.SINGLE:
            return ClaimKind.OWN_GROUP
        return ClaimKind.OWN_PAIR
    if relation == "previous" and meld.kind in GROUP_KINDS:
        return ClaimKind.CHI
    return None  # no single or pair from another player's card, except to win


def win_points(counts: Sequence[int], meld, shown: int, relation: Relation, exposed_points: int, rules: Rules) -> int:
    """Points of the win made by claiming (or melding) ``shown`` into ``meld``: the best split of
    the concealed cards left, the winning meld (exposed unless it was the player's own draw), and
    the points of the melds already exposed.

    >>> from .cards import counts_of
    >>> from .rules import Rules
    >>> from .scoring import to_ids
    >>> r = Rules.preset("seesek")
    >>> hand = counts_of(to_ids("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC"))
    >>> from .melds import Meld
    >>> win_points(hand, Meld.parse("YK"), to_ids("YK")[0], "other", 0, r)
    11
    """
    best = BestTable.for_rules(rules).best_points(hand_after(counts, meld, shown))
    if best is None:
        raise ValueError("not a winning claim: the cards left do not split into melds")
    return best + meld_points(meld, rules, exposed=relation != "own") + exposed_points
