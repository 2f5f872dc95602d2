"""Cards of Four Color Cards (四色牌) and their notation.

A card kind is a suit letter and a rank letter (``GK`` is the Green General), or ``J`` for a
joker. The 29 kinds, in :data:`CARD_CODES` order, are also the class ids used by the dataset
generator and the recogniser: that order lives here and nowhere else.

>>> Card.parse("rh")
Card.parse('RH')
>>> Card.parse("G將").code, Card.parse("R俥").name
('GK', 'Red Chariot')
>>> [c.code for c in parse_cards("GK  ga,GE J")]
['GK', 'GA', 'GE', 'J']
>>> len(build_deck(jokers=5))
117
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections import Counter
from typing import Iterable, Sequence

from .errors import InvalidCardError, TooManyCopiesError, shorten

SUITS = "GWYR"
"""Suit letters: Green, White, Yellow, Red."""
RANKS = "KAERHCP"
"""Rank letters, highest first: General, Advisor, Elephant, Chariot, Horse, Cannon, Soldier."""

GENERAL = 0
"""Rank index of the General (``RANKS[GENERAL] == "K"``); a card id ``k`` is a General when ``k % 7 == GENERAL``."""
END_FRACTION = 1.15
"""An end region is the card's width across and ``END_FRACTION`` widths deep: where the generator
prints the character, and what the reader reads (a 40 px wide card's end is 46 px deep)."""
SEATS = ("S", "E", "N", "W")
"""The four seats, in turn order: the next player is to the right (counterclockwise seen from above)."""


def seat_after(seat: str, steps: int = 1) -> str:
    """The seat that plays ``steps`` turns after ``seat`` (``-1``: the one before).

    >>> seat_after("S"), seat_after("W"), seat_after("S", -1)
    ('E', 'S', 'W')
    """
    return SEATS[(SEATS.index(seat) + steps) % len(SEATS)]

SUIT_NAMES = {"G": "Green", "W": "White", "Y": "Yellow", "R": "Red"}
RANK_NAMES = {
    "K": "General", "A": "Advisor", "E": "Elephant", "R": "Chariot",
    "H": "Horse", "C": "Cannon", "P": "Soldier",
}
BLACK_GLYPHS = {"K": "將", "A": "士", "E": "象", "R": "車", "H": "馬", "C": "砲", "P": "卒"}
"""Characters of the black army (Green and White suits)."""
RED_GLYPHS = {"K": "帥", "A": "仕", "E": "相", "R": "俥", "H": "傌", "C": "炮", "P": "兵"}
"""Characters of the red army (Yellow and Red suits)."""

GLYPH_VARIANTS: dict[str, tuple[str, ...]] = {
    "K": ("將", "帥", "将", "帅"),
    "A": ("士", "仕"),
    "E": ("象", "相"),
    "R": ("車", "俥", "车"),
    "H": ("馬", "傌", "马"),
    "C": ("砲", "炮", "包"),
    "P": ("卒", "兵"),
}
"""Every glyph a real deck prints for each rank, whatever the army (decks swap and simplify)."""

JOKER_GLYPHS = ("公", "侯", "伯", "子", "男")
"""Characters often printed on jokers (all jokers play the same)."""

CARD_CODES: tuple[str, ...] = tuple(s + r for s in SUITS for r in RANKS) + ("J",)
"""The 29 card kinds in class-id order: GK GA GE GR GH GC GP WK ... RP J."""

NUM_KINDS = len(CARD_CODES)
JOKER = NUM_KINDS - 1
"""Class id of the joker."""

COPIES_PER_PACK = 4
DEFAULT_JOKERS = 5
MAX_JOKERS = 8

_CODE_TO_ID = {code: i for i, code in enumerate(CARD_CODES)}


def _build_token_table() -> dict[str, int]:
    """Every accepted spelling of a single card, mapped to its class id."""
    table: dict[str, int] = {}
    for i, code in enumerate(CARD_CODES[:-1]):
        suit, rank = code
        for spelling in (code, code.lower(), suit.lower() + rank, suit + rank.lower()):
            table[spelling] = i
        for glyph in GLYPH_VARIANTS[rank]:
            table[suit + glyph] = i
            table[suit.lower() + glyph] = i
    for spelling in ("J", "j", "JOKER", "joker", "Joker", *JOKER_GLYPHS):
        table[spelling] = JOKER
    return table


TOKEN_TO_ID: dict[str, int] = _build_token_table()
"""Fast lookup from a token (``GK``, ``gk``, ``G將``) to a class id; used in hot paths."""


class Card:
    """One card kind. Instances are shared singletons: compare with ``==`` or ``is``.

    >>> Card.parse("WP").suit, Card.parse("WP").rank, Card.parse("WP").id
    ('W', 'P', 13)
    >>> Card.from_id(28)
    Card.parse('J')
    >>> Card.parse("GC").glyph, Card.parse("YC").glyph
    ('砲', '炮')
    """

    __slots__ = ("id", "code")
    _instances: list["Card"] = []

    id: int
    code: str

    def __new__(cls, card_id: int) -> "Card":
        return cls._instances[card_id]

    @classmethod
    def _make(cls, card_id: int) -> "Card":
        obj = object.__new__(cls)
        object.__setattr__(obj, "id", card_id)
        object.__setattr__(obj, "code", CARD_CODES[card_id])
        return obj

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self):
        return (Card.from_id, (self.id,))

    @classmethod
    def from_id(cls, card_id: int) -> "Card":
        """The card with class id ``card_id`` (0 to 28)."""
        if not 0 <= card_id < NUM_KINDS:
            raise InvalidCardError(f"card id {card_id} is out of range 0..{NUM_KINDS - 1}")
        return cls._instances[card_id]

    @classmethod
    def parse(cls, token: str) -> "Card":
        """Parse a code (``GK``, ``rh``), a suit letter and a glyph (``G將``) or ``J``."""
        return cls._instances[parse_card_id(token)]

    @property
    def is_joker(self) -> bool:
        return self.id == JOKER

    @property
    def suit(self) -> str | None:
        """Suit letter, or ``None`` for a joker."""
        return None if self.id == JOKER else self.code[0]

    @property
    def rank(self) -> str | None:
        """Rank letter, or ``None`` for a joker."""
        return None if self.id == JOKER else self.code[1]

    @property
    def is_general(self) -> bool:
        return self.rank == "K"

    @property
    def glyph(self) -> str:
        """The character a standard deck prints (black army on G/W, red army on Y/R)."""
        if self.id == JOKER:
            return "J"
        suit, rank = self.code
        return (BLACK_GLYPHS if suit in "GW" else RED_GLYPHS)[rank]

    @property
    def label(self) -> str:
        """Suit letter and character, as players read it: ``G將``."""
        return "J" if self.id == JOKER else self.code[0] + self.glyph

    @property
    def name(self) -> str:
        """English name: ``Red Chariot``."""
        if self.id == JOKER:
            return "Joker"
        return f"{SUIT_NAMES[self.code[0]]} {RANK_NAMES[self.code[1]]}"

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: "Card") -> bool:
        return self.id < other.id

    def __hash__(self) -> int:
        return self.id


