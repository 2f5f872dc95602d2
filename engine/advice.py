"""Advice for a hand: distance to a win, waits, the best meld for a shown card, the best discard.

Distance to win is like mahjong's shanten plus one: the fewest cards a player still has to draw
or claim, if the right ones came, to hold a win. A ready hand (one card away) has distance 1;
a winning hand has distance 0.

>>> hand = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC"
>>> distance_to_win(hand)
1
>>> [(w.card, w.unseen) for w in waits(hand)][:3]
[('GK', 3), ('GP', 3), ('WK', 3)]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from .cards import CARD_CODES, GENERAL as K, JOKER, NUM_KINDS, check_copies, counts_of
from .claims import Claim, Relation, claims, hand_after
from .decompose import COMPONENTS, BestTable, can_split, meld_points
from .melds import MeldKind, all_melds
from .rules import Rules, resolve_rules
from .scoring import HandLike, MeldLike, _prepare, one_card, to_ids


# --- distance to win -------------------------------------------------------------------------

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
            f = splitter.frontier(local)
            if len(f) == 1:  # the common case: shift the whole frontier
                (s2, t2), = f
                frontier = {s1 + s2: t1 + t2 for s1, t1 in frontier.items()}
                continue
            merged: dict[int, int] = {}
            for s1, t1 in frontier.items():
                for s2, t2 in f:
                    s, t = s1 + s2, t1 + t2
                    if t < merged.get(s, 1 << 30):
                        merged[s] = t
            frontier = merged
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
    ids, melds = _prepare(cards, exposed, r)
    return distance_counts(counts_of(ids), sum(len(m) for m in melds), r)


# --- waits ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Wait:
    """A card kind that would complete the hand, and how many copies are still unseen."""

    card: str
    unseen: int

    def to_dict(self) -> dict:
        return {"card": self.card, "unseen": self.unseen}


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
    ids, melds = _prepare(cards, exposed, r)
    counts = counts_of(ids)
    seen = counts_of(ids + [c for m in melds for c in m.cards] + to_ids(visible))
    return waits_counts(counts, sum(len(m) for m in melds), seen, r)


# --- discards and melds ----------------------------------------------------------------------

@dataclass(frozen=True)
class DiscardAdvice:
    """The card to discard, the distance to win after it, and the waits it leaves."""

    card: str
    distance: int
    waits: tuple[Wait, ...] = ()

    @property
    def live_waits(self) -> int:
        return sum(w.unseen for w in self.waits)

    def to_dict(self) -> dict:
        return {"card": self.card, "distance": self.distance, "waits": [w.to_dict() for w in self.waits],
                "live_waits": self.live_waits}


def discard_options(counts: Sequence[int], exposed_cards: int, seen: Sequence[int], rules: Rules) -> list[DiscardAdvice]:
    """Every legal discard, best first: smallest distance, then most unseen waits (waits are
    listed for the ready discards when the best discard leaves the hand ready)."""
    out = []
    distances = discard_distances(counts, exposed_cards, rules)
    best = min(distances.values(), default=None)
    for k, dist in distances.items():
        # waits only decide between the closest discards, so only those are worked out
        w = tuple(waits_counts(_minus(counts, k), exposed_cards, seen, rules)) if dist == 1 == best else ()
        out.append(DiscardAdvice(CARD_CODES[k], dist, w))
    out.sort(key=lambda d: (d.distance, -d.live_waits, -len(d.waits), _keep_value(d.card)))
    return out


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


def discard_distances(counts: Sequence[int], exposed_cards: int, rules: Rules) -> dict[int, int]:
    """Distance to win after each legal discard, computed incrementally: a discard changes one
    component, so the other eight are merged once (prefix and suffix) and reused."""
    key = (tuple(counts), exposed_cards, rules.hand_size, rules.allow_general_pair)
    hit = _DISCARD_CACHE.get(key)
    if hit is not None:
        return hit
    if len(_DISCARD_CACHE) > 200_000:
        _DISCARD_CACHE.clear()
    _DISCARD_CACHE[key] = result = _discard_distances(counts, exposed_cards, rules)
    return result


_DISCARD_CACHE: dict[tuple, dict[int, int]] = {}


def _discard_distances(counts: Sequence[int], exposed_cards: int, rules: Rules) -> dict[int, int]:
    splitters = _partial_splitters(rules.allow_general_pair)
    fronts = [sp.frontier(tuple(counts[i] for i in comp)) for sp, comp in zip(splitters, COMPONENTS)]
    # Most components split one way only (a frontier of one point): they add a fixed shift. Only
    # the others need merging, with prefix and suffix merges so each can be left out in turn.
    base_s = base_t = 0
    multi: list[int] = []
    for j, f in enumerate(fronts):
        if len(f) == 1:
            (s1, t1), = f
            base_s, base_t = base_s + s1, base_t + t1
        else:
            multi.append(j)
    prefix = [{0: 0}]
    for j in multi:
        prefix.append(_merge(prefix[-1], fronts[j]))
    suffix = [{0: 0}]
    for j in reversed(multi):
        suffix.append(_merge(suffix[-1], fronts[j]))
    suffix.reverse()
    delta = rules.hand_size - exposed_cards - (sum(counts) - 1)
    out: dict[int, int] = {}
    for j, comp in enumerate(COMPONENTS):
        others = None
        for i in comp:
            if not counts[i] or not _discardable(i):
                continue
            if others is None:
                if j in multi:
                    m = multi.index(j)
                    rest, ds, dt = _merge(prefix[m], suffix[m + 1].items()), base_s, base_t
                else:
                    (s1, t1), = fronts[j]
                    rest, ds, dt = prefix[-1], base_s - s1, base_t - t1
                others = {s + ds: t + dt for s, t in rest.items()}
            if delta < 0:
                out[i] = distance_counts(_minus(counts, i), exposed_cards, rules)
                continue
            local = tuple(counts[x] - (x == i) for x in comp)
            total = _merge(others, splitters[j].frontier(local))
            out[i] = min(_draws_needed(s, t, delta) for s, t in total.items())
    return dict(sorted(out.items()))


def _keep_value(code: str) -> int:
    """Tie-break: discard soldiers and low cards before high ones (lower id = higher rank)."""
    return -(_CODE_ID[code] % 7)


_CODE_ID = {code: k for k, code in enumerate(CARD_CODES)}


def best_discard(
    cards: HandLike,
    exposed: Sequence[MeldLike] = (),
    visible: HandLike = (),
    rules: Rules | str | None = None,
) -> DiscardAdvice | None:
    """The best card to discard from a hand after melding (``None`` if nothing may be discarded)."""
    r = resolve_rules(rules)
    ids, melds = _prepare(cards, exposed, r)
    seen = counts_of(ids + [c for m in melds for c in m.cards] + to_ids(visible))
    options = discard_options(counts_of(ids), sum(len(m) for m in melds), seen, r)
    return options[0] if options else None


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


def win_points(counts: Sequence[int], meld, shown: int, relation: Relation, exposed_points: int, rules: Rules) -> int:
    """Points of the win made by claiming (or melding) ``shown`` into ``meld``: the best split of
    the concealed cards left, the winning meld (exposed unless it was the player's own draw), and
    the points of the melds already exposed.

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
    ids, melds = _prepare(cards, exposed, r)
    shown_id = one_card(shown)
    seen = counts_of(ids + [c for m in melds for c in m.cards] + to_ids(visible) + [shown_id])
    return meld_options(counts_of(ids), shown_id, relation, sum(len(m) for m in melds), seen, r,
                        _exposed_points(melds, r))[0]


def _exposed_points(melds: Sequence, rules: Rules) -> int:
    """Points of melds already exposed, counted as :func:`~.scoring.score` counts them."""
    return sum(meld_points(m, rules, exposed=True) for m in melds)


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
    ids, melds = _prepare(cards, exposed, r)
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
