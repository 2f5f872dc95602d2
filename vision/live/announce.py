"""Card names and one-line announcements in English, Chinese (simplified ``zh``, traditional
``zh-Hant`` and Hong Kong's Cantonese usage ``zh-HK``) and Vietnamese. The sentences, seat and claim words are the catalogues' messages
(:mod:`sisepai.engine.words`), the page's own: card names too (``card.GK`` ...).

>>> card_name("RR", "en"), card_name("RR", "zh"), card_name("RR", "zh-Hant"), card_name("RR", "vi")
('Red Chariot', '红俥', '紅俥', 'Xe đỏ')
>>> announce({"type": "card_shown", "card": "GK", "seat": "S"}, "en")
'South shows Green General.'
>>> announce({"type": "card_shown", "card": "GK", "seat": "S"}, "vi")
'Nam lật Tướng xanh.'
>>> from sisepai.vision.live.events import CardShown
>>> announce(CardShown(4.1, "RH", "E", 9, 3.6, "discard"))
'East discards Red Horse.'
>>> announce({"type": "advice", "card": "YK", "claims": [{"claim": "hu", "meld": ["YK"], "wins": True}]}, "en")
'You can claim Yellow General: a win, with Yellow General.'
"""

from __future__ import annotations

from functools import singledispatch

from sisepai.engine.cards import ALL_CARDS, CARD_CODES, COPIES_PER_PACK, DEFAULT_JOKERS, RANKS, SEATS, SUITS, Card
from sisepai.engine.errors import SisepaiError
from sisepai.engine.gangoffour.cards import deck_counts, gof_code
from sisepai.engine.rules import Rules
from sisepai.engine.words import LANGUAGES, say
from sisepai.vision.live.events import (
    Advice,
    CardCorrected,
    CardRemoved,
    CardShown,
    Event,
    MeldSeen,
    TableSeen,
    WinClaimed,
    event_from_json,
)

PRINTED_GLYPH = {"砲": "包"}
"""The page's character for a piece where the decks' printing differs from the engine's: the Green
and White Cannon is printed 包 (砲 and 炮 are other printings' forms, ``docs/glossary.md``)."""
HAND_SIZE = Rules().hand_size
"""The most cards a hand holds (a winning hand's count): the page's pickers stop there; the shown
card a player may claim is one more."""
SIMPLIFIED_GLYPH = {"將": "将", "帥": "帅", "車": "车", "馬": "马"}
"""The pieces' characters as simplified Chinese text writes them (the page's cards in ``zh``); 俥, 傌
and 包 stay as the cards print them."""
SEAT_WORDS = {lang: {seat: say(lang, f"seat.{seat}") for seat in (*SEATS, "center")} for lang in LANGUAGES}
"""A seat's name at the start of a sentence, from the catalogues (``seat.S`` ...)."""
SEAT_LABELS = {lang: {**words, "center": say(lang, "seatLabel.center")} for lang, words in SEAT_WORDS.items()}
"""A seat's name as a label (the page's rows), not at the start of a sentence."""
UNREAD = {lang: say(lang, "card.unread") for lang in LANGUAGES}
"""The name of a card whose readings are gone (a track's code is ``?`` then)."""
JOKER = {lang: say(lang, "card.joker") for lang in LANGUAGES}
CLAIM_KINDS = ("zhimo", "hu", "gan", "pong", "own-group", "chi", "own-pair")
CLAIM_WORDS = {lang: {kind: say(lang, f"claim.{kind}") for kind in CLAIM_KINDS} for lang in LANGUAGES}
"""The claims (:class:`sisepai.engine.claims.ClaimKind`) as players say them (``claim.KIND`` in the
catalogues): no engine word shows."""


def card_name(code: str, lang: str = "en") -> str:
    """A card's name in ``lang``, the catalogues' ``card.CODE``; a code that is no card (``?``) is
    an unread card.

    >>> card_name("?", "en")
    'An unread card'
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose from {', '.join(LANGUAGES)}")
    try:
        card = Card.parse(code)
    except SisepaiError:
        return UNREAD[lang]
    return JOKER[lang] if card.is_joker else say(lang, f"card.{card.code}")


def announce(event: Event | dict, lang: str = "en") -> str:
    """A short sentence for an event (an :class:`~.events.Event`, or its JSON form read back into
    one), from the catalogues' ``say.*`` messages, chosen by the event's type."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose from {', '.join(LANGUAGES)}")
    typed = event_from_json(event) if isinstance(event, dict) else event
    if typed is None:  # a type this version does not know: named, not guessed at
        return str(event.get("type", ""))
    return _sentence(typed, lang)