Card._instances = [Card._make(i) for i in range(NUM_KINDS)]
ALL_CARDS: tuple[Card, ...] = tuple(Card._instances)


def parse_card_id(token: str) -> int:
    """Class id of one card token; raises :class:`InvalidCardError` naming the token.

    >>> parse_card_id("GA"), parse_card_id("w包"), parse_card_id("J")
    (1, 12, 28)
    """
    card_id = TOKEN_TO_ID.get(token)
    if card_id is not None:
        return card_id
    stripped = token.strip()
    card_id = TOKEN_TO_ID.get(stripped)
    if card_id is None and stripped[:1].upper() in SUITS and len(stripped) == 2:
        card_id = TOKEN_TO_ID.get(stripped[0].upper() + stripped[1].upper())
    if card_id is None:
        raise InvalidCardError(
            f"unknown card {shorten(token)}: use a suit G/W/Y/R then a rank K/A/E/R/H/C/P "
            f"(e.g. GK, rh, G將) or J for a joker",
            code="unknown_card", token=str(token).strip()[:24],
        )
    return card_id


_SPLIT = re.compile(r"[\s,;]+")


def split_tokens(text: str) -> list[str]:
    """Split a hand written with spaces, commas or semicolons, or glued codes (``GKGAGE``).

    >>> split_tokens("GK, GA;GE  J")
    ['GK', 'GA', 'GE', 'J']
    >>> split_tokens("GKGAGEJ")
    ['GK', 'GA', 'GE', 'J']
    """
    tokens: list[str] = []
    for chunk in _SPLIT.split(text.strip()):
        if not chunk:
            continue
        if chunk in TOKEN_TO_ID:
            tokens.append(chunk)
            continue
        tokens.extend(_split_glued(chunk))
    return tokens


