"""Gang of Four plays: what kind a group of cards is, and whether one play beats another.

>>> classify(parse_gof_cards("g3 y4 r5 g6 g7")).kind
'straight'
>>> beats(parse_gof_cards("r5 g5"), parse_gof_cards("y5 y5"))
True
>>> beats(parse_gof_cards("g2 g2 y2 y2"), parse_gof_cards("g3 y4 r5 g6 r7"))
True
>>> beats(parse_gof_cards("g10 g8 g3 g2 g1"), parse_gof_cards("r10 r7 r6 r5 r3"))  # poker ties
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..errors import InvalidMoveError
from .cards import (
    PRESIDENT,
    STUDENT_LEADER,
    VICE_PREMIER,
    check_gof_copies,
    colour_of,
    format_gof,
    gof_code,
    number_of,
    parse_gof_cards,
)

FIVE_CARD_ORDER = ("straight", "flush", "full_house", "straight_flush")
KINDS = ("single", "pair", "triple", *FIVE_CARD_ORDER, "gang")


@dataclass(frozen=True)
class Play:
    """A valid play: its kind, its cards (sorted values) and a key that orders plays of a kind."""

    kind: str
    cards: tuple[int, ...]
    key: tuple

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def codes(self) -> list[str]:
        return [gof_code(c) for c in self.cards]

    def __str__(self) -> str:
        return format_gof(self.cards)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "cards": self.codes}


def _desc(cards: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(cards, reverse=True))


def _poker(cards: Sequence[int]) -> tuple:
    """Poker order for plays of one kind (RULES.md, seed 003): the highest number, then the next
    highest, and so on; only when every number is equal, the highest card (so its colour).

    >>> _poker(parse_gof_cards("g10 g8 g3 g2 g1")) > _poker(parse_gof_cards("r10 r7 r6 r5 r3"))
    True
    """
    return (tuple(sorted((number_of(c) for c in cards), reverse=True)), max(cards))


def why_not_play(cards: Sequence[int]) -> str | None:
    """``None`` if the cards are a play, else why not."""
    try:
        classify(cards)
    except InvalidMoveError as exc:
        return str(exc).split(": ", 1)[-1]
    return None


def classify(cards: Sequence[int]) -> Play:
    """Classify a group of card values; raises :class:`InvalidMoveError` saying why it is not a play.

    >>> classify(parse_gof_cards("m1 g2 g3 g4 g5")).kind
    'straight_flush'
    >>> classify(parse_gof_cards("vp vp")).kind
    'pair'
    >>> classify(parse_gof_cards("g1 y1 r1 m1 g1 y1 r1")).kind
    'gang'
    """
    cs = tuple(sorted(cards))
    n = len(cs)
    if n == 0:
        raise InvalidMoveError("an empty play: give at least one card")
    numbers = [number_of(c) for c in cs]
    text = format_gof(cs)
    if n == 1:
        return Play("single", cs, (cs[0],))
    specials = [c for c in cs if c >= VICE_PREMIER]
    if specials:
        if n == 2 and cs == (VICE_PREMIER, VICE_PREMIER):
            return Play("pair", cs, ((11, 11), VICE_PREMIER))  # above every numbered pair
        raise InvalidMoveError(f"{text} is not a play: Vice Premiers pair only with each other, "
                               "and the President plays only alone")
    same = len(set(numbers)) == 1
    if same:
        if n == 2:
            return Play("pair", cs, _poker(cs))
        if n == 3:
            return Play("triple", cs, _poker(cs))
        return Play("gang", cs, (n, numbers[0], _desc(cs)))
    if n != 5:
        raise InvalidMoveError(f"{text} is not a play: {n} cards must all be one number "
                               + ("(a pair)" if n == 2 else "(a triple)" if n == 3 else "(a gang)"))
    ordered = sorted(numbers)
    straight = all(ordered[i + 1] == ordered[i] + 1 for i in range(4))
    colours = {colour_of(c) for c in cs if c != STUDENT_LEADER}
    flush = len(colours) == 1
    if straight and flush:
        return Play("straight_flush", cs, (3, *_poker(cs)))
    counts = sorted((numbers.count(x), x) for x in set(numbers))
    if [c for c, _ in counts] == [2, 3]:
        return Play("full_house", cs, (2, counts[1][1], counts[0][1], max(cs)))
    if flush:
        return Play("flush", cs, (1, *_poker(cs)))
    if straight:
        return Play("straight", cs, (0, *_poker(cs)))
    raise InvalidMoveError(f"{text} is not a play: five cards must be a straight, flush, full house "
                           "or straight flush")


def beats(play: Sequence[int] | Play, previous: Sequence[int] | Play) -> bool:
    """Whether ``play`` beats ``previous``: same size and kind and higher, five-card hands by
    category, and gangs over anything (a bigger gang, or a higher number of the same size).
    """
    p = play if isinstance(play, Play) else classify(play)
    q = previous if isinstance(previous, Play) else classify(previous)
    if p.kind == "gang":
        return q.kind != "gang" or p.key > q.key
    if q.kind == "gang" or p.size != q.size:
        return False
    if p.size == 5:
        return p.key > q.key
    return p.kind == q.kind and p.key > q.key


def parse_play(text: str) -> Play:
    """Parse and classify a play written as text, within the deck's copies.

    >>> parse_play("g1 " * 200)
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.InvalidCardError: 3 copies of g1, but the deck has only 2
    """
    cards = parse_gof_cards(text)
    check_gof_copies(cards)
    return classify(cards)


__all__ = ["Play", "KINDS", "beats", "classify", "parse_play", "why_not_play", "PRESIDENT"]
