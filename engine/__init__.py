"""The Four Color Cards engine: cards, melds, splits, scoring, claims and advice. Pure Python.

The names below load with the module that holds them, on first use, so a command that only
scores never loads the advice tables.

>>> from sisepai.engine import score
>>> score("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK").total
11
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .claims import Claim, ClaimKind, claims  # here at once: ``claims`` is a function, not its module

if TYPE_CHECKING:  # what type checkers and editors see; at run time each loads on first use
    from .advice import (
        Advice,
        DiscardAdvice,
        MeldAdvice,
        Wait,
        advise,
        best_discard,
        best_meld,
        distance_to_win,
        waits,
    )
    from .cards import (
        ALL_CARDS,
        CARD_CODES,
        JOKER,
        NUM_KINDS,
        Card,
        build_deck,
        format_cards,
        parse_card_ids,
        parse_cards,
        shuffled_deck,
    )
    from .decompose import decompositions
    from .errors import (
        IllegalMoveError,
        InvalidCardError,
        InvalidMeldError,
        InvalidMoveError,
        RulesError,
        SisepaiError,
        TooManyCopiesError,
    )
    from .hand import Hand
    from .melds import Meld, MeldKind, why_not_meld
    from .rules import Rules, preset_names, resolve_rules
    from .scoring import Payment, Score, ScoredMeld, all_scores, is_winning, payments, score

_EXPORTS = {
    "advice": ("Advice", "DiscardAdvice", "MeldAdvice", "Wait", "advise", "best_discard", "best_meld",
               "distance_to_win", "waits"),
    "cards": ("ALL_CARDS", "CARD_CODES", "JOKER", "NUM_KINDS", "Card", "build_deck", "format_cards",
              "parse_card_ids", "parse_cards", "shuffled_deck"),
    "decompose": ("decompositions",),
    "errors": ("IllegalMoveError", "InvalidCardError", "InvalidMeldError", "InvalidMoveError", "RulesError",
               "SisepaiError", "TooManyCopiesError"),
    "hand": ("Hand",),
    "melds": ("Meld", "MeldKind", "why_not_meld"),
    "rules": ("Rules", "preset_names", "resolve_rules"),
    "scoring": ("Payment", "Score", "ScoredMeld", "all_scores", "is_winning", "payments", "score"),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted([*_HOME, "Claim", "ClaimKind", "claims"])


def __getattr__(name: str):
    """``sisepai.engine.NAME``: loaded from its module on first use, then kept here."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