def _split_glued(chunk: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(chunk):
        if chunk[i] in "Jj":
            out.append("J")
            i += 1
            continue
        piece = chunk[i : i + 2]
        if piece in TOKEN_TO_ID:
            out.append(piece)
            i += 2
            continue
        # Not a card: hand back the rest unchanged so the error names it.
        out.append(chunk[i:])
        break
    return out


def parse_card_ids(text: str | Iterable[str]) -> list[int]:
    """Class ids of a hand written as text, or of an iterable of tokens."""
    tokens = split_tokens(text) if isinstance(text, str) else list(text)
    return [parse_card_id(t) for t in tokens]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a whole hand: ``"GK GA GE J"`` or a list of tokens.

    >>> parse_cards(["Y帥", "y帅"])
    [Card.parse('YK'), Card.parse('YK')]
    """
    return [ALL_CARDS[i] for i in parse_card_ids(text)]


def format_cards(cards: Iterable[Card | int | str], glyphs: bool = False) -> str:
    """Write cards back as text: ``GK GA`` (or ``G將 G士`` with ``glyphs=True``).

    >>> format_cards(["gk", 1], glyphs=True)
    'G將 G士'
    """
    out = []
    for c in cards:
        if isinstance(c, Card):
            card = c
        else:
            card = ALL_CARDS[c] if isinstance(c, int) else Card.parse(c)
        out.append(card.label if glyphs else card.code)
    return " ".join(out)


def counts_of(card_ids: Iterable[int]) -> list[int]:
    """A count vector of length 29 from class ids.

    >>> counts_of([0, 0, 28])[:2], counts_of([0, 0, 28])[28]
    ([2, 0], 1)
    """
    counts = [0] * NUM_KINDS
    for i in card_ids:
        counts[i] += 1
    return counts


def check_copies(card_ids: Sequence[int], packs: int = 1, jokers: int = DEFAULT_JOKERS) -> None:
    """Raise :class:`TooManyCopiesError` if a hand holds more copies than the deck has.

    >>> check_copies(parse_card_ids("GK GK GK GK GK"))
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.TooManyCopiesError: 5 copies of GK, but the deck has only 4
    """
    limit = COPIES_PER_PACK * packs
    for card_id, n in Counter(card_ids).items():
        cap = jokers if card_id == JOKER else limit
        if n > cap:
            noun = "jokers" if card_id == JOKER else f"copies of {CARD_CODES[card_id]}"
            raise TooManyCopiesError(f"{n} {noun}, but the deck has only {cap}", code="copies",
                                     card=CARD_CODES[card_id], n=n, cap=cap)


def build_deck(jokers: int = DEFAULT_JOKERS, packs: int = 1) -> list[Card]:
    """A sorted deck: ``4 × packs`` of each of the 28 kinds plus ``jokers`` jokers (0 to 8).

    >>> len(build_deck(jokers=0, packs=2))
    224
    """
    if not 0 <= jokers <= MAX_JOKERS:
        raise ValueError(f"jokers must be 0 to {MAX_JOKERS}, got {jokers}")
    if packs < 1:
        raise ValueError(f"packs must be at least 1, got {packs}")
    deck = [card for card in ALL_CARDS[:JOKER] for _ in range(COPIES_PER_PACK * packs)]
    deck.extend([ALL_CARDS[JOKER]] * jokers)
    return deck


def shuffled_deck(seed: int | None = None, jokers: int = DEFAULT_JOKERS, packs: int = 1) -> list[Card]:
    """A deck shuffled with its own ``random.Random(seed)``."""
    deck = build_deck(jokers=jokers, packs=packs)
    random.Random(seed).shuffle(deck)
    return deck


def sort_key(card: Card) -> tuple[int, int]:
    """Sort by suit (G W Y R), then by rank from General down; jokers last."""
    return (card.id // 7, card.id % 7)


def display_width(text: str) -> int:
    """Terminal columns of ``text``: Chinese characters take two.

    >>> display_width("G將")
    3
    """
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int) -> str:
    """Left-align ``text`` in ``width`` terminal columns."""
    return text + " " * max(0, width - display_width(text))
