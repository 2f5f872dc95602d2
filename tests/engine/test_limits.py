"""Work limits: input bigger than any real hand is refused at once, with a short message."""

import pytest

from sisepai.engine import advise, score
from sisepai.engine.errors import InvalidCardError, SisepaiError, TooManyCardsError
from sisepai.engine.gangoffour.plays import parse_play
from sisepai.engine.gangoffour.scoring import deal_scores

THIRTY = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC GA GE WA WE YA YE RA RE GR GH"


def test_a_hand_over_the_rules_size_is_refused_at_once(monkeypatch):
    import sisepai.engine.advice as advice_module
    import sisepai.engine.scoring as scoring_module

    def no_search(*args, **kwargs):
        raise AssertionError("searched a hand that should have been refused first")

    # refused before any search, not after one
    for module, name in ((advice_module, "distance_counts"), (scoring_module, "decompositions"),
                         (scoring_module, "BestTable")):
        monkeypatch.setattr(module, name, no_search)
    with pytest.raises(TooManyCardsError, match="30 cards, but a hand holds at most 21"):
        advise(THIRTY)
    with pytest.raises(TooManyCardsError):
        advise(THIRTY[:-3], shown="GH", relation="other")
    with pytest.raises(TooManyCardsError, match="exposed"):
        score(" ".join(THIRTY.split()[:18]), exposed=["GR GH GC", "WR WH WC"])


def test_shown_is_exactly_one_card():
    with pytest.raises(SisepaiError, match="one card expected, got 2"):
        advise("GK GA GE", shown="WC WC")


def test_an_unknown_card_is_not_echoed_whole():
    with pytest.raises(InvalidCardError) as err:
        score("X" * 1_000_000)
    assert len(str(err.value)) < 300 and "1000000 characters" in str(err.value)


def test_gang_of_four_sizes_and_winners():
    with pytest.raises(InvalidCardError, match="the whole deck has 64"):
        parse_play("g1 " * 200_000)
    with pytest.raises(InvalidCardError, match="copies"):
        parse_play("g1 g1 g1 g1 g1")
    with pytest.raises(SisepaiError, match="4 players"):
        deal_scores([0] + [3] * 100_000)
    with pytest.raises(SisepaiError, match="got 0"):
        deal_scores([1, 2, 3, 4])
    with pytest.raises(SisepaiError, match="got 2"):
        deal_scores([0, 0, 3, 4])
