"""Dealing and checking a deal: packets of five (the tusac dealer's six first), the deck's every
card exactly once, and the tusac misdeal.

>>> from .rules import Rules
>>> hands = deal_hands(list(range(84)), 4, 0, Rules.preset("seesek"))
>>> [len(h) for h in hands], hands[1][:5]
([20, 20, 20, 20], [5, 6, 7, 8, 9])
"""

from __future__ import annotations

from typing import Sequence

from .cards import CARD_CODES, JOKER, NUM_KINDS, counts_of
from .cards import GENERAL as K
from .errors import SisepaiError
from .rules import OPTION_KEYS, Rules


def deal_hands(deck: Sequence[int], players: int, dealer: int, rules: Rules) -> list[list[int]]:
    """Deal from the top of ``deck`` in packets: 5 each to 20 (seesek); tusac: the dealer takes 6
    first, then 5 at a time around, so the dealer holds 21."""
    hands: list[list[int]] = [[] for _ in range(players)]
    pos = 0
    order = [(dealer + k) % players for k in range(players)]
    if rules.deal == "tusac":
        hands[dealer].extend(deck[pos:pos + 6])
        pos += 6
        for p, n in [(p, 5) for _ in range(4) for p in order]:
            want = 21 if p == dealer else 20
            take = min(n, want - len(hands[p]))
            if take > 0:
                hands[p].extend(deck[pos:pos + take])
                pos += take
        return hands
    for _ in range(4):
        for p in order:
            hands[p].extend(deck[pos:pos + 5])
            pos += 5
    return hands


def logged_rules(deal: dict) -> Rules:
    """The rules a deal event was played under: its options and points (a log written before the
    options were recorded names a preset)."""
    options = deal.get("options")
    if isinstance(options, dict):
        known = {k: v for k, v in options.items() if k in OPTION_KEYS and k != "description"}
        return Rules(name=str(deal.get("rules", "custom")), points_items=tuple(sorted(deal["points"].items())), **known)
    try:
        rules = Rules.preset(deal.get("rules", "seesek"), jokers=deal.get("jokers", 5))
    except SisepaiError:
        rules = Rules.preset("seesek", jokers=deal.get("jokers", 5))
    if "points" in deal:
        rules = rules.with_options(points_items=tuple(sorted(deal["points"].items())))
    return rules


def check_deal(hands: Sequence[Sequence[int]], pile: Sequence[int], dealer: int, rules: Rules) -> None:
    """Raise :class:`SisepaiError` unless a shuffle of the deck could deal these hands and pile:
    every card of the deck exactly once, 20 cards a player (tusac: the dealer 21), and no
    tusac misdeal.

    >>> from .cards import parse_card_ids
    >>> check_deal([parse_card_ids("GK " * 20)] * 2, [], 0, Rules.preset("seesek"))
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: the deal holds 40 GK, but a deck of 1 pack has 4
    """
    if not 2 <= len(hands) <= 4:
        raise SisepaiError(f"the deal has {len(hands)} hands: a game has 2 to 4 players")
    if not isinstance(dealer, int) or not 0 <= dealer < len(hands):
        raise SisepaiError(f"dealer {dealer!r} is not a seat of {len(hands)} players")
    have = counts_of([c for h in hands for c in h] + list(pile))
    for k in range(NUM_KINDS):
        want = rules.copies_of(k)
        if have[k] == want:
            continue
        if k == JOKER:
            raise SisepaiError(f"the deal holds {have[k]} jokers, but the rules play with {want} jokers")
        packs = f"{rules.packs} pack{'s' * (rules.packs > 1)}"
        raise SisepaiError(f"the deal holds {have[k]} {CARD_CODES[k]}, but a deck of {packs} has {want}")
    for p, hand in enumerate(hands):
        want = rules.hand_size - (0 if rules.deal == "tusac" and p == dealer else 1)
        if len(hand) != want:
            role = "the dealer" if p == dealer else "a non-dealer"
            raise SisepaiError(f"player {p} ({role}) was dealt {len(hand)} cards, not {want} ({rules.deal} deal)")
    if rules.misdeal:
        for p, hand in enumerate(hands):
            if is_misdeal(hand):
                raise SisepaiError(f"a misdeal: player {p}'s hand has no General, no triple or quad and no "
                                   "four-soldier group, so the deal is void and must be reshuffled")


def is_misdeal(hand: Sequence[int]) -> bool:
    """tusac: void if a dealt hand has no General, no concealed triple or quad, and no
    four-soldier group."""
    counts = counts_of(hand)
    has_general = any(counts[s * 7 + K] for s in range(4))
    has_triple = any(counts[k] >= 3 for k in range(JOKER))
    has_four_soldiers = all(counts[s * 7 + 6] for s in range(4))
    return not (has_general or has_triple or has_four_soldiers)
