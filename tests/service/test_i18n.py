"""The page's catalogues: every key in every language, the same placeholders, and the server's words
(events, card names, claims) in each language the page offers."""

import json
import re
from pathlib import Path

import pytest

from sisepai.vision.live.announce import CLAIM_WORDS, LANGUAGES, announce, card_name, page_names

CATALOGUES = Path(__file__).resolve().parents[2] / "service" / "static" / "i18n"
PAGE_LANGUAGES = ("en", "zh", "zh-Hant", "vi")


def _load(lang):
    return json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))


def _placeholders(text):
    return sorted(set(re.findall(r"\{(\w+)(?:[,}])", text)))


@pytest.mark.parametrize("lang", PAGE_LANGUAGES[1:])
def test_every_message_is_translated_with_the_same_placeholders(lang):
    english, other = _load("en"), _load(lang)
    assert set(other) == set(english)
    for key, text in english.items():
        assert _placeholders(other[key]) == _placeholders(text), key
        if "plural," in other[key]:
            assert "other {" in other[key], key  # a plural message has the form every language has
    same = [k for k, v in other.items() if v == english[k] and re.search(r"[A-Za-z]{4}", re.sub(r"\{[^{}]*\}", "", v))]
    assert set(same) <= {"tabs", "footer.api", "deck.nameExample", "deck.progress", "tab.gof"}, same


def test_the_server_speaks_every_language_the_page_offers():
    assert set(PAGE_LANGUAGES) == set(LANGUAGES)
    names = page_names()
    for lang in PAGE_LANGUAGES:
        assert set(CLAIM_WORDS[lang]) == {"zhimo", "hu", "gan", "pong", "own-group", "chi", "own-pair"}
        assert set(names["seats"][lang]) == {"S", "E", "N", "W", "center"}
        assert all(lang in c for c in names["cards"].values())
    assert card_name("YR", "zh-Hant") == "黃車" and card_name("YR", "zh") == "黄车"
    assert announce({"type": "card_shown", "card": "GK", "seat": "E", "action": "discard"}, "zh-Hant") == "東家打出綠將。"
    advice = {"type": "advice", "card": "YK", "claims": [{"claim": "pong", "meld": ["YK", "YK", "YK"], "wins": False}],
              "discard": "GP"}
    spoken = {lang: announce(advice, lang) for lang in PAGE_LANGUAGES}
    assert "pong" not in spoken["en"] and "three of a kind" in spoken["en"] and "Green Soldier" in spoken["en"]
    assert "碰" in spoken["zh"] and "打出绿卒" in spoken["zh"] and "Tướng vàng" in spoken["vi"]