def event_message(event: Event, lang: str = "en") -> dict:
    """An event as ``watch --json`` writes it and the live socket sends it: its own fields, and
    its sentence in ``lang`` as ``text``.

    >>> from sisepai.vision.live.events import CardShown
    >>> event_message(CardShown(4.1, "RH", "E", 9, 3.6, "discard"))["text"]
    'East discards Red Horse.'
    """
    return {**event.to_json(), "text": announce(event, lang)}


def _seat(seat: str, lang: str) -> str:
    return SEAT_WORDS[lang].get(seat, seat)


@singledispatch
def _sentence(event: Event, lang: str) -> str:
    return event.type


@_sentence.register
def _(event: TableSeen, lang: str) -> str:
    return say(lang, "say.table", n=len(event.state.get("cards", [])))


@_sentence.register
def _(event: CardShown, lang: str) -> str:
    verb = {None: "shows", "draw": "draws", "discard": "discards"}[event.action]
    seat, card = _seat(event.seat, lang), card_name(event.card, lang)
    if event.turn_said:  # the table says another seat than the turn order did: say so, do not guess silently
        return say(lang, f"say.{verb}Unexpected", seat=seat, card=card, other=_seat(event.turn_said, lang))
    return say(lang, f"say.{verb}", seat=seat, card=card)


@_sentence.register
def _(event: MeldSeen, lang: str) -> str:
    return say(lang, "say.meld", seat=_seat(event.seat, lang), cards=_list(event.cards, lang))


@_sentence.register
def _(event: CardCorrected, lang: str) -> str:
    return say(lang, "say.corrected", seat=_seat(event.seat, lang), card=card_name(event.card, lang),
               was=card_name(event.was, lang))


@_sentence.register
def _(event: CardRemoved, lang: str) -> str:
    return say(lang, "say.removed", card=card_name(event.card, lang))


@_sentence.register
def _(event: WinClaimed, lang: str) -> str:
    seat = _seat(event.seat, lang)
    return say(lang, "say.win", seat=seat) if event.points is None else say(lang, "say.winPoints", seat=seat,
                                                                            points=event.points)


@_sentence.register
def _(event: Advice, lang: str) -> str:
    return advice_sentence(event, lang)


def _list(codes, lang: str) -> str:
    """Cards' names as a list in ``lang`` (Chinese separates them with 、)."""
    return ("、" if lang.startswith("zh") else ", ").join(card_name(c, lang) for c in codes)


def advice_sentence(event: Advice | dict, lang: str = "en") -> str:
    """The best claim of an ``advice`` event, and the discard after it, in ``lang``'s words;
    an advice event of older logs, with no card named, keeps the text it was logged with."""
    if isinstance(event, dict):
        if not event.get("card") or not event.get("claims"):
            return str(event.get("text", ""))
        event = event_from_json({**event, "type": "advice", "t": event.get("t", 0.0)})
    if not event.card or not event.claims:
        return ""
    best = event.claims[0]
    values = {"card": card_name(event.card, lang), "kind": CLAIM_WORDS[lang].get(best["claim"], best["claim"]),
              "meld": _list(best["meld"], lang)}
    if event.discard:
        return say(lang, "say.adviceThen", discard=card_name(event.discard, lang), **values)
    return say(lang, "say.advice", **values)


def all_names() -> dict[str, dict[str, str]]:
    """Every card's name in every language.

    >>> all_names()["GK"]["zh"]
    '绿将'
    """
    return {c.code: {lang: card_name(c.code, lang) for lang in LANGUAGES} for c in ALL_CARDS}


def page_names() -> dict:
    """What the web page shows of the cards and seats, from the engine's tables: the kinds in
    order, the suits and ranks, copy limits, each card's names and character (traditional, and
    simplified as Chinese text shows it), and the seats' labels. The page has no table of its own.

    >>> names = page_names()
    >>> names["kinds"][:2], names["copies"], names["cards"]["YR"]["glyph"], names["cards"]["YR"]["glyph_zh"]
    (['GK', 'GA'], 4, '俥', '俥')
    """
    names = all_names()
    cards = {c.code: {**names[c.code], "glyph": "" if c.is_joker else PRINTED_GLYPH.get(c.glyph, c.glyph),
                      "glyph_zh": "" if c.is_joker else SIMPLIFIED_GLYPH.get(c.glyph, PRINTED_GLYPH.get(c.glyph, c.glyph))}
             for c in ALL_CARDS}
    return {"kinds": list(CARD_CODES), "suits": list(SUITS), "ranks": list(RANKS), "copies": COPIES_PER_PACK,
            "jokers": DEFAULT_JOKERS, "hand_size": HAND_SIZE, "zones": [*SEATS, "center"], "seats": SEAT_LABELS, "cards": cards,
            "claims": CLAIM_WORDS, "gof_copies": _gof_copies()}


def _gof_copies() -> dict[str, int]:
    """Gang of Four's cards, in the deck's order, with how many of each the deck holds."""

    return {gof_code(v): n for v, n in deck_counts().items()}
