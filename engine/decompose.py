"""Every way a hand splits into melds, on count vectors and precomputed tables.

A hand falls apart into nine independent *components*: for each suit the command cards
(K A E) and the field cards (R H C), plus the four Soldiers together. Jokers are always
singles. A meld never crosses components, so a hand splits exactly when each component
does, and the best split is the best split of each component. Each component has at most
a few hundred count states, so their splits are computed once and cached.

>>> from .cards import parse_card_ids, counts_of
>>> hand = counts_of(parse_card_ids("GK GA GE GR GH GC"))
>>> [[str(m) for m in d] for d in decompositions(hand)]
[['GK GA GE', 'GR GH GC']]
>>> decompositions(counts_of(parse_card_ids("GA GE")))
[]
"""

from __future__ import annotations

from itertools import product
from typing import Sequence

from .cards import JOKER, NUM_KINDS
from .melds import Meld, MeldKind, all_melds
from .rules import Rules

# The nine components, each a tuple of class ids.
COMPONENTS: tuple[tuple[int, ...], ...] = tuple(
    [(s * 7 + 0, s * 7 + 1, s * 7 + 2) for s in range(4)]
    + [(s * 7 + 3, s * 7 + 4, s * 7 + 5) for s in range(4)]
    + [(6, 13, 20, 27)]
)
_SHIFTS = ((8, 4, 0), (12, 8, 4, 0))


class _ComponentSplitter:
    """All splits of one component's count states, memoised."""

    def __init__(self, comp: tuple[int, ...], allow_general_pair: bool):
        self.comp = comp
        index = {card: j for j, card in enumerate(comp)}
        self.melds: list[tuple[tuple[int, ...], Meld]] = []
        for meld in all_melds(allow_general_pair):
            if all(c in index for c in meld.cards):
                vec = [0] * len(comp)
                for c in meld.cards:
                    vec[index[c]] += 1
                self.melds.append((tuple(vec), meld))
        self._memo: dict[tuple[int, ...], tuple[tuple[Meld, ...], ...]] = {}

    def splits(self, local: tuple[int, ...]) -> tuple[tuple[Meld, ...], ...]:
        """Every split of ``local`` counts, each a sorted tuple of melds, in sorted order."""
        memo = self._memo.get(local)
        if memo is not None:
            return memo
        first = next((j for j, n in enumerate(local) if n), None)
        if first is None:
            result: tuple[tuple[Meld, ...], ...] = ((),)
        else:
            found: set[tuple[Meld, ...]] = set()
            for vec, meld in self.melds:
                if not vec[first] or any(v > n for v, n in zip(vec, local)):
                    continue
                rest = tuple(n - v for n, v in zip(local, vec))
                for sub in self.splits(rest):
                    found.add(tuple(sorted(sub + (meld,))))
            result = tuple(sorted(found))
        self._memo[local] = result
        return result


_SPLITTERS: dict[bool, tuple[_ComponentSplitter, ...]] = {}


def _splitters(allow_general_pair: bool) -> tuple[_ComponentSplitter, ...]:
    found = _SPLITTERS.get(allow_general_pair)
    if found is None:
        found = tuple(_ComponentSplitter(c, allow_general_pair) for c in COMPONENTS)
        _SPLITTERS[allow_general_pair] = found
    return found


def meld_points(meld: Meld, rules: Rules, exposed: bool = False) -> int:
    """Points of one meld under ``rules``; ``exposed`` matters in the tusac preset.

    >>> meld_points(Meld.parse("GP GP GP"), Rules.preset("tusac")), meld_points(Meld.parse("GP GP GP"), Rules.preset("tusac"), exposed=True)
    (3, 1)
    """
    return rules.points[_point_key(meld, exposed)]


def _point_key(meld: Meld, exposed: bool) -> str:
    kind = meld.kind.value
    if kind == "single":
        return "joker" if meld.is_joker else "single_general"
    if kind == "triple":
        return "triple_exposed" if exposed else "triple"
    if kind == "quad":
        if meld.is_general:
            return "quad_general"
        return "quad_exposed" if exposed else "quad"
    return kind


def component_splits(counts: Sequence[int], allow_general_pair: bool = False) -> list[tuple[tuple[Meld, ...], ...]]:
    """For each of the nine components, all its splits (an empty tuple where it cannot split)."""
    out = []
    for splitter in _splitters(allow_general_pair):
        local = tuple(counts[i] for i in splitter.comp)
        out.append(splitter.splits(local))
    return out


