"""Gang of Four cards: ``g1`` … ``r10``, ``m1`` (Student Leader), ``vp`` (Vice Premier), ``pr`` (President).

Each card is an int *value* in single-card order, low to high:
green 1 < yellow 1 < red 1 < Student Leader < green 2 < … < red 10 < Vice Premier < President.

>>> parse_gof_card("R10"), gof_code(parse_gof_card("r10"))
(38, 'r10')
>>> [gof_code(c) for c in parse_gof_cards("g1 y1 r1 m1 g2")]
['g1', 'y1', 'r1', 'm1', 'g2']
>>> gof_code(parse_gof_card("AD")), gof_code(parse_gof_card("KS")), gof_code(parse_gof_card("joker"))
('m1', 'pr', 'vp')
>>> len(gof_deck())
64
"""

from __future__ import annotations

import random
import re
from typing import Iterable

from ..errors import InvalidCardError, shorten

COLOURS = "gyr"
"""Colours, low to high: green, yellow, red."""
COLOUR_NAMES = {"g": "green", "y": "yellow", "r": "red"}
STUDENT_LEADER = 3  # value of m1
VICE_PREMIER = 40
PRESIDENT = 41
DECK_SIZE = 64


def number_value(number: int, colour: str) -> int:
    """Value of a number card."""
    return (number - 1) * 4 + COLOURS.index(colour)


def number_of(value: int) -> int | None:
    """The number (1 to 10) of a card; the Student Leader is a 1; ``None`` for VP and President."""
    if value >= VICE_PREMIER:
        return None
    return value // 4 + 1


def colour_of(value: int) -> str | None:
    """``g``, ``y`` or ``r``; ``None`` for the Student Leader (any colour), VP and President."""
    if value >= VICE_PREMIER or value == STUDENT_LEADER:
        return None
    return COLOURS[value % 4]


def gof_code(value: int) -> str:
    """The notation of a card value."""
    if value == VICE_PREMIER:
        return "vp"
    if value == PRESIDENT:
        return "pr"
    if value == STUDENT_LEADER:
        return "m1"
    return f"{COLOURS[value % 4]}{value // 4 + 1}"


def gof_name(value: int) -> str:
    if value == VICE_PREMIER:
        return "Vice Premier"
    if value == PRESIDENT:
        return "President"
    if value == STUDENT_LEADER:
        return "Student Leader"
    return f"{COLOUR_NAMES[COLOURS[value % 4]]} {value // 4 + 1}"


_NATIVE = re.compile(r"^([gyr])(10|[1-9])$")
# poker substitution: hearts red, spades yellow, clubs green (RULES.md, option)
POKER_SUITS = {"h": "r", "s": "y", "c": "g"}
_POKER = re.compile(r"^(a|10|t|[2-9])([hscd])$")
_POKER_REV = re.compile(r"^([hscd])(a|10|t|[2-9])$")
_JOKERS = {"joker", "jk", "bj", "rj", "jo", "j"}


def parse_gof_card(token: str, suits: dict[str, str] | None = None) -> int:
    """Parse one card: native (``g7``, ``m1``, ``vp``, ``pr``) or poker (``7C``, ``AD``, ``KS``, ``joker``).

    >>> gof_code(parse_gof_card("7h")), gof_code(parse_gof_card("TS")), gof_code(parse_gof_card("ac"))
    ('r7', 'y10', 'g1')
    """
    t = token.strip().lower()
    m = _NATIVE.match(t)
    if m:
        return number_value(int(m.group(2)), m.group(1))
    if t in ("m1", "sl", "student"):
        return STUDENT_LEADER
    if t in ("vp",) or t in _JOKERS:
        return VICE_PREMIER
    if t in ("pr", "ks", "president"):
        return PRESIDENT
    if t == "ad":
        return STUDENT_LEADER
    m = _POKER.match(t) or _POKER_REV.match(t)
    if m:
        rank, suit = (m.group(1), m.group(2)) if _POKER.match(t) else (m.group(2), m.group(1))
        table = suits or POKER_SUITS
        if suit == "d":
            raise InvalidCardError(f"unknown card {shorten(token)}: with poker cards the diamonds are removed "
                                   "(only AD, the Student Leader, stays)", code="unknown_card", token=str(token).strip()[:24])
        number = 1 if rank == "a" else 10 if rank in ("10", "t") else int(rank)
        return number_value(number, table[suit])
    raise InvalidCardError(
        f"unknown card {shorten(token)}: use g1..g10, y1..y10, r1..r10, m1, vp, pr "
        f"(or poker cards: 2C..10H, AS, AD = Student Leader, KS = President, joker = Vice Premier)",
        code="unknown_card", token=str(token).strip()[:24],
    )


def parse_gof_cards(text: str | Iterable[str]) -> list[int]:
    """Parse a play or a hand, sorted low to high.

    >>> [gof_code(c) for c in parse_gof_cards("r5, g5")]
    ['g5', 'r5']
    """
    tokens = re.split(r"[\s,;]+", text.strip()) if isinstance(text, str) else list(text)
    tokens = [t for t in tokens if t]
    if len(tokens) > DECK_SIZE:
        raise InvalidCardError(f"{len(tokens)} cards, but the whole deck has {DECK_SIZE}")
    return sorted(parse_gof_card(t) for t in tokens)


def gof_deck() -> list[int]:
    """The 64-card deck, sorted."""
    deck = [number_value(n, c) for n in range(1, 11) for c in COLOURS for _ in range(2)]
    deck += [STUDENT_LEADER, VICE_PREMIER, VICE_PREMIER, PRESIDENT]
    return sorted(deck)


def deck_counts() -> dict[int, int]:
    """How many copies of each value the deck holds."""
    counts: dict[int, int] = {}
    for v in gof_deck():
        counts[v] = counts.get(v, 0) + 1
    return counts


def check_gof_copies(cards: Iterable[int]) -> None:
    """Raise :class:`InvalidCardError` if cards hold more copies than the deck has."""
    limit = deck_counts()
    seen: dict[int, int] = {}
    for v in cards:
        seen[v] = seen.get(v, 0) + 1
        if seen[v] > limit[v]:
            raise InvalidCardError(f"{seen[v]} copies of {gof_code(v)}, but the deck has only {limit[v]}",
                                   code="copies", card=gof_code(v), n=seen[v], cap=limit[v])


def format_gof(cards: Iterable[int]) -> str:
    return " ".join(gof_code(c) for c in sorted(cards))


def shuffled_gof_deck(rng: random.Random) -> list[int]:
    deck = gof_deck()
    rng.shuffle(deck)
    return deck


def parse_gof_hand(text: str) -> list[int]:
    """Parse a hand: at most 16 cards, within the deck's copies; errors name the problem."""
    hand = parse_gof_cards(text)
    if len(hand) > 16:
        raise InvalidCardError(f"a hand holds at most 16 cards, got {len(hand)}", code="hand_size", n=len(hand), max=16)
    check_gof_copies(hand)
    return hand
