"""``Hand``: concealed cards plus exposed melds, with the engine's questions as methods.

>>> h = Hand.parse("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK")
>>> h.is_winning(), h.score().total
(True, 11)
>>> len(h)
21
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .advice import Advice, Wait, advise, distance_to_win, waits
from .cards import ALL_CARDS, Card, counts_of, format_cards
from .decompose import decompositions
from .melds import Meld
from .rules import Rules, resolve_rules
from .scoring import MeldLike, Score, is_winning, prepare_hand, score


@dataclass(frozen=True)
class Hand:
    """A player's cards: ``concealed`` class ids and ``exposed`` melds, checked against the deck."""

    concealed: tuple[int, ...]
    exposed: tuple[Meld, ...] = ()
    rules: Rules = Rules()

    @classmethod
    def parse(cls, cards: str, exposed: Sequence[MeldLike] = (), rules: Rules | str | None = None) -> "Hand":
        r = resolve_rules(rules)
        ids, melds = prepare_hand(cards, exposed, r)
        return cls(tuple(sorted(ids)), tuple(melds), r)

    @property
    def cards(self) -> list[Card]:
        return [ALL_CARDS[i] for i in self.concealed]

    def __len__(self) -> int:
        return len(self.concealed) + sum(len(m) for m in self.exposed)

    def __str__(self) -> str:
        text = format_cards(self.concealed)
        for m in self.exposed:
            text += f" | {m}"
        return text

    def is_winning(self) -> bool:
        return is_winning(self.concealed, self.exposed, self.rules)

    def score(self, **kwargs) -> Score | None:
        return score(self.concealed, self.exposed, self.rules, **kwargs)

    def decompositions(self) -> list[tuple[Meld, ...]]:
        """Every split of the concealed cards (exposed melds stay as they are)."""
        return decompositions(counts_of(self.concealed), self.rules)

    def distance(self) -> int:
        return distance_to_win(self.concealed, self.exposed, self.rules)

    def waits(self, visible: Sequence[str] = ()) -> list[Wait]:
        return waits(self.concealed, self.exposed, visible, self.rules)

    def advise(self, shown: str | None = None, **kwargs) -> Advice:
        return advise(self.concealed, shown, self.exposed, rules=self.rules, **kwargs)
