"""Card names and one-line announcements in English, Chinese (simplified ``zh`` and traditional
``zh-Hant``) and Vietnamese.

>>> card_name("RR", "en"), card_name("RR", "zh"), card_name("RR", "zh-Hant"), card_name("RR", "vi")
('Red Chariot', '红车', '紅車', 'Xe đỏ')
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

from sisepai.engine.cards import ALL_CARDS, CARD_CODES, COPIES_PER_PACK, DEFAULT_JOKERS, RANKS, SEATS, SUITS, Card
from sisepai.engine.errors import SisepaiError

from sisepai.vision.live.events import Event

LANGUAGES = ("en", "zh", "zh-Hant", "vi")
"""``zh`` is Chinese in simplified characters, ``zh-Hant`` in traditional ones."""
_ZH_SUIT = {"G": "绿", "W": "白", "Y": "黄", "R": "红"}
_HANT_SUIT = {"G": "綠", "W": "白", "Y": "黃", "R": "紅"}
_ZH_GLYPH = {"將": "将", "帥": "帅", "車": "车", "俥": "车", "馬": "马", "傌": "马", "砲": "炮"}
"""Simplified Chinese text is in simplified characters throughout (the page's cards too)."""
_HANT_GLYPH = {"俥": "車", "傌": "馬"}
"""Traditional Chinese names a card by its suit and its piece, as players say it (紅車, not 紅俥)."""
_VI_SUIT = {"G": "xanh", "W": "trắng", "Y": "vàng", "R": "đỏ"}
_VI_RANK = {"K": "Tướng", "A": "Sĩ", "E": "Tượng", "R": "Xe", "H": "Mã", "C": "Pháo", "P": "Chốt"}
SEAT_WORDS = {
    "en": {"S": "South", "E": "East", "N": "North", "W": "West", "center": "The centre"},
    "zh": {"S": "南家", "E": "东家", "N": "北家", "W": "西家", "center": "中央"},
    "zh-Hant": {"S": "南家", "E": "東家", "N": "北家", "W": "西家", "center": "中央"},
    "vi": {"S": "Nam", "E": "Đông", "N": "Bắc", "W": "Tây", "center": "Giữa bàn"},
}


SEAT_LABELS = {lang: {**words, "center": {"en": "Centre"}.get(lang, words["center"])} for lang, words in SEAT_WORDS.items()}
"""A seat's name as a label (the page's rows), not at the start of a sentence."""


UNREAD = {"en": "An unread card", "zh": "一张牌", "zh-Hant": "一張牌", "vi": "Một lá bài"}
"""The name of a card whose readings are gone (a track's code is ``?`` then)."""
JOKER = {"en": "Joker", "zh": "鬼牌", "zh-Hant": "鬼牌", "vi": "Thẻ hề"}
CLAIM_WORDS = {
    "en": {"zhimo": "a win on your own draw", "hu": "a win", "gan": "four of a kind", "pong": "three of a kind",
           "own-group": "a group with your own draw", "chi": "a group", "own-pair": "a pair with your own draw"},
    "zh": {"zhimo": "自摸", "hu": "和牌", "gan": "杠", "pong": "碰", "own-group": "自组", "chi": "吃",
           "own-pair": "自对"},
    "zh-Hant": {"zhimo": "自摸", "hu": "和牌", "gan": "槓", "pong": "碰", "own-group": "自組", "chi": "吃",
                "own-pair": "自對"},
    "vi": {"zhimo": "tới bài tự bốc", "hu": "tới", "gan": "quằn (bốn lá)", "pong": "ăn ba lá", "own-group": "ghép bộ với lá tự bốc",
           "chi": "ăn bộ", "own-pair": "ghép đôi với lá tự bốc"},
}
"""The claims (:class:`sisepai.engine.claims.ClaimKind`) as players say them: no engine word shows."""


def card_name(code: str, lang: str = "en") -> str:
    """A card's name in ``lang``; a code that is no card (``?``) is an unread card.

    >>> card_name("?", "en")
    'An unread card'
    """
    try:
        card = Card.parse(code)
    except SisepaiError:
        return UNREAD[lang] if lang in UNREAD else UNREAD["en"]
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose from {', '.join(LANGUAGES)}")
    if card.is_joker:
        return JOKER[lang]
    if lang == "en":
        return card.name
    if lang == "zh":
        return _ZH_SUIT[card.suit] + _ZH_GLYPH.get(card.glyph, card.glyph)
    if lang == "zh-Hant":
        return _HANT_SUIT[card.suit] + _HANT_GLYPH.get(card.glyph, card.glyph)
    if lang == "vi":
        return f"{_VI_RANK[card.rank]} {_VI_SUIT[card.suit]}"
    raise ValueError(f"unknown language {lang!r}; choose from {', '.join(LANGUAGES)}")


def _say(lang: str, en: str, zh: str, hant: str, vi: str) -> str:
    return {"en": en, "zh": zh, "zh-Hant": hant, "vi": vi}[lang]


def announce(event: Event | dict, lang: str = "en") -> str:
    """A short sentence for an event (an :class:`~.events.Event` or its JSON form)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose from {', '.join(LANGUAGES)}")
    if not isinstance(event, dict):
        event = event.to_json()
    seat = SEAT_WORDS[lang].get(event.get("seat", ""), event.get("seat", ""))
    t = event["type"]
    if t == "table":
        n = len(event.get("cards", []))
        return _say(lang, f"The table: {n} card{'s' * (n != 1)} face up.", f"桌面：{n}张明牌。", f"桌面：{n}張明牌。",
                    f"Trên bàn: {n} lá ngửa.")
    if t == "card_shown":
        name = card_name(event["card"], lang)
        verb = {None: ("shows", "亮出", "亮出", "lật"), "draw": ("draws", "摸到", "摸到", "bốc"),
                "discard": ("discards", "打出", "打出", "đánh")}[event.get("action")]
        said = event.get("turn_said")
        if said:  # the table says another seat than the turn order did: say so, do not guess silently
            other = SEAT_WORDS[lang].get(said, said)
            return _say(lang, f"{seat} {verb[0]} {name} ({other} was expected).", f"{seat}{verb[1]}{name}（应轮到{other}）。",
                        f"{seat}{verb[2]}{name}（應輪到{other}）。", f"{seat} {verb[3]} {name} (đúng lượt là {other}).")
        return _say(lang, f"{seat} {verb[0]} {name}.", f"{seat}{verb[1]}{name}。", f"{seat}{verb[2]}{name}。",
                    f"{seat} {verb[3]} {name}.")
    if t == "meld":
        names = ("、" if lang.startswith("zh") else ", ").join(card_name(c, lang) for c in event["cards"])
        return _say(lang, f"{seat} melds {names}.", f"{seat}组合{names}。", f"{seat}組合{names}。", f"{seat} hạ {names}.")
    if t == "card_corrected":
        name, was = card_name(event["card"], lang), card_name(event["was"], lang)
        return _say(lang, f"Correction: {seat} has {name}, not {was}.", f"更正：{seat}是{name}，不是{was}。",
                    f"更正：{seat}是{name}，不是{was}。", f"Sửa lại: {seat} là {name}, không phải {was}.")
    if t == "card_removed":
        name = card_name(event["card"], lang)
        return _say(lang, f"{name} left the table.", f"{name}离开桌面。", f"{name}離開桌面。", f"{name} rời bàn.")
    if t == "win_claimed":
        pts = event.get("points")
        return _say(lang, f"{seat} claims a win" + (f": {pts} points." if pts is not None else "."),
                    f"{seat}和牌" + (f"：{pts}分。" if pts is not None else "。"),
                    f"{seat}和牌" + (f"：{pts}分。" if pts is not None else "。"),
                    f"{seat} tới" + (f": {pts} điểm." if pts is not None else "."))
    if t == "advice":
        return advice_sentence(event, lang)
    return t


def advice_sentence(event: dict, lang: str = "en") -> str:
    """The best claim of an ``advice`` event, and the discard after it, in ``lang``'s words;
    an advice event of older logs, with no card named, keeps its own text."""
    claims = event.get("claims") or []
    if not event.get("card") or not claims:
        return event.get("text", "")
    best = claims[0]
    card = card_name(event["card"], lang)
    sep = "、" if lang.startswith("zh") else ", "
    meld = sep.join(card_name(c, lang) for c in best["meld"])
    kind = CLAIM_WORDS[lang].get(best["claim"], best["claim"])
    discard = card_name(event["discard"], lang) if event.get("discard") else None
    if lang == "en":
        return f"You can claim {card}: {kind}, with {meld}" + (f"; then discard {discard}." if discard else ".")
    if lang in ("zh", "zh-Hant"):
        then = ("，然后打出" if lang == "zh" else "，然後打出") + discard if discard else ""
        return f"可以{kind}{card}：与{meld}{then}。" if lang == "zh" else f"可以{kind}{card}：與{meld}{then}。"
    return f"Bạn có thể {kind} {card}, với {meld}" + (f"; rồi đánh {discard}." if discard else ".")


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
            "jokers": DEFAULT_JOKERS, "zones": [*SEATS, "center"], "seats": SEAT_LABELS, "cards": cards,
            "claims": CLAIM_WORDS, "gof_copies": _gof_copies()}


def _gof_copies() -> dict[str, int]:
    """Gang of Four's cards, in the deck's order, with how many of each the deck holds."""
    from sisepai.engine.gangoffour.cards import deck_counts, gof_code

    return {gof_code(v): n for v, n in deck_counts().items()}
