import random

from hypothesis import given, settings, strategies as st

from sisepai.engine import advise, best_discard, best_meld, distance_to_win, is_winning, waits
from sisepai.engine.cards import CARD_CODES

from .helpers import random_winning_hand

READY = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC"


def test_waits_and_unseen_counts():
    w = {x.card: x.unseen for x in waits(READY)}
    assert w["YK"] == 4 and w["GK"] == 3 and w["J"] == 4
    assert w["WC"] == 1  # three in hand
    # cards seen elsewhere on the table reduce the unseen count
    w2 = {x.card: x.unseen for x in waits(READY, visible="YK YK J")}
    assert w2["YK"] == 2 and w2["J"] == 3
    for code in w:
        assert is_winning(READY + " " + code)
    for code in set(CARD_CODES) - set(w):
        hand = READY + " " + code
        try:
            assert not is_winning(hand)
        except ValueError:
            pass  # more copies than the deck holds


def test_distance():
    assert distance_to_win(READY + " YK") == 0
    assert distance_to_win(READY) == 1
    broken = READY.replace("YR", "GA")  # breaks the yellow field group
    assert distance_to_win(broken) == 2


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_distance_one_iff_waits(seed):
    """A 20-card hand is ready (distance 1) exactly when it has a wait."""
    rng = random.Random(seed)
    hand = random_winning_hand(rng)
    hand.pop(rng.randrange(21))
    if rng.random() < 0.6:
        hand[rng.randrange(20)] = rng.choice(CARD_CODES[:28])
    try:
        has_waits = bool(waits(hand))
    except ValueError:
        return  # the swap made five copies
    assert (distance_to_win(hand) == 1) == has_waits


def test_distance_never_grows_by_more_than_one_per_card():
    rng = random.Random(11)
    for _ in range(40):
        hand = random_winning_hand(rng)
        hand.pop()
        d = distance_to_win(hand)
        hand[rng.randrange(20)] = rng.choice(CARD_CODES[:28])
        try:
            d2 = distance_to_win(hand)
        except ValueError:
            continue
        assert d2 <= d + 1


def test_best_meld_wins_when_it_can():
    hand = "WR WC GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J YK"
    advice = best_meld(hand, "WH")
    assert advice.wins and advice.claim.kind.value == "zhimo"
    advice = best_meld(hand, "WH", relation="other")
    assert advice.wins and advice.claim.kind.value == "hu"


def test_best_meld_lets_a_useless_card_go():
    advice = best_meld(READY, "GR", relation="own")
    assert advice.claim is None  # a GR cannot help: let it go
    assert advice.distance == 1


def test_best_discard_never_a_general_or_joker():
    hand = READY + " RE"
    d = best_discard(hand)
    assert d.card == "RE"
    assert d.distance == 1 and d.live_waits > 0
    only_generals = "GK GK GK WK WK WK YK YK YK RK RK RK J J J J J GA GA GA GE"
    assert best_discard(only_generals).card in ("GA", "GE")


def test_advise_bundle():
    a = advise(READY, shown="YK")
    assert a.distance == 1
    assert a.claims[0].kind.value == "zhimo" and a.best.wins
    a = advise(READY + " RE")
    assert a.discard.card == "RE"
    d = a.to_dict()
    assert set(d) == {"distance", "waits", "claims", "best", "discard"}
