"""The words a player meets, one home for every language: the catalogues ``engine/i18n/LANG.json``
hold each sentence whole, as an ICU message (``{n, plural, one {# card} other {# cards}}``). The
page reads them over HTTP (``/i18n/LANG.json``); the spoken events and the CLI through :func:`say`.
A key a catalogue lacks falls back to English.

>>> say("en", "say.table", n=1), say("en", "say.table", n=3)
('The table: 1 card face up.', 'The table: 3 cards face up.')
>>> say("vi", "say.winPoints", seat="Nam", points=12)
'Nam tới: 12 điểm.'
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

CATALOGUES = Path(__file__).resolve().parent / "i18n"
LANGUAGES = ("en", "zh", "zh-Hant", "zh-HK", "vi")
"""``zh`` is Chinese in simplified characters, ``zh-Hant`` in traditional ones, ``zh-HK`` Hong Kong's
written Chinese in Cantonese usage (its words for a win and the discarder; spoken in a Cantonese voice)."""

_PLURAL = re.compile(r"\{(\w+), plural, ((?:[\w=]+ \{[^{}]*\}\s*)+)\}")
_FORM = re.compile(r"([\w=]+) \{([^{}]*)\}")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str]:
    """Every message of ``lang`` by key."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose from {', '.join(LANGUAGES)}")
    return json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))


def plural_form(lang: str, n: float) -> str:
    """The CLDR plural category of ``n``: English tells one from other; Chinese and Vietnamese
    have one form.

    >>> plural_form("en", 1), plural_form("en", 2), plural_form("vi", 1)
    ('one', 'other', 'other')
    """
    return "one" if lang == "en" and n == 1 else "other"


def format_message(text: str, lang: str, **values) -> str:
    """``text`` (an ICU message) with its plurals chosen and its placeholders filled, as the page's
    ``format`` does.

    >>> format_message("{n, plural, =0 {none} one {# card} other {# cards}} of {who}", "en", n=0, who="Ann")
    'none of Ann'
    """
    def plural(match: re.Match) -> str:
        n = values.get(match[1], 0)
        forms = dict(_FORM.findall(match[2]))
        body = forms.get(f"={n}", forms.get(plural_form(lang, n), forms.get("other", "")))
        return body.replace("#", str(n))

    text = _PLURAL.sub(plural, text)
    return _PLACEHOLDER.sub(lambda m: str(values[m[1]]) if m[1] in values else m[0], text)


def say(lang: str, key: str, **values) -> str:
    """The message ``key`` in ``lang`` (English where ``lang`` lacks it), filled with ``values``."""
    text = catalogue(lang).get(key)
    if text is None:
        text = catalogue("en")[key]
    return format_message(text, lang, **values)
