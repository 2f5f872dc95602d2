"""The totals a winning hand can score under a set of rules: a check on points typed by hand.

A winning hand is ``rules.hand_size`` cards laid as melds, each scoring its key of
:data:`~sisepai.engine.rules.POINT_KEYS`. Every way to fill the hand with melds, within the deck's
jokers and Generals, gives a total; the set of them is what a deal recorded without its cards may
claim. Under See Sek rules each total is odd (the rules' checksum), and 0 is never a win.

>>> from sisepai.engine.rules import Rules
>>> seesek = winning_totals(Rules.preset("seesek"))
>>> 11 in seesek, 12 in seesek, 0 in seesek, 1000 in seesek
(True, False, False, False)
>>> min(seesek), max(seesek)
(1, 31)
"""

from __future__ import annotations

from functools import lru_cache

from sisepai.engine.rules import Rules

MELD_CARDS = {
    "single_general": 1, "joker": 1, "pair": 2, "command": 3, "field": 3, "triple": 3, "triple_exposed": 3,
    "three_soldiers": 3, "quad": 4, "quad_exposed": 4, "quad_general": 4, "four_soldiers": 4,
}
"""How many cards each scoring key's meld holds."""
SUITS = 4


def winning_totals(rules: Rules) -> frozenset[int]:
    """Every total above 0 some winning hand scores under ``rules`` (see the module's docstring)."""
    return _totals(rules.points_items, rules.hand_size, rules.jokers, rules.packs)


@lru_cache(maxsize=32)
def _totals(points_items: tuple[tuple[str, int], ...], hand_size: int, jokers: int, packs: int) -> frozenset[int]:
    points = dict(points_items)
    generals = SUITS * 4 * packs  # each suit's General, four copies a pack
    # (cards, jokers used, Generals used) -> reachable totals; Generals bound singles and General quads
    states: dict[tuple[int, int, int], set[int]] = {(0, 0, 0): {0}}
    for cards in range(hand_size):
        for (n, j, g), totals in [(k, v) for k, v in states.items() if k[0] == cards]:
            for key, size in MELD_CARDS.items():
                if n + size > hand_size:
                    continue
                nj = j + (key == "joker")
                ng = g + {"single_general": 1, "quad_general": 4}.get(key, 0)
                if nj > jokers or ng > generals:
                    continue
                states.setdefault((n + size, nj, ng), set()).update(t + points[key] for t in totals)
    return frozenset(t for (n, _, _), totals in states.items() if n == hand_size for t in totals if t > 0)
