"""The catalogues speak the glossary's words (docs/glossary.md), key by key: each key that names a
thing says that thing in its language's word, no key says a word the glossary rules out, and
every word has a source or says it is the project's own choice."""

import re
from pathlib import Path

from sisepai.engine.words import LANGUAGES, catalogue

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
COLUMNS = {"English": "en", "繁體中文": "zh-Hant", "简体中文": "zh", "廣東話（香港）": "zh-HK", "Tiếng Việt": "vi"}


def _rows() -> list[dict[str, str]]:
    """The glossary's table of things, one dict a row: column heading -> cell."""
    lines = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines() if line.startswith("| ")]
    head = next(i for i, line in enumerate(lines) if line.startswith("| thing |"))
    names = [c.strip() for c in lines[head].strip("|").split("|")]
    rows = []
    for line in lines[head + 1:]:  # the |---| line is not among them
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) != len(names):
            break
        rows.append(dict(zip(names, cells)))
    return rows


def _words(cell: str) -> list[str]:
    """A cell's words: the forms split on ``/``, ``、`` and commas, each without a note in brackets."""
    return [re.sub(r"\s*\(.*\)$", "", w).strip() for w in re.split(r" / |、|, ", cell) if w.strip()]


def test_each_key_says_its_thing_in_the_glossarys_word():
    rows = _rows()
    assert len(rows) >= 15 and set(COLUMNS) <= set(rows[0]) and {"keys", "source"} <= set(rows[0])
    assert set(COLUMNS.values()) == set(LANGUAGES)
    wrong = []
    for row in rows:
        keys = [k.strip() for k in row["keys"].split(",")]
        for column, lang in COLUMNS.items():
            texts = catalogue(lang)
            words = [w.lower() for w in _words(row[column])]
            for key in keys:
                assert key in texts, f"{key} (glossary row {row['thing']!r}) is not in the {lang} catalogue"
                if not any(w in texts[key].lower() for w in words):
                    wrong.append((row["thing"], lang, key, texts[key][:60], words))
    assert not wrong, wrong


def test_every_word_has_a_source_or_a_reason():
    for row in _rows():
        source = row["source"]
        assert re.search(r"\w+\.\w+|README|own choice|characters", source), (row["thing"], source)
        if "own choice" in source:  # and why: a reason in brackets or after a colon
            assert re.search(r"[(:]", source), (row["thing"], "a choice of the project's own says why")


def _keys(lang: str, pattern: str) -> list[str]:
    return [k for k, v in catalogue(lang).items() if re.search(pattern, v, re.I)]


def test_no_key_says_a_word_the_glossary_rules_out():
    assert not _keys("vi", r"(?<!\w)(ù|chíu)(?!\w)|thẻ hề|quằn \(bốn lá\)")
    for lang in ("zh", "zh-HK"):
        assert not _keys(lang, "胡"), lang
    assert not _keys("zh-Hant", "和"), "繁體中文 says 胡 for a win and 與 for and"
    for lang in ("zh-Hant", "zh-HK"):
        assert not _keys(lang, "放炮"), "放炮 is the mainland's word"
    for lang in ("zh", "zh-Hant", "zh-HK"):
        assert not _keys(lang, "王牌|家規|家规|韓式|韩式"), lang
        assert not _keys(lang, r"每行|\d\s*行"), lang  # a row of cards is 排
        assert not _keys(lang, "[红紅黄黃][车車马馬]|[绿綠白][砲炮]"), "the cards print 俥, 傌 and 包"
    assert not _keys("zh", "放枪|自组|自对"), "放枪 is Taiwan's word; 吃 with one's own draw"
    assert not _keys("vi", r"(?<!\w)hoà(?!\w)|Tướng lẻ"), "one spelling, hòa; a lone General is Tướng đơn"
    for lang in ("en", "vi"):
        assert not _keys(lang, "Korean house"), "the preset is the Vietnamese game"
    assert not _keys("zh", r"和(?!牌|了)"), "和 is the win, never 'and' beside it"
    assert not _keys("zh-HK", "和|放槍|網路"), "食糊, 出沖, 網絡 in Hong Kong"


def test_spoken_sentences_hold_no_brackets():
    for lang in LANGUAGES:
        said = [k for k, v in catalogue(lang).items() if k.startswith(("say.", "claim.")) and re.search(r"[()（）]", v)]
        assert not said, (lang, said)
