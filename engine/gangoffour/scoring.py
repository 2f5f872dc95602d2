"""Gang of Four scoring: cards left times a multiplier; a match ends at 100, lowest total wins.

>>> [deal_score(n) for n in (0, 7, 8, 10, 11, 13, 14, 15, 16)]
[0, 7, 16, 20, 33, 39, 56, 60, 80]
"""

from __future__ import annotations

from typing import Sequence

from ..errors import SisepaiError

MATCH_TARGET = 100
MULTIPLIERS = ((7, 1), (10, 2), (13, 3), (15, 4), (16, 5))
"""(highest count, multiplier): 1-7 ×1, 8-10 ×2, 11-13 ×3, 14-15 ×4, 16 ×5."""


def multiplier(cards_left: int) -> int:
    """The multiplier for ``cards_left`` (0 to 16)."""
    if not 0 <= cards_left <= 16:
        raise SisepaiError(f"a player holds 0 to 16 cards, got {cards_left}")
    for top, mult in MULTIPLIERS:
        if cards_left <= top:
            return mult
    raise AssertionError("unreachable")


def deal_score(cards_left: int) -> int:
    """Points a player scores with ``cards_left`` cards in hand at the end of a deal."""
    return cards_left * multiplier(cards_left)


def deal_scores(cards_left: Sequence[int]) -> list[int]:
    """Scores for every player's cards left: four players, exactly one of them out of cards.

    >>> deal_scores([0, 3, 8, 16])
    [0, 3, 16, 80]
    >>> deal_scores([0, 0, 3, 5])
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: a deal has one winner, the player with no cards left; got 2
    """
    if len(cards_left) != 4:
        raise SisepaiError(f"Gang of Four has 4 players, got {len(cards_left)} counts of cards left")
    winners = sum(1 for n in cards_left if n == 0)
    if winners != 1:
        raise SisepaiError(f"a deal has one winner, the player with no cards left; got {winners}")
    return [deal_score(n) for n in cards_left]


def match_over(totals: Sequence[int]) -> bool:
    """A match ends when any total reaches 100."""
    return max(totals) >= MATCH_TARGET


def match_winners(totals: Sequence[int]) -> list[int]:
    """Players with the lowest total (several on a tie)."""
    low = min(totals)
    return [i for i, t in enumerate(totals) if t == low]
