"""Distance to a win, like mahjong's shanten plus one: the fewest cards a player still has to
draw or claim, if the right ones came, to hold a win. A ready hand has distance 1; a winning hand 0.

>>> distance_to_win("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC")
1
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

from ..cards import GENERAL as K
from ..cards import JOKER, NUM_KINDS, counts_of
from ..decompose import COMPONENTS
from ..melds import MeldKind, all_melds
from ..rules import Rules, resolve_rules
from ..scoring import HandLike, MeldLike, prepare_hand


class _PartialSplitter:
    """Pareto-minimal (singles, two-card partials) left over when a component is split into
    complete melds plus units that each need one more card."""

    def __init__(self, comp: tuple[int, ...], allow_general_pair: bool):
        index = {card: j for j, card in enumerate(comp)}
        self.n = len(comp)
        self.melds: list[tuple[int, ...]] = []
        partials: set[tuple[int, ...]] = set()
        for meld in all_melds(allow_general_pair):
            if not all(c in index for c in meld.cards):
                continue
            vec = [0] * self.n
            for c in meld.cards:
                vec[index[c]] += 1
            self.melds.append(tuple(vec))
            if len(meld) == 3 and meld.kind != MeldKind.TRIPLE:
                cards = meld.cards
                for a in range(3):
                    for b in range(a + 1, 3):
                        pv = [0] * self.n
                        pv[index[cards[a]]] += 1
                        pv[index[cards[b]]] += 1
                        partials.add(tuple(pv))
        self.partials = sorted(partials)
        self._memo: dict[tuple[int, ...], frozenset[tuple[int, int]]] = {}

    def frontier(self, local: tuple[int, ...]) -> frozenset[tuple[int, int]]:
        memo = self._memo.get(local)
        if memo is not None:
            return memo
        first = next((j for j, n in enumerate(local) if n), None)
        if first is None:
            result = frozenset({(0, 0)})
        else:
            found: set[tuple[int, int]] = set()

            def take(vec: tuple[int, ...], ds: int, dt: int) -> None:
                if not vec[first] or any(v > n for v, n in zip(vec, local)):
                    return
                rest = tuple(n - v for n, v in zip(local, vec))
                for s, t in self.frontier(rest):
                    found.add((s + ds, t + dt))

            for vec in self.melds:
                take(vec, 0, 0)
            for vec in self.partials:
                take(vec, 0, 1)
            single = tuple(1 if j == first else 0 for j in range(self.n))
            take(single, 1, 0)
            result = frozenset(_pareto(found))
        self._memo[local] = result
        return result


def _pareto(points: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    pts = sorted(set(points))
    out: list[tuple[int, int]] = []
    best_t = None
    for s, t in pts:
        if best_t is None or t < best_t:
            out.append((s, t))
            best_t = t
    return out


@lru_cache(maxsize=2)
def _partial_splitters(allow_general_pair: bool) -> tuple[_PartialSplitter, ...]:
    return tuple(_PartialSplitter(c, allow_general_pair) for c in COMPONENTS)


@lru_cache(maxsize=4096)
def _draws_needed(s: int, t: int, delta: int) -> int:
    """Fewest draws when ``s`` single cards and ``t`` two-card partials each need one card and the
    hand must grow by ``delta`` cards (each draw brings one card; discards drop units).

    Dropping units makes room: a dropped single frees 2 (its card, and the draw it no longer
    needs), a dropped partial 3 for two discards. Singles are the cheaper to drop.
    """
    need = s + t - delta
    best = None
    for dt in range(t + 1):
        rest = max(0, need - 3 * dt)
        ds = (rest + 1) // 2
        if ds <= s:
            a = ds + 2 * dt + delta
            if best is None or a < best:
                best = a
        if rest == 0:
            break
    assert best is not None
    return best

def _merge(a: dict[int, int], pairs) -> dict[int, int]:
    """Minkowski sum of two (singles -> fewest partials) frontiers."""
    if len(pairs) == 1:  # the common case: one way to split a component, a plain shift
        (s2, t2), = pairs
        return {s1 + s2: t1 + t2 for s1, t1 in a.items()}
    out: dict[int, int] = {}
    for s1, t1 in a.items():
        for s2, t2 in pairs:
            s, t = s1 + s2, t1 + t2
            if t < out.get(s, 1 << 30):
                out[s] = t
    return out


_DIST_CACHE: dict[tuple, int] = {}


def distance_counts(counts: Sequence[int], exposed_cards: int = 0, rules: Rules | None = None) -> int:
    """:func:`distance_to_win` on a count vector of concealed cards (memoised)."""
    r = rules or _default_rules()
    delta = r.hand_size - exposed_cards - sum(counts)
    key = (tuple(counts), delta, r.allow_general_pair)
    hit = _DIST_CACHE.get(key)
    if hit is not None:
        return hit
    if delta < 0:
        options = [distance_counts(_minus(counts, k), exposed_cards, r)
                   for k in range(NUM_KINDS) if counts[k] and _discardable(k)]
        result = min(options) if options else 99
    else:
        frontier = {0: 0}  # singles -> fewest two-card partials
        for splitter, comp in zip(_partial_splitters(r.allow_general_pair), COMPONENTS):
            local = tuple([counts[i] for i in comp])
            if not any(local):
                continue
            frontier = _merge(frontier, splitter.frontier(local))
        result = min(_draws_needed(s, t, delta) for s, t in frontier.items())
    if len(_DIST_CACHE) > 500_000:
        _DIST_CACHE.clear()
    _DIST_CACHE[key] = result
    return result


@lru_cache(maxsize=1)
def _default_rules() -> Rules:
    return Rules.preset("seesek")


def distance_to_win(cards: HandLike, exposed: Sequence[MeldLike] = (), rules: Rules | str | None = None) -> int:
    """Fewest cards still to draw or claim to hold a win (0: already a win; 1: ready)."""
    r = resolve_rules(rules)
    ids, melds = prepare_hand(cards, exposed, r)
    return distance_counts(counts_of(ids), sum(len(m) for m in melds), r)


# --- waits ---------------------------------------------------------------------------------


def _minus(counts: Sequence[int], k: int) -> list[int]:
    out = list(counts)
    out[k] -= 1
    return out


def _plus(counts: Sequence[int], k: int) -> list[int]:
    out = list(counts)
    out[k] += 1
    return out


def _discardable(card_id: int) -> bool:
    """Generals and jokers may never be discarded."""
    return card_id != JOKER and card_id % 7 != K
