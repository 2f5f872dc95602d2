"""The Four Color Cards engine: cards, melds, splits, scoring, claims and advice. Pure Python.

>>> from sisepai.engine import score
>>> score("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK").total
11
"""

from .advice import Advice, DiscardAdvice, MeldAdvice, Wait, advise, best_discard, best_meld, distance_to_win, waits
from .cards import (
    ALL_CARDS, CARD_CODES, JOKER, NUM_KINDS, Card, build_deck, format_cards, parse_card_ids, parse_cards,
    shuffled_deck,
)
from .claims import Claim, ClaimKind, claims
from .decompose import decompositions
from .errors import (
    IllegalMoveError, InvalidCardError, InvalidMeldError, InvalidMoveError, RulesError, SisepaiError,
    TooManyCopiesError,
)
from .hand import Hand
from .melds import Meld, MeldKind, why_not_meld
from .rules import Rules, preset_names, resolve_rules
from .scoring import Payment, Score, ScoredMeld, all_scores, is_winning, payments, score

__all__ = [name for name in dir() if not name.startswith("_")]
