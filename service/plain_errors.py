"""Validation errors in one sentence a player understands, with the details kept for programs.

>>> plain_sentence([{"loc": ("body", "players"), "type": "too_short", "msg": "List should have at least 2 items",
...                  "ctx": {"min_length": 2}}])
'Players: give at least 2.'
>>> plain_sentence([{"loc": ("query", "limit"), "type": "less_than_equal", "msg": "", "ctx": {"le": 100}}])
'Limit: at most 100.'
>>> plain_sentence([{"loc": ("body", "left"), "type": "too_short", "msg": "", "ctx": {"min_length": 4}}])
'Cards left in each hand: give 4 numbers, one for each hand, like 0, 3, 7, 12.'

A field that takes one of several forms (``rules``: a preset name or an object) fails once per
form; the error that got furthest into the value is the one said:

>>> plain_sentence([{"loc": ("body", "rules", "str"), "type": "string_type", "msg": ""},
...                 {"loc": ("body", "rules", "RulesOverrides", "points", "joker"), "type": "finite_number", "msg": ""}])
'Joker: a finite number.'
>>> plain_sentence([{"loc": ("body", "rules", "str"), "type": "string_type", "msg": ""},
...                 {"loc": ("body", "rules", "RulesOverrides"), "type": "model_attributes_type", "msg": ""}])
'Rules: a preset name (seesek, tusac) or {"preset": "seesek", "points": {"joker": 5}}.'
"""

from __future__ import annotations

from typing import Any, Iterable

WORDS = {
    "missing": "this is needed",
    "too_short": "give at least {min_length}",
    "too_long": "give at most {max_length}",
    "string_too_short": "at least {min_length} characters",
    "string_too_long": "at most {max_length} characters",
    "int_parsing": "a whole number",
    "int_type": "a whole number",
    "float_parsing": "a number",
    "finite_number": "a finite number",
    "bool_parsing": "yes or no (true or false)",
    "string_type": "text",
    "list_type": "a list",
    "greater_than_equal": "at least {ge}",
    "greater_than": "more than {gt}",
    "less_than_equal": "at most {le}",
    "less_than": "less than {lt}",
    "json_invalid": "the request is not valid JSON",
    "extra_forbidden": "not a field this accepts",
    "literal_error": "one of {expected}",
    "enum": "one of {expected}",
}
FIELD_NAMES = {"left": "Cards left in each hand", "cards": "Cards", "players": "Players", "winner": "Winner", "discarder": "Discarder",
               "points": "Points", "name": "Name", "table": "Table", "rules": "Rules", "hand": "Hand"}


FIELD_WORDS = {("left", "too_short"): "give 4 numbers, one for each hand, like 0, 3, 7, 12",
               ("left", "too_long"): "give 4 numbers, one for each hand, like 0, 3, 7, 12",
               ("rules", "union"): 'a preset name (seesek, tusac) or {{"preset": "seesek", "points": {{"joker": 5}}}}'}
"""Words for one field's error where the general words would read like code."""


TYPE_TAGS = {"str", "int", "float", "bool", "list", "dict", "none"}


def _is_form(part: Any) -> bool:
    """A location part that names one form of a field taking several (``str``, ``RulesOverrides``,
    ``function-after[...]``), not a field."""
    return isinstance(part, str) and (part in TYPE_TAGS or part[:1].isupper() or "[" in part)


def _path(loc: Iterable[Any]) -> tuple:
    return tuple(p for p in loc if not _is_form(p))


def field_of(loc: Iterable[Any]) -> str:
    """The field an error is about, in words: the last named part of its location."""
    names = [str(p) for p in _path(loc) if not isinstance(p, int) and p not in ("body", "query", "path", "header")]
    if not names:
        return "The request"
    last = names[-1]
    return FIELD_NAMES.get(last, last.replace("_", " ").capitalize())


def plain_sentence(errors: list[dict]) -> str:
    """The first error as one sentence (see the module); the others follow on asking again."""
    if not errors:
        return "The request is not valid."
    e = max(errors, key=lambda err: len(_path(err.get("loc", ()))))  # the first of the deepest
    path = _path(e.get("loc", ()))
    forms = [err for err in errors if _path(err.get("loc", ())) == path]
    names = [str(p) for p in path if not isinstance(p, int)]
    kind = "union" if len(forms) > 1 and len({err.get("type") for err in forms}) > 1 else e.get("type", "")
    words = FIELD_WORDS.get((names[-1] if names else "", kind)) or WORDS.get(e.get("type", ""))
    ctx = e.get("ctx") or {}
    try:
        what = words.format(**ctx) if words else (e.get("msg") or "not valid").rstrip(".")
    except (KeyError, IndexError):
        what = (e.get("msg") or "not valid").rstrip(".")
    if e.get("type") == "json_invalid":
        return "The request is not valid JSON."
    paths = {_path(err.get("loc", ())) for err in errors}
    others = len({p for p in paths if p != path[:len(p)]})  # a form's own parent is no other error
    more = f" (and {others} more)" if others else ""
    return f"{field_of(e.get('loc', ()))}: {what}{more}."
