"""The catalogues speak the glossary's words (docs/glossary.md): each thing in its language's
word, and none of the words the glossary rules out."""

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


def test_each_catalogue_says_each_thing_in_the_glossarys_word():
    rows = _rows()
    assert len(rows) >= 15 and set(COLUMNS) <= set(rows[0])
    assert set(COLUMNS.values()) == set(LANGUAGES)
    missing = []
    for row in rows:
        for column, lang in COLUMNS.items():
            text = " ".join(catalogue(lang).values())
            for word in _words(row[column]):
                if word.lower() not in text.lower():
                    missing.append((row["thing"], lang, word))
    assert not missing, missing


def test_no_catalogue_uses_a_word_the_glossary_rules_out():
    vi = " ".join(catalogue("vi").values())
    assert not re.search(r"(?<!\w)(ù|chíu)(?!\w)", vi, re.I)
    for lang in ("zh", "zh-Hant", "zh-HK"):
        text = " ".join(catalogue(lang).values())
        assert not [w for w in ("胡", "放炮", "王牌") if w in text], lang
        assert not re.search(r"每行|\d\s*行", text), lang  # a row of cards is 排
    for lang in ("zh", "zh-Hant"):  # 和 is the win, never "and" beside it
        assert not re.search(r"和(?!牌|了)", " ".join(catalogue(lang).values())), lang
    cantonese = " ".join(catalogue("zh-HK").values())
    assert not [w for w in ("和", "放槍", "網路") if w in cantonese]  # 食糊, 出沖, 網絡 in Hong Kong
