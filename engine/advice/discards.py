"""Which card to discard: each option with the distance and live waits it leaves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..cards import CARD_CODES, counts_of
from ..decompose import COMPONENTS
from ..rules import Rules, resolve_rules
from ..scoring import HandLike, MeldLike, prepare_hand, to_ids
from .distance import _discardable, _draws_needed, _merge, _minus, _partial_splitters, distance_counts
from .waits import Wait, waits_counts


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
    ids, melds = prepare_hand(cards, exposed, r)
    seen = counts_of(ids + [c for m in melds for c in m.cards] + to_ids(visible))
    options = discard_options(counts_of(ids), sum(len(m) for m in melds), seen, r)
    return options[0] if options else None
