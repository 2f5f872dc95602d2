import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sisepai.engine import advise, best_discard, best_meld, distance_to_win, is_winning, score, waits
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
    for code in set(CARD_CODES) - set(w):  # READY holds at most 3 copies of a card: every hand here is legal
        assert not is_winning(READY + " " + code), code


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


def test_advice_takes_the_higher_scoring_win():
    # RULES.md: any meld may be made from another's card to win; a General single scores 1, so
    # G將 alone (with G將 G將 as two more singles) beats G將 G將 G將 as one triple
    hand = "GK GK WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC RK"
    seesek = advise(hand, shown="GK", relation="other")
    assert seesek.best.wins and seesek.best.claim.meld.codes == ["GK"] and seesek.best.points == 13
    tusac = advise(hand, shown="GK", relation="other", rules="tusac")
    assert tusac.best.points == 15
    assert score(hand + " GK", rules="tusac", winning_card="GK", self_drawn=False).total == 15


def test_advice_counts_exposed_melds_in_a_win():
    # "A hand wins when its 21 cards (the concealed cards, the exposed melds, and the card just
    # drawn or claimed) split completely": the exposed triple's points are part of the win
    hand, exposed = "GK GA GE YR YH YC RC RC RC RC GP WP YP RP WK RA RA", ["WE WE WE"]
    seesek = advise(hand, shown="J", exposed=exposed, relation="other")
    assert seesek.best.points == 11 == score(hand + " J", exposed).total
    tusac = advise(hand, shown="J", exposed=exposed, relation="other", rules="tusac")
    assert tusac.best.points == 17 and tusac.best.points % 2 == 1


@pytest.mark.parametrize("rules", ["seesek", "tusac"])
def test_advised_win_points_match_a_brute_force_scorer(rules):
    from .helpers import bf_exposed_points, brute_force_win, random_winning_melds

    tusac = rules == "tusac"
    rng = random.Random(25)
    checked = 0
    for _ in range(60):
        melds = random_winning_melds(rng)
        k = rng.choice([0, 0, 1, 2])
        exposed = [m for m in melds[:k] if "J" not in m and len(m) > 1]
        concealed = [c for m in melds[k:] for c in m] + [c for m in melds[:k] if m not in exposed for c in m]
        won = rng.choice(concealed)
        relation = rng.choice(["own", "other"])
        rest = list(concealed)
        rest.remove(won)
        advice = advise(rest, shown=won, exposed=[" ".join(m) for m in exposed], relation=relation, rules=rules)
        expected = brute_force_win(concealed, won, claimed=relation != "own", tusac=tusac)
        expected += sum(bf_exposed_points(m, tusac) for m in exposed)
        assert advice.best.wins and advice.best.points == expected, (rest, won, exposed, relation)
        checked += 1
    assert checked == 60


def test_discard_distances_equal_the_distance_after_each_discard():
    from sisepai.engine.advice.discards import _discard_distances
    from sisepai.engine.advice.distance import _minus, distance_counts
    from sisepai.engine.cards import counts_of, shuffled_deck
    from sisepai.engine.rules import Rules

    rules = Rules.preset("seesek")
    rng = random.Random(3)
    for _ in range(60):
        hand = counts_of([c.id for c in shuffled_deck(rng.random())[:21]])
        fast = _discard_distances(hand, 0, rules)
        for k, d in fast.items():
            assert d == distance_counts(_minus(hand, k), 0, rules)
