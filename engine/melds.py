"""The eight meld kinds, and validation that says why a group is not a meld.

>>> Meld.parse("GK GA GE")
Meld.parse('GK GA GE')
>>> Meld.parse("GK GA GE").kind
<MeldKind.COMMAND: 'command'>
>>> why_not_meld(parse_card_ids("GR GH YC"))
'a field group needs Chariot, Horse and Cannon of one suit'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum
from typing import Iterable, Sequence

from .cards import ALL_CARDS, CARD_CODES, JOKER, format_cards, parse_card_ids
from .errors import InvalidMeldError

K, A, E, R, H, C, P = range(7)  # rank offsets inside a suit


class MeldKind(str, Enum):
    """Kinds of meld; the value is the name used in JSON and TOML."""

    SINGLE = "single"
    PAIR = "pair"
    COMMAND = "command"
    FIELD = "field"
    TRIPLE = "triple"
    THREE_SOLDIERS = "three_soldiers"
    QUAD = "quad"
    FOUR_SOLDIERS = "four_soldiers"

    @property
    def title(self) -> str:
        return _TITLES[self]


_TITLES = {
    MeldKind.SINGLE: "single", MeldKind.PAIR: "pair", MeldKind.COMMAND: "command group",
    MeldKind.FIELD: "field group", MeldKind.TRIPLE: "triple",
    MeldKind.THREE_SOLDIERS: "three-soldier group", MeldKind.QUAD: "quad",
    MeldKind.FOUR_SOLDIERS: "four-soldier group",
}

GROUP_KINDS = frozenset({MeldKind.COMMAND, MeldKind.FIELD, MeldKind.THREE_SOLDIERS, MeldKind.FOUR_SOLDIERS})
"""Melds of different cards: what ``chi`` and the drawer's own-draw claim complete."""


def _rank(card_id: int) -> int:
    return card_id % 7


def _suit(card_id: int) -> int:
    return card_id // 7


def classify(card_ids: Sequence[int], allow_general_pair: bool = False) -> MeldKind | None:
    """The meld kind of a group of class ids, or ``None`` when it is not a meld."""
    return None if why_not_meld(card_ids, allow_general_pair) else _kind_of(card_ids)


def _kind_of(ids: Sequence[int]) -> MeldKind | None:
    n = len(ids)
    same = all(i == ids[0] for i in ids)
    if n == 1:
        return MeldKind.SINGLE
    if n == 2:
        return MeldKind.PAIR
    if n == 3:
        if same:
            return MeldKind.TRIPLE
        if all(_rank(i) == P for i in ids):
            return MeldKind.THREE_SOLDIERS
        return MeldKind.COMMAND if _rank(ids[0]) in (K, A, E) else MeldKind.FIELD
    if n == 4:
        return MeldKind.QUAD if same else MeldKind.FOUR_SOLDIERS
    return None


def why_not_meld(card_ids: Sequence[int], allow_general_pair: bool = False) -> str | None:
    """``None`` if the cards form a meld, else a short reason.

    >>> why_not_meld(parse_card_ids("J J"))
    'a joker is never wild: it only forms a single'
    >>> why_not_meld(parse_card_ids("GP WP WP"))
    'a three-soldier group needs three different suits'
    """
    ids = sorted(card_ids)
    n = len(ids)
    if n == 0:
        return "a meld needs at least one card"
    if n > 4:
        return f"a meld has at most 4 cards, got {n}"
    if JOKER in ids and n > 1:
        return "a joker is never wild: it only forms a single"
    same = all(i == ids[0] for i in ids)
    ranks = {_rank(i) for i in ids}
    suits = {_suit(i) for i in ids}
    if n == 1:
        if ids[0] == JOKER or _rank(ids[0]) == K:
            return None
        return "a single must be a General or a joker"
    if n == 2:
        if not same:
            return "a pair needs two identical cards (same suit and rank)"
        if _rank(ids[0]) == K and not allow_general_pair:
            return "Generals do not form pairs (each General is a single)"
        return None
    if same:
        return None  # triple or quad
    if ranks == {P}:
        if n == 3:
            return None if len(suits) == 3 else "a three-soldier group needs three different suits"
        return None if len(suits) == 4 else "a four-soldier group needs one Soldier of each suit"
    if n == 4:
        return "a four-card meld is four identical cards or four Soldiers of four suits"
    if ranks <= {K, A, E}:
        if ranks == {K, A, E} and len(suits) == 1:
            return None
        return "a command group needs General, Advisor and Elephant of one suit"
    if ranks <= {R, H, C}:
        if ranks == {R, H, C} and len(suits) == 1:
            return None
        return "a field group needs Chariot, Horse and Cannon of one suit"
    return "three cards form a meld only as a triple, a command or field group, or three Soldiers"


