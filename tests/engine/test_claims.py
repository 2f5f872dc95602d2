import pytest

from sisepai.engine import SisepaiError, claims, parse_card_ids
from sisepai.engine.cards import counts_of

READY = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC"


def kinds(hand: str, shown: str, relation: str) -> list[tuple[str, int, str]]:
    out = claims(counts_of(parse_card_ids(hand)), parse_card_ids(shown)[0], relation)
    return [(c.kind.value, c.priority, str(c.meld)) for c in out]


def test_zhimo_on_own_draw_and_hu_on_others():
    assert kinds(READY, "YK", "own")[0] == ("zhimo", 0, "YK")
    assert kinds(READY, "YK", "other")[0] == ("hu", 1, "YK")  # a single from another's card, to win


def test_single_from_another_players_card_is_refused_unless_it_wins():
    hand = "GK GA GE YR YH"
    assert kinds(hand, "RK", "other") == []
    assert kinds(hand, "RK", "previous") == []
    assert kinds(hand, "RK", "own") == [("own-group", 3, "RK")]


def test_pair_only_from_own_draw_and_without_priority():
    assert kinds("GA", "GA", "other") == []
    assert kinds("GA", "GA", "own") == [("own-pair", 5, "GA GA")]


def test_gan_and_pong_from_anyone():
    assert kinds("WH WH WH", "WH", "other")[0] == ("gan", 2, "WH WH WH WH")
    assert ("pong", 2, "WH WH WH") in kinds("WH WH WH", "WH", "other")


def test_chi_only_from_previous_player():
    assert kinds("WR WC", "WH", "previous") == [("chi", 4, "WR WH WC")]
    assert kinds("WR WC", "WH", "other") == []
    assert kinds("GP YP RP", "WP", "previous") == [("chi", 4, "GP WP YP RP"), ("chi", 4, "GP WP YP"), ("chi", 4, "GP WP RP"), ("chi", 4, "WP YP RP")]


def test_bad_relation():
    with pytest.raises(SisepaiError, match="relation"):
        claims(counts_of([]), 0, "mine")
