"""Names people type: players and tables, in any script, and never a hidden character.

A name is shown on every player's screen and written into the ledger's CSV. Letters of every
language are welcome (Zoë, 桌子1, Grandma's table, Анна); a name is normalised to NFKC, so "Zoë"
typed two ways, and "Ａｎｎ" in full-width letters, are the one player they look like. Refused, with
a message in words: control characters (NUL, newlines), format characters (a right-to-left
override that turns the text around, zero-width spaces that make a second "Ann"), unassigned code
points, leading or doubled spaces, and letters of look-alike alphabets mixed in one word (a
Cyrillic "А" among Latin letters makes a second "Ann" that no one can tell apart).

>>> clean_name("  Zoe\\u0308 ")
'Zoë'
>>> clean_name("\\uff21nn")
'Ann'
>>> clean_name("\\u0410nn")
Traceback (most recent call last):
...
sisepai.engine.errors.SisepaiError: a player's name mixes Cyrillic and Latin letters that look alike ('А' is Cyrillic); write it in one alphabet
>>> clean_name("桌子1", "a table's name")
'桌子1'
>>> clean_name("Ann\\u200b")
Traceback (most recent call last):
...
sisepai.engine.errors.SisepaiError: a player's name may not hold invisible characters (U+200B, a zero-width space)
"""

from __future__ import annotations

import unicodedata

from sisepai.engine.errors import SisepaiError

MAX_NAME = 40
"""The longest name, in characters (after normalisation)."""
_WORDS = {"Cc": "a control character", "Cf": "an invisible formatting character", "Cs": "a broken character",
          "Co": "a private-use character", "Cn": "an unassigned character", "Zl": "a line break",
          "Zp": "a paragraph break"}
_KNOWN = {0x200B: "a zero-width space", 0x200C: "a zero-width non-joiner", 0x200D: "a zero-width joiner",
          0x202E: "a right-to-left override", 0x202D: "a left-to-right override", 0x2066: "a direction isolate",
          0x2067: "a direction isolate", 0x2068: "a direction isolate", 0x2069: "a direction isolate",
          0xFEFF: "a zero-width no-break space", 0x00: "a NUL", 0x0A: "a new line", 0x0D: "a carriage return",
          0x09: "a tab"}


def clean_name(text: str, what: str = "a player's name", forbid: str = "") -> str:
    """``text`` as a name, normalised (NFC, outer spaces trimmed), or a :class:`SisepaiError` in
    words naming what is wrong with it; ``forbid``: characters it may not hold besides.

    >>> clean_name("../x", "a table's name", forbid="/")
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: a table's name may not hold '/'
    """
    if not isinstance(text, str):
        raise SisepaiError(f"{what} must be text")
    name = unicodedata.normalize("NFKC", text).strip(" ")
    for ch in name:
        category = unicodedata.category(ch)
        if category in _WORDS:
            kind = _KNOWN.get(ord(ch), _WORDS[category])
            raise SisepaiError(f"{what} may not hold invisible characters (U+{ord(ch):04X}, {kind})")
        if category.startswith("Z") and ch != " ":
            raise SisepaiError(f"{what} may hold plain spaces only (U+{ord(ch):04X} is another space)")
    for ch in forbid:
        if ch in name:
            raise SisepaiError(f"{what} may not hold {ch!r}")
    if not name:
        raise SisepaiError(f"{what} is empty")
    if len(name) > MAX_NAME:
        raise SisepaiError(f"{what} has at most {MAX_NAME} characters ({len(name)} given)")
    if "  " in name:
        raise SisepaiError(f"{what} may not hold two spaces in a row")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise SisepaiError(f"{what} needs at least one letter or digit")
    for word in name.split(" "):
        scripts = {alphabet: ch for ch in word if (alphabet := _look_alike_alphabet(ch))}
        if len(scripts) > 1:
            odd = min(scripts, key=lambda a: sum(_look_alike_alphabet(c) == a for c in word))
            others = " and ".join(sorted(set(scripts) - {odd}))
            raise SisepaiError(f"{what} mixes {odd.title()} and {others.title()} letters that look alike "
                               f"({scripts[odd]!r} is {odd.title()}); write it in one alphabet")
    return name


_LOOK_ALIKE = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE")
"""Alphabets whose letters pass for each other (А and A, ο and o, Տ and S)."""


def _look_alike_alphabet(ch: str) -> str | None:
    """The look-alike alphabet of a letter, or ``None`` for any other character."""
    if not ch.isalpha():
        return None
    first = unicodedata.name(ch, "").split(" ", 1)[0]
    return first if first in _LOOK_ALIKE else None
