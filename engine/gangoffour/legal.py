"""Every legal play from a hand, leading or against the current play, with the special rules.

>>> from .cards import parse_gof_cards
>>> hand = parse_gof_cards("g2 y2 r7 vp")
>>> [str(p) for p in legal_plays(hand, parse_play("r5"))]
['r7', 'vp']
>>> [str(p) for p in legal_plays(hand, parse_play("g1 r1"))]
['g2 y2']
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product
from typing import Sequence

from ..errors import InvalidMoveError
from .cards import COLOURS, STUDENT_LEADER, VICE_PREMIER, colour_of, number_of
from .plays import Play, beats, classify, parse_play


def all_plays(hand: Sequence[int]) -> list[Play]:
    """Every distinct play a hand can make, sorted by size then key."""
    return list(_all_plays(tuple(sorted(hand))))


@lru_cache(maxsize=4096)
def _all_plays(cards: tuple[int, ...]) -> tuple[Play, ...]:
    found: dict[tuple[int, ...], Play] = {}
    for c in set(cards):
        found[(c,)] = classify((c,))
    by_number: dict[int, list[int]] = {}
    for c in cards:
        n = number_of(c)
        if n is not None:
            by_number.setdefault(n, []).append(c)
    sets_by_number: dict[int, dict[int, set[tuple[int, ...]]]] = {}
    for n, group in by_number.items():
        sets_by_number[n] = {}
        for k in range(2, len(group) + 1):
            combos = set(combinations(group, k))
            sets_by_number[n][k] = combos
            for combo in combos:
                found[combo] = classify(combo)
    if cards.count(VICE_PREMIER) >= 2:
        found[(VICE_PREMIER, VICE_PREMIER)] = classify((VICE_PREMIER, VICE_PREMIER))
    five: set[tuple[int, ...]] = set()
    # straights (and straight flushes): one card of each of five consecutive numbers
    for start in range(1, 7):
        choices = [sorted(set(by_number.get(n, ()))) for n in range(start, start + 5)]
        if all(choices):
            five.update(tuple(sorted(combo)) for combo in product(*choices))
    # flushes: five cards of one colour, the Student Leader joining any colour
    for colour in COLOURS:
        suited = [c for c in cards if colour_of(c) == colour or c == STUDENT_LEADER]
        if len(suited) >= 5:
            five.update(set(combinations(suited, 5)))
    # full houses: a triple and a pair of another number
    for a, by_k in sets_by_number.items():
        for triple in by_k.get(3, ()):
            for b, other in sets_by_number.items():
                if b != a:
                    for pair in other.get(2, ()):
                        five.add(tuple(sorted(triple + pair)))
    for combo in five:
        if combo not in found:
            try:
                found[combo] = classify(combo)
            except InvalidMoveError:
                pass
    return tuple(sorted(found.values(), key=lambda p: (p.size, p.kind != "gang", p.key)))


def highest_single(hand: Sequence[int]) -> int:
    return max(hand)


def legal_plays(
    hand: Sequence[int],
    current: Play | None = None,
    *,
    first_lead: bool = False,
    next_has_one_card: bool = False,
    barred_last_card: bool = False,
) -> list[Play]:
    """Every legal play (passing is separate: see :func:`may_pass`).

    - ``first_lead``: the first lead of a match must include the Student Leader.
    - ``next_has_one_card``: the next player holds one card, so a single must be our highest,
      and when leading we may lead a single only if nothing else can be played.
    - ``barred_last_card``: caught without announcing "last card", we may not play it to win.
    """
    if barred_last_card and len(hand) == 1:
        return []
    plays = all_plays(hand)
    if current is None:
        if first_lead:
            plays = [p for p in plays if STUDENT_LEADER in p.cards]
        if next_has_one_card:
            non_single = [p for p in plays if p.kind != "single"]
            if non_single:
                return non_single
            top = highest_single(hand)
            return [p for p in plays if p.cards == (top,)]
        return plays
    legal = [p for p in plays if beats(p, current)]
    if next_has_one_card and current.kind == "single":
        top = highest_single(hand)
        legal = [p for p in legal if p.kind != "single" or p.cards == (top,)]
    return legal


def may_pass(
    hand: Sequence[int],
    current: Play | None,
    *,
    next_has_one_card: bool = False,
) -> bool:
    """A player may pass unless leading, or unless defending against a one-card player with a
    highest single that beats the current single."""
    if current is None:
        return False
    if next_has_one_card and current.kind == "single":
        return not beats(classify((highest_single(hand),)), current)
    return True


__all__ = ["all_plays", "legal_plays", "may_pass", "parse_play"]
