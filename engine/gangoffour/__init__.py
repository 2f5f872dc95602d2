"""Gang of Four: cards, plays and comparisons, legal moves, a match to 100, bots and advice.

>>> from sisepai.engine.gangoffour import beats, parse_play, deal_scores
>>> beats(parse_play("g2 y2 r2 g2"), parse_play("r10 r10 y10"))
True
>>> deal_scores([0, 7, 8, 16])
[0, 7, 16, 80]
"""

from .advice import GofAdvice, GofGreedyBot, GofRandomBot, advise_play
from .cards import gof_code, gof_deck, parse_gof_card, parse_gof_cards
from .game import GofMatch
from .legal import all_plays, legal_plays, may_pass
from .plays import Play, beats, classify, parse_play
from .scoring import deal_score, deal_scores, match_over, match_winners, multiplier
from .simulate import play_match, simulate

__all__ = [name for name in dir() if not name.startswith("_")]