@dataclass(frozen=True, order=True)
class Meld:
    """A valid meld: its kind and its sorted class ids.

    >>> m = Meld.parse("WH WH WH")
    >>> m.kind.value, m.codes, len(m)
    ('triple', ['WH', 'WH', 'WH'], 3)
    >>> Meld.parse("GK GK")
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.InvalidMeldError: GK GK is not a meld: Generals do not form pairs (each General is a single)
    """

    cards: tuple[int, ...]
    kind: MeldKind

    @classmethod
    def of(cls, card_ids: Iterable[int], allow_general_pair: bool = False) -> "Meld":
        """Validate class ids as a meld; raises :class:`InvalidMeldError` with the reason."""
        ids = tuple(sorted(card_ids))
        reason = why_not_meld(ids, allow_general_pair)
        if reason:
            raise InvalidMeldError(f"{format_cards(ids)} is not a meld: {reason}")
        kind = _kind_of(ids)
        assert kind is not None
        return cls(ids, kind)

    @classmethod
    def parse(cls, text: str | Iterable[str], allow_general_pair: bool = False) -> "Meld":
        """Parse and validate ``"GK GA GE"``."""
        return cls.of(parse_card_ids(text), allow_general_pair)

    @property
    def codes(self) -> list[str]:
        return [CARD_CODES[i] for i in self.cards]

    @property
    def is_general(self) -> bool:
        """A single, triple or quad made of Generals."""
        return _rank(self.cards[0]) == K and self.cards[0] != JOKER and self.kind != MeldKind.COMMAND

    @property
    def is_joker(self) -> bool:
        return self.cards[0] == JOKER

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __str__(self) -> str:
        return format_cards(self.cards)

    def label(self) -> str:
        """The meld with its characters: ``G將 G士 G象``."""
        return " ".join(ALL_CARDS[i].label for i in self.cards)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"


def melds_with(card_id: int, hand_counts: Sequence[int], allow_general_pair: bool = False) -> list[Meld]:
    """Every meld that uses ``card_id`` plus 0 to 3 cards from a hand (count vector).

    This is what a player may lay down with a shown card (seed 000, Example 1):

    >>> from .cards import counts_of
    >>> hand = counts_of(parse_card_ids("WH WH WH WR WC"))
    >>> [str(m) for m in melds_with(parse_card_ids("WH")[0], hand)]
    ['WH WH', 'WR WH WC', 'WH WH WH', 'WH WH WH WH']
    """
    out: list[Meld] = []
    for meld in _MELDS_BY_CARD[allow_general_pair][card_id]:
        need = list(meld.cards)
        need.remove(card_id)
        ok = True
        for i in set(need):
            if need.count(i) > hand_counts[i]:
                ok = False
                break
        if ok:
            out.append(meld)
    return out


def all_melds(allow_general_pair: bool = False) -> list[Meld]:
    """Every distinct meld of one deck, in a fixed order (by size, then cards): a fresh list of
    melds made once per process (the generator asks for them for every finished hand it lays).

    >>> all_melds() == all_melds() and all_melds() is not all_melds()
    True
    """
    return list(_all_melds(allow_general_pair))


@functools.lru_cache(maxsize=2)
def _all_melds(allow_general_pair: bool) -> tuple[Meld, ...]:
    found: set[tuple[int, ...]] = set()
    out: list[Meld] = []
    candidates: list[tuple[int, ...]] = []
    for i in range(len(CARD_CODES)):
        for n in (1, 2, 3, 4):
            candidates.append((i,) * n)
    for suit in range(4):
        base = suit * 7
        candidates.append((base + K, base + A, base + E))
        candidates.append((base + R, base + H, base + C))
    soldiers = [s * 7 + P for s in range(4)]
    for skip in range(4):
        candidates.append(tuple(x for j, x in enumerate(soldiers) if j != skip))
    candidates.append(tuple(soldiers))
    for ids in candidates:
        if ids not in found and why_not_meld(ids, allow_general_pair) is None:
            found.add(ids)
            out.append(Meld.of(ids, allow_general_pair))
    out.sort(key=lambda m: (len(m), m.cards))
    return tuple(out)


_MELDS_BY_CARD: dict[bool, list[list[Meld]]] = {}
for _flag in (False, True):
    _table: list[list[Meld]] = [[] for _ in CARD_CODES]
    for _m in all_melds(_flag):
        for _i in set(_m.cards):
            _table[_i].append(_m)
    _MELDS_BY_CARD[_flag] = _table
