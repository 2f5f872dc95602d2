"""Card names and one-line announcements in English, Mandarin and Vietnamese.

>>> card_name("RR", "en"), card_name("RR", "zh"), card_name("RR", "vi")
('Red Chariot', '红车', 'Xe đỏ')
>>> announce({"type": "card_shown", "card": "GK", "seat": "S"}, "en")
'South shows Green General.'
>>> announce({"type": "card_shown", "card": "GK", "seat": "S"}, "vi")
'Nam lật Tướng xanh.'
>>> from sisepai.vision.live.events import CardShown
>>> announce(CardShown(4.1, "RH", "E", 9, 3.6, "discard"))
'East discards Red Horse.'
"""

from __future__ import annotations

from sisepai.engine.cards import ALL_CARDS, CARD_CODES, COPIES_PER_PACK, DEFAULT_JOKERS, RANKS, SEATS, SUITS, Card
from sisepai.engine.errors import SisepaiError

from sisepai.vision.live.events import Event

LANGUAGES = ("en", "zh", "vi")
_ZH_SUIT = {"G": "绿", "W": "白", "Y": "黄", "R": "红"}
_ZH_GLYPH = {"將": "将", "帥": "帅", "車": "车", "俥": "车", "馬": "马", "傌": "马", "砲": "炮"}
"""Chinese announcements are in simplified characters throughout (the page's cards too)."""
_VI_SUIT = {"G": "xanh", "W": "trắng", "Y": "vàng", "R": "đỏ"}
_VI_RANK = {"K": "Tướng", "A": "Sĩ", "E": "Tượng", "R": "Xe", "H": "Mã", "C": "Pháo", "P": "Chốt"}
SEAT_WORDS = {
    "en": {"S": "South", "E": "East", "N": "North", "W": "West", "center": "The centre"},
    "zh": {"S": "南家", "E": "东家", "N": "北家", "W": "西家", "center": "中央"},
    "vi": {"S": "Nam", "E": "Đông", "N": "Bắc", "W": "Tây", "center": "Giữa bàn"},
}


SEAT_LABELS = {lang: {**words, "center": {"en": "Centre"}.get(lang, words["center"])} for lang, words in SEAT_WORDS.items()}
"""A seat's name as a label (the page's rows), not at the start of a sentence."""


UNREAD = {"en": "An unread card", "zh": "一张牌", "vi": "Một lá bài"}
"""The name of a card whose readings are gone (a track's code is ``?`` then)."""


def card_name(code: str, lang: str = "en") -> str:
    """A card's name in ``lang``; a code that is no card (``?``) is an unread card.

    >>> card_name("?", "en")
    'An unread card'
    """
    try:
        card = Card.parse(code)
    except SisepaiError:
        return UNREAD[lang]
    if card.is_joker:
        return {"en": "Joker", "zh": "鬼牌", "vi": "Thẻ hề"}[lang]
    if lang == "en":
        return card.name
    if lang == "zh":
        return _ZH_SUIT[card.suit] + _ZH_GLYPH.get(card.glyph, card.glyph)
    if lang == "vi":
        return f"{_VI_RANK[card.rank]} {_VI_SUIT[card.suit]}"
    raise ValueError(f"unknown language {lang!r}; choose from {', '.join(LANGUAGES)}")


def announce(event: Event | dict, lang: str = "en") -> str:
    """A short sentence for an event (an :class:`~.events.Event` or its JSON form)."""
    if not isinstance(event, dict):
        event = event.to_json()
    seat = SEAT_WORDS[lang].get(event.get("seat", ""), event.get("seat", ""))
    t = event["type"]
    if t == "table":
        n = len(event.get("cards", []))
        return {"en": f"The table: {n} cards face up.", "zh": f"桌面：{n}张明牌。", "vi": f"Trên bàn: {n} lá ngửa."}[lang]
    if t == "card_shown":
        name = card_name(event["card"], lang)
        verb = {None: ("shows", "亮出", "lật"), "draw": ("draws", "摸到", "bốc"),
                "discard": ("discards", "打出", "đánh")}[event.get("action")]
        return {"en": f"{seat} {verb[0]} {name}.", "zh": f"{seat}{verb[1]}{name}。", "vi": f"{seat} {verb[2]} {name}."}[lang]
    if t == "meld":
        names = ", ".join(card_name(c, lang) for c in event["cards"])
        return {"en": f"{seat} melds {names}.", "zh": f"{seat}组合{names}。", "vi": f"{seat} hạ {names}."}[lang]
    if t == "card_corrected":
        name, was = card_name(event["card"], lang), card_name(event["was"], lang)
        return {"en": f"Correction: {seat} has {name}, not {was}.", "zh": f"更正：{seat}是{name}，不是{was}。",
                "vi": f"Sửa lại: {seat} là {name}, không phải {was}."}[lang]
    if t == "card_removed":
        name = card_name(event["card"], lang)
        return {"en": f"{name} left the table.", "zh": f"{name}离开桌面。", "vi": f"{name} rời bàn."}[lang]
    if t == "win_claimed":
        pts = event.get("points")
        return {"en": f"{seat} claims a win" + (f": {pts} points." if pts is not None else "."),
                "zh": f"{seat}和牌" + (f"：{pts}分。" if pts is not None else "。"),
                "vi": f"{seat} ù" + (f": {pts} điểm." if pts is not None else ".")}[lang]
    if t == "advice":
        return event.get("text", "")
    return t


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
    (['GK', 'GA'], 4, '俥', '车')
    """
    names = all_names()
    cards = {c.code: {**names[c.code], "glyph": "" if c.is_joker else c.glyph,
                      "glyph_zh": "" if c.is_joker else _ZH_GLYPH.get(c.glyph, c.glyph)} for c in ALL_CARDS}
    return {"kinds": list(CARD_CODES), "suits": list(SUITS), "ranks": list(RANKS), "copies": COPIES_PER_PACK,
            "jokers": DEFAULT_JOKERS, "zones": [*SEATS, "center"], "seats": SEAT_LABELS, "cards": cards}
