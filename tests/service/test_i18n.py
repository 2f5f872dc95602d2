"""The page's catalogues: every key in every language, the same placeholders, and the server's words
(events, card names, claims) in each language the page offers."""

import json
import re
from pathlib import Path

import pytest

from sisepai.vision.live.announce import CLAIM_WORDS, LANGUAGES, announce, card_name, page_names

CATALOGUES = Path(__file__).resolve().parents[2] / "engine" / "i18n"
PAGE_LANGUAGES = ("en", "zh", "zh-Hant", "zh-HK", "vi")


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
    assert card_name("YR", "zh-Hant") == "黃俥" and card_name("YR", "zh") == "黄俥" and card_name("GC", "zh-HK") == "綠包"
    assert announce({"type": "card_shown", "card": "GK", "seat": "E", "action": "discard"}, "zh-Hant") == "東家打出綠將。"
    advice = {"type": "advice", "card": "YK", "claims": [{"claim": "pong", "meld": ["YK", "YK", "YK"], "wins": False}],
              "discard": "GP"}
    spoken = {lang: announce(advice, lang) for lang in PAGE_LANGUAGES}
    assert "pong" not in spoken["en"] and "three of a kind" in spoken["en"] and "Green Soldier" in spoken["en"]
    assert "碰" in spoken["zh"] and "打出绿卒" in spoken["zh"] and "Tướng vàng" in spoken["vi"]
    win = {"type": "win_claimed", "seat": "E", "points": 12}
    assert announce(win, "zh-HK") == "東家食糊，12分！" and announce(win, "zh-Hant") == "東家胡牌：12分。"


def _codes_in_source():
    """Every error code the server's code names: ``code="..."``, the codes handed to
    :func:`body_of`, :class:`Refusal` and the guard's refusals, and the error classes' own."""
    import importlib

    from sisepai.engine.errors import SisepaiError

    root = Path(__file__).resolve().parents[2]
    found = set()
    patterns = (r'\bcode="(\w+)"', r'Refusal\(\d+, "(\w+)"', r'body_of\((?:[^()]|\([^()]*\))*?"(\w+)",\s*[{\w]',
                r'_refuse\(send, \d+, (?:[^()]|\([^()]*\))*?,\s*"(\w+)"', r'self\.code, self\.params = "(\w+)"',
                r'"code": "(\w+)"')
    for folder in ("engine", "ledger", "service", "vision"):
        for path in (root / folder).rglob("*.py"):
            text = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                             if not line.lstrip().startswith((">>>", "...")))  # not the examples
            for pattern in patterns:
                found |= set(re.findall(pattern, text, flags=re.M | re.S))
    for module in ("sisepai.ledger.store", "sisepai.ledger.db", "sisepai.faces.deck", "sisepai.vision.live.options"):
        importlib.import_module(module)
    classes = [SisepaiError]
    while classes:
        cls = classes.pop()
        found.add(cls.code)
        classes += cls.__subclasses__()
    return found


def test_every_error_code_the_server_sends_has_words_in_every_language():
    from sisepai.service.refusals import CODES

    used = _codes_in_source() - {"note", "cell_looks_like", "too_large_thing", "too_small_thing"}
    assert {"unknown_card", "copies", "deck_exists", "live_slots", "busy", "headers_too_large"} <= used
    assert used <= set(CODES), used - set(CODES)  # a code with no words would reach the page as "error"
    assert set(CODES) - used <= {"invalid_field", "internal_error", "not_found"}  # sent by the handlers' dicts
    for lang in PAGE_LANGUAGES:
        catalogue = _load(lang)
        for code, params in CODES.items():
            assert _placeholders(catalogue["err." + code]) == sorted(params), (lang, code)
        for note in ("cell_looks_like", "too_large_thing", "too_small_thing"):
            assert "note." + note in catalogue


def test_errors_carry_a_code_and_exactly_the_params_their_sentence_needs():
    from fastapi.testclient import TestClient

    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings

    with TestClient(create_app(Settings(db=":memory:", load_model=False))) as client:
        answers = [client.post("/api/score", json={"cards": "GK XX"}),
                   client.post("/api/score", json={"cards": "GK GK GK GK GK"}),
                   client.post("/api/score", json={"cards": " ".join(["GK", "GA", "GE", "GR", "GH", "GC", "GP"] * 3 + ["WK"])}),
                   client.post("/api/ledger/undo", params={"table": "nowhere"}),
                   client.post("/api/score", json={})]
    got = [(r.status_code, r.json()["code"], r.json()["params"]) for r in answers]
    assert got == [(422, "unknown_card", {"token": "XX"}), (422, "copies", {"card": "GK", "n": 5, "cap": 4}),
                   (422, "hand_size", {"n": 22, "max": 21}), (404, "unknown_table", {"table": "nowhere"}),
                   (422, "invalid_field", {})]
    assert "XX" in answers[0].json()["detail"]  # the English sentence stays for programs


def test_a_code_without_its_params_falls_back_to_the_plain_sentence():
    from sisepai.service.refusals import body_of

    assert body_of("x", "copies", {"card": "GK"}) == {"detail": "x", "code": "bad_input", "params": {}}
    assert body_of("x", "copies", {"card": "GK", "n": 5, "cap": 4, "extra": 1})["params"] == {"card": "GK", "n": 5, "cap": 4}
    assert body_of("x", "unknown_table", {"table": "t" * 500})["params"]["table"] == "t" * 40
