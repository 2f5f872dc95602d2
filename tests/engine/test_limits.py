"""Work limits: input bigger than any real hand is refused at once, with a short message."""

import time

import pytest

from sisepai.engine import advise, score
from sisepai.engine.errors import InvalidCardError, SisepaiError, TooManyCardsError
from sisepai.engine.gangoffour.plays import parse_play
from sisepai.engine.gangoffour.scoring import deal_scores

THIRTY = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC GA GE WA WE YA YE RA RE GR GH"


def test_a_hand_over_the_rules_size_is_refused_at_once():
    t = time.perf_counter()
    with pytest.raises(TooManyCardsError, match="30 cards, but a hand holds at most 21"):
        advise(THIRTY)
    with pytest.raises(TooManyCardsError):
        advise(THIRTY[:-3], shown="GH", relation="other")
    with pytest.raises(TooManyCardsError, match="exposed"):
        score(" ".join(THIRTY.split()[:18]), exposed=["GR GH GC", "WR WH WC"])
    assert time.perf_counter() - t < 1.0  # refused before any search, not after one


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
