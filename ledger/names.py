"""Names people type: players and tables, in any script, and never a hidden character.

A name is shown on every player's screen and written into the ledger's CSV. Letters of every
language are welcome (Zoë, 桌子1, Grandma's table, Анна); a name is normalised to NFKC, so "Zoë"
typed two ways, and "Ａｎｎ" in full-width letters, are the one player they look like. Refused, with
a message in words: control characters (NUL, newlines), format characters (a right-to-left
override that turns the text around, zero-width spaces that make a second "Ann"), characters
drawn as nothing (variation selectors, Hangul fillers: Unicode's Default_Ignorable_Code_Point),
unassigned code points, leading or doubled spaces, and letters of look-alike alphabets mixed in one word (a
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


DEFAULT_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                     (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters a font
draws as nothing (variation selectors, the combining grapheme joiner, Hangul fillers, tags). PRECIS
(RFC 8264, 9.13) disallows them in every identifier; Python's ``unicodedata`` does not carry the
property, so it is written out here (stable since Unicode 6.0 but for unassigned points, which are
refused as unassigned anyway)."""
_IGNORABLE_WORDS = {0x034F: "a combining grapheme joiner", 0x3164: "a Hangul filler", 0x115F: "a Hangul filler",
                    0x1160: "a Hangul filler", 0xFFA0: "a Hangul filler", 0x00AD: "a soft hyphen"}


def is_default_ignorable(ch: str) -> bool:
    """Whether ``ch`` is a Default_Ignorable_Code_Point (:data:`DEFAULT_IGNORABLE`).

    >>> [is_default_ignorable(c) for c in ("\ufe0f", "\u3164", "\U000e0100", "A", "\u0301")]
    [True, True, True, False, False]
    """
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in DEFAULT_IGNORABLE)


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
        if is_default_ignorable(ch):
            selector = 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF
            kind = (_KNOWN.get(ord(ch)) or _IGNORABLE_WORDS.get(ord(ch))
                    or ("a variation selector" if selector else "a character drawn as nothing"))
            raise SisepaiError(f"{what} may not hold invisible characters (U+{ord(ch):04X}, {kind})")
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