def decompositions(counts: Sequence[int], rules: Rules | None = None) -> list[tuple[Meld, ...]]:
    """Every split of a count vector into melds, in a fixed order; ``[]`` if there is none.

    Jokers come first, as singles. The hand size is not checked here (see :func:`is_winning`).
    """
    allow = rules.allow_general_pair if rules else False
    per_comp = component_splits(counts, allow)
    if any(not splits for splits in per_comp):
        return []
    jokers = tuple(Meld((JOKER,), _SINGLE) for _ in range(counts[JOKER]))
    return [jokers + tuple(m for part in combo for m in part) for combo in product(*per_comp)]


def can_split(counts: Sequence[int], allow_general_pair: bool = False) -> bool:
    """Whether the cards split completely into melds (any number of cards)."""
    cache = _SPLITTABLE.get(allow_general_pair)
    if cache is None:
        cache = _SPLITTABLE[allow_general_pair] = [{} for _ in COMPONENTS]
    for j, splitter in enumerate(_splitters(allow_general_pair)):
        key = 0
        for i in splitter.comp:
            key = (key << 4) | counts[i]
        ok = cache[j].get(key)
        if ok is None:
            ok = cache[j][key] = bool(splitter.splits(tuple(counts[i] for i in splitter.comp)))
        if not ok:
            return False
    return True


_SPLITTABLE: dict[bool, list[dict[int, bool]]] = {}


class BestTable:
    """Best split per component state under one set of rules: the hot path of scoring.

    >>> from .cards import parse_card_ids, counts_of
    >>> table = BestTable.for_rules(Rules.preset("seesek"))
    >>> points, melds = table.best(counts_of(parse_card_ids("GK GA GE WK J")))
    >>> points, [str(m) for m in melds]
    (5, ['J', 'GK GA GE', 'WK'])
    """

    _cache: dict[tuple, "BestTable"] = {}

    def __init__(self, rules: Rules):
        self.rules = rules
        self.joker_points = rules.points["joker"]
        self._splitters = _splitters(rules.allow_general_pair)
        self._tables: list[dict[int, tuple[int, tuple[Meld, ...]] | None]] = [{} for _ in COMPONENTS]
        self._plan = [
            (self._tables[j], comp, splitter)
            for j, (comp, splitter) in enumerate(zip(COMPONENTS, self._splitters))
        ]
        self._joker_meld = Meld((JOKER,), _SINGLE)

    @classmethod
    def for_rules(cls, rules: Rules) -> "BestTable":
        key = (rules.points_items, rules.allow_general_pair)
        table = cls._cache.get(key)
        if table is None:
            table = cls._cache[key] = cls(rules)
        return table

    def _fill(self, table: dict, key: int, comp: tuple[int, ...], splitter: _ComponentSplitter, counts: Sequence[int]):
        splits = splitter.splits(tuple(counts[i] for i in comp))
        if not splits:
            table[key] = None
            return None
        points = self.rules.points
        best = max(splits, key=lambda d: sum(points[_point_key(m, False)] for m in d))
        value = (sum(points[_point_key(m, False)] for m in best), best)
        table[key] = value
        return value

    def _parts(self, counts: Sequence[int]):
        """Each independent part's best ``(points, melds)`` for ``counts`` (looked up, or worked out
        once and kept), ``None`` for a part that cannot split."""
        for table, comp, splitter in self._plan:
            key = 0
            for i in comp:
                key = (key << 4) | counts[i]
            value = table.get(key, _MISSING)
            yield self._fill(table, key, comp, splitter, counts) if value is _MISSING else value

    def best_points(self, counts: Sequence[int]) -> int | None:
        """Best total of a concealed hand's split, or ``None`` if it cannot split."""
        total = counts[JOKER] * self.joker_points
        for value in self._parts(counts):
            if value is None:
                return None
            total += value[0]
        return total

    def best(self, counts: Sequence[int]) -> tuple[int, tuple[Meld, ...]] | None:
        """Best total and the split that gives it (jokers first), or ``None``."""
        total = counts[JOKER] * self.joker_points
        melds: list[Meld] = [self._joker_meld] * counts[JOKER]
        for value in self._parts(counts):
            if value is None:
                return None
            total += value[0]
            melds.extend(value[1])
        return total, tuple(melds)


_MISSING = object()
_SINGLE = MeldKind.SINGLE


def check_counts(counts: Sequence[int]) -> None:
    """Raise ``ValueError`` if ``counts`` is not a count vector of 29 non-negative ints."""
    if len(counts) != NUM_KINDS or any(n < 0 for n in counts):
        raise ValueError(f"a count vector has {NUM_KINDS} non-negative entries")
