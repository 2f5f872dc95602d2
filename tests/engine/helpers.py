"""Test helpers: a random winning-hand generator and an independent brute-force scorer."""

from __future__ import annotations

import random
from itertools import combinations

from sisepai.engine import CARD_CODES
from sisepai.engine.melds import all_melds

_MELDS = all_melds()


def random_winning_hand(rng: random.Random, size: int = 21, jokers: int = 5) -> list[str]:
    """Random melds, within the deck's copies, until the hand has ``size`` cards."""
    while True:
        counts = [0] * 29
        cards: list[int] = []
        for _ in range(200):
            if len(cards) == size:
                return [CARD_CODES[i] for i in cards]
            meld = rng.choice(_MELDS)
            if len(cards) + len(meld) > size:
                continue
            if any(counts[i] + meld.cards.count(i) > (jokers if i == 28 else 4) for i in set(meld.cards)):
                continue
            for i in meld.cards:
                counts[i] += 1
            cards.extend(meld.cards)


def bf_meld_points(cards: tuple[str, ...], tusac: bool = False) -> int | None:
    """Points of a group under seesek (or tusac, all concealed), or None: written from RULES.md
    without the engine's code."""
    n = len(cards)
    if "J" in cards:
        return 3 if n == 1 else None
    suits = {c[0] for c in cards}
    ranks = {c[1] for c in cards}
    same = len(set(cards)) == 1
    if n == 1:
        return 1 if ranks == {"K"} else None
    if n == 2:
        return 0 if same and ranks != {"K"} else None
    if n == 3:
        if same:
            return 3 if tusac else 1
        if len(suits) == 1 and ranks in ({"K", "A", "E"}, {"R", "H", "C"}):
            return 1
        if ranks == {"P"} and len(suits) == 3:
            return 1
        return None
    if n == 4:
        if same:
            return 8 if tusac else 2
        if ranks == {"P"} and len(suits) == 4:
            return 2
    return None


def brute_force_best(cards: list[str], tusac: bool = False) -> int | None:
    """Best total over every split, found by plain recursion over the card list."""
    hand = tuple(sorted(cards))

    def best(rest: tuple[str, ...]) -> int | None:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        top = None
        seen = set()
        for k in range(0, 4):
            for idx in combinations(range(len(others)), k):
                group = (first,) + tuple(others[i] for i in idx)
                key = tuple(sorted(group))
                if key in seen:
                    continue
                seen.add(key)
                pts = bf_meld_points(group, tusac)
                if pts is None:
                    continue
                remaining = tuple(o for i, o in enumerate(others) if i not in idx)
                sub = best(remaining)
                if sub is not None and (top is None or pts + sub > top):
                    top = pts + sub
        return top

    return best(hand)


def random_winning_melds(rng: random.Random, size: int = 21, jokers: int = 5) -> list[tuple[str, ...]]:
    """Like :func:`random_winning_hand`, but the melds it was built from."""
    while True:
        counts = [0] * 29
        melds: list[tuple[str, ...]] = []
        n = 0
        for _ in range(200):
            if n == size:
                return melds
            meld = rng.choice(_MELDS)
            if n + len(meld) > size:
                continue
            if any(counts[i] + meld.cards.count(i) > (jokers if i == 28 else 4) for i in set(meld.cards)):
                continue
            for i in meld.cards:
                counts[i] += 1
            melds.append(tuple(CARD_CODES[i] for i in meld.cards))
            n += len(meld)


def bf_exposed_points(cards: tuple[str, ...], tusac: bool = False) -> int:
    """Points of a meld laid face up: under tusac an exposed triple scores 1 and an exposed quad 6
    (a quad of Generals 8), written from RULES.md."""
    pts = bf_meld_points(cards, tusac)
    assert pts is not None
    if tusac and len(set(cards)) == 1 and len(cards) >= 3 and cards[0] != "J":
        return 1 if len(cards) == 3 else (8 if cards[0][1] == "K" else 6)
    return pts


def brute_force_win(concealed: list[str], won: str, claimed: bool, tusac: bool = False) -> int | None:
    """Best total of the concealed cards (the won card among them) when the meld holding the won
    card counts as exposed if it was claimed (tusac: "the winning meld counts as concealed only
    when the player won on their own draw"); plain recursion, none of the engine's code."""
    hand = tuple(sorted(concealed))

    def best(rest: tuple[str, ...], pending: bool) -> int | None:
        if not rest:
            return None if pending else 0
        first, others = rest[0], rest[1:]
        top = None
        seen = set()
        for k in range(0, 4):
            for idx in combinations(range(len(others)), k):
                group = tuple(sorted((first,) + tuple(others[i] for i in idx)))
                if group in seen or bf_meld_points(group, tusac) is None:
                    continue
                seen.add(group)
                remaining = tuple(o for i, o in enumerate(others) if i not in idx)
                choices = [(bf_meld_points(group, tusac), pending)]
                if pending and won in group:
                    choices.append((bf_exposed_points(group, tusac) if claimed else bf_meld_points(group, tusac), False))
                for pts, still in choices:
                    sub = best(remaining, still)
                    if sub is not None and (top is None or pts + sub > top):
                        top = pts + sub
        return top

    return best(hand, True)
